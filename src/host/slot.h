/* slot.h - one device of a fleet host: claim, run, renew, finish.
 *
 * A slot is a thread that owns one device. When woken (NOTIFY, the slow poll)
 * it claims the best queued assignment for its device kind
 * (amc_fleet.claim: FOR UPDATE SKIP LOCKED, an attempt row with a fresh
 * fencing token and a lease from the database clock), checks the payload,
 * prepares it through the launch module with source_task_id = the
 * assignment id and source_attempt = the attempt number (seed 000 D2), and
 * runs it with amc_launch_run on its own store connection (a task that cannot
 * start is recorded failed there and the attempt fails with the same reason).
 * The local task's id is written to the attempt once its row exists.
 *
 * From before the device opens to the task's end, a renewal thread renews
 * the lease every third of it (or fleet.renew_s, the shorter) in one fenced
 * UPDATE that also writes the latest progress {step_index, step_status,
 * summary} (D6: only the latest snapshot, from a holder the run's events
 * fill; masked like the local store) and learns whether the assignment was
 * cancelled. It self-fences: the lease is taken to end lease_s after the
 * claim or the last successful renewal was SENT (not answered), by this
 * host's monotonic clock (lease.h); when that passes without a
 * renewal, or a renewal matches no row (the reaper took the attempt), the
 * task is interrupted at once with "lease lost" and its finished steps stay
 * in the local store. The end of the attempt is written through
 * amc_fleet.finish, fenced the same way, so a late answer is rejected.
 * Planner decisions (fleet.decisions = on) go through the runner's decision
 * sink (D7). Every statement of a slot (claim, renewal, progress, decision,
 * end) runs on the host's one shared connection (hostdb.h), renewals first. */
#ifndef AMC_FLEET_SLOT_H
#define AMC_FLEET_SLOT_H

#include "fleet/latency.h"
#include "host/hostdb.h"
#include <stdatomic.h>
#include "util/config.h"
#include "util/err.h"

typedef struct amc_slot_cfg {
	const char *url;         /* the fleet database */
	amc_hostdb *db;          /* the host's connection, shared by its slots (not owned) */
	const char *home;        /* $AMC_HOME: the slot opens its own store */
	const amc_config *cfg;
	long long host_id;
	const char *label;       /* the host's label (--name) */
	const char *device;      /* canonical device id, e.g. "sim:0" */
	const char *kind;        /* "sim", "adb", "appium" */
	int lease_s, renew_s, poll_s;
	int decisions;           /* fleet.decisions = on */
} amc_slot_cfg;

/* What a slot counted, for the host's summary and the load test. */
typedef struct amc_slot_stats {
	long claims;             /* assignments claimed */
	long empty_claims;       /* claims that found nothing */
	long renewals;           /* successful renewals */
	long finished;           /* attempts ended and accepted */
	long rejected;           /* ends the fleet refused (lease lost) */
	long late;               /* of those, ends of tasks that had ended here: kept as late in the fleet */
	long lost;               /* leases lost */
	double *claim_ms;        /* latency of each successful claim (owned by the slot) */
	size_t nclaim_ms;
	amc_latency claim_lat, end_lat; /* every claim's and end's, filled by amc_slot_stop */
} amc_slot_stats;

typedef struct amc_slot amc_slot;

/* Start the slot's thread (it copies cfg's strings). */
int amc_slot_start(const amc_slot_cfg *cfg, amc_slot **out, amc_err *e);
/* Work may be queued: claim now. */
void amc_slot_wake(amc_slot *s);
/* The assignment was asked to be cancelled: when this slot runs it, renew
 * now (the renewal's answer carries the cancel). */
void amc_slot_cancel_hint(amc_slot *s, long long assignment_id);
/* Claim nothing more; a running task goes on. */
void amc_slot_drain(amc_slot *s);
/* 1 while an assignment runs. */
int amc_slot_busy(amc_slot *s);
/* Hand the running assignment back: the task is interrupted and the
 * attempt ends `released` (the assignment is queued again, and this attempt
 * does not count toward max_attempts). */
void amc_slot_release(amc_slot *s, const char *why);
/* Join the thread (after amc_slot_drain, and amc_slot_release or the task's
 * end) and copy its counts to *st (the claim_ms array passes to the caller:
 * free it). Frees s. */
void amc_slot_stop(amc_slot *s, amc_slot_stats *st);

/* Add this slot's claim and end latencies (latency.h) to *claim and *end
 * (the host's heartbeat reports their sum over its slots). Thread-safe. */
void amc_slot_latency(amc_slot *s, amc_latency *claim, amc_latency *end);

/* Valid UTF-8 without NUL, at most max bytes (cut at a character boundary):
 * what text must be before it goes to PostgreSQL. malloc'd. */
char *amc_fleet_text(const char *s, size_t max);

#endif
