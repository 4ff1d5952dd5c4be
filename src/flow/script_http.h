/* script_http.h - Maestro's `http` object for flows' scripts, done by amc on
 * the script's behalf: amc-js has no network (seccomp), so a script's
 * http.get/post/put/delete/request comes over the pipe as JSON, is checked
 * against the run's host policy and made here with libcurl, bounded in time
 * and size, and the answer goes back as JSON.
 *
 * Request (untrusted, from the engine process):
 *   {"method":"GET"|..., "url":"http(s)://...", "headers":{NAME:VALUE}, "body":S|null}
 * Answer:
 *   {"ok":B, "status":N, "body":S, "headers":{lower-case name:VALUE}}
 *   {"error":S}   (refused by the policy, malformed, timed out, too large)
 *
 * Policy (`hosts`): NULL: any host (a flow run locally, as Maestro does);
 * "": no host (a fleet payload, unless the host's configuration lists some);
 * otherwise a comma-separated list of host names allowed (exact, case-
 * insensitive); redirects are followed only when any host is allowed. */
#ifndef AMC_SCRIPT_HTTP_H
#define AMC_SCRIPT_HTTP_H

#include <stddef.h>
#include "util/err.h"

#define AMC_SCRIPT_HTTP_TIMEOUT_MS 10000
#define AMC_SCRIPT_HTTP_BODY_MAX (256u * 1024u)   /* the answer's body */
#define AMC_SCRIPT_HTTP_SEND_MAX (256u * 1024u)   /* the request's body */
#define AMC_SCRIPT_HTTP_HEADERS_MAX 64

/* Is `host` allowed by the policy `hosts` (see above)? 1 or 0. */
int amc_script_http_allowed(const char *hosts, const char *host);

/* A parsed, validated request; amc_script_http_req_free frees it. */
typedef struct amc_script_http_req {
	char *method;
	char *url;
	char **headers; /* "Name: value" lines */
	size_t nheaders;
	char *body;     /* NULL: none */
} amc_script_http_req;

/* Parse one request from the engine (untrusted; a fuzz target). 0, or -1
 * with AMC_EUSAGE and a message meant for the script. */
int amc_script_http_parse(const char *json, size_t len, amc_script_http_req *out, amc_err *e);
void amc_script_http_req_free(amc_script_http_req *r);

/* Do one request under `hosts` within `timeout_ms` (<= 0: the default).
 * Returns the answer as JSON text (malloc'd, caller frees; never NULL):
 * a response, or {"error":...} saying why not. */
char *amc_script_http_do(const char *hosts, const char *json, size_t len, long timeout_ms);

#endif
