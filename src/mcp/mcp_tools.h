/* mcp_tools.h - the six MCP tools: devices, observe, act, run_task, task,
 * cancel_task. Small schemas (tools/list is printed and bounded by a test),
 * annotations, an outputSchema and structuredContent for each.
 *
 * A tool that fails returns a result with isError: true and a message the
 * model can act on (bad arguments included), never a protocol error. */
#ifndef AMC_MCP_TOOLS_H
#define AMC_MCP_TOOLS_H

#include <cjson/cJSON.h>

#include "mcp/mcp_call.h"

/* The tools/list "tools" array (caller owns it). */
cJSON *amc_mcp_tools_list(void);
/* 1 when `name` is one of the six. */
int amc_mcp_tool_known(const char *name);
/* Run a tool; the CallToolResult (caller owns it). */
cJSON *amc_mcp_tool_call(const char *name, const amc_mcp_call *c);
/* Check arguments against the tool's input schema (types, required, no
 * unknown fields). 0, or -1 with why (n bytes). Used by every call first. */
int amc_mcp_tool_check(const char *name, const cJSON *args, char *why, size_t n);

#endif
