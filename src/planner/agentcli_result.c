/* agentcli_result.c - a coding agent CLI's output as usage and an ending
 * (agentcli_result.h). */
#include "planner/agentcli_result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* One JSON value is at most this long (a result text; a line of Codex). */
#define LINE_MAX_BYTES (1024 * 1024)

void amc_agentcli_usage_init(amc_agentcli_usage *u)
{
	memset(u, 0, sizeof *u);
	u->input_tokens = u->output_tokens = u->cache_read_tokens = u->cache_write_tokens = -1;
	u->cost_usd = -1;
	u->turns = -1;
	u->tool_calls = -1;
}

static void put_text(char *dst, size_t n, const char *src)
{
	if (!src) {
		dst[0] = 0;
		return;
	}
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_line(src, strnlen(src, 8192), &sb);
	snprintf(dst, n, "%s", amc_sb_str(&sb));
	amc_sb_free(&sb);
}

/* A count: a whole number >= 0 that fits, else -1. */
static long long count_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1e15)
		return -1;
	return (long long)v->valuedouble;
}

static long long add(long long a, long long b)
{
	if (b < 0)
		return a;
	return a < 0 ? b : a + b;
}

/* A session id is shown and stored: keep it to a safe alphabet. */
static void put_id(char *dst, size_t n, const char *src)
{
	size_t k = 0;
	for (; src && *src && k + 1 < n; src++)
		if ((*src >= 'a' && *src <= 'z') || (*src >= 'A' && *src <= 'Z') || (*src >= '0' && *src <= '9') ||
		    strchr("._:-", *src))
			dst[k++] = *src;
	dst[k] = 0;
}

static void claude_result(const cJSON *j, amc_agentcli_usage *u)
{
	u->have_result = 1;
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "is_error");
	u->is_error = cJSON_IsTrue(err);
	const char *st = amc_json_str(j, "subtype");
	put_id(u->subtype, sizeof u->subtype, st);
	if (st && strcmp(st, "success"))
		u->is_error = 1; /* error_max_turns, error_during_execution, ... */
	put_text(u->result, sizeof u->result, amc_json_str(j, "result"));
	if (u->is_error)
		put_text(u->error, sizeof u->error, amc_json_str(j, "result"));
	if (amc_json_str(j, "session_id")) /* else the one the stream's init line gave */
		put_id(u->session_id, sizeof u->session_id, amc_json_str(j, "session_id"));
	long long st_code = count_of(j, "api_error_status");
	u->api_status = st_code >= 100 && st_code < 600 ? (int)st_code : 0;
	long long t = count_of(j, "num_turns");
	u->turns = t > 1000000 ? -1 : (int)t;
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "total_cost_usd");
	u->cost_usd = cJSON_IsNumber(c) && c->valuedouble >= 0 && c->valuedouble < 1e9 ? c->valuedouble : -1;
	const cJSON *us = cJSON_GetObjectItemCaseSensitive(j, "usage");
	if (cJSON_IsObject(us)) {
		u->input_tokens = count_of(us, "input_tokens");
		u->output_tokens = count_of(us, "output_tokens");
		u->cache_read_tokens = count_of(us, "cache_read_input_tokens");
		u->cache_write_tokens = count_of(us, "cache_creation_input_tokens");
	}
}

/* Each line (or the whole text) that parses as an object goes to fn; stops at
 * the first fn that returns 1. */
static void each_object(const char *out, size_t n, int (*fn)(const cJSON *, void *), void *ud)
{
	size_t i = 0;
	while (i < n) {
		const char *nl = memchr(out + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (out + i)) : n - i;
		if (len && len <= LINE_MAX_BYTES) {
			cJSON *j = cJSON_ParseWithLength(out + i, len);
			int stop = cJSON_IsObject(j) && fn(j, ud);
			cJSON_Delete(j);
			if (stop)
				return;
		}
		i += len + 1;
	}
}

static int claude_line(const cJSON *j, void *ud)
{
	const char *type = amc_json_str(j, "type");
	if (type && !strcmp(type, "result"))
		claude_result(j, ud); /* the last one counts: keep going */
	return 0;
}

/* Add one text the agent wrote to what it said since the last act; past
 * the bound the text is cut on a character and ends in "...". */
static void add_thought(amc_agentcli_stream *s, const char *text)
{
	if (!text || !*text)
		return;
	size_t have = strlen(s->thought);
	if (have && !strcmp(s->thought + (have > 3 ? have - 3 : 0), "..."))
		return; /* already full */
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, s->thought);
	if (have)
		amc_sb_putc(&sb, ' ');
	/* the agent's lines read as one: a line break is a space here */
	size_t tl = strnlen(text, 8192);
	char *flat = amc_xmalloc(tl + 1);
	for (size_t i = 0; i < tl; i++)
		flat[i] = text[i] == '\n' || text[i] == '\r' || text[i] == '\t' ? ' ' : text[i];
	amc_sanitize_line(flat, tl, &sb);
	free(flat);
	const char *t = amc_sb_str(&sb);
	size_t n = strlen(t), max = sizeof s->thought - 1;
	if (n > max) {
		n = max - 3;
		while (n && ((unsigned char)t[n] & 0xC0) == 0x80)
			n--;
		memcpy(s->thought, t, n);
		memcpy(s->thought + n, "...", 4);
	} else {
		memcpy(s->thought, t, n + 1);
	}
	amc_sb_free(&sb);
}

/* An act was announced: what was said before it goes with its reason. */
static void said_push(amc_agentcli_stream *s, const cJSON *input)
{
	cJSON *parsed = NULL;
	if (cJSON_IsString(input)) /* Codex may send the arguments as JSON text */
		input = parsed = cJSON_Parse(input->valuestring);
	if (s->nsaid == AMC_AGENTCLI_SAID_KEPT) {
		memmove(&s->said[0], &s->said[1], sizeof s->said[0] * (AMC_AGENTCLI_SAID_KEPT - 1));
		s->nsaid--;
	}
	amc_agentcli_said *d = &s->said[s->nsaid++];
	const char *r = amc_json_str(input, "reason");
	snprintf(d->reason, sizeof d->reason, "%s", r ? r : "");
	memcpy(d->words, s->thought, sizeof d->words);
	s->thought[0] = 0;
	s->acts++;
	cJSON_Delete(parsed);
}

int amc_agentcli_stream_take(amc_agentcli_stream *s, const char *reason, char *out, size_t n)
{
	char want[256];
	snprintf(want, sizeof want, "%s", reason ? reason : "");
	for (int i = 0; i < s->nsaid; i++) {
		if (strcmp(s->said[i].reason, want))
			continue;
		if (n)
			snprintf(out, n, "%s", s->said[i].words);
		memmove(&s->said[0], &s->said[i + 1], sizeof s->said[0] * (size_t)(s->nsaid - i - 1));
		s->nsaid -= i + 1;
		return 1;
	}
	return 0;
}

/* Claude Code's stream-json: the session (system), the assistant's messages
 * (its text and thinking, and the tools it calls) and the result. */
static void claude_event(amc_agentcli_stream *s, const cJSON *j)
{
	const char *type = amc_json_str(j, "type");
	if (!type)
		return;
	if (!strcmp(type, "result")) {
		claude_result(j, &s->usage);
		return;
	}
	if (!strcmp(type, "system") && !s->usage.session_id[0]) {
		put_id(s->usage.session_id, sizeof s->usage.session_id, amc_json_str(j, "session_id"));
		return;
	}
	if (strcmp(type, "assistant"))
		return;
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(j, "message");
	const cJSON *b, *content = cJSON_GetObjectItemCaseSensitive(msg, "content");
	cJSON_ArrayForEach(b, content)
	{
		const char *bt = amc_json_str(b, "type");
		if (!bt)
			continue;
		if (!strcmp(bt, "text"))
			add_thought(s, amc_json_str(b, "text"));
		else if (!strcmp(bt, "thinking"))
			add_thought(s, amc_json_str(b, "thinking"));
		else if (!strcmp(bt, "tool_use")) {
			const char *name = amc_json_str(b, "name");
			size_t nl = name ? strlen(name) : 0;
			if (nl >= 5 && !strcmp(name + nl - 5, "__act"))
				said_push(s, cJSON_GetObjectItemCaseSensitive(b, "input"));
		}
	}
}

int amc_agentcli_parse_claude(const char *out, size_t n, amc_agentcli_usage *u)
{
	amc_agentcli_usage_init(u);
	if (!out)
		return -1;
	/* --output-format json: one object, possibly pretty-printed over lines */
	const char *end = NULL;
	cJSON *j = n <= 4 * LINE_MAX_BYTES ? cJSON_ParseWithLengthOpts(out, n, &end, 0) : NULL;
	/* one document only when nothing but space follows it (else: lines) */
	while (j && end && (size_t)(end - out) < n && strchr(" \t\r\n", *end))
		end++;
	if (j && (size_t)(end - out) < n) {
		cJSON_Delete(j);
		j = NULL;
	}
	if (cJSON_IsObject(j)) {
		const char *type = amc_json_str(j, "type");
		if (type && !strcmp(type, "result"))
			claude_result(j, u);
	} else if (cJSON_IsArray(j)) {
		/* --output-format json --verbose prints the whole conversation as an array */
		const cJSON *it;
		cJSON_ArrayForEach(it, j) claude_line(it, u);
	} else {
		each_object(out, n, claude_line, u);
	}
	cJSON_Delete(j);
	return u->have_result ? 0 : -1;
}

static int codex_line(const cJSON *j, void *ud)
{
	amc_agentcli_usage *u = ud;
	const char *type = amc_json_str(j, "type");
	if (!type)
		return 0;
	if (!strcmp(type, "thread.started")) {
		put_id(u->session_id, sizeof u->session_id, amc_json_str(j, "thread_id"));
	} else if (!strcmp(type, "turn.completed")) {
		u->have_result = 1;
		u->turns = u->turns < 0 ? 1 : u->turns + 1;
		const cJSON *us = cJSON_GetObjectItemCaseSensitive(j, "usage");
		if (cJSON_IsObject(us)) {
			u->input_tokens = add(u->input_tokens, count_of(us, "input_tokens"));
			u->output_tokens = add(u->output_tokens, count_of(us, "output_tokens"));
			u->cache_read_tokens = add(u->cache_read_tokens, count_of(us, "cached_input_tokens"));
		}
	} else if (!strcmp(type, "turn.failed")) {
		u->have_result = 1;
		u->is_error = 1;
		const cJSON *er = cJSON_GetObjectItemCaseSensitive(j, "error");
		put_text(u->error, sizeof u->error, amc_json_str(er, "message"));
	} else if (!strcmp(type, "error")) {
		const char *m = amc_json_str(j, "message");
		if (m && strstr(m, "Reconnecting"))
			u->reconnecting = 1;
		if (m && !u->error[0])
			put_text(u->error, sizeof u->error, m);
	} else if (!strcmp(type, "item.completed") || !strcmp(type, "item.started")) {
		const cJSON *it = cJSON_GetObjectItemCaseSensitive(j, "item");
		const char *it_type = amc_json_str(it, "type");
		if (!it_type)
			return 0;
		if (!strcmp(type, "item.completed") && !strcmp(it_type, "error")) {
			const char *m = amc_json_str(it, "message");
			if (m && strstr(m, "Reconnecting"))
				u->reconnecting = 1;
		} else if (!strcmp(type, "item.completed") && !strcmp(it_type, "agent_message")) {
			put_text(u->result, sizeof u->result, amc_json_str(it, "text"));
		}
		else if (!strcmp(type, "item.completed") && !strcmp(it_type, "mcp_tool_call"))
			u->tool_calls = u->tool_calls < 0 ? 1 : u->tool_calls + 1;
	}
	return 0;
}

int amc_agentcli_parse_codex(const char *out, size_t n, amc_agentcli_usage *u)
{
	amc_agentcli_usage_init(u);
	if (!out)
		return -1;
	each_object(out, n, codex_line, u);
	/* an error after the last completed turn still ends the run as an error */
	if (u->error[0] && !u->is_error && !u->have_result)
		u->is_error = 1;
	return u->have_result ? 0 : -1;
}

/* Codex's JSON lines: its usage (codex_line), and what the agent said
 * (agent_message and reasoning items) and the act calls it starts. */
static void codex_event(amc_agentcli_stream *s, const cJSON *j)
{
	codex_line(j, &s->usage);
	const char *type = amc_json_str(j, "type");
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(j, "item");
	const char *it_type = amc_json_str(it, "type");
	if (!type || !it_type)
		return;
	if (!strcmp(type, "item.completed") && (!strcmp(it_type, "agent_message") || !strcmp(it_type, "reasoning")))
		add_thought(s, amc_json_str(it, "text"));
	else if (!strcmp(type, "item.started") && !strcmp(it_type, "mcp_tool_call")) {
		const char *tool = amc_json_str(it, "tool");
		if (tool && !strcmp(tool, "act"))
			said_push(s, cJSON_GetObjectItemCaseSensitive(it, "arguments"));
	}
}

void amc_agentcli_stream_init(amc_agentcli_stream *s, int codex)
{
	memset(s, 0, sizeof *s);
	s->codex = codex;
	amc_agentcli_usage_init(&s->usage);
}

static void stream_line(amc_agentcli_stream *s)
{
	if (!s->skipping && s->len) {
		cJSON *j = cJSON_ParseWithLength(s->line, s->len);
		if (cJSON_IsObject(j)) {
			if (s->codex)
				codex_event(s, j);
			else
				claude_event(s, j);
		}
		cJSON_Delete(j);
	}
	s->len = 0;
	s->skipping = 0;
}

void amc_agentcli_stream_feed(amc_agentcli_stream *s, const char *buf, size_t n)
{
	while (n) {
		const char *nl = memchr(buf, '\n', n);
		size_t take = nl ? (size_t)(nl - buf) : n;
		if (!s->skipping && s->len + take > LINE_MAX_BYTES) {
			s->skipping = 1;
			s->len = 0;
		}
		if (!s->skipping && take) {
			if (s->len + take + 1 > s->cap) {
				size_t cap = s->cap ? s->cap : 4096;
				while (cap < s->len + take + 1)
					cap *= 2;
				s->line = amc_xrealloc(s->line, cap);
				s->cap = cap;
			}
			memcpy(s->line + s->len, buf, take);
			s->len += take;
		}
		if (nl) {
			stream_line(s);
			take++;
		}
		buf += take;
		n -= take;
	}
}

void amc_agentcli_stream_end(amc_agentcli_stream *s)
{
	stream_line(s);
	if (s->codex && s->usage.error[0] && !s->usage.is_error && !s->usage.have_result)
		s->usage.is_error = 1;
}

void amc_agentcli_stream_free(amc_agentcli_stream *s)
{
	free(s->line);
	s->line = NULL;
	s->len = s->cap = 0;
}
