/* mcp_act.h - the tools that touch a device: observe, act, run_task (in
 * mcp_act.c); their results are mcp_result.h's. */
#ifndef AMC_MCP_ACT_H
#define AMC_MCP_ACT_H

#include <stdarg.h>
#include <cjson/cJSON.h>

#include "mcp/mcp_call.h"
#include "mcp/mcp_result.h"
#include "util/err.h"


/* Fill act's tool definition from the tool registry (runtime/tools.h): the
 * description, the action enum (every registry action, then finish) and each
 * action's arguments under their MCP names, so an action is one registry row. */
void amc_mcp_act_schema(cJSON *act_tool);
/* The name act gives a registry argument ("x1" -> "x", "app_id" -> "app");
 * the name itself when act keeps it. Static. */
const char *amc_mcp_act_arg(const char *registry_arg);

cJSON *amc_mcp_observe(const amc_mcp_call *c);
cJSON *amc_mcp_act(const amc_mcp_call *c);
cJSON *amc_mcp_run_task(const amc_mcp_call *c);

#endif
