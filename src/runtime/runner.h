/* runner.h - running tasks.
 *
 * amc_task_run() is TaskRunner.run() of seed 000: it creates the task row before
 * its first running update (D1), holds the device lock for the task's duration,
 * and runs observe -> plan -> act -> settle -> observe steps, recording each in
 * the timeline. Every execution path (CLI, TUI, MCP, fleet) goes through it.
 *
 * amc_runner is one thread and one queue per device for front ends that launch
 * tasks and keep going (the TUI). */
#ifndef AMC_RUNNER_H
#define AMC_RUNNER_H

#include <stdatomic.h>
#include "device/device.h"
#include "perception/ocr.h"
#include "runtime/events.h"
#include "runtime/operator.h"
#include "runtime/planner.h"
#include "runtime/safety.h"
#include "runtime/secrets.h"
#include "semantic/enrich.h"
#include "runtime/task.h"
#include "storage/store.h"
#include "util/config.h"

typedef struct amc_runner_opts {
	int max_steps;
	int settle_timeout_ms;
	int settle_interval_ms;
	double settle_tolerance;
	int capture_retries;
	amc_ocr_policy ocr_policy;      /* [ocr] policy; 0 (off) when not set */
	/* Set to NULL/0 by amc_runner_opts_from_config; a front end fills them. */
	amc_operator *op;               /* answers ask_user and confirmations; NULL: nobody */
	const amc_words *confirm_words; /* irreversible-action words; NULL: no gate */
	int assume_yes;                 /* --yes: confirmations pass without asking */
	const amc_secrets *secrets;     /* the task's {{secret:NAME}} values and every other known one (mask-only); NULL: none */
	amc_enricher *enricher;         /* semantic.enrich = on: one SemanticScene per observation; NULL: off */
} amc_runner_opts;

void amc_runner_opts_from_config(amc_runner_opts *o, const amc_config *c);

typedef struct amc_task_outcome {
	char status[16];      /* terminal status */
	int steps;
	char error[1024];
	char summary[512];
} amc_task_outcome;

/* Run one task to a terminal state on an opened device. `cancel` is polled
 * between phases (set it from a signal handler or another thread). Returns 0 when
 * the task reached any terminal state (see out->status), -1 when it could not be
 * started at all (e.g. device busy: e->code AMC_EENV), with no task left running. */
int amc_task_run(amc_store *store, amc_bus *bus, amc_device *dev, amc_planner *planner,
		 amc_task *task, const amc_runner_opts *opts, atomic_int *cancel,
		 amc_task_outcome *out, amc_err *e);

typedef struct amc_runner amc_runner;

/* Start the thread for `device_id`; it opens its own store connection and device. */
int amc_runner_start(const char *home, const char *device_id, const amc_config *cfg,
		     amc_bus *bus, amc_runner **out, amc_err *e);
/* The operator (ask_user, confirmations), irreversible-action words and the
 * SemanticScene enricher for every task of this runner; none is owned. Call
 * before the first amc_runner_submit. */
void amc_runner_set_agent_opts(amc_runner *r, amc_operator *op, const amc_words *confirm_words,
			       int assume_yes, amc_enricher *enricher);
/* Queue a task; ownership of task and planner passes to the runner (freed on
 * failure too). {{secret:NAME}} in the goal or the flow file is resolved now,
 * as amc run does (environment or the 0600 file named by secrets.file), and
 * typed on the device only; every other known value is masked too (see
 * secrets.h); a secret with no value is AMC_EUSAGE saying what to set, an
 * unusable secrets.file AMC_EENV. */
int amc_runner_submit(amc_runner *r, amc_task *task, amc_planner *planner, amc_err *e);
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
