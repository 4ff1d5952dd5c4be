/* agentcli_result.c - a coding agent CLI's output as usage and an ending
 * (agentcli_result.h). */
#include "agentcli/agentcli_result.h"

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
		} else if (!strcmp(type, "item.completed") && !strcmp(it_type, "agent_message"))
			put_text(u->result, sizeof u->result, amc_json_str(it, "text"));
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
