/* slot.c - one device of a fleet host (see slot.h). Over 800 lines: the
 * claim, run, renew and fenced end of one attempt share the attempt and the
 * lease state; the end with its outage retries is what would move out. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device/device.h"
#include "fleet/latency.h"
#include "host/hostdb.h"
#include "host/lease.h"
#include "fleet/payload.h"
#include "fleet/pq.h"
#include "host/slot.h"
#include "launch/launch.h"
#include "runtime/events.h"
#include "runtime/run.h"
#include "storage/store.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* The latest progress snapshot (D6): one, overwritten. */
#define SUMMARY_MAX 480

struct amc_slot {
	amc_slot_cfg cfg;              /* strings owned */
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;             /* wakes the slot thread and the renewal thread */
	int wake, draining, renew_now, run_over;
	int busy;
	long long assignment;          /* the one running, 0: none */
	atomic_int cancel;             /* the running task's flag (run.h) */
	char why[128];                 /* the interrupt reason the runner records */
	int release_req;               /* amc_slot_release was called */
	int lost;                      /* 1: no row matched, 2: self-fenced */
	int timed_out;                 /* the assignment's --timeout stopped the task */
	/* the latest-progress holder, filled from the bus */
	int p_step;
	char p_status[16];
	char p_summary[SUMMARY_MAX + 16];
	const amc_secrets *secrets;    /* the running task's, for masking the summary */
	/* the running task's local id, once its row exists (TASK_CREATED), for
	 * the renewal thread to publish; published: it reached the database */
	char local_id[64];
	int local_published;
	amc_store *store;
	amc_slot_stats st;
	size_t claim_cap;
	amc_latency claim_lat, end_lat; /* under mu: the host reports them (latency.h) */
};

char *amc_fleet_text(const char *s, size_t max)
{
	char *t = amc_sanitize_dup(s ? s : "");
	size_t n = strlen(t);
	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)t[n] & 0xC0) == 0x80)
			n--;
		t[n] = 0;
	}
	return t;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void timed_wait(amc_slot *s, long ms)
{
	struct timespec ts;
	amc_timespec_after(CLOCK_REALTIME, ms, &ts);
	pthread_cond_timedwait(&s->cv, &s->mu, &ts);
}

/* Interrupt the running task once (lease lost, or handed back). */
static void interrupt(amc_slot *s, const char *why)
{
	if (atomic_load(&s->cancel))
		return;
	snprintf(s->why, sizeof s->why, "%s", why);
	atomic_store(&s->cancel, AMC_RUN_INTERRUPT);
}

/* One statement on the host's shared connection (hostdb.h), at prio. */
static int exec(amc_slot *s, amc_hostdb_prio prio, const char *sql, int n, const char *const *p, int timeout_ms,
		PGresult **res, amc_err *e)
{
	return amc_hostdb_exec(s->cfg.db, prio, sql, n, p, timeout_ms, res, e);
}

static void on_event(const amc_event *ev, void *ud)
{
	amc_slot *s = ud;
	if (ev->type == AMC_EV_TASK_CREATED) {
		/* the row exists now: its id may be published (renew_main does it) */
		pthread_mutex_lock(&s->mu);
		snprintf(s->local_id, sizeof s->local_id, "%s", ev->task_id ? ev->task_id : "");
		s->renew_now = 1;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		return;
	}
	if (ev->type != AMC_EV_STEP_STARTED && ev->type != AMC_EV_STEP_FINISHED)
		return;
	pthread_mutex_lock(&s->mu);
	s->p_step = ev->step;
	if (ev->type == AMC_EV_STEP_STARTED) {
		snprintf(s->p_status, sizeof s->p_status, "running");
		const char *txt = ev->text ? ev->text : ev->tool ? ev->tool : "";
		char *m = s->secrets ? amc_secrets_mask(s->secrets, txt) : NULL;
		char *t = amc_fleet_text(m ? m : txt, SUMMARY_MAX);
		snprintf(s->p_summary, sizeof s->p_summary, "%s", t);
		free(t);
		free(m);
	} else {
		snprintf(s->p_status, sizeof s->p_status, "%s", ev->status ? ev->status : "");
	}
	pthread_mutex_unlock(&s->mu);
}

typedef struct attempt {
	long long id, assignment, token;
	long long claim_sent_ms;       /* amc_mono_ms() when the claim was sent: the lease counts from it */
	long long deadline_ms;         /* amc_mono_ms() past which the task is stopped (--timeout); 0: none */
	double timeout_s;
	int n;
	char sid[24], stok[24], said[24];
} attempt;

/* attempt.local_task_id = the local task's id; only once its row exists
 * (seed 000 D2: the fleet never points at a task the host does not have).
 * prio: the renewal's when the renewal thread publishes it. 0: written. */
static int publish_local_id(amc_slot *s, amc_hostdb_prio prio, const attempt *a, const char *id, int timeout_ms)
{
	const char *p[] = { a->sid, a->stok, id };
	PGresult *res;
	amc_err e;
	if (exec(s, prio, "SELECT amc_fleet.publish($1::bigint, $2::bigint, $3)", 3, p, timeout_ms, &res, &e) == 0) {
		PQclear(res);
		return 0;
	}
	amc_log_warn("fleet %s: cannot record the local task of assignment %lld: %s", s->cfg.device, a->assignment,
		     e.msg);
	return -1;
}

/* The renewal thread of one attempt. */
typedef struct renewal {
	amc_slot *s;
	const attempt *a;
} renewal;

static void *renew_main(void *arg)
{
	renewal *rn = arg;
	amc_slot *s = rn->s;
	const attempt *a = rn->a;
	amc_lease L;
	amc_lease_start(&L, s->cfg.lease_s, s->cfg.renew_s, a->claim_sent_ms);
	char lease[24];
	snprintf(lease, sizeof lease, "%d", s->cfg.lease_s);
	pthread_mutex_lock(&s->mu);
	while (!s->run_over) {
		long long now = amc_mono_ms();
		long wait = 0;
		amc_lease_do what = amc_lease_due(&L, now, s->renew_now, &wait);
		if (a->deadline_ms && now >= a->deadline_ms && !s->timed_out) {
			/* --timeout, counted from the claim like the lease; the
			 * reaper ends the attempt too if this host cannot */
			char why[96];
			snprintf(why, sizeof why, "timed out: ran past its timeout of %.0f s", a->timeout_s);
			s->timed_out = 1;
			interrupt(s, why);
		}
		if (what == AMC_LEASE_WAIT && a->deadline_ms && !s->timed_out && a->deadline_ms - now < wait)
			wait = (long)(a->deadline_ms - now) + 1;
		if (what == AMC_LEASE_LOST) {
			s->lost = 2;
			s->st.lost++;
			interrupt(s, "lease lost: no renewal reached the fleet database in time");
			break;
		}
		if (what == AMC_LEASE_WAIT) {
			timed_wait(s, wait);
			continue;
		}
		s->renew_now = 0;
		char local[64] = "";
		if (s->local_id[0] && !s->local_published)
			snprintf(local, sizeof local, "%s", s->local_id);
		char step[16], status[16], summary[SUMMARY_MAX + 16];
		int has = s->p_step > 0;
		snprintf(step, sizeof step, "%d", s->p_step);
		snprintf(status, sizeof status, "%s", s->p_status);
		snprintf(summary, sizeof summary, "%s", s->p_summary);
		pthread_mutex_unlock(&s->mu);
		int published = local[0] && publish_local_id(s, AMC_HOSTDB_RENEW, a, local, amc_lease_timeout_ms(&L, amc_mono_ms())) == 0;
		long long sent = amc_mono_ms();
		const char *p[] = { a->sid, a->stok, lease, has ? step : NULL, has ? status : NULL, has ? summary : NULL };
		PGresult *res = NULL;
		amc_err e;
		int rc = exec(s, AMC_HOSTDB_RENEW,
			      "SELECT cancel FROM amc_fleet.renew($1::bigint, $2::bigint, $3::float8, $4::int, $5, $6)",
			      6, p, amc_lease_timeout_ms(&L, sent), &res, &e);
		pthread_mutex_lock(&s->mu);
		if (published)
			s->local_published = 1;
		if (rc != 0) {
			amc_log_warn("fleet %s: renewal of assignment %lld failed: %s", s->cfg.device, a->assignment, e.msg);
			amc_lease_retry(&L, amc_mono_ms()); /* the deadline decides */
			continue;
		}
		if (PQntuples(res) != 1) {
			PQclear(res);
			s->lost = 1;
			s->st.lost++;
			interrupt(s, "lease lost: the fleet took the attempt back");
			break;
		}
		const char *c = amc_pq_get(res, 0, "cancel");
		if (c && c[0] == 't' && !atomic_load(&s->cancel))
			atomic_store(&s->cancel, 1);
		PQclear(res);
		s->st.renewals++;
		amc_lease_renewed(&L, sent);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* D7: planner decisions copied to the fleet database (fleet.decisions = on)
 * on the host's shared connection (hostdb.h, after renewals), from the
 * runner's thread, masked with the task's
 * secrets; no screenshot bytes exist in a decision row (images are artifact
 * references). A decision that cannot be written is logged and skipped: the
 * local store has it. */
typedef struct dsink {
	amc_slot *s;
	const attempt *a;
	amc_decision_sink sink;
} dsink;

#define DECISION_TEXT_MAX (256u * 1024u)

static char *masked(const amc_slot *s, const char *in)
{
	if (!in)
		return NULL;
	char *m = s->secrets ? amc_secrets_mask(s->secrets, in) : NULL;
	char *t = amc_fleet_text(m ? m : in, DECISION_TEXT_MAX);
	free(m);
	return t;
}

static void on_decided(void *ud, const amc_decision_row *d)
{
	dsink *k = ud;
	amc_err e;
	char step[16];
	snprintf(step, sizeof step, "%d", d->step);
	char attempt_n[16];
	snprintf(attempt_n, sizeof attempt_n, "%d", k->a->n);
	char *v[] = { masked(k->s, d->planner), masked(k->s, d->model), masked(k->s, d->system_prompt),
		      masked(k->s, d->user_prompt), masked(k->s, d->tool), masked(k->s, d->args), masked(k->s, d->outcome) };
	const char *p[] = { k->a->sid, k->a->stok, step, v[0], v[1], v[2], v[3], v[4], v[5], v[6] };
	if (exec(k->s, AMC_HOSTDB_END,
		 "SELECT amc_fleet.decide($1::bigint, $2::bigint, $3::int, $4, $5, $6, $7, $8, $9, $10)",
		 10, p, 5000, NULL, &e) != 0)
		amc_log_warn("fleet: planner decision of step %d not copied: %s", d->step, e.msg);
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		free(v[i]);
}

/* Retries of an attempt's end are at most this far apart (issue 26, outages),
 * and at least four times a lease: the database's grace after a restart is
 * one lease (plus fleet.reap_grace_s), and the end must land within it. */
#define FINISH_BACKOFF_MAX_MS 2000

/* End the attempt, fenced. 1: accepted, 0: refused (the fleet took the
 * attempt back: the end is kept there as late), -1: not delivered.
 *
 * An attempt that ended on this host is retried, with a backoff of at most
 * a quarter lease (and FINISH_BACKOFF_MAX_MS), the host's shared
 * connection opened again when it broke (hostdb.c), until the
 * database answers: after an outage the database accepts the end of an
 * attempt it has not reaped (its grace counts from the server's start), so
 * work that finished here is not run again. Only a host being stopped gives
 * up, two leases after the stop, and says so. The finish time is the
 * database's: bounded by the lease its last renewal gave (amc_fleet.finish). */
static int finish(amc_slot *s, const attempt *a, const char *state, const char *error, const char *publish, int retry)
{
	char *err = error && *error ? amc_fleet_text(error, 2000) : NULL;
	const char *p[] = { a->sid, a->stok, state, err, retry ? "t" : "f" };
	long long stop_by = 0;
	long backoff = 200, cap = s->cfg.lease_s * 250L;
	if (cap > FINISH_BACKOFF_MAX_MS)
		cap = FINISH_BACKOFF_MAX_MS;
	if (cap < 50)
		cap = 50;
	int out = -1, tries = 0;
	long long t0 = amc_mono_us();
	for (;;) {
		PGresult *res;
		amc_err e;
		/* the local task first (D2), while the attempt is still ours */
		if (publish && publish_local_id(s, AMC_HOSTDB_END, a, publish, 5000) == 0)
			publish = NULL;
		if (exec(s, AMC_HOSTDB_END, "SELECT amc_fleet.finish($1::bigint, $2::bigint, $3, $4, $5::boolean) AS ok", 5, p, 5000, &res, &e) == 0) {
			const char *v = amc_pq_get(res, 0, "ok");
			out = v && v[0] == 't';
			PQclear(res);
			/* from the first try to the answer: an outage shows here */
			pthread_mutex_lock(&s->mu);
			amc_latency_add(&s->end_lat, (double)(amc_mono_us() - t0) / 1e6);
			pthread_mutex_unlock(&s->mu);
			if (tries > 0)
				amc_log_info("fleet %s: the end of assignment %lld attempt %d reached the fleet after %d tries",
					     s->cfg.device, a->assignment, a->n, tries + 1);
			break;
		}
		if (tries++ == 0 || tries % 10 == 0)
			amc_log_warn("fleet %s: cannot end assignment %lld yet (try %d, retrying): %s", s->cfg.device,
				     a->assignment, tries, e.msg);
		pthread_mutex_lock(&s->mu);
		int draining = s->draining;
		pthread_mutex_unlock(&s->mu);
		if (draining && !stop_by)
			stop_by = amc_mono_ms() + 2000LL * s->cfg.lease_s;
		if (stop_by && amc_mono_ms() + backoff >= stop_by) {
			amc_log_warn("fleet %s: the host stops: the end of assignment %lld attempt %d (%s) was not "
				     "delivered; the fleet's reaper takes the attempt back", s->cfg.device, a->assignment,
				     a->n, state);
			break;
		}
		sleep_ms(backoff);
		backoff = backoff * 2 < cap ? backoff * 2 : cap;
	}
	free(err);
	return out;
}

/* The attempt's payload as a prepared launch; a bad one ends the attempt
 * failed (-1). */
static int prepare_attempt(amc_slot *s, const attempt *a, const char *payload, int max_steps, amc_launch *ln)
{
	amc_err e;
	amc_fleet_payload pl;
	char src[24];
	snprintf(src, sizeof src, "%lld", a->assignment);
	if (amc_fleet_payload_parse(payload, strlen(payload), &pl, &e) != 0) {
		char msg[AMC_ERR_MSG_MAX + 32];
		snprintf(msg, sizeof msg, "bad assignment: %s", e.msg);
		amc_log_warn("fleet %s: assignment %lld: %s", s->cfg.device, a->assignment, msg);
		s->st.finished += finish(s, a, "failed", msg, NULL, 0) == 1; /* a retry cannot fix it */
		return -1;
	}
	amc_launch_req req;
	amc_launch_req_init(&req);
	req.device = s->cfg.device;
	amc_launch_bundle b = { 0 };
	char base[64];
	snprintf(base, sizeof base, "fleet-assignment-%lld", a->assignment);
	char prov[32];
	if (pl.goal) {
		req.goal = pl.goal;
		/* a coding agent's CLI on this host's login (docs/llm.md) */
		if (pl.agent) {
			snprintf(prov, sizeof prov, "agent:%s", pl.agent);
			req.provider = prov;
		}
		req.model = pl.model;
	} else {
		b.flow = pl.flow_text;
		b.flow_file = pl.flow_name;
		b.base = base;
		b.files = pl.files;
		b.nfiles = pl.nfiles;
		req.bundle = &b;
	}
	/* a payload is the operator's words, not this host's: its scripts'
	 * http.* reach only the hosts this host's configuration lists
	 * (fleet.js_http_hosts; none by default), redirects not followed */
	req.js_remote = 1;
	req.js_http_hosts = amc_config_str(s->cfg.cfg, "fleet", "js_http_hosts");
	req.max_steps = max_steps;
	req.source_task_id = src;
	req.source_attempt = a->n;
	int lrc = amc_launch_prepare(s->cfg.cfg, s->store, &req, ln, &e);
	amc_fleet_payload_free(&pl);
	if (lrc != 0) {
		/* a refused flow or goal: a retry cannot fix it */
		s->st.finished += finish(s, a, "failed", e.msg, NULL, 0) == 1;
		return -1;
	}
	return 0;
}

/* End the attempt, fenced, in the state the task's end maps to. */
static void end_attempt(amc_slot *s, const attempt *a, int rc, const amc_err *e, const amc_task_outcome *out,
			int lost, int release, const char *local_id, const char *unpublished)
{
	const char *state, *error;
	if (s->timed_out && (rc != 0 || strcmp(out->status, "succeeded") != 0)) {
		state = "failed";
		error = s->why;
	} else if (rc != 0) {
		state = "failed";
		error = e->msg;
	} else if (!strcmp(out->status, "succeeded")) {
		state = "succeeded";
		error = NULL;
	} else if (!strcmp(out->status, "cancelled")) {
		state = "cancelled";
		error = "cancelled by the operator";
	} else if (release && !lost) {
		state = "released";
		error = s->why;
	} else {
		state = "failed";
		error = out->error[0] ? out->error : out->status;
	}
	if (lost == 2 && strcmp(state, "succeeded") != 0) {
		/* Self-fenced and not done: the reaper takes it back and it runs again. */
		amc_log_warn("fleet %s: assignment %lld attempt %d: lease lost, left to the reaper", s->cfg.device,
			     a->assignment, a->n);
		return;
	}
	/* A task that succeeded is ended even after a self-fence: the database
	 * accepts it unless it already took the attempt back. */
	int ok = finish(s, a, state, error, unpublished, 1);
	if (ok == 1) {
		s->st.finished++;
	} else if (ok == 0) {
		s->st.rejected++;
		s->st.late += strcmp(state, "released") != 0;
		amc_log_warn("fleet %s: the fleet rejected the end of assignment %lld attempt %d (lease lost): "
			     "kept as a late end (%s, local task %s)", s->cfg.device, a->assignment, a->n, state,
			     local_id && *local_id ? local_id : "none");
	}
}

/* Run one claimed attempt to its end. */
static void run_attempt(amc_slot *s, attempt *a, const char *payload, int max_steps)
{
	amc_launch ln;
	if (prepare_attempt(s, a, payload, max_steps, &ln) != 0)
		return;
	amc_err e;
	amc_bus *bus = amc_bus_new();
	dsink ds = { s, a, { on_decided, NULL } };
	ds.sink.ud = &ds;
	pthread_mutex_lock(&s->mu);
	s->p_step = 0;
	s->p_status[0] = s->p_summary[0] = 0;
	s->secrets = ln.secrets;
	s->local_id[0] = 0;
	s->local_published = 0;
	s->lost = 0;
	s->timed_out = 0;
	s->run_over = 0;
	s->renew_now = 0;
	pthread_mutex_unlock(&s->mu);
	int sub = amc_bus_subscribe(bus, on_event, s);
	/* renewals from before the device opens: an Appium session takes seconds
	 * of a lease that runs from the claim */
	renewal rn = { s, a };
	pthread_t rt;
	int have_rt = pthread_create(&rt, NULL, renew_main, &rn) == 0;
	if (!have_rt)
		amc_log_warn("fleet %s: cannot start the renewal thread; the lease will run out", s->cfg.device);
	amc_launch_ctx c;
	amc_launch_ctx_init(&c, s->cfg.home, s->cfg.cfg);
	c.store = s->store;
	c.bus = bus;
	c.cancel = &s->cancel;
	c.interrupt_why = s->why;
	c.decision_sink = s->cfg.decisions ? &ds.sink : NULL;
	amc_task_outcome out;
	/* a task that cannot start (device busy or gone) is recorded failed
	 * locally, and the attempt fails with the same reason */
	int rc = amc_launch_run(&ln, &c, &out, &e);
	pthread_mutex_lock(&s->mu);
	s->run_over = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	if (have_rt)
		pthread_join(rt, NULL);
	amc_bus_unsubscribe(bus, sub);
	amc_bus_free(bus);
	pthread_mutex_lock(&s->mu);
	s->secrets = NULL;
	int lost = s->lost, release = s->release_req, published = s->local_published;
	pthread_mutex_unlock(&s->mu);
	/* the row exists now whenever the store took it: a task that never
	 * started (no TASK_CREATED) or ended before a renewal is published here */
	amc_task_row row;
	amc_err ge;
	const char *unpublished = NULL;
	if (!published && lost != 1 && amc_store_get_task(s->store, ln.task->id, &row, &ge) == 0) {
		amc_task_row_free(&row);
		unpublished = ln.task->id; /* published by finish(), retried with it */
	}
	end_attempt(s, a, rc, &e, &out, lost, release, ln.task->id, unpublished);
	amc_launch_free(&ln);
}

/* Claim one assignment: 1 claimed (and ran), 0 none queued, -1 error. */
static int claim_and_run(amc_slot *s)
{
	char host[24], lease[24];
	snprintf(host, sizeof host, "%lld", s->cfg.host_id);
	snprintf(lease, sizeof lease, "%d", s->cfg.lease_s);
	const char *p[] = { host, s->cfg.device, s->cfg.kind, lease };
	PGresult *res;
	amc_err e;
	long long t0 = amc_mono_us();
	long long claim_sent_ms = amc_mono_ms();
	/* a claim holds the host's one connection (hostdb.h) while it runs: at
	 * most a third of a lease, so the renewals waiting behind it keep theirs */
	int claim_ms = s->cfg.lease_s * 1000 / 3;
	claim_ms = claim_ms < 1000 ? 1000 : claim_ms > 10000 ? 10000 : claim_ms;
	if (exec(s, AMC_HOSTDB_CLAIM, "SELECT * FROM amc_fleet.claim($1::bigint, $2, $3, $4::float8)", 4, p, claim_ms, &res,
		 &e) != 0) {
		amc_log_warn("fleet %s: claim failed: %s", s->cfg.device, e.msg);
		return -1;
	}
	double ms = (double)(amc_mono_us() - t0) / 1000.0;
	pthread_mutex_lock(&s->mu);
	amc_latency_add(&s->claim_lat, ms / 1000.0); /* empty claims too: each is a round trip */
	pthread_mutex_unlock(&s->mu);
	if (PQntuples(res) != 1) {
		PQclear(res);
		s->st.empty_claims++;
		return 0;
	}
	s->st.claims++;
	if (s->st.nclaim_ms == s->claim_cap) {
		s->claim_cap = s->claim_cap ? s->claim_cap * 2 : 64;
		s->st.claim_ms = amc_xrealloc(s->st.claim_ms, s->claim_cap * sizeof *s->st.claim_ms);
	}
	s->st.claim_ms[s->st.nclaim_ms++] = ms;
	attempt a = { 0 };
	a.claim_sent_ms = claim_sent_ms;
	a.id = amc_pq_getll(res, 0, "attempt_id", 0);
	a.assignment = amc_pq_getll(res, 0, "assignment_id", 0);
	a.token = amc_pq_getll(res, 0, "token", 0);
	a.n = (int)amc_pq_getll(res, 0, "n", 0);
	const char *tv = amc_pq_get(res, 0, "timeout_s");
	a.timeout_s = tv ? strtod(tv, NULL) : 0;
	if (a.timeout_s >= 1 && a.timeout_s <= 604800)
		a.deadline_ms = claim_sent_ms + (long long)(a.timeout_s * 1000.0);
	int max_steps = (int)amc_pq_getll(res, 0, "max_steps", 0);
	if (max_steps < 0 || max_steps > 100000)
		max_steps = 0;
	snprintf(a.sid, sizeof a.sid, "%lld", a.id);
	snprintf(a.stok, sizeof a.stok, "%lld", a.token);
	snprintf(a.said, sizeof a.said, "%lld", a.assignment);
	const char *pv = amc_pq_get(res, 0, "payload");
	char *payload = amc_xstrdup(pv ? pv : "");
	PQclear(res);
	pthread_mutex_lock(&s->mu);
	s->busy = 1;
	s->assignment = a.assignment;
	s->release_req = 0;
	atomic_store(&s->cancel, 0);
	s->why[0] = 0;
	pthread_mutex_unlock(&s->mu);
	amc_log_info("fleet %s: claimed assignment %lld attempt %d", s->cfg.device, a.assignment, a.n);
	run_attempt(s, &a, payload, max_steps);
	free(payload);
	pthread_mutex_lock(&s->mu);
	s->busy = 0;
	s->assignment = 0;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return 1;
}

static void *slot_main(void *arg)
{
	amc_slot *s = arg;
	long backoff = 200;
	for (;;) {
		pthread_mutex_lock(&s->mu);
		if (!s->wake && !s->draining)
			timed_wait(s, s->cfg.poll_s * 1000L);
		int stop = s->draining;
		s->wake = 0;
		pthread_mutex_unlock(&s->mu);
		if (stop)
			break;
		int rc;
		do {
			pthread_mutex_lock(&s->mu);
			stop = s->draining;
			pthread_mutex_unlock(&s->mu);
			rc = stop ? 0 : claim_and_run(s);
		} while (rc == 1);
		if (rc < 0) {
			sleep_ms(backoff);
			backoff = backoff < 5000 ? backoff * 2 : 5000;
			pthread_mutex_lock(&s->mu);
			s->wake = 1;
			pthread_mutex_unlock(&s->mu);
		} else {
			backoff = 200;
		}
	}
	return NULL;
}

/* What a slot holds, let go: its store (when open), its copied settings,
 * its lock and the slot itself (the connection is the host's). */
static void slot_free(amc_slot *s)
{
	if (s->store)
		amc_store_close(s->store);
	free((char *)s->cfg.url);
	free((char *)s->cfg.home);
	free((char *)s->cfg.label);
	free((char *)s->cfg.device);
	free((char *)s->cfg.kind);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(s);
}

int amc_slot_start(const amc_slot_cfg *cfg, amc_slot **out, amc_err *e)
{
	amc_slot *s = amc_xcalloc(1, sizeof *s);
	s->cfg = *cfg;
	s->cfg.url = amc_xstrdup(cfg->url);
	s->cfg.home = amc_xstrdup(cfg->home);
	s->cfg.label = amc_xstrdup(cfg->label);
	s->cfg.device = amc_xstrdup(cfg->device);
	s->cfg.kind = amc_xstrdup(cfg->kind);
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	atomic_init(&s->cancel, 0);
	s->wake = 1;
	int rc = amc_store_open(cfg->home, &s->store, e);
	if (rc == 0 && pthread_create(&s->th, NULL, slot_main, s) != 0)
		rc = amc_err_set(e, AMC_EFAIL, "cannot start the thread of device %s", cfg->device);
	if (rc != 0) {
		slot_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

void amc_slot_wake(amc_slot *s)
{
	pthread_mutex_lock(&s->mu);
	s->wake = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

void amc_slot_cancel_hint(amc_slot *s, long long assignment_id)
{
	pthread_mutex_lock(&s->mu);
	if (s->busy && s->assignment == assignment_id) {
		s->renew_now = 1;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
}

void amc_slot_drain(amc_slot *s)
{
	pthread_mutex_lock(&s->mu);
	s->draining = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

int amc_slot_busy(amc_slot *s)
{
	pthread_mutex_lock(&s->mu);
	int b = s->busy;
	pthread_mutex_unlock(&s->mu);
	return b;
}

void amc_slot_release(amc_slot *s, const char *why)
{
	pthread_mutex_lock(&s->mu);
	if (s->busy) {
		s->release_req = 1;
		interrupt(s, why);
	}
	pthread_mutex_unlock(&s->mu);
}

void amc_slot_stop(amc_slot *s, amc_slot_stats *st)
{
	amc_slot_drain(s);
	pthread_join(s->th, NULL);
	*st = s->st;
	st->claim_lat = s->claim_lat;
	st->end_lat = s->end_lat;
	slot_free(s);
}

void amc_slot_latency(amc_slot *s, amc_latency *claim, amc_latency *end)
{
	pthread_mutex_lock(&s->mu);
	amc_latency_merge(claim, &s->claim_lat);
	amc_latency_merge(end, &s->end_lat);
	pthread_mutex_unlock(&s->mu);
}
