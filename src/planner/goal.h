/* goal.h - the planner for a free goal, built from the configuration the same
 * way for every front end (`amc run "GOAL"`, the TUI's Launch dialog). */
#ifndef AMC_GOAL_H
#define AMC_GOAL_H

#include <stddef.h>
#include "planner/llm_planner.h"
#include "llm/client.h"
#include "runtime/planner.h"
#include "util/config.h"
#include "util/err.h"

/* The LLM planner from [planner] provider, [llm] anthropic_key_file and
 * price_file and the planner options. *out is the caller's (amc_planner_free).
 * A missing key is AMC_EENV whose message says exactly what to set. A remark
 * that does not fail the build (the price file is unreadable: costs are
 * unknown) goes into warn (n bytes, optional; "" when none), not onto a
 * terminal. */
int amc_goal_planner_new(const amc_config *cfg, char *warn, size_t warn_n, amc_planner **out, amc_err *e);
/* What amc_goal_planner_new builds the planner from, for another user of the
 * same model (the AI commands of flows): the client (*client, the caller's),
 * the price table (*prices, the caller's; NULL when unreadable, said in warn)
 * and the planner options. `what` starts the message of a missing key. */
int amc_goal_connect(const amc_config *cfg, const char *what, char *warn, size_t warn_n, amc_llm_client **client,
		     amc_prices **prices, amc_llm_planner_opts *o, amc_err *e);

#endif
