/* mcp_act.h - the tools that touch a device: observe, act, run_task
 * and the result helpers every tool uses (all in mcp_act.c). */
#ifndef AMC_MCP_ACT_H
#define AMC_MCP_ACT_H

#include <stdarg.h>
#include <cjson/cJSON.h>

#include "mcp/mcp_call.h"
#include "util/err.h"

/* A CallToolResult: a text block (text, or structured printed as JSON when
 * text is NULL), structuredContent (taken; may be NULL) and isError. */
cJSON *amc_mcp_result(cJSON *structured, const char *text, int is_error);
/* An isError result whose text is the formatted message, made terminal-safe. */
cJSON *amc_mcp_fail(const char *fmt, ...) AMC_PRINTF(1, 2);

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
