/* mcp_resources.h - what `amc mcp` offers as MCP resources: a short cheat
 * sheet of the Maestro flow language amc runs (run_task's flow argument), so
 * a coding agent writes a flow without fetching Maestro's docs. */
#ifndef AMC_MCP_RESOURCES_H
#define AMC_MCP_RESOURCES_H

#include <cjson/cJSON.h>

#define AMC_MCP_FLOW_SHEET_URI "amc://flows/cheat-sheet"

/* resources/list's result (caller owns it). */
cJSON *amc_mcp_resources_list(void);
/* resources/read's result for `uri` (caller owns it); NULL when amc has no
 * such resource. */
cJSON *amc_mcp_resources_read(const char *uri);

#endif
