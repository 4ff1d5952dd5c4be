/* registry.c - the MCP server's sessions and runs (registry.h). */
#include "config.h"

#include "mcp/registry.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/clock.h"
#include "util/ids.h"
#include "util/strbuf.h"

#define DEVQ_MAX 64
#define RUNS_MAX 64

typedef struct devq {
	char device[128];
	unsigned long next, serving;  /* tickets: arrival order */
	amc_mcp_session *sess;
	long long last_used;
} devq;

struct amc_mcp_run {
	int used, spawned, done;
	char task_id[AMC_ID_SIZE];
	atomic_int cancel;
	pthread_t thread;
	amc_task_outcome outcome;
};

struct amc_mcp_reg {
	amc_mcp_reg_opts ro;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	devq qs[DEVQ_MAX];
	struct amc_mcp_run runs[RUNS_MAX];
	int stopping;
	pthread_t reaper;
};

static long idle_ms(const amc_mcp_reg *r)
{
	return (r->ro.o->idle_s > 0 ? r->ro.o->idle_s : AMC_MCP_IDLE_DEFAULT_S) * 1000;
}

static void say(amc_mcp_reg *r, const char *text)
{
	if (r->ro.log)
		r->ro.log(r->ro.log_ctx, "info", text);
}

/* The device's queue, made when there is none; NULL when all are taken.
 * Called with mu held. */
static devq *queue_for(amc_mcp_reg *r, const char *device)
{
	devq *free_q = NULL;
	for (int i = 0; i < DEVQ_MAX; i++) {
		if (r->qs[i].device[0] && !strcmp(r->qs[i].device, device))
			return &r->qs[i];
		if (!r->qs[i].device[0] && !free_q)
			free_q = &r->qs[i];
	}
	if (free_q)
		snprintf(free_q->device, sizeof free_q->device, "%s", device);
	return free_q;
}

amc_mcp_session *amc_mcp_reg_session(amc_mcp_reg *r, const char *device, int start, amc_err *e)
{
	const amc_mcp_opts *o = r->ro.o;
	if (o->attached) {
		/* an agent run: its one task, on its one device */
		if (amc_mcp_session_ended(o->attached)) {
			amc_err_set(e, AMC_EFAIL, "the task %s has ended", amc_mcp_session_task(o->attached));
			return NULL;
		}
		return o->attached;
	}
	pthread_mutex_lock(&r->mu);
	devq *q = queue_for(r, device);
	amc_mcp_session *old = NULL, *have = NULL;
	if (q && q->sess) {
		if (amc_mcp_session_ended(q->sess)) {
			old = q->sess; /* its task ended on its own (e.g. the device failed): start afresh */
			q->sess = NULL;
		} else {
			have = q->sess;
			q->last_used = amc_mono_ms();
		}
	}
	pthread_mutex_unlock(&r->mu);
	amc_mcp_session_free(old);
	if (have || !start) {
		if (!have)
			amc_err_set(e, AMC_EUSAGE, "no session on %s", device);
		return have;
	}
	if (!q) {
		amc_err_set(e, AMC_EENV, "too many devices in one MCP session (at most %d)", DEVQ_MAX);
		return NULL;
	}
	amc_mcp_session_opts so = { .home = o->home, .cfg = o->cfg, .device = device, .client = r->ro.client,
				    .session_id = r->ro.session_id, .idle_ms = idle_ms(r),
				    .assume_yes = o->assume_yes, .op = r->ro.op };
	amc_mcp_session *n;
	if (amc_mcp_session_start(&so, &n, e) != 0)
		return NULL;
	pthread_mutex_lock(&r->mu);
	q->sess = n;
	q->last_used = amc_mono_ms();
	pthread_mutex_unlock(&r->mu);
	char line[300];
	snprintf(line, sizeof line, "session task %s started on %s", amc_mcp_session_task(n), amc_mcp_session_device(n));
	say(r, line);
	return n;
}

void amc_mcp_reg_touch(amc_mcp_reg *r, const char *device)
{
	pthread_mutex_lock(&r->mu);
	devq *q = queue_for(r, device);
	if (q)
		q->last_used = amc_mono_ms();
	pthread_mutex_unlock(&r->mu);
}

void amc_mcp_reg_session_close(amc_mcp_reg *r, const char *device, amc_mcp_end how)
{
	amc_task_outcome o;
	amc_mcp_reg_session_close_out(r, device, how, &o, NULL, 0);
}

int amc_mcp_reg_session_close_out(amc_mcp_reg *r, const char *device, amc_mcp_end how, amc_task_outcome *out,
				  char *task_id, size_t task_n)
{
	const amc_mcp_opts *o = r->ro.o;
	if (o->attached) {
		if (task_id)
			snprintf(task_id, task_n, "%s", amc_mcp_session_task(o->attached));
		amc_mcp_session_end(o->attached, how, 0, out);
		return 0;
	}
	pthread_mutex_lock(&r->mu);
	devq *q = queue_for(r, device);
	amc_mcp_session *sess = q ? q->sess : NULL;
	if (q)
		q->sess = NULL;
	pthread_mutex_unlock(&r->mu);
	memset(out, 0, sizeof *out);
	if (!sess)
		return -1;
	if (task_id)
		snprintf(task_id, task_n, "%s", amc_mcp_session_task(sess));
	amc_task_outcome to;
	amc_mcp_session_end(sess, how, idle_ms(r) / 1000, &to);
	char line[1200];
	snprintf(line, sizeof line, "session task %s %s: %.1000s", amc_mcp_session_task(sess), to.status,
		 to.summary[0] ? to.summary : to.error);
	say(r, line);
	amc_mcp_session_free(sess);
	*out = to;
	return 0;
}

void amc_mcp_reg_task_context(amc_mcp_reg *r, const char *task_id, char *reason, size_t rn, char *dev, size_t dn)
{
	reason[0] = dev[0] = 0;
	pthread_mutex_lock(&r->mu);
	for (int i = 0; i < DEVQ_MAX; i++) {
		amc_mcp_session *q = r->qs[i].sess;
		if (q && task_id && !strcmp(amc_mcp_session_task(q), task_id)) {
			amc_mcp_session_reason(q, reason, rn);
			snprintf(dev, dn, "%s", amc_mcp_session_device(q));
			break;
		}
	}
	pthread_mutex_unlock(&r->mu);
}

/* The idle bound: a session no call has used for idle_s ends and releases its
 * device. Looks four times a second on its own thread. */
static void *reaper_main(void *arg)
{
	amc_mcp_reg *r = arg;
	long idle = idle_ms(r);
	pthread_mutex_lock(&r->mu);
	while (!r->stopping) {
		struct timespec ts;
		amc_timespec_after(CLOCK_MONOTONIC, 250, &ts);
		pthread_cond_timedwait(&r->cv, &r->mu, &ts);
		for (int i = 0; i < DEVQ_MAX && !r->stopping; i++) {
			devq *q = &r->qs[i];
			if (q->sess && q->serving == q->next && amc_mono_ms() - q->last_used > idle) {
				char dev[128];
				snprintf(dev, sizeof dev, "%s", q->device);
				pthread_mutex_unlock(&r->mu);
				amc_mcp_reg_session_close(r, dev, AMC_MCP_END_IDLE);
				pthread_mutex_lock(&r->mu);
			}
		}
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

/* ---- tickets ---- */

int amc_mcp_reg_ticket(amc_mcp_reg *r, const char *device, unsigned long *ticket)
{
	pthread_mutex_lock(&r->mu);
	devq *q = queue_for(r, device);
	if (q)
		*ticket = q->next++;
	pthread_mutex_unlock(&r->mu);
	return q ? 0 : -1;
}

void amc_mcp_reg_turn_wait(amc_mcp_reg *r, const char *device, unsigned long ticket)
{
	pthread_mutex_lock(&r->mu);
	devq *q = queue_for(r, device);
	while (q && q->serving != ticket)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
}

void amc_mcp_reg_turn_end(amc_mcp_reg *r, const char *device)
{
	pthread_mutex_lock(&r->mu);
	devq *q = queue_for(r, device);
	if (q) {
		q->serving++;
		q->last_used = amc_mono_ms();
	}
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

/* ---- runs ---- */

amc_mcp_run *amc_mcp_reg_run_add(amc_mcp_reg *r, const char *task_id)
{
	pthread_mutex_lock(&r->mu);
	struct amc_mcp_run *run = NULL;
	for (int i = 0; i < RUNS_MAX && !run; i++)
		if (!r->runs[i].used)
			run = &r->runs[i];
	if (!run)  /* reuse the slot of a finished run whose thread was joined */
		for (int i = 0; i < RUNS_MAX && !run; i++)
			if (r->runs[i].done && !r->runs[i].spawned)
				run = &r->runs[i];
	if (run) {
		memset(run, 0, sizeof *run);
		run->used = 1;
		snprintf(run->task_id, sizeof run->task_id, "%s", task_id);
	}
	pthread_mutex_unlock(&r->mu);
	return run;
}

atomic_int *amc_mcp_run_cancel(amc_mcp_run *run)
{
	return &run->cancel;
}

int amc_mcp_reg_run_spawn(amc_mcp_reg *r, amc_mcp_run *run, void *(*fn)(void *), void *arg)
{
	pthread_mutex_lock(&r->mu);
	int rc = pthread_create(&run->thread, NULL, fn, arg);
	if (rc == 0)
		run->spawned = 1;
	else
		run->used = 0;
	pthread_mutex_unlock(&r->mu);
	return rc == 0 ? 0 : -1;
}

void amc_mcp_reg_run_done(amc_mcp_reg *r, amc_mcp_run *run, const amc_task_outcome *o)
{
	pthread_mutex_lock(&r->mu);
	run->outcome = *o;
	run->done = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

int amc_mcp_reg_run_wait(amc_mcp_reg *r, amc_mcp_run *run, atomic_int *cancel, amc_task_outcome *o)
{
	pthread_mutex_lock(&r->mu);
	while (!run->done) {
		if (cancel && atomic_load(cancel))
			atomic_store(&run->cancel, 1);
		struct timespec ts;
		amc_timespec_after(CLOCK_MONOTONIC, 100, &ts);
		pthread_cond_timedwait(&r->cv, &r->mu, &ts);
	}
	*o = run->outcome;
	pthread_mutex_unlock(&r->mu);
	return 0;
}

int amc_mcp_reg_cancel_task(amc_mcp_reg *r, const char *task_id)
{
	pthread_mutex_lock(&r->mu);
	for (int i = 0; i < RUNS_MAX; i++)
		if (r->runs[i].used && !r->runs[i].done && !strcmp(r->runs[i].task_id, task_id)) {
			atomic_store(&r->runs[i].cancel, 1);
			pthread_mutex_unlock(&r->mu);
			return 1;
		}
	char dev[128] = "";
	for (int i = 0; i < DEVQ_MAX; i++)
		if (r->qs[i].sess && !strcmp(amc_mcp_session_task(r->qs[i].sess), task_id))
			snprintf(dev, sizeof dev, "%s", r->qs[i].device);
	pthread_mutex_unlock(&r->mu);
	if (!dev[0])
		return 0;
	amc_mcp_reg_session_close(r, dev, AMC_MCP_END_CANCEL);
	return 1;
}

/* ---- life ---- */

int amc_mcp_reg_new(const amc_mcp_reg_opts *ro, amc_mcp_reg **out, amc_err *e)
{
	amc_mcp_reg *r = calloc(1, sizeof *r);
	if (!r)
		return amc_err_set(e, AMC_EENV, "out of memory");
	r->ro = *ro;
	pthread_mutex_init(&r->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&r->reaper, NULL, reaper_main, r) != 0) {
		pthread_mutex_destroy(&r->mu);
		pthread_cond_destroy(&r->cv);
		free(r);
		return amc_err_set(e, AMC_EENV, "cannot start a thread");
	}
	*out = r;
	return 0;
}

void amc_mcp_reg_cancel_runs(amc_mcp_reg *r)
{
	pthread_mutex_lock(&r->mu);
	for (int i = 0; i < RUNS_MAX; i++)
		if (r->runs[i].used && !r->runs[i].done)
			atomic_store(&r->runs[i].cancel, 1);
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

void amc_mcp_reg_free(amc_mcp_reg *r, int inflight)
{
	if (!r)
		return;
	pthread_mutex_lock(&r->mu);
	r->stopping = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->reaper, NULL);
	for (int i = 0; i < DEVQ_MAX; i++)
		if (r->qs[i].sess)
			amc_mcp_reg_session_close(r, r->qs[i].device, inflight ? AMC_MCP_END_CANCEL : AMC_MCP_END_CLIENT);
	for (int i = 0; i < RUNS_MAX; i++)
		if (r->runs[i].spawned)
			pthread_join(r->runs[i].thread, NULL);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free(r);
}
