/* runner.c - one thread and one queue per device (runner.h); each task runs
 * through amc_launch_run. */
#include "launch/runner.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "launch/launch.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/log.h"
#include "util/strbuf.h"

typedef struct job {
	/* what the job runs with, taken from the submitter: task, planner,
	 * secrets (NULL: none), a flow's text and files; nothing else is set */
	amc_launch l;
	atomic_int cancel;
	struct job *next;
} job;

struct amc_runner {
	char home[PATH_MAX];
	char device[128];
	amc_runner_opts opts;
	amc_bus *bus;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	job *head, *tail;
	job *current;
	int stopping;
	int stop_cancel;
	const amc_config *cfg;
	int online; /* -1 unknown (nothing run yet), 0 offline, 1 online; under mu */
	char offline_reason[AMC_ERR_MSG_MAX];
};

static void set_online(amc_runner *r, int online, const char *reason)
{
	pthread_mutex_lock(&r->mu);
	r->online = online;
	snprintf(r->offline_reason, sizeof r->offline_reason, "%s", online ? "" : reason);
	pthread_mutex_unlock(&r->mu);
	if (!online)
		amc_log_warn("runner %s: device offline: %s", r->device, reason);
}

static void free_job(job *j)
{
	amc_launch_free(&j->l);
	free(j);
}

/* One job through the launch module, on the runner's store connection (NULL:
 * the launch tries once more and says why) and the device it keeps open
 * between tasks; a task that cannot start is recorded there (failed, or
 * cancelled while queued). */
static void run_job(amc_runner *r, amc_store *store, amc_device **dev, job *j)
{
	/* this task's secrets; the rest as amc_runner_set_agent_opts left them */
	pthread_mutex_lock(&r->mu);
	amc_runner_opts opts = r->opts;
	pthread_mutex_unlock(&r->mu);
	amc_launch_ctx c;
	amc_launch_ctx_init(&c, r->home, r->cfg);
	c.store = store;
	c.keep = dev;
	c.bus = r->bus;
	c.cancel = &j->cancel;
	c.opts = &opts;
	amc_task_outcome out;
	amc_err e;
	amc_launch_run(&j->l, &c, &out, &e);
	if (c.device_down[0])
		set_online(r, 0, c.device_down);
	else if (*dev)
		set_online(r, 1, NULL);
}

static void *runner_main(void *arg)
{
	amc_runner *r = arg;
	amc_store *store = NULL;
	amc_device *dev = NULL;
	amc_err e;
	if (amc_store_open(r->home, &store, &e) != 0)
		amc_log_error("runner %s: %s", r->device, e.msg);
	for (;;) {
		pthread_mutex_lock(&r->mu);
		while (!r->head && !r->stopping)
			pthread_cond_wait(&r->cv, &r->mu);
		job *j = r->head;
		if (!j) {
			pthread_mutex_unlock(&r->mu);
			break;
		}
		r->head = j->next;
		if (!r->head)
			r->tail = NULL;
		r->current = j;
		pthread_mutex_unlock(&r->mu);

		/* A store that could not be opened (busy, full disk) is tried again for
		 * each task rather than once: a transient failure must not lose tasks. */
		if (!store && amc_store_open(r->home, &store, &e) != 0) {
			store = NULL;
			amc_log_error("runner %s: %s", r->device, e.msg);
		}
		run_job(r, store, &dev, j);
		pthread_mutex_lock(&r->mu);
		r->current = NULL;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		free_job(j);
	}
	amc_device_close(dev);
	amc_store_close(store);
	return NULL;
}

int amc_runner_start(const char *home, const char *device_id, const amc_config *cfg,
		     amc_bus *bus, amc_runner **out, amc_err *e)
{
	amc_runner *r = amc_xcalloc(1, sizeof *r);
	snprintf(r->home, sizeof r->home, "%s", home);
	if (amc_device_id_normalize(device_id, r->device, sizeof r->device, e) != 0) {
		free(r);
		return -1;
	}
	r->cfg = cfg;
	r->online = -1;
	amc_runner_opts_from_config(&r->opts, cfg);
	r->bus = bus;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	if (pthread_create(&r->thread, NULL, runner_main, r) != 0) {
		pthread_mutex_destroy(&r->mu);
		pthread_cond_destroy(&r->cv);
		free(r);
		return amc_err_set(e, AMC_EENV, "cannot start the runner thread for %s", device_id);
	}
	*out = r;
	return 0;
}

void amc_runner_set_agent_opts(amc_runner *r, amc_operator *op, const amc_words *confirm_words,
			       int assume_yes, amc_enricher *enricher)
{
	pthread_mutex_lock(&r->mu);
	r->opts.op = op;
	r->opts.confirm_words = confirm_words;
	r->opts.assume_yes = assume_yes;
	r->opts.enricher = enricher;
	pthread_mutex_unlock(&r->mu);
}

int amc_runner_submit_launch(amc_runner *r, amc_launch *l, amc_err *e)
{
	job *j = amc_xcalloc(1, sizeof *j);
	/* taken: the parts a run needs; the rest stays the caller's */
	j->l.task = l->task;
	j->l.planner = l->planner;
	j->l.secrets = l->secrets;
	j->l.flow_text = l->flow_text;
	j->l.files = l->files;
	j->l.nfiles = l->nfiles;
	j->l.bundle_base = l->bundle_base;
	l->task = NULL;
	l->planner = NULL;
	l->secrets = NULL;
	l->flow_text = NULL;
	l->files = NULL;
	l->nfiles = 0;
	l->bundle_base = NULL;
	atomic_init(&j->cancel, 0);
	snprintf(j->l.task->device, sizeof j->l.task->device, "%s", r->device);
	pthread_mutex_lock(&r->mu);
	if (r->stopping) {
		pthread_mutex_unlock(&r->mu);
		free_job(j);
		return amc_err_set(e, AMC_EENV, "the runner for %s is stopping", r->device);
	}
	if (r->tail)
		r->tail->next = j;
	else
		r->head = j;
	r->tail = j;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return 0;
}

int amc_runner_submit(amc_runner *r, amc_task *task, amc_planner *planner, amc_secrets *secrets, amc_err *e)
{
	amc_launch l = { .task = task, .planner = planner, .secrets = secrets };
	return amc_runner_submit_launch(r, &l, e);
}

int amc_runner_cancel(amc_runner *r, const char *task_id)
{
	int found = -1;
	pthread_mutex_lock(&r->mu);
	if (r->current && !strcmp(r->current->l.task->id, task_id)) {
		atomic_store(&r->current->cancel, 1);
		found = 0;
	}
	for (job *j = r->head; j; j = j->next)
		if (!strcmp(j->l.task->id, task_id)) {
			atomic_store(&j->cancel, 1);
			found = 0;
		}
	pthread_mutex_unlock(&r->mu);
	return found;
}

void amc_runner_cancel_all(amc_runner *r)
{
	pthread_mutex_lock(&r->mu);
	if (r->current)
		atomic_store(&r->current->cancel, 1);
	for (job *j = r->head; j; j = j->next)
		atomic_store(&j->cancel, 1);
	pthread_mutex_unlock(&r->mu);
}

int amc_runner_busy(amc_runner *r)
{
	pthread_mutex_lock(&r->mu);
	int n = r->current ? 1 : 0;
	for (job *j = r->head; j; j = j->next)
		n++;
	pthread_mutex_unlock(&r->mu);
	return n;
}

int amc_runner_wait_idle(amc_runner *r, long ms)
{
	long long deadline = ms >= 0 ? amc_mono_ms() + ms : 0;
	pthread_mutex_lock(&r->mu);
	while (r->current || r->head) {
		if (ms < 0) {
			pthread_cond_wait(&r->cv, &r->mu);
		} else {
			long long left = deadline - amc_mono_ms();
			if (left <= 0)
				break;
			struct timespec ts;
			amc_timespec_after(CLOCK_REALTIME, left, &ts);
			pthread_cond_timedwait(&r->cv, &r->mu, &ts);
		}
	}
	int idle = !r->current && !r->head;
	pthread_mutex_unlock(&r->mu);
	return idle ? 0 : -1;
}

void amc_runner_stop(amc_runner *r, int cancel)
{
	if (!r)
		return;
	if (cancel)
		amc_runner_cancel_all(r);
	pthread_mutex_lock(&r->mu);
	r->stopping = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->thread, NULL);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free(r);
}

int amc_runner_online(amc_runner *r, char *reason, size_t n)
{
	pthread_mutex_lock(&r->mu);
	int online = r->online;
	if (reason && n)
		snprintf(reason, n, "%s", r->offline_reason);
	pthread_mutex_unlock(&r->mu);
	return online;
}

const char *amc_runner_device(const amc_runner *r)
{
	return r->device;
}
