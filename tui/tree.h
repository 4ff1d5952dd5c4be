/* tree.h - the collapsible UI-tree pane (modelled on tmux's mode-tree): one
 * row per visible node, h/l and -/+ to collapse and expand, M--/M-+ for all,
 * / to search with n/N, J to toggle the raw JSON. Used by the Task view. */
#ifndef AMC_TUI_TREE_H
#define AMC_TUI_TREE_H

#include <stddef.h>
#include "tui/keymap.h"
#include "util/err.h"

#include "util/strbuf.h"
#include "perception/uitree.h"

typedef struct amc_tui_tree amc_tui_tree;

/* Makes a Maestro selector for node i of t (YAML, `{text: "Save"}`) into out:
 * 0, or -1 when none finds exactly that node. The TUI's caller supplies it
 * (amc_tui_opts.selector; cli/cmd_tui.c wires flow/selgen.c), so the TUI
 * includes no sibling layer (DESIGN.md, layers). */
typedef int (*amc_tui_selector_fn)(const amc_ui_tree *t, size_t i, amc_sb *out);
void amc_tui_tree_set_selector(amc_tui_selector_fn fn);

amc_tui_tree *amc_tui_tree_new(void);
void amc_tui_tree_free(amc_tui_tree *t);
/* Show the normalized tree in `json` (amc_uitree_to_json's form); NULL or
 * unreadable JSON leaves the pane empty with the reason (returns -1). */
int amc_tui_tree_load(amc_tui_tree *t, const char *json, amc_err *e);
/* Draw into stdscr's area, framed, the title (amc_tui_tree_title) on the frame. */
void amc_tui_tree_draw(amc_tui_tree *t, int y, int x, int h, int w, int focused);
/* The rows only, filling the area (y, x, h, w): for a pane that draws its own
 * frame (the Task view's evidence pane). */
void amc_tui_tree_draw_in(amc_tui_tree *t, int y, int x, int h, int w, int focused);
/* "UI tree: 42 nodes  /battery" ("(JSON)" in the JSON view). */
void amc_tui_tree_title(const amc_tui_tree *t, char *out, size_t n);
/* Navigation, collapse/expand, search next/previous, JSON toggle; 1 if handled. */
int amc_tui_tree_request(amc_tui_tree *t, amc_tui_req req);
/* Set the search text and jump to the first match from the selection. */
void amc_tui_tree_search(amc_tui_tree *t, const char *text);
/* The selected node's Maestro command `tapOn: {...}` (the selector function
 * set above: checked against this tree to find exactly that node) into `out`;
 * 0, or -1 with the reason in `out` (nothing selected, the JSON view, no
 * selector, no function set). */
int amc_tui_tree_selected_selector(const amc_tui_tree *t, amc_sb *out);
/* A click on interior row `row` (0 = the first row under the frame): selects
 * that node; `twice` (a double click) also expands or collapses it. */
void amc_tui_tree_click(amc_tui_tree *t, int row, int twice);
/* The selected node's bounds (x1, y1, x2, y2 in screen pixels) into box;
 * 0 when none is selected, the JSON view is on, or it has no area. */
int amc_tui_tree_selected_bounds(const amc_tui_tree *t, int box[4]);
/* Picking on the screenshot: select the next (dir 1) or previous (-1)
 * (dir 0: the selected node when it is one, else the first)
 * element in reading order (top to bottom, left to right) among those a
 * person would pick (shown, smaller than the screen, with a text, a
 * description, an id or a tap), expanding its ancestors; 0 when there is
 * none that way. */
int amc_tui_tree_pick_next(amc_tui_tree *t, int dir);
/* Select the smallest such element under the screen pixel (px, py); 0 when
 * none is there. */
int amc_tui_tree_pick_at(amc_tui_tree *t, int px, int py);
/* The selected node as its tree row reads (`TextView "Save" #save [click]`)
 * into out; -1 when none. */
int amc_tui_tree_selected_summary(const amc_tui_tree *t, amc_sb *out);
/* Nodes in the loaded tree. */
size_t amc_tui_tree_count(const amc_tui_tree *t);

#endif
