/* test_run.c - one task on the sim with a scripted planner (run.c): the row
 * exists before the task runs on every entry path, step recording, observation
 * reuse, settling, failures, step limit, cancellation, the device lock, the
 * planner's hooks, per-task options, tasks that never ran. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "device/device.h"
#include "image/png.h"
#include "runtime/events.h"
#include "runtime/run.h"
#include "script_planner.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"
#include "util/strbuf.h"

static int events_seen[8];
static void count_event(const amc_event *ev, void *ud)
{
	(void)ud;
	events_seen[ev->type]++;
}

/* What the planner's hooks were told. */
typedef struct told {
	int recorded, ended;
	char statuses[64];           /* one letter per recorded step: o(k), f(ailed), r(efused) */
	int after_has_png;           /* every report had a stored after screenshot */
	amc_task_outcome outcome;
} told;

static told hook_log;
static void log_recorded(amc_planner *p, const amc_step_report *r)
{
	(void)p;
	size_t k = strlen(hook_log.statuses);
	if (k + 1 < sizeof hook_log.statuses)
		hook_log.statuses[k] = r->status[0];
	if (hook_log.recorded == 0)
		hook_log.after_has_png = 1;
	hook_log.after_has_png &= r->after && r->after->png_path != NULL && r->step == hook_log.recorded + 1;
	hook_log.recorded++;
}

static void log_ended(amc_planner *p, const amc_task_outcome *o)
{
	(void)p;
	hook_log.ended++;
	hook_log.outcome = *o;
}

static const amc_planner_hooks LOG_HOOKS = { log_recorded, log_ended };

typedef struct fixture {
	amc_store *store;
	amc_bus *bus;
	amc_device *dev;
	amc_runner_opts opts;
	char id[AMC_ID_SIZE];        /* the last task's id */
} fixture;

/* Run a script of n (tool, args) pairs as one task; the task and planner are
 * freed, the outcome and the task id kept. */
static int run_script(fixture *f, script *sc, int max_steps, atomic_int *cancel,
		      const amc_planner_hooks *hooks, amc_task_outcome *out, amc_err *e)
{
	amc_planner *pl = planner_for(sc);
	pl->hooks = hooks;
	amc_task *t = amc_task_new("flow", "sim:0");
	t->max_steps = max_steps;
	snprintf(f->id, sizeof f->id, "%s", t->id);
	int rc = amc_task_run(&(amc_run_env){ f->store, f->bus, f->dev, cancel, NULL, NULL, NULL }, pl, t, &f->opts, out, e);
	ok(pl->cancel == NULL, "the planner holds no cancel flag after the run");
	amc_planner_free(pl);
	amc_task_free(t);
	return rc;
}

static void test_success(fixture *f)
{
	/* a successful task: launch, tap, describe_screen, get_ui_tree */
	static const char *const s1[] = {
		"launch_app", "{\"app_id\":\"com.android.settings\"}",
		"describe_screen", "{}",
		"tap", "{\"x\":540,\"y\":600}",
		"get_ui_tree", "{}",
	};
	script sc = { s1, 4, 0, 0, NULL, 0, 0 };
	amc_planner *pl = planner_for(&sc);
	pl->hooks = &LOG_HOOKS;
	amc_task *t = amc_task_new("flow", "sim:0");
	t->flow_name = amc_xstrdup("scripted");
	amc_err e;
	/* a caller that already created the row (idempotent create) */
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
	ok(amc_store_create_task(f->store, &pre, &e) == 0, "caller creates the row first");
	amc_task_outcome out;
	int rc = amc_task_run(&(amc_run_env){ f->store, f->bus, f->dev, NULL, NULL, NULL, NULL }, pl, t, &f->opts, &out, &e);
	ok(rc == 0, "task ran (%s)", rc ? e.msg : "");
	is_str(out.status, "succeeded", "task succeeded");
	is_int(out.steps, 4, "four steps");
	ok(sc.saw_cancel == 0, "no cancel flag given, none on the planner");
	is_int(hook_log.recorded, 4, "the planner's hook was told of every recorded step");
	is_str(hook_log.statuses, "oooo", "with each step's status");
	ok(hook_log.after_has_png, "in order, with the stored screen after each step");
	is_int(hook_log.ended, 1, "and once of the end");
	is_str(hook_log.outcome.status, "succeeded", "with the outcome");
	is_str(hook_log.outcome.summary, "script done", "and its summary");
	amc_task_row row;
	ok(amc_store_get_task(f->store, t->id, &row, &e) == 0, "row exists");
	is_str(row.status, "succeeded", "row status succeeded");
	is_str(row.summary, "script done", "summary recorded");
	is_str(row.planner, "script", "planner name recorded");
	is_str(row.kind, "flow", "kind recorded");
	ok(row.started_ms > 0 && row.finished_ms >= row.started_ms, "times recorded");
	amc_task_row_free(&row);
	long n = amc_store_count_tasks(f->store, &(amc_task_filter){ 0 }, &e);
	is_int(n, 1, "one row, not two (create is idempotent)");
	amc_step_row *steps;
	size_t ns;
	ok(amc_store_get_steps(f->store, t->id, &steps, &ns, &e) == 0 && ns == 4, "four records");
	if (ns == 4) {
		is_str(steps[0].tool, "launch_app", "record 1 tool");
		ok(steps[0].before_screenshot && steps[0].after_screenshot &&
		   strcmp(steps[0].before_screenshot, steps[0].after_screenshot), "launch has distinct before/after");
		is_str(steps[1].before_screenshot, steps[0].after_screenshot, "post-action observation reused as next pre-action");
		is_str(steps[1].after_screenshot, steps[1].before_screenshot, "describe_screen does not act: after = before");
		is_str(steps[0].screenshot_path, steps[0].after_screenshot, "legacy screenshot_path = after");
		like(steps[1].result, "\"elements\"", "describe_screen result is a scene");
		ok(steps[0].ui_tree == NULL, "no tree inline on a launch record");
		ok(steps[3].ui_tree && strstr(steps[3].ui_tree, "\"nodes\""), "get_ui_tree record carries the tree itself");
		ok(steps[0].ui_tree_path != NULL, "every record references its tree artifact");
		/* Default policy gaps: the status bar clock exists only in pixels. */
		like(steps[0].ocr, "\"text\":\"09:41\"", "raw OCR words recorded (gaps finds the status-bar clock)");
		like(steps[2].timings, "\"settle_frames\"", "timings per phase");
		/* Device calls per step: the first step pays for the first look
		 * (one frame, one tree) and its own settling; settling compares
		 * frames by pixels and dumps the tree once, for the kept frame. */
		amc_device_calls c[4] = { 0 };
		int parsed = 0;
		for (int i = 0; i < 4; i++)
			parsed += amc_device_calls_add_json(&c[i], steps[i].timings) == 0;
		is_int(parsed, 4, "every step records its device calls");
		cJSON *t2 = cJSON_Parse(steps[2].timings);
		int frames2 = cJSON_GetObjectItemCaseSensitive(t2, "settle_frames")->valueint;
		cJSON_Delete(t2);
		is_int((int)c[0].inputs.count, 1, "launch: one input");
		is_int((int)c[0].trees.count, 2, "launch: two tree dumps (the first look, the settled screen)");
		ok(c[0].screenshots.count >= 3, "launch: the first look and the settle frames (%ld)", c[0].screenshots.count);
		ok(c[1].screenshots.count + c[1].trees.count + c[1].inputs.count == 0,
		   "describe_screen reads the observation it has: no device call");
		is_int((int)c[2].inputs.count, 1, "tap: one input");
		is_int((int)c[2].screenshots.count, frames2, "tap: a screenshot per settle frame (%d), none more", frames2);
		is_int((int)c[2].trees.count, 1, "tap: one tree dump however many frames settling compared");
		ok(c[3].trees.count == 0 && c[3].screenshots.count == 0, "get_ui_tree answers from the observation");
		ok(c[2].screenshots.ms > 0, "call time is measured (%.2f ms)", c[2].screenshots.ms);
		is_str(steps[2].reasoning, "because the script says so", "reasoning stored");
		char abs[4096];
		ok(amc_store_artifact_abspath(f->store, steps[2].after_screenshot, abs, sizeof abs, &e) == 0 &&
		   access(abs, F_OK) == 0, "after artifact exists");
		/* no thumbnail written at capture: the first reader makes it */
		char trel[4096], tabs[4096];
		amc_image th = { 0 };
		int made = 0;
		ok(amc_store_thumb_path(steps[2].after_screenshot, trel, sizeof trel) == 0 &&
		   amc_store_artifact_abspath(f->store, trel, tabs, sizeof tabs, &e) == 0 && access(tabs, F_OK) != 0,
		   "no thumbnail written with the step");
		ok(amc_store_thumb_get(abs, NULL, &th, &made, &e) == 0 && made && access(tabs, F_OK) == 0,
		   "the first reader makes it beside the screenshot: %s", e.msg);
		ok((th.w > th.h ? th.w : th.h) == AMC_STORE_THUMB_SIDE, "thumbnail's longest side is %d px (%dx%d)",
		   AMC_STORE_THUMB_SIDE, th.w, th.h);
		amc_image_free(&th);
		ok(amc_store_thumb_get(abs, NULL, &th, &made, &e) == 0 && !made &&
			   (th.w > th.h ? th.w : th.h) == AMC_STORE_THUMB_SIDE,
		   "the next reader reads it");
		amc_image_free(&th);
	}
	amc_step_rows_free(steps, ns);
	ok(events_seen[AMC_EV_TASK_CREATED] == 1 && events_seen[AMC_EV_STEP_FINISHED] == 4, "events published");
	amc_planner_free(pl);
	amc_task_free(t);
}

/* The OCR policy is the task's: a task with OCR off records no words while the
 * tasks around it (policy gaps) still read the status-bar clock. */
static void test_ocr_per_task(fixture *f)
{
	static const char *const s[] = { "describe_screen", "{}" };
	amc_task_outcome out;
	amc_err e;
	amc_step_row *steps;
	size_t ns;
	static const amc_ocr_policy policies[] = { AMC_OCR_OFF, AMC_OCR_GAPS };
	static const char *const want[] = { "[]", "\"text\":\"09:41\"" };
	for (int i = 0; i < 2; i++) {
		amc_ocr_policy saved = f->opts.ocr_policy;
		f->opts.ocr_policy = policies[i];
		script sc = { s, 1, 0, 0, NULL, 0, 0 };
		run_script(f, &sc, 0, NULL, NULL, &out, &e);
		f->opts.ocr_policy = saved;
		ok(amc_store_get_steps(f->store, f->id, &steps, &ns, &e) == 0 && ns == 1, "one record");
		if (ns == 1 && i == 0)
			is_str(steps[0].ocr, want[i], "a task with OCR off records no words");
		else if (ns == 1)
			like(steps[0].ocr, want[i], "the next task, policy gaps, reads the clock again");
		amc_step_rows_free(steps, ns);
	}
}

static void test_failures(fixture *f)
{
	amc_task_outcome out;
	amc_err e;

	/* a failing decided step ends the task failed, with the message */
	static const char *const s2[] = { "describe_screen", "{}", "!fail", "no element matches text=\"Unicorn\"" };
	script sc2 = { s2, 2, 0, 0, NULL, 0, 0 };
	memset(&hook_log, 0, sizeof hook_log);
	run_script(f, &sc2, 0, NULL, &LOG_HOOKS, &out, &e);
	is_str(out.status, "failed", "decided failure fails the task");
	like(out.error, "step 2: no element matches", "error names the step and says why");
	is_str(hook_log.statuses, "of", "the hook saw the ok step, then the failed one");
	is_str(hook_log.outcome.status, "failed", "and the failed end");

	/* a device error (tap outside the screen) fails the step and the task */
	static const char *const s3[] = { "tap", "{\"x\":99999,\"y\":1}" };
	script sc3 = { s3, 1, 0, 0, NULL, 0, 0 };
	run_script(f, &sc3, 0, NULL, NULL, &out, &e);
	is_str(out.status, "failed", "device error fails the task");
	is_int(out.steps, 1, "the failed step is recorded");

	/* unknown tool */
	static const char *const s4[] = { "teleport", "{}" };
	script sc4 = { s4, 1, 0, 0, NULL, 0, 0 };
	run_script(f, &sc4, 0, NULL, NULL, &out, &e);
	like(out.error, "unknown tool 'teleport'", "unknown tool is a failed step");

	/* the step limit */
	static const char *const s5[] = { "wait", "{\"ms\":10}", "wait", "{\"ms\":10}", "wait", "{\"ms\":10}" };
	script sc5 = { s5, 3, 0, 0, NULL, 0, 0 };
	run_script(f, &sc5, 2, NULL, NULL, &out, &e);
	is_str(out.status, "failed", "step limit fails the task");
	like(out.error, "step limit (2)", "step limit message");
	is_int(out.steps, 2, "stopped at the limit");
}

static void test_reobserve_and_cancel(fixture *f)
{
	amc_task_outcome out;
	amc_err e;

	/* REOBSERVE: the runner looks again and asks again */
	static const char *const s6[] = { "?", "", "describe_screen", "{}" };
	script sc6 = { s6, 2, 0, 0, NULL, 0, 0 };
	run_script(f, &sc6, 0, NULL, NULL, &out, &e);
	is_str(out.status, "succeeded", "reobserve then act");
	ok(sc6.reobserved == 1, "planner saw waited_ms > 0 after a reobserve");

	/* cooperative cancellation between phases */
	atomic_int cancel;
	atomic_init(&cancel, 0);
	static const char *const s7[] = { "wait", "{\"ms\":10}", "wait", "{\"ms\":10}", "wait", "{\"ms\":10}",
					  "wait", "{\"ms\":10}" };
	script sc7 = { s7, 4, 0, 0, &cancel, 0, 0 };
	run_script(f, &sc7, 0, &cancel, NULL, &out, &e);
	is_str(out.status, "cancelled", "cancel flag -> cancelled");
	ok(out.steps >= 2 && out.steps <= 3, "cancelled between steps (%d done)", out.steps);
	ok(sc7.saw_cancel, "the planner could see the task's cancel flag while it ran");
}

static void test_busy(fixture *f, const char *home)
{
	/* a busy device: no row, an environment error naming the holder */
	static const char *const s[] = { "describe_screen", "{}" };
	amc_lock *held;
	amc_err e;
	amc_task_outcome out;
	ok(amc_device_lock(home, "sim:0", "0123456789abcdef", &held, &e) == 0, "someone holds sim:0");
	script sc8 = { s, 1, 0, 0, NULL, 0, 0 };
	memset(&hook_log, 0, sizeof hook_log);
	int rc = run_script(f, &sc8, 0, NULL, &LOG_HOOKS, &out, &e);
	ok(rc == -1 && e.code == AMC_EENV, "busy device -> environment error");
	like(e.msg, "busy with task 0123456789abcdef", "busy message names the task");
	amc_task_row row;
	ok(amc_store_get_task(f->store, f->id, &row, NULL) != 0, "no row for a task that could not start");
	is_int(hook_log.ended, 0, "a task that could not start is the caller's to report");
	amc_device_unlock(held);
}

/* A task that never ran still gets a row, an event and its planner is told. */
static void test_unrun(fixture *f)
{
	script sc = { NULL, 0, 0, 0, NULL, 0, 0 };
	amc_planner *pl = planner_for(&sc);
	pl->hooks = &LOG_HOOKS;
	memset(&hook_log, 0, sizeof hook_log);
	amc_task *t = amc_task_new("goal", "sim:0");
	t->goal = amc_xstrdup("open settings");
	int before = events_seen[AMC_EV_TASK_STATUS];
	amc_task_record_unrun(f->store, f->bus, t, pl, 7, AMC_ST_CANCELLED, "cancelled before it started");
	amc_task_row row;
	amc_err e;
	ok(amc_store_get_task(f->store, t->id, &row, &e) == 0, "the task that never ran has a row");
	is_str(row.status, "cancelled", "in the status given");
	is_str(row.error, "cancelled before it started", "with the reason");
	is_str(row.goal, "open settings", "and the task's goal");
	is_int(row.max_steps, 7, "the default step limit when the task sets none");
	ok(row.finished_ms > 0, "it is finished");
	amc_task_row_free(&row);
	is_int(events_seen[AMC_EV_TASK_STATUS], before + 1, "its status is published");
	is_int(hook_log.ended, 1, "the planner is told it ended");
	is_str(hook_log.outcome.error, "cancelled before it started", "and why");
	amc_planner_free(pl);
	amc_task_free(t);
}

static void test_capture_faults(fixture *f, const char *home, amc_config *cfg)
{
	/* capture faults are retried; certain failure fails the task cleanly */
	static const char *const s1[] = { "describe_screen", "{}" };
	amc_err e;
	amc_task_outcome out;
	amc_device_close(f->dev);
	amc_config_set(cfg, "sim", "faults", "screenshot:1", "test", &e);
	ok(amc_device_open("sim", home, cfg, &f->dev, &e) == 0, "open sim with failing screenshots");
	script sc9 = { s1, 1, 0, 0, NULL, 0, 0 };
	run_script(f, &sc9, 0, NULL, NULL, &out, &e);
	is_str(out.status, "failed", "screenshots that always fail -> failed task");
	like(out.error, "screenshot", "error says the screenshot failed");
	amc_device_close(f->dev);
	amc_config_set(cfg, "sim", "faults", "screenshot:0.3,ui_tree:0.3", "test", &e);
	ok(amc_device_open("sim", home, cfg, &f->dev, &e) == 0, "open sim with flaky captures");
	static const char *const s9[] = { "wait", "{\"ms\":10}", "wait", "{\"ms\":10}", "wait", "{\"ms\":10}" };
	script sc10 = { s9, 3, 0, 0, NULL, 0, 0 };
	f->opts.capture_retries = 10;
	run_script(f, &sc10, 0, NULL, NULL, &out, &e);
	is_str(out.status, "succeeded", "flaky captures are retried");
	amc_device_close(f->dev);
	amc_config_set(cfg, "sim", "faults", "", "test", &e);
}

int main(void)
{
	const char *home = test_home("run");
	amc_err e;
	amc_config *cfg = amc_config_new();
	fixture f = { 0 };
	if (amc_store_open(home, &f.store, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	amc_runner_opts_from_config(&f.opts, cfg);
	ok(amc_device_open("sim", home, cfg, &f.dev, &e) == 0, "open sim");
	f.bus = amc_bus_new();
	amc_bus_subscribe(f.bus, count_event, NULL);

	test_success(&f);
	test_ocr_per_task(&f);
	test_failures(&f);
	test_reobserve_and_cancel(&f);
	test_busy(&f, home);
	test_unrun(&f);
	test_capture_faults(&f, home, cfg);

	amc_bus_free(f.bus);
	amc_store_close(f.store);
	amc_config_free(cfg);
	return done_testing();
}
