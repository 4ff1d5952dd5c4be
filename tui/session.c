/* session.c - the runners of tasks launched here, their event queue and live
 * phases (see session.h).
 *
 * Live updates: runner threads publish events; the bus callback (on the
 * runner thread) only queues the fact and writes a byte to the wake pipe,
 * which the loop polls. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>

#include "tui/session.h"
#include "util/log.h"

/* ---- events from runner threads ---- */

/* One TUI per process, so one queue: 256 events between two wakes of the
 * main thread is far more than a step publishes; past that the main thread
 * reloads everything. */
static pthread_mutex_t ev_mu = PTHREAD_MUTEX_INITIALIZER;
typedef struct ev_copy {
	amc_event_type type;
	char task[32];
	int step;
	char phase[16];
	char status[16];
} ev_copy;
static ev_copy ev_queue[256];
static int ev_n, ev_lost;

static void on_event(const amc_event *ev, void *ud)
{
	amc_tui_app *a = ud;
	pthread_mutex_lock(&ev_mu);
	if (ev_n < (int)(sizeof ev_queue / sizeof ev_queue[0])) {
		ev_copy *c = &ev_queue[ev_n++];
		c->type = ev->type;
		snprintf(c->task, sizeof c->task, "%s", ev->task_id ? ev->task_id : "");
		c->step = ev->step;
		snprintf(c->phase, sizeof c->phase, "%s", ev->phase ? ev->phase : "");
		snprintf(c->status, sizeof c->status, "%s", ev->status ? ev->status : "");
	} else {
		ev_lost = 1; /* a full queue only means "reload everything" */
	}
	pthread_mutex_unlock(&ev_mu);
	char b = 1;
	ssize_t w = write(a->wake[1], &b, 1); /* nonblocking: a full pipe already wakes */
	(void)w;
}

int amc_tui_session_start(amc_tui_app *a, amc_err *e)
{
	if (pipe(a->wake) != 0) {
		a->wake[0] = a->wake[1] = -1;
		return amc_err_set(e, AMC_EENV, "pipe: %s", strerror(errno));
	}
	fcntl(a->wake[0], F_SETFL, O_NONBLOCK);
	fcntl(a->wake[1], F_SETFL, O_NONBLOCK);
	pthread_mutex_lock(&ev_mu);
	ev_n = 0;
	ev_lost = 0;
	pthread_mutex_unlock(&ev_mu);
	a->bus = amc_bus_new();
	a->bus_sub = amc_bus_subscribe(a->bus, on_event, a);
	a->op = amc_tui_asker_new(a->wake[1]);
	return 0;
}

void amc_tui_session_end(amc_tui_app *a)
{
	for (int i = 0; i < AMC_TUI_MAX_RUNNERS; i++) {
		amc_enricher_free(a->enrichers[i]);
		a->enrichers[i] = NULL;
	}
	if (a->bus) {
		amc_bus_unsubscribe(a->bus, a->bus_sub);
		amc_bus_free(a->bus);
		a->bus = NULL;
	}
	amc_tui_asker_free(a->op);
	a->op = NULL;
	if (a->words_loaded)
		amc_words_free(&a->words);
	a->words_loaded = 0;
	if (a->wake[0] >= 0)
		close(a->wake[0]);
	if (a->wake[1] >= 0)
		close(a->wake[1]);
	a->wake[0] = a->wake[1] = -1;
}

static void set_phase(amc_tui_app *a, const ev_copy *c)
{
	size_t n = sizeof a->phase / sizeof a->phase[0], slot = n;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(a->phase[i].task, c->task))
			slot = i;
	for (size_t i = 0; slot == n && i < n; i++)
		if (!a->phase[i].task[0])
			slot = i;
	if (slot == n)
		slot = 0;
	if (c->type == AMC_EV_TASK_STATUS) {
		a->phase[slot].task[0] = 0; /* a status change ends the phase display */
		return;
	}
	snprintf(a->phase[slot].task, sizeof a->phase[slot].task, "%s", c->task);
	a->phase[slot].step = c->step;
	snprintf(a->phase[slot].phase, sizeof a->phase[slot].phase, "%s",
		 c->type == AMC_EV_STEP_STARTED ? "observe" : c->phase);
}

int amc_tui_session_drain(amc_tui_app *a, int *followed)
{
	char buf[256];
	ssize_t got;
	*followed = 0;
	while ((got = read(a->wake[0], buf, sizeof buf)) > 0)
		for (ssize_t i = 0; i < got; i++)
			if (buf[i] == 3)
				a->dirty = 1; /* a screenshot render is ready (image.c) */
	ev_copy local[256];
	int n, lost;
	pthread_mutex_lock(&ev_mu);
	n = ev_n;
	lost = ev_lost;
	memcpy(local, ev_queue, sizeof local[0] * (size_t)n);
	ev_n = 0;
	ev_lost = 0;
	pthread_mutex_unlock(&ev_mu);
	int changed = lost;
	for (int i = 0; i < n; i++) {
		if (local[i].type == AMC_EV_STEP_PHASE || local[i].type == AMC_EV_STEP_STARTED ||
		    local[i].type == AMC_EV_TASK_STATUS)
			set_phase(a, &local[i]);
		if (local[i].type != AMC_EV_STEP_PHASE)
			changed = 1;
		if (local[i].type == AMC_EV_TASK_STATUS && a->cancelling[0] && !strcmp(local[i].task, a->cancelling) &&
		    strcmp(local[i].status, "running") && strcmp(local[i].status, "queued")) {
			/* the "cancelling task" line is over once the task has ended; say how */
			if (!strncmp(a->message, "cancelling task ", 16)) {
				char sid[AMC_ID_SIZE];
				amc_tui_message(a, 0, "task %s %s", amc_tui_short_id(a, a->cancelling, sid), local[i].status);
			}
			a->cancelling[0] = 0;
		}
		a->dirty = 1;
	}
	/* A task launched here is followed into its Task view once its row exists. */
	if (a->follow) {
		for (int i = 0; i < n; i++)
			if (local[i].type == AMC_EV_TASK_CREATED && !strcmp(local[i].task, a->follow_id)) {
				a->follow = 0;
				*followed = 1;
				break;
			}
	}
	return changed;
}

const char *amc_tui_phase(const amc_tui_app *a, const char *task_id, int *step)
{
	for (size_t i = 0; i < sizeof a->phase / sizeof a->phase[0]; i++)
		if (a->phase[i].task[0] && !strcmp(a->phase[i].task, task_id)) {
			*step = a->phase[i].step;
			return a->phase[i].phase;
		}
	return NULL;
}

/* ---- runners ---- */

/* The device's runner, started on first use; a new one takes the launch's
 * enricher (one per runner). */
static amc_runner *runner_for(amc_tui_app *a, const char *device, amc_launch *l, amc_err *e)
{
	for (int i = 0; i < a->nrunners; i++)
		if (!strcmp(amc_runner_device(a->runners[i]), device))
			return a->runners[i];
	if (a->nrunners == AMC_TUI_MAX_RUNNERS) {
		amc_err_set(e, AMC_EENV, "too many devices in use from one TUI (%d)", AMC_TUI_MAX_RUNNERS);
		return NULL;
	}
	amc_runner *r;
	if (amc_runner_start(a->home, device, a->cfg, a->bus, &r, e) != 0)
		return NULL;
	/* Goals need the operator, the words and SemanticScenes; flows are not
	 * gated, so the same settings serve them too. */
	if (l->enrich_warn[0])
		amc_tui_message(a, 1, "%s", l->enrich_warn);
	a->enrichers[a->nrunners] = l->enricher;
	l->enricher = NULL;
	amc_runner_set_agent_opts(r, amc_tui_asker_base(a->op), &a->words, 0, a->enrichers[a->nrunners]);
	a->runners[a->nrunners++] = r;
	return r;
}

int amc_tui_launch(amc_tui_app *a, amc_launch *l, amc_err *e)
{
	if (l->prune_warn[0])
		amc_tui_message(a, 1, "%s", l->prune_warn);
	amc_runner *r = runner_for(a, l->task->device, l, e);
	if (!r) {
		amc_launch_free(l);
		return -1;
	}
	/* Every runner's tasks share the words of the first gated launch. */
	if (l->gated && !a->words_loaded) {
		a->words = l->words;
		memset(&l->words, 0, sizeof l->words);
		a->words_loaded = 1;
	}
	char id[32];
	snprintf(id, sizeof id, "%s", l->task->id);
	int rc = amc_runner_submit_launch(r, l, e);
	if (l->planner_warn[0] && rc == 0)
		amc_tui_message(a, 1, "%s", l->planner_warn);
	amc_launch_free(l);
	if (rc != 0)
		return -1;
	if (a->nown == AMC_TUI_MAX_OWN) {
		memmove(a->own[0], a->own[1], sizeof a->own[0] * (AMC_TUI_MAX_OWN - 1));
		a->nown--;
	}
	snprintf(a->own[a->nown++], sizeof a->own[0], "%s", id);
	snprintf(a->follow_id, sizeof a->follow_id, "%s", id);
	a->follow = 1;
	amc_log_info("tui: launched task %s on %s", id, amc_runner_device(r));
	return 0;
}

int amc_tui_cancel(amc_tui_app *a, const char *task_id, amc_err *e)
{
	for (int i = 0; i < a->nrunners; i++)
		if (amc_runner_cancel(a->runners[i], task_id) == 0) {
			amc_tui_asker_cancel(a->op, task_id); /* a question it waits on */
			snprintf(a->cancelling, sizeof a->cancelling, "%s", task_id);
			char sid[AMC_ID_SIZE];
			amc_tui_message(a, 0, "cancelling task %s", amc_tui_short_id(a, task_id, sid));
			return 0;
		}
	char sid[AMC_ID_SIZE];
	return amc_err_set(e, AMC_EUSAGE, "task %s is not running in this amc (cancel it where it was started)",
			   amc_tui_short_id(a, task_id, sid));
}

void amc_tui_session_cancel_all(amc_tui_app *a)
{
	for (int i = 0; i < a->nrunners; i++)
		amc_runner_cancel_all(a->runners[i]);
}

int amc_tui_own_running(amc_tui_app *a)
{
	int n = 0;
	for (int i = 0; i < a->nrunners; i++)
		n += amc_runner_busy(a->runners[i]);
	return n;
}

void amc_tui_session_wait_idle(amc_tui_app *a, long timeout_ms)
{
	for (int i = 0; i < a->nrunners; i++)
		amc_runner_wait_idle(a->runners[i], timeout_ms);
}

void amc_tui_session_stop(amc_tui_app *a)
{
	if (a->op)
		amc_tui_asker_shutdown(a->op); /* no runner thread stays blocked on a question */
	for (int i = 0; i < a->nrunners; i++)
		amc_runner_stop(a->runners[i], 0);
	a->nrunners = 0;
}

long long amc_tui_session_data_version(amc_tui_app *a)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(amc_store_db(a->store), "PRAGMA data_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return v;
}
