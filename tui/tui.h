/* tui.h - the terminal interface, the one entry point src/cli/ calls. */
#ifndef AMC_TUI_H
#define AMC_TUI_H

#include <stdio.h>
#include "util/config.h"
#include "util/err.h"

typedef struct amc_tui_opts {
	const char *home;        /* $AMC_HOME */
	const amc_config *cfg;
	const char *theme;       /* NULL: [tui] theme */
	const char *graphics;    /* NULL: [tui] graphics */
	/* Script mode (tests): keys from `script`, the screen goes to a virtual
	 * terminal of cols x rows (TERM from the environment, xterm-256color when
	 * unset) and `:dump NAME` lines write NAME.txt into dump_dir. */
	const char *script;
	const char *dump_dir;
	int cols, rows;
} amc_tui_opts;

/* Run the interface until the user quits (or, in script mode, the script ends).
 * Returns 0, or -1 with e filled. */
int amc_tui_main(const amc_tui_opts *o, amc_err *e);
/* Write the amc(1) man page (generated from the keymap table). */
void amc_tui_write_man(FILE *f);

#endif
