/* test_mcp_server.c - src/mcp/server.c in-process (tests/unit/mcptest.h):
 * version negotiation (each supported version is kept, an unknown one gets
 * the newest), ping, tools/list, unknown methods (-32601), bad params
 * (-32602: unknown tool, arguments not an object, logging/setLevel's level),
 * malformed lines (-32700, no id) and a line over AMC_MCP_LINE_MAX (-32600)
 * with the server going on, notifications unanswered, a duplicate running id,
 * the stop flag (a signal in amc mcp) and end of input ending it cleanly. */
#include "mcptest.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"

static const char *home;
static amc_config *cfg;
static char *big_line;
static int big_fd;

static void *write_big(void *arg)
{
	(void)arg;
	size_t n = strlen(big_line), off = 0;
	while (off < n) {
		ssize_t w = write(big_fd, big_line + off, n - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	if (write(big_fd, "\n", 1) != 1)
		return NULL;
	return NULL;
}

static void test_versions(void)
{
	const char *vs[] = { "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05" };
	for (int i = 0; i < 5; i++) {
		mt_server m;
		mt_start(&m, home, cfg, 0, 0);
		cJSON *a = mt_init(&m, i < 4 ? vs[i] : "1999-01-01", "{}");
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(a, "result");
		const char *got = r ? cJSON_GetObjectItemCaseSensitive(r, "protocolVersion")->valuestring : "";
		is_str(got, i < 4 ? vs[i] : "2025-11-25", "initialize %s: answered with %s", i < 4 ? vs[i] : "an unknown version",
		       i < 4 ? "it" : "the newest");
		if (i == 0) {
			const cJSON *si = cJSON_GetObjectItemCaseSensitive(r, "serverInfo");
			is_str(cJSON_GetObjectItemCaseSensitive(si, "name")->valuestring, "amc", "serverInfo names amc");
			const cJSON *caps = cJSON_GetObjectItemCaseSensitive(r, "capabilities");
			ok(cJSON_GetObjectItemCaseSensitive(caps, "tools") && cJSON_GetObjectItemCaseSensitive(caps, "logging"),
			   "capabilities: tools and logging");
		}
		cJSON_Delete(a);
		is_int(mt_stop(&m), 0, "  end of input ends the server cleanly");
	}
}

static void test_methods(void)
{
	mt_server m;
	mt_start(&m, home, cfg, 0, 0);
	cJSON_Delete(mt_init(&m, "2025-06-18", "{}"));
	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
	cJSON *a = mt_answer(&m, 2, 5000);
	char *s = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(a, "result"));
	is_str(s, "{}", "ping: {}");
	free(s);
	cJSON_Delete(a);

	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
	a = mt_answer(&m, 3, 5000);
	const cJSON *tools = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a, "result"), "tools");
	is_int(cJSON_GetArraySize(tools), 6, "tools/list: six tools");
	s = cJSON_PrintUnformatted(a);
	diag("tools/list answer: %zu bytes of JSON", strlen(s));
	ok(strlen(s) < 6144, "tools/list under 6 KB (%zu bytes)", strlen(s));
	free(s);
	cJSON_Delete(a);

	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"server/discover\"}");
	a = mt_answer(&m, 4, 5000);
	is_int(mt_code(a), -32601, "an unknown method: -32601");
	cJSON_Delete(a);
	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":\"s5\",\"method\":\"prompts/list\"}");
	mt_pump(&m, 2000);
	char *last = m.nseen ? cJSON_PrintUnformatted(m.seen[m.nseen - 1]) : NULL;
	ok(last && strstr(last, "\"id\":\"s5\"") && strstr(last, "-32601"), "a string id is echoed as a string");
	free(last);

	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"teleport\"}}");
	a = mt_answer(&m, 6, 5000);
	is_int(mt_code(a), -32602, "tools/call of an unknown tool: -32602");
	cJSON_Delete(a);
	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"devices\",\"arguments\":[1]}}");
	a = mt_answer(&m, 7, 5000);
	is_int(mt_code(a), -32602, "tools/call with arguments an array: -32602");
	cJSON_Delete(a);
	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\"}");
	a = mt_answer(&m, 8, 5000);
	is_int(mt_code(a), -32602, "tools/call without params: -32602");
	cJSON_Delete(a);
	cJSON *r = mt_call(&m, 9, "observe", "{\"device\":\"sim\",\"colour\":true}", 10000);
	ok(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "isError")), "an unknown argument is a tool error (isError)");
	like(mt_text(r), "unknown argument 'colour'", "  naming the argument");
	cJSON_Delete(r);
	r = mt_call(&m, 10, "task", "{\"id\":42}", 10000);
	ok(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "isError")), "a wrong type is a tool error");
	like(mt_text(r), "must be a string", "  saying which type");
	cJSON_Delete(r);

	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"loud\"}}");
	a = mt_answer(&m, 11, 5000);
	is_int(mt_code(a), -32602, "logging/setLevel with an unknown level: -32602");
	cJSON_Delete(a);
	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"debug\"}}");
	a = mt_answer(&m, 12, 5000);
	is_int(mt_code(a), 0, "logging/setLevel debug: accepted");
	cJSON_Delete(a);

	/* malformed input: answered without an id, and the server goes on */
	mt_send(&m, "{\"jsonrpc\":");
	a = mt_unnumbered(&m, 5000);
	is_int(mt_code(a), -32700, "a truncated line: -32700 without an id");
	cJSON_Delete(a);
	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\",\"extra\":1}");
	a = mt_answer(&m, 13, 5000);
	is_int(mt_code(a), -32600, "an unknown member: -32600 with the id");
	cJSON_Delete(a);
	/* a line over the bound (4 MiB): dropped whole with -32600, then the
	 * next line is read (the pipe holds 64 KiB: written from a thread) */
	size_t big = AMC_MCP_LINE_MAX + 10;
	big_line = malloc(big + 1);
	memset(big_line, 'x', big);
	memcpy(big_line, "{\"jsonrpc\":\"2.0\",\"id\":14,", 25);
	big_line[big - 1] = '}';
	big_line[big] = 0;
	big_fd = m.to_srv;
	pthread_t w;
	pthread_create(&w, NULL, write_big, NULL);
	a = mt_unnumbered(&m, 30000);
	pthread_join(w, NULL);
	free(big_line);
	is_int(mt_code(a), -32600, "a line over 4 MiB: -32600, no id (it was never parsed)");
	const cJSON *er = cJSON_GetObjectItemCaseSensitive(a, "error");
	like(cJSON_GetObjectItemCaseSensitive(er, "message")->valuestring, "longer than", "  saying the line is too long");
	cJSON_Delete(a);
	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"ping\"}");
	a = mt_answer(&m, 16, 5000);
	ok(a && !mt_code(a), "the next line after it is answered");
	cJSON_Delete(a);

	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":99}}");
	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"ping\"}");
	a = mt_answer(&m, 15, 5000);
	ok(a != NULL, "a notification gets no answer; the next request does");
	cJSON_Delete(a);
	is_int(mt_stop(&m), 0, "end of input: the server ends cleanly");
}

/* amc mcp's signal thread sets the stop flag and interrupts the read; here
 * the next line wakes the read instead. */
static void test_stop_flag(void)
{
	mt_server m;
	mt_start(&m, home, cfg, 0, 0);
	cJSON_Delete(mt_init(&m, "2025-11-25", "{}"));
	atomic_store(&m.stop, 1);
	mt_send(&m, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
	int end = 0;
	for (int i = 0; i < 100 && !end; i++)
		end = mt_pump(&m, 100) < 0;
	ok(end, "stop flag: the server ends with its input still open");
	is_int(atomic_load(&m.left), 1, "stop flag: and says it reads no more");
	is_int(mt_stop(&m), 0, "stop flag: a clean end");
}

int main(void)
{
	home = test_home("mcp-server");
	cfg = amc_config_new();
	setenv("AMC_OCR_POLICY", "off", 1);
	test_versions();
	test_methods();
	test_stop_flag();
	amc_config_free(cfg);
	return done_testing();
}
