/* agentcli_result.h - what a coding agent's CLI printed, read back: Claude
 * Code's final JSON object (`claude -p --output-format json`) and Codex's JSON
 * lines (`codex exec --json`), as usage, a session id and how it ended.
 *
 * Both outputs are outside input: bounded (the caller caps what it reads),
 * parsed with cJSON, every text made terminal-safe and cut. A value a CLI did
 * not report stays unknown (-1), never 0: Codex reports no cost. */
#ifndef AMC_AGENTCLI_RESULT_H
#define AMC_AGENTCLI_RESULT_H

#include <stddef.h>

typedef struct amc_agentcli_usage {
	long long input_tokens, output_tokens;          /* -1: not reported */
	long long cache_read_tokens, cache_write_tokens; /* -1: not reported */
	double cost_usd;        /* as the CLI reported it; < 0: not reported */
	int turns;              /* -1: not reported */
	int tool_calls;         /* MCP tool calls seen in the output (Codex items); -1: not reported */
	char session_id[128];   /* "" when none; [A-Za-z0-9._:-] only */
	int have_result;        /* 1: a final result (Claude) or a completed/failed turn (Codex) was read */
	int is_error;           /* 1: the CLI said its run failed */
	char subtype[48];       /* Claude's result subtype ("success", "error_max_turns", ...); "" */
	char error[512];        /* the CLI's error, terminal-safe; "" */
	char result[1024];      /* the final text, terminal-safe; "" */
	int reconnecting;       /* Codex said it is reconnecting to its model endpoint */
	int api_status;         /* the model API's HTTP status of a failed call (Claude's api_error_status); 0 */
} amc_agentcli_usage;

void amc_agentcli_usage_init(amc_agentcli_usage *u);

/* Read Claude Code's stdout (the whole of it: one JSON object, or lines of
 * which the last {"type":"result"} counts). 0 when a result object was found;
 * -1 otherwise (u keeps what could be read, all unknown). */
int amc_agentcli_parse_claude(const char *out, size_t n, amc_agentcli_usage *u);
/* Read Codex's JSON lines: thread.started (the session), turn.completed
 * (usage, summed over turns), turn.failed and error events, agent_message
 * and mcp_tool_call items. Lines that are not JSON are skipped. 0 when a
 * turn completed or failed; -1 otherwise. */
int amc_agentcli_parse_codex(const char *out, size_t n, amc_agentcli_usage *u);

#endif
