/* test_runner.c - TaskRunner on the sim with a scripted planner: the D1 row
 * invariant on every entry path, step recording, observation reuse, settling,
 * failures, step limit, cancellation, the device lock, the per-device thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/device.h"
#include "image/png.h"
#include "runtime/events.h"
#include "runtime/runner.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"
#include "util/ids.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"

/* A planner that plays a fixed list of (tool, args JSON) and then finishes. */
typedef struct script {
	const char *const *steps; /* pairs: tool, args; "!fail" = decided failure; "?" = reobserve once */
	int n, at;
	int reobserved;
	atomic_int *cancel_at_step; /* set this flag when reaching step 3 */
	int plans;
} script;

static amc_plan_rc script_next(amc_planner *p, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	script *s = p->impl;
	(void)e;
	s->plans++;
	if (s->cancel_at_step && ctx->step == 3)
		atomic_store(s->cancel_at_step, 1);
	if (s->at >= s->n) {
		out->description = amc_xstrdup("script done");
		return AMC_PLAN_DONE;
	}
	const char *tool = s->steps[2 * s->at], *args = s->steps[2 * s->at + 1];
	if (!strcmp(tool, "?")) {
		if (ctx->waited_ms == 0)
			return AMC_PLAN_REOBSERVE;
		s->reobserved = 1;
		s->at++;
		tool = s->steps[2 * s->at];
		args = s->steps[2 * s->at + 1];
	}
	s->at++;
	if (!strcmp(tool, "!fail")) {
		snprintf(out->tool, sizeof out->tool, "assert_visible");
		out->decided = 1;
		out->decided_ok = 0;
		out->decided_error = amc_xstrdup(args);
		out->description = amc_xstrdup("assertVisible \"nothing\"");
		return AMC_PLAN_ACT;
	}
	snprintf(out->tool, sizeof out->tool, "%s", tool);
	out->args = cJSON_Parse(args);
	out->description = amc_xstrdup(tool);
	out->reasoning = amc_xstrdup("because the script says so");
	return AMC_PLAN_ACT;
}

static void script_destroy(amc_planner *p)
{
	free(p);
}

static const amc_planner_ops SCRIPT_OPS = { "script", script_next, script_destroy };

static amc_planner *planner_for(script *s)
{
	amc_planner *p = amc_xcalloc(1, sizeof *p);
	p->ops = &SCRIPT_OPS;
	p->impl = s;
	return p;
}

static int events_seen[8];
static void count_event(const amc_event *ev, void *ud)
{
	(void)ud;
	events_seen[ev->type]++;
}

int main(void)
{
	const char *home = test_home("runner");
	amc_err e;
	amc_config *cfg = amc_config_new();
	amc_store *store;
	if (amc_store_open(home, &store, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	amc_runner_opts opts;
	amc_runner_opts_from_config(&opts, cfg);
	amc_device *dev;
	ok(amc_device_open("sim", home, cfg, &dev, &e) == 0, "open sim");
	amc_bus *bus = amc_bus_new();
	amc_bus_subscribe(bus, count_event, NULL);

	/* 1. a successful task: launch, tap, describe_screen, get_ui_tree */
	static const char *const s1[] = {
		"launch_app", "{\"app_id\":\"com.android.settings\"}",
		"describe_screen", "{}",
		"tap", "{\"x\":540,\"y\":600}",
		"get_ui_tree", "{}",
	};
	script sc = { s1, 4, 0, 0, NULL, 0 };
	amc_planner *pl = planner_for(&sc);
	amc_task *t = amc_task_new("flow", "sim:0");
	t->flow_name = amc_xstrdup("scripted");
	/* D1: a caller that already created the row (idempotent create) */
	amc_task_row pre = { 0 };
	pre.id = t->id;
	pre.kind = "flow";
	pre.device = "sim:0";
	pre.planner = "script";
	pre.status = "queued";
	pre.flow_name = "scripted";
	pre.created_ms = 1;
	pre.source_attempt = -1;
	pre.input_tokens = pre.output_tokens = -1;
	pre.cost_usd = -1;
	ok(amc_store_create_task(store, &pre, &e) == 0, "caller creates the row first");
	amc_task_outcome out;
	int rc = amc_task_run(store, bus, dev, pl, t, &opts, NULL, &out, &e);
	ok(rc == 0, "task ran (%s)", rc ? e.msg : "");
	is_str(out.status, "succeeded", "task succeeded");
	is_int(out.steps, 4, "four steps");
	amc_task_row row;
	ok(amc_store_get_task(store, t->id, &row, &e) == 0, "row exists");
	is_str(row.status, "succeeded", "row status succeeded");
	is_str(row.summary, "script done", "summary recorded");
	ok(row.started_ms > 0 && row.finished_ms >= row.started_ms, "times recorded");
	amc_task_row_free(&row);
	long n = amc_store_count_tasks(store, &(amc_task_filter){ 0 }, &e);
	is_int(n, 1, "one row, not two (create is idempotent)");
	amc_step_row *steps;
	size_t ns;
	ok(amc_store_get_steps(store, t->id, &steps, &ns, &e) == 0 && ns == 4, "four records");
	if (ns == 4) {
		is_str(steps[0].tool, "launch_app", "record 1 tool");
		ok(steps[0].before_screenshot && steps[0].after_screenshot &&
		   strcmp(steps[0].before_screenshot, steps[0].after_screenshot), "launch has distinct before/after");
		is_str(steps[1].before_screenshot, steps[0].after_screenshot, "post-action observation reused as next pre-action");
		is_str(steps[1].after_screenshot, steps[1].before_screenshot, "describe_screen does not act: after = before");
		is_str(steps[0].screenshot_path, steps[0].after_screenshot, "legacy screenshot_path = after");
		like(steps[1].result, "\"elements\"", "describe_screen result is a scene");
		ok(steps[0].ui_tree == NULL, "no tree inline on a launch record");
		ok(steps[3].ui_tree && strstr(steps[3].ui_tree, "\"nodes\""), "get_ui_tree record carries the tree (D4)");
		ok(steps[0].ui_tree_path != NULL, "every record references its tree artifact");
		/* Default policy gaps: the status bar clock exists only in pixels. */
		like(steps[0].ocr, "\"text\":\"09:41\"", "raw OCR words recorded (gaps finds the status-bar clock)");
		like(steps[2].timings, "\"settle_frames\"", "timings per phase");
		is_str(steps[2].reasoning, "because the script says so", "reasoning stored");
		char abs[4096];
		ok(amc_store_artifact_abspath(store, steps[2].after_screenshot, abs, sizeof abs, &e) == 0 &&
		   access(abs, F_OK) == 0, "after artifact exists");
		/* a thumbnail beside every stored screenshot, written before the row */
		char trel[4096];
		amc_image th = { 0 };
		ok(amc_store_thumb_path(steps[2].after_screenshot, trel, sizeof trel) == 0 &&
		   amc_store_artifact_abspath(store, trel, abs, sizeof abs, &e) == 0 &&
		   amc_png_decode_file(abs, &th, &e) == 0, "the screenshot has a thumbnail beside it");
		ok((th.w > th.h ? th.w : th.h) == AMC_STORE_THUMB_SIDE, "thumbnail's longest side is %d px (%dx%d)",
		   AMC_STORE_THUMB_SIDE, th.w, th.h);
		amc_image_free(&th);
	}
	amc_step_rows_free(steps, ns);
	ok(events_seen[AMC_EV_TASK_CREATED] == 1 && events_seen[AMC_EV_STEP_FINISHED] == 4, "events published");
	amc_planner_free(pl);
	amc_task_free(t);

	/* 2. a failing decided step ends the task failed, with the message */
	static const char *const s2[] = { "describe_screen", "{}", "!fail", "no element matches text=\"Unicorn\"" };
	script sc2 = { s2, 2, 0, 0, NULL, 0 };
	pl = planner_for(&sc2);
	t = amc_task_new("flow", "sim:0");
	amc_task_run(store, bus, dev, pl, t, &opts, NULL, &out, &e);
	is_str(out.status, "failed", "decided failure fails the task");
	like(out.error, "step 2: no element matches", "error names the step and says why");
	amc_planner_free(pl);
	amc_task_free(t);

	/* 3. a device error (tap outside the screen) fails the step and the task */
	static const char *const s3[] = { "tap", "{\"x\":99999,\"y\":1}" };
	script sc3 = { s3, 1, 0, 0, NULL, 0 };
	pl = planner_for(&sc3);
	t = amc_task_new("flow", "sim:0");
	amc_task_run(store, bus, dev, pl, t, &opts, NULL, &out, &e);
	is_str(out.status, "failed", "device error fails the task");
	is_int(out.steps, 1, "the failed step is recorded");
	amc_planner_free(pl);
	amc_task_free(t);

	/* 4. unknown tool and bad args */
	static const char *const s4[] = { "teleport", "{}" };
	script sc4 = { s4, 1, 0, 0, NULL, 0 };
	pl = planner_for(&sc4);
	t = amc_task_new("flow", "sim:0");
	amc_task_run(store, bus, dev, pl, t, &opts, NULL, &out, &e);
	like(out.error, "unknown tool 'teleport'", "unknown tool is a failed step");
	amc_planner_free(pl);
	amc_task_free(t);

	/* 5. the step limit */
	static const char *const s5[] = { "wait", "{\"ms\":10}", "wait", "{\"ms\":10}", "wait", "{\"ms\":10}" };
	script sc5 = { s5, 3, 0, 0, NULL, 0 };
	pl = planner_for(&sc5);
	t = amc_task_new("flow", "sim:0");
	t->max_steps = 2;
	amc_task_run(store, bus, dev, pl, t, &opts, NULL, &out, &e);
	is_str(out.status, "failed", "step limit fails the task");
	like(out.error, "step limit (2)", "step limit message");
	is_int(out.steps, 2, "stopped at the limit");
	amc_planner_free(pl);
	amc_task_free(t);

	/* 6. REOBSERVE: the runner looks again and asks again */
	static const char *const s6[] = { "?", "", "describe_screen", "{}" };
	script sc6 = { s6, 2, 0, 0, NULL, 0 };
	pl = planner_for(&sc6);
	t = amc_task_new("flow", "sim:0");
	amc_task_run(store, bus, dev, pl, t, &opts, NULL, &out, &e);
	is_str(out.status, "succeeded", "reobserve then act");
	ok(sc6.reobserved == 1, "planner saw waited_ms > 0 after a reobserve");
	amc_planner_free(pl);
	amc_task_free(t);

	/* 7. cooperative cancellation between phases */
	atomic_int cancel;
	atomic_init(&cancel, 0);
	static const char *const s7[] = { "wait", "{\"ms\":10}", "wait", "{\"ms\":10}", "wait", "{\"ms\":10}",
					  "wait", "{\"ms\":10}" };
	script sc7 = { s7, 4, 0, 0, &cancel, 0 };
	pl = planner_for(&sc7);
	t = amc_task_new("flow", "sim:0");
	amc_task_run(store, bus, dev, pl, t, &opts, &cancel, &out, &e);
	is_str(out.status, "cancelled", "cancel flag -> cancelled");
	ok(out.steps >= 2 && out.steps <= 3, "cancelled between steps (%d done)", out.steps);
	amc_planner_free(pl);
	amc_task_free(t);

	/* 8. a busy device: no row, an environment error naming the holder */
	amc_lock *held;
	ok(amc_device_lock(home, "sim:0", "0123456789abcdef", &held, &e) == 0, "someone holds sim:0");
	script sc8 = { s1, 1, 0, 0, NULL, 0 };
	pl = planner_for(&sc8);
	t = amc_task_new("flow", "sim:0");
	rc = amc_task_run(store, bus, dev, pl, t, &opts, NULL, &out, &e);
	ok(rc == -1 && e.code == AMC_EENV, "busy device -> environment error");
	like(e.msg, "busy with task 0123456789abcdef", "busy message names the task");
	ok(amc_store_get_task(store, t->id, &row, NULL) != 0, "no row for a task that could not start");
	amc_device_unlock(held);
	amc_planner_free(pl);
	amc_task_free(t);

	/* 9. capture faults are retried; certain failure fails the task cleanly */
	amc_device_close(dev);
	amc_config_set(cfg, "sim", "faults", "screenshot:1", "test", &e);
	ok(amc_device_open("sim", home, cfg, &dev, &e) == 0, "open sim with failing screenshots");
	script sc9 = { s1, 1, 0, 0, NULL, 0 };
	pl = planner_for(&sc9);
	t = amc_task_new("flow", "sim:0");
	amc_task_run(store, bus, dev, pl, t, &opts, NULL, &out, &e);
	is_str(out.status, "failed", "screenshots that always fail -> failed task");
	like(out.error, "screenshot", "error says the screenshot failed");
	amc_planner_free(pl);
	amc_task_free(t);
	amc_device_close(dev);
	amc_config_set(cfg, "sim", "faults", "screenshot:0.3,ui_tree:0.3", "test", &e);
	ok(amc_device_open("sim", home, cfg, &dev, &e) == 0, "open sim with flaky captures");
	static const char *const s9[] = { "wait", "{\"ms\":10}", "wait", "{\"ms\":10}", "wait", "{\"ms\":10}" };
	script sc10 = { s9, 3, 0, 0, NULL, 0 };
	pl = planner_for(&sc10);
	t = amc_task_new("flow", "sim:0");
	opts.capture_retries = 10;
	amc_task_run(store, bus, dev, pl, t, &opts, NULL, &out, &e);
	is_str(out.status, "succeeded", "flaky captures are retried");
	amc_planner_free(pl);
	amc_task_free(t);
	amc_device_close(dev);
	amc_config_set(cfg, "sim", "faults", "", "test", &e);

	/* 10. the per-device runner thread: queue, D1 rows for every task, cancel while queued */
	amc_runner *r;
	ok(amc_runner_start(home, "sim", cfg, bus, &r, &e) == 0, "runner thread starts");
	script q1 = { s9, 3, 0, 0, NULL, 0 }, q2 = { s9, 3, 0, 0, NULL, 0 }, q3 = { s9, 3, 0, 0, NULL, 0 };
	amc_task *t1 = amc_task_new("flow", "sim"), *t2 = amc_task_new("flow", "sim"), *t3 = amc_task_new("flow", "sim");
	char id1[AMC_ID_SIZE], id2[AMC_ID_SIZE], id3[AMC_ID_SIZE];
	strcpy(id1, t1->id);
	strcpy(id2, t2->id);
	strcpy(id3, t3->id);
	ok(amc_runner_submit(r, t1, planner_for(&q1), &e) == 0, "submit 1");
	ok(amc_runner_submit(r, t2, planner_for(&q2), &e) == 0, "submit 2");
	ok(amc_runner_submit(r, t3, planner_for(&q3), &e) == 0, "submit 3");
	ok(amc_runner_cancel(r, id3) == 0, "cancel the third while queued");
	ok(amc_runner_wait_idle(r, 60000) == 0, "runner drains its queue");
	ok(amc_store_get_task(store, id1, &row, &e) == 0, "task 1 row");
	is_str(row.status, "succeeded", "task 1 succeeded on the runner thread");
	is_str(row.device, "sim:0", "device id canonical");
	amc_task_row_free(&row);
	ok(amc_store_get_task(store, id2, &row, &e) == 0, "task 2 row");
	is_str(row.status, "succeeded", "task 2 succeeded after task 1");
	amc_task_row_free(&row);
	ok(amc_store_get_task(store, id3, &row, &e) == 0, "a task cancelled while queued still has a row");
	is_str(row.status, "cancelled", "it is cancelled");
	amc_task_row_free(&row);
	amc_runner_stop(r, 0);

	amc_bus_free(bus);
	amc_store_close(store);
	amc_config_free(cfg);
	return done_testing();
}
