/* test_agentcli_result.c - Claude Code's result object and Codex's JSON lines
 * read back as usage; unknown stays unknown; hostile text made safe. */
#include <stdlib.h>
#include <string.h>

#include "planner/agentcli_result.h"
#include "util/strbuf.h"
#include "tap.h"

static int parse_c(const char *s, amc_agentcli_usage *u)
{
	return amc_agentcli_parse_claude(s, strlen(s), u);
}

static int parse_x(const char *s, amc_agentcli_usage *u)
{
	return amc_agentcli_parse_codex(s, strlen(s), u);
}

/* The stream read while the CLI runs: the agent's words go with the act
 * they came before. */
static void test_stream(void)
{
	amc_agentcli_stream st;
	char w[AMC_AGENTCLI_THOUGHT_MAX];
	amc_agentcli_stream_init(&st, 0);
	const char *cl =
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s-1\"}\n"
		"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"First I look.\"},"
		"{\"type\":\"tool_use\",\"name\":\"mcp__amc__observe\",\"input\":{}}]}}\n"
		"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"content\":\"big\"}]}}\n"
		"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"thinking\",\"thinking\":\"Wi-Fi is\\non.\"},"
		"{\"type\":\"text\",\"text\":\"Tap \\u001b[31mit\"},"
		"{\"type\":\"tool_use\",\"name\":\"mcp__amc__act\",\"input\":{\"action\":\"tap\",\"reason\":\"tap Wi-Fi\"}}]}}\n"
		"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"Done.\"},"
		"{\"type\":\"tool_use\",\"name\":\"mcp__amc__act\",\"input\":{\"action\":\"finish\"}}]}}\n"
		"{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"ok\",\"num_turns\":3}";
	/* fed in pieces of 7 bytes: lines cross the chunks */
	for (size_t i = 0; i < strlen(cl); i += 7)
		amc_agentcli_stream_feed(&st, cl + i, strlen(cl) - i < 7 ? strlen(cl) - i : 7);
	is_int(st.acts, 2, "stream: two acts announced (observe is not one)");
	is_int(st.usage.have_result, 0, "the last line has no newline yet: not read");
	amc_agentcli_stream_end(&st);
	is_int(st.usage.have_result, 1, "read at the end");
	is_int(st.usage.turns, 3, "the result's turns");
	is_str(st.usage.session_id, "s-1", "the session from the init line");
	is_int(amc_agentcli_stream_take(&st, "tap Wi-Fi", w, sizeof w), 1, "the act with reason 'tap Wi-Fi' found");
	ok(!strncmp(w, "First I look. Wi-Fi is on. Tap ", 31), "its words: all said since the last act, thinking too, one line (%s)", w);
	ok(!strchr(w, 0x1b) && !strchr(w, '\n'), "terminal-safe");
	is_int(amc_agentcli_stream_take(&st, "tap Wi-Fi", w, sizeof w), 0, "taken once");
	is_int(amc_agentcli_stream_take(&st, NULL, w, sizeof w), 1, "an act without a reason");
	is_str(w, "Done.", "its words");
	amc_agentcli_stream_free(&st);

	/* an act amc never took (refused before it reached the planner) is dropped
	 * with the next one taken; a line past 1 MiB is skipped whole */
	amc_agentcli_stream_init(&st, 1);
	const char *cx =
		"{\"type\":\"item.completed\",\"item\":{\"type\":\"reasoning\",\"text\":\"Looking for Save.\"}}\n"
		"{\"type\":\"item.started\",\"item\":{\"type\":\"mcp_tool_call\",\"server\":\"amc\",\"tool\":\"act\","
		"\"arguments\":\"{\\\"action\\\":\\\"tap\\\",\\\"reason\\\":\\\"r1\\\"}\"}}\n"
		"{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"Again.\"}}\n"
		"{\"type\":\"item.started\",\"item\":{\"type\":\"mcp_tool_call\",\"server\":\"amc\",\"tool\":\"act\","
		"\"arguments\":{\"action\":\"tap\",\"reason\":\"r2\"}}}\n";
	amc_agentcli_stream_feed(&st, cx, strlen(cx));
	size_t big = 1024 * 1024 + 10;
	char *huge = malloc(big);
	memset(huge, 'x', big);
	amc_agentcli_stream_feed(&st, huge, big);
	amc_agentcli_stream_feed(&st, "\n{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":1}}\n", 54);
	free(huge);
	is_int(st.acts, 2, "codex stream: two act calls (arguments as text or as an object)");
	is_int(st.usage.have_result, 1, "the line after a skipped 1 MiB line is read");
	is_int(amc_agentcli_stream_take(&st, "r2", w, sizeof w), 1, "the second act's words");
	is_str(w, "Again.", "are its own");
	is_int(st.nsaid, 0, "the first act, never taken, is dropped with it");
	is_int(amc_agentcli_stream_take(&st, "r1", w, sizeof w), 0, "and not found later");
	amc_agentcli_stream_free(&st);

	/* words past the bound end in "..." on a character boundary */
	amc_agentcli_stream_init(&st, 0);
	amc_sb lng;
	amc_sb_init(&lng);
	amc_sb_puts(&lng, "{\"type\":\"assistant\",\"message\":{\"content\":[");
	for (int i = 0; i < 40; i++)
		amc_sb_printf(&lng, "%s{\"type\":\"text\",\"text\":\"%s\"}", i ? "," : "",
			      "\xc3\xa9\xc3\xa9\xc3\xa9 etc etc etc etc etc etc etc etc etc etc etc etc etc etc etc etc");
	amc_sb_puts(&lng, ",{\"type\":\"tool_use\",\"name\":\"mcp__amc__act\",\"input\":{\"reason\":\"x\"}}]}}\n");
	amc_agentcli_stream_feed(&st, amc_sb_str(&lng), lng.len);
	amc_sb_free(&lng);
	is_int(amc_agentcli_stream_take(&st, "x", w, sizeof w), 1, "long words: taken");
	ok(strlen(w) < AMC_AGENTCLI_THOUGHT_MAX && !strcmp(w + strlen(w) - 3, "..."), "cut, ending in '...' (%zu bytes)",
	   strlen(w));
	amc_agentcli_stream_free(&st);
}

int main(void)
{
	amc_agentcli_usage u;
	/* Claude Code 2.1.197's --output-format json */
	is_int(parse_c("{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"Done.\","
		       "\"session_id\":\"466d7911-8e27\",\"num_turns\":7,\"total_cost_usd\":0.0687,"
		       "\"usage\":{\"input_tokens\":10000,\"output_tokens\":500,\"cache_read_input_tokens\":20,"
		       "\"cache_creation_input_tokens\":30}}", &u), 0, "claude: a result object");
	is_int(u.input_tokens, 10000, "input tokens");
	is_int(u.output_tokens, 500, "output tokens");
	is_int(u.cache_read_tokens, 20, "cache read tokens");
	is_int(u.cache_write_tokens, 30, "cache write tokens");
	ok(u.cost_usd > 0.0686 && u.cost_usd < 0.0688, "cost as reported");
	is_int(u.turns, 7, "turns");
	is_str(u.session_id, "466d7911-8e27", "session id");
	is_int(u.is_error, 0, "not an error");
	is_str(u.result, "Done.", "the final text");
	/* a 401 says success with is_error (protocols.md) */
	is_int(parse_c("{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":true,\"api_error_status\":401,"
		       "\"result\":\"Invalid API key · Fix external API key\",\"num_turns\":1,\"total_cost_usd\":0}", &u), 0,
	       "claude: a 401 result");
	is_int(u.is_error, 1, "is_error read");
	is_int(u.api_status, 401, "the API status");
	like(u.error, "Invalid API key", "the error text");
	parse_c("{\"type\":\"result\",\"subtype\":\"error_max_turns\",\"is_error\":false,\"num_turns\":2}", &u);
	is_int(u.is_error, 1, "error_max_turns is an error whatever is_error says");
	is_str(u.subtype, "error_max_turns", "its subtype");
	is_int(u.input_tokens, -1, "no usage: tokens unknown, not 0");
	ok(u.cost_usd < 0, "no cost: unknown, not 0");
	/* stream-json lines: the last result counts; other lines skipped */
	is_int(parse_c("{\"type\":\"system\",\"subtype\":\"init\"}\nnot json\n"
		       "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"num_turns\":3}\n", &u), 0,
	       "claude: stream-json lines");
	is_int(u.turns, 3, "the result line read");
	/* --verbose prints an array */
	is_int(parse_c("[{\"type\":\"system\"},{\"type\":\"result\",\"subtype\":\"success\",\"num_turns\":4}]", &u), 0,
	       "claude: an array of messages");
	is_int(u.turns, 4, "the array's result read");
	is_int(parse_c("", &u), -1, "claude: empty output: no result");
	is_int(parse_c("{\"type\":\"assistant\"}", &u), -1, "claude: no result object");
	/* hostile values */
	parse_c("{\"type\":\"result\",\"subtype\":\"succ\\u001b[2Jess\",\"result\":\"a\\u001b]0;x\\u0007b\",\"session_id\":"
		"\"../../etc;rm -rf\",\"num_turns\":-5,\"total_cost_usd\":-1,\"usage\":{\"input_tokens\":1e300}}", &u);
	ok(!strchr(u.result, 0x1b) && !strchr(u.result, 0x07), "control characters never reach the result text");
	is_str(u.session_id, "....etcrm-rf", "a session id keeps a safe alphabet only");
	ok(!strchr(u.subtype, 0x1b), "nor the subtype");
	is_int(u.turns, -1, "negative turns: unknown");
	ok(u.cost_usd < 0, "negative cost: unknown");
	is_int(u.input_tokens, -1, "absurd token counts: unknown");

	/* Codex 0.171's exec --json */
	is_int(parse_x("{\"type\":\"thread.started\",\"thread_id\":\"01a2458a-f70d\"}\n{\"type\":\"turn.started\"}\n"
		       "{\"type\":\"item.completed\",\"item\":{\"id\":\"i1\",\"type\":\"mcp_tool_call\",\"server\":\"amc\","
		       "\"tool\":\"observe\",\"status\":\"completed\"}}\n"
		       "{\"type\":\"item.completed\",\"item\":{\"id\":\"i2\",\"type\":\"agent_message\",\"text\":\"Wi-Fi is on.\"}}\n"
		       "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":6000,\"cached_input_tokens\":100,"
		       "\"output_tokens\":300}}\n", &u), 0, "codex: a completed turn");
	is_str(u.session_id, "01a2458a-f70d", "the thread id is the session");
	is_int(u.input_tokens, 6000, "input tokens");
	is_int(u.output_tokens, 300, "output tokens");
	is_int(u.cache_read_tokens, 100, "cached input tokens");
	ok(u.cost_usd < 0, "Codex reports no cost: unknown (null), not 0");
	is_int(u.tool_calls, 1, "MCP tool calls counted");
	is_str(u.result, "Wi-Fi is on.", "the last agent message");
	is_int(u.turns, 1, "one turn");
	is_int(parse_x("{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}\n"
		       "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":5,\"output_tokens\":2}}\n", &u), 0,
	       "codex: two turns");
	is_int(u.input_tokens, 15, "usage summed over turns");
	is_int(u.turns, 2, "two turns counted");
	is_int(parse_x("{\"type\":\"turn.started\"}\n{\"type\":\"turn.failed\",\"error\":{\"message\":\"401 Unauthorized\"}}\n", &u),
	       0, "codex: a failed turn");
	is_int(u.is_error, 1, "is an error");
	like(u.error, "401 Unauthorized", "with its message");
	is_int(parse_x("{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n{\"type\":\"turn.started\"}\n"
		       "{\"type\":\"error\",\"message\":\"Reconnecting... 2/5 (stream disconnected)\"}\n", &u), -1,
	       "codex: still reconnecting: no result");
	is_int(u.reconnecting, 1, "reconnecting noticed");
	parse_x("{\"type\":\"item.completed\",\"item\":{\"type\":\"error\",\"message\":\"Reconnecting... 1/5\"}}\n", &u);
	is_int(u.reconnecting, 1, "reconnecting noticed in an error item too");
	is_int(parse_x("garbage\n\n{\n[1,2]\n", &u), -1, "codex: garbage: no result, no crash");
	is_int(amc_agentcli_parse_codex(NULL, 0, &u), -1, "codex: NULL output");
	test_stream();
	return done_testing();
}
