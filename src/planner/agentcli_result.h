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

/* The CLI's stdout read as it arrives (Claude's stream-json lines, Codex's
 * JSON lines): the usage so far, and the agent's words (its text, and its
 * reasoning where the CLI shows it) since they were last taken, to be
 * recorded with the act that follows them. A line longer than 1 MiB is
 * skipped whole (a screenshot echoed back), never cut. */
#define AMC_AGENTCLI_THOUGHT_MAX 2048
#define AMC_AGENTCLI_SAID_KEPT 8
typedef struct amc_agentcli_said {
	char reason[256];          /* the act's reason as the CLI sent it (cut); "" */
	char words[AMC_AGENTCLI_THOUGHT_MAX]; /* what the agent said before that act */
} amc_agentcli_said;
typedef struct amc_agentcli_stream {
	int codex;                 /* 1: Codex JSON lines; 0: Claude stream-json */
	amc_agentcli_usage usage;  /* as read so far (parse_* of what was fed) */
	char thought[AMC_AGENTCLI_THOUGHT_MAX]; /* said since the last act: terminal-safe, one line */
	amc_agentcli_said said[AMC_AGENTCLI_SAID_KEPT]; /* per act announced, oldest first */
	int nsaid;
	int acts;                  /* act calls the CLI has announced so far */
	char *line;                /* the line being read; the stream owns it */
	size_t len, cap;
	int skipping;              /* the current line is past the bound */
} amc_agentcli_stream;

void amc_agentcli_stream_init(amc_agentcli_stream *s, int codex);
void amc_agentcli_stream_feed(amc_agentcli_stream *s, const char *buf, size_t n);
/* The output ended: read a last line without its newline. */
void amc_agentcli_stream_end(amc_agentcli_stream *s);
void amc_agentcli_stream_free(amc_agentcli_stream *s);
/* The words said before the act the CLI announced with this reason (NULL or
 * "": an act without one): 1 and the words copied to out (the act's entry and
 * older ones, whose acts amc never took, are dropped); 0 when no announced
 * act has that reason (yet). */
int amc_agentcli_stream_take(amc_agentcli_stream *s, const char *reason, char *out, size_t n);

#endif
