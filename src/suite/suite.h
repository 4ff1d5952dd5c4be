/* suite.h - `amc bench tasks`: the task templates (tasktpl.h) run on
 * simulated phones, each run an ordinary task (so `amc show` and the TUI can
 * inspect any failure) plus a row in suite_runs with its verdict.
 *
 * Runs go in parallel over `sims` phones (sim:first_sim and up), one task per
 * phone at a time, each worker with its own store connection and device.
 * For every (template, seed): draw the parameters, write the set-up through
 * the sim (amc_sim_set_state, never taps), run the planner, read the sim's
 * state and the task's answer, judge them with the template's checks.
 *
 * Planners: "flow" (the template's reference flow, through the launch
 * module), "llm" (the goal, through the launch module), "mcp" (an outside
 * agent drives amc's MCP server; the bench waits for a task with planner
 * "mcp" on that phone to finish, after running --agent-cmd when given). */
#ifndef AMC_SUITE_H
#define AMC_SUITE_H

#include <stdio.h>

#include "device/device.h"
#include "runtime/operator.h"
#include "runtime/planner.h"
#include "storage/store.h"
#include "suite/tasktpl.h"
#include "util/config.h"

#define AMC_SUITE_ID_SIZE 40
#define AMC_SUITE_MAX_SIMS 64
#define AMC_SUITE_MAX_TEMPLATES 512

typedef struct amc_suite_opts {
	const char *planner;      /* "flow" (default), "llm", "mcp" */
	const char *tasks_dir;    /* NULL: the bundled data/tasks */
	const char *glob;         /* fnmatch pattern over template names; NULL: all */
	int seeds;                /* seeds per template (>= 1) */
	long long first_seed;     /* seeds first_seed .. first_seed + seeds - 1 */
	int sims;                 /* phones in parallel (1..AMC_SUITE_MAX_SIMS) */
	int first_sim;            /* the first phone's index */
	const char *provider, *model; /* llm: overrides of planner.provider / planner.model */
	const char *agent_cmd;    /* mcp: run per task by /bin/sh, goal as $1, device as $2 */
	int mcp_timeout_s;        /* mcp: how long to wait for each task */
	FILE *progress;           /* one line per run; NULL: quiet */
	int progress_tty;
	/* Called (from a worker thread, under the suite's lock) after each run is
	 * judged, with the state the checks read (NULL when it could not be read)
	 * and the answer: tests judge it again with wrong parameters. */
	void (*on_judged)(void *ud, const amc_tpl *t, const amc_tpl_values *v, const char *state_json,
			  const char *answer, int asked, int passed);
	void *on_judged_ud;
} amc_suite_opts;

void amc_suite_opts_init(amc_suite_opts *o);

/* Load every template of dir whose name matches glob, sorted by name. *out
 * (free with amc_suite_templates_free) may be empty; an unreadable or broken
 * template is an error naming it. */
int amc_suite_templates(const char *dir, const char *glob, amc_tpl **out, int *n, amc_err *e);
void amc_suite_templates_free(amc_tpl *t, int n);
/* The bundled data/tasks folder. */
int amc_suite_tasks_dir(char *out, size_t n, amc_err *e);

/* Run the suite; *suite_id names its rows in suite_runs. 0 when every run was
 * recorded (whatever the verdicts); -1 when the suite could not run. */
int amc_suite_run(const amc_config *cfg, const char *home, const amc_suite_opts *o, char *suite_id, amc_err *e);

/* The verdict on a run: t's checks on `state` and `answer` (NULL: none), and
 * for confirm approve or deny at least one confirmation asked (when
 * confirms_known: the bench's own operator counted them). 1 pass, 0 fail
 * with reason, -1 a broken check (e). */
int amc_suite_judge(const amc_tpl *t, const amc_tpl_values *v, const cJSON *state, const char *answer, int asked,
		    int confirms_known, char *reason, size_t n, amc_err *e);

/* One run of template t with values v on an open sim: set-up only (the
 * tests of the checks use it). */
int amc_suite_setup(amc_device *dev, const amc_tpl *t, const amc_tpl_values *v, long long seed, amc_err *e);

/* The bench's operator: confirmations answered by the template's policy and
 * counted; questions (ask_user) refused, as nobody watches a benchmark. */
typedef struct amc_suite_operator {
	amc_operator op;
	amc_tpl_confirm policy;
	int asked;           /* confirmations asked */
	int questions;       /* ask_user calls refused */
} amc_suite_operator;

void amc_suite_operator_init(amc_suite_operator *o, amc_tpl_confirm policy);

/* ---- suite_report.c ---- */

typedef struct amc_suite_summary {
	int runs, passed;
	double pass_at_1;           /* passed / runs */
	double median_steps;
	long long input_tokens, output_tokens; /* -1 when none known */
	double cost_usd;            /* < 0 when none known */
	long long wall_ms;
} amc_suite_summary;

/* Print the suite's table (pass@1 per template and overall, median steps,
 * tokens, cost) or, with json, a JSON document of the summary and every run. */
int amc_suite_report(amc_store *store, const char *suite_id, int json, FILE *out, amc_suite_summary *overall,
		     amc_err *e);

#endif
