#include "llm/http.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <curl/curl.h>
#include <cjson/cJSON.h>

#include "util/clock.h"
#include "util/log.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define BACKOFF_BASE_MS 500
#define BACKOFF_CAP_MS 8000
/* The longest server-requested wait amc honours at all (then the call fails). */
#define RETRY_AFTER_CAP_MS 600000L

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static void curl_init_once(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

int amc_http_retryable_status(long s)
{
	return s == 408 || s == 409 || s == 429 || (s >= 500 && s <= 599);
}

int amc_http_spend_limit(const char *body, size_t len)
{
	if (!body || !len)
		return 0;
	cJSON *j = cJSON_ParseWithLength(body, len);
	int hit = 0;
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
	const cJSON *det = cJSON_GetObjectItemCaseSensitive(err, "details");
	const cJSON *code = cJSON_GetObjectItemCaseSensitive(det, "error_code");
	if (cJSON_IsString(code) && !strcmp(code->valuestring, "enforced_spend_limit_reached"))
		hit = 1;
	cJSON_Delete(j);
	return hit;
}

long amc_http_backoff_ms(int n, long retry_after_ms, double jitter)
{
	if (retry_after_ms >= 0)
		return retry_after_ms;
	long base = BACKOFF_BASE_MS;
	for (int i = 0; i < n && base < BACKOFF_CAP_MS; i++)
		base *= 2;
	if (base > BACKOFF_CAP_MS)
		base = BACKOFF_CAP_MS;
	if (jitter < 0 || jitter >= 1)
		jitter = 0;
	return base + (long)(base * 0.25 * jitter);
}

void amc_http_scrub(char *s, size_t cap, const char *secret)
{
	if (!s || !secret || strlen(secret) < 4)
		return;
	size_t sl = strlen(secret);
	char *p;
	while ((p = strstr(s, secret)) != NULL) {
		static const char tag[] = "[redacted]";
		if (sl >= sizeof tag - 1) {
			memcpy(p, tag, sizeof tag - 1);
			memmove(p + sizeof tag - 1, p + sl, strlen(p + sl) + 1);
		} else {
			memset(p, '*', sl);
		}
	}
	(void)cap;
}

typedef amc_http_hdrs hdrs;

static size_t on_body(char *data, size_t size, size_t nmemb, void *ud)
{
	amc_sb *sb = ud;
	size_t n = size * nmemb;
	if (sb->len + n > AMC_HTTP_MAX_BODY)
		return 0; /* aborts the transfer: CURLE_WRITE_ERROR */
	amc_sb_append(sb, data, n);
	return n;
}

static long parse_nonneg(const char *v, size_t n, double scale)
{
	char buf[32];
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, v, n);
	buf[n] = 0;
	char *end;
	double d = strtod(buf, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == buf || *end || !(d >= 0))
		return -1; /* an HTTP date or garbage: fall back to backoff */
	d *= scale;
	if (d > RETRY_AFTER_CAP_MS * 10.0)
		d = RETRY_AFTER_CAP_MS * 10.0;
	return (long)d;
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *ud)
{
	size_t n = size * nmemb;
	amc_http_parse_header(data, n, ud);
	return n;
}

void amc_http_parse_header(const char *data, size_t n, amc_http_hdrs *h)
{
	const char *colon = memchr(data, ':', n);
	if (!colon)
		return;
	size_t klen = (size_t)(colon - data);
	const char *v = colon + 1;
	size_t vlen = n - klen - 1;
	while (vlen && (*v == ' ' || *v == '\t'))
		v++, vlen--;
	while (vlen && isspace((unsigned char)v[vlen - 1]))
		vlen--;
	if (klen == 14 && !strncasecmp(data, "retry-after-ms", 14))
		h->retry_after_ms = parse_nonneg(v, vlen, 1);
	else if (klen == 11 && !strncasecmp(data, "retry-after", 11))
		h->retry_after_s_ms = parse_nonneg(v, vlen, 1000);
	else if (klen == 10 && !strncasecmp(data, "request-id", 10)) {
		size_t m = vlen < sizeof h->request_id - 1 ? vlen : sizeof h->request_id - 1;
		memcpy(h->request_id, v, m);
		h->request_id[m] = 0;
	}
}

/* "HTTP 429 rate_limit_error: message" from an API error body, bounded and
 * terminal-safe. */
static void describe_error(long status, const char *body, size_t len, char *out, size_t n)
{
	const char *type = NULL, *msg = NULL;
	cJSON *j = body && len ? cJSON_ParseWithLength(body, len) : NULL;
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
	if (cJSON_IsObject(err)) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(err, "type");
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(err, "message");
		type = cJSON_IsString(t) ? t->valuestring : NULL;
		msg = cJSON_IsString(m) ? m->valuestring : NULL;
	} else if (cJSON_IsString(err)) {
		msg = err->valuestring;
	}
	amc_sb sb;
	amc_sb_init(&sb);
	if (msg)
		amc_sanitize_line(msg, strnlen(msg, 300), &sb);
	snprintf(out, n, "HTTP %ld%s%s%s%s", status, type ? " " : "", type ? type : "",
		 msg ? ": " : "", msg ? amc_sb_str(&sb) : "");
	amc_sb_free(&sb);
	cJSON_Delete(j);
}

static long long hk_now(const amc_http_hooks *h)
{
	return h && h->now_ms ? h->now_ms(h->ud) : amc_mono_ms();
}

static void hk_sleep(const amc_http_hooks *h, long ms)
{
	if (h && h->sleep_ms)
		h->sleep_ms(h->ud, ms);
	else
		amc_sleep_ms(ms);
}

static double hk_jitter(const amc_http_hooks *h)
{
	if (h && h->jitter)
		return h->jitter(h->ud);
	return (double)(random() % 10000) / 10000.0;
}

int amc_http_post(const amc_http_req *req, const amc_http_hooks *hooks, amc_http_resp *resp, amc_err *e)
{
	memset(resp, 0, sizeof *resp);
	pthread_once(&curl_once, curl_init_once);
	long connect_ms = req->connect_timeout_ms > 0 ? req->connect_timeout_ms : 10000;
	long attempt_ms = req->attempt_timeout_ms > 0 ? req->attempt_timeout_ms : 90000;
	int max_attempts = req->max_attempts > 0 ? req->max_attempts : 3;
	char why[AMC_ERR_MSG_MAX] = "";

	CURL *c = curl_easy_init();
	if (!c)
		return amc_err_set(e, AMC_EENV, "cannot initialize libcurl");
	struct curl_slist *hl = NULL;
	for (const char *const *h = req->headers; h && *h; h++)
		hl = curl_slist_append(hl, *h);
	hl = curl_slist_append(hl, "Expect:"); /* no 100-continue round trip */

	int rc = -1;
	for (int attempt = 1; attempt <= max_attempts; attempt++) {
		amc_sb body;
		amc_sb_init(&body);
		hdrs h = { -1, -1, "" };
		curl_easy_reset(c);
		curl_easy_setopt(c, CURLOPT_URL, req->url);
		if (req->get) {
			curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
		} else {
			curl_easy_setopt(c, CURLOPT_POST, 1L);
			curl_easy_setopt(c, CURLOPT_POSTFIELDS, req->body ? req->body : "");
			curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len);
		}
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
		curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
		/* No attempt outlives the caller's deadline (the step's time budget). */
		long this_ms = attempt_ms;
		int capped = 0;
		if (req->deadline_ms > 0) {
			long long left = req->deadline_ms - hk_now(hooks);
			if (left < this_ms) {
				this_ms = left > 1 ? (long)left : 1;
				capped = 1;
			}
		}
		curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, this_ms);
		curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
		curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
		curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
		curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
		curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
		curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
		curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
		curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
		curl_easy_setopt(c, CURLOPT_HEADERDATA, &h);
		CURLcode cc = curl_easy_perform(c);
		resp->attempts = attempt;
		long status = 0;
		if (cc == CURLE_OK)
			curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
		resp->status = status;
		snprintf(resp->request_id, sizeof resp->request_id, "%s", h.request_id);
		free(resp->body);
		resp->len = body.len;
		resp->body = amc_sb_detach(&body);

		int retry;
		if (cc != CURLE_OK) {
			if (cc == CURLE_WRITE_ERROR)
				snprintf(why, sizeof why, "response larger than %u bytes", AMC_HTTP_MAX_BODY);
			else if (cc == CURLE_OPERATION_TIMEDOUT && capped)
				snprintf(why, sizeof why, "%s: the step's time budget ran out "
					 "(raise planner.step_timeout_ms if the model is this slow)",
					 curl_easy_strerror(cc));
			else
				snprintf(why, sizeof why, "%s", curl_easy_strerror(cc));
			retry = cc != CURLE_WRITE_ERROR && cc != CURLE_UNSUPPORTED_PROTOCOL &&
				cc != CURLE_URL_MALFORMAT && cc != CURLE_PEER_FAILED_VERIFICATION;
		} else if (status >= 200 && status < 300) {
			rc = 0;
			break;
		} else {
			describe_error(status, resp->body, resp->len, why, sizeof why);
			retry = amc_http_retryable_status(status);
			if (status == 429 && amc_http_spend_limit(resp->body, resp->len)) {
				retry = 0;
				snprintf(why + strlen(why), sizeof why - strlen(why), " (spend limit reached; not retried)");
			}
		}
		amc_http_scrub(why, sizeof why, req->secret);
		if (!retry || attempt == max_attempts || (cc == CURLE_OPERATION_TIMEDOUT && capped))
			break;
		long ra = h.retry_after_ms >= 0 ? h.retry_after_ms : h.retry_after_s_ms;
		long wait = amc_http_backoff_ms(attempt - 1, ra, hk_jitter(hooks));
		long long now = hk_now(hooks);
		if (ra > RETRY_AFTER_CAP_MS ||
		    (req->deadline_ms > 0 && now + wait > req->deadline_ms)) {
			long long left = req->deadline_ms > 0 ? req->deadline_ms - now : RETRY_AFTER_CAP_MS;
			size_t l = strlen(why);
			snprintf(why + l, sizeof why - l, "; the server asks to wait %.1f s, more than the %.1f s left of the step's time budget",
				 wait / 1000.0, (left > 0 ? left : 0) / 1000.0);
			break;
		}
		amc_log_info("http: attempt %d failed (%s); retrying in %ld ms", attempt, why, wait);
		hk_sleep(hooks, wait);
		resp->waited_ms += wait;
	}
	curl_slist_free_all(hl);
	curl_easy_cleanup(c);
	if (rc != 0)
		amc_err_set(e, AMC_EFAIL, "%s (after %d attempt%s)", why, resp->attempts, resp->attempts == 1 ? "" : "s");
	return rc;
}

void amc_http_resp_free(amc_http_resp *r)
{
	if (!r)
		return;
	free(r->body);
	r->body = NULL;
	r->len = 0;
}

long long amc_http_deadline(const amc_http_hooks *hooks, long timeout_ms)
{
	return hk_now(hooks) + timeout_ms;
}
