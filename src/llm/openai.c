#include "llm/openai.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonutil.h"
#include "util/strbuf.h"

int amc_openai_new(amc_openai **out, amc_err *e)
{
	*out = NULL;
	const char *base = getenv("AMC_OPENAI_BASE_URL");
	if (!base || !*base)
		return amc_err_set(e, AMC_EENV, "no OpenAI-compatible server: set AMC_OPENAI_BASE_URL "
				   "(e.g. http://127.0.0.1:8080/v1 for llama.cpp, http://127.0.0.1:11434/v1 for Ollama)");
	if (strncmp(base, "https://", 8) && strncmp(base, "http://", 7))
		return amc_err_set(e, AMC_EUSAGE, "AMC_OPENAI_BASE_URL must start with http:// or https://");
	amc_openai *c = amc_xcalloc(1, sizeof *c);
	if (amc_llm_base_url("AMC_OPENAI_BASE_URL", base, c->base_url, sizeof c->base_url - 32, e) != 0) {
		free(c);
		return -1;
	}
	const char *k = getenv("OPENAI_API_KEY");
	c->key = k && *k ? amc_xstrdup(k) : NULL;
	*out = c;
	return 0;
}

void amc_openai_free(amc_openai *c)
{
	if (!c)
		return;
	amc_llm_key_free(c->key);
	free(c);
}

cJSON *amc_openai_json_schema_format(const char *name, cJSON *schema)
{
	cJSON *f = cJSON_CreateObject();
	cJSON_AddStringToObject(f, "type", "json_schema");
	cJSON *js = cJSON_AddObjectToObject(f, "json_schema");
	cJSON_AddStringToObject(js, "name", name);
	cJSON_AddItemToObject(js, "schema", schema);
	cJSON_AddBoolToObject(js, "strict", 1);
	return f;
}

static int call(amc_openai *c, const char *path, const char *body, long long deadline, amc_http_resp *rs, amc_err *e)
{
	/* url: base_url (under 480, amc_openai_new) and an API path; auth: a key over
	 * ~1 KiB is refused as implausible (keys are under 200 characters). */
	char url[600], auth[1100];
	memset(rs, 0, sizeof *rs); /* callers free rs on every path */
	snprintf(url, sizeof url, "%s%s", c->base_url, path);
	const char *headers[4] = { "content-type: application/json", "accept: application/json", NULL, NULL };
	if (c->key) {
		if ((size_t)snprintf(auth, sizeof auth, "authorization: Bearer %s", c->key) >= sizeof auth)
			return amc_err_set(e, AMC_EENV, "OPENAI_API_KEY is implausibly long");
		headers[2] = auth;
	}
	amc_http_req rq = { 0 };
	rq.url = url;
	rq.headers = headers;
	rq.body = body;
	rq.body_len = body ? strlen(body) : 0;
	rq.get = body == NULL;
	rq.connect_timeout_ms = c->connect_timeout_ms;
	rq.attempt_timeout_ms = c->attempt_timeout_ms;
	rq.max_attempts = c->max_attempts;
	rq.deadline_ms = deadline;
	rq.secret = c->key;
	int rc = amc_http_post(&rq, &c->hooks, rs, e);
	memset(auth, 0, sizeof auth);
	if (rc != 0)
		amc_err_prefix(e, "OpenAI-compatible server");
	return rc;
}

int amc_openai_chat(amc_openai *c, const cJSON *request, long long deadline_ms, amc_openai_result *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	amc_llm_usage_unknown(&out->usage);
	if (cJSON_GetObjectItemCaseSensitive(request, "tools") &&
	    cJSON_GetObjectItemCaseSensitive(request, "response_format"))
		return amc_err_set(e, AMC_EUSAGE, "a request carries tools or a json_schema response, never both");
	char *body = cJSON_PrintUnformatted(request);
	amc_http_resp rs;
	int rc = call(c, "/chat/completions", body, deadline_ms, &rs, e);
	free(body);
	out->http_status = rs.status;
	if (rc != 0) {
		amc_http_resp_free(&rs);
		return -1;
	}
	rc = amc_openai_parse(rs.body ? rs.body : "", rs.len, out, e);
	amc_http_resp_free(&rs);
	return rc;
}

int amc_openai_parse(const char *body, size_t len, amc_openai_result *out, amc_err *e)
{
	cJSON *msg = cJSON_ParseWithLength(body, len);
	const cJSON *ch = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(msg, "choices"), 0);
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(ch, "message");
	if (!cJSON_IsObject(m)) {
		cJSON_Delete(msg);
		return amc_err_set(e, AMC_EFAIL, "OpenAI-compatible server: malformed response (no choices[0].message)");
	}
	out->msg = msg;
	out->content = amc_json_str(m, "content");
	const char *fr = amc_json_str(ch, "finish_reason");
	snprintf(out->finish_reason, sizeof out->finish_reason, "%s", fr ? fr : "");
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(msg, "usage");
	const cJSON *pt = cJSON_GetObjectItemCaseSensitive(u, "prompt_tokens");
	const cJSON *ct = cJSON_GetObjectItemCaseSensitive(u, "completion_tokens");
	if (cJSON_IsNumber(pt))
		out->usage.input_tokens = (long long)pt->valuedouble;
	if (cJSON_IsNumber(ct))
		out->usage.output_tokens = (long long)ct->valuedouble;
	return 0;
}

void amc_openai_result_free(amc_openai_result *r)
{
	if (!r)
		return;
	cJSON_Delete(r->msg);
	memset(r, 0, sizeof *r);
}

int amc_openai_models(amc_openai *c, cJSON **ids, amc_err *e)
{
	*ids = NULL;
	amc_http_resp rs;
	if (call(c, "/models", NULL, 0, &rs, e) != 0) {
		amc_http_resp_free(&rs);
		return -1;
	}
	int rc = amc_llm_model_ids(rs.body, rs.len, "OpenAI-compatible server: /models", ids, e);
	amc_http_resp_free(&rs);
	return rc;
}

/* ---- the amc_llm_client implementation ----------------------------------- */

/* The answer schema for servers without strict tools: one object per tool
 * (its input schema plus "tool": the tool's name), anyOf. */
static cJSON *action_schema(const cJSON *tools)
{
	cJSON *any = cJSON_CreateArray();
	const cJSON *t;
	cJSON_ArrayForEach(t, tools) {
		cJSON *s = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(t, "input_schema"), 1);
		cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
		cJSON *tp = cJSON_CreateObject();
		cJSON_AddStringToObject(tp, "type", "string");
		cJSON *en = cJSON_AddArrayToObject(tp, "enum");
		cJSON_AddItemToArray(en, cJSON_CreateString(amc_json_str(t, "name")));
		cJSON_AddStringToObject(tp, "description", amc_json_str(t, "description"));
		cJSON_AddItemToObject(props, "tool", tp);
		cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(s, "required"), cJSON_CreateString("tool"));
		cJSON_AddItemToArray(any, s);
	}
	cJSON *root = cJSON_CreateObject();
	cJSON_AddItemToObject(root, "anyOf", any);
	return root;
}

/* Did a local server turn the request down because of its screenshot? Servers
 * with a text-only model say so in words: llama.cpp without --mmproj answers
 * 500 "image input is not supported - hint: ... mmproj", vLLM 400 "... is not a
 * multimodal model", others "does not support image input" or "image_url is
 * only supported by certain models". Rate limits and auth errors are not this. */
static int image_refused(long status, const char *msg)
{
	if (status < 400 || status == 401 || status == 403 || status == 408 || status == 409 || status == 429 ||
	    status == 529)
		return 0;
	static const char *const words[] = { "image", "vision", "multimodal", "multi-modal", "mmproj", "modality", NULL };
	char low[AMC_ERR_MSG_MAX];
	size_t i = 0;
	for (; msg && msg[i] && i + 1 < sizeof low; i++)
		low[i] = (char)tolower((unsigned char)msg[i]);
	low[i] = 0;
	for (int k = 0; words[k]; k++)
		if (strstr(low, words[k]))
			return 1;
	return 0;
}

/* The user turn for chat completions: plain text, or text plus the screenshot
 * as an image_url data URI (the form llama.cpp, Ollama and vLLM all read). */
static cJSON *user_content(const char *text, const char *b64)
{
	if (!b64)
		return cJSON_CreateString(text);
	cJSON *parts = cJSON_CreateArray();
	cJSON_AddItemToArray(parts, amc_llm_text_block(text));
	cJSON *ib = cJSON_CreateObject();
	cJSON_AddStringToObject(ib, "type", "image_url");
	amc_sb url;
	amc_sb_init(&url);
	amc_sb_puts(&url, "data:image/png;base64,");
	amc_sb_puts(&url, b64);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(ib, "image_url"), "url", amc_sb_str(&url));
	amc_sb_free(&url);
	cJSON_AddItemToArray(parts, ib);
	return parts;
}

/* A chat request: model, max_tokens, system + user messages and a json_schema
 * answer; *user is the user message (for a second try without the image). */
static cJSON *chat_request(const char *model, int max_tokens, const char *system, cJSON *user_content_,
			   cJSON *format, cJSON **user)
{
	cJSON *req = cJSON_CreateObject();
	cJSON_AddStringToObject(req, "model", model);
	cJSON_AddNumberToObject(req, "max_tokens", max_tokens);
	cJSON *msgs = cJSON_AddArrayToObject(req, "messages");
	cJSON_AddItemToArray(msgs, amc_llm_message("system", cJSON_CreateString(system)));
	*user = amc_llm_message("user", user_content_);
	cJSON_AddItemToArray(msgs, *user);
	cJSON_AddItemToObject(req, "response_format", format);
	return req;
}

void amc_openai_read_call(const amc_openai_result *r, const cJSON *tools, amc_llm_turn_res *res)
{
	res->usage = r->usage;
	snprintf(res->stop_reason, sizeof res->stop_reason, "%s", r->finish_reason);
	res->stop = !strcmp(r->finish_reason, "length") ? AMC_LLM_STOP_MAX_TOKENS : AMC_LLM_STOP_OK;
	cJSON *in = r->content ? cJSON_Parse(r->content) : NULL;
	const char *name = amc_json_str(in, "tool");
	if (res->stop != AMC_LLM_STOP_OK) {
		/* cut off: no call to read */
	} else if (!cJSON_IsObject(in) || !name) {
		snprintf(res->no_call, sizeof res->no_call, "the model's answer is not a JSON action (finish_reason %.32s)",
			 r->finish_reason);
	} else if (amc_llm_tool_index(tools, name) < 0) {
		char *nb = amc_llm_bounded(name, 40);
		snprintf(res->no_call, sizeof res->no_call, "the model chose an unknown tool '%s'", nb);
		free(nb);
	} else {
		snprintf(res->tool, sizeof res->tool, "%s", name);
		cJSON_DeleteItemFromObjectCaseSensitive(in, "tool");
		res->input = in;
		in = NULL;
	}
	cJSON_Delete(in);
}

/* One turn as one chat completion: the tools are listed in the system text and
 * the answer is constrained to {"tool", "reason", ...args} by the json_schema
 * (local servers have no strict tools); the whole turn goes as one user message. */
static int oa_turn(amc_llm_client *lc, const amc_llm_turn_req *rq, amc_llm_turn_res *res, amc_err *e)
{
	amc_openai *c = lc->impl;
	amc_sb sys;
	amc_sb_init(&sys);
	amc_sb_printf(&sys, "%s\nAnswer with one JSON object: \"tool\" (one of the tools below), \"reason\", and the "
		      "tool's arguments.\nTools:\n", rq->system);
	const cJSON *t;
	cJSON_ArrayForEach(t, rq->tools) {
		amc_sb_printf(&sys, "- %s: %s\n", amc_json_str(t, "name"), amc_json_str(t, "description"));
	}
	cJSON *m;
	cJSON *req = chat_request(rq->model, rq->max_tokens, amc_sb_str(&sys), user_content(rq->transcript, rq->image_png_b64),
				  amc_openai_json_schema_format("amc_action", action_schema(rq->tools)), &m);
	res->system = amc_sb_detach(&sys);
	res->detail = cJSON_CreateObject();
	cJSON_AddStringToObject(res->detail, "provider", "openai-compatible");

	long long deadline = amc_http_deadline(&c->hooks, rq->timeout_ms);
	amc_openai_result r;
	int rc = amc_openai_chat(c, req, deadline, &r, e);
	if (rc != 0 && rq->image_png_b64 && image_refused(r.http_status, e->msg)) {
		if (!rq->image_optional) {
			res->image_refused = 1;
			char why[AMC_ERR_MSG_MAX];
			snprintf(why, sizeof why, "%s", e->msg);
			amc_err_set(e, AMC_EFAIL, "%.*s; the server does not take screenshots: serve a vision model "
				    "(llama.cpp: --mmproj)", AMC_ERR_MSG_MAX - 140, why);
		} else {
			/* once refused, the caller plans from the text alone */
			snprintf(res->image_dropped, sizeof res->image_dropped, "%s", e->msg);
			cJSON_AddStringToObject(res->detail, "screenshot_refused", res->image_dropped);
			amc_sb u;
			amc_sb_init(&u);
			amc_sb_printf(&u, "%s\n(No screenshot after all: this server takes text only.)", rq->transcript);
			cJSON_ReplaceItemInObjectCaseSensitive(m, "content", cJSON_CreateString(amc_sb_str(&u)));
			amc_sb_free(&u);
			amc_err_clear(e);
			rc = amc_openai_chat(c, req, deadline, &r, e);
		}
	}
	cJSON_Delete(req);
	if (rc != 0)
		return -1;
	res->answered = 1;
	cJSON_AddStringToObject(res->detail, "finish_reason", r.finish_reason);
	amc_openai_read_call(&r, rq->tools, res);
	amc_openai_result_free(&r);
	return 0;
}

/* Structured output: system + user messages, the nested response_format
 * json_schema (local servers honour only that form), no tools and no sampling
 * parameters. */
static int oa_structured(amc_llm_client *lc, const amc_llm_struct_req *rq, amc_llm_struct_res *res, amc_err *e)
{
	amc_openai *c = lc->impl;
	cJSON *m;
	cJSON *req = chat_request(rq->model, rq->max_tokens, rq->system, cJSON_CreateString(rq->user),
				  amc_openai_json_schema_format(rq->schema_name, cJSON_Duplicate(rq->schema, 1)), &m);
	amc_openai_result r;
	int rc = amc_openai_chat(c, req, amc_http_deadline(&c->hooks, rq->timeout_ms), &r, e);
	cJSON_Delete(req);
	if (rc != 0)
		return -1;
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r.msg, "choices"), 0), "message");
	res->stop = amc_json_str(msg, "refusal") ? AMC_LLM_STOP_REFUSAL
		    : !strcmp(r.finish_reason, "length") ? AMC_LLM_STOP_MAX_TOKENS : AMC_LLM_STOP_OK;
	res->usage = r.usage;
	res->text = r.content ? amc_xstrdup(r.content) : NULL;
	amc_openai_result_free(&r);
	return 0;
}

static int oa_models(amc_llm_client *lc, cJSON **ids, amc_err *e)
{
	return amc_openai_models(lc->impl, ids, e);
}

static void oa_limit(amc_llm_client *lc, int max_attempts, long attempt_timeout_ms, long connect_timeout_ms)
{
	amc_openai *c = lc->impl;
	c->max_attempts = max_attempts;
	c->attempt_timeout_ms = attempt_timeout_ms;
	c->connect_timeout_ms = connect_timeout_ms;
}

static void oa_destroy(amc_llm_client *lc)
{
	amc_openai_free(lc->impl);
}

static const amc_llm_client_ops OPENAI_OPS = { "openai", oa_turn, oa_structured, oa_models, oa_limit, oa_destroy };

amc_llm_client *amc_openai_client(amc_openai *c)
{
	return amc_llm_client_new(&OPENAI_OPS, c);
}
