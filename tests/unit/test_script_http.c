/* test_script_http.c - http.* for flows' scripts (script_http.h): the host
 * policy, the request parser with hostile input, requests made by amc
 * against a local server this test starts (bounded in size and time), and
 * the bridge: a script in amc-js (which has no network) calls
 * http.get/post/put/delete/request and gets Maestro's response object. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "flow/script.h"
#include "flow/script_http.h"
#include "tap.h"

static int port;

/* strcasestr is a GNU extension: a portable one for the server's headers. */
static const char *find_ci(const char *h, const char *n)
{
	size_t nl = strlen(n);
	for (; *h; h++)
		if (strncasecmp(h, n, nl) == 0)
			return h;
	return NULL;
}

/* One request per connection: read the head and the body it announces. */
static void serve_one(int c)
{
	char req[65536];
	size_t n = 0;
	char *end = NULL;
	while (n < sizeof req - 1) {
		ssize_t r = read(c, req + n, sizeof req - 1 - n);
		if (r <= 0)
			return;
		n += (size_t)r;
		req[n] = '\0';
		if ((end = strstr(req, "\r\n\r\n")) != NULL) {
			const char *cl = find_ci(req, "content-length:");
			size_t want = cl ? (size_t)atol(cl + 15) : 0;
			if (n >= (size_t)(end + 4 - req) + want)
				break;
		}
	}
	if (!end)
		return;
	char method[16] = "", path[256] = "";
	sscanf(req, "%15s %255s", method, path);
	const char *body = end + 4;
	const char *xh = find_ci(req, "\r\nx-h: ");
	char hv[64] = "";
	if (xh)
		sscanf(xh + 7, "%63[^\r]", hv);
	char *out = malloc(600 * 1024);
	int len;
	if (!strcmp(path, "/json")) {
		len = sprintf(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Test: yes\r\n"
			      "Content-Length: 21\r\nConnection: close\r\n\r\n{\"name\":\"amc\",\"n\":3}\n");
	} else if (!strcmp(path, "/echo")) {
		char b[2048];
		int bl = snprintf(b, sizeof b, "%s %s %s %s", method, path, body, hv);
		len = sprintf(out, "HTTP/1.1 201 Created\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", bl, b);
	} else if (!strcmp(path, "/big")) {
		int bl = 400 * 1024;
		len = sprintf(out, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", bl);
		memset(out + len, 'x', (size_t)bl);
		len += bl;
	} else if (!strcmp(path, "/slow")) {
		nanosleep(&(struct timespec){ 1, 500 * 1000 * 1000 }, NULL);
		len = sprintf(out, "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\nslow");
	} else if (!strcmp(path, "/redirect")) {
		len = sprintf(out, "HTTP/1.1 302 Found\r\nLocation: /json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
	} else {
		len = sprintf(out, "HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\nConnection: close\r\n\r\nnope");
	}
	for (int off = 0; off < len;) {
		ssize_t w = write(c, out + off, (size_t)(len - off));
		if (w <= 0)
			break;
		off += (int)w;
	}
	free(out);
}

static void *server(void *arg)
{
	int s = *(int *)arg;
	for (;;) {
		int c = accept(s, NULL, NULL);
		if (c < 0)
			continue;
		serve_one(c);
		close(c);
	}
	return NULL;
}

static char url[128];

static const char *u(const char *path)
{
	snprintf(url, sizeof url, "http://127.0.0.1:%d%s", port, path);
	return url;
}

static char *req_json(const char *method, const char *path, const char *extra)
{
	char *b = malloc(1024);
	snprintf(b, 1024, "{\"method\":\"%s\",\"url\":\"%s\"%s}", method, u(path), extra ? extra : "");
	return b;
}

static char *ev(amc_script *s, const char *src, amc_err *e)
{
	char *r = NULL;
	amc_err_clear(e);
	char buf[2048];
	snprintf(buf, sizeof buf, "const URL = 'http://127.0.0.1:%d';\n%s", port, src);
	if (amc_script_eval(s, buf, "h.js", NULL, 0, &r, e) != 0)
		return NULL;
	return r;
}

int main(void)
{
	/* policy */
	ok(amc_script_http_allowed(NULL, "example.com"), "no policy: any host (a local run)");
	ok(!amc_script_http_allowed("", "example.com"), "empty policy: no host (a fleet payload)");
	ok(amc_script_http_allowed("a.org, Example.COM", "example.com"), "a listed host, any case");
	ok(!amc_script_http_allowed("a.org,example.com", "example.co"), "not a prefix");
	ok(!amc_script_http_allowed("example.com", "evil-example.com"), "not a suffix");

	/* the parser, with what a hostile script could send */
	amc_script_http_req rq;
	amc_err e;
	static const char *const BAD[] = {
		"{\"method\":\"GET\",\"url\":\"file:///etc/passwd\"}",
		"{\"method\":\"CONNECT\",\"url\":\"http://a/\"}",
		"{\"method\":\"GET\",\"url\":\"http://a/\",\"headers\":{\"X\":\"a\\r\\nHost: b\"}}",
		"{\"method\":\"GET\",\"url\":\"http://a/\",\"headers\":{\"Bad Name\":\"v\"}}",
		"{\"method\":\"GET\",\"url\":\"http://a/\",\"body\":7}",
		"{\"method\":\"GET\"}",
		"[1,2]",
	};
	for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++)
		ok(amc_script_http_parse(BAD[i], strlen(BAD[i]), &rq, &e) == -1, "refused: %s", BAD[i]);
	const char *good = "{\"method\":\"POST\",\"url\":\"https://a.example/x\",\"headers\":{\"X-A\":\"1\"},\"body\":\"b\"}";
	ok(amc_script_http_parse(good, strlen(good), &rq, &e) == 0 && rq.nheaders == 1 &&
	   !strcmp(rq.headers[0], "X-A: 1") && !strcmp(rq.body, "b"), "a good request");
	amc_script_http_req_free(&rq);

	/* a local server */
	int ls = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { 0 };
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t al = sizeof a;
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) != 0 || listen(ls, 16) != 0 ||
	    getsockname(ls, (struct sockaddr *)&a, &al) != 0) {
		ok(0, "cannot start the local server");
		return done_testing();
	}
	port = ntohs(a.sin_port);
	pthread_t th;
	pthread_create(&th, NULL, server, &ls);
	pthread_detach(th);

	char *j = req_json("GET", "/json", NULL);
	char *ans = amc_script_http_do(NULL, j, strlen(j), 0);
	like(ans, "\"ok\":true,\"status\":200", "amc makes the request");
	like(ans, "\"x-test\":\"yes\"", "headers, names in lower case");
	like(ans, "{\\\"name\\\":\\\"amc\\\"", "the body");
	free(ans);
	ans = amc_script_http_do("", j, strlen(j), 0);
	like(ans, "\"error\":\"http: the host 127.0.0.1 is not allowed", "a fleet payload reaches no host");
	like(ans, "fleet payload", "saying why");
	free(ans);
	ans = amc_script_http_do("127.0.0.1", j, strlen(j), 0);
	like(ans, "\"status\":200", "an allowed host");
	free(ans);
	ans = amc_script_http_do("example.com", j, strlen(j), 0);
	like(ans, "not in the run's list", "a host not in the list");
	free(ans);
	free(j);
	j = req_json("GET", "/big", NULL);
	ans = amc_script_http_do(NULL, j, strlen(j), 0);
	like(ans, "\"error\":\"http: the response is larger than 262144 bytes\"", "an answer too large");
	free(ans);
	free(j);
	j = req_json("GET", "/slow", NULL);
	ans = amc_script_http_do(NULL, j, strlen(j), 300);
	like(ans, "\"error\":\"http: ", "a request over its time limit");
	like(ans, "timed out", "timed out");
	free(ans);
	free(j);
	j = req_json("GET", "/redirect", NULL);
	ans = amc_script_http_do(NULL, j, strlen(j), 0);
	like(ans, "\"status\":200", "a redirect followed when any host is allowed");
	free(ans);
	ans = amc_script_http_do("127.0.0.1", j, strlen(j), 0);
	like(ans, "\"status\":302", "not followed under a list of hosts");
	free(ans);
	free(j);

	/* the bridge: a script in amc-js */
	const char *h = getenv("AMC_JS");
	amc_script *s;
	if (amc_script_open(h && *h ? h : AMC_ABS_BUILDDIR "/amc-js", NULL, &s, &e) != 0) {
		ok(0, "open: %s", e.msg);
		return done_testing();
	}
	char *r = ev(s, "const r = http.get(`${URL}/json`);\n"
		     "`${json(r.body).name} ${r.json().n} ${r.status} ${r.ok} ${r.headers['x-test']}`", &e);
	is_str(r, "amc 3 200 true yes", "http.get, json(), response.json(), status, ok, headers");
	free(r);
	r = ev(s, "http.post(URL + '/echo', { body: { a: 1 }, headers: { 'X-H': 'v' } }).body", &e);
	is_str(r, "POST /echo {\"a\":1} v", "http.post with an object body and a header");
	free(r);
	r = ev(s, "const p = http.put(URL + '/echo', { body: 'x' }); p.status + ' ' + p.body", &e);
	is_str(r, "201 PUT /echo x ", "http.put");
	free(r);
	r = ev(s, "http.delete(URL + '/echo').body + '|' + http.request(URL + '/echo', { method: 'patch', body: 'y' }).body", &e);
	is_str(r, "DELETE /echo  |PATCH /echo y ", "http.delete and http.request with a method");
	free(r);
	r = ev(s, "const n = http.get(URL + '/missing'); `${n.status} ${n.ok}`", &e);
	is_str(r, "404 false", "an error status is an answer, not an exception");
	free(r);
	r = ev(s, "http.get('file:///etc/passwd').body", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "file:// refused");
	like(e.msg, "http:// or https://", "saying which schemes");
	amc_script_set_timeout(s, 1000);
	r = ev(s, "http.get(URL + '/slow').body", &e);
	is_str(r, "slow", "the time amc spends on a request is not the script's (1.5 s answer, 1 s limit)");
	free(r);
	amc_script_set_timeout(s, 0);
	amc_script_set_http_hosts(s, "");
	r = ev(s, "http.get(URL + '/json').body", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "under the fleet policy a script's request fails");
	like(e.msg, "is not allowed for this run", "with the policy's reason");
	r = ev(s, "let m; try { http.get(URL + '/json'); } catch (x) { m = 'caught' } m", &e);
	is_str(r, "caught", "as an exception the script can catch");
	free(r);
	is_int(amc_script_spawns(s), 1, "all of it in one engine process");
	amc_script_close(s);
	return done_testing();
}
