/* goal.c - the LLM planner for a free goal, shared by `amc run` and the TUI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/goal.h"
#include "agent/llm_planner.h"
#include "llm/providers.h"

int amc_goal_planner_new(const amc_config *cfg, char *warn, size_t warn_n, amc_planner **out, amc_err *e)
{
	amc_llm_client *client = NULL;
	if (warn && warn_n)
		warn[0] = 0;
	*out = NULL;
	if (amc_providers_connect(amc_config_str(cfg, "planner", "provider"), amc_config_str(cfg, "llm", "anthropic_key_file"),
				  "no planner", &client, e) != 0)
		return -1;
	amc_prices *prices = NULL;
	amc_err pe;
	if (amc_prices_load(amc_config_str(cfg, "llm", "price_file"), &prices, &pe) != 0) {
		if (warn && warn_n)
			snprintf(warn, warn_n, "%s; costs are unknown", pe.msg);
		prices = NULL;
	}
	amc_llm_planner_opts o;
	amc_llm_planner_opts_from_config(&o, cfg);
	return amc_llm_planner_new(client, prices, &o, out, e);
}
