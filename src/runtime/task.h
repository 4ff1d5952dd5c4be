/* task.h - a task as the runtime sees it before and while it runs. */
#ifndef AMC_TASK_H
#define AMC_TASK_H

#include "util/ids.h"

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

/* Status names (seed 000): queued running succeeded failed cancelled interrupted waiting_user. */
#define AMC_ST_QUEUED "queued"
#define AMC_ST_RUNNING "running"
#define AMC_ST_SUCCEEDED "succeeded"
#define AMC_ST_FAILED "failed"
#define AMC_ST_CANCELLED "cancelled"
#define AMC_ST_INTERRUPTED "interrupted"
#define AMC_ST_WAITING_USER "waiting_user"
int amc_status_is_terminal(const char *status);

#endif
