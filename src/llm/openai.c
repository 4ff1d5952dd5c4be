#include "llm/openai.h"

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
	size_t l = strlen(base);
	while (l && base[l - 1] == '/')
		l--;
	amc_openai *c = amc_xcalloc(1, sizeof *c);
	if (l >= sizeof c->base_url - 32) {
		free(c);
		return amc_err_set(e, AMC_EUSAGE, "AMC_OPENAI_BASE_URL is too long");
	}
	memcpy(c->base_url, base, l);
	const char *k = getenv("OPENAI_API_KEY");
	c->key = k && *k ? amc_xstrdup(k) : NULL;
	*out = c;
	return 0;
}

void amc_openai_free(amc_openai *c)
{
	if (!c)
		return;
	if (c->key) {
		memset(c->key, 0, strlen(c->key));
		free(c->key);
	}
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
	cJSON *msg = cJSON_ParseWithLength(rs.body ? rs.body : "", rs.len);
	amc_http_resp_free(&rs);
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
