/* runner.h - one thread and one queue per device, for front ends that launch
 * tasks and keep going (the TUI). Each task runs through amc_launch_run
 * (launch.h) on the runner's thread, with the runner's own store connection
 * and a device kept open between tasks. It lives in launch/, above runtime/,
 * because it runs tasks the way every front end does. */
#ifndef AMC_RUNNER_H
#define AMC_RUNNER_H

#include "runtime/run.h"
#include "util/config.h"

typedef struct amc_runner amc_runner;

/* Start the thread for `device_id`; it opens its own store connection and device. */
int amc_runner_start(const char *home, const char *device_id, const amc_config *cfg,
		     amc_bus *bus, amc_runner **out, amc_err *e);
/* The operator (ask_user, confirmations), irreversible-action words and the
 * SemanticScene enricher for every task of this runner; none is owned. Call
 * before the first amc_runner_submit. */
void amc_runner_set_agent_opts(amc_runner *r, amc_operator *op, const amc_words *confirm_words,
			       int assume_yes, amc_enricher *enricher);
/* Queue a task; ownership of task, planner and secrets passes to the runner
 * (freed on failure too). `secrets` are the task's {{secret:NAME}} values and
 * every other known one, resolved once by the caller (launch/launch.h does it
 * for every front end); NULL: none. */
int amc_runner_submit(amc_runner *r, amc_task *task, amc_planner *planner, amc_secrets *secrets, amc_err *e);
struct amc_launch;
/* The same for a prepared launch: its task, planner, secrets, and the flow's
 * text and files (stored with the task when it starts) are taken, the
 * fields set to NULL; the caller still frees l. */
int amc_runner_submit_launch(amc_runner *r, struct amc_launch *l, amc_err *e);
/* Cancel a queued or running task of this runner; 0 if found. */
int amc_runner_cancel(amc_runner *r, const char *task_id);
void amc_runner_cancel_all(amc_runner *r);
/* Tasks queued or running. */
int amc_runner_busy(amc_runner *r);
/* Wait until the queue is empty and nothing runs (ms < 0: forever). 0 when idle. */
int amc_runner_wait_idle(amc_runner *r, long ms);
/* Finish the running task (or cancel, if `cancel`), drop the queue, join, free. */
void amc_runner_stop(amc_runner *r, int cancel);
const char *amc_runner_device(const amc_runner *r);
/* Whether the runner's device answered: 1 online, 0 offline (a task failed and
 * the device's health check failed too, or it could not be opened; reason gets
 * why), -1 not known yet (no task run). The runner keeps running either way
 * and tries the device again for its next task. */
int amc_runner_online(amc_runner *r, char *reason, size_t n);

#endif
