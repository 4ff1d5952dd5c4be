/* flow_suite.h - a folder of flows as Maestro's `test DIR` takes it: every
 * flow below it (name order), selected by tags, and a JUnit report. */
#ifndef AMC_FLOW_SUITE_H
#define AMC_FLOW_SUITE_H

#include <stddef.h>
#include "util/err.h"

#define AMC_SUITE_MAX_FLOWS 10000

typedef struct amc_suite_flow {
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
} amc_suite_flow;

typedef struct amc_suite {
	amc_suite_flow *v;
	size_t n;
} amc_suite;

/* Every .yaml/.yml flow below `dir` (not config.yaml), whose tags include one
 * of `include` (NULL or empty list: all) and none of `exclude`; tag lists are
 * comma-separated. A flow whose config cannot be read is kept (it fails when
 * run, saying why). Free with amc_suite_free. */
int amc_suite_list(const char *dir, const char *include, const char *exclude, amc_suite *out,
		   amc_err *e);
void amc_suite_free(amc_suite *s);
/* Write a JUnit XML report of the flows that ran (text XML-escaped). */
int amc_suite_write_junit(const amc_suite *s, const char *suite_name, const char *path, amc_err *e);

#endif
