/* test_decisions.c - the planner decisions table (storage/decisions.c, schema
 * v3): every field round-trips, unknown counts stay unknown, rows come back in
 * step order per task, they belong to a task, and bounded retention keeps the
 * newest tasks' decisions only. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/store.h"
#include "tap.h"
#include "testutil.h"

static void mk_task(amc_store *s, const char *id, long long created_ms)
{
	amc_err e = {0};
	amc_task_row t = {.id = (char *)id, .kind = "goal", .goal = "add a contact", .status = "succeeded",
			  .created_ms = created_ms, .input_tokens = -1, .output_tokens = -1, .cost_usd = -1,
			  .source_attempt = -1};
	if (amc_store_create_task(s, &t, &e) != 0)
		diag("create %s: %s", id, e.msg);
}

static int add(amc_store *s, const char *task, int step, const char *tool)
{
	amc_err e = {0};
	amc_decision_row d = {.task_id = (char *)task, .step = step, .attempt = -1, .planner = "llm",
			      .model = "claude-sonnet-5", .tool = (char *)tool, .outcome = "act",
			      .input_tokens = -1, .output_tokens = -1, .cost_usd = -1};
	int rc = amc_store_add_decision(s, &d, &e);
	if (rc != 0)
		diag("add decision: %s", e.msg);
	return rc;
}

static size_t count(amc_store *s, const char *task)
{
	amc_decision_row *rows = NULL;
	size_t n = 0;
	amc_err e = {0};
	if (amc_store_get_decisions(s, task, &rows, &n, &e) != 0)
		diag("get decisions: %s", e.msg);
	amc_decision_rows_free(rows, n);
	return n;
}

static const char T1[] = "7000000000000001";

static void test_round_trip(amc_store *s)
{
	amc_err e = {0};
	mk_task(s, T1, 1700000000000LL);
	const char *sys = "You control an Android phone.\nTools:\n- tap: ...";
	const char *user = "Goal: add \"Zoë\"\nStep 3. Current screen (Scene):\n{\"elements\":[]}"
			   "\n[image: artifacts/7000000000000001/0003-before.png]";
	const char *args = "{\"element\":\"e4\",\"reason\":\"the Add button\"}";
	const char *detail = "{\"stop_reason\":\"tool_use\",\"request_id\":\"req_1\",\"attempts\":2,"
			     "\"cache_read_input_tokens\":900}";
	amc_decision_row d = {.task_id = (char *)T1, .step = 3, .attempt = 2, .created_ms = 1700000001234LL,
			      .planner = "llm", .model = "claude-sonnet-5", .system_prompt = (char *)sys,
			      .user_prompt = (char *)user, .tool = "tap", .args = (char *)args, .outcome = "act",
			      .input_tokens = 1500, .output_tokens = 42, .cost_usd = 0.00513, .detail = (char *)detail};
	ok(amc_store_add_decision(s, &d, &e) == 0, "a full decision is recorded: %s", e.msg);

	amc_decision_row *rows = NULL;
	size_t n = 0;
	ok(amc_store_get_decisions(s, T1, &rows, &n, &e) == 0, "and read back: %s", e.msg);
	is_int(n, 1, "one row");
	if (n != 1)
		return;
	amc_decision_row *r = &rows[0];
	ok(r->id > 0, "it has a row id");
	is_str(r->task_id, T1, "task id");
	is_int(r->step, 3, "step");
	is_int(r->attempt, 2, "attempt");
	is_int(r->created_ms, 1700000001234LL, "created_ms as given");
	is_str(r->planner, "llm", "planner");
	is_str(r->model, "claude-sonnet-5", "model");
	is_str(r->system_prompt, sys, "system prompt, newlines kept");
	is_str(r->user_prompt, user, "user prompt, UTF-8 and the image reference kept");
	is_str(r->tool, "tap", "tool");
	is_str(r->args, args, "arguments JSON");
	is_str(r->outcome, "act", "outcome");
	is_int(r->input_tokens, 1500, "input tokens");
	is_int(r->output_tokens, 42, "output tokens");
	ok(r->cost_usd > 0.005129 && r->cost_usd < 0.005131, "cost (%g)", r->cost_usd);
	is_str(r->detail, detail, "detail JSON");
	amc_decision_rows_free(rows, n);
}

static void test_unknowns(amc_store *s)
{
	amc_err e = {0};
	const char *T = "7000000000000002";
	mk_task(s, T, 1700000000100LL);
	/* a failed call: no tool, nothing known about usage or cost */
	amc_decision_row d = {.task_id = (char *)T, .step = 1, .attempt = -1, .outcome = "fail",
			      .input_tokens = -1, .output_tokens = -1, .cost_usd = -1,
			      .detail = "{\"error\":\"HTTP 529 overloaded_error\"}"};
	long long before = 0;
	{
		sqlite3_stmt *st;
		sqlite3_prepare_v2(amc_store_db(s), "SELECT CAST(strftime('%s','now') AS INTEGER) * 1000", -1, &st, NULL);
		if (sqlite3_step(st) == SQLITE_ROW)
			before = sqlite3_column_int64(st, 0) - 2000;
		sqlite3_finalize(st);
	}
	ok(amc_store_add_decision(s, &d, &e) == 0, "a sparse decision is recorded: %s", e.msg);
	amc_decision_row *rows = NULL;
	size_t n = 0;
	amc_store_get_decisions(s, T, &rows, &n, &e);
	is_int(n, 1, "one row");
	if (n != 1)
		return;
	is_int(rows[0].attempt, -1, "no attempt reads back as -1");
	is_int(rows[0].input_tokens, -1, "unknown input tokens stay unknown (-1), not 0");
	is_int(rows[0].output_tokens, -1, "unknown output tokens stay unknown");
	ok(rows[0].cost_usd < 0, "unknown cost stays unknown");
	ok(rows[0].tool == NULL && rows[0].args == NULL && rows[0].planner == NULL, "missing strings are NULL");
	ok(rows[0].created_ms >= before, "created_ms 0 means now (%lld)", rows[0].created_ms);
	amc_decision_rows_free(rows, n);

	sqlite3_stmt *st;
	sqlite3_prepare_v2(amc_store_db(s), "SELECT input_tokens IS NULL AND cost_usd IS NULL AND attempt IS NULL"
			   " FROM planner_decisions WHERE task_id = ?", -1, &st, NULL);
	sqlite3_bind_text(st, 1, T, -1, SQLITE_STATIC);
	ok(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1, "unknowns are stored as NULL");
	sqlite3_finalize(st);
}

static void test_order_and_scope(amc_store *s)
{
	amc_err e = {0};
	const char *T = "7000000000000003";
	mk_task(s, T, 1700000000200LL);
	add(s, T, 2, "swipe");
	add(s, T, 1, "tap");
	add(s, T, 2, "type_text"); /* a re-planned step: a second call for step 2 */
	add(s, T, 10, "finish");
	amc_decision_row *rows = NULL;
	size_t n = 0;
	ok(amc_store_get_decisions(s, T, &rows, &n, &e) == 0, "read: %s", e.msg);
	is_int(n, 4, "four decisions");
	if (n == 4) {
		ok(rows[0].step == 1 && rows[1].step == 2 && rows[2].step == 2 && rows[3].step == 10,
		   "in step order (numeric: 10 after 2)");
		ok(!strcmp(rows[1].tool, "swipe") && !strcmp(rows[2].tool, "type_text"),
		   "calls of one step in the order they were made");
	}
	amc_decision_rows_free(rows, n);
	is_int(count(s, T1), 1, "another task's decisions are not mixed in");
	n = 99; /* the call must reset it */
	ok(amc_store_get_decisions(s, "7999999999999999", &rows, &n, &e) == 0 && n == 0 && rows == NULL,
	   "a task without decisions: none, not an error");

	amc_decision_row d = {.task_id = "7999999999999999", .step = 1, .attempt = -1,
			      .input_tokens = -1, .output_tokens = -1, .cost_usd = -1};
	is_int(amc_store_add_decision(s, &d, &e), -1, "a decision for a task that does not exist is refused");
	ok(e.msg[0] != 0, "with a message (%s)", e.msg);

	/* they go with their task */
	sqlite3_stmt *st;
	sqlite3_prepare_v2(amc_store_db(s), "DELETE FROM tasks WHERE id = ?", -1, &st, NULL);
	sqlite3_bind_text(st, 1, T, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
	is_int(count(s, T), 0, "deleting a task deletes its decisions");
}

static void test_prune(amc_store *s)
{
	amc_err e = {0};
	/* five tasks, oldest first; the newest has no decisions */
	const char *ids[] = { "7100000000000001", "7100000000000002", "7100000000000003",
			      "7100000000000004", "7100000000000005" };
	for (int i = 0; i < 5; i++)
		mk_task(s, ids[i], 1800000000000LL + i * 1000);
	for (int i = 0; i < 4; i++)
		for (int k = 1; k <= 3; k++)
			add(s, ids[i], k, "tap");
	/* earlier sections left T1 (1 row) and 7000000000000002 (1 row), both older */
	long del = amc_store_prune_decisions(s, 3, &e);
	is_int(del, 3 + 2, "keep 3: the rows of the older tasks are deleted (%s)", e.msg);
	is_int(count(s, ids[0]), 0, "the oldest task with decisions lost them");
	is_int(count(s, T1), 0, "older tasks too");
	ok(count(s, ids[1]) == 3 && count(s, ids[2]) == 3 && count(s, ids[3]) == 3,
	   "the 3 newest tasks with decisions keep all theirs (a task without any does not count)");
	amc_task_row t;
	ok(amc_store_get_task(s, ids[0], &t, &e) == 0, "the task itself stays");
	amc_task_row_free(&t);
	is_int(amc_store_prune_decisions(s, 3, &e), 0, "pruning again deletes nothing");
	is_int(amc_store_prune_decisions(s, 0, &e), 6, "keep 0 is taken as 1: the newest task's decisions stay");
	is_int(count(s, ids[3]), 3, "the newest task with decisions keeps them");
}

int main(void)
{
	const char *home = test_home("decisions");
	amc_store *s = NULL;
	amc_err e = {0};
	if (amc_store_open(home, &s, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	test_round_trip(s);
	test_unknowns(s);
	test_order_and_scope(s);
	test_prune(s);
	amc_store_close(s);
	return done_testing();
}
