/* hostdb.h - the one database connection that all the slots (devices) of a
 * fleet host share (issue 26: at most two connections per host whatever its
 * number of devices: this one for claims, renewals, progress, decisions and
 * ends; the host's session connection for LISTEN, heartbeats and the reaper).
 *
 * One statement at a time: a caller takes the connection, runs its
 * statement, gives it back. Callers state a priority: a waiting renewal
 * (AMC_HOSTDB_RENEW) goes before any end, progress or decision
 * (AMC_HOSTDB_END), which go before claims (AMC_HOSTDB_CLAIM), so a queue
 * of slow claims or ends never starves a lease. Every wait is bounded: the
 * wait for the connection counts against the caller's timeout, and a caller
 * that does not get it in time fails (AMC_EENV) as a query that timed out
 * would. The lease logic stays safe with it: a host's self-fence deadline
 * counts from when a renewal was handed here (before any wait), so waiting
 * can make a host stop earlier, never later than the database's lease.
 * A broken connection is closed; the next caller connects again (bounded
 * by its own timeout). Thread-safe. */
#ifndef AMC_HOST_HOSTDB_H
#define AMC_HOST_HOSTDB_H

#include <libpq-fe.h>
#include "util/err.h"

typedef enum amc_hostdb_prio {
	AMC_HOSTDB_RENEW = 0,  /* renewals (and the local id they publish) */
	AMC_HOSTDB_END = 1,    /* ends, progress, decisions */
	AMC_HOSTDB_CLAIM = 2,  /* claims */
	AMC_HOSTDB_NPRIO = 3
} amc_hostdb_prio;

typedef struct amc_hostdb amc_hostdb;

/* A shared connection to url (copied), opened on first use. Free with
 * amc_hostdb_free once no caller is left. */
amc_hostdb *amc_hostdb_new(const char *url);
void amc_hostdb_free(amc_hostdb *d);

/* amc_pq_exec on the shared connection: at most timeout_ms (<= 0: the
 * default query bound) in all, the wait for the connection included.
 * 0 with *res (PQclear it; may be NULL when res is NULL); -1 with e. */
int amc_hostdb_exec(amc_hostdb *d, amc_hostdb_prio prio, const char *sql, int nparams,
		    const char *const *params, int timeout_ms, PGresult **res, amc_err *e);

/* What the connection did, for tests and the host's summary: statements
 * run, connections opened, and the longest wait for the connection (ms) of
 * each priority. */
typedef struct amc_hostdb_stats {
	long statements, connects;
	double max_wait_ms[AMC_HOSTDB_NPRIO];
} amc_hostdb_stats;
void amc_hostdb_get_stats(amc_hostdb *d, amc_hostdb_stats *out);

#endif
