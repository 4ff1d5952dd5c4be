/* test_tasks.c - task rows: the idempotent create (a second create of an id is
 * a no-op: the first row wins),
 * updates, unique-prefix lookup, and paged, filtered listing. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/store.h"
#include "tap.h"
#include "testutil.h"

static amc_task_row row(const char *id, const char *status, long long created_ms)
{
	amc_task_row t = {.id = (char *)id, .kind = "flow", .status = (char *)status,
			  .device = "sim:0", .planner = "flow", .created_ms = created_ms,
			  .input_tokens = -1, .output_tokens = -1, .cost_usd = -1,
			  .source_attempt = -1, .max_steps = 50};
	return t;
}

static long long count_rows(amc_store *s, const char *id)
{
	sqlite3_stmt *st;
	long long n = -1;
	sqlite3_prepare_v2(amc_store_db(s), "SELECT count(*) FROM tasks WHERE id = ?1", -1, &st, NULL);
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void test_create_idempotent(amc_store *s)
{
	amc_err e = {0};
	amc_task_row t = row("1000000000000001", "queued", 1000);
	t.goal = "add a contact";
	t.flow_path = "/data/flows/add.yaml";
	t.flow_name = "add contact";
	t.source_task_id = "cloud-task-42";
	t.source_attempt = 3;
	t.owner_pid = 777;
	t.lock_name = "device-sim:0";
	ok(amc_store_create_task(s, &t, &e) == 0, "create: %s", e.msg);

	/* The runner's create after a caller that already created the row:
	 * same id, other fields. */
	amc_task_row again = row("1000000000000001", "running", 2000);
	again.goal = "something else";
	again.flow_name = "other";
	ok(amc_store_create_task(s, &again, &e) == 0, "a second create with the same id is not an error");
	ok(amc_store_create_task(s, &again, &e) == 0, "nor a third");
	is_int(count_rows(s, "1000000000000001"), 1, "still one row");

	amc_task_row got;
	ok(amc_store_get_task(s, "1000000000000001", &got, &e) == 0, "read it back: %s", e.msg);
	is_str(got.goal, "add a contact", "the first create's goal is kept");
	is_str(got.flow_name, "add contact", "and its flow name");
	is_str(got.flow_path, "/data/flows/add.yaml", "flow path");
	is_str(got.status, "queued", "and its status");
	is_int(got.created_ms, 1000, "and its creation time");
	is_str(got.kind, "flow", "kind");
	is_str(got.device, "sim:0", "device");
	is_str(got.planner, "flow", "planner");
	is_str(got.source_task_id, "cloud-task-42", "source_task_id");
	is_int(got.source_attempt, 3, "source_attempt");
	is_int(got.owner_pid, 777, "owner_pid");
	is_str(got.lock_name, "device-sim:0", "lock_name");
	is_int(got.max_steps, 50, "max_steps");
	is_int(got.input_tokens, -1, "unknown tokens read back as -1");
	ok(got.cost_usd < 0, "unknown cost reads back < 0");
	ok(got.started_ms == 0 && got.finished_ms == 0, "not started, not finished (0)");
	ok(got.summary == NULL && got.error == NULL, "no summary, no error");
	amc_task_row_free(&got);

	amc_task_row now = row("1000000000000002", NULL, 0);
	ok(amc_store_create_task(s, &now, &e) == 0, "create with no status and no time");
	ok(amc_store_get_task(s, "1000000000000002", &got, &e) == 0, "read");
	is_str(got.status, "queued", "status defaults to queued");
	ok(got.created_ms > 1600000000000LL, "created_ms defaults to now");
	amc_task_row_free(&got);
}

static void test_create_refuses(amc_store *s)
{
	amc_err e = {0};
	const char *bad[] = {"short", "../../../etc/pas", "1000000000000/01", "10000000000000A1",
			     "10000000000000011", ""};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		amc_task_row t = row(bad[i], "queued", 1);
		e.code = 0;
		ok(amc_store_create_task(s, &t, &e) != 0 && e.code == AMC_EUSAGE, "id '%s' refused: %s", bad[i], e.msg);
	}
	amc_task_row t = row("1000000000000003", "bogus", 1);
	ok(amc_store_create_task(s, &t, &e) != 0 && e.code == AMC_EUSAGE, "unknown status refused: %s", e.msg);
	t = row("1000000000000003", "queued", 1);
	t.kind = NULL;
	ok(amc_store_create_task(s, &t, &e) != 0 && e.code == AMC_EUSAGE, "missing kind refused: %s", e.msg);
	is_int(count_rows(s, "1000000000000003"), 0, "nothing written");
}

static void test_update(amc_store *s)
{
	amc_err e = {0};
	amc_task_row t = row("2000000000000001", "queued", 5000);
	t.flow_name = "wifi";
	ok(amc_store_create_task(s, &t, &e) == 0, "create");
	t.status = "succeeded";
	t.started_ms = 5100;
	t.finished_ms = 9100;
	t.steps = 7;
	t.summary = "all steps passed";
	t.error = NULL;
	t.input_tokens = 1200;
	t.output_tokens = 300;
	t.cost_usd = 0.0125;
	t.owner_pid = 999;
	t.lock_name = "device-sim:3";
	t.flow_name = "ignored: not mutable";
	ok(amc_store_update_task(s, &t, &e) == 0, "update: %s", e.msg);
	amc_task_row got;
	ok(amc_store_get_task(s, "2000000000000001", &got, &e) == 0, "read");
	is_str(got.status, "succeeded", "status written");
	is_int(got.started_ms, 5100, "started_ms");
	is_int(got.finished_ms, 9100, "finished_ms");
	is_int(got.steps, 7, "steps");
	is_str(got.summary, "all steps passed", "summary");
	is_int(got.input_tokens, 1200, "input tokens");
	is_int(got.output_tokens, 300, "output tokens");
	ok(got.cost_usd > 0.0124 && got.cost_usd < 0.0126, "cost");
	is_int(got.owner_pid, 999, "owner pid");
	is_str(got.lock_name, "device-sim:3", "lock name");
	is_str(got.flow_name, "wifi", "immutable fields stay");
	is_int(got.created_ms, 5000, "created_ms stays");
	amc_task_row_free(&got);

	amc_task_row missing = row("2000000000000999", "failed", 1);
	ok(amc_store_update_task(s, &missing, &e) != 0, "updating an unknown task fails");
	is_int(e.code, AMC_EUSAGE, "as bad input");
	like(e.msg, "no task", "saying so: %s", e.msg);
	t.status = "done";
	ok(amc_store_update_task(s, &t, &e) != 0 && e.code == AMC_EUSAGE, "unknown status refused");
}

static void test_prefix(amc_store *s)
{
	amc_err e = {0};
	const char *ids[] = {"3abc000000000001", "3abc000000000002", "3abd000000000001",
			     "3abe000000000001", "3abe000000000002", "3abe000000000003",
			     "3abe000000000004", "3abe000000000005", "3abe000000000006", "3xyz000000000001"};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		amc_task_row t = row(ids[i], "succeeded", 100 + (long long)i);
		amc_store_create_task(s, &t, &e);
	}
	amc_task_row got;
	ok(amc_store_get_task(s, "3abd", &got, &e) == 0, "a unique prefix finds the task: %s", e.msg);
	is_str(got.id, "3abd000000000001", "the right one");
	amc_task_row_free(&got);
	ok(amc_store_get_task(s, "3X", &got, &e) == 0, "a prefix in capitals works too");
	is_str(got.id, "3xyz000000000001", "the right one");
	amc_task_row_free(&got);
	ok(amc_store_get_task(s, "3abc000000000002", &got, &e) == 0, "the exact id");
	is_str(got.id, "3abc000000000002", "finds it");
	amc_task_row_free(&got);

	e.code = 0;
	ok(amc_store_get_task(s, "3abc", &got, &e) != 0, "an ambiguous prefix fails");
	is_int(e.code, AMC_EUSAGE, "as bad input");
	like(e.msg, "matches 2 tasks", "saying how many: %s", e.msg);
	like(e.msg, "3abc000000000001", "listing the first candidate");
	like(e.msg, "3abc000000000002", "and the second");
	ok(got.id == NULL, "*out is left empty");

	ok(amc_store_get_task(s, "3abe", &got, &e) != 0, "six matches");
	like(e.msg, "matches 6 tasks", "counted: %s", e.msg);
	like(e.msg, "and 1 more", "five listed, the rest counted");

	ok(amc_store_get_task(s, "3q", &got, &e) != 0, "an unknown prefix fails");
	is_int(e.code, AMC_EUSAGE, "as bad input");
	is_str(e.msg, "no task matches '3q' (see `amc tasks`)", "with the message that says what to do");
	ok(amc_store_get_task(s, "3abc000000000009", &got, &e) != 0 && e.code == AMC_EUSAGE,
	   "an unknown full id fails the same way");

	const char *invalid[] = {"3a/b", "..", "3abc%", "3a_", "3abc00000000000011", "3 a", "\x1b[31m", ""};
	for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
		e.code = 0;
		ok(amc_store_get_task(s, invalid[i], &got, &e) != 0 && e.code == AMC_EUSAGE,
		   "invalid input #%zu refused", i);
		ok(!strchr(e.msg, '\x1b'), "its message carries no escape byte: %s", e.msg);
	}
	ok(amc_store_get_task(s, NULL, &got, &e) != 0 && e.code == AMC_EUSAGE, "NULL refused");
}

/* Git-style abbreviation: with many ids sharing a long prefix, each shown id
 * is the shortest (>= 8) that still names exactly its task. */
static void test_short_ids(amc_store *s)
{
	amc_err e = {0};
	static const char digits[] = "0123456789abcdefghjkmnpqrstvwxyz";
	char ids[40][AMC_ID_SIZE];
	for (int i = 0; i < 40; i++) {
		/* 32 share 14 characters, 8 share 10 */
		if (i < 32)
			snprintf(ids[i], sizeof ids[i], "9zzzzzzzzzzzz0%c0", digits[i]);
		else
			snprintf(ids[i], sizeof ids[i], "9zzzzzzzzz%c00000", digits[i - 31]);
		amc_task_row t = row(ids[i], "succeeded", 5000 + i);
		ok(amc_store_create_task(s, &t, &e) == 0, "create %s: %s", ids[i], e.msg);
	}
	for (int i = 0; i < 40; i++) {
		char sid[AMC_ID_SIZE];
		ok(amc_store_short_id(s, ids[i], sid, &e) == 0, "short id of %s: %s", ids[i], e.msg);
		size_t want = i < 32 ? 15 : 11;
		ok(strlen(sid) == want, "%s abbreviates to %zu characters (got '%s')", ids[i], want, sid);
		amc_task_row got;
		ok(amc_store_get_task(s, sid, &got, &e) == 0 && got.id && strcmp(got.id, ids[i]) == 0,
		   "`amc show %s` finds exactly that task: %s", sid, e.msg);
		amc_task_row_free(&got);
	}
	/* an id far from every other keeps the usual 8 */
	amc_task_row lone = row("7kkk000000000000", "succeeded", 9000);
	ok(amc_store_create_task(s, &lone, &e) == 0, "create a lone id");
	char sid[AMC_ID_SIZE];
	ok(amc_store_short_id(s, "7kkk000000000000", sid, &e) == 0 && strcmp(sid, "7kkk0000") == 0,
	   "a lone id keeps 8 characters (got '%s')", sid);
	int len = amc_store_short_id_len(s, &e);
	/* other tests left ids that differ only in the last character */
	ok(len >= 15 && len <= AMC_ID_LEN, "the table width makes every id unique: %d", len);
}

static void test_list(amc_store *s)
{
	amc_err e = {0};
	/* A clean store for exact counts: delete what the other tests made. */
	sqlite3_exec(amc_store_db(s), "DELETE FROM tasks", NULL, NULL, NULL);
	const struct {
		const char *id, *status, *goal, *flow;
		long long created;
	} T[] = {
		{"4000000000000001", "succeeded", NULL, "add contact", 1000},
		{"4000000000000002", "failed", NULL, "wifi toggle", 2000},
		{"4000000000000003", "succeeded", "send 100% of it", NULL, 3000},
		{"4000000000000004", "running", "open Settings", NULL, 4000},
		{"4000000000000005", "succeeded", NULL, "Add Contact twice", 5000},
		{"4000000000000006", "succeeded", "note_taking", NULL, 6000},
		{"4000000000000007", "cancelled", NULL, "notes", 7000},
	};
	for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
		amc_task_row t = row(T[i].id, T[i].status, T[i].created);
		t.goal = (char *)T[i].goal;
		t.flow_name = (char *)T[i].flow;
		t.kind = T[i].goal ? "goal" : "flow";
		amc_store_create_task(s, &t, &e);
	}
	amc_task_row *rows;
	size_t n;
	amc_task_filter all = {0};
	ok(amc_store_list_tasks(s, &all, &rows, &n, &e) == 0, "list all: %s", e.msg);
	is_int(n, 7, "seven tasks");
	if (n == 7) {
		is_str(rows[0].id, "4000000000000007", "newest first");
		is_str(rows[6].id, "4000000000000001", "oldest last");
	}
	amc_task_rows_free(rows, n);
	is_int(amc_store_count_tasks(s, NULL, &e), 7, "count with no filter");
	ok(amc_store_list_tasks(s, NULL, &rows, &n, &e) == 0 && n == 7, "a NULL filter lists everything");
	amc_task_rows_free(rows, n);

	amc_task_filter f = {.status = "succeeded"};
	ok(amc_store_list_tasks(s, &f, &rows, &n, &e) == 0, "filter by status");
	is_int(n, 4, "four succeeded");
	int all_ok = 1;
	for (size_t i = 0; i < n; i++)
		all_ok &= !strcmp(rows[i].status, "succeeded");
	ok(all_ok, "all of them succeeded");
	amc_task_rows_free(rows, n);
	is_int(amc_store_count_tasks(s, &f, &e), 4, "count agrees");

	f = (amc_task_filter){.search = "contact"};
	ok(amc_store_list_tasks(s, &f, &rows, &n, &e) == 0, "search a flow name");
	is_int(n, 2, "case-insensitive substring: two");
	if (n == 2) {
		is_str(rows[0].id, "4000000000000005", "newest match first");
		is_str(rows[1].id, "4000000000000001", "then the older");
	}
	amc_task_rows_free(rows, n);

	f = (amc_task_filter){.search = "Settings"};
	is_int(amc_store_count_tasks(s, &f, &e), 1, "search a goal");
	f = (amc_task_filter){.search = "0000005"};
	is_int(amc_store_count_tasks(s, &f, &e), 1, "search an id");
	f = (amc_task_filter){.search = "100%"};
	is_int(amc_store_count_tasks(s, &f, &e), 1, "a literal %% in the search");
	f = (amc_task_filter){.search = "%"};
	is_int(amc_store_count_tasks(s, &f, &e), 1, "'%' alone is not a wildcard");
	f = (amc_task_filter){.search = "e_t"};
	is_int(amc_store_count_tasks(s, &f, &e), 1, "'_' is not a wildcard (only note_taking matches)");
	f = (amc_task_filter){.search = "nothing like this"};
	ok(amc_store_list_tasks(s, &f, &rows, &n, &e) == 0 && n == 0 && rows == NULL, "no match: empty list");
	f = (amc_task_filter){.status = "succeeded", .search = "add"};
	is_int(amc_store_count_tasks(s, &f, &e), 2, "status and search together");

	/* Paging newest first. */
	f = (amc_task_filter){.limit = 3};
	ok(amc_store_list_tasks(s, &f, &rows, &n, &e) == 0 && n == 3, "page 1: three rows");
	if (n == 3)
		is_str(rows[2].id, "4000000000000005", "ending at the fifth");
	amc_task_rows_free(rows, n);
	f.offset = 3;
	ok(amc_store_list_tasks(s, &f, &rows, &n, &e) == 0 && n == 3, "page 2: three rows");
	if (n == 3) {
		is_str(rows[0].id, "4000000000000004", "continuing where page 1 ended");
		is_str(rows[2].id, "4000000000000002", "to the second");
	}
	amc_task_rows_free(rows, n);
	f.offset = 6;
	ok(amc_store_list_tasks(s, &f, &rows, &n, &e) == 0 && n == 1, "page 3: the last row");
	amc_task_rows_free(rows, n);
	f.offset = 60;
	ok(amc_store_list_tasks(s, &f, &rows, &n, &e) == 0 && n == 0, "past the end: nothing");
	is_int(amc_store_count_tasks(s, &f, &e), 7, "count ignores paging");

	/* Default page size is 50, not everything. */
	for (int i = 0; i < 60; i++) {
		char id[17];
		snprintf(id, sizeof id, "5%015d", i);
		amc_task_row t = row(id, "succeeded", 10000 + i);
		amc_store_create_task(s, &t, &e);
	}
	f = (amc_task_filter){0};
	ok(amc_store_list_tasks(s, &f, &rows, &n, &e) == 0, "list with limit 0");
	is_int(n, 50, "gives the default page of 50");
	amc_task_rows_free(rows, n);

	f = (amc_task_filter){.status = "finished"};
	ok(amc_store_list_tasks(s, &f, &rows, &n, &e) != 0 && e.code == AMC_EUSAGE, "unknown status filter refused");
	like(e.msg, "waiting_user", "listing the valid ones: %s", e.msg);
	is_int(amc_store_count_tasks(s, &f, &e), -1, "count refuses it too");
}

/* Keyset paging agrees with OFFSET paging for every order, filter and page
 * size, forwards, backwards and from an anchor; ties on created_ms are broken
 * by id; counting before an anchor gives its index. */
static int same_ids(const amc_task_row *a, size_t na, const amc_task_row *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i].id, b[i].id) != 0)
			return 0;
	return 1;
}

static void test_keyset(const char *home)
{
	char h[4096];
	amc_store *s = NULL;
	amc_err e = {0};
	if (snprintf(h, sizeof h, "%s/keyset", home) >= (int)sizeof h || amc_store_open(h, &s, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		exit(1);
	}
	static const char *const st[] = { "succeeded", "failed", "running", "cancelled", "queued" };
	for (int i = 0; i < 23; i++) {
		char id[17];
		snprintf(id, sizeof id, "6%015d", (i * 7) % 23);
		amc_task_row t = row(id, st[i % 5], 1000 + (i / 3) * 10); /* three share each created_ms */
		if (i % 5 != 4)
			t.started_ms = t.created_ms + 1;
		if (i % 5 < 2 || i % 5 == 3)
			t.finished_ms = t.started_ms + (i * 37) % 11 * 100; /* durations tie too */
		amc_store_create_task(s, &t, &e);
	}
	int agree = 1, back = 1, incl = 1, counts = 1, bottom = 1;
	for (int so = 0; so < AMC_SORT_COUNT; so++)
		for (int fi = 0; fi < 2; fi++)
			for (int lim = 1; lim <= 5; lim += 2) {
				amc_task_filter f = {.status = fi ? "succeeded" : NULL, .limit = 100, .sort = (amc_task_sort)so};
				amc_task_row *all, *pg;
				size_t na, np;
				amc_store_list_tasks(s, &f, &all, &na, &e);
				f.limit = lim;
				/* forwards, page by page from the start */
				size_t at = 0;
				const amc_task_row *anchor = NULL;
				amc_task_row *prev = NULL;
				size_t nprev = 0;
				for (;;) {
					if (amc_store_list_tasks_at(s, &f, anchor, 1, &pg, &np, &e) != 0) {
						agree = 0;
						break;
					}
					if (!np) {
						amc_task_rows_free(pg, np);
						break;
					}
					agree &= at + np <= na && same_ids(pg, np, all + at, np);
					amc_task_rows_free(prev, nprev);
					prev = pg;
					nprev = np;
					anchor = &prev[np - 1];
					at += np;
				}
				amc_task_rows_free(prev, nprev);
				agree &= at == na;
				/* backwards from the end */
				amc_store_list_tasks_at(s, &f, NULL, -1, &pg, &np, &e);
				bottom &= np == (na < (size_t)lim ? na : (size_t)lim) && same_ids(pg, np, all + na - np, np);
				amc_task_rows_free(pg, np);
				for (size_t k = 0; k < na; k++) {
					size_t want = k < (size_t)lim ? k : (size_t)lim;
					amc_store_list_tasks_at(s, &f, &all[k], -1, &pg, &np, &e);
					back &= np == want && same_ids(pg, np, all + k - want, want);
					amc_task_rows_free(pg, np);
					size_t wi = na - k < (size_t)lim ? na - k : (size_t)lim;
					amc_store_list_tasks_at(s, &f, &all[k], 0, &pg, &np, &e);
					incl &= np == wi && same_ids(pg, np, all + k, wi);
					amc_task_rows_free(pg, np);
					counts &= amc_store_count_tasks_before(s, &f, &all[k], &e) == (long)k;
				}
				amc_task_rows_free(all, na);
			}
	ok(agree, "keyset pages forwards = OFFSET pages, every order, filter and page size");
	ok(bottom, "a NULL anchor backwards is the last page");
	ok(back, "the page before any row");
	ok(incl, "a page from any row, that row included");
	ok(counts, "rows before an anchor = its index");
	amc_task_filter f = {.limit = 100, .sort = AMC_SORT_DURATION};
	amc_task_row *all;
	size_t na;
	ok(amc_store_list_tasks(s, &f, &all, &na, &e) == 0 && na == 23, "sorted by duration");
	int dur_ok = 1;
	long long last = -2;
	for (size_t i = na; i-- > 0;) {
		long long d = all[i].started_ms && all[i].finished_ms ? all[i].finished_ms - all[i].started_ms : -1;
		dur_ok &= d >= last;
		last = d;
	}
	ok(dur_ok && !all[na - 1].finished_ms, "longest first, unfinished last");
	amc_task_rows_free(all, na);
	f.sort = AMC_SORT_STATUS;
	ok(amc_store_list_tasks(s, &f, &all, &na, &e) == 0 && na == 23 && !strcmp(all[0].status, "cancelled") &&
	   !strcmp(all[na - 1].status, "succeeded"), "sorted by status A-Z");
	amc_task_rows_free(all, na);
	is_str(amc_store_sort_name(AMC_SORT_OLDEST), "oldest", "sort names");
	amc_store_close(s);
}

int main(void)
{
	const char *home = test_home("tasks");
	amc_store *s = NULL;
	amc_err e = {0};
	if (amc_store_open(home, &s, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	test_create_idempotent(s);
	test_create_refuses(s);
	test_update(s);
	test_prefix(s);
	test_list(s);
	test_short_ids(s);
	amc_store_close(s);
	test_keyset(home);
	return done_testing();
}
