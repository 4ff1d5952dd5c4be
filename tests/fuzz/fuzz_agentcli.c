/* Fuzz target: what amc reads back from a coding agent's CLI (planner/
 * agentcli_result.c): Claude Code's result object (or its lines) and Codex's
 * JSON lines. Whatever the bytes, the usage read is in range and every text
 * kept is terminal-safe and NUL-terminated within its field. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "planner/agentcli_result.h"

static void check(const amc_agentcli_usage *u)
{
	if (memchr(u->error, 0, sizeof u->error) == NULL || memchr(u->result, 0, sizeof u->result) == NULL ||
	    memchr(u->session_id, 0, sizeof u->session_id) == NULL || memchr(u->subtype, 0, sizeof u->subtype) == NULL)
		__builtin_trap();
	for (const char *p = u->result; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			__builtin_trap(); /* a control character would reach a terminal */
	for (const char *p = u->error; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			__builtin_trap();
	if (u->input_tokens < -1 || u->output_tokens < -1 || u->turns < -1 || (u->cost_usd < 0 && u->cost_usd != -1))
		__builtin_trap(); /* unknown is -1, never another negative */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_agentcli_usage u;
	amc_agentcli_parse_claude((const char *)data, size, &u);
	check(&u);
	amc_agentcli_parse_codex((const char *)data, size, &u);
	check(&u);
	/* the same bytes as a stream read while the CLI runs, in two pieces */
	for (int codex = 0; codex < 2; codex++) {
		amc_agentcli_stream st;
		amc_agentcli_stream_init(&st, codex);
		amc_agentcli_stream_feed(&st, (const char *)data, size / 2);
		amc_agentcli_stream_feed(&st, (const char *)data + size / 2, size - size / 2);
		amc_agentcli_stream_end(&st);
		check(&st.usage);
		if (!memchr(st.thought, 0, sizeof st.thought) || st.nsaid < 0 || st.nsaid > AMC_AGENTCLI_SAID_KEPT)
			__builtin_trap();
		for (int i = 0; i < st.nsaid; i++)
			for (const char *p = st.said[i].words; *p; p++)
				if ((unsigned char)*p < 0x20 || *p == 0x7f)
					__builtin_trap(); /* words reach the TUI and amc show */
		char w[AMC_AGENTCLI_THOUGHT_MAX];
		while (st.nsaid && amc_agentcli_stream_take(&st, st.said[0].reason, w, sizeof w))
			;
		amc_agentcli_stream_free(&st);
	}
	return 0;
}
