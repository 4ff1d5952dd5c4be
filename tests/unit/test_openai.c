/* test_openai.c - the OpenAI-compatible chat client (llm/openai.c) against the
 * local mock: configuration from the environment, the nested json_schema
 * response_format, what a chat request sends and how its answer is read, the
 * model catalog, and that the key never shows in an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"
#include "../mock/mockhttp.h"
#include "llm/openai.h"


static void test_config(void)
{
	amc_openai *c = NULL;
	amc_err e;
	unsetenv("AMC_OPENAI_BASE_URL");
	unsetenv("OPENAI_API_KEY");
	is_int(amc_openai_new(&c, &e), -1, "no AMC_OPENAI_BASE_URL: fails");
	ok(c == NULL, "and gives no client");
	is_int(e.code, AMC_EENV, "an environment error");
	like(e.msg, "set AMC_OPENAI_BASE_URL", "the message says what to set");
	like(e.msg, "http://127.0.0.1:8080/v1", "with an example URL");
	setenv("AMC_OPENAI_BASE_URL", "", 1);
	is_int(amc_openai_new(&c, &e), -1, "an empty AMC_OPENAI_BASE_URL counts as unset");

	setenv("AMC_OPENAI_BASE_URL", "127.0.0.1:8080/v1", 1);
	is_int(amc_openai_new(&c, &e), -1, "a URL without a scheme is refused");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "AMC_OPENAI_BASE_URL must start with http:// or https://", "naming the variable");

	setenv("AMC_OPENAI_BASE_URL", "https://llm.example.com/v1//", 1);
	is_int(amc_openai_new(&c, &e), 0, "an https URL is accepted");
	is_str(c ? c->base_url : "", "https://llm.example.com/v1", "trailing slashes are dropped");
	ok(c && c->key == NULL, "no OPENAI_API_KEY: no key (local servers need none)");
	amc_openai_free(c);

	setenv("OPENAI_API_KEY", "", 1);
	amc_openai_new(&c, &e);
	ok(c && c->key == NULL, "an empty OPENAI_API_KEY is no key");
	amc_openai_free(c);

	char longurl[700];
	memset(longurl, 'a', sizeof longurl - 1);
	longurl[sizeof longurl - 1] = 0;
	memcpy(longurl, "http://", 7);
	setenv("AMC_OPENAI_BASE_URL", longurl, 1);
	is_int(amc_openai_new(&c, &e), -1, "an overlong URL is refused");
	like(e.msg, "too long", "and the message says so");
	amc_openai_free(NULL); /* harmless */
}

static void test_schema_format(void)
{
	cJSON *schema = cJSON_Parse("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}");
	cJSON *f = amc_openai_json_schema_format("answer", schema);
	const cJSON *js = cJSON_GetObjectItemCaseSensitive(f, "json_schema");
	is_str(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "type")), "json_schema",
	       "response_format type is json_schema");
	is_int(cJSON_GetArraySize(f), 2, "only type and json_schema at the top (the nested form)");
	is_str(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(js, "name")), "answer", "the name is nested");
	ok(cJSON_GetObjectItemCaseSensitive(js, "schema") == schema, "the schema itself is nested (ownership taken)");
	ok(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(js, "strict")), "strict is true");
	cJSON_Delete(f);
}

#define KEY "sk-local-PLANTED-123456"

static void test_chat(amc_openai *c, mock_record *s)
{
	amc_err e;
	amc_openai_result r;
	cJSON *req = cJSON_Parse("{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
	cJSON_AddItemToObject(req, "response_format",
			      amc_openai_json_schema_format("scene", cJSON_Parse("{\"type\":\"object\"}")));

	mock_record_reply(s, 200, "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
		      "\"content\":\"{\\\"page\\\":\\\"x\\\"}\"},\"finish_reason\":\"length\"}],"
		      "\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":7,\"total_tokens\":47}}");
	is_int(amc_openai_chat(c, req, 0, &r, &e), 0, "a chat completion comes back");
	is_str(s->last_method, "POST", "as a POST");
	is_str(s->last_path, "/v1/chat/completions", "to {base}/chat/completions");
	like(s->last_headers, "authorization: Bearer " KEY, "OPENAI_API_KEY as a bearer token");
	like(s->last_headers, "content-type: application/json", "as JSON");
	cJSON *sent = cJSON_Parse(s->last_body);
	ok(sent && cJSON_Compare(sent, req, 1), "the request is sent as given");
	cJSON_Delete(sent);
	is_str(r.content, "{\"page\":\"x\"}", "choices[0].message.content read");
	is_str(r.finish_reason, "length", "finish_reason read");
	is_int(r.usage.input_tokens, 40, "prompt_tokens are the input tokens");
	is_int(r.usage.output_tokens, 7, "completion_tokens are the output tokens");
	ok(r.usage.cache_creation_input_tokens == -1 && r.usage.cache_read_input_tokens == -1,
	   "cache counts stay unknown");
	is_int(r.http_status, 200, "the HTTP status is kept");
	amc_openai_result_free(&r);
	ok(r.msg == NULL && r.content == NULL, "result_free clears the result");

	mock_record_reply(s, 200, "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[]}}]}");
	is_int(amc_openai_chat(c, req, 0, &r, &e), 0, "an answer without usage or content");
	ok(r.usage.input_tokens == -1 && r.usage.output_tokens == -1, "missing usage is unknown (-1), not 0");
	ok(r.content == NULL, "null content is NULL");
	is_str(r.finish_reason, "", "missing finish_reason is empty");
	amc_openai_result_free(&r);

	static const char *const bad[] = {
		"{\"choices\":[]}",
		"{\"choices\":[{\"text\":\"legacy completion\"}]}",
		"{\"object\":\"error\"}",
		"{\"choices\":[{\"message\":",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		mock_record_reply(s, 200, bad[i]);
		int rc = amc_openai_chat(c, req, 0, &r, &e);
		ok(rc == -1 && e.code == AMC_EFAIL && strstr(e.msg, "malformed response") && r.msg == NULL,
		   "malformed 200 #%zu fails as malformed", i + 1);
	}

	/* tools and a json_schema response together never reach the server */
	cJSON_AddItemToObject(req, "tools", cJSON_CreateArray());
	mock_record_reply(s, 200, "{}");
	is_int(amc_openai_chat(c, req, 0, &r, &e), -1, "tools with response_format are refused");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "never both", "the message says why");
	is_int(s->n, 0, "and nothing was sent");
	cJSON_DeleteItemFromObjectCaseSensitive(req, "response_format");
	mock_record_reply(s, 200, "{\"choices\":[{\"message\":{\"content\":\"ok\"},\"finish_reason\":\"tool_calls\"}]}");
	is_int(amc_openai_chat(c, req, 0, &r, &e), 0, "tools alone are fine");
	amc_openai_result_free(&r);

	mock_record_reply(s, 503, "{\"error\":\"loading model\"}");
	c->max_attempts = 2;
	is_int(amc_openai_chat(c, req, 0, &r, &e), -1, "503 fails after the retries");
	is_int(s->n, 2, "max_attempts of the client is honoured");
	like(e.msg, "OpenAI-compatible server: HTTP 503: loading model", "a llama.cpp-style string error is read");
	is_int(r.http_status, 503, "the status is kept on failure");
	ok(r.msg == NULL, "with nothing to free");
	c->max_attempts = 0;

	mock_record_reply(s, 401, "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Incorrect API key " KEY "\"}}");
	is_int(amc_openai_chat(c, req, 0, &r, &e), -1, "401 fails");
	is_int(s->n, 1, "and is not retried");
	like(e.msg, "HTTP 401 invalid_request_error", "the OpenAI-style error object is read");
	ok(!strstr(e.msg, "PLANTED"), "the key echoed by the server is scrubbed");
	cJSON_Delete(req);
}

static void test_models(amc_openai *c, mock_record *s)
{
	amc_err e;
	cJSON *ids = NULL;
	mock_record_reply(s, 200, "{\"object\":\"list\",\"data\":[{\"id\":\"qwen3\"},{\"id\":\"gemma3\"}]}");
	is_int(amc_openai_models(c, &ids, &e), 0, "GET /models");
	is_str(s->last_method, "GET", "with a GET");
	is_str(s->last_path, "/v1/models", "at {base}/models");
	is_int(cJSON_GetArraySize(ids), 2, "two models");
	is_str(cJSON_GetArrayItem(ids, 1)->valuestring, "gemma3", "in the server's order");
	cJSON_Delete(ids);
	mock_record_reply(s, 200, "{\"models\":[{\"name\":\"qwen3\"}]}");
	is_int(amc_openai_models(c, &ids, &e), -1, "a catalog without data fails");
	like(e.msg, "OpenAI-compatible server: /models answered without a data array", "naming the endpoint");
	mock_record_reply(s, 404, "{\"error\":\"not found\"}");
	is_int(amc_openai_models(c, &ids, &e), -1, "404 fails");
	like(e.msg, "HTTP 404", "with the status");
}

static void test_no_key(int port, mock_record *s)
{
	char base[128];
	snprintf(base, sizeof base, "http://127.0.0.1:%d/v1", port);
	setenv("AMC_OPENAI_BASE_URL", base, 1);
	unsetenv("OPENAI_API_KEY");
	amc_openai *c = NULL;
	amc_err e;
	if (amc_openai_new(&c, &e) != 0) {
		ok(0, "client without a key: %s", e.msg);
		return;
	}
	c->hooks = MOCK_FAKE_HOOKS;
	cJSON *ids = NULL;
	mock_record_reply(s, 200, "{\"data\":[]}");
	is_int(amc_openai_models(c, &ids, &e), 0, "a keyless client works");
	ok(!strstr(s->last_headers, "uthorization"), "and sends no authorization header");
	is_int(cJSON_GetArraySize(ids), 0, "an empty catalog is an empty array");
	cJSON_Delete(ids);
	amc_openai_free(c);
}

int main(void)
{
	test_home("openai");
	test_config();
	test_schema_format();

	mock_record s;
	memset(&s, 0, sizeof s);
	mock_server *m = mock_start(0, mock_record_handler, &s);
	if (!m)
		tap_skip_all("cannot listen on 127.0.0.1");
	char base[128];
	snprintf(base, sizeof base, "http://127.0.0.1:%d/v1/", mock_port(m));
	setenv("AMC_OPENAI_BASE_URL", base, 1);
	setenv("OPENAI_API_KEY", KEY, 1);
	amc_openai *c = NULL;
	amc_err e;
	if (amc_openai_new(&c, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	c->hooks = MOCK_FAKE_HOOKS;
	test_chat(c, &s);
	test_models(c, &s);
	amc_openai_free(c);
	test_no_key(mock_port(m), &s);
	mock_stop(m);
	return done_testing();
}
