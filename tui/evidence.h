/* evidence.h - the Task view's evidence pane: one framed pane with tabs, the
 * tab names on its frame ("1 Tree [2 OCR] 3 Scene 4 Diff 5 Sem", the shown
 * one in brackets; in a narrow pane the rest on the bottom border), one tab
 * shown at a time:
 *   1 UI tree   the step's tree (tui/tree.c: collapse, search, JSON);
 *   2 OCR       the words and lines OCR read, confidence and box (a keyboard's
 *               words one row); the selected one is marked on the before image;
 *   3 Scene     the fused elements: type, text, source (uitree, ocr, fused),
 *               id, box; the selected one is marked on the before image;
 *   4 Diff      what the action changed in the UI tree (runtime/stepdiff.h):
 *               + added (green), - removed (red), ~ changed old -> new; the
 *               symbols carry the meaning without colour;
 *   5 Semantic  the SemanticScene, listed only when the step has one.
 * Keys, help and amc(1) come from the keymap table (e, 1-5, o); the pane works
 * zoomed and with the mouse (a click on a tab's name shows it, on a row
 * selects it). Device and model text is drawn through amc_tui_put (sanitized). */
#ifndef AMC_TUI_EVIDENCE_H
#define AMC_TUI_EVIDENCE_H

#include "storage/store.h"
#include "tui/keymap.h"
#include "util/strbuf.h"

typedef enum amc_tui_tab {
	AMC_TUI_TAB_TREE, AMC_TUI_TAB_OCR, AMC_TUI_TAB_SCENE, AMC_TUI_TAB_DIFF, AMC_TUI_TAB_SEMANTIC,
	AMC_TUI_NTABS
} amc_tui_tab;

typedef struct amc_tui_evidence amc_tui_evidence;

amc_tui_evidence *amc_tui_evidence_new(void);
void amc_tui_evidence_free(amc_tui_evidence *ev);
/* Show step `s` of a task (NULL: none). The pane copies what it shows, so the
 * row may be freed after; calling it again for the same task and step keeps
 * the selections. The store reads artifacts (the tree, a diff to compute). */
void amc_tui_evidence_step(amc_tui_evidence *ev, amc_store *store, const amc_step_row *s);
/* Draw framed into (y, x, h, w). */
void amc_tui_evidence_draw(amc_tui_evidence *ev, int y, int x, int h, int w, int focused);
/* A request while the pane has focus: moves in the shown tab (the tree tab
 * takes its own keys); 1 if handled. */
int amc_tui_evidence_request(amc_tui_evidence *ev, amc_tui_req req);
/* The tab keys (AMC_REQ_TAB_*): 1 if `req` was one and is done; a tab the step
 * lacks (Semantic) is not shown and *why says so. */
int amc_tui_evidence_tab_request(amc_tui_evidence *ev, amc_tui_req req, const char **why);
amc_tui_tab amc_tui_evidence_tab(const amc_tui_evidence *ev);
/* o: show the OCR tab and select its next word; after the last none is
 * selected. Returns the 1-based word selected, 0 for none. */
int amc_tui_evidence_next_word(amc_tui_evidence *ev);
/* The box to mark on the before image: the selected OCR word or Scene
 * element while that tab is shown. 1 when there is one. */
int amc_tui_evidence_mark(const amc_tui_evidence *ev, int box[4]);
/* The UI-tree tab's selected node's bounds (the tree recorded after the
 * action, so they are outlined on the After image); 0 when none. */
/* The tree tab's selected node as a Maestro command (amc_tui_tree_selected_selector). */
int amc_tui_evidence_tree_selector(const amc_tui_evidence *ev, amc_sb *out);
int amc_tui_evidence_tree_mark(const amc_tui_evidence *ev, int box[4]);
/* Picking on the After screenshot (tui/tree.h amc_tui_tree_pick_next and
 * _pick_at): shows the tree tab and selects the element; 1 when one is. */
int amc_tui_evidence_pick(amc_tui_evidence *ev, int dir);
int amc_tui_evidence_pick_at(amc_tui_evidence *ev, int px, int py);
/* The tree tab's selected node as its row reads; -1 when none. */
int amc_tui_evidence_tree_summary(const amc_tui_evidence *ev, amc_sb *out);
/* R: read the step's Before screenshot with full OCR now and show those
 * words in the OCR tab (labelled as read now); -1 with e set when the
 * screenshot or the OCR engine is missing. */
int amc_tui_evidence_ocr_full(amc_tui_evidence *ev, amc_err *e);
/* The configured OCR policy, named in the OCR tab's label (the record does
 * not keep the one its run used). */
void amc_tui_evidence_set_policy(amc_tui_evidence *ev, const char *policy);
/* A click at (row, col) relative to the pane's top-left corner (row 0 and,
 * in a narrow pane, the last row: the frame with the tab names). */
void amc_tui_evidence_click(amc_tui_evidence *ev, int row, int col, int twice);
/* The "changed nothing" flag of the shown step's diff once it is known (the
 * Diff tab computes it for older records): 1, 0, or -1 unknown. */
int amc_tui_evidence_changed_nothing(const amc_tui_evidence *ev);
/* The tree tab's search (/), jumping to the first match. */
void amc_tui_evidence_tree_search(amc_tui_evidence *ev, const char *text);
/* 1 while the tree tab is shown: its keys (tui/keymap.h AMC_VIEW_TREE) apply. */
int amc_tui_evidence_tree_keys(const amc_tui_evidence *ev);

#endif
