/* test_runner.c - the per-device runner thread (launch/runner.c) on the sim with a
 * scripted planner: the queue, a row for every submitted task, cancel while
 * queued, canonical device ids, and a task on a busy device recorded failed
 * (the one run rule of launch.h). One task's run is tested in test_run.c. */
#include <stdlib.h>
#include <string.h>

#include "runtime/events.h"
#include "launch/runner.h"
#include "script_planner.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"
#include "util/ids.h"

/* How the third task's planner was told its task ended. */
static char q3_ended[16];
static void note_ended(amc_planner *p, const amc_task_outcome *o)
{
	(void)p;
	snprintf(q3_ended, sizeof q3_ended, "%s", o->status);
}
static const amc_planner_hooks NOTE_HOOKS = { NULL, note_ended };

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
	amc_bus *bus = amc_bus_new();
	amc_task_row row;
	static const char *const s9[] = { "wait", "{\"ms\":10}", "wait", "{\"ms\":10}", "wait", "{\"ms\":10}" };

	/* the per-device runner thread: queue, a row for every task, cancel while queued */
	amc_runner *r;
	ok(amc_runner_start(home, "sim", cfg, bus, &r, &e) == 0, "runner thread starts");
	script q1 = { s9, 3, 0, 0, NULL, 0, 0 }, q2 = { s9, 3, 0, 0, NULL, 0, 0 }, q3 = { s9, 3, 0, 0, NULL, 0, 0 };
	amc_task *t1 = amc_task_new("flow", "sim"), *t2 = amc_task_new("flow", "sim"), *t3 = amc_task_new("flow", "sim");
	char id1[AMC_ID_SIZE], id2[AMC_ID_SIZE], id3[AMC_ID_SIZE];
	strcpy(id1, t1->id);
	strcpy(id2, t2->id);
	strcpy(id3, t3->id);
	ok(amc_runner_submit(r, t1, planner_for(&q1), NULL, &e) == 0, "submit 1");
	ok(amc_runner_submit(r, t2, planner_for(&q2), NULL, &e) == 0, "submit 2");
	amc_planner *p3 = planner_for(&q3);
	p3->hooks = &NOTE_HOOKS;
	ok(amc_runner_submit(r, t3, p3, NULL, &e) == 0, "submit 3");
	is_str(amc_runner_device(r), "sim:0", "the runner names its device canonically");
	ok(amc_runner_busy(r) >= 2, "tasks queued or running are counted (%d)", amc_runner_busy(r));
	ok(amc_runner_cancel(r, id3) == 0, "cancel the third while queued");
	ok(amc_runner_cancel(r, "no-such-task") == -1, "cancelling an unknown task finds nothing");
	ok(amc_runner_wait_idle(r, 60000) == 0, "runner drains its queue");
	is_int(amc_runner_busy(r), 0, "nothing queued or running then");
	char why[256];
	is_int(amc_runner_online(r, why, sizeof why), 1, "the device answered");
	is_str(q3_ended, "cancelled", "the planner of the task cancelled while queued is told it ended");
	is_int(q3.plans, 0, "and was never asked for a step");
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

	/* the one run rule (launch.h): a task on a busy device is recorded failed
	 * with the reason amc run prints, and the device is not taken for offline */
	amc_lock *other;
	ok(amc_device_lock(home, "sim:0", "holder-task", &other, &e) == 0, "another task holds sim:0");
	script q4 = { s9, 3, 0, 0, NULL, 0, 0 };
	amc_task *t4 = amc_task_new("flow", "sim");
	char id4[AMC_ID_SIZE];
	strcpy(id4, t4->id);
	ok(amc_runner_submit(r, t4, planner_for(&q4), NULL, &e) == 0, "submit a task to the busy device");
	ok(amc_runner_wait_idle(r, 60000) == 0, "the runner is idle again");
	ok(amc_store_get_task(store, id4, &row, &e) == 0, "the task that could not start has a row");
	is_str(row.status, "failed", "it failed");
	like(row.error ? row.error : "", "device sim:0 is busy with task holder-task", "saying the device is busy, and with what");
	amc_task_row_free(&row);
	is_int(q4.plans, 0, "its planner was never asked");
	is_int(amc_runner_online(r, why, sizeof why), 1, "a busy device is not offline");
	amc_device_unlock(other);
	amc_runner_stop(r, 0);

	amc_bus_free(bus);
	amc_store_close(store);
	amc_config_free(cfg);
	return done_testing();
}
