/* flow_folder.h - a folder of flows as Maestro's `test DIR` takes it (its
 * WorkspaceExecutionPlanner): the folder's config.yaml (`flows:` globs,
 * default "*", the top-level flows only; includeTags/excludeTags added to the
 * command line's; executionOrder: {flowsOrder, continueOnFailure}), the
 * flows selected in name order, and a JUnit report. */
#ifndef AMC_FLOW_FOLDER_H
#define AMC_FLOW_FOLDER_H

#include <stddef.h>
#include "util/err.h"

#define AMC_FLOW_FOLDER_MAX 10000

typedef struct amc_folder_flow {
	char *path;        /* owned */
	char *name;        /* name: of the flow, else its file name; owned */
	char **tags;       /* owned */
	size_t ntags;
	/* filled by the caller that runs it */
	int ran;           /* 1 once run */
	int passed;
	double seconds;
	char *message;     /* why it failed (owned, may be NULL) */
	char *task_id;     /* owned, may be NULL */
	int in_order;      /* named by executionOrder.flowsOrder: runs first, in that order */
} amc_folder_flow;

typedef struct amc_flow_folder {
	amc_folder_flow *v;     /* executionOrder's flows first, then the rest in name order */
	size_t n;
	int continue_on_failure; /* executionOrder.continueOnFailure (default 1) */
	char *config;          /* the workspace config read (owned; NULL: none) */
} amc_flow_folder;

/* The flows of the workspace `dir` (not config.yaml) its config's `flows:`
 * globs match (relative to dir: `*` within a folder, `**` across folders),
 * whose tags include one of `include` or the config's includeTags (none
 * given: all) and none of `exclude` or excludeTags; tag lists are
 * comma-separated. An empty selection is an AMC_EUSAGE error saying why, as
 * Maestro's. A flow whose config cannot be read is kept (it fails when run,
 * saying why). Free with amc_flow_folder_free. */
int amc_flow_folder_list(const char *dir, const char *include, const char *exclude, amc_flow_folder *out,
		   amc_err *e);
void amc_flow_folder_free(amc_flow_folder *s);
/* Write a JUnit XML report of the flows that ran (text XML-escaped). */
int amc_flow_folder_write_junit(const amc_flow_folder *s, const char *suite_name, const char *path, amc_err *e);

#endif
