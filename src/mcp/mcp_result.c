/* mcp_result.c - a tool's CallToolResult (mcp_result.h). */
#include "mcp/mcp_result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/sanitize.h"

cJSON *amc_mcp_result(cJSON *structured, const char *text, int is_error)
{
	cJSON *r = cJSON_CreateObject();
	cJSON *content = cJSON_AddArrayToObject(r, "content");
	cJSON *t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "type", "text");
	if (text)
		cJSON_AddStringToObject(t, "text", text);
	else {
		char *s = structured ? cJSON_PrintUnformatted(structured) : NULL;
		cJSON_AddStringToObject(t, "text", s ? s : "");
		free(s);
	}
	cJSON_AddItemToArray(content, t);
	if (structured)
		cJSON_AddItemToObject(r, "structuredContent", structured);
	if (is_error)
		cJSON_AddTrueToObject(r, "isError");
	return r;
}

cJSON *amc_mcp_fail(const char *fmt, ...)
{
	char msg[AMC_ERR_MSG_MAX + 256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	char *s = amc_sanitize_dup(msg);
	cJSON *r = amc_mcp_result(NULL, s, 1);
	free(s);
	return r;
}
