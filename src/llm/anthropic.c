#include "llm/anthropic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

int amc_anthropic_new(const char *key_file, amc_anthropic **out, amc_err *e)
{
	*out = NULL;
	char *key = amc_llm_read_key("ANTHROPIC_API_KEY", key_file,
				     "set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=sk-ant-...) "
				     "or name a 0600 key file in llm.anthropic_key_file", e);
	if (!key)
		return -1;
	amc_anthropic *c = amc_xcalloc(1, sizeof *c);
	c->key = key;
	const char *base = getenv("ANTHROPIC_BASE_URL");
	if (!base || !*base)
		base = AMC_ANTHROPIC_DEFAULT_URL;
	if (strncmp(base, "https://", 8) && strncmp(base, "http://", 7)) {
		amc_anthropic_free(c);
		return amc_err_set(e, AMC_EUSAGE, "ANTHROPIC_BASE_URL must start with https:// or http://");
	}
	if (amc_llm_base_url("ANTHROPIC_BASE_URL", base, c->base_url, sizeof c->base_url - 16, e) != 0) {
		amc_anthropic_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

void amc_anthropic_free(amc_anthropic *c)
{
	if (!c)
		return;
	amc_llm_key_free(c->key);
	free(c);
}

static long long num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) && v->valuedouble >= 0 ? (long long)v->valuedouble : -1;
}

void amc_anthropic_usage(const cJSON *msg, amc_llm_usage *u)
{
	amc_llm_usage_unknown(u);
	const cJSON *us = cJSON_GetObjectItemCaseSensitive(msg, "usage");
	if (!cJSON_IsObject(us))
		return;
	u->input_tokens = num(us, "input_tokens");
	u->output_tokens = num(us, "output_tokens");
	u->cache_creation_input_tokens = num(us, "cache_creation_input_tokens");
	u->cache_read_input_tokens = num(us, "cache_read_input_tokens");
}

int amc_anthropic_messages(amc_anthropic *c, const cJSON *request, long long deadline_ms,
			   amc_anthropic_result *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	amc_llm_usage_unknown(&out->usage);
	/* url: base_url (under 496, amc_anthropic_new) and an API path; keyh: a key over
	 * ~1 KiB is refused as implausible (keys are under 200 characters). */
	char url[600], keyh[1024];
	snprintf(url, sizeof url, "%s/v1/messages", c->base_url);
	if ((size_t)snprintf(keyh, sizeof keyh, "x-api-key: %s", c->key) >= sizeof keyh)
		return amc_err_set(e, AMC_EENV, "the API key is implausibly long");
	const char *headers[] = { keyh, "anthropic-version: " AMC_ANTHROPIC_VERSION,
				  "content-type: application/json", "accept: application/json", NULL };
	char *body = cJSON_PrintUnformatted(request);
	amc_http_req rq = { 0 };
	rq.url = url;
	rq.headers = headers;
	rq.body = body;
	rq.body_len = strlen(body);
	rq.connect_timeout_ms = c->connect_timeout_ms;
	rq.attempt_timeout_ms = c->attempt_timeout_ms;
	rq.max_attempts = c->max_attempts;
	rq.deadline_ms = deadline_ms;
	rq.secret = c->key;
	amc_http_resp rs;
	int rc = amc_http_post(&rq, &c->hooks, &rs, e);
	memset(keyh, 0, sizeof keyh);
	free(body);
	out->attempts = rs.attempts;
	snprintf(out->request_id, sizeof out->request_id, "%s", rs.request_id);
	out->http_status = rs.status;
	if (rc != 0) {
		amc_err_prefix(e, "Anthropic API");
		amc_http_resp_free(&rs);
		return -1;
	}
	rc = amc_anthropic_parse(rs.body ? rs.body : "", rs.len, out, e);
	amc_http_resp_free(&rs);
	return rc;
}

int amc_anthropic_parse(const char *body, size_t len, amc_anthropic_result *out, amc_err *e)
{
	cJSON *msg = cJSON_ParseWithLength(body, len);
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(msg, "content");
	const char *type = amc_json_str(msg, "type");
	if (!cJSON_IsObject(msg) || !type || strcmp(type, "message") || !cJSON_IsArray(content)) {
		cJSON_Delete(msg);
		return amc_err_set(e, AMC_EFAIL, "Anthropic API: malformed response (not a message with a content array)");
	}
	out->msg = msg;
	out->content = content;
	const char *sr = amc_json_str(msg, "stop_reason");
	snprintf(out->stop_reason, sizeof out->stop_reason, "%s", sr ? sr : "");
	const char *model = amc_json_str(msg, "model");
	snprintf(out->model, sizeof out->model, "%s", model ? model : "");
	amc_anthropic_usage(msg, &out->usage);
	return 0;
}

void amc_anthropic_result_free(amc_anthropic_result *r)
{
	if (!r)
		return;
	cJSON_Delete(r->msg);
	memset(r, 0, sizeof *r);
	amc_llm_usage_unknown(&r->usage);
}

int amc_anthropic_models(amc_anthropic *c, cJSON **ids, amc_err *e)
{
	*ids = NULL;
	/* url: base_url (under 496, amc_anthropic_new) and an API path; keyh: a key over
	 * ~1 KiB is refused as implausible (keys are under 200 characters). */
	char url[600], keyh[1024];
	snprintf(url, sizeof url, "%s/v1/models?limit=100", c->base_url);
	if ((size_t)snprintf(keyh, sizeof keyh, "x-api-key: %s", c->key) >= sizeof keyh)
		return amc_err_set(e, AMC_EENV, "the API key is implausibly long");
	const char *headers[] = { keyh, "anthropic-version: " AMC_ANTHROPIC_VERSION, "accept: application/json", NULL };
	amc_http_req rq = { 0 };
	rq.url = url;
	rq.headers = headers;
	rq.get = 1;
	rq.connect_timeout_ms = c->connect_timeout_ms;
	rq.attempt_timeout_ms = c->attempt_timeout_ms > 0 ? c->attempt_timeout_ms : 20000;
	rq.max_attempts = c->max_attempts;
	rq.secret = c->key;
	amc_http_resp rs;
	int rc = amc_http_post(&rq, &c->hooks, &rs, e);
	memset(keyh, 0, sizeof keyh);
	if (rc != 0) {
		amc_http_resp_free(&rs);
		return amc_err_prefix(e, "Anthropic API");
	}
	rc = amc_llm_model_ids(rs.body, rs.len, "Anthropic API: /v1/models", ids, e);
	amc_http_resp_free(&rs);
	return rc;
}

/* ---- the amc_llm_client implementation ----------------------------------- */

/* model, max_tokens and the fixed system prefix, marked for prompt caching. */
static cJSON *request_head(const char *model, int max_tokens, const char *system)
{
	cJSON *req = cJSON_CreateObject();
	cJSON_AddStringToObject(req, "model", model);
	cJSON_AddNumberToObject(req, "max_tokens", max_tokens);
	cJSON *sys = cJSON_AddArrayToObject(req, "system");
	cJSON *sb = amc_llm_text_block(system);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(sb, "cache_control"), "type", "ephemeral");
	cJSON_AddItemToArray(sys, sb);
	return req;
}

static cJSON *image_block(const char *b64)
{
	cJSON *blk = cJSON_CreateObject();
	cJSON_AddStringToObject(blk, "type", "image");
	cJSON *src = cJSON_AddObjectToObject(blk, "source");
	cJSON_AddStringToObject(src, "type", "base64");
	cJSON_AddStringToObject(src, "media_type", "image/png");
	cJSON_AddStringToObject(src, "data", b64);
	return blk;
}

/* The conversation: the first user turn alone, or with the previous tool call
 * and its tool_result so the model sees what its last action did. Only the
 * last exchange is sent verbatim; older steps are in the intro's history. */
static cJSON *turn_messages(const amc_llm_turn_req *rq)
{
	cJSON *msgs = cJSON_CreateArray();
	cJSON *c1 = cJSON_CreateArray();
	cJSON_AddItemToArray(c1, amc_llm_text_block(rq->intro));
	cJSON *last = c1;
	if (rq->prev_call) {
		cJSON_AddItemToArray(msgs, amc_llm_message("user", c1));
		cJSON_AddItemToArray(msgs, amc_llm_message("assistant",
			cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(rq->prev_call, "content"), 1)));
		last = cJSON_CreateArray();
		cJSON *tr = cJSON_CreateObject();
		cJSON_AddStringToObject(tr, "type", "tool_result");
		const char *id = amc_json_str(rq->prev_call, "id");
		cJSON_AddStringToObject(tr, "tool_use_id", id ? id : "");
		cJSON *trc = cJSON_AddArrayToObject(tr, "content");
		cJSON_AddItemToArray(trc, amc_llm_text_block(rq->prev_result ? rq->prev_result : ""));
		if (rq->prev_failed)
			cJSON_AddBoolToObject(tr, "is_error", 1);
		cJSON_AddItemToArray(last, tr);
	}
	cJSON_AddItemToArray(last, amc_llm_text_block(rq->now));
	if (rq->image_png_b64)
		cJSON_AddItemToArray(last, image_block(rq->image_png_b64));
	cJSON_AddItemToArray(msgs, amc_llm_message("user", last));
	return msgs;
}

void amc_anthropic_read_call(const amc_anthropic_result *r, const cJSON *tools, int tool_auto, amc_llm_turn_res *res)
{
	const cJSON *use = NULL, *b;
	cJSON_ArrayForEach(b, r->content) {
		const char *t = amc_json_str(b, "type");
		if (t && !strcmp(t, "tool_use")) {
			use = b;
			break;
		}
	}
	const char *name = use ? amc_json_str(use, "name") : NULL;
	const char *id = use ? amc_json_str(use, "id") : NULL;
	const cJSON *in = use ? cJSON_GetObjectItemCaseSensitive(use, "input") : NULL;
	if (!use || !id || !name || !cJSON_IsObject(in)) {
		snprintf(res->no_call, sizeof res->no_call, "the model answered without a tool call (stop_reason %.32s%s)",
			 r->stop_reason, tool_auto ? "; it refuses a forced tool choice, so amc can only ask for one" : "");
		return;
	}
	if (amc_llm_tool_index(tools, name) < 0) {
		char *nb = amc_llm_bounded(name, 40);
		snprintf(res->no_call, sizeof res->no_call, "the model called an unknown tool '%s'", nb);
		free(nb);
		return;
	}
	snprintf(res->tool, sizeof res->tool, "%s", name);
	res->input = cJSON_Duplicate(in, 1);
	res->call = cJSON_CreateObject();
	cJSON_AddStringToObject(res->call, "id", id);
	cJSON_AddItemToObject(res->call, "content", cJSON_Duplicate(r->content, 1));
}

static amc_llm_stop stop_of(const char *stop_reason)
{
	if (!strcmp(stop_reason, "refusal"))
		return AMC_LLM_STOP_REFUSAL;
	if (!strcmp(stop_reason, "max_tokens"))
		return AMC_LLM_STOP_MAX_TOKENS;
	return AMC_LLM_STOP_OK;
}

static int an_turn(amc_llm_client *lc, const amc_llm_turn_req *rq, amc_llm_turn_res *res, amc_err *e)
{
	amc_anthropic *c = lc->impl;
	cJSON *req = request_head(rq->model, rq->max_tokens, rq->system);
	cJSON_AddItemToObject(req, "tools", cJSON_Duplicate(rq->tools, 1));
	cJSON *tc = cJSON_AddObjectToObject(req, "tool_choice");
	cJSON_AddStringToObject(tc, "type", rq->tool_choice_auto ? "auto" : "any");
	cJSON_AddBoolToObject(tc, "disable_parallel_tool_use", 1);
	cJSON_AddItemToObject(req, "messages", turn_messages(rq));
	res->system = amc_xstrdup(rq->system);
	res->detail = cJSON_CreateObject();

	long long deadline = amc_http_deadline(&c->hooks, rq->timeout_ms);
	amc_anthropic_result r;
	int rc = amc_anthropic_messages(c, req, deadline, &r, e);
	int tool_auto = rq->tool_choice_auto;
	if (rc != 0 && !tool_auto && r.http_status == 400 && strstr(e->msg, "tool_choice")) {
		/* Newer models (Claude Sonnet 5.5) answer a forced tool choice with a
		 * 400. Ask again with tool_choice auto; the prompt still demands one
		 * call, and a turn without one fails the step. */
		snprintf(res->forced_refused, sizeof res->forced_refused, "%.290s", e->msg);
		tool_auto = 1;
		cJSON_ReplaceItemInObjectCaseSensitive(tc, "type", cJSON_CreateString("auto"));
		amc_err_clear(e);
		rc = amc_anthropic_messages(c, req, deadline, &r, e);
	}
	cJSON_Delete(req);
	if (rc != 0) {
		cJSON_AddNumberToObject(res->detail, "attempts", r.attempts);
		return -1;
	}
	res->answered = 1;
	res->usage = r.usage;
	snprintf(res->stop_reason, sizeof res->stop_reason, "%s", r.stop_reason);
	res->stop = stop_of(r.stop_reason);
	cJSON_AddStringToObject(res->detail, "stop_reason", r.stop_reason);
	cJSON_AddStringToObject(res->detail, "request_id", r.request_id);
	cJSON_AddNumberToObject(res->detail, "attempts", r.attempts);
	if (r.usage.cache_creation_input_tokens >= 0)
		cJSON_AddNumberToObject(res->detail, "cache_creation_input_tokens", (double)r.usage.cache_creation_input_tokens);
	if (r.usage.cache_read_input_tokens >= 0)
		cJSON_AddNumberToObject(res->detail, "cache_read_input_tokens", (double)r.usage.cache_read_input_tokens);
	if (res->stop == AMC_LLM_STOP_OK)
		amc_anthropic_read_call(&r, rq->tools, tool_auto, res);
	amc_anthropic_result_free(&r);
	return 0;
}

/* Structured output: output_config.format json_schema, cache_control on the
 * fixed system prefix. */
static int an_structured(amc_llm_client *lc, const amc_llm_struct_req *rq, amc_llm_struct_res *res, amc_err *e)
{
	amc_anthropic *c = lc->impl;
	cJSON *req = request_head(rq->model, rq->max_tokens, rq->system);
	cJSON *msgs = cJSON_AddArrayToObject(req, "messages");
	cJSON *content = cJSON_CreateArray();
	cJSON_AddItemToArray(content, amc_llm_text_block(rq->user));
	cJSON_AddItemToArray(msgs, amc_llm_message("user", content));
	cJSON *fmt = cJSON_AddObjectToObject(cJSON_AddObjectToObject(req, "output_config"), "format");
	cJSON_AddStringToObject(fmt, "type", "json_schema");
	cJSON_AddItemToObject(fmt, "schema", cJSON_Duplicate(rq->schema, 1));

	amc_anthropic_result r;
	int rc = amc_anthropic_messages(c, req, amc_http_deadline(&c->hooks, rq->timeout_ms), &r, e);
	cJSON_Delete(req);
	if (rc != 0)
		return -1;
	res->stop = stop_of(r.stop_reason);
	res->usage = r.usage;
	const char *text = amc_json_str(cJSON_GetArrayItem(r.content, 0), "text");
	res->text = text ? amc_xstrdup(text) : NULL;
	amc_anthropic_result_free(&r);
	return 0;
}

static int an_models(amc_llm_client *lc, cJSON **ids, amc_err *e)
{
	return amc_anthropic_models(lc->impl, ids, e);
}

static void an_limit(amc_llm_client *lc, int max_attempts, long attempt_timeout_ms, long connect_timeout_ms)
{
	amc_anthropic *c = lc->impl;
	c->max_attempts = max_attempts;
	c->attempt_timeout_ms = attempt_timeout_ms;
	c->connect_timeout_ms = connect_timeout_ms;
}

static void an_destroy(amc_llm_client *lc)
{
	amc_anthropic_free(lc->impl);
}

static const amc_llm_client_ops ANTHROPIC_OPS = { "anthropic", an_turn, an_structured, an_models, an_limit, an_destroy };

amc_llm_client *amc_anthropic_client(amc_anthropic *c)
{
	return amc_llm_client_new(&ANTHROPIC_OPS, c);
}
