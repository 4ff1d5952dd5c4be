/* llm_planner.h - the LLM planner: implements the runtime's planner interface
 * (runtime/planner.h) on any model provider behind llm/client.h.
 *
 * Each step is one turn of a tool loop: a stable system prefix (instructions
 * and tool rules), then the goal, a bounded summary of earlier steps, the
 * previous tool call with its outcome, and the current Scene as compact JSON
 * (plus a downscaled screenshot when vision asks for it). The tools are
 * generated from the runtime tool registry (the device-changing ones) plus
 * ask_user and finish; each has a required `reason`, which becomes the step's
 * reasoning. Exactly one call is forced; a model that refuses a forced choice
 * is asked with tool_choice auto for the rest of the task, and a model that
 * refuses screenshots gets none for the rest of the task under vision auto.
 * Context stays bounded however long the task runs: only the last exchange is
 * sent verbatim, older steps as one line each (the newest
 * AMC_AGENT_HISTORY_LINES).
 *
 * Budgets per task: input tokens, output tokens, cost (price table). A planner
 * that has used its budget fails the task with that reason before the next call. */
#ifndef AMC_LLM_PLANNER_H
#define AMC_LLM_PLANNER_H

#include <cjson/cJSON.h>
#include "llm/client.h"
#include "llm/llm.h"
#include "runtime/planner.h"
#include "util/config.h"

#define AMC_AGENT_DEFAULT_MODEL "claude-sonnet-5"
#define AMC_AGENT_HISTORY_LINES 20
#define AMC_AGENT_REASON_MAX 1000   /* bytes of model text kept (reason, summary, question) */

typedef struct amc_llm_planner_opts {
	char model[96];
	int max_tokens;               /* per answer */
	long long max_input_tokens;   /* per task; <= 0: no limit */
	long long max_output_tokens;  /* per task; <= 0: no limit */
	double max_cost_usd;          /* per task; <= 0: no limit */
	long step_timeout_ms;         /* one model call with its retries */
	char vision[8];               /* off, on, auto (only when the scene is thin) */
	int vision_max_edge;          /* the long edge of a sent screenshot, pixels */
} amc_llm_planner_opts;

/* From [planner] in the configuration (AMC_PLANNER_MODEL and every other
 * AMC_PLANNER_* reach it through the configuration's environment overrides). */
void amc_llm_planner_opts_from_config(amc_llm_planner_opts *o, const amc_config *c);

/* Takes ownership of client and prices (prices may be NULL: cost unknown). */
int amc_llm_planner_new(amc_llm_client *client, amc_prices *prices, const amc_llm_planner_opts *o,
			amc_planner **out, amc_err *e);

/* The tools array as sent (caller owns it), and the system prompt text. */
cJSON *amc_llm_planner_tools(void);
const char *amc_llm_planner_system_prompt(void);

/* Totals of a planner so far (for tests and front ends). */
void amc_llm_planner_totals(const amc_planner *p, amc_llm_usage *u, double *cost_usd);

#endif
