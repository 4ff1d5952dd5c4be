/* selector.h - Maestro selector semantics over a UI tree.
 * Text and id are full-match PCRE2 regular expressions (falling back to a literal
 * comparison when the pattern does not compile, as Maestro does); text matches a
 * node's text, content-desc or hint. Only displayed nodes match. Matches are
 * ordered top-to-bottom, left-to-right; `index` picks one. */
#ifndef AMC_SELECTOR_H
#define AMC_SELECTOR_H

#include "flow/flow.h"
#include "perception/uitree.h"

/* Index of the matching node in t->nodes, or -1 when none. */
int amc_selector_find(const amc_selector *s, const amc_ui_tree *t);
/* How many nodes match. */
int amc_selector_count(const amc_selector *s, const amc_ui_tree *t);
/* "text=\"Add contact\" id=\"save\" index=1"; caller frees. */
char *amc_selector_describe(const amc_selector *s);

#endif
