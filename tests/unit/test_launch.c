/* test_launch.c - amc_launch_prepare (launch/launch.c): a bundled flow name, a
 * flow file (read once: the file is removed and the launch still holds its
 * commands and secrets), a flow bundle, a goal (with provider and model
 * overrides seen by a local mock), and the errors that say what to fix.
 * amc_launch_run: a task runs to its end on a device opened for it or kept
 * open by the caller, and the one rule of every front end: a task that
 * cannot start (device busy, device gone, no store) is recorded failed with
 * the reason the caller reports. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "../mock/mockhttp.h"
#include "launch/launch.h"
#include "script_planner.h"
#include "util/ids.h"

static amc_config *cfg;

static int prep(const amc_launch_req *req, amc_launch *ln, amc_err *e)
{
	amc_err_clear(e);
	return amc_launch_prepare(cfg, NULL, req, ln, e);
}

/* The planner's first action for an empty screen: its tool and one string arg. */
static void first_action(amc_planner *p, const amc_task *t, char *tool, size_t n, const char *arg, char *val, size_t vn)
{
	amc_observation obs;
	memset(&obs, 0, sizeof obs);
	obs.width = 1080;
	obs.height = 2400;
	amc_plan_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.task = t;
	ctx.step = 1;
	ctx.obs = &obs;
	amc_action a;
	memset(&a, 0, sizeof a);
	amc_err e;
	tool[0] = val[0] = 0;
	if (p->ops->next(p, &ctx, &a, &e) == AMC_PLAN_ACT) {
		snprintf(tool, n, "%s", a.tool);
		cJSON *v = cJSON_GetObjectItemCaseSensitive(a.args, arg);
		if (cJSON_IsString(v))
			snprintf(val, vn, "%s", v->valuestring);
	}
	amc_action_clear(&a);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_flow_name(void)
{
	amc_launch_req req;
	amc_launch ln;
	amc_err e;
	amc_launch_req_init(&req);
	req.device = "sim";
	req.flow_name = "create-note";
	req.max_steps = 7;
	req.source_task_id = "ext-42";
	req.source_attempt = 3;
	is_int(prep(&req, &ln, &e), 0, "a bundled flow name launches");
	if (!ln.task)
		return;
	is_str(ln.task->kind, "flow", "as a flow task");
	is_str(ln.task->device, "sim:0", "on the canonical device id");
	like(ln.task->flow_path, "/flows/create-note.yaml", "from data/flows/NAME.yaml");
	ok(ln.task->flow_name && ln.task->flow_name[0], "named from the file (%s)", ln.task->flow_name ? ln.task->flow_name : "");
	is_int(ln.task->max_steps, 7, "with its step limit");
	is_str(ln.task->source_task_id ? ln.task->source_task_id : "", "ext-42", "and the caller's task id");
	is_int(ln.task->source_attempt, 3, "and attempt");
	is_str(ln.planner ? ln.planner->ops->name : "", "flow", "the flow planner");
	is_int(ln.gated, 0, "a flow is not gated without --confirm");
	is_int((int)ln.words.n, 0, "so no words are loaded");
	amc_runner_opts o;
	memset(&o, 0, sizeof o);
	o.assume_yes = 9;
	amc_launch_runner_opts(&ln, &o);
	ok(o.confirm_words == NULL && o.assume_yes == 0, "runner options: no gate, no --yes");
	amc_launch_free(&ln);
	ok(ln.task == NULL && ln.planner == NULL, "free leaves the launch empty");

	amc_launch_req_init(&req);
	req.flow_name = "create-note.yaml";
	req.confirm = 1;
	req.assume_yes = 1;
	is_int(prep(&req, &ln, &e), 0, "a bundled flow name with its extension");
	is_int(ln.gated, 1, "--confirm gates a flow");
	ok(ln.words.n > 0, "and loads the irreversible-action words (%zu)", ln.words.n);
	is_str(ln.task ? ln.task->device : "", "sim:0", "no device: config device.default");
	amc_launch_runner_opts(&ln, &o);
	ok(o.confirm_words == &ln.words && o.assume_yes == 1, "runner options: the launch's words and --yes");
	amc_launch_free(&ln);

	amc_launch_req_init(&req);
	req.flow_name = "no-such-flow";
	is_int(prep(&req, &ln, &e), -1, "an unknown flow name fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "no flow file 'no-such-flow' (and no bundled flow of that name", "naming what was looked for");
	ok(ln.task == NULL && ln.planner == NULL, "leaving nothing behind");
}

static void test_flow_path(const char *home)
{
	char path[PATH_MAX + 16]; /* the test home and "/pin.yaml" */
	snprintf(path, sizeof path, "%s/pin.yaml", home);
	write_file(path, "appId: com.example.bank\nname: Type the PIN\n---\n- launchApp\n- inputText: \"{{secret:PIN}}\"\n");
	setenv("AMC_SECRET_PIN", "4711", 1);
	amc_launch_req req;
	amc_launch ln;
	amc_err e;
	amc_launch_req_init(&req);
	req.flow_path = path;
	is_int(prep(&req, &ln, &e), 0, "a flow file launches");
	if (!ln.task)
		return;
	is_str(ln.task->flow_path, path, "recorded by its path");
	is_str(ln.task->flow_name, "Type the PIN", "and its name:");

	/* a path relative to where amc ran is recorded as the file's real
	 * path, so a TUI started elsewhere still reads the flow's lines */
	char cwd[PATH_MAX], *rhome = realpath(home, NULL), want[PATH_MAX + 16];
	amc_launch rel;
	if (getcwd(cwd, sizeof cwd) && rhome && chdir(rhome) == 0) {
		snprintf(want, sizeof want, "%s/./pin.yaml", rhome);
		req.flow_path = "./pin.yaml";
		is_int(prep(&req, &rel, &e), 0, "a relative flow path launches");
		is_str(rel.task ? rel.task->flow_path : "", want, "recorded from the root");
		if (rel.task)
			amc_launch_free(&rel);
		req.flow_path = "gone.yaml";
		is_int(prep(&req, &rel, &e), -1, "a relative path to no file");
		like(e.msg, "flow file 'gone.yaml' not found", "is named as the user wrote it");
		if (chdir(cwd) != 0)
			ok(0, "back to the first folder");
		req.flow_path = path;
	} else
		ok(0, "into the test home");
	free(rhome);
	is_int((int)amc_secrets_count(ln.secrets), 1, "its {{secret:PIN}} is resolved");

	/* read once: gone from disk and from the environment, still all there */
	unlink(path);
	unsetenv("AMC_SECRET_PIN");
	char *v = amc_secrets_expand(ln.secrets, "{{secret:PIN}}", &e);
	is_str(v ? v : "", "4711", "the value is held by the launch, not looked up again");
	free(v);
	char tool[32], app[64];
	first_action(ln.planner, ln.task, tool, sizeof tool, "app_id", app, sizeof app);
	is_str(tool, "launch_app", "the planner has the commands read before the file went");
	is_str(app, "com.example.bank", "with the flow's appId");
	amc_launch_free(&ln);

	/* the same path now gone: a usage error naming it */
	is_int(prep(&req, &ln, &e), -1, "a missing flow file fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "pin.yaml' not found: check the path", "naming the file");

	/* a flow naming a secret nobody set */
	write_file(path, "appId: x\n---\n- inputText: \"{{secret:NOPE}}\"\n");
	is_int(prep(&req, &ln, &e), -1, "a secret with no value fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "AMC_SECRET_NOPE", "saying what to set");
	ok(ln.planner == NULL && ln.task == NULL, "and frees the planner it built");

	write_file(path, "appId: x\n---\n- flyAway: now\n");
	is_int(prep(&req, &ln, &e), -1, "an unknown command fails");
	like(e.msg, "pin.yaml:3", "with FILE:LINE");
	like(e.msg, "flyAway", "and the command");
	unlink(path);
}

static void test_bundle(void)
{
	static const amc_launch_file files[] = {
		{ "sub/login.yaml", "appId: x\n---\n- inputText: \"{{secret:TOKEN}}\"\n" },
		{ "scripts/setup.js", "output.ok = true\n" },
	};
	amc_launch_bundle b = { "appId: com.example\nname: Bundled\n---\n- launchApp\n", "main.yaml", "/srv/flows/bank",
				files, 2, NULL };
	amc_launch_req req;
	amc_launch ln;
	amc_err e;
	setenv("AMC_SECRET_TOKEN", "t0k3n", 1);
	amc_launch_req_init(&req);
	req.bundle = &b;
	is_int(prep(&req, &ln, &e), 0, "a flow bundle launches");
	if (ln.task) {
		is_str(ln.task->flow_path, "/srv/flows/bank/main.yaml", "recorded by its base folder and name");
		is_str(ln.task->flow_name, "Bundled", "named by its name:");
		is_int((int)ln.nfiles, 2, "its files are carried");
		is_str(ln.nfiles == 2 ? ln.files[1].name : "", "scripts/setup.js", "by name");
		is_str(ln.nfiles == 2 ? ln.files[0].text : "", files[0].text, "with their text");
		is_str(ln.bundle_base ? ln.bundle_base : "", "/srv/flows/bank", "and the base folder");
		is_int((int)amc_secrets_count(ln.secrets), 1, "a sub-flow's {{secret:TOKEN}} is resolved too");
	}
	amc_launch_free(&ln);
	unsetenv("AMC_SECRET_TOKEN");

	amc_launch_file bad[] = { { "../etc/passwd", "x" } };
	b.files = bad;
	b.nfiles = 1;
	is_int(prep(&req, &ln, &e), -1, "a bundle file outside its folder fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "bundle file '../etc/passwd': give a name inside", "naming the file");
	bad[0].name = "a/../../b";
	is_int(prep(&req, &ln, &e), -1, "also with .. further in");
	bad[0].name = "/abs";
	is_int(prep(&req, &ln, &e), -1, "and an absolute name");

	b.files = files;
	b.nfiles = AMC_LAUNCH_BUNDLE_FILES_MAX + 1;
	is_int(prep(&req, &ln, &e), -1, "too many bundle files fail");
	like(e.msg, "at most 64", "saying the bound");

	b.nfiles = 0;
	b.flow = "appId: x\n---\n- tapOn: [unclosed\n";
	is_int(prep(&req, &ln, &e), -1, "a malformed bundled flow fails");
	like(e.msg, "/srv/flows/bank/main.yaml:", "with its FILE:LINE");
	b.flow = "appId: x\n---\n- launchApp\n";
	b.base = NULL;
	is_int(prep(&req, &ln, &e), -1, "a bundle needs a base folder");
}

static void test_env_and_request(void)
{
	amc_launch_req req;
	amc_launch ln;
	amc_err e;
	static const char *const good[] = { "A=1", "B_2=x=y", "A=3", "lower=" };
	amc_launch_req_init(&req);
	req.flow_name = "create-note";
	req.env = good;
	req.nenv = 4;
	is_int(prep(&req, &ln, &e), 0, "-e NAME=VALUE overrides are accepted");
	is_int((int)ln.nenv, 3, "one per name");
	if (ln.nenv == 3) {
		is_str(ln.env[0].value, "3", "the last one of a name wins");
		is_str(ln.env[1].value, "x=y", "a value may hold '='");
		is_str(ln.env[2].value, "", "and may be empty");
	}
	amc_launch_free(&ln);

	static const char *const bads[] = { "1X=2", "A-B=1", "NOEQ", "=v" };
	for (int i = 0; i < 4; i++) {
		req.env = &bads[i];
		req.nenv = 1;
		is_int(prep(&req, &ln, &e), -1, "-e %s fails", bads[i]);
		is_int(e.code, AMC_EUSAGE, "as a usage error");
		like(e.msg, "write NAME=VALUE", "saying how to write it");
	}
	char longname[80];
	memset(longname, 'N', 70);
	snprintf(longname + 70, sizeof longname - 70, "=1");
	const char *ln1[] = { longname };
	req.env = ln1;
	is_int(prep(&req, &ln, &e), -1, "a name longer than 64 fails");
	req.nenv = AMC_LAUNCH_ENV_MAX + 1;
	req.env = good;
	is_int(prep(&req, &ln, &e), -1, "more than 64 overrides fail");
	like(e.msg, "too many -e", "saying so");

	amc_launch_req_init(&req);
	is_int(prep(&req, &ln, &e), -1, "nothing to run fails");
	like(e.msg, "nothing to run", "saying so");
	req.flow_name = "create-note";
	req.goal = "and a goal";
	is_int(prep(&req, &ln, &e), -1, "a flow and a goal fail");
	like(e.msg, "give one thing to run", "one or the other");
	req.goal = NULL;
	req.device = "phone:9";
	is_int(prep(&req, &ln, &e), -1, "an unknown device fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "unknown device 'phone:9'", "naming it");
}

typedef struct fake {
	amc_planner p;
	int *freed;
} fake;

static void fake_destroy(amc_planner *p)
{
	fake *f = (fake *)p;
	(*f->freed)++;
	free(f);
}

static amc_plan_rc fake_next(amc_planner *p, const amc_plan_ctx *c, amc_action *a, amc_err *e)
{
	(void)p, (void)c, (void)a;
	amc_err_set(e, AMC_EFAIL, "not used");
	return AMC_PLAN_FAIL;
}

static const amc_planner_ops FAKE_OPS = { "outside", fake_next, fake_destroy };

static amc_planner *fake_new(int *freed)
{
	fake *f = calloc(1, sizeof *f);
	f->p.ops = &FAKE_OPS;
	f->p.gated = 1;
	f->freed = freed;
	return &f->p;
}

static void test_goal(mock_server *m)
{
	amc_launch_req req;
	amc_launch ln;
	amc_err e;
	char url[128];
	unsetenv("ANTHROPIC_API_KEY");
	unsetenv("AMC_OPENAI_BASE_URL");
	unsetenv("AMC_PLANNER_MODEL");
	amc_launch_req_init(&req);
	req.goal = "Add a contact";
	is_int(prep(&req, &ln, &e), -1, "a goal without a key fails");
	is_int(e.code, AMC_EENV, "as an environment error");
	like(e.msg, "ANTHROPIC_API_KEY", "saying what to set");

	setenv("ANTHROPIC_API_KEY", "sk-ant-launch-test", 1);
	snprintf(url, sizeof url, "http://127.0.0.1:%d", mock_port(m));
	setenv("ANTHROPIC_BASE_URL", url, 1);
	setenv("AMC_SECRET_PIN", "4711", 1);
	req.goal = "Unlock with {{secret:PIN}}";
	req.max_steps = 5;
	is_int(prep(&req, &ln, &e), 0, "a goal launches with a key");
	if (ln.task) {
		is_str(ln.task->kind, "goal", "as a goal task");
		is_str(ln.task->goal, req.goal, "with its words (placeholder kept)");
		is_str(ln.planner ? ln.planner->ops->name : "", "llm", "the LLM planner");
		is_int(ln.gated, 1, "a goal is gated");
		ok(ln.words.n > 0, "with the irreversible-action words");
		is_int((int)amc_secrets_count(ln.secrets), 1, "its secret is resolved");
	}
	amc_launch_free(&ln);
	unsetenv("AMC_SECRET_PIN");
	req.goal = "Unlock with {{secret:PIN}}";
	is_int(prep(&req, &ln, &e), -1, "a goal's secret with no value fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "AMC_SECRET_PIN", "saying what to set");

	req.goal = "   ";
	is_int(prep(&req, &ln, &e), -1, "an empty goal fails");
	like(e.msg, "the goal is empty", "saying so");

	/* overrides: the OpenAI-compatible server and another model */
	snprintf(url, sizeof url, "http://127.0.0.1:%d/v1", mock_port(m));
	setenv("AMC_OPENAI_BASE_URL", url, 1);
	req.goal = "Open settings";
	req.provider = "openai";
	req.model = "tiny-local-model";
	is_int(prep(&req, &ln, &e), 0, "a goal with provider and model overrides");
	if (ln.planner) {
		char tool[32], val[8];
		first_action(ln.planner, ln.task, tool, sizeof tool, "x", val, sizeof val);
	}
	amc_launch_free(&ln);
	is_str(amc_config_str(cfg, "planner", "model"), "claude-sonnet-5", "the caller's configuration is not changed");
	req.provider = "nope";
	is_int(prep(&req, &ln, &e), -1, "a bad provider override fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "bad value for planner.provider", "naming the setting");
	req.provider = NULL;
	req.model = NULL;

	/* a planner of the caller's */
	int freed = 0;
	req.planner = fake_new(&freed);
	is_int(prep(&req, &ln, &e), 0, "a goal with the caller's planner");
	is_str(ln.planner ? ln.planner->ops->name : "", "outside", "uses it");
	is_int(ln.gated, 1, "gated as it says");
	amc_launch_free(&ln);
	is_int(freed, 1, "the launch frees it");
	req.planner = fake_new(&freed);
	req.goal = NULL;
	req.flow_name = "create-note";
	is_int(prep(&req, &ln, &e), -1, "the caller's planner with a flow fails");
	is_int(freed, 2, "and frees it all the same");
}

/* ---- amc_launch_run ---- */

static char ended_status[16], ended_error[AMC_ERR_MSG_MAX];
static void note_ended(amc_planner *p, const amc_task_outcome *o)
{
	(void)p;
	snprintf(ended_status, sizeof ended_status, "%s", o->status);
	snprintf(ended_error, sizeof ended_error, "%s", o->error);
}
static const amc_planner_hooks NOTE_HOOKS = { NULL, note_ended };

static const char *const WAIT2[] = { "wait", "{\"ms\":10}", "wait", "{\"ms\":10}" };

/* A launch as amc_launch_prepare leaves it: a task on `device` with a planner
 * playing `sc`, its end noted. */
static void scripted(amc_launch *l, const char *device, script *sc)
{
	memset(l, 0, sizeof *l);
	l->task = amc_task_new("flow", device);
	*sc = (script){ WAIT2, 2, 0, 0, NULL, 0, 0 };
	l->planner = planner_for(sc);
	l->planner->hooks = &NOTE_HOOKS;
	ended_status[0] = ended_error[0] = 0;
}

/* The task's row: its status and error, "" when there is no row. */
static void row_of(amc_store *st, const char *id, char *status, char *error, size_t n)
{
	amc_task_row row;
	amc_err e;
	status[0] = error[0] = 0;
	if (amc_store_get_task(st, id, &row, &e) != 0)
		return;
	snprintf(status, 16, "%s", row.status);
	snprintf(error, n, "%s", row.error ? row.error : "");
	amc_task_row_free(&row);
}

static void test_run(const char *home)
{
	amc_store *st;
	amc_err e;
	if (amc_store_open(home, &st, &e) != 0) {
		ok(0, "store: %s", e.msg);
		return;
	}
	amc_launch l;
	script sc;
	amc_launch_ctx c;
	amc_task_outcome out;
	char status[16], error[AMC_ERR_MSG_MAX], id[AMC_ID_SIZE];

	/* a task runs on a device opened for it, store opened for it */
	scripted(&l, "sim:0", &sc);
	snprintf(id, sizeof id, "%s", l.task->id);
	amc_launch_ctx_init(&c, home, cfg);
	is_int(amc_launch_run(&l, &c, &out, &e), 0, "a task runs to its end");
	is_str(out.status, "succeeded", "it succeeded");
	is_int(sc.plans, 3, "its planner was asked for every step");
	row_of(st, id, status, error, sizeof error);
	is_str(status, "succeeded", "its row says so");
	amc_launch_free(&l);

	/* a device kept open between tasks: opened into *keep, used again */
	amc_device *kept = NULL;
	scripted(&l, "sim:0", &sc);
	c.keep = &kept;
	is_int(amc_launch_run(&l, &c, &out, &e), 0, "a task on a device kept by the caller");
	ok(kept != NULL, "the device is left open for the next task");
	amc_device *first = kept;
	amc_launch_free(&l);
	scripted(&l, "sim:0", &sc);
	is_int(amc_launch_run(&l, &c, &out, &e), 0, "the next task");
	ok(kept == first, "runs on the same open device");
	is_str(c.device_down, "", "which is not down");
	amc_launch_free(&l);

	/* THE rule: the device is busy (another task holds its lock) */
	amc_lock *other;
	ok(amc_device_lock(home, "sim:0", "other-task", &other, &e) == 0, "another task holds sim:0");
	scripted(&l, "sim:0", &sc);
	snprintf(id, sizeof id, "%s", l.task->id);
	amc_err_clear(&e);
	is_int(amc_launch_run(&l, &c, &out, &e), -1, "a task on a busy device cannot start");
	is_int(e.code, AMC_EENV, "an environment error (amc run: exit status 3)");
	like(e.msg, "busy with task other-task", "naming the task that holds it");
	is_str(out.status, "failed", "the outcome is failed");
	is_str(out.error, e.msg, "with the same reason");
	row_of(st, id, status, error, sizeof error);
	is_str(status, "failed", "the task is recorded failed");
	is_str(error, e.msg, "with the reason the caller reports");
	is_str(ended_status, "failed", "its planner is told it ended");
	is_int(sc.plans, 0, "and was never asked for a step");
	ok(kept == first, "the kept device stays open");
	amc_launch_free(&l);
	amc_device_unlock(other);
	amc_device_close(kept);

	/* the device cannot be opened (an Appium server that is not there) */
	if (amc_config_set(cfg, "appium", "capabilities", "{\"platformName\":\"Android\"}", "test", &e) != 0)
		diag("config: %s", e.msg);
	scripted(&l, "appium:http://127.0.0.1:1", &sc);
	snprintf(id, sizeof id, "%s", l.task->id);
	amc_launch_ctx_init(&c, home, cfg);
	c.store = st;
	amc_err_clear(&e);
	is_int(amc_launch_run(&l, &c, &out, &e), -1, "a device that cannot be opened: the task cannot start");
	row_of(st, id, status, error, sizeof error);
	is_str(status, "failed", "recorded failed");
	ok(error[0] && !strcmp(error, e.msg), "with the reason the caller reports (%s)", error);
	ok(c.device_down[0] != 0, "the caller learns the device is down");
	amc_launch_free(&l);

	/* cancelled before it started */
	atomic_int cancel = 1;
	scripted(&l, "sim:0", &sc);
	snprintf(id, sizeof id, "%s", l.task->id);
	c.cancel = &cancel;
	is_int(amc_launch_run(&l, &c, &out, &e), 0, "a task cancelled before it starts has ended");
	row_of(st, id, status, error, sizeof error);
	is_str(status, "cancelled", "recorded cancelled");
	is_int(sc.plans, 0, "never planned");
	amc_launch_free(&l);
	atomic_store(&cancel, AMC_RUN_INTERRUPT);
	scripted(&l, "sim:0", &sc);
	snprintf(id, sizeof id, "%s", l.task->id);
	c.interrupt_why = "lease lost: test";
	is_int(amc_launch_run(&l, &c, &out, &e), 0, "a task interrupted before it starts has ended");
	row_of(st, id, status, error, sizeof error);
	is_str(status, "interrupted", "recorded interrupted");
	is_str(error, "lease lost: test", "with the caller's text");
	amc_launch_free(&l);

	/* no store: nothing can be recorded, the caller still learns why */
	char bad[PATH_MAX];
	pathf(bad, sizeof bad, "%s/not-a-folder", home);
	FILE *f = fopen(bad, "w");
	if (f)
		fclose(f);
	scripted(&l, "sim:0", &sc);
	amc_launch_ctx_init(&c, bad, cfg);
	amc_err_clear(&e);
	is_int(amc_launch_run(&l, &c, &out, &e), -1, "no store: the task cannot start");
	ok(e.msg[0] && !strcmp(out.error, e.msg), "the outcome says why (%s)", e.msg);
	is_str(ended_status, "failed", "and its planner is told it ended");
	amc_launch_free(&l);
	amc_store_close(st);
}

static mock_record REC;

int main(void)
{
	const char *home = test_home("launch");
	cfg = amc_config_new();
	amc_err e;
	if (amc_config_set(cfg, "planner", "vision", "off", "test", &e) != 0)
		diag("config: %s", e.msg);
	unsetenv("AMC_SECRET_PIN");
	mock_server *m = mock_start(0, mock_record_handler, &REC);

	test_flow_name();
	test_flow_path(home);
	test_bundle();
	test_env_and_request();
	test_run(home);
	if (m) {
		test_goal(m);
		is_str(REC.last_path, "/v1/chat/completions", "the provider override reached the OpenAI-compatible server");
		like(REC.last_body, "\"tiny-local-model\"", "with the model override");
		mock_stop(m);
	}
	amc_config_free(cfg);
	done_testing();
}
