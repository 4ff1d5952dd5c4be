/* test_http.c - the shared HTTP layer (llm/http.c) against a local mock: every
 * retry rule and failure mode, with an injected clock so nothing sleeps for
 * real. The provider clients have their own tests (test_anthropic, test_openai). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "../mock/mockhttp.h"
#include "llm/http.h"
#include "util/clock.h"

typedef struct script {
	int n;
	mock_resp r[8];
	char last_headers[4096];
	char last_body[8192];
	char last_path[600];
	char last_method[16];
} script;

static void handler(void *ud, const mock_req *rq, mock_resp *rs)
{
	script *s = ud;
	snprintf(s->last_headers, sizeof s->last_headers, "%s", rq->headers);
	snprintf(s->last_body, sizeof s->last_body, "%s", rq->body);
	snprintf(s->last_path, sizeof s->last_path, "%s", rq->path);
	snprintf(s->last_method, sizeof s->last_method, "%s", rq->method);
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
	test_home("http");
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

	/* check-hardening found: the step's deadline bounds each attempt, not only
	 * the waits between them (a slow model held a 4 s step for 30 s). */
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
		rq.attempt_timeout_ms = 90000;
		rq.max_attempts = 2;
		rq.deadline_ms = 300;
		long long t0 = amc_mono_ms();
		int rc = amc_http_post(&rq, &HOOKS, &rs, &e);
		long long took = amc_mono_ms() - t0;
		is_int(rc, -1, "a reply later than the deadline fails");
		ok(took < 2000, "the deadline cuts the attempt short (%lld ms)", took);
		like(e.msg, "time budget", "the message names the step's time budget");
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

	/* waits are accounted in resp.waited_ms */
	memset(&s, 0, sizeof s);
	set(&s, 0, 503, "retry-after-ms: 700\r\n", "{}");
	set(&s, 1, 502, "retry-after-ms: 300\r\n", "{}");
	set(&s, 2, 200, NULL, "{}");
	is_int(post(&s, 0, &rs, &e, NULL), 0, "503, 502, then 200 succeeds");
	is_int(rs.waited_ms, 1000, "waited_ms sums the waits between attempts");
	is_int(rs.status, 200, "status is the last response's");
	amc_http_resp_free(&rs);

	/* an unparsable retry-after (an HTTP date) falls back to the backoff */
	memset(&s, 0, sizeof s);
	set(&s, 0, 429, "retry-after: Wed, 21 Oct 2015 07:28:00 GMT\r\n", ERR("rate_limit_error", "later"));
	set(&s, 1, 200, NULL, "{}");
	is_int(post(&s, 0, &rs, &e, NULL), 0, "429 with a date retry-after then 200 succeeds");
	ok(nwaits == 1 && waits[0] == 500, "the date is ignored: backoff 0.5 s (%ld)", nwaits ? waits[0] : -1L);
	amc_http_resp_free(&rs);

	/* a failure keeps the last status and body for the caller */
	memset(&s, 0, sizeof s);
	set(&s, 0, 404, NULL, ERR("not_found_error", "no such model"));
	is_int(post(&s, 0, &rs, &e, NULL), -1, "404 fails");
	is_int(rs.status, 404, "the status is kept on failure");
	like(rs.body, "not_found_error", "and the body too");
	amc_http_resp_free(&rs);

	/* an error body that is not JSON: just the status */
	memset(&s, 0, sizeof s);
	set(&s, 0, 400, NULL, "<html>bad gateway</html>");
	post(&s, 0, &rs, &e, NULL);
	like(e.msg, "HTTP 400 (after 1 attempt)", "a non-JSON error body gives the bare status");
	amc_http_resp_free(&rs);

	/* redirects are not followed (a key must not travel to another host) */
	memset(&s, 0, sizeof s);
	set(&s, 0, 302, "location: http://127.0.0.1:1/elsewhere\r\n", "{}");
	is_int(post(&s, 0, &rs, &e, NULL), -1, "a 302 is a failure, not followed");
	ok(rs.attempts == 1 && s.n == 1, "and not retried");
	amc_http_resp_free(&rs);

	/* GET for catalogs */
	memset(&s, 0, sizeof s);
	set(&s, 0, 200, NULL, "{\"data\":[]}");
	{
		amc_http_req rq = { 0 };
		char u3[160];
		snprintf(u3, sizeof u3, "http://127.0.0.1:%d/v1/models?limit=100", mock_port(m));
		rq.url = u3;
		rq.get = 1;
		rq.body = "{\"ignored\":1}";
		rq.body_len = 13;
		is_int(amc_http_post(&rq, &HOOKS, &rs, &e), 0, "GET succeeds");
		is_str(s.last_method, "GET", "req.get sends a GET");
		is_str(s.last_path, "/v1/models?limit=100", "to the URL as given");
		is_str(s.last_body, "", "without a body");
		amc_http_resp_free(&rs);
	}

	/* a scheme curl is not allowed to use fails at once */
	{
		amc_http_req rq = { 0 };
		rq.url = "file:///etc/passwd";
		rq.get = 1;
		nwaits = 0;
		int rc = amc_http_post(&rq, &HOOKS, &rs, &e);
		ok(rc == -1 && rs.attempts == 1 && nwaits == 0, "file:// is refused without retries");
		ok(rs.body == NULL || !strstr(rs.body, "root:"), "and nothing is read from the file");
		amc_http_resp_free(&rs);
	}

	/* spend-limit and scrub helpers */
	const char *sl = "{\"error\":{\"details\":{\"error_code\":\"enforced_spend_limit_reached\"}}}";
	ok(amc_http_spend_limit(sl, strlen(sl)), "spend-limit body recognised");
	const char *rl = "{\"error\":{\"type\":\"rate_limit_error\",\"details\":{\"error_code\":\"other\"}}}";
	ok(!amc_http_spend_limit(rl, strlen(rl)), "another error code is not a spend limit");
	ok(!amc_http_spend_limit("not json", 8) && !amc_http_spend_limit(NULL, 0), "garbage and NULL are not");
	{
		char b[128] = "key=sk-ant-LONGSECRET-1 and again sk-ant-LONGSECRET-1.";
		amc_http_scrub(b, sizeof b, "sk-ant-LONGSECRET-1");
		is_str(b, "key=[redacted] and again [redacted].", "every occurrence of a long secret becomes [redacted]");
		char c[64] = "short abcdef here";
		amc_http_scrub(c, sizeof c, "abcdef");
		is_str(c, "short ****** here", "a secret shorter than the tag becomes asterisks");
		char d[64] = "abc stays";
		amc_http_scrub(d, sizeof d, "abc");
		is_str(d, "abc stays", "secrets under 4 bytes are not scrubbed (would eat ordinary words)");
		amc_http_scrub(d, sizeof d, NULL);
		is_str(d, "abc stays", "a NULL secret changes nothing");
	}

	mock_stop(m);
	return done_testing();
}
