/* flow_planner.h - a planner that plays a flow's commands one by one. */
#ifndef AMC_FLOW_PLANNER_H
#define AMC_FLOW_PLANNER_H

#include "flow/flow.h"
#include "flow/flow_interp.h"
#include "runtime/planner.h"

/* An AI command (assertWithAI, assertNoDefectsWithAI, extractTextWithAI) on
 * the current screen: `command` is its Maestro name, `prompt` its assertion or
 * query (NULL when it has none). 0 with the step decided in `out`
 * (decided_ok, decided_error, decided_result: extractTextWithAI's {"text"}),
 * or -1 with e when no answer came. planner/ai_judge.h implements it. */
typedef int (*amc_flow_ai_fn)(void *ud, const char *command, const char *prompt, const amc_observation *obs,
			      amc_action *out, amc_err *e);

/* How a flow runs: waits, variables, and the JavaScript hook. */
typedef struct amc_flow_run_opts {
	long wait_timeout_ms;          /* how long selectors wait for their element */
	const amc_flow_kv *env;        /* -e NAME=VALUE: over the flows' env: blocks */
	size_t nenv;
	char *const *environ;          /* MAESTRO_* variables are read from it; NULL: none */
	amc_flow_eval_fn eval;         /* JavaScript; NULL: none in this build (scripts refused) */
	void *eval_ud;
	void (*set_copied)(void *ud, const char *text); /* maestro.copiedText for the engine */
	void (*eval_free)(void *ud);   /* non-NULL: the planner owns eval_ud (also on failure) and frees it so */
	unsigned long long seed;       /* inputRandom*: the values are recorded in the steps */
	const char *platform;          /* maestro.platform; NULL: "android" */
	amc_flow_ai_fn ai;             /* AI commands; NULL: none (they fail, naming file and line) */
	void *ai_ud;
	void (*ai_free)(void *ud);     /* non-NULL: the planner owns ai_ud (also on failure) */
} amc_flow_run_opts;

void amc_flow_run_opts_init(amc_flow_run_opts *o);
/* Takes ownership of `flow` (moved; the caller's struct is zeroed), which
 * should be resolved (amc_flow_resolve): a runFlow whose file was not loaded
 * fails when it is reached. The planner keeps going after failed steps
 * (keep_going) and judges them itself. On failure the flow is freed. */
int amc_flow_planner_new_opts(amc_flow *flow, const amc_flow_run_opts *o, amc_planner **out, amc_err *e);
/* The same with default options and this wait. */
int amc_flow_planner_new(amc_flow *flow, long wait_timeout_ms, amc_planner **out, amc_err *e);

#endif
