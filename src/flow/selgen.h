/* selgen.h - a Maestro selector for one node of a UI tree, checked against
 * the tree with amc's own selector engine (flow/selector.h) to find exactly
 * that node: what "pick an element, get the selector" and the honesty test
 * (tests/unit/test_selgen.c over recorded and sample trees) rely on.
 *
 * Tried in order, the first that finds node i and nothing else wins: its
 * resource id, its text (or content-desc when it has no text), both; then
 * the same with index: (Maestro's index, counted top to bottom, left to
 * right among the matches). A node the engine cannot reach that way (a
 * descendant with the same text or id shadows it: the deepest match wins;
 * or it has no text or id) is selected by containsChild with a selector of
 * one of its direct children, up to five levels down. Texts and ids are written as literal regular
 * expressions (metacharacters escaped), as Maestro reads them. */
#ifndef AMC_SELGEN_H
#define AMC_SELGEN_H

#include <stddef.h>

#include "flow/flow.h"
#include "perception/uitree.h"
#include "util/strbuf.h"

/* 0 with *out filled (free its strings with amc_selgen_free) when a
 * selector finds node i; -1 when none can: the node is not displayed
 * (selectors match displayed nodes only), or neither it nor a child (to
 * five levels) has an id, text or content-desc that tells it apart. */
#define AMC_SELGEN_MAX_INDEX 200
int amc_selgen_node(const amc_ui_tree *t, size_t i, amc_selector *out);
void amc_selgen_free(amc_selector *s);

/* `s` (as amc_selgen_node makes it) as a Maestro flow mapping,
 * `{id: "x", text: "Save", index: 1, containsChild: {text: "OK"}}`, the
 * strings YAML double-quoted, appended to `out`. */
void amc_selgen_yaml(const amc_selector *s, amc_sb *out);

/* `s` as a literal regular expression; caller frees. */
char *amc_selgen_regex_literal(const char *s);

#endif
