/* test_extplanner.c - a planner whose actions are handed in from another
 * thread: real tasks on the sim, run on a task thread as a runner would and
 * driven from this one; the timeline rows and the sim's state show what ran.
 * Also: cancel while it waits for an action, the bounded wait, finish (both
 * ways), the handle going away, and a task on a per-device runner. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "device/sim/sim.h"
#include "image/png.h"
#include "planner/extplanner.h"
#include "runtime/run.h"
#include "launch/runner.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/config.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"

typedef struct fixture {
	amc_store *store;
	amc_device *dev;
	amc_runner_opts opts;
} fixture;

/* One task on its own thread, as a runner runs it: the thread frees the
 * planner when the task is over, the test keeps the handle. */
typedef struct task_thread {
	fixture *f;
	amc_planner *planner;
	amc_extplanner *x;
	amc_task *task;
	atomic_int cancel;
	amc_task_outcome out;
	int rc;
	long long ms;                /* how long the task took */
	pthread_t th;
} task_thread;

static void *task_main(void *arg)
{
	task_thread *t = arg;
	amc_err e;
	long long t0 = amc_mono_ms();
	t->rc = amc_task_run(&(amc_run_env){ t->f->store, NULL, t->f->dev, &t->cancel, NULL, NULL, NULL }, t->planner, t->task, &t->f->opts, &t->out, &e);
	t->ms = amc_mono_ms() - t0;
	amc_planner_free(t->planner);
	return NULL;
}

static void task_start_edge(task_thread *t, fixture *f, long wait_ms, int image_edge)
{
	memset(t, 0, sizeof *t);
	t->f = f;
	atomic_init(&t->cancel, 0);
	amc_extplanner_opts o = { .wait_ms = wait_ms, .gated = 0, .image_edge = image_edge };
	amc_extplanner_new(&o, &t->planner, &t->x);
	t->task = amc_task_new("goal", "sim:0");
	t->task->goal = amc_xstrdup("driven from outside");
	pthread_create(&t->th, NULL, task_main, t);
}

static void task_start(task_thread *t, fixture *f, long wait_ms)
{
	task_start_edge(t, f, wait_ms, 0);
}

/* Start a task and wait until it asks for its first action. */
static void task_start_asked(task_thread *t, fixture *f, const char *what)
{
	task_start(t, f, 0);
	amc_err e;
	int step = 0;
	ok(amc_extplanner_wait_asked(t->x, 30000, &step, NULL, &e) == 0 && step == 1,
	   "%s: the task waits for its first action", what);
}

static void task_join(task_thread *t)
{
	pthread_join(t->th, NULL);
	amc_task_free(t->task);
}

/* Hand an action in and wait for its answer. */
static int act(amc_extplanner *x, const char *tool, const char *args_json, const char *reason, amc_ext_answer *a)
{
	amc_err e;
	cJSON *args = cJSON_Parse(args_json);
	int rc = amc_extplanner_give(x, tool, args, reason, &e);
	cJSON_Delete(args);
	if (rc != 0) {
		diag("give %s: %s", tool, e.msg);
		return -1;
	}
	return amc_extplanner_wait(x, 60000, a, &e);
}

/* The centre of the first scene element whose text is `text`; 0 if found. */
static int find_text(const cJSON *scene, const char *text, int *x, int *y)
{
	const cJSON *el;
	cJSON_ArrayForEach(el, cJSON_GetObjectItemCaseSensitive(scene, "elements")) {
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(el, "bounds");
		const char *t = amc_json_str(el, "text");
		if (t && !strcmp(t, text) && cJSON_GetArraySize(b) == 4) {
			*x = (cJSON_GetArrayItem(b, 0)->valueint + cJSON_GetArrayItem(b, 2)->valueint) / 2;
			*y = (cJSON_GetArrayItem(b, 1)->valueint + cJSON_GetArrayItem(b, 3)->valueint) / 2;
			return 0;
		}
	}
	return -1;
}

/* An agent's words before each act, as agentcli reads them from its CLI. */
static char *agent_words(void *ud, const char *reason)
{
	(void)ud;
	if (reason && !strcmp(reason, "open Wi-Fi"))
		return strdup("Settings is open.");
	return reason ? NULL : strdup("I look again.");
}

static void test_drive(fixture *f)
{
	task_thread t;
	task_start(&t, f, 0);
	amc_err e;
	int step = 0;
	cJSON *scene = NULL;
	ok(amc_extplanner_wait_asked(t.x, 30000, &step, &scene, &e) == 0, "the task asks for its first action");
	is_int(step, 1, "for step 1");
	int x = 0, y = 0;
	ok(scene && find_text(scene, "Settings", &x, &y) == 0, "with the screen it will act on (the launcher)");
	cJSON_Delete(scene);

	ok(amc_extplanner_give(t.x, "teleport", NULL, NULL, &e) == -1 && e.code == AMC_EUSAGE, "an unknown tool is refused");
	like(e.msg, "unknown tool 'teleport'", "saying which");
	cJSON *arr = cJSON_CreateArray();
	ok(amc_extplanner_give(t.x, "tap", arr, NULL, &e) == -1 && e.code == AMC_EUSAGE, "arguments that are not an object are refused");
	cJSON_Delete(arr);
	amc_ext_answer a;
	ok(amc_extplanner_wait(t.x, 0, &a, &e) == -1 && e.code == AMC_EUSAGE, "nothing handed in: nothing to wait for");

	/* tap the Settings icon */
	char args[64];
	snprintf(args, sizeof args, "{\"x\":%d,\"y\":%d}", x, y);
	cJSON *aj = cJSON_Parse(args);
	ok(amc_extplanner_give(t.x, "tap", aj, "open Settings", &e) == 0, "hand in a tap");
	ok(amc_extplanner_give(t.x, "tap", aj, NULL, &e) == -1 && e.code == AMC_EUSAGE,
	   "a second action before the first is answered is refused");
	cJSON_Delete(aj);
	ok(amc_extplanner_wait(t.x, 60000, &a, &e) == 0, "its answer comes");
	is_int(a.step, 1, "it became step 1");
	is_str(a.status, "ok", "and went well");
	ok(a.screenshot[0] != '\0', "the answer names the screen after it (%s)", a.screenshot);
	is_int(a.ended, 0, "the task goes on");
	amc_ext_answer_clear(&a);

	/* a failing action is reported back; the task goes on */
	ok(act(t.x, "tap", "{\"x\":99999,\"y\":1}", NULL, &a) == 0, "a tap outside the screen is answered");
	is_int(a.step, 2, "as step 2");
	is_str(a.status, "failed", "failed");
	ok(a.error[0] != '\0', "with the device's error (%s)", a.error);
	is_int(a.ended, 0, "and the task goes on: the agent decides");
	amc_ext_answer_clear(&a);

	/* the next screen, and a tap on Wi-Fi in it */
	ok(amc_extplanner_wait_asked(t.x, 30000, &step, &scene, &e) == 0 && step == 3, "asked for step 3");
	ok(scene && find_text(scene, "Wi-Fi", &x, &y) == 0, "on the Settings screen");
	cJSON_Delete(scene);
	snprintf(args, sizeof args, "{\"x\":%d,\"y\":%d}", x, y);
	amc_extplanner_set_words(t.x, agent_words, NULL); /* what an agent CLI said before its acts */
	ok(act(t.x, "tap", args, "open Wi-Fi", &a) == 0 && !strcmp(a.status, "ok"), "tap Wi-Fi");
	amc_ext_answer_clear(&a);
	ok(act(t.x, "describe_screen", "{}", NULL, &a) == 0, "describe the screen");
	char *res = a.result ? amc_json_print(a.result) : NULL;
	like(res, "\"elements\"", "the answer carries the tool's result");
	free(res);
	amc_ext_answer_clear(&a);

	amc_extplanner_set_answer(t.x, "HomeNet");
	ok(amc_extplanner_finish(t.x, 1, "Wi-Fi settings are open", &e) == 0, "finish, with an answer");
	ok(amc_extplanner_wait(t.x, 60000, &a, &e) == 0 && a.ended, "the answer to finish is the end");
	is_str(a.outcome.status, "succeeded", "the task succeeded");
	is_str(a.outcome.summary, "Wi-Fi settings are open", "with the summary handed in");
	is_int(a.outcome.steps, 4, "after four steps");
	ok(amc_extplanner_give(t.x, "wait", NULL, NULL, &e) == -1 && e.code == AMC_EFAIL, "nothing more is taken");
	like(e.msg, "ended (succeeded)", "saying the task has ended");
	char id[AMC_ID_SIZE];
	snprintf(id, sizeof id, "%s", t.task->id);
	task_join(&t);
	is_int(t.rc, 0, "the task ran to its end");
	is_str(t.out.status, "succeeded", "amc_task_run says the same");

	/* the runner wrote the timeline, as for any planner */
	amc_task_row row;
	ok(amc_store_get_task(f->store, id, &row, &e) == 0, "the task's row");
	is_str(row.planner, "external", "names the planner");
	is_str(row.status, "succeeded", "and its status");
	amc_task_row_free(&row);
	char *answer = NULL;
	ok(amc_store_get_task_answer(f->store, id, &answer, &e) == 0 && answer && !strcmp(answer, "HomeNet"),
	   "the answer handed in with finish is the task's answer (%s)", answer ? answer : "none");
	free(answer);
	amc_step_row *steps;
	size_t ns;
	ok(amc_store_get_steps(f->store, id, &steps, &ns, &e) == 0 && ns == 4, "four step rows");
	if (ns == 4) {
		is_str(steps[0].tool, "tap", "row 1: the tap");
		is_str(steps[0].reasoning, "open Settings", "with the reason handed in");
		is_str(steps[1].status, "failed", "row 2: the failed tap");
		is_str(steps[3].tool, "describe_screen", "row 4: describe_screen");
		is_str(steps[2].reasoning, "Settings is open.\nopen Wi-Fi", "row 3: the agent's words, then the act's reason");
		is_str(steps[3].reasoning, "I look again.", "row 4: the agent's words alone (no reason)");
	}
	amc_step_rows_free(steps, ns);
	char *st = NULL;
	ok(amc_sim_state_json(f->dev, &st, &e) == 0, "read the sim's state");
	like(st, "\"app\":\"com.android.settings\"", "the sim is in Settings");
	like(st, "\"screen\":\"wifi\"", "on its Wi-Fi screen");
	free(st);
	amc_extplanner_free(t.x);
}

/* The task waits for an action; a cancel ends it without one. */
static void test_cancel_while_waiting(fixture *f)
{
	task_thread t;
	task_start_asked(&t, f, "cancel");
	amc_err e;
	int step;
	long long c0 = amc_mono_ms();
	atomic_store(&t.cancel, 1);
	task_join(&t);
	long long took = amc_mono_ms() - c0;
	is_str(t.out.status, "cancelled", "a cancel ends it");
	is_int(t.out.steps, 0, "with no step");
	ok(took < 5000, "soon after the cancel (%lld ms), not at the end of its wait", took);
	ok(amc_extplanner_give(t.x, "wait", NULL, NULL, &e) == -1 && e.code == AMC_EFAIL, "no action is taken after it");
	like(e.msg, "ended (cancelled)", "saying how the task ended");
	ok(amc_extplanner_wait_asked(t.x, 0, &step, NULL, &e) == -1 && e.code == AMC_EFAIL,
	   "nor does it ask for one");
	amc_extplanner_free(t.x);
}

/* No action within the bounded wait: the task fails saying so. */
static void test_bounded_wait(fixture *f)
{
	task_thread t;
	task_start(&t, f, 300);
	task_join(&t);
	is_str(t.out.status, "failed", "no action in time fails the task");
	like(t.out.error, "no action was handed in within 0.3 s", "saying why, and how long it waited");
	ok(t.ms >= 300, "after the wait it was given (%lld ms)", t.ms);
	amc_extplanner_free(t.x);
}

/* finish(0): the task fails with the agent's words. */
static void test_finish_failed(fixture *f)
{
	task_thread t;
	task_start_asked(&t, f, "finish failed");
	amc_err e;
	amc_ext_answer a;
	ok(amc_extplanner_finish(t.x, 0, "the button is not there", &e) == 0, "the agent gives up");
	ok(amc_extplanner_wait(t.x, 60000, &a, &e) == 0 && a.ended, "the answer is the end");
	is_str(a.outcome.status, "failed", "the task failed");
	is_str(a.outcome.error, "the button is not there", "with the agent's reason");
	is_int(a.step, 0, "no step was recorded for it");
	task_join(&t);
	is_str(t.out.status, "failed", "amc_task_run says the same");
	amc_extplanner_free(t.x);
}

/* The handle goes away while the task waits: the task ends, it does not wait
 * out its bound; the planner is freed later by the task's thread. */
static void test_handle_gone(fixture *f)
{
	task_thread t;
	task_start_asked(&t, f, "agent gone");
	amc_extplanner_free(t.x);
	task_join(&t);
	is_str(t.out.status, "failed", "a task whose agent went away fails");
	like(t.out.error, "went away", "saying so");
}

/* The same on a per-device runner, which frees the planner itself. */
static void test_on_runner(fixture *f, const char *home, const amc_config *cfg)
{
	amc_runner *r;
	amc_err e;
	ok(amc_runner_start(home, "sim", cfg, NULL, &r, &e) == 0, "runner starts");
	amc_planner *p;
	amc_extplanner *x;
	amc_extplanner_new(NULL, &p, &x);
	amc_task *task = amc_task_new("goal", "sim");
	task->goal = amc_xstrdup("on the runner");
	char id[AMC_ID_SIZE];
	snprintf(id, sizeof id, "%s", task->id);
	ok(amc_runner_submit(r, task, p, NULL, &e) == 0, "submit a task driven from outside");
	amc_ext_answer a;
	ok(act(x, "press_key", "{\"key\":\"home\"}", "go home", &a) == 0 && !strcmp(a.status, "ok"), "press home");
	amc_ext_answer_clear(&a);
	ok(amc_extplanner_finish(x, 1, "home", &e) == 0 && amc_extplanner_wait(x, 60000, &a, &e) == 0 && a.ended,
	   "finish and wait for the end");
	is_str(a.outcome.status, "succeeded", "it succeeded");
	ok(amc_runner_wait_idle(r, 60000) == 0, "the runner is idle then");
	amc_task_row row;
	ok(amc_store_get_task(f->store, id, &row, &e) == 0, "its row");
	is_int(row.steps, 1, "with its one step");
	amc_task_row_free(&row);
	amc_runner_stop(r, 0);
	amc_extplanner_free(x);
}

/* The planner's name as recorded: "external" unless the opts name one. */

/* PNG encodes of one act (wait or tap) and its next ask, on a task with or
 * without image_edge. */
static long encodes_of(fixture *f, int edge, const char *tool, const char *args, unsigned char **img, size_t *len)
{
	task_thread t;
	task_start_edge(&t, f, 0, edge);
	amc_err e;
	int step;
	amc_extplanner_wait_asked(t.x, 30000, &step, NULL, &e);
	amc_ext_answer a;
	act(t.x, "wait", "{\"ms\":10}", NULL, &a); /* the frame before is a settled one too */
	amc_ext_answer_clear(&a);
	amc_extplanner_wait_asked(t.x, 30000, &step, NULL, &e);
	long n0 = amc_png_encode_count();
	act(t.x, tool, args, NULL, &a);
	amc_extplanner_wait_asked(t.x, 30000, &step, NULL, &e);
	long n = amc_png_encode_count() - n0;
	int w, h, fw;
	*img = NULL;
	if (edge > 0 && amc_extplanner_asked_image(t.x, a.screenshot, img, len, &w, &h, &fw) != 0)
		*img = NULL;
	amc_ext_answer_clear(&a);
	amc_extplanner_finish(t.x, 1, "done", &e);
	amc_extplanner_wait(t.x, 30000, &a, &e);
	amc_ext_answer_clear(&a);
	amc_extplanner_free(t.x);
	task_join(&t);
	return n;
}

/* image_edge: the screen the task asks on, as the client's image, made once
 * from the frame's pixels: bounded, with the frame's width for the scale; an
 * act that changed nothing costs no encode for it, one that changed the
 * screen exactly one, and never a decode. */
static void test_image(fixture *f)
{
	task_thread t;
	task_start_edge(&t, f, 0, 1024);
	amc_err e;
	int step;
	ok(amc_extplanner_wait_asked(t.x, 30000, &step, NULL, &e) == 0, "image: the task asks");
	unsigned char *png = NULL;
	size_t len = 0;
	int w = 0, h = 0, fw = 0, pw = 0, ph = 0;
	ok(amc_extplanner_asked_image(t.x, NULL, &png, &len, &w, &h, &fw) == 0, "the asked screen has an image");
	ok(amc_png_info(png, len, &pw, &ph, &e) == 0 && pw == w && ph == h && h <= 1024 && w <= 1024,
	   "a PNG within 1024 px (%dx%d)", pw, ph);
	is_int(fw, 1080, "with the frame's width (the scale is %d/%d)", fw, w);
	free(png);
	ok(amc_extplanner_asked_image(t.x, "artifacts/other/obs-0009.png", &png, &len, &w, &h, &fw) == -1,
	   "none for another screen's path");
	amc_extplanner_finish(t.x, 1, "done", &e);
	amc_ext_answer a;
	amc_extplanner_wait(t.x, 30000, &a, &e);
	amc_ext_answer_clear(&a);
	amc_extplanner_free(t.x);
	task_join(&t);

	unsigned char *i1, *i2;
	size_t l1, l2;
	long d0 = amc_png_decode_count();
	long same_with = encodes_of(f, 1024, "wait", "{\"ms\":10}", &i1, &l1);
	long same_without = encodes_of(f, 0, "wait", "{\"ms\":10}", &i2, &l2);
	is_int(same_with, same_without, "an act that changed nothing makes no new image (%ld encodes, as without)",
	       same_with);
	ok(i1 != NULL, "and its after-screen has the image");
	free(i1);
	/* Settings' main page from the launcher: a changed screen */
	long changed_with = encodes_of(f, 1024, "launch_app", "{\"app_id\":\"com.android.settings\"}", &i1, &l1);
	long changed_without = encodes_of(f, 0, "launch_app", "{\"app_id\":\"com.android.settings\"}", &i2, &l2);
	is_int(changed_with, changed_without + 1, "one that changed the screen makes one image (%ld encodes, %ld without)",
	       changed_with, changed_without);
	free(i1);
	is_int(amc_png_decode_count() - d0, 0, "and no PNG is decoded for any of it");
}

static void test_name(void)
{
	amc_planner *p;
	amc_extplanner *x;
	amc_extplanner_new(NULL, &p, &x);
	is_str(p->ops->name, "external", "the planner is named external by default");
	amc_planner_free(p);
	amc_extplanner_free(x);
	amc_extplanner_opts o = { .name = "mcp" };
	amc_extplanner_new(&o, &p, &x);
	amc_extplanner_free(x);
	is_str(p->ops->name, "mcp", "opts.name names it (the MCP server's sessions: mcp)");
	amc_planner_free(p);
}

int main(void)
{
	test_name();
	const char *home = test_home("extplanner");
	amc_err e;
	amc_config *cfg = amc_config_new();
	fixture f = { 0 };
	if (amc_store_open(home, &f.store, &e) != 0 || amc_device_open("sim", home, cfg, &f.dev, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	amc_runner_opts_from_config(&f.opts, cfg);
	f.opts.ocr_policy = AMC_OCR_OFF; /* not what this test is about; keeps it quick */

	test_drive(&f);
	test_cancel_while_waiting(&f);
	test_bounded_wait(&f);
	test_finish_failed(&f);
	test_handle_gone(&f);
	test_image(&f);
	amc_device_close(f.dev);
	f.dev = NULL;
	test_on_runner(&f, home, cfg);

	amc_device_close(f.dev);
	amc_store_close(f.store);
	amc_config_free(cfg);
	return done_testing();
}
