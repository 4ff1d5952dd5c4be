/* stored_tree.c - a recorded UI tree read back (stored_tree.h). */
#include "storage/stored_tree.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/jsonutil.h"

int amc_stored_tree_load(amc_store *s, const char *rel, amc_ui_tree *t, amc_err *e)
{
	char abs[PATH_MAX], *buf = NULL;
	size_t len;
	memset(t, 0, sizeof *t);
	if (!rel || !*rel)
		return amc_err_set(e, AMC_EFAIL, "no UI tree recorded for this step");
	if (amc_store_artifact_abspath(s, rel, abs, sizeof abs, e) != 0 ||
	    amc_read_file(abs, AMC_UITREE_MAX_BYTES, &buf, &len, e) != 0)
		return -1;
	cJSON *j = amc_json_parse(buf, len, AMC_UITREE_MAX_BYTES, e);
	free(buf);
	int rc = j ? amc_uitree_from_json(j, t, e) : -1;
	cJSON_Delete(j);
	return rc;
}
