/* test_mcp_resources.c - src/mcp/mcp_resources.c through the server
 * (tests/unit/mcptest.h): initialize announces resources, resources/list
 * names the flow cheat sheet with its size, resources/read returns it as
 * markdown (a flow an agent can copy: a config document, ---, commands), an
 * unknown URI gets MCP's -32002, and the sheet's size is what list says. */
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp_resources.h"
#include "mcptest.h"
#include "tap.h"
#include "testutil.h"
#include "util/jsonutil.h"

int main(void)
{
	const char *home = test_home("mcp-resources");
	amc_config *cfg = amc_config_new();
	mt_server m;
	mt_start(&m, home, cfg, 0, 0);
	cJSON *init = mt_init(&m, "2025-06-18", "{}");
	const cJSON *caps = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(init, "result"), "capabilities");
	ok(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(caps, "resources")), "initialize announces resources");
	cJSON_Delete(init);

	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/list\"}");
	cJSON *a = mt_answer(&m, 2, 10000);
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a, "result"), "resources");
	const cJSON *r0 = cJSON_GetArrayItem(res, 0);
	ok(cJSON_GetArraySize(res) == 1 && !strcmp(amc_json_str(r0, "uri"), AMC_MCP_FLOW_SHEET_URI),
	   "resources/list names the flow cheat sheet");
	is_str(amc_json_str(r0, "mimeType"), "text/markdown", "as markdown");
	int size = cJSON_GetObjectItemCaseSensitive(r0, "size") ? cJSON_GetObjectItemCaseSensitive(r0, "size")->valueint : -1;

	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"" AMC_MCP_FLOW_SHEET_URI "\"}}");
	cJSON *b = mt_answer(&m, 3, 10000);
	const cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(b, "result"), "contents"), 0);
	const char *text = amc_json_str(c0, "text");
	ok(text && strstr(text, "appId:") && strstr(text, "---") && strstr(text, "- tapOn:") && strstr(text, "assertVisible"),
	   "resources/read returns a flow an agent can copy");
	ok(text && (int)strlen(text) == size, "of the size resources/list says (%d bytes)", size);
	ok(text && strlen(text) < 4096, "short enough to read whole");
	is_str(amc_json_str(c0, "uri"), AMC_MCP_FLOW_SHEET_URI, "the content names its URI");

	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///etc/passwd\"}}");
	cJSON *c = mt_answer(&m, 4, 10000);
	is_int(mt_code(c), -32002, "an unknown URI: resource not found (-32002), nothing read");
	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\",\"params\":{}}");
	cJSON *d = mt_answer(&m, 5, 10000);
	is_int(mt_code(d), -32002, "no URI: the same");
	cJSON_Delete(a);
	cJSON_Delete(b);
	cJSON_Delete(c);
	cJSON_Delete(d);
	is_int(mt_stop(&m), 0, "the server ends cleanly");
	amc_config_free(cfg);
	return done_testing();
}
