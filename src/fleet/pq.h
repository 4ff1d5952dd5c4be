/* pq.h - the fleet's thin layer over libpq.
 *
 * Every connection amc opens goes through here so that (1) a URL is never
 * shown with its password (amc_pq_redact), (2) every wait on the server has a
 * bound (queries run with PQsendQueryParams and a poll() on the socket, so a
 * server that went away costs at most the timeout, never a hung host), and
 * (3) the TUI can connect without blocking (amc_pq_start / amc_pq_step with
 * the socket in its own poll loop). Passwords come from libpq's usual places
 * (PGPASSFILE, ~/.pgpass, PGPASSWORD, or the URL itself); amc never stores,
 * logs or prints one. TLS is whatever the URL's sslmode and friends say
 * (sslmode=verify-full with sslrootcert checks the server's certificate and
 * name). Error texts from the server are untrusted: they are made one safe
 * line before they reach an amc_err. */
#ifndef AMC_FLEET_PQ_H
#define AMC_FLEET_PQ_H

#include <stddef.h>
#include <libpq-fe.h>
#include "util/err.h"

/* Longest connection string amc accepts. */
#define AMC_PQ_URL_MAX 4096
/* Default bound on one connection attempt and one query, in ms. */
#define AMC_PQ_CONNECT_TIMEOUT_MS 10000
#define AMC_PQ_QUERY_TIMEOUT_MS 30000

/* The URL with any password replaced by "***" (URI user:PASS@ and
 * password=... / ?password=... forms). Always NUL-terminated. */
void amc_pq_redact(const char *url, char *out, size_t n);

/* fleet.require_tls (issue 26; on by default): a connection to any host that
 * is not a Unix socket or loopback gets sslmode=require in its parameters
 * before connecting when the URL, PGSSLMODE or the PGSERVICE entry says
 * nothing stronger (prefer or unset), and is refused when they say disable
 * or allow, or when the URL names a service and no sslmode (what the service
 * file says is not known before connecting). Process-wide; the CLI sets it
 * from the configuration. */
void amc_pq_set_require_tls(int on);

/* The decision for one URL (multi-host lists, host/hostaddr, the
 * environment and PGSERVICE via PQconndefaults): 0 with force = the sslmode
 * to add ("" nothing) and *offhost = 1 when a host is not local; -1 with e
 * (AMC_EUSAGE, naming fleet.require_tls) when the connection is refused. */
int amc_pq_tls_plan(const char *url, int require, char *force, size_t n, int *offhost, amc_err *e);

/* One terminal-safe line on c's transport: TLS or not, its protocol, the
 * sslmode and whether the server's certificate was verified. */
void amc_pq_tls_describe(PGconn *c, char *out, size_t n);

/* Connect (blocking, at most timeout_ms; <= 0: the default) and set
 * application_name=amc. 0 with *out (PQfinish it); -1 with e naming the
 * redacted URL and libpq's reason (AMC_EENV). */
int amc_pq_connect(const char *url, int timeout_ms, PGconn **out, amc_err *e);

/* Non-blocking connect for a poll loop: start returns the connection (or
 * NULL with e set); then call amc_pq_step whenever its socket
 * (PQsocket) is ready for what *want says (1 read, 2 write): it returns 1
 * when connected, 0 to keep waiting, -1 on failure (e set). */
PGconn *amc_pq_start(const char *url, amc_err *e);
int amc_pq_step(PGconn *c, int *want, amc_err *e);

/* Run one statement with text parameters (NULL: SQL NULL), waiting at most
 * timeout_ms (<= 0: the default). 0 with *res (PQclear it; may be NULL when
 * res is NULL: the result is dropped); -1 with e: AMC_EENV when the
 * connection broke or timed out (*broken = 1: reconnect before reuse), else
 * AMC_EUSAGE/AMC_EFAIL with the server's message. */
int amc_pq_exec(PGconn *c, const char *sql, int nparams, const char *const *params, int timeout_ms,
		PGresult **res, int *broken, amc_err *e);
/* The same for several statements without parameters (schema scripts). */
int amc_pq_script(PGconn *c, const char *sql, amc_err *e);

/* Value of row r, column `name` of a result, NULL when SQL NULL. */
const char *amc_pq_get(const PGresult *res, int r, const char *name);
long long amc_pq_getll(const PGresult *res, int r, const char *name, long long def);

/* Wait up to timeout_ms for a notification on c (LISTEN must have been run).
 * 1: *channel and *payload (malloc'd, terminal-safe) filled; 0: none came;
 * -1: the connection broke (e set). */
int amc_pq_wait_notify(PGconn *c, int timeout_ms, char **channel, char **payload, amc_err *e);

/* libpq's message of the connection, one safe line. */
void amc_pq_errmsg(PGconn *c, char *out, size_t n);

#endif
