/* test_manager.c - many devices from one host: device ids, the device list
 * (sims and adb phones through the stand-in, busy and unauthorized ones), and
 * tasks on two sims at once whose timelines are complete and separate. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "device/device.h"
#include "device/manager.h"
#include "device/sim/sim.h"
#include "planner/flow_planner.h"
#include "launch/runner.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/strbuf.h"

static const char *home;
static amc_config *cfg;

static void test_ids(void)
{
	static const char *const good[][2] = {
		{ "sim", "sim:0" },
		{ "sim:7", "sim:7" },
		{ "adb:emulator-5554", "adb:emulator-5554" },
		{ "adb:192.168.1.20:5555", "adb:192.168.1.20:5555" },
		{ "appium:http://127.0.0.1:4723/", "appium:http://127.0.0.1:4723" },
		{ "appium:https://hub.example.com/wd/hub", "appium:https://hub.example.com/wd/hub" },
	};
	static const char *const bad[] = { "adb:", "adb:-s", "adb:a b", "adb:x;reboot", "appium:ftp://x",
					   "appium:http://", "appium:http://a b", "phone", "sim:x", "sim:12345" };
	char out[128];
	amc_err e;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		int rc = amc_device_id_normalize(good[i][0], out, sizeof out, &e);
		ok(rc == 0 && !strcmp(out, good[i][1]), "id %s -> %s", good[i][0], rc == 0 ? out : e.msg);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = amc_device_id_normalize(bad[i], out, sizeof out, &e);
		ok(rc == -1 && e.code == AMC_EUSAGE && strstr(e.msg, "adb:SERIAL") && strstr(e.msg, "appium:URL"),
		   "id '%s' refused, naming the valid forms", bad[i]);
	}
}

static const amc_device_entry *entry(const amc_device_entry *v, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].id, id))
			return &v[i];
	return NULL;
}

static void test_list(void)
{
	amc_err e;
	amc_device *d = NULL;
	/* sim:3 exists once used. */
	if (amc_sim_open(home, 3, cfg, &d, &e) == 0)
		amc_device_close(d);
	setenv("AMC_ADB_STANDIN_SERIALS", "emulator-5554,R58M123ABC", 1);
	setenv("AMC_ADB_STANDIN_UNAUTHORIZED", "192.168.1.20:5555", 1);
	amc_lock *lock = NULL;
	ok(amc_device_lock(home, "adb:R58M123ABC", "01TESTTASK", &lock, &e) == 0, "hold adb:R58M123ABC as a task would");
	amc_device_entry *v = NULL;
	size_t n = 0;
	char warn[1200];
	ok(amc_devices_list(home, cfg, &v, &n, warn, sizeof warn, &e) == 0, "list devices (%s)", warn);
	is_int(n, 5, "two sims and three phones");
	const amc_device_entry *s0 = entry(v, n, "sim:0"), *s3 = entry(v, n, "sim:3");
	const amc_device_entry *a = entry(v, n, "adb:emulator-5554"), *b = entry(v, n, "adb:R58M123ABC");
	const amc_device_entry *u = entry(v, n, "adb:192.168.1.20:5555");
	ok(s0 && s3 && !strcmp(s3->status, "online") && s3->width == 1080, "sims listed, sorted, described");
	ok(a && !strcmp(a->kind, "adb") && !strcmp(a->status, "online") && a->width == 1080 && a->height == 2400 &&
	   !strcmp(a->model, "amc sim (adb stand-in)"), "adb phone online with model and screen");
	ok(b && !strcmp(b->status, "busy") && !strcmp(b->task, "01TESTTASK"), "held phone busy with its task");
	ok(u && !strcmp(u->status, "offline") && strstr(u->note, "Allow USB debugging"),
	   "unauthorized phone offline, saying what to do");
	free(v);
	amc_device_unlock(lock);

	/* No adb at all: the sims are still listed and the reason is given. */
	amc_config_set(cfg, "adb", "path", "/nonexistent/adb", "test", &e);
	ok(amc_devices_list(home, cfg, &v, &n, warn, sizeof warn, &e) == 0 && n == 2, "without adb: sims only");
	like(warn, "adb", "and a remark why");
	free(v);
	amc_config_set(cfg, "adb", "path", "adb", "test", &e);
	unsetenv("AMC_ADB_STANDIN_SERIALS");
	unsetenv("AMC_ADB_STANDIN_UNAUTHORIZED");
}

static amc_task *flow_task(const char *rel, const char *device, amc_planner **p)
{
	amc_flow flow;
	amc_err e;
	if (amc_flow_load(test_src(rel), &flow, &e) != 0) {
		diag("flow: %s", e.msg);
		return NULL;
	}
	amc_task *t = amc_task_new("flow", device);
	t->flow_path = amc_xstrdup(rel);
	t->flow_name = amc_xstrdup(flow.name);
	if (amc_flow_planner_new(&flow, 5000, p, &e) != 0) {
		diag("planner: %s", e.msg);
		amc_task_free(t);
		return NULL;
	}
	return t;
}

/* Count the events per task, to see both ran at the same time. */
typedef struct seen {
	char id[2][64];
	int steps[2];
	int overlap; /* a step of one task finished while the other was running */
	int running[2];
} seen;

static void on_event(const amc_event *ev, void *ud)
{
	seen *s = ud;
	for (int k = 0; k < 2; k++) {
		if (strcmp(ev->task_id, s->id[k]))
			continue;
		if (ev->type == AMC_EV_TASK_STATUS && ev->status)
			s->running[k] = !strcmp(ev->status, "running");
		if (ev->type == AMC_EV_STEP_FINISHED) {
			s->steps[k]++;
			if (s->running[1 - k])
				s->overlap = 1;
		}
	}
}

static int has_in_state(const char *what, int sim_index, const char *needle)
{
	amc_device *d = NULL;
	amc_err e;
	char *js = NULL;
	if (amc_sim_open(home, sim_index, cfg, &d, &e) != 0 || amc_sim_state_json(d, &js, &e) != 0) {
		amc_device_close(d);
		return -1;
	}
	cJSON *j = cJSON_Parse(js);
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(j, what);
	int found = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
	{
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(it, !strcmp(what, "notes") ? "body" : "name");
		if (cJSON_IsString(f) && !strcmp(f->valuestring, needle))
			found = 1;
	}
	cJSON_Delete(j);
	free(js);
	amc_device_close(d);
	return found;
}

static void test_two_sims(void)
{
	amc_err e;
	amc_sim_reset(home, 1, cfg, &e);
	amc_sim_reset(home, 2, cfg, &e);
	amc_bus *bus = amc_bus_new();
	seen s;
	memset(&s, 0, sizeof s);
	amc_runner *r1 = NULL, *r2 = NULL;
	ok(amc_runner_start(home, "sim:1", cfg, bus, &r1, &e) == 0 && amc_runner_start(home, "sim:2", cfg, bus, &r2, &e) == 0,
	   "one runner per sim");
	amc_planner *p1 = NULL, *p2 = NULL;
	amc_task *t1 = flow_task("data/flows/create-note.yaml", "sim:1", &p1);
	amc_task *t2 = flow_task("data/flows/add-contact.yaml", "sim:2", &p2);
	if (!ok(r1 && r2 && t1 && t2, "two flow tasks")) {
		amc_runner_stop(r1, 1);
		amc_runner_stop(r2, 1);
		amc_bus_free(bus);
		return;
	}
	snprintf(s.id[0], sizeof s.id[0], "%s", t1->id);
	snprintf(s.id[1], sizeof s.id[1], "%s", t2->id);
	int sub = amc_bus_subscribe(bus, on_event, &s);
	char id1[64], id2[64];
	snprintf(id1, sizeof id1, "%s", t1->id);
	snprintf(id2, sizeof id2, "%s", t2->id);
	ok(amc_runner_submit(r1, t1, p1, NULL, &e) == 0 && amc_runner_submit(r2, t2, p2, NULL, &e) == 0, "submitted at once");
	ok(amc_runner_wait_idle(r1, 120000) == 0 && amc_runner_wait_idle(r2, 120000) == 0, "both finished");
	amc_runner_stop(r1, 0);
	amc_runner_stop(r2, 0);
	amc_bus_unsubscribe(bus, sub);
	amc_bus_free(bus);
	ok(s.overlap, "they ran at the same time (a step of one finished while the other ran)");

	amc_store *store = NULL;
	if (amc_store_open(home, &store, &e) != 0) {
		diag("store: %s", e.msg);
		return;
	}
	const char *ids[2] = { id1, id2 };
	const char *devs[2] = { "sim:1", "sim:2" };
	const int want[2] = { 9, 14 }; /* add-contact: clearState, then its 13 commands */
	long long st[2] = { 0 }, fin[2] = { 0 };
	for (int k = 0; k < 2; k++) {
		amc_task_row row;
		if (!ok(amc_store_get_task(store, ids[k], &row, &e) == 0, "task %d stored", k))
			continue;
		ok(!strcmp(row.status, "succeeded") && !strcmp(row.device, devs[k]) && row.steps == want[k],
		   "task %d on %s succeeded with %d steps (%s, %s, %d)", k, devs[k], want[k], row.status, row.device, row.steps);
		st[k] = row.started_ms;
		fin[k] = row.finished_ms;
		amc_task_row_free(&row);
		amc_step_row *steps = NULL;
		size_t n = 0;
		amc_store_get_steps(store, ids[k], &steps, &n, &e);
		int complete = n == (size_t)want[k], own = 1;
		for (size_t i = 0; i < n; i++) {
			if (steps[i].step != (int)i + 1 || strcmp(steps[i].status, "ok"))
				complete = 0;
			/* Every artifact belongs to this task: nothing of the other task's run. */
			const char *paths[2] = { steps[i].before_screenshot, steps[i].after_screenshot };
			for (int q = 0; q < 2; q++)
				if (!paths[q] || strncmp(paths[q], "artifacts/", 10) ||
				    strncmp(paths[q] + 10, ids[k], strlen(ids[k])) || paths[q][10 + strlen(ids[k])] != '/')
					own = 0;
			if (strcmp(steps[i].task_id, ids[k]))
				own = 0;
		}
		ok(complete, "task %d: timeline complete, steps 1..%d all ok (%zu)", k, want[k], n);
		ok(own, "task %d: every record and screenshot is its own", k);
		amc_step_rows_free(steps, n);
	}
	ok(st[0] < fin[1] && st[1] < fin[0], "the two tasks' running times overlap");
	amc_store_close(store);
	ok(has_in_state("notes", 1, "Milk, eggs, bread") == 1 && has_in_state("contacts", 1, "Ada Lovelace") == 0,
	   "sim:1 has the note and not the contact");
	ok(has_in_state("contacts", 2, "Ada Lovelace") == 1 && has_in_state("notes", 2, "Milk, eggs, bread") == 0,
	   "sim:2 has the contact and not the note");
}

int main(void)
{
	home = test_home("manager");
	amc_err e;
	const char *build = getenv("AMC_TEST_BUILDDIR");
	char bin[PATH_MAX + 8], link[PATH_MAX + 16], target[PATH_MAX + 64], path[16384];
	snprintf(bin, sizeof bin, "%s/bin", home);
	snprintf(link, sizeof link, "%s/adb", bin);
	snprintf(target, sizeof target, "%s/tests/tools/adb-standin", build && *build ? build : ".");
	if (amc_mkdir_p(bin, 0700, &e) != 0 || symlink(target, link) != 0) {
		printf("Bail out! cannot set up %s\n", link);
		return 1;
	}
	snprintf(path, sizeof path, "%s:%s", bin, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	if (amc_config_load(&cfg, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	amc_config_set(cfg, "runner", "settle_interval_ms", "10", "test", &e);
	amc_config_set(cfg, "ocr", "policy", "off", "test", &e); /* not under test; costs time per capture */
	test_ids();
	test_list();
	test_two_sims();
	amc_config_free(cfg);
	return done_testing();
}
