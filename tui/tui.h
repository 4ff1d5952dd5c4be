/* tui.h - the terminal interface, the one entry point src/cli/ calls. */
#ifndef AMC_TUI_H
#define AMC_TUI_H

#include <stdio.h>
#include "tui/tree.h"
#include "util/config.h"
#include "util/err.h"

typedef struct amc_tui_opts {
	const char *home;        /* $AMC_HOME */
	const amc_config *cfg;
	const char *theme;       /* NULL: [tui] theme */
	const char *graphics;    /* NULL: [tui] graphics */
	/* Script mode (tests): keys from `script`, the screen goes to a virtual
	 * terminal of cols x rows (TERM from the environment, xterm-256color when
	 * unset) and `:dump NAME` lines write NAME.txt into dump_dir. Other script
	 * lines: keys by name separated by spaces ("j j Enter", "C-l", "S-Tab"),
	 * `:type TEXT`, `:resize COLSxROWS`, `:wait` (runners idle, then their
	 * events), `:drain` (wait up to 10 s for the next event), `:ask` (wait up to
 * 10 s for a question on screen: a task's ask_user or confirmation, or one another
	 * process asks through $AMC_HOME), `:changes` (what
	 * an inotify wake does: compare PRAGMA data_version and reload),
	 * `:click ROW,COL`, `:dclick ROW,COL`, `:wheel ROW,COL` (a negative ROW
	 * scrolls up). */
	const char *script;
	const char *dump_dir;
	const char *tty_output;  /* script mode: where terminal bytes go (default /dev/null) */
	int cols, rows;
	/* The selector maker of "pick an element, get the selector" (Y, p): the
	 * caller wires one in (flow/ is a sibling layer the TUI does not
	 * include); NULL: those keys say there is none. */
	amc_tui_selector_fn selector;
} amc_tui_opts;

/* Run the interface until the user quits (or, in script mode, the script ends).
 * Returns 0, or -1 with e filled. */
int amc_tui_main(const amc_tui_opts *o, amc_err *e);
/* Write the amc(1) man page (generated from the keymap table). */
void amc_tui_write_man(FILE *f);
/* amc_tui_write_man with more sections before ENVIRONMENT (see keymap.h). */
void amc_tui_write_man_with(FILE *f, void (*middle)(FILE *f, void *ud), void *ud);

#endif
