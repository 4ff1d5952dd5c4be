/* keymap.h - the one table of user actions ("requests"), tig-style: every row
 * binds one key to one request in some views, and the same rows produce the
 * key handling, the help screen (?) and the KEYS section of amc(1). */
#ifndef AMC_TUI_KEYMAP_H
#define AMC_TUI_KEYMAP_H

#include <stdio.h>

typedef enum amc_tui_req {
	AMC_REQ_NONE = 0,
	AMC_REQ_QUIT, AMC_REQ_HELP, AMC_REQ_BACK, AMC_REQ_ENTER,
	AMC_REQ_DOWN, AMC_REQ_UP, AMC_REQ_PAGE_DOWN, AMC_REQ_PAGE_UP, AMC_REQ_TOP, AMC_REQ_BOTTOM,
	AMC_REQ_NEXT_PANE, AMC_REQ_PREV_PANE, AMC_REQ_ZOOM,
	AMC_REQ_SEARCH, AMC_REQ_SEARCH_NEXT, AMC_REQ_SEARCH_PREV, AMC_REQ_FILTER,
	AMC_REQ_LAUNCH, AMC_REQ_CANCEL, AMC_REQ_DEVICES, AMC_REQ_FLEET, AMC_REQ_TASKS, AMC_REQ_REFRESH, AMC_REQ_PAUSE,
	AMC_REQ_COLLAPSE, AMC_REQ_EXPAND, AMC_REQ_COLLAPSE_ALL, AMC_REQ_EXPAND_ALL, AMC_REQ_JSON,
	AMC_REQ_YES, AMC_REQ_NO,
	AMC_REQ_SORT, AMC_REQ_OCR_MARK, AMC_REQ_SEARCH_MODE, AMC_REQ_OPEN_IMAGE, AMC_REQ_COPY_SELECTOR,
	AMC_REQ_CROP, AMC_REQ_PAN_LEFT, AMC_REQ_PAN_RIGHT, AMC_REQ_PICK, AMC_REQ_OCR_FULL,
	/* The Task view's evidence pane: the next tab, or one tab (1-5). */
	AMC_REQ_TAB_NEXT, AMC_REQ_TAB_TREE, AMC_REQ_TAB_OCR, AMC_REQ_TAB_SCENE, AMC_REQ_TAB_DIFF, AMC_REQ_TAB_SEMANTIC,
	AMC_REQ__COUNT
} amc_tui_req;

/* Views a binding applies to (a mask). */
enum {
	AMC_VIEW_TASKS = 1 << 0,
	AMC_VIEW_TASK = 1 << 1,
	AMC_VIEW_DEVICES = 1 << 2,
	AMC_VIEW_HELP = 1 << 3,
	AMC_VIEW_DIALOG = 1 << 4,
	AMC_VIEW_TREE = 1 << 5,   /* the UI-tree pane of the Task view has focus */
	AMC_VIEW_FLEET = 1 << 6,  /* the Fleet view (fleet.url set) */
	AMC_VIEW_HITS = 1 << 7,   /* the Search view: hits inside steps */
	AMC_VIEW_ALL = 0xff
};

/* Alt/Meta+key (ESC followed at once by the key), as tmux's M-- and M-+. */
#define AMC_KEY_META(c) (0x10000 | (c))

typedef struct amc_tui_binding {
	int key;               /* ncurses key code or character */
	const char *keyname;   /* as shown in help and the man page */
	unsigned views;        /* AMC_VIEW_* mask */
	amc_tui_req req;
	const char *help;      /* one line */
} amc_tui_binding;

/* The request for `key` in `view` (the most specific row wins: with the
 * AMC_VIEW_TREE bit set, rows for the tree pane come before the Task view's);
 * AMC_REQ_NONE if unbound. */
amc_tui_req amc_tui_keymap_lookup(int key, unsigned view);
/* Row i of the table, NULL past the end. */
const amc_tui_binding *amc_tui_keymap_at(size_t i);
/* Short name of a view bit ("Tasks", "Task", ...). */
const char *amc_tui_keymap_view_name(unsigned view);
/* Keys of `view` as "KEY  help" lines, for the help screen; keys bound to the
 * same request are joined ("j, Down"). Returns a malloc'd array of malloc'd
 * strings, *n entries; free with amc_tui_keymap_lines_free. */
char **amc_tui_keymap_lines(unsigned view, size_t *n);
void amc_tui_keymap_lines_free(char **lines, size_t n);
/* The whole amc(1) man page (roff), its VIEWS and KEYS sections from the table. */
void amc_tui_keymap_write_man(FILE *f);
/* The same page with `middle` writing more sections before ENVIRONMENT
 * (the CLI's commands and settings; NULL: none). */
void amc_tui_keymap_write_man_with(FILE *f, void (*middle)(FILE *f, void *ud), void *ud);
/* Parse a key name as used in script files ("j", "Enter", "Esc", "Down",
 * "C-c", "M--", "PgDn", "S-Tab", "F1", "Space"); -1 if unknown. */
int amc_tui_keymap_parse_key(const char *name);

#endif
