/* test_session.c - what runs under the TUI, without a terminal: the wake
 * pipe and the event queue (phases, the followed task, a full queue, a
 * render's wake byte), the database's change counter, and tasks launched
 * here on the sim (remembered, followed, run, cancelled, the runners stopped). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "tui/app.h"
#include "tui/session.h"
#include "util/config.h"
#include "util/strbuf.h"

static void publish(amc_tui_app *a, amc_event_type type, const char *task, int step, const char *phase)
{
	amc_event ev = { 0 };
	ev.type = type;
	ev.task_id = task;
	ev.step = step;
	ev.phase = phase;
	amc_bus_publish(a->bus, &ev);
}

static int drain(amc_tui_app *a, int *followed)
{
	int f;
	a->dirty = 0;
	int changed = amc_tui_session_drain(a, followed ? followed : &f);
	return changed;
}

static void test_events(amc_tui_app *a)
{
	int step = -1, followed = -1;
	ok(a->wake[0] >= 0 && a->wake[1] >= 0 && (fcntl(a->wake[0], F_GETFL) & O_NONBLOCK) &&
	   (fcntl(a->wake[1], F_GETFL) & O_NONBLOCK), "the wake pipe is open, both ends nonblocking");
	ok(a->bus && a->op, "the bus and the operator exist");
	is_int(drain(a, &followed), 0, "nothing queued: no change");
	is_int(followed, 0, "and nothing followed");

	publish(a, AMC_EV_STEP_STARTED, "T1", 1, NULL);
	char b;
	ok(read(a->wake[0], &b, 1) == 1 && b == 1, "an event writes a wake byte");
	is_int(drain(a, NULL), 1, "a step start changes rows");
	ok(a->dirty, "and redraws");
	is_str(amc_tui_phase(a, "T1", &step), "observe", "a started step is observing");
	is_int(step, 1, "its step number is kept");
	publish(a, AMC_EV_STEP_PHASE, "T1", 1, "plan");
	is_int(drain(a, NULL), 0, "a phase alone changes no rows");
	ok(a->dirty, "but redraws");
	is_str(amc_tui_phase(a, "T1", &step), "plan", "the phase is the latest one");
	publish(a, AMC_EV_TASK_STATUS, "T1", 0, NULL);
	is_int(drain(a, NULL), 1, "a status change changes rows");
	ok(amc_tui_phase(a, "T1", &step) == NULL, "and ends the phase display");

	/* 16 phases are kept; the 17th task takes the first slot. */
	char id[17][8];
	for (int i = 0; i < 17; i++) {
		snprintf(id[i], sizeof id[i], "P%02d", i);
		publish(a, AMC_EV_STEP_PHASE, id[i], i + 1, "act");
	}
	drain(a, NULL);
	ok(amc_tui_phase(a, id[0], &step) == NULL, "a 17th running task replaces the first one's phase");
	ok(amc_tui_phase(a, id[16], &step) && step == 17, "and is shown");
	ok(amc_tui_phase(a, id[15], &step) && step == 16, "the others stay");

	/* Following a launched task into its view. */
	a->follow = 1;
	snprintf(a->follow_id, sizeof a->follow_id, "T9");
	publish(a, AMC_EV_TASK_CREATED, "T8", 0, NULL);
	drain(a, &followed);
	ok(!followed && a->follow, "another task's row does not end the follow");
	publish(a, AMC_EV_TASK_CREATED, "T9", 0, NULL);
	is_int(drain(a, &followed), 1, "a created row changes rows");
	ok(followed && !a->follow, "the followed task's row ends the follow and says so");

	/* A full queue: the events past 256 are lost, which means "reload". */
	for (int i = 0; i < 300; i++)
		publish(a, AMC_EV_STEP_PHASE, "T2", 1, "settle");
	is_int(drain(a, NULL), 1, "a queue that overflowed asks for a reload even for phases");
	is_int(drain(a, NULL), 0, "and is empty afterwards");

	/* A screenshot render is ready (image.c writes 3). */
	char three = 3;
	ok(write(a->wake[1], &three, 1) == 1, "a render's wake byte");
	is_int(drain(a, NULL), 0, "changes no rows");
	ok(a->dirty, "but redraws");
}

static void test_data_version(amc_tui_app *a, const char *home)
{
	long long v = amc_tui_session_data_version(a);
	ok(v >= 0, "the database's change counter is read (%lld)", v);
	is_int(amc_tui_session_data_version(a), v, "it stays while nobody writes");
	amc_store *other;
	amc_err e;
	if (amc_store_open(home, &other, &e) != 0) {
		ok(0, "a second connection: %s", e.msg);
		return;
	}
	amc_task *t = amc_task_new("goal", "sim:0");
	amc_task_row row = { 0 };
	row.id = t->id;
	row.kind = "goal";
	row.goal = "from another connection";
	row.device = "sim:0";
	row.planner = "llm";
	row.status = "succeeded";
	row.created_ms = 1;
	row.max_steps = 1;
	row.input_tokens = row.output_tokens = -1;
	row.cost_usd = -1;
	row.source_attempt = -1;
	ok(amc_store_create_task(other, &row, &e) == 0, "another connection commits a task");
	ok(amc_tui_session_data_version(a) != v, "the counter changes");
	amc_task_free(t);
	amc_store_close(other);
}

/* A planner that finishes at once. */
static int planned;
static amc_plan_rc done_next(amc_planner *p, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)p; (void)ctx; (void)e;
	planned++;
	out->description = amc_xstrdup("nothing to do");
	return AMC_PLAN_DONE;
}

static void done_destroy(amc_planner *p)
{
	free(p);
}

static const amc_planner_ops DONE_OPS = { "done", done_next, done_destroy };

static amc_planner *done_planner(void)
{
	amc_planner *p = amc_xcalloc(1, sizeof *p);
	p->ops = &DONE_OPS;
	return p;
}

static void test_launch(amc_tui_app *a)
{
	amc_err e;
	int step = -1;
	ok(amc_tui_phase(a, "nosuchtask", &step) == NULL && step == -1, "no phase for an unknown task");
	is_int(amc_tui_own_running(a), 0, "no runners: nothing running here");
	is_int(amc_tui_cancel(a, "0123456789abcdef", &e), -1, "cancelling a task not launched here fails");
	like(e.msg, "01234567", "naming the task by its short id");
	like(e.msg, "cancel it where it was started", "and saying where to cancel it");

	/* The list of tasks launched here is full: the oldest goes. */
	for (int i = 0; i < AMC_TUI_MAX_OWN; i++)
		snprintf(a->own[i], sizeof a->own[i], "old%02d", i);
	a->nown = AMC_TUI_MAX_OWN;
	amc_task *t = amc_task_new("flow", "sim");
	char id[32];
	snprintf(id, sizeof id, "%s", t->id);
	a->follow = 0;
	amc_launch ln = { 0 };
	ln.task = t;
	ln.planner = done_planner();
	is_int(amc_tui_launch(a, &ln, &e), 0, "a task is launched on the sim");
	ok(!ln.task && !ln.planner, "the launch gave it its task and planner");
	is_int(a->nrunners, 1, "its device's runner was started");
	is_int(a->nown, AMC_TUI_MAX_OWN, "the list of own tasks stays at its size");
	is_str(a->own[0], "old01", "the oldest was dropped");
	is_str(a->own[AMC_TUI_MAX_OWN - 1], id, "the new one is last");
	ok(a->follow && !strcmp(a->follow_id, id), "it is followed");
	amc_tui_session_wait_idle(a, 60000);
	is_int(planned, 1, "the runner asked its planner");
	is_int(amc_tui_own_running(a), 0, "once done, nothing runs here");
	int followed = 0;
	amc_tui_session_drain(a, &followed);
	ok(followed && !a->follow, "its created row ends the follow");
	amc_task_row row;
	ok(amc_store_get_task(a->store, id, &row, &e) == 0, "its row is in the database");
	is_str(row.status, "succeeded", "and it succeeded");
	is_str(row.device, "sim:0", "on the sim");
	amc_task_row_free(&row);

	ln.task = amc_task_new("flow", "sim:0");
	ln.planner = done_planner();
	is_int(amc_tui_launch(a, &ln, &e), 0, "a second task on the same device");
	is_int(a->nrunners, 1, "reuses its runner");
	amc_tui_session_wait_idle(a, 60000);
	is_int(amc_tui_cancel(a, id, &e), -1, "a finished task cannot be cancelled");
	amc_tui_session_cancel_all(a);
	amc_tui_session_stop(a);
	is_int(a->nrunners, 0, "stop: no runner is left");
}

int main(void)
{
	const char *home = test_home("tuisession");
	amc_config *cfg = amc_config_new();
	amc_tui_app a;
	memset(&a, 0, sizeof a);
	a.cfg = cfg;
	snprintf(a.home, sizeof a.home, "%s", home);
	amc_err e;
	if (amc_store_open(home, &a.store, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	is_int(amc_tui_session_start(&a, &e), 0, "the session starts");
	test_events(&a);
	test_data_version(&a, home);
	test_launch(&a);
	amc_tui_session_end(&a);
	ok(a.wake[0] == -1 && a.wake[1] == -1 && !a.bus && !a.op, "the end closes the pipe, the bus and the operator");
	amc_tui_session_end(&a);
	ok(a.wake[0] == -1, "ending twice is harmless");
	amc_store_close(a.store);
	amc_config_free(cfg);
	return done_testing();
}
