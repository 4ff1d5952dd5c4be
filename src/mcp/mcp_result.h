/* mcp_result.h - the result every MCP tool returns (a CallToolResult), below
 * the tools themselves (mcp_act.c, mcp_check.c, mcp_tools.c) so none of them
 * reaches another for it. */
#ifndef AMC_MCP_RESULT_H
#define AMC_MCP_RESULT_H

#include <cjson/cJSON.h>

#include "util/err.h"

/* A CallToolResult: a text block (text, or structured printed as JSON when
 * text is NULL), structuredContent (taken; may be NULL) and isError. The
 * caller owns the result. */
cJSON *amc_mcp_result(cJSON *structured, const char *text, int is_error);
/* An isError result whose text is the formatted message, made terminal-safe;
 * the caller owns it. */
cJSON *amc_mcp_fail(const char *fmt, ...) AMC_PRINTF(1, 2);

#endif
