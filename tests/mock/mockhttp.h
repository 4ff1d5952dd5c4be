/* mockhttp.h - a tiny HTTP/1.1 server thread on 127.0.0.1 (a free port) for
 * testing amc's model clients without a network. One connection at a time,
 * "Connection: close" on every reply. The handler sees each request and fills
 * the reply; it runs on the server thread. */
#ifndef AMC_MOCKHTTP_H
#define AMC_MOCKHTTP_H

#include <stddef.h>
#include "llm/http.h"

typedef struct mock_req {
	char method[16];
	char path[512];
	char *headers;      /* raw header block, "Name: value\r\n"... */
	char *body;         /* NUL-terminated */
	size_t body_len;
} mock_req;

typedef struct mock_resp {
	int status;         /* 0: 200 */
	char headers[1024]; /* extra header lines, each ending "\r\n" */
	char *body;         /* malloc'd by the handler, freed by the server */
	long delay_ms;      /* wait this long before replying (a slow server) */
	int drop;           /* close the connection without replying */
	int cut;            /* announce the whole body, send half of it, close */
} mock_resp;

typedef void (*mock_handler)(void *ud, const mock_req *rq, mock_resp *rs);
typedef struct mock_server mock_server;

/* Listen on 127.0.0.1:port (0: any free port). NULL on failure. */
mock_server *mock_start(int port, mock_handler h, void *ud);
int mock_port(const mock_server *m);
/* Requests served so far. */
int mock_count(mock_server *m);
void mock_stop(mock_server *m);
/* Value of header `name` (case-insensitive) in rq as a static-per-call copy, or NULL. */
const char *mock_header(const mock_req *rq, const char *name, char *buf, size_t n);
/* Run the server on the calling thread until a request to /quit or SIGTERM. */
int mock_serve_forever(int port, mock_handler h, void *ud, void (*on_ready)(int port, void *ud));

/* A recorder handler: every request answers `status` with `body` ("{}" when
 * NULL) and leaves its method, path, headers and body (cut to size) behind. */
typedef struct mock_record {
	int n;              /* requests seen */
	int status;
	const char *body;
	char last_method[16];
	char last_path[600];
	char last_headers[4096];
	char last_body[8192];
} mock_record;
void mock_record_handler(void *ud, const mock_req *rq, mock_resp *rs);
/* Forget what was seen; answer the next requests with status and body. */
void mock_record_reply(mock_record *r, int status, const char *body);

/* A fake clock for amc_http_hooks: sleeping advances mock_fake_now, so retries
 * never really wait. */
extern long long mock_fake_now;
extern const amc_http_hooks MOCK_FAKE_HOOKS;

#endif
