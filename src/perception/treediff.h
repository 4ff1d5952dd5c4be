/* treediff.h - what changed between two UI trees (a step's before and after
 * observations): nodes added, removed and changed.
 *
 * The matching rule (docs/inspection.md repeats it; tests/unit/test_treediff.c
 * checks each part). A node of the before tree is paired with at most one node
 * of the after tree, in three passes over the nodes still unpaired:
 *  1. resource id, only where the id is unique in BOTH trees (list rows share
 *     their ids, so a shared id says nothing about which row is which);
 *  2. class, resource id, text and content description all equal: equal nodes
 *     at the same place (every edge within AMC_TREEDIFF_BOUNDS_TOL) pair
 *     first, then the rest in document order (the k-th before with the k-th
 *     after);
 *  3. class and resource id equal at the same place (every edge within the
 *     tolerance): the same widget whose text or description changed.
 * Unpaired before nodes are `removed`, unpaired after nodes `added`. A pair is
 * `changed` when its text, content description, checked, enabled, focused or
 * selected state differs, or an edge of its bounds moved by more than
 * AMC_TREEDIFF_BOUNDS_TOL pixels.
 *
 * References: a node is named by its path in its own tree, the position of
 * each ancestor among its siblings from the root down, "0.2.1" (the root's
 * third child's second child). The path addresses the node in the stored tree
 * of that observation (before or after), so two diffs of the same trees name
 * the same nodes alike. A changed entry carries both paths.
 *
 * Text in the JSON and in the rendered lines is the devices' text, untrusted:
 * sanitize or escape it where it is shown. */
#ifndef AMC_TREEDIFF_H
#define AMC_TREEDIFF_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "perception/uitree.h"

/* Pixels an edge may move without the node counting as moved: layout
 * rounding and a blinking cursor's width, not a scroll or a new row. */
#define AMC_TREEDIFF_BOUNDS_TOL 4
/* A group of look-alike nodes larger than this (before x after pairs) skips
 * the same-place search of passes 2 and 3 (document order only), so a tree of
 * thousands of identical containers costs O(n log n), not O(n^2). */
#define AMC_TREEDIFF_MAX_PLACE_PAIRS 1000000L
/* The JSON form keeps the counts whole but lists at most this many entries
 * and cuts each string to AMC_TREEDIFF_JSON_MAX_TEXT bytes (on a UTF-8
 * boundary), so a diff stored with a record stays small. */
#define AMC_TREEDIFF_JSON_MAX_ENTRIES 64
#define AMC_TREEDIFF_JSON_MAX_TEXT 80

/* What changed in a pair (amc_td_entry.what). */
enum {
	AMC_TD_TEXT = 1u << 0,
	AMC_TD_DESC = 1u << 1,
	AMC_TD_CHECKED = 1u << 2,
	AMC_TD_ENABLED = 1u << 3,
	AMC_TD_FOCUSED = 1u << 4,
	AMC_TD_SELECTED = 1u << 5,
	AMC_TD_BOUNDS = 1u << 6
};

typedef enum amc_td_op { AMC_TD_REMOVED, AMC_TD_ADDED, AMC_TD_CHANGED } amc_td_op;

typedef struct amc_td_entry {
	amc_td_op op;
	int before;     /* node index in the before tree, -1 for added */
	int after;      /* node index in the after tree, -1 for removed */
	unsigned what;  /* AMC_TD_* for changed, 0 otherwise */
} amc_td_entry;

/* Entries in this order: removed (before tree's document order), added and
 * changed (after tree's document order). */
typedef struct amc_tree_diff {
	amc_td_entry *v;
	size_t n;
	size_t removed, added, changed;
	size_t matched;                   /* pairs, changed or not */
	size_t by_id, by_key, by_place;   /* pairs made by passes 1, 2 and 3 */
} amc_tree_diff;

/* Diff two trees (either may be empty). The result is the caller's: free it
 * with amc_treediff_free. */
void amc_treediff(const amc_ui_tree *before, const amc_ui_tree *after, amc_tree_diff *out);
void amc_treediff_free(amc_tree_diff *d);
/* The path of node `node` ("0.2.1"), cut to fit `n`; "" for a bad index. */
void amc_treediff_ref(const amc_ui_tree *t, int node, char *out, size_t n);
/* Small JSON: {"matched","added","removed","changed","entries":[{"op":"-"|"+"|"~",
 * "ref","before_ref" (changed only),"class","id","text","desc","bounds":[x1,y1,x2,y2],
 * "changes":{"text":[old,new],"desc":[..],"checked":[false,true],...,
 * "bounds":[[..],[..]]}}],"omitted":N}; empty strings are left out. Caller owns. */
cJSON *amc_treediff_to_json(const amc_tree_diff *d, const amc_ui_tree *before, const amc_ui_tree *after);

/* One rendered line of a diff's JSON form: op is '-', '+' or '~' (or ' ' for
 * a note such as "... 3 more"); text is raw device text inside (see above). */
typedef void (*amc_treediff_line_fn)(char op, const char *line, void *ud);
/* Renders the entries of amc_treediff_to_json's form, one call per line:
 * "+ TextView \"Saved\" #toast [40,900][1040,980]  @0.3",
 * "~ Switch #switch_widget  checked: false → true  @0.1" (utf8 0: "->").
 * Returns the number of lines; a value that is not that form gives none. */
int amc_treediff_render(const cJSON *tree, int utf8, amc_treediff_line_fn fn, void *ud);

#endif
