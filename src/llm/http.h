/* http.h - the one small HTTP client amc's model providers share (libcurl).
 *
 * POST a JSON body with the retry rules of docs/llm.md (from the provider notes):
 * retry only 408, 409, 429, 5xx and 529 and transport failures (connect error,
 * timeout), at most `max_attempts` attempts, waiting `retry-after-ms`, else
 * `retry-after` (seconds), else min(0.5 * 2^n, 8) s plus up to 25 % jitter. A 429
 * whose body says `enforced_spend_limit_reached` is final. A wait that would run
 * past `deadline_ms` fails the call with that reason instead of sleeping. TLS
 * verification is always on; there is no switch to turn it off.
 *
 * Time is injectable (amc_http_hooks) so tests never sleep through real delays.
 * Model calls are retried; device actions never go through here. */
#ifndef AMC_HTTP_H
#define AMC_HTTP_H

#include <stddef.h>
#include "util/err.h"

#define AMC_HTTP_MAX_BODY (16u << 20)   /* a response larger than this fails */

typedef struct amc_http_hooks {
	long long (*now_ms)(void *ud);      /* monotonic ms; NULL: amc_mono_ms */
	void (*sleep_ms)(void *ud, long ms); /* NULL: amc_sleep_ms */
	double (*jitter)(void *ud);         /* uniform in [0,1); NULL: random() */
	void *ud;
} amc_http_hooks;

typedef struct amc_http_req {
	const char *url;
	const char *const *headers;   /* NULL-terminated "Name: value" lines, may be NULL */
	const char *body;             /* JSON text */
	size_t body_len;
	long connect_timeout_ms;      /* <= 0: 10000 */
	long attempt_timeout_ms;      /* <= 0: 90000 */
	int max_attempts;             /* <= 0: 3 */
	long long deadline_ms;        /* monotonic ms (hooks' clock) the call must end by; 0: none */
	const char *secret;           /* scrubbed from every error message (the API key), may be NULL */
	int get;                      /* 1: GET (body ignored), e.g. a model catalog */
} amc_http_req;

typedef struct amc_http_resp {
	long status;                  /* last HTTP status, 0 when no response came */
	char *body;                   /* owned, NUL-terminated, may be NULL */
	size_t len;
	int attempts;
	long long waited_ms;          /* time spent waiting between attempts */
	char request_id[128];         /* "request-id" header of the last response, "" if none */
} amc_http_resp;

/* Classification of one response (exposed for tests and providers). */
int amc_http_retryable_status(long status);
/* 1 when an error body marks a spend limit (never retried). */
int amc_http_spend_limit(const char *body, size_t len);
/* The wait before attempt n+1 (n = retries so far, 0-based), in ms. */
long amc_http_backoff_ms(int n, long retry_after_ms, double jitter);
/* What amc reads from a response's header lines (untrusted): retry-after-ms
 * and retry-after (seconds; an HTTP date or garbage is -1, values capped),
 * request-id (cut to fit). Start with { -1, -1, "" }. */
typedef struct amc_http_hdrs {
	long retry_after_ms;     /* -1 none */
	long retry_after_s_ms;   /* -1 none */
	char request_id[128];
} amc_http_hdrs;
/* One header line of n bytes ("Name: value\r\n", not NUL-terminated). */
void amc_http_parse_header(const char *line, size_t n, amc_http_hdrs *h);

/* POST req->body. Returns 0 when a response with status 2xx arrived; -1 with
 * e->code AMC_EFAIL otherwise (the message names the status, the API's error
 * type and message, sanitized and bounded). resp is filled in both cases and
 * must be released with amc_http_resp_free. */
int amc_http_post(const amc_http_req *req, const amc_http_hooks *hooks, amc_http_resp *resp, amc_err *e);
void amc_http_resp_free(amc_http_resp *r);
/* The deadline of a call that may take timeout_ms from now, on the hooks' clock. */
long long amc_http_deadline(const amc_http_hooks *hooks, long timeout_ms);

/* Replace every occurrence of `secret` in s (in place) with "[redacted]" when
 * it fits, else with asterisks. */
void amc_http_scrub(char *s, size_t cap, const char *secret);

#endif
