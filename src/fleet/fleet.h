/* fleet.h - the fleet as its operator sees it: submit, list, show, cancel,
 * hosts, reap. Every function takes a connection the caller opened
 * (pq.h) with a checked schema (schema.h) and answers from SQL; times and
 * ages are computed by the database clock. Lists come back as cJSON (the
 * shape `--json` prints); text from the database is untrusted and must be
 * made terminal-safe by whoever shows it. */
#ifndef AMC_FLEET_H
#define AMC_FLEET_H

#include <cjson/cJSON.h>
#include <libpq-fe.h>
#include "util/config.h"
#include "util/err.h"
#include "util/strbuf.h"

/* Defaults of the [fleet] keys (config.c declares them with these values). */
#define AMC_FLEET_LEASE_S 30
#define AMC_FLEET_RENEW_S 10
#define AMC_FLEET_REAP_S 10
#define AMC_FLEET_REAP_GRACE_S 5
#define AMC_FLEET_MAX_ATTEMPTS 3

typedef struct amc_fleet_submit_req {
	const char *payload;     /* payload.h JSON text */
	const char *kind;        /* "flow" or "goal" */
	const char *title;       /* the goal or the flow's file name, for lists */
	const char *device_kind; /* "sim", "adb" or "appium"; NULL: sim */
	const char *host;        /* only a host with this label (--name) may claim it; NULL: any */
	int max_steps;           /* 0: the host's runner.max_steps */
	int max_attempts;        /* 0: AMC_FLEET_MAX_ATTEMPTS */
	int priority;            /* higher first */
	/* What a host must have to claim it ("agent=claude", "app=com.example";
	 * amc_fleet_need_ok each): only hosts stating all of these claim it. */
	const char *const *needs;
	size_t nneeds;
	/* Issue 26: a failed attempt is tried again up to `retries` times, after
	 * backoff_s (0: AMC_FLEET_BACKOFF_S) doubling each time, at most 600 s,
	 * unless a retry cannot fix it (a bad payload, a refused flow); max_attempts
	 * 0 then means AMC_FLEET_MAX_ATTEMPTS + retries. */
	int retries;
	double backoff_s;
	double timeout_s;        /* > 0: an attempt's wall-clock limit (host and reaper) */
	const char *not_before;  /* NULL, a timestamp PostgreSQL reads, or "+DURATION" (+30s, +5min) */
} amc_fleet_submit_req;

#define AMC_FLEET_BACKOFF_S 10.0

/* A --not-before value of plausible characters (PostgreSQL parses it). */
int amc_fleet_when_ok(const char *s);

/* At most this many needs per assignment, each at most this long. */
#define AMC_FLEET_NEEDS_MAX 16
#define AMC_FLEET_NEED_LEN 64

/* A need or a capability: KEY=VALUE of [a-z0-9_.:/-], the key starting with a
 * letter, at most AMC_FLEET_NEED_LEN bytes. 1 when well formed. */
int amc_fleet_need_ok(const char *s);
/* The needs (or capabilities) as a PostgreSQL array literal "{a=b,c=d}"
 * (every one amc_fleet_need_ok, so nothing needs quoting); malloc'd. */
char *amc_fleet_needs_literal(const char *const *v, size_t n);

/* The capabilities a host role may state (schema.c, version 3): caps
 * (KEY=VALUE, or KEY=* for any value) replace the role's grant; any = 1
 * removes it (the role is trusted with whatever it states). The operator's. */
int amc_fleet_grant(PGconn *c, const char *role, const char *const *caps, size_t n, int any, amc_err *e);

/* Queue an assignment; *id gets its id. */
int amc_fleet_submit(PGconn *c, const amc_fleet_submit_req *r, long long *id, amc_err *e);
/* Assignments, newest first (state NULL: all; limit <= 0: 100): an array of
 * {id, state, kind, title, device_kind, host, priority, attempts, max_attempts,
 *  created_at, finished_at, error, needs, last_host, last_device, waiting (why
 *  queued work is not claimed: its not-before time, or no live host that
 *  could claim it; else null), running:{host, device, step_index, step_status,
 *  summary, progress_age_s, lease_left_s} or null}. NULL with e. */
cJSON *amc_fleet_list(PGconn *c, const char *state, int limit, amc_err *e);
/* One assignment with "attempts" (every attempt: n, host, hostname, device,
 * state, started_at, finished_at, lease_left_s, progress (only while running),
 * error, local_task_id, inspect) and, with `decisions`, "decisions". NULL with
 * e (AMC_EUSAGE when there is no such assignment). */
cJSON *amc_fleet_show(PGconn *c, long long id, int decisions, amc_err *e);
/* Cancel: a queued assignment ends `cancelled` now; a leased one is asked to
 * stop (its host learns it through NOTIFY and its next renewal). *state
 * (16 bytes) gets the assignment's state after the call. */
int amc_fleet_cancel(PGconn *c, long long id, char *state, amc_err *e);
/* Hosts with their devices, last seen (seconds ago), status ("up",
 * "down": no heartbeat for down_after_s, "stopped") and what each device
 * runs now. NULL with e. */
cJSON *amc_fleet_hosts(PGconn *c, double down_after_s, amc_err *e);
/* The reaper once (schema.h): the number of attempts marked lost, -1 with
 * e. *busy = 1 when another reaper held the lock (nothing was done). */
int amc_fleet_reap(PGconn *c, double grace_s, long keep, long max_age_days, int *busy, amc_err *e);

/* The reaper by the settings stored in the database (amc_fleet.setting):
 * the only reaping a host role may do. Same results as amc_fleet_reap. */
int amc_fleet_reap_stored(PGconn *c, int *busy, amc_err *e);

/* Store the reaper's settings (grace >= 0, decision retention) for hosts:
 * the operator's, at `amc fleet init`. 0 or -1 with e. */
int amc_fleet_store_settings(PGconn *c, double grace_s, long keep, long max_age_days, amc_err *e);

/* Parse an assignment id ("17", also "#17"): 0 with *id, -1 with e. */
int amc_fleet_parse_id(const char *s, long long *id, amc_err *e);

/* The fleet's state in Prometheus' text format, appended to *out:
 * amc_fleet_assignments{state}, amc_fleet_attempts{state,reason},
 * amc_fleet_leases_lost, amc_fleet_late_ends, amc_fleet_hosts{status} (down:
 * no heartbeat for down_after_s). 0, or -1 with e. */
int amc_fleet_metrics(PGconn *c, double down_after_s, amc_sb *out, amc_err *e);
/* A host is shown `down` (status) when its last heartbeat is older than
 * this: callers pass three heartbeats, 3 x fleet.reap_s (hosts heartbeat
 * every reap_s); this is the fallback for down_after_s <= 0. */
#define AMC_FLEET_DOWN_AFTER_S 30.0
#endif
