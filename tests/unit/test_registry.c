/* test_registry.c - src/mcp/registry.c without a client: calls naming one
 * device take turns in arrival order (a later ticket waits for the earlier
 * one's end, across threads), a registry with no room for another device
 * says so, runs end and pass a cancel on, cancel_task finds a run by its task
 * and nothing else, and an unknown device has no session. Sessions on the
 * sim are tested through the server (test_mcp_act, test_mcp_server). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mcp/registry.h"
#include "tap.h"
#include "testutil.h"
#include "util/clock.h"

static amc_mcp_reg *reg;
static int lines;

static void count_log(void *ctx, const char *level, const char *text)
{
	(void)ctx, (void)level, (void)text;
	lines++;
}

typedef struct turn {
	unsigned long ticket;
	long long began;
} turn;

static void *take_turn(void *arg)
{
	turn *t = arg;
	amc_mcp_reg_turn_wait(reg, "sim:1", t->ticket);
	t->began = amc_mono_ms();
	amc_mcp_reg_turn_end(reg, "sim:1");
	return NULL;
}

static void *a_run(void *arg)
{
	amc_mcp_run *run = arg;
	/* runs until cancelled, as a task does (at most 10 s: a test that
	 * fails to cancel must not hang) */
	int n = 0;
	while (!atomic_load(amc_mcp_run_cancel(run)) && n++ < 2000)
		amc_sleep_ms(5);
	amc_task_outcome o;
	memset(&o, 0, sizeof o);
	snprintf(o.status, sizeof o.status, "%s", atomic_load(amc_mcp_run_cancel(run)) ? "cancelled" : "never cancelled");
	amc_mcp_reg_run_done(reg, run, &o);
	return NULL;
}

int main(void)
{
	const char *home = test_home("registry");
	amc_config *cfg = amc_config_new();
	amc_mcp_opts o = { .home = home, .cfg = cfg, .idle_s = 600 };
	amc_mcp_reg_opts ro = { &o, "unit test", "sess0000", NULL, count_log, NULL };
	amc_err e = { 0 };
	ok(amc_mcp_reg_new(&ro, &reg, &e) == 0, "a registry starts: %s", e.msg);

	/* turns: two tickets on one device, the second waits for the first */
	unsigned long t0 = 99, t1 = 99;
	ok(amc_mcp_reg_ticket(reg, "sim:1", &t0) == 0 && amc_mcp_reg_ticket(reg, "sim:1", &t1) == 0,
	   "tickets for two calls on sim:1");
	is_int((int)t0, 0, "the first call's ticket is 0");
	is_int((int)t1, 1, "the second's is 1");
	turn second = { t1, 0 };
	pthread_t th;
	pthread_create(&th, NULL, take_turn, &second);
	amc_sleep_ms(100);
	is_int((int)second.began, 0, "the second call waits while the first has its turn");
	amc_mcp_reg_turn_wait(reg, "sim:1", t0);
	long long ended = amc_mono_ms();
	amc_mcp_reg_turn_end(reg, "sim:1");
	pthread_join(th, NULL);
	ok(second.began >= ended, "and runs once the first ends");
	unsigned long other = 99;
	ok(amc_mcp_reg_ticket(reg, "sim:2", &other) == 0 && other == 0, "another device has its own turns");
	amc_mcp_reg_turn_end(reg, "sim:2");

	/* room for 64 devices: the 65th call gets no turn */
	int refused = 0;
	for (int i = 3; i < 70; i++) {
		char dev[32];
		unsigned long t;
		snprintf(dev, sizeof dev, "sim:%d", i);
		if (amc_mcp_reg_ticket(reg, dev, &t) != 0)
			refused++;
		else
			amc_mcp_reg_turn_end(reg, dev);
	}
	is_int(refused, 5, "a registry full of devices refuses a ticket for another (64 at most)");

	/* sessions: none on a device nobody started */
	amc_err se = { 0 };
	ok(amc_mcp_reg_session(reg, "sim:1", 0, &se) == NULL && strstr(se.msg, "no session on sim:1"),
	   "no session on a device without one: %s", se.msg);
	amc_task_outcome out;
	is_int(amc_mcp_reg_session_close_out(reg, "sim:1", AMC_MCP_END_CLIENT, &out, NULL, 0), -1,
	       "closing a session that is not there: -1");
	char reason[64] = "x", dev[32] = "x";
	amc_mcp_reg_task_context(reg, "nosuchtask", reason, sizeof reason, dev, sizeof dev);
	ok(!reason[0] && !dev[0], "no context for a task without a session");

	/* runs */
	amc_mcp_run *run = amc_mcp_reg_run_add(reg, "task000000000001");
	ok(run != NULL, "a run gets a slot");
	ok(amc_mcp_reg_run_spawn(reg, run, a_run, run) == 0, "its thread starts");
	is_int(amc_mcp_reg_cancel_task(reg, "task000000000002"), 0, "cancel_task of another task finds nothing");
	is_int(amc_mcp_reg_cancel_task(reg, "task000000000001"), 1, "cancel_task finds the run by its task");
	amc_task_outcome ro_out;
	amc_mcp_reg_run_wait(reg, run, NULL, &ro_out);
	is_str(ro_out.status, "cancelled", "the run ends cancelled and its wait gets the outcome");
	amc_mcp_run *run2 = amc_mcp_reg_run_add(reg, "task000000000003");
	atomic_int call_cancel = 1;
	ok(run2 && amc_mcp_reg_run_spawn(reg, run2, a_run, run2) == 0, "a second run starts");
	amc_mcp_reg_run_wait(reg, run2, &call_cancel, &ro_out);
	is_str(ro_out.status, "cancelled", "a cancelled call's wait passes the cancel on to its run");
	amc_mcp_reg_cancel_runs(reg);
	amc_mcp_reg_free(reg, 0);
	is_int(lines, 0, "nothing logged without sessions");
	amc_config_free(cfg);
	return done_testing();
}
