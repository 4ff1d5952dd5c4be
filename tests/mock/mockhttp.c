#define _GNU_SOURCE 1 /* POLLRDHUP */
#include "mockhttp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

struct mock_server {
	int fd;
	int port;
	int stop_pipe[2];
	pthread_t thread;
	mock_handler h;
	void *ud;
	pthread_mutex_t mu;
	int count;
	int quit;
};

const char *mock_header(const mock_req *rq, const char *name, char *buf, size_t n)
{
	size_t nl = strlen(name);
	for (const char *p = rq->headers; p && *p;) {
		const char *eol = strstr(p, "\r\n");
		if (!eol)
			break;
		if ((size_t)(eol - p) > nl && !strncasecmp(p, name, nl) && p[nl] == ':') {
			const char *v = p + nl + 1;
			while (*v == ' ')
				v++;
			size_t l = (size_t)(eol - v);
			if (l >= n)
				l = n - 1;
			memcpy(buf, v, l);
			buf[l] = 0;
			return buf;
		}
		p = eol + 2;
	}
	return NULL;
}

static void send_all(int fd, const char *d, size_t n)
{
	while (n) {
		ssize_t w = send(fd, d, n, MSG_NOSIGNAL);
		if (w <= 0)
			return;
		d += w;
		n -= (size_t)w;
	}
}

static void serve_one(mock_server *m, int c)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap + 1);
	char *hdr_end = NULL;
	size_t body_len = 0;
	for (;;) {
		if (len == cap) {
			/* the end of the headers as an offset: realloc may move buf
			 * (it always does under ASan, which found this) */
			size_t hoff = hdr_end ? (size_t)(hdr_end - buf) : 0;
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (hdr_end)
				hdr_end = buf + hoff;
		}
		struct pollfd p = { c, POLLIN, 0 };
		if (poll(&p, 1, 5000) <= 0)
			goto out;
		ssize_t r = recv(c, buf + len, cap - len, 0);
		if (r <= 0)
			goto out;
		len += (size_t)r;
		buf[len] = 0;
		if (!hdr_end && (hdr_end = strstr(buf, "\r\n\r\n")) != NULL) {
			const char *cl = NULL;
			for (char *q = buf; q < hdr_end; q++)
				if ((q == buf || q[-1] == '\n') && !strncasecmp(q, "content-length:", 15)) {
					cl = q + 15;
					break;
				}
			body_len = cl ? strtoul(cl, NULL, 10) : 0;
		}
		if (hdr_end && len >= (size_t)(hdr_end + 4 - buf) + body_len)
			break;
	}
	mock_req rq;
	memset(&rq, 0, sizeof rq);
	sscanf(buf, "%15s %511s", rq.method, rq.path);
	char *first_eol = strstr(buf, "\r\n");
	size_t hl = (size_t)(hdr_end + 2 - (first_eol + 2));
	rq.headers = malloc(hl + 1);
	memcpy(rq.headers, first_eol + 2, hl);
	rq.headers[hl] = 0;
	rq.body_len = body_len;
	rq.body = malloc(body_len + 1);
	memcpy(rq.body, hdr_end + 4, body_len);
	rq.body[body_len] = 0;

	mock_resp rs;
	memset(&rs, 0, sizeof rs);
	if (!strcmp(rq.path, "/quit")) {
		m->quit = 1;
		rs.body = strdup("{}");
	} else {
		m->h(m->ud, &rq, &rs);
	}
	pthread_mutex_lock(&m->mu);
	m->count++;
	pthread_mutex_unlock(&m->mu);
	if (rs.delay_ms > 0) {
		/* A slow server: give up early when told to stop or when the client
		 * hangs up (it timed out), so the next request is served at once. */
		struct pollfd p[2] = { { m->stop_pipe[0], POLLIN, 0 }, { c, POLLIN | POLLRDHUP, 0 } };
		if (poll(p, 2, (int)rs.delay_ms) > 0)
			rs.drop = 1;
	}
	if (!rs.drop) {
		const char *b = rs.body ? rs.body : "";
		char head[2048];
		int n = snprintf(head, sizeof head,
				 "HTTP/1.1 %d X\r\ncontent-type: application/json\r\ncontent-length: %zu\r\n"
				 "connection: close\r\nrequest-id: req_mock_%d\r\n%s\r\n",
				 rs.status ? rs.status : 200, strlen(b), m->count, rs.headers);
		send_all(c, head, (size_t)n);
		send_all(c, b, rs.cut ? strlen(b) / 2 : strlen(b));
	}
	free(rs.body);
	free(rq.headers);
	free(rq.body);
out:
	free(buf);
	shutdown(c, SHUT_RDWR);
	close(c);
}

static void *loop(void *arg)
{
	mock_server *m = arg;
	while (!m->quit) {
		struct pollfd p[2] = { { m->fd, POLLIN, 0 }, { m->stop_pipe[0], POLLIN, 0 } };
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		int c = accept(m->fd, NULL, NULL);
		if (c < 0)
			continue;
		serve_one(m, c);
	}
	return NULL;
}

static mock_server *mk(int port, mock_handler h, void *ud)
{
	mock_server *m = calloc(1, sizeof *m);
	m->h = h;
	m->ud = ud;
	pthread_mutex_init(&m->mu, NULL);
	m->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1;
	setsockopt(m->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t al = sizeof a;
	if (m->fd < 0 || bind(m->fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(m->fd, 16) != 0 ||
	    getsockname(m->fd, (struct sockaddr *)&a, &al) != 0 || pipe(m->stop_pipe) != 0) {
		if (m->fd >= 0)
			close(m->fd);
		free(m);
		return NULL;
	}
	m->port = ntohs(a.sin_port);
	return m;
}

mock_server *mock_start(int port, mock_handler h, void *ud)
{
	mock_server *m = mk(port, h, ud);
	if (!m)
		return NULL;
	if (pthread_create(&m->thread, NULL, loop, m) != 0) {
		close(m->fd);
		free(m);
		return NULL;
	}
	return m;
}

int mock_port(const mock_server *m)
{
	return m->port;
}

int mock_count(mock_server *m)
{
	pthread_mutex_lock(&m->mu);
	int n = m->count;
	pthread_mutex_unlock(&m->mu);
	return n;
}

void mock_stop(mock_server *m)
{
	if (!m)
		return;
	if (write(m->stop_pipe[1], "x", 1) < 0)
		perror("mock_stop");
	pthread_join(m->thread, NULL);
	close(m->fd);
	close(m->stop_pipe[0]);
	close(m->stop_pipe[1]);
	pthread_mutex_destroy(&m->mu);
	free(m);
}

int mock_serve_forever(int port, mock_handler h, void *ud, void (*on_ready)(int port, void *ud))
{
	mock_server *m = mk(port, h, ud);
	if (!m)
		return -1;
	if (on_ready)
		on_ready(m->port, ud);
	loop(m);
	close(m->fd);
	close(m->stop_pipe[0]);
	close(m->stop_pipe[1]);
	pthread_mutex_destroy(&m->mu);
	free(m);
	return 0;
}

void mock_record_handler(void *ud, const mock_req *rq, mock_resp *rs)
{
	mock_record *r = ud;
	r->n++;
	snprintf(r->last_method, sizeof r->last_method, "%s", rq->method);
	snprintf(r->last_path, sizeof r->last_path, "%s", rq->path);
	snprintf(r->last_headers, sizeof r->last_headers, "%s", rq->headers);
	snprintf(r->last_body, sizeof r->last_body, "%s", rq->body);
	rs->status = r->status;
	rs->body = strdup(r->body ? r->body : "{}");
}

void mock_record_reply(mock_record *r, int status, const char *body)
{
	memset(r, 0, sizeof *r);
	r->status = status;
	r->body = body;
}

long long mock_fake_now = 1000;
static long long fake_now_ms(void *ud) { (void)ud; return mock_fake_now; }
static void fake_sleep_ms(void *ud, long ms) { (void)ud; mock_fake_now += ms; }
static double fake_jitter(void *ud) { (void)ud; return 0.0; }
const amc_http_hooks MOCK_FAKE_HOOKS = { fake_now_ms, fake_sleep_ms, fake_jitter, NULL };
