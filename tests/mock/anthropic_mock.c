#include "anthropic_mock.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

static int fail(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Every object schema: additionalProperties false; no rejected keywords. */
static int check_schema(const cJSON *s, char *why, size_t n, const char *tool)
{
	static const char *const bad[] = { "minimum", "maximum", "minLength", "maxLength", NULL };
	for (int i = 0; bad[i]; i++)
		if (cJSON_GetObjectItemCaseSensitive(s, bad[i]))
			return fail(why, n, "tool %s: strict schemas reject '%s'", tool, bad[i]);
	const char *type = str(s, "type");
	if (type && !strcmp(type, "object")) {
		const cJSON *ap = cJSON_GetObjectItemCaseSensitive(s, "additionalProperties");
		if (!cJSON_IsFalse(ap))
			return fail(why, n, "tool %s: an object schema without additionalProperties:false", tool);
	}
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties"), *p;
	cJSON_ArrayForEach(p, props) {
		if (check_schema(p, why, n, tool) != 0)
			return -1;
	}
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(s, "items");
	if (items && check_schema(items, why, n, tool) != 0)
		return -1;
	return 0;
}

int amc_mock_refuses_forced_tools(const char *model)
{
	return model && !strncmp(model, "claude-sonnet-5-5", 17);
}

/* Over 120 lines: every rule of the Messages API request the mock enforces,
 * one after another, each with the reason a test sees. */
int amc_mock_check_request(const mock_req *rq, char *why, size_t n)
{
	char h[256];
	if (strcmp(rq->method, "POST") || strcmp(rq->path, "/v1/messages"))
		return fail(why, n, "expected POST /v1/messages, got %s %s", rq->method, rq->path);
	if (!mock_header(rq, "x-api-key", h, sizeof h) || !h[0])
		return fail(why, n, "no x-api-key header");
	if (!mock_header(rq, "anthropic-version", h, sizeof h) || strcmp(h, "2023-06-01"))
		return fail(why, n, "anthropic-version must be 2023-06-01");
	if (!mock_header(rq, "content-type", h, sizeof h) || strncmp(h, "application/json", 16))
		return fail(why, n, "content-type must be application/json");
	cJSON *b = cJSON_ParseWithLength(rq->body, rq->body_len);
	int rc = -1;
	if (!cJSON_IsObject(b)) {
		fail(why, n, "body is not a JSON object");
		goto out;
	}
	if (!str(b, "model") || !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(b, "max_tokens"))) {
		fail(why, n, "model and max_tokens are required");
		goto out;
	}
	static const char *const banned[] = { "temperature", "top_p", "top_k", "thinking", NULL };
	for (int i = 0; banned[i]; i++)
		if (cJSON_GetObjectItemCaseSensitive(b, banned[i])) {
			fail(why, n, "'%s' must not be sent", banned[i]);
			goto out;
		}
	const cJSON *of = cJSON_GetObjectItemCaseSensitive(b, "output_config");
	const cJSON *tools = cJSON_GetObjectItemCaseSensitive(b, "tools");
	if (of) {
		const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(of, "format");
		const char *ft = str(fmt, "type");
		const cJSON *schema = cJSON_GetObjectItemCaseSensitive(fmt, "schema");
		if (!ft || strcmp(ft, "json_schema") || !cJSON_IsObject(schema) ||
		    check_schema(schema, why, n, "output_config") != 0) {
			if (!ft || strcmp(ft, "json_schema"))
				fail(why, n, "output_config.format must be {type:json_schema, schema}");
			goto out;
		}
		if (tools) {
			fail(why, n, "structured output and tools in one request");
			goto out;
		}
	}
	const cJSON *sys = cJSON_GetObjectItemCaseSensitive(b, "system");
	if (!cJSON_IsArray(sys) || cJSON_GetArraySize(sys) < 1) {
		fail(why, n, "system must be an array of text blocks (for cache_control)");
		goto out;
	}
	const cJSON *lastsys = cJSON_GetArrayItem(sys, cJSON_GetArraySize(sys) - 1);
	const char *cct = str(cJSON_GetObjectItemCaseSensitive(lastsys, "cache_control"), "type");
	if (!cct || strcmp(cct, "ephemeral")) {
		fail(why, n, "the stable system prefix must end with cache_control {type: ephemeral}");
		goto out;
	}
	if (tools) {
		if (!cJSON_IsArray(tools) || !cJSON_GetArraySize(tools)) {
			fail(why, n, "tools must be a non-empty array");
			goto out;
		}
		const cJSON *t;
		cJSON_ArrayForEach(t, tools) {
			const char *name = str(t, "name");
			const cJSON *schema = cJSON_GetObjectItemCaseSensitive(t, "input_schema");
			if (!name || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "strict")) || !cJSON_IsObject(schema)) {
				fail(why, n, "tool %s: needs name, strict:true and input_schema", name ? name : "?");
				goto out;
			}
			if (check_schema(schema, why, n, name) != 0)
				goto out;
			const cJSON *reason = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(schema, "properties"), "reason");
			const cJSON *req = cJSON_GetObjectItemCaseSensitive(schema, "required"), *r;
			int has = 0;
			cJSON_ArrayForEach(r, req) {
				if (cJSON_IsString(r) && !strcmp(r->valuestring, "reason"))
					has = 1;
			}
			if (!reason || !has) {
				fail(why, n, "tool %s: 'reason' must be a required property", name);
				goto out;
			}
		}
		const cJSON *tc = cJSON_GetObjectItemCaseSensitive(b, "tool_choice");
		const char *tct = str(tc, "type");
		const char *want = amc_mock_refuses_forced_tools(str(b, "model")) ? "auto" : "any";
		if (!tct || strcmp(tct, want) || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tc, "disable_parallel_tool_use"))) {
			if (!strcmp(want, "auto"))
				fail(why, n, "this model refuses a forced tool choice: tool_choice must be {type:auto, "
					 "disable_parallel_tool_use:true}");
			else
				fail(why, n, "tool_choice must be {type:any, disable_parallel_tool_use:true}");
			goto out;
		}
	}
	const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(b, "messages");
	int nm = cJSON_GetArraySize(msgs);
	if (!cJSON_IsArray(msgs) || nm < 1 || nm > 3) {
		fail(why, n, "messages must be 1..3 entries (bounded context), got %d", nm);
		goto out;
	}
	const char *pending = NULL;
	for (int i = 0; i < nm; i++) {
		const cJSON *m = cJSON_GetArrayItem(msgs, i);
		const char *role = str(m, "role");
		const char *want = i % 2 ? "assistant" : "user";
		if (!role || strcmp(role, want)) {
			fail(why, n, "message %d must be %s", i, want);
			goto out;
		}
		const cJSON *content = cJSON_GetObjectItemCaseSensitive(m, "content");
		if (!cJSON_IsArray(content) || !cJSON_GetArraySize(content)) {
			fail(why, n, "message %d has no content blocks", i);
			goto out;
		}
		const cJSON *blk;
		int k = 0;
		cJSON_ArrayForEach(blk, content) {
			const char *bt = str(blk, "type");
			if (bt && !strcmp(bt, "tool_result")) {
				if (k != 0 || !pending || !str(blk, "tool_use_id") || strcmp(str(blk, "tool_use_id"), pending)) {
					fail(why, n, "tool_result must come first and answer the previous tool_use");
					goto out;
				}
				pending = NULL;
			} else if (bt && !strcmp(bt, "tool_use")) {
				pending = str(blk, "id");
			} else if (bt && !strcmp(bt, "image")) {
				const cJSON *src = cJSON_GetObjectItemCaseSensitive(blk, "source");
				if (!str(src, "data") || strcmp(str(src, "media_type") ? str(src, "media_type") : "", "image/png")) {
					fail(why, n, "image blocks need base64 PNG data");
					goto out;
				}
			}
			k++;
		}
		if (role[0] == 'u' && i > 0 && pending) {
			fail(why, n, "a tool_use was not answered by a tool_result");
			goto out;
		}
	}
	if (pending) {
		fail(why, n, "the conversation ends with an unanswered tool_use");
		goto out;
	}
	rc = 0;
out:
	cJSON_Delete(b);
	return rc;
}

static int b64val(int c)
{
	static const char tb[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(tb, c) : NULL;
	return p ? (int)(p - tb) : -1;
}

/* An image_url must be a data URI of a whole base64 PNG (Ollama takes only
 * png/jpeg/webp; amc sends PNG). */
static int chat_image_ok(const char *url, char *why, size_t n)
{
	static const char pre[] = "data:image/png;base64,";
	if (!url || strncmp(url, pre, sizeof pre - 1))
		return fail(why, n, "image_url.url must be a data:image/png;base64 URI");
	const char *d = url + sizeof pre - 1;
	size_t len = strlen(d);
	if (len < 32 || len % 4)
		return fail(why, n, "the image's base64 is truncated (%zu characters)", len);
	for (size_t i = 0; i < len; i++)
		if (b64val((unsigned char)d[i]) < 0 && !(d[i] == '=' && i >= len - 2))
			return fail(why, n, "the image's base64 has a bad character at %zu", i);
	unsigned char head[24];
	for (int i = 0; i < 8; i++) {
		unsigned v = (unsigned)b64val(d[i * 4]) << 18 | (unsigned)b64val(d[i * 4 + 1]) << 12 |
			     (unsigned)b64val(d[i * 4 + 2]) << 6 | (unsigned)b64val(d[i * 4 + 3]);
		head[i * 3] = (unsigned char)(v >> 16);
		head[i * 3 + 1] = (unsigned char)(v >> 8);
		head[i * 3 + 2] = (unsigned char)v;
	}
	if (memcmp(head, "\x89PNG\r\n\x1a\n", 8) || memcmp(head + 12, "IHDR", 4))
		return fail(why, n, "the image is not a PNG");
	return 0;
}

/* 1 when a chat request carries an image_url part. */
static int chat_has_image(const cJSON *body)
{
	const cJSON *m, *part;
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(body, "messages")) {
		cJSON_ArrayForEach(part, cJSON_GetObjectItemCaseSensitive(m, "content")) {
			if (str(part, "type") && !strcmp(str(part, "type"), "image_url"))
				return 1;
		}
	}
	return 0;
}

int amc_mock_check_chat(const mock_req *rq, char *why, size_t n)
{
	char h[256];
	if (!mock_header(rq, "content-type", h, sizeof h) || strncmp(h, "application/json", 16))
		return fail(why, n, "content-type must be application/json");
	cJSON *b = cJSON_ParseWithLength(rq->body, rq->body_len);
	int rc = -1;
	const cJSON *rf = cJSON_GetObjectItemCaseSensitive(b, "response_format");
	const cJSON *js = cJSON_GetObjectItemCaseSensitive(rf, "json_schema");
	static const char *const banned[] = { "temperature", "top_p", "top_k", NULL };
	for (int i = 0; banned[i]; i++)
		if (cJSON_GetObjectItemCaseSensitive(b, banned[i])) {
			fail(why, n, "'%s' must not be sent", banned[i]);
			goto out;
		}
	if (!str(b, "model") || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(b, "messages"))) {
		fail(why, n, "model and messages are required");
		goto out;
	}
	if (rf && (!str(rf, "type") || strcmp(str(rf, "type"), "json_schema") || !str(js, "name") ||
		   !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(js, "schema")) ||
		   !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(js, "strict")))) {
		fail(why, n, "response_format must be the nested form {type:json_schema, json_schema:{name, schema, strict:true}}");
		goto out;
	}
	if (rf && cJSON_GetObjectItemCaseSensitive(rf, "schema")) {
		fail(why, n, "the flat json_schema form is ignored by llama.cpp");
		goto out;
	}
	if (rf && cJSON_GetObjectItemCaseSensitive(b, "tools")) {
		fail(why, n, "tools and a json_schema response in one request");
		goto out;
	}
	const cJSON *m;
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(b, "messages")) {
		const cJSON *content = cJSON_GetObjectItemCaseSensitive(m, "content"), *part;
		if (cJSON_IsString(content))
			continue;
		if (!cJSON_IsArray(content) || !cJSON_GetArraySize(content)) {
			fail(why, n, "a message's content must be a string or a non-empty array of parts");
			goto out;
		}
		cJSON_ArrayForEach(part, content) {
			const char *pt = str(part, "type");
			if (pt && !strcmp(pt, "text") && str(part, "text"))
				continue;
			if (pt && !strcmp(pt, "image_url")) {
				if (chat_image_ok(str(cJSON_GetObjectItemCaseSensitive(part, "image_url"), "url"), why, n) != 0)
					goto out;
				continue;
			}
			fail(why, n, "a content part must be {type:text, text} or {type:image_url, image_url:{url}}");
			goto out;
		}
	}
	rc = 0;
out:
	cJSON_Delete(b);
	return rc;
}

int amc_mock_agent_load(amc_mock_agent *a, const char *text)
{
	memset(a, 0, sizeof *a);
	a->in_tokens = 1000;
	a->out_tokens = 100;
	char *copy = strdup(text), *save = NULL;
	int cap = 16;
	a->lines = calloc((size_t)cap, sizeof *a->lines);
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		while (*l == ' ' || *l == '\t')
			l++;
		if (!*l || *l == '#')
			continue;
		if (!strcmp(l, "textonly")) {
			a->text_only = 1;
			continue;
		}
		if (a->n == cap) {
			cap *= 2;
			a->lines = realloc(a->lines, (size_t)cap * sizeof *a->lines);
		}
		a->lines[a->n++] = strdup(l);
	}
	free(copy);
	return 0;
}

void amc_mock_agent_free(amc_mock_agent *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->lines[i]);
	free(a->lines);
}

/* The Scene of the last user message. */
static cJSON *last_scene(const cJSON *body)
{
	const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(body, "messages");
	const cJSON *m = cJSON_GetArrayItem(msgs, cJSON_GetArraySize(msgs) - 1), *b;
	const char *whole = str(m, "content");
	if (whole) {
		const char *p = strstr(whole, "Current screen");
		return p && (p = strchr(p, '{')) ? cJSON_Parse(p) : NULL;
	}
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(m, "content")) {
		const char *t = str(b, "text");
		const char *p = t ? strstr(t, "Current screen") : NULL;
		if (p && (p = strchr(p, '{')))
			return cJSON_Parse(p);
	}
	return NULL;
}

static const char *last_tool_result(const cJSON *body)
{
	const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(body, "messages");
	const cJSON *m = cJSON_GetArrayItem(msgs, cJSON_GetArraySize(msgs) - 1);
	const char *whole = str(m, "content");
	if (whole)
		return strstr(whole, "[tool_result]");
	const cJSON *b = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, "content"), 0);
	if (str(b, "type") && !strcmp(str(b, "type"), "text") && str(b, "text"))
		return strstr(str(b, "text"), "[tool_result]"); /* a chat turn with text and image parts */
	if (!str(b, "type") || strcmp(str(b, "type"), "tool_result"))
		return NULL;
	return str(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(b, "content"), 0), "text");
}

static char *reply(amc_mock_agent *a, const char *stop, cJSON *tool_use)
{
	cJSON *r = cJSON_CreateObject();
	char id[64];
	snprintf(id, sizeof id, "msg_%d", ++a->call_seq);
	cJSON_AddStringToObject(r, "id", id);
	cJSON_AddStringToObject(r, "type", "message");
	cJSON_AddStringToObject(r, "role", "assistant");
	cJSON_AddStringToObject(r, "model", "claude-sonnet-5");
	cJSON *content = cJSON_AddArrayToObject(r, "content");
	if (tool_use)
		cJSON_AddItemToArray(content, tool_use);
	else {
		cJSON *t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "type", "text");
		cJSON_AddStringToObject(t, "text", "I will not do that.");
		cJSON_AddItemToArray(content, t);
	}
	cJSON_AddStringToObject(r, "stop_reason", stop);
	cJSON *u = cJSON_AddObjectToObject(r, "usage");
	cJSON_AddNumberToObject(u, "input_tokens", (double)a->in_tokens);
	cJSON_AddNumberToObject(u, "output_tokens", (double)a->out_tokens);
	cJSON_AddNumberToObject(u, "cache_creation_input_tokens", a->call_seq == 1 ? 1200 : 0);
	cJSON_AddNumberToObject(u, "cache_read_input_tokens", a->call_seq == 1 ? 0 : 1200);
	char *s = cJSON_PrintUnformatted(r);
	cJSON_Delete(r);
	return s;
}

static cJSON *use(amc_mock_agent *a, const char *name, cJSON *input)
{
	cJSON *t = cJSON_CreateObject();
	char id[64];
	snprintf(id, sizeof id, "toolu_%04d", a->call_seq + 1);
	cJSON_AddStringToObject(t, "type", "tool_use");
	cJSON_AddStringToObject(t, "id", id);
	cJSON_AddStringToObject(t, "name", name);
	char reason[300];
	snprintf(reason, sizeof reason, "scripted step %d: %s", a->pos, name);
	cJSON_AddStringToObject(input, "reason", a->reason[0] ? a->reason : reason);
	a->reason[0] = 0;
	cJSON_AddItemToObject(t, "input", input);
	return t;
}

/* An Anthropic-shaped reply as a chat completion whose content is the JSON
 * action {"tool", "reason", ...}. */
static void to_chat(mock_resp *rs)
{
	cJSON *m = rs->body ? cJSON_Parse(rs->body) : NULL;
	if (!cJSON_IsObject(m) || !str(m, "stop_reason")) {
		cJSON_Delete(m);
		return; /* malformed on purpose */
	}
	const cJSON *b0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, "content"), 0);
	const char *stop = str(m, "stop_reason");
	char *content = NULL;
	if (str(b0, "type") && !strcmp(str(b0, "type"), "tool_use")) {
		cJSON *in = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(b0, "input"), 1);
		cJSON_AddStringToObject(in, "tool", str(b0, "name"));
		content = cJSON_PrintUnformatted(in);
		cJSON_Delete(in);
	} else {
		content = strdup(str(b0, "text") ? str(b0, "text") : "");
	}
	cJSON *r = cJSON_CreateObject();
	cJSON *ch = cJSON_CreateObject();
	cJSON *msg = cJSON_AddObjectToObject(ch, "message");
	cJSON_AddStringToObject(msg, "role", "assistant");
	cJSON_AddStringToObject(msg, "content", content);
	cJSON_AddStringToObject(ch, "finish_reason", !strcmp(stop, "max_tokens") ? "length" : "stop");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "choices"), ch);
	cJSON *u = cJSON_AddObjectToObject(r, "usage");
	const cJSON *au = cJSON_GetObjectItemCaseSensitive(m, "usage");
	cJSON_AddNumberToObject(u, "prompt_tokens", cJSON_GetObjectItemCaseSensitive(au, "input_tokens")->valuedouble);
	cJSON_AddNumberToObject(u, "completion_tokens", cJSON_GetObjectItemCaseSensitive(au, "output_tokens")->valuedouble);
	free(content);
	free(rs->body);
	rs->body = cJSON_PrintUnformatted(r);
	cJSON_Delete(r);
	cJSON_Delete(m);
}

static void violation(amc_mock_agent *a, mock_resp *rs, const char *why)
{
	a->violations++;
	snprintf(a->last_violation, sizeof a->last_violation, "%s", why);
	if (a->vlog) {
		fprintf(a->vlog, "request %d: %s\n", a->requests, why);
		fflush(a->vlog);
	}
	rs->status = 400;
	cJSON *e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "type", "error");
	cJSON *er = cJSON_AddObjectToObject(e, "error");
	cJSON_AddStringToObject(er, "type", "invalid_request_error");
	cJSON_AddStringToObject(er, "message", why);
	rs->body = cJSON_PrintUnformatted(e);
	cJSON_Delete(e);
}

/* Over 120 lines: the scripted agent's whole turn (read the screen, choose
 * the next scripted line, answer in the stream's shape) in one place. */
void amc_mock_agent_handle(void *ud, const mock_req *rq, mock_resp *rs)
{
	amc_mock_agent *a = ud;
	a->requests++;
	if (a->log) {
		fwrite(rq->body, 1, rq->body_len, a->log);
		fputc('\n', a->log);
		fflush(a->log);
	}
	char why[512];
	if (!strcmp(rq->method, "GET") && !strncmp(rq->path, "/v1/models", 10)) {
		/* the model catalog (Anthropic and OpenAI-compatible shapes share data[].id) */
		a->catalog_requests++;
		rs->body = strdup("{\"data\":[{\"id\":\"claude-sonnet-5\",\"type\":\"model\"},"
				  "{\"id\":\"claude-haiku-4-5\",\"type\":\"model\"}],\"has_more\":false}");
		return;
	}
	int chat = !strcmp(rq->path, "/v1/chat/completions");
	if (!chat) {
		/* a model that refuses a forced tool choice answers it with a 400, as the API does */
		cJSON *fb = cJSON_ParseWithLength(rq->body, rq->body_len);
		const char *tct = str(cJSON_GetObjectItemCaseSensitive(fb, "tool_choice"), "type");
		int refuse = amc_mock_refuses_forced_tools(str(fb, "model")) && tct && strcmp(tct, "auto");
		cJSON_Delete(fb);
		if (refuse) {
			a->forced_refusals++;
			rs->status = 400;
			rs->body = strdup("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":"
					  "\"tool_choice: forced tool use is not supported by this model; use tool_choice auto\"}}");
			return;
		}
	}
	if ((chat ? amc_mock_check_chat(rq, why, sizeof why) : amc_mock_check_request(rq, why, sizeof why)) != 0) {
		violation(a, rs, why);
		return;
	}
	cJSON *body = cJSON_ParseWithLength(rq->body, rq->body_len);
	/* enrichment: Anthropic structured output, or a chat json_schema named semantic_scene */
	const char *rfn = str(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(body, "response_format"), "json_schema"), "name");
	int semantic = cJSON_GetObjectItemCaseSensitive(body, "output_config") || (chat && rfn && !strcmp(rfn, "semantic_scene"));
	if (chat && chat_has_image(body)) {
		a->image_requests++;
		if (a->text_only) {
			/* exactly what llama.cpp's server says when it has no --mmproj */
			rs->status = 500;
			rs->body = strdup("{\"error\":{\"code\":500,\"message\":\"image input is not supported - hint: if this "
					  "is unexpected, you may need to provide the mmproj\",\"type\":\"server_error\"}}");
			cJSON_Delete(body);
			return;
		}
	}
	if (a->expect[0] && !semantic) {
		const char *tr = last_tool_result(body);
		if (!tr || !strstr(tr, a->expect)) {
			snprintf(why, sizeof why, "expected a tool_result containing '%s', got '%.200s'", a->expect, tr ? tr : "(none)");
			a->expect[0] = 0;
			violation(a, rs, why);
			cJSON_Delete(body);
			return;
		}
		a->expect[0] = 0;
	}
	if (semantic) {
		/* an enrichment call: a SemanticScene naming the first element and an invented one */
		a->semantic_calls++;
		cJSON *msgs = cJSON_GetObjectItemCaseSensitive(body, "messages");
		const cJSON *um = cJSON_GetArrayItem(msgs, cJSON_GetArraySize(msgs) - 1); /* the user message */
		const char *t = chat ? str(um, "content") : str(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(um, "content"), 0), "text");
		const char *sp = t ? strstr(t, "Scene:") : NULL;
		cJSON *sc = sp ? cJSON_Parse(strchr(sp, '{')) : NULL;
		const char *first = str(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sc, "elements"), 0), "id");
		char js[512];
		snprintf(js, sizeof js, "{\"page\":\"mock page\",\"intents\":[\"look\"],\"widgets\":[{\"element_id\":\"%s\","
			 "\"purpose\":\"the first element\"},{\"element_id\":\"e_invented\",\"purpose\":\"x\"}]}", first ? first : "none");
		cJSON_Delete(sc);
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "type", "message");
		cJSON_AddStringToObject(r, "role", "assistant");
		cJSON *tb = cJSON_CreateObject();
		cJSON_AddStringToObject(tb, "type", "text");
		cJSON_AddStringToObject(tb, "text", js);
		cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "content"), tb);
		cJSON_AddStringToObject(r, "stop_reason", "end_turn");
		cJSON *u = cJSON_AddObjectToObject(r, "usage");
		cJSON_AddNumberToObject(u, "input_tokens", 300);
		cJSON_AddNumberToObject(u, "output_tokens", 50);
		rs->body = cJSON_PrintUnformatted(r);
		cJSON_Delete(r);
		cJSON_Delete(body);
		if (chat)
			to_chat(rs);
		return;
	}
	rs->delay_ms = a->slow_ms;
	a->slow_ms = 0;
	for (;;) {
		const char *l = a->pos < a->n ? a->lines[a->pos] : "finish false script exhausted";
		a->pos++;
		char cmd[32] = "", rest[1024] = "";
		sscanf(l, "%31s %1023[^\n]", cmd, rest);
		cJSON *in = cJSON_CreateObject();
		cJSON *tu = NULL;
		if (!strcmp(cmd, "reason")) {
			snprintf(a->reason, sizeof a->reason, "%s", rest);
			cJSON_Delete(in);
			continue;
		} else if (!strcmp(cmd, "expect")) {
			snprintf(a->expect, sizeof a->expect, "%s", rest);
			cJSON_Delete(in);
			continue;
		} else if (!strcmp(cmd, "usage")) {
			sscanf(rest, "%ld %ld", &a->in_tokens, &a->out_tokens);
			cJSON_Delete(in);
			continue;
		} else if (!strcmp(cmd, "slow")) {
			rs->delay_ms = atol(rest);
			cJSON_Delete(in);
			continue;
		} else if (!strcmp(cmd, "http")) {
			int st = 500, ra = -1;
			char extra[32] = "";
			sscanf(rest, "%d %d %31s", &st, &ra, extra);
			rs->status = st;
			if (ra >= 0)
				snprintf(rs->headers, sizeof rs->headers, "retry-after: %d\r\n", ra);
			const char *type = st == 529 ? "overloaded_error" : st == 429 ? "rate_limit_error" : "api_error";
			char b[512];
			snprintf(b, sizeof b, "{\"type\":\"error\",\"error\":{\"type\":\"%s\",\"message\":\"scripted %d\"%s}}", type, st,
				 !strcmp(extra, "spend") ? ",\"details\":{\"error_code\":\"enforced_spend_limit_reached\"}" : "");
			rs->body = strdup(b);
			cJSON_Delete(in);
			break;
		} else if (!strcmp(cmd, "cut") || !strcmp(cmd, "drop")) {
			/* The connection ends mid-body (cut) or before any answer (drop). */
			rs->body = reply(a, "end_turn", NULL);
			if (!strcmp(cmd, "cut"))
				rs->cut = 1;
			else
				rs->drop = 1;
			cJSON_Delete(in);
			break;
		} else if (!strcmp(cmd, "malformed")) {
			rs->body = strdup("{\"type\":\"message\",\"content\":[{\"type\":");
			cJSON_Delete(in);
			break;
		} else if (!strcmp(cmd, "stop")) {
			cJSON_Delete(in);
			rs->body = reply(a, rest, NULL);
			break;
		} else if (!strcmp(cmd, "launch")) {
			cJSON_AddStringToObject(in, "app_id", rest);
			tu = use(a, "launch_app", in);
		} else if (!strcmp(cmd, "tap")) {
			cJSON *sc = last_scene(body), *el;
			const char *id = NULL;
			cJSON_ArrayForEach(el, cJSON_GetObjectItemCaseSensitive(sc, "elements")) {
				if (str(el, "text") && !strcmp(str(el, "text"), rest)) {
					id = str(el, "id");
					break;
				}
			}
			cJSON_AddStringToObject(in, "element_id", id ? id : "e_not_on_screen");
			cJSON_Delete(sc);
			tu = use(a, "tap", in);
		} else if (!strcmp(cmd, "tap_id")) {
			cJSON_AddStringToObject(in, "element_id", rest);
			tu = use(a, "tap", in);
		} else if (!strcmp(cmd, "tap_xy")) {
			int x = 0, y = 0;
			sscanf(rest, "%d %d", &x, &y);
			cJSON_AddNumberToObject(in, "x", x);
			cJSON_AddNumberToObject(in, "y", y);
			tu = use(a, "tap", in);
		} else if (!strcmp(cmd, "type")) {
			cJSON_AddStringToObject(in, "text", rest);
			tu = use(a, "type_text", in);
		} else if (!strcmp(cmd, "key")) {
			cJSON_AddStringToObject(in, "key", rest);
			tu = use(a, "press_key", in);
		} else if (!strcmp(cmd, "wait")) {
			cJSON_AddNumberToObject(in, "ms", atoi(rest));
			tu = use(a, "wait", in);
		} else if (!strcmp(cmd, "ask")) {
			cJSON_AddStringToObject(in, "question", rest);
			tu = use(a, "ask_user", in);
		} else if (!strcmp(cmd, "finish")) {
			int ok = !strncmp(rest, "true", 4);
			const char *sum = strchr(rest, ' ');
			cJSON_AddBoolToObject(in, "success", ok);
			cJSON_AddStringToObject(in, "summary", sum ? sum + 1 : "");
			tu = use(a, "finish", in);
		} else if (!strcmp(cmd, "verdict")) {
			/* an AI command of a flow: assertWithAI */
			cJSON_AddBoolToObject(in, "passed", !strncmp(rest, "true", 4));
			tu = use(a, "report_assertion", in);
		} else if (!strcmp(cmd, "defects")) {
			/* assertNoDefectsWithAI: "defects none" or "defects CATEGORY WHAT" */
			cJSON *d = cJSON_AddArrayToObject(in, "defects");
			if (strcmp(rest, "none")) {
				char cat[64] = "";
				sscanf(rest, "%63s", cat);
				cJSON *o = cJSON_CreateObject();
				cJSON_AddStringToObject(o, "category", cat);
				cJSON_AddStringToObject(o, "reasoning", rest + strlen(cat) + (rest[strlen(cat)] ? 1 : 0));
				cJSON_AddItemToArray(d, o);
			}
			tu = use(a, "report_defects", in);
		} else if (!strcmp(cmd, "extract")) {
			/* extractTextWithAI */
			cJSON_AddStringToObject(in, "text", rest);
			tu = use(a, "report_text", in);
		} else if (!strcmp(cmd, "tool")) {
			/* tool NAME {ARGS}: any other registry action (list_apps, clear_app) */
			char name[64] = "";
			sscanf(rest, "%63s", name);
			cJSON *args = cJSON_Parse(rest + strlen(name)), *it;
			cJSON_ArrayForEach(it, args) cJSON_AddItemToObject(in, it->string, cJSON_Duplicate(it, 1));
			cJSON_Delete(args);
			tu = use(a, name, in);
		} else if (!strcmp(cmd, "answer")) {
			/* finish with an information task's answer */
			cJSON_AddBoolToObject(in, "success", 1);
			cJSON_AddStringToObject(in, "summary", "answered the question");
			cJSON_AddStringToObject(in, "answer", rest);
			tu = use(a, "finish", in);
		} else {
			cJSON_Delete(in);
			snprintf(why, sizeof why, "bad script line '%s'", l);
			violation(a, rs, why);
			break;
		}
		rs->body = reply(a, "tool_use", tu);
		break;
	}
	cJSON_Delete(body);
	if (chat && (!rs->status || rs->status == 200))
		to_chat(rs);
}
