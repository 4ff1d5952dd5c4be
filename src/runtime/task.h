/* task.h - a task as the runtime sees it before and while it runs. */
#ifndef AMC_TASK_H
#define AMC_TASK_H

#include "util/ids.h"
#include "util/status.h" /* the status names and amc_status_is_terminal */

typedef struct amc_task {
	char id[AMC_ID_SIZE];
	char device[128];       /* canonical device id */
	const char *kind;       /* "flow" or "goal" (static) */
	char *goal;             /* owned, may be NULL */
	char *flow_path;        /* owned, may be NULL */
	char *flow_name;        /* owned, may be NULL */
	int max_steps;
	char *source_task_id;   /* owned, may be NULL */
	int source_attempt;     /* -1 when none */
} amc_task;

/* How a task ended: what amc_task_run reports and a planner is told. */
typedef struct amc_task_outcome {
	char status[16];      /* terminal status */
	int steps;
	char error[1024];
	char summary[512];
} amc_task_outcome;

/* New task with a fresh id. Strings are copied. */
amc_task *amc_task_new(const char *kind, const char *device);
void amc_task_free(amc_task *t);


#endif
