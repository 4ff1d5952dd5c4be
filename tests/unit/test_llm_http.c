/* The HTTP layer and the Anthropic client against a local mock: every retry
 * rule and failure mode, with an injected clock so nothing sleeps for real. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "../mock/mockhttp.h"
#include "llm/anthropic.h"
#include "llm/http.h"
#include "llm/openai.h"
#include "util/clock.h"

typedef struct script {
	int n;
	mock_resp r[8];
	char last_headers[4096];
	char last_body[8192];
	char last_path[600];
} script;

static void handler(void *ud, const mock_req *rq, mock_resp *rs)
{
	script *s = ud;
	snprintf(s->last_headers, sizeof s->last_headers, "%s", rq->headers);
	snprintf(s->last_body, sizeof s->last_body, "%s", rq->body);
	snprintf(s->last_path, sizeof s->last_path, "%s", rq->path);
	/* the last scripted reply repeats */
	int i = s->n < 8 ? s->n : 7;
	while (i > 0 && !s->r[i].status && !s->r[i].body && !s->r[i].delay_ms)
		i--;
	s->n++;
	*rs = s->r[i];
	rs->body = strdup(s->r[i].body ? s->r[i].body : "{}");
}

static void set(script *s, int i, int status, const char *headers, const char *body)
{
	s->r[i].status = status;
	snprintf(s->r[i].headers, sizeof s->r[i].headers, "%s", headers ? headers : "");
	s->r[i].body = (char *)body;
}

/* fake time */
static long long fake_now;
static long waits[16];
static int nwaits;
static long long f_now(void *ud) { (void)ud; return fake_now; }
static void f_sleep(void *ud, long ms) { (void)ud; if (nwaits < 16) waits[nwaits++] = ms; fake_now += ms; }
static double f_jitter(void *ud) { (void)ud; return 0.0; }
static const amc_http_hooks HOOKS = { f_now, f_sleep, f_jitter, NULL };

static char url[128];
static int post(script *s, long long deadline, amc_http_resp *rs, amc_err *e, const char *secret)
{
	(void)s;
	nwaits = 0;
	fake_now = 1000000;
	static const char *const hdr[] = { "content-type: application/json", NULL };
	amc_http_req rq = { 0 };
	rq.url = url;
	rq.headers = hdr;
	rq.body = "{\"x\":1}";
	rq.body_len = 7;
	rq.attempt_timeout_ms = 5000;
	rq.deadline_ms = deadline ? fake_now + deadline : 0;
	rq.secret = secret;
	return amc_http_post(&rq, &HOOKS, rs, e);
}

#define ERR(type, msg) "{\"type\":\"error\",\"error\":{\"type\":\"" type "\",\"message\":\"" msg "\"},\"request_id\":\"r1\"}"

int main(void)
{
	test_home("llmhttp");
	script s;
	memset(&s, 0, sizeof s);
	mock_server *m = mock_start(0, handler, &s);
	if (!m)
		tap_skip_all("cannot listen on 127.0.0.1");
	snprintf(url, sizeof url, "http://127.0.0.1:%d/v1/messages", mock_port(m));
	amc_http_resp rs;
	amc_err e;

	/* backoff arithmetic */
	is_int(amc_http_backoff_ms(0, -1, 0), 500, "first backoff is 0.5 s");
	is_int(amc_http_backoff_ms(1, -1, 0), 1000, "second backoff doubles");
	is_int(amc_http_backoff_ms(6, -1, 0), 8000, "backoff is capped at 8 s");
	is_int(amc_http_backoff_ms(0, -1, 0.999), 624, "jitter adds at most 25 %");
	is_int(amc_http_backoff_ms(2, 1234, 0.5), 1234, "retry-after wins over backoff");
	ok(amc_http_retryable_status(408) && amc_http_retryable_status(409) && amc_http_retryable_status(429) &&
	   amc_http_retryable_status(500) && amc_http_retryable_status(529), "408/409/429/5xx/529 are retryable");
	ok(!amc_http_retryable_status(400) && !amc_http_retryable_status(401) && !amc_http_retryable_status(402) &&
	   !amc_http_retryable_status(403) && !amc_http_retryable_status(404) && !amc_http_retryable_status(413),
	   "400/401/402/403/404/413 are not");

	/* success */
	memset(&s, 0, sizeof s);
	set(&s, 0, 200, NULL, "{\"ok\":true}");
	is_int(post(&s, 0, &rs, &e, NULL), 0, "200 succeeds");
	is_int(rs.attempts, 1, "one attempt");
	is_str(rs.body, "{\"ok\":true}", "body returned");
	like(rs.request_id, "req_mock_", "request-id captured");
	like(s.last_headers, "content-type: application/json", "headers sent");
	ok(!strstr(s.last_headers, "Expect:"), "no Expect: 100-continue");
	amc_http_resp_free(&rs);

	/* 429 with retry-after-ms, then 200 */
	memset(&s, 0, sizeof s);
	set(&s, 0, 429, "retry-after-ms: 1500\r\nretry-after: 9\r\n", ERR("rate_limit_error", "slow down"));
	set(&s, 1, 200, NULL, "{}");
	is_int(post(&s, 0, &rs, &e, NULL), 0, "429 then 200 succeeds");
	is_int(rs.attempts, 2, "two attempts");
	is_int(nwaits, 1, "one wait");
	is_int(waits[0], 1500, "retry-after-ms is honoured before retry-after");
	amc_http_resp_free(&rs);

	/* 529 overloaded with retry-after seconds */
	memset(&s, 0, sizeof s);
	set(&s, 0, 529, "retry-after: 2\r\n", ERR("overloaded_error", "Overloaded"));
	set(&s, 1, 200, NULL, "{}");
	is_int(post(&s, 0, &rs, &e, NULL), 0, "529 then 200 succeeds");
	is_int(waits[0], 2000, "retry-after seconds honoured");
	amc_http_resp_free(&rs);

	/* 500 three times: backoff, then a clear failure */
	memset(&s, 0, sizeof s);
	set(&s, 0, 500, NULL, ERR("api_error", "Internal server error"));
	is_int(post(&s, 0, &rs, &e, NULL), -1, "500 x3 fails");
	is_int(rs.attempts, 3, "at most 3 attempts");
	is_int(s.n, 3, "the server saw 3 requests");
	ok(nwaits == 2 && waits[0] == 500 && waits[1] == 1000, "exponential backoff 0.5 s, 1 s");
	like(e.msg, "HTTP 500 api_error: Internal server error", "message names status, type and text");
	like(e.msg, "after 3 attempts", "message counts attempts");
	is_int(e.code, AMC_EFAIL, "exit class 1");
	amc_http_resp_free(&rs);

	/* not retried */
	int nr[] = { 400, 401, 402, 403, 404, 413 };
	for (size_t i = 0; i < sizeof nr / sizeof nr[0]; i++) {
		memset(&s, 0, sizeof s);
		set(&s, 0, nr[i], "retry-after: 1\r\n", ERR("invalid_request_error", "nope"));
		int rc = post(&s, 0, &rs, &e, NULL);
		ok(rc == -1 && rs.attempts == 1 && s.n == 1 && nwaits == 0, "%d is final (one request, no wait)", nr[i]);
		amc_http_resp_free(&rs);
	}

	/* spend limit */
	memset(&s, 0, sizeof s);
	set(&s, 0, 429, "retry-after: 1\r\n",
	    "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"spend\","
	    "\"details\":{\"error_code\":\"enforced_spend_limit_reached\"}}}");
	is_int(post(&s, 0, &rs, &e, NULL), -1, "spend limit fails");
	ok(rs.attempts == 1 && nwaits == 0, "spend limit is never retried");
	like(e.msg, "spend limit", "message says spend limit");
	amc_http_resp_free(&rs);

	/* retry-after beyond the step's budget: fail now, do not sleep */
	memset(&s, 0, sizeof s);
	set(&s, 0, 429, "retry-after: 30\r\n", ERR("rate_limit_error", "later"));
	set(&s, 1, 200, NULL, "{}");
	is_int(post(&s, 10000, &rs, &e, NULL), -1, "retry-after past the budget fails");
	ok(rs.attempts == 1 && nwaits == 0, "without sleeping");
	like(e.msg, "time budget", "message names the time budget");
	amc_http_resp_free(&rs);

	/* 408 and 409 are retried */
	memset(&s, 0, sizeof s);
	set(&s, 0, 408, NULL, "{}");
	set(&s, 1, 409, NULL, "{}");
	set(&s, 2, 200, NULL, "{}");
	is_int(post(&s, 0, &rs, &e, NULL), 0, "408, 409, then 200 succeeds");
	is_int(rs.attempts, 3, "three attempts");
	amc_http_resp_free(&rs);

	/* a server that never answers in time: attempts time out, no hang */
	memset(&s, 0, sizeof s);
	s.r[0].delay_ms = 3000;
	s.r[1].delay_ms = 3000;
	{
		nwaits = 0;
		fake_now = 0;
		amc_http_req rq = { 0 };
		rq.url = url;
		rq.body = "{}";
		rq.body_len = 2;
		rq.attempt_timeout_ms = 200;
		rq.max_attempts = 2;
		long long t0 = amc_mono_ms();
		int rc = amc_http_post(&rq, &HOOKS, &rs, &e);
		long long took = amc_mono_ms() - t0;
		is_int(rc, -1, "timeouts fail");
		is_int(rs.attempts, 2, "a timed-out attempt is retried");
		like(e.msg, "imeout", "message says timeout");
		ok(took < 2500, "no hang (%lld ms)", took);
		amc_http_resp_free(&rs);
	}

	/* secrets never in messages */
	memset(&s, 0, sizeof s);
	set(&s, 0, 401, NULL, ERR("authentication_error", "invalid x-api-key sk-ant-PLANTED-0123456789"));
	post(&s, 0, &rs, &e, "sk-ant-PLANTED-0123456789");
	ok(!strstr(e.msg, "PLANTED"), "the key is scrubbed from the message");
	like(e.msg, "[redacted]", "and replaced by [redacted]");
	amc_http_resp_free(&rs);

	/* terminal-safe error text */
	memset(&s, 0, sizeof s);
	set(&s, 0, 400, NULL, ERR("invalid_request_error", "bad \\u001b[31mred"));
	post(&s, 0, &rs, &e, NULL);
	ok(!strchr(e.msg, 0x1b), "escape bytes never reach the message");
	amc_http_resp_free(&rs);

	/* connection refused: retried, then a clear error */
	{
		mock_server *dead = mock_start(0, handler, &s);
		int port = mock_port(dead);
		mock_stop(dead);
		char u2[128];
		snprintf(u2, sizeof u2, "http://127.0.0.1:%d/", port);
		amc_http_req rq = { 0 };
		rq.url = u2;
		rq.body = "{}";
		rq.body_len = 2;
		nwaits = 0;
		int rc = amc_http_post(&rq, &HOOKS, &rs, &e);
		ok(rc == -1 && rs.attempts == 3 && rs.status == 0, "connection refused: 3 attempts, no status");
		like(e.msg, "onnect", "message says it could not connect");
		amc_http_resp_free(&rs);
	}

	/* ---- Anthropic client ---- */
	unsetenv("ANTHROPIC_API_KEY");
	amc_anthropic *ac = NULL;
	is_int(amc_anthropic_new(NULL, &ac, &e), -1, "no key: fails");
	is_int(e.code, AMC_EENV, "no key: exit class 3");
	like(e.msg, "set ANTHROPIC_API_KEY", "no key: says what to set");

	char kf[PATH_MAX];
	snprintf(kf, sizeof kf, "%s/key", getenv("AMC_HOME"));
	FILE *f = fopen(kf, "w");
	fputs("sk-ant-FROMFILE-42\n", f);
	fclose(f);
	chmod(kf, 0644);
	is_int(amc_anthropic_new(kf, &ac, &e), -1, "a 0644 key file is refused");
	like(e.msg, "0600", "and the message says 0600");
	ok(!strstr(e.msg, "FROMFILE"), "without showing the key");
	chmod(kf, 0600);
	is_int(amc_anthropic_new(kf, &ac, &e), 0, "a 0600 key file is read");
	is_str(ac ? ac->key : NULL, "sk-ant-FROMFILE-42", "first line, newline trimmed");
	amc_anthropic_free(ac);

	setenv("ANTHROPIC_API_KEY", "sk-ant-test-key", 1);
	char base[128];
	snprintf(base, sizeof base, "http://127.0.0.1:%d/", mock_port(m));
	setenv("ANTHROPIC_BASE_URL", base, 1);
	is_int(amc_anthropic_new(NULL, &ac, &e), 0, "key from the environment");
	ac->hooks = HOOKS;
	cJSON *req = cJSON_Parse("{\"model\":\"claude-sonnet-5\",\"max_tokens\":10,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
	amc_anthropic_result ar;

	memset(&s, 0, sizeof s);
	set(&s, 0, 200, NULL,
	    "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-5\","
	    "\"content\":[{\"type\":\"text\",\"text\":\"hello\"}],\"stop_reason\":\"end_turn\","
	    "\"usage\":{\"input_tokens\":12,\"output_tokens\":3,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":100}}");
	is_int(amc_anthropic_messages(ac, req, 0, &ar, &e), 0, "messages call succeeds");
	is_str(s.last_path, "/v1/messages", "posts to /v1/messages (trailing slash of the base URL ignored)");
	like(s.last_headers, "x-api-key: sk-ant-test-key", "x-api-key header");
	like(s.last_headers, "anthropic-version: 2023-06-01", "anthropic-version header");
	like(s.last_headers, "content-type: application/json", "content-type header");
	is_str(ar.stop_reason, "end_turn", "stop_reason read");
	ok(ar.usage.input_tokens == 12 && ar.usage.output_tokens == 3 && ar.usage.cache_read_input_tokens == 100,
	   "usage read");
	amc_anthropic_result_free(&ar);

	memset(&s, 0, sizeof s);
	set(&s, 0, 200, NULL, "{\"type\":\"message\",\"content\":[{\"type\":\"te");
	is_int(amc_anthropic_messages(ac, req, 0, &ar, &e), -1, "malformed JSON fails");
	like(e.msg, "malformed", "message says malformed");
	memset(&s, 0, sizeof s);
	set(&s, 0, 200, NULL, "{\"type\":\"error\",\"error\":{}}");
	is_int(amc_anthropic_messages(ac, req, 0, &ar, &e), -1, "a 200 that is not a message fails");

	memset(&s, 0, sizeof s);
	set(&s, 0, 529, NULL, ERR("overloaded_error", "Overloaded"));
	is_int(amc_anthropic_messages(ac, req, 0, &ar, &e), -1, "529 x3 fails");
	like(e.msg, "Anthropic API: HTTP 529 overloaded_error", "message names the API and the error");
	ok(!strstr(e.msg, "sk-ant-test-key"), "no key in the message");
	is_int(s.n, 3, "529 retried up to 3 attempts");

	cJSON_Delete(req);
	amc_anthropic_free(ac);

	/* ---- OpenAI-compatible client ---- */
	unsetenv("AMC_OPENAI_BASE_URL");
	amc_openai *oc = NULL;
	is_int(amc_openai_new(&oc, &e), -1, "no AMC_OPENAI_BASE_URL: fails");
	like(e.msg, "set AMC_OPENAI_BASE_URL", "and says what to set");
	char ob[128];
	snprintf(ob, sizeof ob, "http://127.0.0.1:%d/v1/", mock_port(m));
	setenv("AMC_OPENAI_BASE_URL", ob, 1);
	setenv("OPENAI_API_KEY", "sk-local-123456", 1);
	is_int(amc_openai_new(&oc, &e), 0, "client from the environment");
	oc->hooks = HOOKS;
	cJSON *oreq = cJSON_CreateObject();
	cJSON_AddStringToObject(oreq, "model", "qwen3");
	cJSON_AddItemToObject(oreq, "response_format",
			      amc_openai_json_schema_format("scene", cJSON_Parse("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}")));
	char *rf = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(oreq, "response_format"));
	like(rf, "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"scene\",\"schema\":", "response_format in its nested form");
	like(rf, "\"strict\":true", "strict");
	free(rf);
	memset(&s, 0, sizeof s);
	set(&s, 0, 200, NULL, "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"{\\\"page\\\":\\\"x\\\"}\"},"
	    "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":7}}");
	amc_openai_result orr;
	is_int(amc_openai_chat(oc, oreq, 0, &orr, &e), 0, "chat completion succeeds");
	is_str(s.last_path, "/v1/chat/completions", "posts to {base}/chat/completions");
	like(s.last_headers, "authorization: Bearer sk-local-123456", "bearer token from OPENAI_API_KEY");
	is_str(orr.content, "{\"page\":\"x\"}", "message content read");
	is_str(orr.finish_reason, "stop", "finish_reason read");
	ok(orr.usage.input_tokens == 40 && orr.usage.output_tokens == 7, "usage read");
	amc_openai_result_free(&orr);
	cJSON_AddItemToObject(oreq, "tools", cJSON_CreateArray());
	is_int(amc_openai_chat(oc, oreq, 0, &orr, &e), -1, "tools and a json_schema response together are refused");
	cJSON_Delete(oreq);
	memset(&s, 0, sizeof s);
	set(&s, 0, 200, NULL, "{\"object\":\"list\",\"data\":[{\"id\":\"qwen3\"},{\"id\":\"gemma3\"}]}");
	cJSON *ids = NULL;
	is_int(amc_openai_models(oc, &ids, &e), 0, "GET /models");
	is_str(s.last_path, "/v1/models", "at {base}/models");
	is_int(cJSON_GetArraySize(ids), 2, "two models");
	cJSON_Delete(ids);
	memset(&s, 0, sizeof s);
	set(&s, 0, 503, NULL, "{\"error\":\"loading model\"}");
	oreq = cJSON_Parse("{\"model\":\"m\",\"messages\":[]}");
	is_int(amc_openai_chat(oc, oreq, 0, &orr, &e), -1, "503 x3 fails");
	is_int(s.n, 3, "503 retried like the Anthropic client");
	like(e.msg, "HTTP 503: loading model", "llama.cpp-style string error read");
	ok(!strstr(e.msg, "sk-local"), "no key in the message");
	cJSON_Delete(oreq);
	amc_openai_free(oc);
	mock_stop(m);
	return done_testing();
}
