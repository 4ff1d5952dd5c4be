/* script_http.c - http.* for flows' scripts, made by amc (see script_http.h). */
#include "flow/script_http.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <curl/curl.h>
#include <cjson/cJSON.h>

#include "util/sanitize.h"
#include "util/strbuf.h"

#define URL_MAX 8192
#define HEADER_MAX 8192

int amc_script_http_allowed(const char *hosts, const char *host)
{
	if (!hosts)
		return 1;
	if (!host || !*host)
		return 0;
	size_t hl = strlen(host);
	for (const char *p = hosts; *p;) {
		while (*p == ',' || *p == ' ')
			p++;
		const char *q = p;
		while (*q && *q != ',' && *q != ' ')
			q++;
		if ((size_t)(q - p) == hl && strncasecmp(p, host, hl) == 0)
			return 1;
		p = q;
	}
	return 0;
}

void amc_script_http_req_free(amc_script_http_req *r)
{
	if (!r)
		return;
	free(r->method);
	free(r->url);
	for (size_t i = 0; i < r->nheaders; i++)
		free(r->headers[i]);
	free(r->headers);
	free(r->body);
	memset(r, 0, sizeof *r);
}

static int token_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("!#$%&'*+-.^_`|~", *s))
			return 0;
	return 1;
}

static int value_ok(const char *s)
{
	for (; *s; s++)
		if (*s == '\r' || *s == '\n' || *s == '\0')
			return 0;
	return 1;
}

int amc_script_http_parse(const char *json, size_t len, amc_script_http_req *out, amc_err *e)
{
	static const char *const METHODS[] = { "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", NULL };
	memset(out, 0, sizeof *out);
	cJSON *j = cJSON_ParseWithLength(json, len);
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "method");
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(j, "url");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(j, "headers");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(j, "body");
	int rc = -1;
	if (!cJSON_IsObject(j) || !cJSON_IsString(m) || !cJSON_IsString(u)) {
		amc_err_set(e, AMC_EUSAGE, "http: a request needs a method and a url");
		goto done;
	}
	int known = 0;
	for (int i = 0; METHODS[i]; i++)
		known |= strcmp(m->valuestring, METHODS[i]) == 0;
	if (!known) {
		amc_err_set(e, AMC_EUSAGE, "http: unknown method (GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS)");
		goto done;
	}
	if (strlen(u->valuestring) > URL_MAX || (strncasecmp(u->valuestring, "http://", 7) != 0 &&
						 strncasecmp(u->valuestring, "https://", 8) != 0)) {
		amc_err_set(e, AMC_EUSAGE, "http: the url must start with http:// or https:// and be at most %d bytes",
			    URL_MAX);
		goto done;
	}
	if (h && !cJSON_IsObject(h) && !cJSON_IsNull(h)) {
		amc_err_set(e, AMC_EUSAGE, "http: headers must be an object");
		goto done;
	}
	if (b && !cJSON_IsString(b) && !cJSON_IsNull(b)) {
		amc_err_set(e, AMC_EUSAGE, "http: the body must be a string");
		goto done;
	}
	if (cJSON_IsString(b) && strlen(b->valuestring) > AMC_SCRIPT_HTTP_SEND_MAX) {
		amc_err_set(e, AMC_EUSAGE, "http: the body is larger than %u bytes", AMC_SCRIPT_HTTP_SEND_MAX);
		goto done;
	}
	out->method = amc_xstrdup(m->valuestring);
	out->url = amc_xstrdup(u->valuestring);
	out->body = cJSON_IsString(b) ? amc_xstrdup(b->valuestring) : NULL;
	out->headers = amc_xcalloc(AMC_SCRIPT_HTTP_HEADERS_MAX, sizeof *out->headers);
	const cJSON *hv, *hobj = cJSON_IsObject(h) ? h : NULL;
	cJSON_ArrayForEach(hv, hobj) {
		if (out->nheaders >= AMC_SCRIPT_HTTP_HEADERS_MAX) {
			amc_err_set(e, AMC_EUSAGE, "http: more than %d headers", AMC_SCRIPT_HTTP_HEADERS_MAX);
			goto done;
		}
		if (!cJSON_IsString(hv) || !hv->string || !token_ok(hv->string) || !value_ok(hv->valuestring) ||
		    strlen(hv->string) + strlen(hv->valuestring) > HEADER_MAX) {
			amc_err_set(e, AMC_EUSAGE, "http: a header is not a valid name with a one-line value");
			goto done;
		}
		amc_sb sb;
		amc_sb_init(&sb);
		amc_sb_printf(&sb, "%s: %s", hv->string, hv->valuestring);
		out->headers[out->nheaders++] = amc_sb_detach(&sb);
	}
	rc = 0;
done:
	cJSON_Delete(j);
	if (rc != 0)
		amc_script_http_req_free(out);
	return rc;
}

static char *error_answer(const char *msg)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "error", msg);
	char *t = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return t ? t : amc_xstrdup("{\"error\":\"out of memory\"}");
}

typedef struct sink {
	amc_sb body;
	cJSON *headers;
	int nheaders;
	int too_big;
} sink;

static size_t on_body(char *p, size_t sz, size_t n, void *ud)
{
	sink *k = ud;
	if (k->body.len + sz * n > AMC_SCRIPT_HTTP_BODY_MAX) {
		k->too_big = 1;
		return 0; /* aborts the transfer */
	}
	amc_sb_append(&k->body, p, sz * n);
	return sz * n;
}

static size_t on_header(char *p, size_t sz, size_t n, void *ud)
{
	sink *k = ud;
	size_t len = sz * n;
	const char *colon = memchr(p, ':', len);
	if (!colon || k->nheaders >= AMC_SCRIPT_HTTP_HEADERS_MAX || len > HEADER_MAX)
		return len;
	if (strncasecmp(p, "HTTP/", 5) == 0) /* a new response (a redirect): its own headers */
		return len;
	char name[256];
	size_t nl = (size_t)(colon - p);
	if (nl == 0 || nl >= sizeof name)
		return len;
	for (size_t i = 0; i < nl; i++)
		name[i] = (char)tolower((unsigned char)p[i]);
	name[nl] = '\0';
	const char *v = colon + 1, *end = p + len;
	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
		end--;
	char *val = amc_xstrndup(v, (size_t)(end - v));
	cJSON_DeleteItemFromObjectCaseSensitive(k->headers, name);
	cJSON_AddStringToObject(k->headers, name, val);
	free(val);
	k->nheaders++;
	return len;
}

static char *host_of(const char *url)
{
	CURLU *u = curl_url();
	char *host = NULL, *r = NULL;
	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK && host)
		r = amc_xstrdup(host);
	curl_free(host);
	curl_url_cleanup(u);
	return r;
}

char *amc_script_http_do(const char *hosts, const char *json, size_t len, long timeout_ms)
{
	amc_script_http_req rq;
	amc_err e;
	amc_err_clear(&e);
	if (amc_script_http_parse(json, len, &rq, &e) != 0)
		return error_answer(e.msg);
	char *host = host_of(rq.url);
	if (!host) {
		amc_script_http_req_free(&rq);
		return error_answer("http: the url has no host amc can read");
	}
	if (!amc_script_http_allowed(hosts, host)) {
		char msg[512];
		char *safe = amc_sanitize_dup(host);
		snprintf(msg, sizeof msg, "http: the host %.200s is not allowed for this run (%s)", safe,
			 hosts && !*hosts ? "a fleet payload's scripts have no network unless the host's "
			 "configuration allows it" : "it is not in the run's list of allowed hosts");
		free(safe);
		free(host);
		amc_script_http_req_free(&rq);
		return error_answer(msg);
	}
	free(host);
	CURL *c = curl_easy_init();
	if (!c) {
		amc_script_http_req_free(&rq);
		return error_answer("http: cannot start a request");
	}
	sink k;
	amc_sb_init(&k.body);
	k.headers = cJSON_CreateObject();
	k.nheaders = 0;
	k.too_big = 0;
	struct curl_slist *hl = NULL;
	for (size_t i = 0; i < rq.nheaders; i++)
		hl = curl_slist_append(hl, rq.headers[i]);
	char errbuf[CURL_ERROR_SIZE] = "";
	curl_easy_setopt(c, CURLOPT_URL, rq.url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	/* a redirect could leave the allowed hosts: followed only when any host is */
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, hosts ? 0L : 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : (long)AMC_SCRIPT_HTTP_TIMEOUT_MS);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "amc-flow-script");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &k);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &k);
	if (strcmp(rq.method, "HEAD") == 0)
		curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
	else if (strcmp(rq.method, "GET") != 0)
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, rq.method);
	if (rq.body) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, rq.body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(rq.body));
	}
	CURLcode cc = curl_easy_perform(c);
	long status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(c);
	curl_slist_free_all(hl);
	amc_script_http_req_free(&rq);
	char *ans;
	if (k.too_big) {
		char msg[128];
		snprintf(msg, sizeof msg, "http: the response is larger than %u bytes", AMC_SCRIPT_HTTP_BODY_MAX);
		ans = error_answer(msg);
		cJSON_Delete(k.headers);
	} else if (cc != CURLE_OK) {
		char msg[CURL_ERROR_SIZE + 64];
		char *safe = amc_sanitize_dup(errbuf[0] ? errbuf : curl_easy_strerror(cc));
		snprintf(msg, sizeof msg, "http: %s", safe);
		free(safe);
		ans = error_answer(msg);
		cJSON_Delete(k.headers);
	} else {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddBoolToObject(o, "ok", status >= 200 && status < 300);
		cJSON_AddNumberToObject(o, "status", (double)status);
		cJSON_AddStringToObject(o, "body", amc_sb_str(&k.body));
		cJSON_AddItemToObject(o, "headers", k.headers);
		ans = cJSON_PrintUnformatted(o);
		cJSON_Delete(o);
		if (!ans)
			ans = error_answer("http: out of memory");
	}
	amc_sb_free(&k.body);
	return ans;
}
