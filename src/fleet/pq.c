/* pq.c - libpq with bounded waits and redacted URLs (see pq.h). */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fleet/pq.h"
#include "util/log.h"
#include "util/clock.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* Copy s[0..len) to sb, and "***" in place of every password value. */
void amc_pq_redact(const char *url, char *out, size_t n)
{
	if (!n)
		return;
	amc_sb sb;
	amc_sb_init(&sb);
	const char *s = url ? url : "";
	/* URI: scheme://user:PASSWORD@host */
	const char *auth = strstr(s, "://");
	const char *p = s;
	if (auth) {
		auth += 3;
		size_t alen = strcspn(auth, "/?#");
		const char *at = NULL;
		for (size_t i = 0; i < alen; i++)
			if (auth[i] == '@')
				at = auth + i;
		const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
		if (colon) {
			amc_sb_append(&sb, s, (size_t)(colon + 1 - s));
			amc_sb_puts(&sb, "***");
			p = at;
		}
	}
	/* password=VALUE (key/value form or a URI parameter), any case */
	while (*p) {
		if (!strncasecmp(p, "password", 8) && (p == s || !isalnum((unsigned char)p[-1]))) {
			const char *q = p + 8;
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == '=') {
				q++;
				while (*q == ' ' || *q == '\t')
					q++;
				amc_sb_append(&sb, p, (size_t)(q - p));
				if (*q == '\'') {
					for (q++; *q && *q != '\''; q++)
						if (*q == '\\' && q[1])
							q++;
					if (*q)
						q++;
				} else {
					while (*q && !isspace((unsigned char)*q) && *q != '&')
						q++;
				}
				amc_sb_puts(&sb, "***");
				p = q;
				continue;
			}
		}
		amc_sb_putc(&sb, *p++);
	}
	amc_sb sane;
	amc_sb_init(&sane);
	amc_sanitize_line(amc_sb_str(&sb), sb.len, &sane);
	snprintf(out, n, "%s", amc_sb_str(&sane));
	amc_sb_free(&sb);
	amc_sb_free(&sane);
}

static void safe_line(const char *in, char *out, size_t n)
{
	amc_sb sb;
	amc_sb_init(&sb);
	const char *s = in ? in : "";
	size_t len = strlen(s);
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	amc_sanitize_line(s, len, &sb);
	snprintf(out, n, "%s", amc_sb_str(&sb));
	amc_sb_free(&sb);
}

void amc_pq_errmsg(PGconn *c, char *out, size_t n)
{
	safe_line(c ? PQerrorMessage(c) : "out of memory", out, n);
}

static int require_tls; /* defined below */

static int conn_fail(PGconn *c, const char *url, amc_err *e)
{
	char red[512], msg[600], force[16] = "";
	int off = 0;
	amc_err pe;
	amc_pq_redact(url, red, sizeof red);
	amc_pq_errmsg(c, msg, sizeof msg);
	if (require_tls && amc_pq_tls_plan(url, 1, force, sizeof force, &off, &pe) != 0)
		force[0] = 0;
	return amc_err_set(e, AMC_EENV, "cannot connect to the fleet database %s: %s%s", red, msg[0] ? msg : "unknown reason",
			   force[0] ? " (fleet.require_tls is on and the host is not local, so amc asked for "
				      "sslmode=require: give the server TLS, or set fleet.require_tls = off)"
				    : "");
}

/* fleet.require_tls (issue 26); on unless the CLI says otherwise. */
static int require_tls = 1;

void amc_pq_set_require_tls(int on)
{
	require_tls = on != 0;
}

/* sslmode's strength: -1 unknown. */
static int ssl_rank(const char *m)
{
	static const char *const modes[] = { "disable", "allow", "prefer", "require", "verify-ca", "verify-full" };
	for (int i = 0; m && i < 6; i++)
		if (!strcmp(m, modes[i]))
			return i;
	return -1;
}

/* One host or hostaddr entry: a Unix socket (a path, @abstract or the
 * default socket when empty) or loopback. */
static int local_entry(const char *h, size_t len)
{
	while (len && (*h == ' ' || *h == '\t'))
		h++, len--;
	while (len && (h[len - 1] == ' ' || h[len - 1] == '\t'))
		len--;
	if (!len || h[0] == '/' || h[0] == '@')
		return 1;
	char b[256];
	if (len >= sizeof b)
		return 0;
	memcpy(b, h, len);
	b[len] = 0;
	if (!strcasecmp(b, "localhost") || !strcmp(b, "::1") || !strcmp(b, "[::1]"))
		return 1;
	/* 127.0.0.0/8, written as dotted digits only */
	if (!strncmp(b, "127.", 4) && strspn(b, "0123456789.") == len)
		return 1;
	return 0;
}

/* All entries of a comma-separated host list local; *first_off gets the
 * first one that is not. */
static int local_list(const char *list, char *first_off, size_t n)
{
	const char *p = list ? list : "";
	for (;;) {
		size_t len = strcspn(p, ",");
		if (!local_entry(p, len)) {
			snprintf(first_off, n, "%.*s", (int)(len < 200 ? len : 200), p);
			return 0;
		}
		if (!p[len])
			return 1;
		p += len + 1;
	}
}

static const char *opt_val(const PQconninfoOption *o, const char *key)
{
	for (; o && o->keyword; o++)
		if (!strcmp(o->keyword, key))
			return o->val && *o->val ? o->val : NULL;
	return NULL;
}

int amc_pq_tls_plan(const char *url, int require, char *force, size_t n, int *offhost, amc_err *e)
{
	if (n)
		force[0] = 0;
	*offhost = 0;
	char *perr = NULL;
	PQconninfoOption *u = PQconninfoParse(url ? url : "", &perr);
	if (!u) {
		char msg[300];
		safe_line(perr ? perr : "out of memory", msg, sizeof msg);
		PQfreemem(perr);
		return amc_err_set(e, AMC_EUSAGE, "the fleet database URL does not parse: %s", msg);
	}
	/* libpq's defaults: the environment (PGHOST, PGHOSTADDR, PGSSLMODE) and
	 * the PGSERVICE entry of the service file */
	PQconninfoOption *d = PQconndefaults();
	const char *service = opt_val(u, "service");
	const char *host = opt_val(u, "host"), *addr = opt_val(u, "hostaddr"), *mode = opt_val(u, "sslmode");
	int unknown_host = 0, unknown_mode = 0;
	if (!host && !addr) {
		if (service)
			unknown_host = 1; /* what a service named in the URL says is not known before connecting */
		else
			host = opt_val(d, "host"), addr = opt_val(d, "hostaddr");
	}
	if (!mode) {
		if (service)
			unknown_mode = 1;
		else
			mode = opt_val(d, "sslmode");
	}
	if (!mode && !unknown_mode)
		mode = "prefer"; /* libpq's compiled-in default */
	char off[256] = "";
	int is_off = unknown_host || !local_list(host, off, sizeof off) || !local_list(addr, off, sizeof off);
	if (unknown_host)
		snprintf(off, sizeof off, "of service %.100s", service);
	int rc = 0;
	*offhost = is_off;
	if (require && is_off) {
		int r = ssl_rank(mode);
		if (unknown_mode) {
			rc = amc_err_set(e, AMC_EUSAGE,
					 "fleet.require_tls is on and the URL names service %.100s, whose sslmode amc cannot "
					 "see before connecting: add sslmode=verify-full (or require) to the URL, or set "
					 "fleet.require_tls = off to allow plaintext",
					 service);
		} else if (r >= 0 && r < 2) {
			rc = amc_err_set(e, AMC_EUSAGE,
					 "fleet.require_tls is on and the fleet database host %s is not a Unix socket or "
					 "loopback: sslmode=%s would send the password and data in plaintext; use "
					 "sslmode=verify-full with sslrootcert, or set fleet.require_tls = off",
					 off, mode);
		} else if (r == 2 || r < 0) {
			snprintf(force, n, "require"); /* never fall back to plaintext */
		}
	}
	PQconninfoFree(u);
	PQconninfoFree(d);
	return rc;
}

void amc_pq_tls_describe(PGconn *c, char *out, size_t n)
{
	const char *mode = NULL;
	PQconninfoOption *o = PQconninfo(c);
	mode = opt_val(o, "sslmode");
	char m[32];
	snprintf(m, sizeof m, "%s", mode ? mode : "prefer");
	PQconninfoFree(o);
	const char *h = PQhost(c);
	char where[160];
	safe_line(h && *h ? h : "the default socket", where, sizeof where);
	if (!PQsslInUse(c)) {
		snprintf(out, n, "no TLS to %s (%s; sslmode=%s)", where,
			 local_entry(where, strlen(where)) ? "a Unix socket or loopback" : "NOT local: plaintext", m);
		return;
	}
	char proto[40];
	safe_line(PQsslAttribute(c, "protocol"), proto, sizeof proto);
	const char *ver = !strcmp(m, "verify-full") ? "server certificate verified (CA and host name)"
			  : !strcmp(m, "verify-ca") ? "server certificate verified (CA only, host name not checked)"
						    : "server certificate NOT verified";
	snprintf(out, n, "TLS (%s) to %s, %s, sslmode=%s", proto[0] ? proto : "?", where, ver, m);
}

PGconn *amc_pq_start(const char *url, amc_err *e)
{
	if (!url || !*url) {
		amc_err_set(e, AMC_EUSAGE, "no fleet database: set fleet.url (amc config) or AMC_FLEET_URL");
		return NULL;
	}
	if (strlen(url) > AMC_PQ_URL_MAX) {
		amc_err_set(e, AMC_EUSAGE, "the fleet database URL is longer than %d bytes", AMC_PQ_URL_MAX);
		return NULL;
	}
	/* fleet.require_tls: sslmode decided before a byte is sent */
	char force[16];
	int offhost;
	if (amc_pq_tls_plan(url, require_tls, force, sizeof force, &offhost, e) != 0)
		return NULL;
	/* Our defaults first: anything the URL says wins over them; a forced
	 * sslmode comes after the URL and wins over it. */
	const char *keys[] = { "application_name", "connect_timeout", "dbname", force[0] ? "sslmode" : NULL, NULL };
	const char *vals[] = { "amc", "10", url, force[0] ? force : NULL, NULL };
	PGconn *c = PQconnectStartParams(keys, vals, 1);
	if (!c || PQstatus(c) == CONNECTION_BAD) {
		conn_fail(c, url, e);
		PQfinish(c);
		return NULL;
	}
	return c;
}

int amc_pq_step(PGconn *c, int *want, amc_err *e)
{
	switch (PQconnectPoll(c)) {
	case PGRES_POLLING_OK:
		*want = 0;
		return 1;
	case PGRES_POLLING_READING:
		*want = 1;
		return 0;
	case PGRES_POLLING_WRITING:
		*want = 2;
		return 0;
	default: {
		char msg[600];
		amc_pq_errmsg(c, msg, sizeof msg);
		return amc_err_set(e, AMC_EENV, "cannot connect to the fleet database: %s", msg);
	}
	}
}

/* Server notices (NOTICE: ... already exists) go to amc's log, made one safe
 * line, never to the terminal. */
static void notice_to_log(void *arg, const char *msg)
{
	(void)arg;
	char line[600];
	safe_line(msg, line, sizeof line);
	amc_log_info("fleet database: %s", line);
}

int amc_pq_connect(const char *url, int timeout_ms, PGconn **out, amc_err *e)
{
	*out = NULL;
	if (timeout_ms <= 0)
		timeout_ms = AMC_PQ_CONNECT_TIMEOUT_MS;
	PGconn *c = amc_pq_start(url, e);
	if (!c)
		return -1;
	long long deadline = amc_mono_ms() + timeout_ms;
	int want = 2;
	for (;;) {
		amc_err se;
		int r = amc_pq_step(c, &want, &se);
		if (r == 1)
			break;
		if (r < 0) {
			conn_fail(c, url, e);
			PQfinish(c);
			return -1;
		}
		long long left = deadline - amc_mono_ms();
		if (left <= 0) {
			char red[512];
			amc_pq_redact(url, red, sizeof red);
			PQfinish(c);
			return amc_err_set(e, AMC_EENV, "cannot connect to the fleet database %s: no answer within %d ms",
					   red, timeout_ms);
		}
		struct pollfd pfd = { PQsocket(c), want == 1 ? POLLIN : POLLOUT, 0 };
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR) {
			PQfinish(c);
			return amc_err_set(e, AMC_EENV, "cannot connect to the fleet database: poll: %s", strerror(errno));
		}
	}
	PQsetNoticeProcessor(c, notice_to_log, NULL);
	*out = c;
	return 0;
}

/* Wait until c has a whole result (or timeout/broken). 0 ready, -1 not. */
static int wait_ready(PGconn *c, long long deadline, int *broken, amc_err *e)
{
	while (PQisBusy(c)) {
		long long left = deadline - amc_mono_ms();
		if (left <= 0) {
			*broken = 1;
			return amc_err_set(e, AMC_EENV, "the fleet database did not answer in time");
		}
		struct pollfd pfd = { PQsocket(c), POLLIN, 0 };
		int pr = poll(&pfd, 1, (int)left);
		if (pr < 0 && errno != EINTR) {
			*broken = 1;
			return amc_err_set(e, AMC_EENV, "the fleet database connection failed: poll: %s", strerror(errno));
		}
		if (pr > 0 && !PQconsumeInput(c)) {
			char msg[600];
			amc_pq_errmsg(c, msg, sizeof msg);
			*broken = 1;
			return amc_err_set(e, AMC_EENV, "the fleet database connection broke: %s", msg);
		}
	}
	return 0;
}

static int result_err(PGconn *c, PGresult *r, int *broken, amc_err *e)
{
	char msg[800];
	safe_line(r ? PQresultErrorMessage(r) : PQerrorMessage(c), msg, sizeof msg);
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	int code = AMC_EFAIL;
	if (PQstatus(c) == CONNECTION_BAD || (state && !strncmp(state, "08", 2)) || (state && !strncmp(state, "57P", 3))) {
		*broken = 1;
		code = AMC_EENV;
	} else if (state && (!strncmp(state, "42501", 5) || !strncmp(state, "28", 2))) {
		code = AMC_EENV; /* permission: the role or policy refused */
	}
	return amc_err_set(e, code, "fleet database: %s", msg[0] ? msg : "unknown error");
}

int amc_pq_exec(PGconn *c, const char *sql, int nparams, const char *const *params, int timeout_ms,
		PGresult **res, int *broken, amc_err *e)
{
	int dummy = 0;
	if (!broken)
		broken = &dummy;
	if (res)
		*res = NULL;
	if (timeout_ms <= 0)
		timeout_ms = AMC_PQ_QUERY_TIMEOUT_MS;
	if (!c || PQstatus(c) != CONNECTION_OK) {
		*broken = 1;
		return amc_err_set(e, AMC_EENV, "no connection to the fleet database");
	}
	long long deadline = amc_mono_ms() + timeout_ms;
	if (!PQsendQueryParams(c, sql, nparams, NULL, params, NULL, NULL, 0))
		return result_err(c, NULL, broken, e);
	PGresult *last = NULL;
	int failed = 0;
	for (;;) {
		if (wait_ready(c, deadline, broken, e) != 0) {
			PQclear(last);
			return -1;
		}
		PGresult *r = PQgetResult(c);
		if (!r)
			break;
		ExecStatusType st = PQresultStatus(r);
		if (!failed && st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
			failed = 1;
			result_err(c, r, broken, e);
		}
		PQclear(last);
		last = r;
	}
	if (failed || !last) {
		if (!failed)
			result_err(c, NULL, broken, e);
		PQclear(last);
		return -1;
	}
	if (res)
		*res = last;
	else
		PQclear(last);
	return 0;
}

int amc_pq_script(PGconn *c, const char *sql, amc_err *e)
{
	/* PQexec runs a multi-statement string as one implicit transaction. */
	PGresult *r = PQexec(c, sql);
	ExecStatusType st = PQresultStatus(r);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		int broken = 0;
		result_err(c, r, &broken, e);
		PQclear(r);
		return -1;
	}
	PQclear(r);
	return 0;
}

const char *amc_pq_get(const PGresult *res, int r, const char *name)
{
	int col = PQfnumber(res, name);
	if (col < 0 || r >= PQntuples(res) || PQgetisnull(res, r, col))
		return NULL;
	return PQgetvalue(res, r, col);
}

long long amc_pq_getll(const PGresult *res, int r, const char *name, long long def)
{
	const char *v = amc_pq_get(res, r, name);
	return v ? strtoll(v, NULL, 10) : def;
}

int amc_pq_wait_notify(PGconn *c, int timeout_ms, char **channel, char **payload, amc_err *e)
{
	*channel = *payload = NULL;
	long long deadline = amc_mono_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
	for (;;) {
		if (!PQconsumeInput(c)) {
			char msg[600];
			amc_pq_errmsg(c, msg, sizeof msg);
			return amc_err_set(e, AMC_EENV, "the fleet database connection broke: %s", msg);
		}
		PGnotify *n = PQnotifies(c);
		if (n) {
			*channel = amc_sanitize_dup(n->relname);
			*payload = amc_sanitize_dup(n->extra ? n->extra : "");
			PQfreemem(n);
			return 1;
		}
		long long left = deadline - amc_mono_ms();
		if (left <= 0)
			return 0;
		struct pollfd pfd = { PQsocket(c), POLLIN, 0 };
		if (pfd.fd < 0)
			return amc_err_set(e, AMC_EENV, "no connection to the fleet database");
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
			return amc_err_set(e, AMC_EENV, "the fleet database connection failed: poll: %s", strerror(errno));
	}
}
