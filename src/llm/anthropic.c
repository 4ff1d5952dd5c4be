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
	size_t l = strlen(base);
	while (l && base[l - 1] == '/')
		l--;
	if (l >= sizeof c->base_url - 16) {
		amc_anthropic_free(c);
		return amc_err_set(e, AMC_EUSAGE, "ANTHROPIC_BASE_URL is too long");
	}
	memcpy(c->base_url, base, l);
	c->base_url[l] = 0;
	*out = c;
	return 0;
}

void amc_anthropic_free(amc_anthropic *c)
{
	if (!c)
		return;
	if (c->key) {
		memset(c->key, 0, strlen(c->key));
		free(c->key);
	}
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
	cJSON *msg = cJSON_ParseWithLength(rs.body ? rs.body : "", rs.len);
	amc_http_resp_free(&rs);
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
