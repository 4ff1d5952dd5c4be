/* run.h - running one task to its end.
 *
 * amc_task_run() creates the task row before its first "running" update, so a
 * task that ran is in the history whoever called it; holds the device lock for
 * the task's duration; and runs steps (observe -> plan -> act -> settle ->
 * record), recording each in the timeline, until the planner is done, a step
 * ends the task, the step limit or a cancel. It is the only writer of task and
 * step rows. Its one caller is launch/launch.h's amc_launch_run, which every
 * front end uses (amc run, the TUI's runner, MCP, the fleet host, bench
 * tasks) and which records a task that could not start. */
#ifndef AMC_RUN_H
#define AMC_RUN_H

#include <stdatomic.h>
#include "device/device.h"
#include "perception/ocr.h"
#include "runtime/events.h"
#include "runtime/operator.h"
#include "runtime/planner.h"
#include "runtime/safety.h"
#include "runtime/secrets.h"
#include "runtime/task.h"
#include "semantic/enrich.h"
#include "storage/store.h"
#include "util/config.h"

/* How one task runs. Read by amc_task_run only; nothing here is written into
 * process-wide state, so tasks with different options can run side by side. */
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
	/* Told of every planner decision that is recorded, after the store has it
	 * (the same row, masked as stored; valid during the call only), on the
	 * runner's thread. The fleet host wires one to copy decisions to the fleet
	 * database (seed 000 D7) without planner/ or runtime/ knowing of the fleet.
	 * NULL: nobody. */
	const struct amc_decision_sink *decision_sink;
	/* When the task's cancel flag is set to AMC_RUN_INTERRUPT instead of 1,
	 * the task ends `interrupted` with this text as its error (the fleet
	 * host: "lease lost") instead of `cancelled`; the caller writes the text
	 * before it sets the flag. NULL: "interrupted". */
	const char *interrupt_why;
	/* The error of a task cancelled while it ran (the cancel flag set to 1),
	 * naming who cancelled it (MCP: "cancelled by the MCP client"). NULL:
	 * "cancelled by the operator". */
	const char *cancel_why;
} amc_runner_opts;

typedef struct amc_decision_sink {
	void (*decided)(void *ud, const amc_decision_row *d);
	void *ud;
} amc_decision_sink;

void amc_runner_opts_from_config(amc_runner_opts *o, const amc_config *c);

/* Where a task runs: the store its rows go to, the bus its events go on
 * (NULL: none), the opened device, the flag polled between phases (set it
 * from a signal handler or another thread; NULL: never cancelled), and the
 * device lock when the caller took it already for this task (launch/ does,
 * before it opens the device; NULL: amc_task_run takes and releases it).
 * Nothing in it is owned or kept after amc_task_run returns. */
typedef struct amc_run_env {
	amc_store *store;
	amc_bus *bus;
	amc_device *dev;
	atomic_int *cancel;
	amc_lock *lock;
	/* Told once the task's row exists, before its first step (launch/
	 * stores the flow's source with the task there); NULL: nobody. */
	void (*created)(void *ud, amc_store *store, const amc_task *task);
	void *created_ud;
} amc_run_env;

/* The value of *cancel that interrupts a task instead of cancelling it. */
#define AMC_RUN_INTERRUPT 2

/* Run one task to a terminal state on env's device. None of the arguments is
 * kept after the call; the planner's hooks are told of
 * every recorded step and of the end (planner.h). Returns 0 when the task
 * reached any terminal state (see out->status), -1 when it could not be started
 * at all (e.g. device busy: e->code AMC_EENV), with no task left running. */
int amc_task_run(const amc_run_env *env, amc_planner *planner, amc_task *task,
		 const amc_runner_opts *opts, amc_task_outcome *out, amc_err *e);

/* Record a task that never ran (cancelled while queued, its device could not be
 * opened) in its terminal `status` with `error`, publish its status, and tell
 * the planner's hooks; every submitted task is then in the history. 0 when
 * the row was written; -1 when it could not be (store NULL or refusing; the
 * hooks are told all the same). */
int amc_task_record_unrun(amc_store *store, amc_bus *bus, amc_task *task, amc_planner *planner,
			  int default_max_steps, const char *status, const char *error);

#endif
