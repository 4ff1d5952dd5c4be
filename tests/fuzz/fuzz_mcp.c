/* Fuzz target: MCP's JSON-RPC lines (mcp/jsonrpc.c) and the tools' argument
 * checks (mcp/mcp_tools.c): the input is a stream of lines as a client would
 * send them on stdin, read with a small line bound so over-long lines are
 * exercised too. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/jsonrpc.h"
#include "mcp/mcp_tools.h"
#include "util/jsonutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	amc_sb line;
	amc_sb_init(&line);
	int r;
	while ((r = amc_rpc_read_line(f, 4096, &line)) != 0) {
		if (r == 2)
			continue;
		amc_rpc_msg m;
		cJSON *err = NULL;
		if (amc_rpc_parse(line.buf ? line.buf : "", line.len, &m, &err) != 0) {
			char *t = err ? cJSON_PrintUnformatted(err) : NULL;
			free(t);
			cJSON_Delete(err);
			continue;
		}
		if (m.kind == AMC_RPC_REQUEST && !strcmp(m.method, "tools/call")) {
			const char *name = amc_json_str(m.params, "name");
			const cJSON *args = m.params ? cJSON_GetObjectItemCaseSensitive(m.params, "arguments") : NULL;
			char why[300];
			if (name && amc_mcp_tool_known(name))
				(void)amc_mcp_tool_check(name, args, why, sizeof why);
		}
		char key[300];
		amc_rpc_id_key(m.id, key, sizeof key);
		cJSON *resp = m.id ? amc_rpc_error(m.id, AMC_RPC_METHOD_NOT_FOUND, "x") : NULL;
		cJSON_Delete(resp);
		amc_rpc_msg_free(&m);
	}
	amc_sb_free(&line);
	fclose(f);
	return 0;
}
