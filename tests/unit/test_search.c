/* test_search.c - the full-text index (storage/search.c, search_schema.h):
 * every field is found, newest first, words are quoted unless --fts, bad FTS5
 * syntax is a usage error, filters and paging, only the newest step's
 * after-screen is indexed, rows without screen_text are read from their JSON,
 * retention removes the index rows with their task, a database made at schema
 * version 3 is backfilled, and the visible text of an observation skips hidden
 * and password nodes. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/search.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

static const char A[] = "7000000000000001", B[] = "7000000000000002";

static long long one_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void mk_task(amc_store *s, const char *id, const char *goal, const char *status, long long created)
{
	amc_err e = { 0 };
	amc_task_row t = { .id = (char *)id, .kind = "goal", .goal = (char *)goal, .status = (char *)status,
			   .created_ms = created, .input_tokens = -1, .output_tokens = -1, .cost_usd = -1,
			   .source_attempt = -1 };
	if (amc_store_create_task(s, &t, &e) != 0)
		diag("create: %s", e.msg);
}

static void add_step(amc_store *s, const char *id, int n, const char *desc, const char *err,
		     const char *why, const char *screen, const char *after)
{
	amc_err e = { 0 };
	amc_step_row r = { .task_id = (char *)id, .step = n, .tool = "tap", .description = (char *)desc,
			   .status = err ? "failed" : "ok", .error = (char *)err, .reasoning = (char *)why,
			   .screen_text = (char *)screen, .after_text = (char *)after };
	if (amc_store_add_step(s, &r, &e) != 0)
		diag("add step: %s", e.msg);
}

/* Search and return the number of hits; *hits kept for the caller when asked. */
static long find(amc_store *s, const amc_search_query *q, amc_search_hit **keep, amc_err *e)
{
	amc_search_hit *h;
	size_t n;
	if (amc_store_search(s, q, &h, &n, e) != 0)
		return -1;
	if (keep)
		*keep = h;
	else
		amc_search_hits_free(h, n);
	return (long)n;
}

static long count(amc_store *s, const char *words)
{
	amc_err e = { 0 };
	amc_search_query q = { .text = words, .limit = 1000 };
	long n = find(s, &q, NULL, &e);
	if (n < 0)
		diag("search '%s': %s", words, e.msg);
	return n;
}

/* Every (token, document, offset) of the index against an index built now
 * from the records through the view: FTS5's integrity-check misses a
 * document the index keeps after its record went. The count that differ. */
static long long index_diff(sqlite3 *db)
{
	sqlite3_exec(db,
		     "DROP TABLE IF EXISTS temp.v1; DROP TABLE IF EXISTS temp.v2; DROP TABLE IF EXISTS temp.r;"
		     "CREATE VIRTUAL TABLE temp.r USING fts5(body, content = '', columnsize = 0,"
		     " tokenize = 'unicode61 remove_diacritics 2');"
		     "INSERT INTO temp.r (rowid, body) SELECT id, body FROM search_doc;"
		     "CREATE VIRTUAL TABLE temp.v1 USING fts5vocab(main, search_fts, instance);"
		     "CREATE VIRTUAL TABLE temp.v2 USING fts5vocab(temp, r, instance);",
		     NULL, NULL, NULL);
	return one_int(db, "SELECT (SELECT count(*) FROM (SELECT term, doc, offset FROM temp.v1"
			   " EXCEPT SELECT term, doc, offset FROM temp.v2)) + (SELECT count(*) FROM"
			   " (SELECT term, doc, offset FROM temp.v2 EXCEPT SELECT term, doc, offset FROM temp.v1))");
}

static void test_quote(void)
{
	char *q = amc_search_quote("  Wi-Fi  say \"hi\" NOT* ");
	is_str(q, "\"Wi-Fi\" \"say\" \"\"\"hi\"\"\" \"NOT*\"", "words quoted, inner quotes doubled");
	free(q);
	ok(amc_search_quote(" \t ") == NULL, "no words: NULL");
}

static void test_fields(amc_store *s)
{
	amc_err e = { 0 };
	long long now = amc_now_ms();
	mk_task(s, A, "turn Wi-Fi off then pay the invoice", "running", now - 10000);
	add_step(s, A, 1, "open Settings", NULL, "the Settings app has the network page",
		 "Network & internet\nWi-Fi\nBluetooth\n", "Wi-Fi\nUse Wi-Fi\nAirport lounge\n");
	add_step(s, A, 2, "tap Pay", "Payment failed: card declined", "pay the invoice now",
		 "Invoice 42\nPay\n", "Payment failed\nRetry\n");
	is_int(count(s, "Wi-Fi"), 2, "Wi-Fi (quoted, so one phrase): the goal and step 1's screen");
	is_int(count(s, "Airport"), 0, "step 1's after-screen left the index when step 2 came");
	is_int(count(s, "Retry"), 1, "the newest step's after-screen is indexed");
	is_int(count(s, "declined"), 1, "a step's error");
	is_int(count(s, "network page"), 1, "reasoning (two words, both required)");
	is_int(count(s, "invoice"), 3, "case-insensitive: goal, step 2 reasoning and screen");
	is_int(count(s, "network lounge"), 0, "words in two different texts are not one hit");

	amc_search_hit *h = NULL;
	amc_search_query q = { .text = "invoice", .limit = 10 };
	long n = find(s, &q, &h, &e);
	is_int(n, 3, "three hits for invoice");
	if (n == 3) {
		ok(h[0].id > h[1].id && h[1].id > h[2].id, "newest first");
		is_str(h[0].field, "screen", "the screen of step 2 is the newest");
		is_int(h[0].step, 2, "at step 2");
		is_str(h[0].tool, "tap", "with its tool");
		is_str(h[2].field, "goal", "the goal is the oldest");
		is_int(h[2].step, 0, "step 0 is the task itself");
		ok(h[2].tool == NULL, "and has no tool");
		is_str(h[2].task_status, "running", "the task's status");
		is_str(h[2].task_title, "turn Wi-Fi off then pay the invoice", "the task's title");
		like(h[0].snippet, "\x02Invoice\x03", "the snippet marks the match: %s", h[0].snippet);
		ok(h[0].created_ms > 0, "a time");
	}
	amc_search_hits_free(h, (size_t)(n > 0 ? n : 0));

	/* the task's error and summary come when they are set */
	amc_task_row t;
	ok(amc_store_get_task(s, A, &t, &e) == 0, "read task A");
	free(t.status);
	t.status = amc_xstrdup("failed");
	t.error = amc_xstrdup("step 2: Payment failed: card declined by the bank");
	t.finished_ms = now;
	ok(amc_store_update_task(s, &t, &e) == 0, "A failed: %s", e.msg);
	is_int(count(s, "bank"), 1, "the task's error is indexed");
	ok(amc_store_update_task(s, &t, &e) == 0, "written again unchanged");
	is_int(count(s, "bank"), 1, "still once");
	free(t.error);
	t.error = amc_xstrdup("step 2: Payment failed: card declined by the Bettong bank");
	ok(amc_store_update_task(s, &t, &e) == 0, "the error rewritten: %s", e.msg);
	is_int(count(s, "Bettong bank"), 1, "the new error is found");
	amc_task_row_free(&t);
	sqlite3 *db = amc_store_db(s);
	ok(sqlite3_exec(db, "INSERT INTO search_fts (search_fts) VALUES ('integrity-check')", NULL, NULL,
			NULL) == SQLITE_OK, "the index agrees with the records' texts: %s", sqlite3_errmsg(db));
	/* schema 8: no second copy of the texts */
	is_int(one_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'search_doc' AND type = 'view'"), 1,
	       "search_doc is a view over the records");
	is_int(one_int(db, "SELECT count(*) FROM pragma_table_info('search_map') WHERE name = 'body'"), 0,
	       "search_map holds no text");

	/* paging */
	amc_search_query p1 = { .text = "invoice", .limit = 2 };
	h = NULL;
	n = find(s, &p1, &h, &e);
	is_int(n, 2, "page 1 of 2 hits");
	if (n == 2) {
		amc_search_query p2 = { .text = "invoice", .limit = 2, .before_id = h[1].id };
		amc_search_hit *h2 = NULL;
		long n2 = find(s, &p2, &h2, &e);
		is_int(n2, 1, "page 2: the rest");
		if (n2 == 1)
			is_str(h2[0].field, "goal", "which is the oldest");
		amc_search_hits_free(h2, (size_t)(n2 > 0 ? n2 : 0));
	}
	amc_search_hits_free(h, (size_t)(n > 0 ? n : 0));
}

static void test_fts_and_filters(amc_store *s)
{
	amc_err e = { 0 };
	long long now = amc_now_ms();
	mk_task(s, B, "check the battery", "succeeded", now);
	add_step(s, B, 1, "open Battery", NULL, NULL, "Battery 80%\nBattery saver\nWi-Fi\n", NULL);

	amc_search_query q = { .text = "batt*", .fts = 1 };
	is_int(find(s, &q, NULL, &e), 3, "--fts prefix: the goal, description and screen of B");
	q.text = "\"battery saver\"";
	is_int(find(s, &q, NULL, &e), 1, "--fts phrase");
	q.text = "wi NOT fi";
	is_int(find(s, &q, NULL, &e), 0, "--fts NOT");
	q.text = "battery OR invoice";
	is_int(find(s, &q, NULL, &e), 6, "--fts OR");
	q.text = "wi AND NOT";
	is_int(find(s, &q, NULL, &e), -1, "bad syntax fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "bad search expression", "that says so: %s", e.msg);
	q.text = "nocolumn:word";
	is_int(find(s, &q, NULL, &e), -1, "an unknown column fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error too");
	q.text = "\"unbalanced";
	is_int(find(s, &q, NULL, &e), -1, "an open quote fails");

	amc_search_query w = { .text = "wi AND NOT" };
	is_int(find(s, &w, NULL, &e), 0, "without --fts the same text is three words, not syntax");
	w.text = "Wi-Fi";
	w.task_id = B;
	is_int(find(s, &w, NULL, &e), 1, "--task: only B's hit");
	w.task_id = NULL;
	w.status = "failed";
	is_int(find(s, &w, NULL, &e), 2, "--status failed: only A's");
	w.status = "nonsense";
	is_int(find(s, &w, NULL, &e), -1, "an unknown status is refused");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	w.status = NULL;
	w.task_id = "../etc";
	is_int(find(s, &w, NULL, &e), -1, "a malformed task id is refused");
	w.task_id = NULL;
	w.since_ms = now - 1;
	is_int(find(s, &w, NULL, &e), 1, "--since: only what was written since (B's step)");
	w.since_ms = 0;
	w.text = "   ";
	is_int(find(s, &w, NULL, &e), -1, "an empty search is refused");
}

/* A row written without screen_text (an older writer): its JSON is read. */
static void test_json_fallback(amc_store *s)
{
	amc_err e = { 0 };
	static const char C[] = "7000000000000003";
	mk_task(s, C, NULL, "succeeded", amc_now_ms());
	amc_step_row r = { .task_id = (char *)C, .step = 1, .tool = "get_ui_tree", .status = "ok",
			   .scene = "{\"elements\":[{\"id\":\"e1\",\"text\":\"Quokka settings\"}]}",
			   .ocr = "[{\"text\":\"Wombat\",\"confidence\":0.9}]",
			   .ui_tree = "{\"nodes\":[{\"text\":\"\",\"content_desc\":\"Echidna button\","
				      "\"children\":[{\"hint\":\"Platypus name\"}]}]}" };
	ok(amc_store_add_step(s, &r, &e) == 0, "a step with JSON only: %s", e.msg);
	is_int(count(s, "Quokka"), 1, "scene text");
	is_int(count(s, "Wombat"), 1, "OCR word");
	is_int(count(s, "Echidna"), 1, "UI tree content description");
	is_int(count(s, "Platypus"), 1, "UI tree hint");
	amc_step_row bad = { .task_id = (char *)C, .step = 2, .tool = "tap", .status = "ok",
			     .description = "Numbat", .scene = "{not json", .ocr = "[[[" };
	ok(amc_store_add_step(s, &bad, &e) == 0, "invalid JSON does not fail the record: %s", e.msg);
	is_int(count(s, "Numbat"), 1, "and its description is found");
}

static void test_retention(amc_store *s)
{
	amc_err e = { 0 };
	sqlite3 *db = amc_store_db(s);
	long docs = (long)one_int(db, "SELECT count(*) FROM search_doc");
	ok(docs > 10, "documents before retention: %ld", docs);
	/* keep only the newest task (C): A (failed) and B (succeeded) go */
	amc_retention_opts o = { .keep = 1 };
	amc_retention_report rep;
	ok(amc_store_retention(s, &o, &rep, &e) == 0, "retention: %s", e.msg);
	is_int(rep.tasks, 2, "two tasks removed");
	is_int(count(s, "invoice"), 0, "A's texts left the index");
	is_int(count(s, "battery"), 0, "B's too");
	is_int(count(s, "Quokka"), 1, "C's stay");
	is_int(one_int(db, "SELECT count(*) FROM search_doc WHERE task_id IN ('7000000000000001',"
			   " '7000000000000002')"), 0, "no document of a removed task is left");
	ok(sqlite3_exec(db, "INSERT INTO search_fts (search_fts) VALUES ('integrity-check')", NULL, NULL,
			NULL) == SQLITE_OK, "the FTS index agrees with its documents: %s", sqlite3_errmsg(db));
	is_int(one_int(db, "SELECT count(*) FROM search_map WHERE tkey NOT IN (SELECT search_key FROM tasks)"),
	       0, "search_map names no removed task");
	is_int(index_diff(db), 0, "the index holds exactly the kept records' tokens");
	/* a task deleted by itself: the foreign key's cascade takes its steps */
	amc_step_row r = { .task_id = (char *)"7000000000000003", .step = 3, .tool = "tap", .status = "ok",
			   .description = (char *)"Bilby burrow", .screen_text = (char *)"Bandicoot\n",
			   .after_text = (char *)"Dingo\n" };
	ok(amc_store_add_step(s, &r, &e) == 0, "a step with an after-screen: %s", e.msg);
	is_int(count(s, "Dingo"), 1, "its after-screen is indexed");
	/* and the comparison can fail: a document left in the index without its record */
	sqlite3_exec(db, "DELETE FROM search_map WHERE id = (SELECT max(id) FROM search_map)", NULL, NULL, NULL);
	ok(index_diff(db) > 0, "a document whose record went is found by the comparison");
	sqlite3_exec(db, "INSERT INTO search_fts (search_fts) VALUES ('rebuild')", NULL, NULL, NULL);
	is_int(index_diff(db), 0, "and a rebuild from the view repairs it");
	ok(sqlite3_exec(db, "DELETE FROM tasks WHERE id = '7000000000000003'", NULL, NULL, NULL) == SQLITE_OK,
	   "delete the task with its steps: %s", sqlite3_errmsg(db));
	is_int(count(s, "Quokka") + count(s, "Bilby") + count(s, "Dingo"), 0, "its texts left the index");
	is_int(one_int(db, "SELECT count(*) FROM search_map WHERE tkey NOT IN (SELECT search_key FROM tasks)"),
	       0, "none of its documents is left");
	ok(sqlite3_exec(db, "INSERT INTO search_fts (search_fts) VALUES ('integrity-check')", NULL, NULL,
			NULL) == SQLITE_OK, "and the index agrees: %s", sqlite3_errmsg(db));
	is_int(index_diff(db), 0, "token for token");
}

/* Schema version 3 as amc wrote it, frozen here on purpose. */
static const char V3_SCHEMA[] =
	"CREATE TABLE tasks (id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, goal TEXT,"
	" flow_path TEXT, flow_name TEXT, device TEXT, planner TEXT, status TEXT NOT NULL,"
	" created_ms INTEGER NOT NULL, started_ms INTEGER, finished_ms INTEGER,"
	" steps INTEGER NOT NULL DEFAULT 0, max_steps INTEGER, summary TEXT, error TEXT,"
	" owner_pid INTEGER, lock_name TEXT, source_task_id TEXT, source_attempt INTEGER,"
	" input_tokens INTEGER, output_tokens INTEGER, cost_usd REAL);"
	"CREATE TABLE timeline (task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,"
	" step INTEGER NOT NULL, tool TEXT, args TEXT, description TEXT, status TEXT, result TEXT,"
	" error TEXT, screenshot_path TEXT, created_ms INTEGER, before_screenshot TEXT,"
	" after_screenshot TEXT, ocr TEXT DEFAULT '[]', ui_tree TEXT, ui_tree_path TEXT, scene TEXT,"
	" semantic_scene TEXT, reasoning TEXT, timings TEXT, started_ms INTEGER, finished_ms INTEGER,"
	" PRIMARY KEY (task_id, step));"
	"CREATE INDEX tasks_created_idx ON tasks(created_ms);"
	"CREATE INDEX tasks_status_idx ON tasks(status, created_ms);"
	"CREATE TABLE planner_decisions (id INTEGER PRIMARY KEY, task_id TEXT NOT NULL REFERENCES"
	" tasks(id) ON DELETE CASCADE, step INTEGER NOT NULL, attempt INTEGER, created_ms INTEGER NOT NULL,"
	" planner TEXT, model TEXT, system_prompt TEXT, user_prompt TEXT, tool TEXT, args TEXT,"
	" outcome TEXT, input_tokens INTEGER, output_tokens INTEGER, cost_usd REAL, detail TEXT);"
	"CREATE INDEX planner_decisions_task_idx ON planner_decisions(task_id, step);"
	"INSERT INTO tasks (id, kind, goal, status, created_ms, finished_ms, error) VALUES"
	" ('7100000000000001', 'goal', 'find the Kookaburra', 'failed', 1700000000000, 1700000009000,"
	"  'step 2: no Kookaburra anywhere'),"
	" ('7100000000000002', 'flow', NULL, 'succeeded', 1700000100000, NULL, NULL);"
	"UPDATE tasks SET flow_name = 'Galah flow' WHERE id = '7100000000000002';"
	"INSERT INTO timeline (task_id, step, tool, description, status, error, reasoning, scene, ocr,"
	" created_ms) VALUES"
	" ('7100000000000001', 1, 'tap', 'open Birds', 'ok', NULL, 'birds live in the Aviary app',"
	"  '{\"elements\":[{\"text\":\"Magpie\"},{\"text\":\"Wi-Fi\"}]}', '[{\"text\":\"Lorikeet\"}]',"
	"  1700000001000),"
	" ('7100000000000001', 2, 'swipe', 'scroll down', 'failed', 'Kookaburra not found', NULL,"
	"  'garbage', NULL, 1700000002000),"
	" ('7100000000000002', 1, 'launch_app', 'launchApp com.galah', 'ok', NULL, NULL, NULL,"
	"  '[]', 1700000101000);";

static void test_backfill(const char *base)
{
	char home[PATH_MAX], path[PATH_MAX + 16];
	pathf(home, sizeof home, "%s/v3", base);
	amc_mkdir_p(home, 0700, NULL);
	pathf(path, sizeof path, "%s/amc.db", home);
	sqlite3 *db;
	int rc = sqlite3_open(path, &db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, V3_SCHEMA, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "PRAGMA user_version = 3", NULL, NULL, NULL);
	ok(rc == SQLITE_OK, "a version-3 database with two tasks: %s", sqlite3_errmsg(db));
	sqlite3_close(db);

	amc_store *s;
	amc_err e = { 0 };
	ok(amc_store_open(home, &s, &e) == 0, "it opens and migrates: %s", e.msg);
	db = amc_store_db(s);
	is_int(one_int(db, "PRAGMA user_version"), AMC_STORE_SCHEMA_VERSION, "at the latest version");
	is_int(count(s, "Kookaburra"), 3, "backfilled: the goal, a step error and the task error");
	is_int(count(s, "Magpie"), 1, "a scene text");
	is_int(count(s, "Lorikeet"), 1, "an OCR word");
	is_int(count(s, "Aviary"), 1, "reasoning");
	is_int(count(s, "Galah"), 2, "a flow's name and a description");
	amc_search_hit *h = NULL;
	amc_search_query q = { .text = "Kookaburra" };
	long n = find(s, &q, &h, &e);
	if (n == 3) {
		is_str(h[0].field, "task_error", "newest first: the task's error was written last");
		is_str(h[1].field, "error", "then step 2's error");
		is_int(h[1].step, 2, "at step 2");
		is_str(h[2].field, "goal", "then the goal");
	}
	amc_search_hits_free(h, (size_t)(n > 0 ? n : 0));
	/* new rows are indexed as they come */
	add_step(s, "7100000000000002", 2, "tap Cockatoo", NULL, NULL, NULL, NULL);
	is_int(count(s, "Cockatoo"), 1, "a step recorded after the migration");
	ok(sqlite3_exec(db, "INSERT INTO search_fts (search_fts) VALUES ('integrity-check')", NULL, NULL,
			NULL) == SQLITE_OK, "the migrated index agrees with the records: %s", sqlite3_errmsg(db));
	is_int(one_int(db, "SELECT count(*) FROM timeline WHERE screen_text IS NULL AND scene LIKE '%Magpie%'"), 0,
	       "an older row's screen text was filled from its JSON");
	amc_store_close(s);
}

static void test_visible_text(void)
{
	amc_ui_tree t = { 0 };
	amc_uitree_builder b;
	amc_uitree_builder_init(&b, &t);
	amc_err e;
	int root = amc_uitree_builder_add(&b, -1, &e);
	int n1 = amc_uitree_builder_add(&b, root, &e);
	int n2 = amc_uitree_builder_add(&b, root, &e);
	int n3 = amc_uitree_builder_add(&b, root, &e);
	int n4 = amc_uitree_builder_add(&b, root, &e);
	amc_uitree_builder_done(&b);
	for (size_t i = 0; i < t.count; i++)
		t.nodes[i].flags |= AMC_NODE_DISPLAYED;
	amc_uitree_set_str(&t.nodes[n1].text, "Wi-Fi");
	amc_uitree_set_str(&t.nodes[n1].content_desc, "Wireless toggle");
	amc_uitree_set_str(&t.nodes[n2].text, "hunter2secret");
	t.nodes[n2].flags |= AMC_NODE_PASSWORD;
	amc_uitree_set_str(&t.nodes[n3].text, "offscreen words");
	t.nodes[n3].flags &= ~(unsigned)AMC_NODE_DISPLAYED;
	amc_uitree_set_str(&t.nodes[n4].text, "Wi-Fi");
	amc_uitree_set_str(&t.nodes[n4].hint, "Search settings");
	char *v = amc_search_visible_text(&t, "[{\"text\":\"Payment\"},{\"text\":\"failed\"},{\"x\":1}]");
	is_str(v, "Wi-Fi\nWireless toggle\nSearch settings\nPayment failed\n",
	       "text, descriptions, hints once each, then OCR words on one line");
	free(v);
	v = amc_search_visible_text(NULL, "not json");
	is_str(v, "", "no tree, bad OCR JSON: empty");
	free(v);
	amc_uitree_free(&t);
}

int main(void)
{
	const char *home = test_home("search");
	test_quote();
	test_visible_text();
	amc_store *s;
	amc_err e = { 0 };
	char h1[PATH_MAX];
	pathf(h1, sizeof h1, "%s/fresh", home);
	if (!ok(amc_store_open(h1, &s, &e) == 0, "open a fresh store: %s", e.msg))
		return done_testing();
	test_fields(s);
	test_fts_and_filters(s);
	test_json_fallback(s);
	test_retention(s);
	amc_store_close(s);
	test_backfill(home);
	return done_testing();
}
