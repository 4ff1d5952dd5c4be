/* mcptest.h - `amc mcp`'s server (src/mcp/server.c) run in-process for the
 * MCP unit tests: on a thread, its stdin and stdout pipes held by the test,
 * which writes request lines and reads the answers by id (bounded waits). */
#ifndef AMC_MCPTEST_H
#define AMC_MCPTEST_H

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "mcp/jsonrpc.h"
#include "mcp/server.h"
#include "util/clock.h"
#include "util/strbuf.h"

typedef struct mt_server {
	pthread_t th;
	amc_mcp_opts o;
	int to_srv, from_srv;  /* the test's ends */
	int rc;
	amc_err e;
	amc_sb buf;            /* bytes read from the server not yet a line */
	cJSON *seen[256];      /* messages read, not yet taken */
	int nseen;
	atomic_int stop, left;
} mt_server;

static void *mt_main(void *arg)
{
	mt_server *m = arg;
	m->rc = amc_mcp_serve(&m->o, &m->e);
	fclose(m->o.in);
	fclose(m->o.out);
	return NULL;
}

/* Start a server on home with cfg; yes, idle and confirm as amc mcp's options. */
static inline void mt_start(mt_server *m, const char *home, const amc_config *cfg, int yes, long confirm_s)
{
	memset(m, 0, sizeof *m);
	int a[2], b[2];
	if (pipe(a) || pipe(b))
		abort();
	m->to_srv = a[1];
	m->from_srv = b[0];
	m->o.home = home;
	m->o.cfg = cfg;
	m->o.in = fdopen(a[0], "r");
	m->o.out = fdopen(b[1], "w");
	m->o.assume_yes = yes;
	m->o.confirm_s = confirm_s;
	m->o.stop = &m->stop;
	m->o.left = &m->left;
	amc_sb_init(&m->buf);
	pthread_create(&m->th, NULL, mt_main, m);
}

static inline void mt_send(mt_server *m, const char *line)
{
	size_t n = strlen(line);
	if (write(m->to_srv, line, n) != (ssize_t)n || write(m->to_srv, "\n", 1) != 1)
		abort();
}

/* Read what the server wrote, up to ms; 1 when a line came, 0 when none did,
 * -1 at end of output. */
static inline int mt_pump(mt_server *m, int ms)
{
	for (;;) {
		char *nl = m->buf.len ? memchr(m->buf.buf, '\n', m->buf.len) : NULL;
		if (nl) {
			size_t l = (size_t)(nl - m->buf.buf);
			cJSON *j = cJSON_ParseWithLength(m->buf.buf, l);
			memmove(m->buf.buf, nl + 1, m->buf.len - l - 1);
			m->buf.len -= l + 1;
			m->buf.buf[m->buf.len] = 0;
			if (m->nseen < 256)
				m->seen[m->nseen++] = j ? j : cJSON_CreateString("(not JSON)");
			else
				cJSON_Delete(j);
			return 1;
		}
		struct pollfd p = { m->from_srv, POLLIN, 0 };
		if (poll(&p, 1, ms) <= 0)
			return 0;
		char b[65536];
		ssize_t r = read(m->from_srv, b, sizeof b);
		if (r <= 0)
			return -1;
		amc_sb_append(&m->buf, b, (size_t)r);
	}
}

/* The answer to request `id` (a number), waiting up to ms; caller deletes it.
 * NULL when none came. */
static inline cJSON *mt_answer(mt_server *m, int id, int ms)
{
	long long until = amc_mono_ms() + ms;
	for (;;) {
		for (int i = 0; i < m->nseen; i++) {
			const cJSON *jid = cJSON_GetObjectItemCaseSensitive(m->seen[i], "id");
			if (cJSON_IsNumber(jid) && jid->valueint == id &&
			    !cJSON_GetObjectItemCaseSensitive(m->seen[i], "method")) {
				cJSON *j = m->seen[i];
				memmove(&m->seen[i], &m->seen[i + 1], (size_t)(m->nseen - i - 1) * sizeof m->seen[0]);
				m->nseen--;
				return j;
			}
		}
		long long left = until - amc_mono_ms();
		if (left <= 0 || mt_pump(m, (int)left) < 0)
			return NULL;
	}
}

/* A message with no id (an answer to an unparsable line), or NULL. */
static inline cJSON *mt_unnumbered(mt_server *m, int ms)
{
	long long until = amc_mono_ms() + ms;
	for (;;) {
		for (int i = 0; i < m->nseen; i++)
			if (!cJSON_GetObjectItemCaseSensitive(m->seen[i], "id") &&
			    !cJSON_GetObjectItemCaseSensitive(m->seen[i], "method")) {
				cJSON *j = m->seen[i];
				memmove(&m->seen[i], &m->seen[i + 1], (size_t)(m->nseen - i - 1) * sizeof m->seen[0]);
				m->nseen--;
				return j;
			}
		long long left = until - amc_mono_ms();
		if (left <= 0 || mt_pump(m, (int)left) < 0)
			return NULL;
	}
}

/* The error code of an answer (0: a result). */
static inline int mt_code(const cJSON *a)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(a, "error");
	return e ? cJSON_GetObjectItemCaseSensitive(e, "code")->valueint : 0;
}

/* initialize (with capabilities caps, JSON text) as id 1, then initialized. */
static inline cJSON *mt_init(mt_server *m, const char *version, const char *caps)
{
	char l[1024];
	snprintf(l, sizeof l, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
		 "\"%s\",\"capabilities\":%s,\"clientInfo\":{\"name\":\"unit\",\"version\":\"1.0\"}}}", version, caps);
	mt_send(m, l);
	mt_send(m, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
	return mt_answer(m, 1, 10000);
}

/* tools/call name(args JSON text) as request id; the result object (the
 * answer's "result", detached) or NULL; caller deletes it. */
static inline cJSON *mt_call(mt_server *m, int id, const char *name, const char *args, int ms)
{
	char *l = malloc(strlen(args) + 256);
	sprintf(l, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s}}",
		id, name, args);
	mt_send(m, l);
	free(l);
	cJSON *a = mt_answer(m, id, ms);
	cJSON *r = a ? cJSON_DetachItemFromObjectCaseSensitive(a, "result") : NULL;
	cJSON_Delete(a);
	return r;
}

/* The text of a CallToolResult's first content block. */
static inline const char *mt_text(const cJSON *r)
{
	const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "content"), 0);
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(c, "text");
	return cJSON_IsString(t) ? t->valuestring : "";
}

/* Close the server's input and wait for it; its return code. */
static inline int mt_stop(mt_server *m)
{
	close(m->to_srv);
	for (int i = 0; i < 120 && mt_pump(m, 1000) >= 0; i++)
		;
	pthread_join(m->th, NULL);
	close(m->from_srv);
	for (int i = 0; i < m->nseen; i++)
		cJSON_Delete(m->seen[i]);
	amc_sb_free(&m->buf);
	return m->rc;
}

#endif
