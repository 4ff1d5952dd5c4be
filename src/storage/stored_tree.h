/* stored_tree.h - a step's recorded UI tree read back from its artifact
 * (the JSON the runner stored), for every reader of a past step: the HTML
 * report, the flow export and the step diff. */
#ifndef AMC_STORED_TREE_H
#define AMC_STORED_TREE_H

#include "perception/uitree.h"
#include "storage/store.h"
#include "util/err.h"

/* The tree stored at `rel` (relative to $AMC_HOME, as a step row names it)
 * into *t (zeroed first; the caller frees it with amc_uitree_free). 0, or -1
 * with e saying why: no path, outside the artifacts folder, missing, over
 * AMC_UITREE_MAX_BYTES or not a UI tree. */
int amc_stored_tree_load(amc_store *s, const char *rel, amc_ui_tree *t, amc_err *e);

#endif
