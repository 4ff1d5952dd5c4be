/* test_adb.c - the adb driver end to end against the adb stand-in
 * (tests/tools/adb-standin, first on PATH as `adb`), which serves the sim: real
 * driver code, realistic bytes. Covers captures, the dump fallback, launch
 * errors, the device shell's quoting for `input text` (with a control case sent
 * unquoted that must fail), the ADBKeyBoard path, a bundled flow run unchanged,
 * the app actions (list, stop, clear, install) and keys, and a phone that
 * disappears mid-task. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "device/adb.h"
#include "device/sim/sim.h"
#include "planner/flow_planner.h"
#include "perception/uitree.h"
#include "launch/runner.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "adbtest.h"
#include "runtime/tools.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/proc.h"
#include "util/strbuf.h"

#define SERIAL "emulator-5554"

static const char *home;
static amc_config *cfg;

static amc_device *open_adb(void)
{
	amc_device *d = NULL;
	amc_err e;
	if (amc_device_open("adb:" SERIAL, home, cfg, &d, &e) != 0) {
		diag("open adb:" SERIAL ": %s", e.msg);
		return NULL;
	}
	return d;
}

/* Centre of the first node whose resource id or text is `what`, from the
 * tree the driver read. */
static int find(amc_device *d, const char *what, int *x, int *y)
{
	char *xml = NULL;
	size_t len;
	amc_err e;
	if (d->ops->ui_tree(d, &xml, &len, &e) != 0) {
		diag("ui_tree: %s", e.msg);
		return 0;
	}
	amc_ui_tree t;
	int found = 0;
	if (amc_uitree_parse(xml, len, &t, &e) == 0) {
		for (size_t i = 0; i < t.count && !found; i++) {
			amc_ui_node *n = &t.nodes[i];
			if (!strcmp(n->resource_id, what) || !strcmp(n->text, what)) {
				*x = (n->bounds.x1 + n->bounds.x2) / 2;
				*y = (n->bounds.y1 + n->bounds.y2) / 2;
				found = 1;
			}
		}
		amc_uitree_free(&t);
	} else {
		diag("parse: %s", e.msg);
	}
	free(xml);
	return found;
}

static int tap_on(amc_device *d, const char *what)
{
	int x, y;
	amc_err e;
	if (!find(d, what, &x, &y))
		return 0;
	if (d->ops->tap(d, x, y, &e) != 0) {
		diag("tap: %s", e.msg);
		return 0;
	}
	return 1;
}

/* The sim's own view of the note body being edited (what "the phone" received). */
static char *sim_body(void)
{
	amc_device *s = NULL;
	amc_err e;
	char *js = NULL, *out = NULL;
	if (amc_sim_open(home, 0, cfg, &s, &e) != 0 || amc_sim_state_json(s, &js, &e) != 0) {
		diag("sim: %s", e.msg);
		amc_device_close(s);
		return NULL;
	}
	cJSON *j = cJSON_Parse(js);
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "fields");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(f, "body");
	if (cJSON_IsString(b))
		out = amc_xstrdup(b->valuestring);
	cJSON_Delete(j);
	free(js);
	amc_device_close(s);
	return out;
}

/* Factory sim, Notes, a new note, the body focused: ready to type. */
static int to_body(amc_device *d)
{
	amc_err e;
	if (amc_sim_reset(home, 0, cfg, &e) != 0) {
		diag("reset: %s", e.msg);
		return 0;
	}
	return d->ops->launch_app(d, "com.amc.notes", &e) == 0 && tap_on(d, "com.amc.notes:id/new_note") &&
	       tap_on(d, "com.amc.notes:id/body");
}

static void test_quote(void)
{
	char *q = amc_adb_quote_input_text("it's a test");
	is_str(q, "'it'\\''s%sa%stest'", "quote and %%s");
	free(q);
	ok(!amc_adb_quote_input_text("100%s"), "a literal %%s cannot go through input text");
	ok(!amc_adb_quote_input_text("Zo\xc3\xab"), "non-ASCII cannot go through input text");
	ok(!amc_adb_quote_input_text("a\x1b[31m"), "control bytes cannot either");
}

static void test_basics(amc_device *d)
{
	amc_err e;
	amc_adb_entry *v = NULL;
	size_t n = 0;
	ok(amc_adb_list(cfg, &v, &n, &e) == 0 && n == 1 && !strcmp(v[0].serial, SERIAL) && !strcmp(v[0].state, "device"),
	   "adb devices -l through the stand-in");
	free(v);
	amc_device_info info;
	ok(d->ops->info(d, &info, &e) == 0, "info");
	is_str(info.id, "adb:" SERIAL, "id");
	is_str(info.kind, "adb", "kind");
	is_str(info.model, "amc sim (adb stand-in)", "model from getprop");
	ok(info.width == 1080 && info.height == 2400, "screen size from wm size: %dx%d", info.width, info.height);
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = d->ops->screenshot(d, &png, &len, &e);
	ok(rc == 0 && len > 1000 && !memcmp(png, "\x89PNG", 4), "screenshot is a PNG (%zu bytes)", len);
	free(png);
	int x, y;
	ok(find(d, "Contacts", &x, &y), "ui tree from uiautomator dump /dev/tty (trailing line cut)");
	setenv("AMC_ADB_STANDIN_TTY_DUMP", "fail", 1);
	ok(find(d, "Contacts", &x, &y), "ui tree through the /sdcard fallback when /dev/tty fails");
	unsetenv("AMC_ADB_STANDIN_TTY_DUMP");
	ok(d->ops->launch_app(d, "com.amc.notes", &e) == 0, "launch by package (monkey)");
	char *pkg = NULL;
	rc = amc_adb_foreground_app(d, &pkg, &e);
	ok(rc == 0 && pkg && !strcmp(pkg, "com.amc.notes"), "foreground app: %s", pkg ? pkg : e.msg);
	free(pkg);
	ok(d->ops->launch_app(d, "com.android.settings/.Settings", &e) == 0, "launch a component (am start)");
	ok(d->ops->launch_app(d, "com.example.missing", &e) == -1 && e.code == AMC_EFAIL &&
	   strstr(e.msg, "could not be started"), "monkey's exit 0 on failure is read: %s", e.msg);
	ok(d->ops->launch_app(d, "x; reboot", &e) == -1 && e.code == AMC_EUSAGE, "app id with shell bytes refused");
	ok(d->ops->tap(d, 5000, 10, &e) == -1 && e.code == AMC_EUSAGE, "tap off screen refused");
	ok(d->ops->key(d, AMC_KEY_HOME, &e) == 0, "home key");
	ok(amc_adb_open("-x", cfg, &d, &e) == -1 && e.code == AMC_EUSAGE, "serial that looks like an option refused");
}

static const char *const TRICKY[] = {
	"it's",
	"a;b",
	"$(id) and ${HOME} and $HOME",
	"`id`",
	"line one\nline two",
	"100% sure",
	"say \"hi\" & <b> | c > d",
	"back\\slash \\n",
	"*glob? [x] ~user #hash",
	"tab\there  two  spaces",
	"''\"\"",
};

static void test_tricky(amc_device *d)
{
	amc_err e;
	for (size_t i = 0; i < sizeof TRICKY / sizeof TRICKY[0]; i++) {
		if (!ok(to_body(d), "case %zu: note body focused", i))
			continue;
		amc_err_clear(&e);
		int rc = d->ops->type_text(d, TRICKY[i], &e);
		ok(rc == 0, "case %zu: typed %s", i, e.msg);
		char *got = sim_body();
		if (!ok(got && !strcmp(got, TRICKY[i]), "case %zu: the phone received exactly the text", i))
			diag("got '%s'", got ? got : "(null)");
		free(got);
	}

	/* The control: the same text sent without the device-shell quoting (spaces
	 * as %s only, as naive drivers do) must not arrive intact - otherwise this
	 * test could not fail. */
	const char *const control[] = { "it's", "a;b", "$(id) and ${HOME} and $HOME", "`id`", "say \"hi\" & <b> | c > d" };
	for (size_t i = 0; i < sizeof control / sizeof control[0]; i++) {
		if (!to_body(d))
			continue;
		amc_sb raw;
		amc_sb_init(&raw);
		for (const char *p = control[i]; *p; p++)
			if (*p == ' ')
				amc_sb_puts(&raw, "%s");
			else
				amc_sb_putc(&raw, *p);
		const char *argv[] = { "adb", "-s", SERIAL, "shell", "input", "text", amc_sb_str(&raw), NULL };
		amc_proc_result r;
		ok(amc_proc_run(argv, 10000, 1 << 20, 1 << 16, &r, &e) == 0, "control %zu: ran", i);
		amc_proc_result_free(&r);
		char *got = sim_body();
		ok(!got || strcmp(got, control[i]), "control %zu: unquoted text is mangled by the device shell (got '%s')",
		   i, got ? got : "");
		free(got);
		amc_sb_free(&raw);
	}

	/* What input text cannot type: refused with the way out, or typed through
	 * ADBKeyBoard when it is the keyboard. */
	const char *const ime[] = { "100%s literal", "Zo\xc3\xab \xf0\x9f\x98\x80 emoji", "mixed 'quote' \xe2\x82\xac" };
	for (size_t i = 0; i < sizeof ime / sizeof ime[0]; i++) {
		if (!to_body(d))
			continue;
		ok(d->ops->type_text(d, ime[i], &e) == -1 && e.code == AMC_EFAIL && strstr(e.msg, "ADBKeyBoard") &&
		   strstr(e.msg, "ime set"), "ime %zu: refused without ADBKeyBoard, saying how to install it", i);
		setenv("AMC_ADB_STANDIN_IME", "1", 1);
		amc_err_clear(&e);
		int rc = d->ops->type_text(d, ime[i], &e);
		ok(rc == 0, "ime %zu: typed through ADBKeyBoard %s", i, e.msg);
		unsetenv("AMC_ADB_STANDIN_IME");
		char *got = sim_body();
		if (!ok(got && !strcmp(got, ime[i]), "ime %zu: the phone received exactly the text", i))
			diag("got '%s'", got ? got : "(null)");
		free(got);
	}
}

static amc_planner *flow_planner(const char *rel, amc_task **task, const char *device)
{
	amc_flow flow;
	amc_planner *p = NULL;
	amc_err e;
	if (amc_flow_load(test_src(rel), &flow, &e) != 0) {
		diag("flow: %s", e.msg);
		return NULL;
	}
	*task = amc_task_new("flow", device);
	(*task)->flow_path = amc_xstrdup(rel);
	(*task)->flow_name = amc_xstrdup(flow.name);
	if (amc_flow_planner_new(&flow, 5000, &p, &e) != 0) {
		diag("planner: %s", e.msg);
		amc_flow_free(&flow);
		return NULL;
	}
	return p;
}

static void test_flow(amc_device *d, amc_store *store)
{
	amc_err e;
	amc_sim_reset(home, 0, cfg, &e);
	amc_task *task = NULL;
	amc_planner *p = flow_planner("data/flows/create-note.yaml", &task, "adb:" SERIAL);
	if (!ok(p, "bundled flow loaded"))
		return;
	amc_runner_opts o;
	amc_runner_opts_from_config(&o, cfg);
	amc_task_outcome out;
	ok(amc_task_run(&(amc_run_env){ store, NULL, d, NULL, NULL, NULL, NULL }, p, task, &o, &out, &e) == 0, "flow ran");
	if (!ok(!strcmp(out.status, "succeeded"), "create-note.yaml passes unchanged on the adb stand-in"))
		diag("status %s, error: %s", out.status, out.error);
	amc_step_row *steps = NULL;
	size_t n = 0;
	int rc = amc_store_get_steps(store, task->id, &steps, &n, &e);
	ok(rc == 0 && n == 9, "nine steps recorded (%zu)", n);
	amc_step_rows_free(steps, n);
	amc_planner_free(p);
	amc_task_free(task);
}

static void test_disappears(amc_device *d, amc_store *store)
{
	amc_err e;
	amc_sim_reset(home, 0, cfg, &e);
	char calls[4096];
	snprintf(calls, sizeof calls, "%s/adb-standin/calls", home);
	unlink(calls);
	/* 12 adb calls in: the flow is past its first steps. */
	setenv("AMC_ADB_STANDIN_VANISH_AFTER", "12", 1);
	amc_task *task = NULL;
	amc_planner *p = flow_planner("data/flows/create-note.yaml", &task, "adb:" SERIAL);
	amc_runner_opts o;
	amc_runner_opts_from_config(&o, cfg);
	o.capture_retries = 1;
	amc_task_outcome out;
	ok(amc_task_run(&(amc_run_env){ store, NULL, d, NULL, NULL, NULL, NULL }, p, task, &o, &out, &e) == 0, "task ran while the phone vanished");
	is_str(out.status, "failed", "it ended failed");
	like(out.error, "not connected any more", "with the reason");
	ok(out.steps >= 1, "after %d recorded step(s)", out.steps);
	amc_task_row row;
	ok(amc_store_get_task(store, task->id, &row, &e) == 0 && !strcmp(row.status, "failed"), "stored terminal");
	amc_task_row_free(&row);
	amc_planner_free(p);
	amc_task_free(task);
	unsetenv("AMC_ADB_STANDIN_VANISH_AFTER");

	/* The per-device runner: the phone vanishes during its task; the runner
	 * stays up, says offline, and runs the next task once the phone is back. */
	char vanished[4096];
	snprintf(vanished, sizeof vanished, "%s/adb-standin/vanished-" SERIAL, home);
	unlink(vanished);
	unlink(calls);
	amc_sim_reset(home, 0, cfg, &e);
	amc_runner *r = NULL;
	if (!ok(amc_runner_start(home, "adb:" SERIAL, cfg, NULL, &r, &e) == 0, "runner started (%s)", e.msg))
		return;
	is_int(amc_runner_online(r, NULL, 0), -1, "online unknown before a task");
	setenv("AMC_ADB_STANDIN_VANISH_AFTER", "15", 1);
	p = flow_planner("data/flows/create-note.yaml", &task, "adb:" SERIAL);
	char id1[64];
	snprintf(id1, sizeof id1, "%s", task->id);
	ok(amc_runner_submit(r, task, p, NULL, &e) == 0, "submitted");
	ok(amc_runner_wait_idle(r, 60000) == 0, "runner idle again");
	char why[AMC_ERR_MSG_MAX];
	is_int(amc_runner_online(r, why, sizeof why), 0, "runner reports the device offline");
	like(why, "not connected", "with the reason");
	ok(amc_store_get_task(store, id1, &row, &e) == 0 && !strcmp(row.status, "failed"), "its task ended failed");
	amc_task_row_free(&row);
	unsetenv("AMC_ADB_STANDIN_VANISH_AFTER");
	unlink(vanished);
	amc_sim_reset(home, 0, cfg, &e);
	p = flow_planner("data/flows/create-note.yaml", &task, "adb:" SERIAL);
	char id2[64];
	snprintf(id2, sizeof id2, "%s", task->id);
	ok(amc_runner_submit(r, task, p, NULL, &e) == 0, "next task submitted to the same runner");
	ok(amc_runner_wait_idle(r, 60000) == 0, "runner idle again");
	is_int(amc_runner_online(r, NULL, 0), 1, "device back online");
	ok(amc_store_get_task(store, id2, &row, &e) == 0 && !strcmp(row.status, "succeeded"),
	   "the next task succeeded (%s)", row.error ? row.error : "");
	amc_task_row_free(&row);
	amc_runner_stop(r, 1);
}

/* What the stand-in logged since `from` (bytes), the caller's. */
static char *log_since(long from)
{
	char path[PATH_MAX], *all = NULL;
	size_t len = 0;
	amc_err e;
	snprintf(path, sizeof path, "%s/adb-standin/log", home);
	if (amc_read_file(path, 16u << 20, &all, &len, &e) != 0)
		return amc_xstrdup("");
	char *r = amc_xstrdup((long)len > from ? all + from : "");
	free(all);
	return r;
}

static long log_size(void)
{
	char *s = log_since(0);
	long n = (long)strlen(s);
	free(s);
	return n;
}

/* One registry action on the adb device: 0 when it ran; *res its result (freed here unless res_out). */
static int action(amc_device *d, const char *tool, const char *args_json, cJSON **res_out, amc_err *e)
{
	amc_tool_ctx c = { .dev = d };
	cJSON *args = cJSON_Parse(args_json), *res = NULL;
	int rc = amc_tools_find(tool)->run(&c, args, &res, e);
	cJSON_Delete(args);
	if (res_out)
		*res_out = res;
	else
		cJSON_Delete(res);
	return rc;
}

/* list_apps, stop_app, clear_app, install_app and the keys over adb. */
static void test_apps(amc_device *d)
{
	amc_err e = { 0 };
	cJSON *res = NULL;
	ok(action(d, "list_apps", "{}", &res, &e) == 0, "list_apps over adb: %s", e.msg);
	char *txt = cJSON_PrintUnformatted(res);
	like(txt, "\"com.android.contacts\"", "pm list packages: Contacts");
	like(txt, "\"com.android.systemui\"", "and what the phone lists beyond the launcher's apps");
	ok(txt && !strstr(txt, "package:"), "without pm's prefix");
	free(txt);
	cJSON_Delete(res);
	long from = log_size();
	ok(action(d, "launch_app", "{\"app_id\":\"com.android.contacts\"}", NULL, &e) == 0, "Contacts opened");
	ok(action(d, "stop_app", "{\"app_id\":\"com.android.contacts\"}", NULL, &e) == 0, "stop_app: %s", e.msg);
	ok(action(d, "clear_app", "{\"app_id\":\"com.android.contacts\"}", NULL, &e) == 0, "clear_app: %s", e.msg);
	char *lg = log_since(from);
	like(lg, "COMMAND [am] [force-stop] [com.android.contacts]", "stop_app is am force-stop");
	like(lg, "COMMAND [pm] [clear] [com.android.contacts]", "clear_app is pm clear");
	free(lg);
	ok(action(d, "clear_app", "{\"app_id\":\"com.nope.app\"}", NULL, &e) == -1, "clear_app of a package the phone lacks");
	like(e.msg, "pm clear com.nope.app failed", "  says pm clear failed");
	ok(action(d, "stop_app", "{\"app_id\":\"a;reboot\"}", NULL, &e) == -1 && e.code == AMC_EUSAGE,
	   "stop_app: a package with a shell character is refused before adb");
	char apk[PATH_MAX], bad[PATH_MAX];
	snprintf(apk, sizeof apk, "%s/good.apk", home);
	snprintf(bad, sizeof bad, "%s/bad.apk", home);
	FILE *f = fopen(apk, "w");
	fputs("PK\003\004", f);
	fclose(f);
	f = fopen(bad, "w");
	fputs("not a zip", f);
	fclose(f);
	from = log_size();
	char args[PATH_MAX + 32];
	snprintf(args, sizeof args, "{\"path\":\"%s\"}", apk);
	ok(action(d, "install_app", args, &res, &e) == 0, "install_app over adb: %s", e.msg);
	is_str(amc_json_str(res, "installed"), apk, "the file installed, by its real path");
	cJSON_Delete(res);
	lg = log_since(from);
	char want[PATH_MAX + 16];
	snprintf(want, sizeof want, "INSTALL %s", apk);
	like(lg, want, "adb install -r FILE");
	free(lg);
	snprintf(args, sizeof args, "{\"path\":\"%s\"}", bad);
	ok(action(d, "install_app", args, NULL, &e) == -1 && e.code == AMC_EFAIL, "a file that is no package fails");
	like(e.msg, "INSTALL_PARSE_FAILED_NOT_APK", "  with adb's reason");
	from = log_size();
	ok(action(d, "press_key", "{\"key\":\"app_switch\"}", NULL, &e) == 0, "app_switch over adb: %s", e.msg);
	ok(action(d, "press_key", "{\"key\":\"volume_down\"}", NULL, &e) == 0, "volume_down over adb: %s", e.msg);
	lg = log_since(from);
	like(lg, "COMMAND [input] [keyevent] [187]", "app_switch is KEYCODE_APP_SWITCH (187)");
	like(lg, "COMMAND [input] [keyevent] [25]", "volume_down is 25");
	free(lg);
}

int main(void)
{
	home = test_home("adb");
	if (adb_standin_on_path(home) != 0)
		return 1;
	amc_err e;
	if (amc_config_load(&cfg, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	amc_config_set(cfg, "runner", "settle_interval_ms", "10", "test", &e);
	amc_config_set(cfg, "ocr", "policy", "off", "test", &e); /* not under test; costs time per capture */

	test_quote();
	amc_device *d = open_adb();
	if (!ok(d, "adb:" SERIAL " opened through the stand-in on PATH"))
		return done_testing();
	amc_store *store = NULL;
	if (amc_store_open(home, &store, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	test_basics(d);
	test_tricky(d);
	test_flow(d, store);
	test_apps(d);
	test_disappears(d, store);
	amc_device_close(d);
	amc_store_close(store);
	amc_config_free(cfg);
	return done_testing();
}
