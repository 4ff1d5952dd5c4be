/* goal.c - the LLM planner for a free goal, shared by `amc run` and the TUI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/goal.h"
#include "planner/llm_planner.h"
#include "llm/providers.h"

int amc_goal_connect(const amc_config *cfg, const char *what, char *warn, size_t warn_n, amc_llm_client **client,
		     amc_prices **prices, amc_llm_planner_opts *o, amc_err *e)
{
	*client = NULL;
	*prices = NULL;
	if (warn && warn_n)
		warn[0] = 0;
	if (amc_providers_connect(amc_config_str(cfg, "planner", "provider"), amc_config_str(cfg, "llm", "anthropic_key_file"),
				  what, client, e) != 0)
		return -1;
	amc_err pe;
	if (amc_prices_load(amc_config_str(cfg, "llm", "price_file"), prices, &pe) != 0) {
		if (warn && warn_n)
			snprintf(warn, warn_n, "%s; costs are unknown", pe.msg);
		*prices = NULL;
	}
	amc_llm_planner_opts_from_config(o, cfg);
	return 0;
}

int amc_goal_planner_new(const amc_config *cfg, char *warn, size_t warn_n, amc_planner **out, amc_err *e)
{
	amc_llm_client *client;
	amc_prices *prices;
	amc_llm_planner_opts o;
	*out = NULL;
	if (amc_goal_connect(cfg, "no planner", warn, warn_n, &client, &prices, &o, e) != 0)
		return -1;
	return amc_llm_planner_new(client, prices, &o, out, e);
}
