/* test_migrate.c - schema versions: a version-1 database made here by hand (the
 * original schema, as an older amc wrote it) migrates on open and its legacy
 * records stay readable; a newer database and a foreign one are refused; a
 * failing step leaves the database as it was. */
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/fsutil.h"

/* The original (version 1) schema, frozen here on purpose: it is what old
 * databases in the field contain, whatever migrate.c says today. */
static const char V1_SCHEMA[] =
	"CREATE TABLE tasks (id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, goal TEXT,"
	" flow_path TEXT, flow_name TEXT, device TEXT, planner TEXT, status TEXT NOT NULL,"
	" created_ms INTEGER NOT NULL, started_ms INTEGER, finished_ms INTEGER,"
	" steps INTEGER NOT NULL DEFAULT 0, max_steps INTEGER, summary TEXT, error TEXT,"
	" owner_pid INTEGER, lock_name TEXT);"
	"CREATE TABLE timeline (task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,"
	" step INTEGER NOT NULL, tool TEXT, args TEXT, description TEXT, status TEXT, result TEXT,"
	" error TEXT, screenshot_path TEXT, created_ms INTEGER, PRIMARY KEY (task_id, step));";

static const char LEGACY_ID[] = "01legacy00000001";

static void make_home(const char *base, const char *name, char *home, size_t n)
{
	snprintf(home, n, "%s/%s", base, name);
	amc_mkdir_p(home, 0700, NULL);
}

/* Build an amc.db by hand with `sql` and the given user_version. */
static int build_db(const char *home, const char *sql, int version)
{
	char path[PATH_MAX + 16], pragma[64];
	snprintf(path, sizeof path, "%s/amc.db", home);
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", version);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, pragma, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		diag("build_db: %s", sqlite3_errmsg(db));
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

static long long one_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* "name,name,..." of a table's columns, in order. */
static char *columns(sqlite3 *db, const char *table)
{
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT name FROM pragma_table_info('%s') ORDER BY cid", table);
	sqlite3_stmt *st;
	static char buf[2][2048];
	static int k;
	char *b = buf[k++ & 1];
	b[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return b;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (b[0])
			strcat(b, ",");
		strncat(b, (const char *)sqlite3_column_text(st, 0), 2000 - strlen(b));
	}
	sqlite3_finalize(st);
	return b;
}

static void test_v1_upgrade(const char *base)
{
	char home[PATH_MAX];
	make_home(base, "v1", home, sizeof home);
	char sql[4096];
	snprintf(sql, sizeof sql,
		 "%s"
		 "INSERT INTO tasks (id, kind, flow_path, flow_name, device, planner, status, created_ms,"
		 " started_ms, finished_ms, steps, max_steps, summary, owner_pid, lock_name)"
		 " VALUES ('%s', 'flow', '/flows/add.yaml', 'add contact', 'sim:0', 'flow', 'succeeded',"
		 " 1700000000000, 1700000000100, 1700000009000, 2, 50, 'done', 4242, 'device-sim:0');"
		 "INSERT INTO timeline (task_id, step, tool, args, description, status, result,"
		 " screenshot_path, created_ms) VALUES"
		 " ('%s', 1, 'launch_app', '{\"app\":\"contacts\"}', 'open Contacts', 'ok', '{\"ok\":true}',"
		 "  'artifacts/%s/0001.png', 1700000001000),"
		 " ('%s', 2, 'tap', '{\"x\":10,\"y\":20}', 'tap Add', 'ok', NULL,"
		 "  'artifacts/%s/0002.png', 1700000002000);",
		 V1_SCHEMA, LEGACY_ID, LEGACY_ID, LEGACY_ID, LEGACY_ID, LEGACY_ID);
	ok(build_db(home, sql, 1) == 0, "built a version-1 database by hand");

	amc_store *s = NULL;
	amc_err e = {0};
	ok(amc_store_open(home, &s, &e) == 0, "the store opens it: %s", e.msg);
	sqlite3 *db = amc_store_db(s);
	is_int(one_int(db, "PRAGMA user_version"), AMC_STORE_SCHEMA_VERSION, "user_version is now the latest");
	is_int(one_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'planner_decisions'"), 1,
	       "version 3 added the planner decisions table");
	like(columns(db, "tasks"), "source_task_id,source_attempt,input_tokens,output_tokens,cost_usd",
	     "tasks gained the correlation and usage columns");
	like(columns(db, "timeline"),
	     "before_screenshot,after_screenshot,ocr,ui_tree,ui_tree_path,scene,semantic_scene,"
	     "reasoning,timings,started_ms,finished_ms",
	     "timeline gained the evidence columns");
	like(columns(db, "timeline"), "finished_ms,tree_diff", "version 4 added the tree diff column");
	like(columns(db, "timeline"), "tree_diff,screen_text,after_text", "version 5 added the screen-text columns");
	is_int(one_int(db, "SELECT count(*) FROM search_doc d JOIN search_fts f ON f.rowid = d.id "
			   "WHERE search_fts MATCH '\"tap Add\"'"),
	       1, "version 5 indexed the old records for search");
	is_int(one_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'search_doc' AND type = 'view'"), 1,
	       "version 8 reads the indexed texts from the records (search_doc is a view)");
	ok(sqlite3_exec(db, "INSERT INTO search_fts (search_fts) VALUES ('integrity-check')", NULL, NULL, NULL) ==
	   SQLITE_OK, "and its index agrees with them: %s", sqlite3_errmsg(db));
	like(columns(db, "tasks"), "cost_usd,answer", "version 6 added the task answer column");
	is_int(one_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'suite_runs'"), 1,
	       "version 6 added the suite runs table");
	is_int(one_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN "
			   "('tasks_created_idx', 'tasks_status_idx')"),
	       2, "the task indexes exist");

	amc_task_row t;
	ok(amc_store_get_task(s, LEGACY_ID, &t, &e) == 0, "the legacy task reads: %s", e.msg);
	is_str(t.flow_name, "add contact", "its fields are kept");
	is_str(t.status, "succeeded", "and its status");
	is_int(t.steps, 2, "and its step count");
	ok(t.source_task_id == NULL, "source_task_id unknown (NULL)");
	is_int(t.source_attempt, -1, "source_attempt unknown (-1)");
	is_int(t.input_tokens, -1, "input_tokens unknown (-1)");
	ok(t.cost_usd < 0, "cost unknown (< 0)");
	amc_task_row_free(&t);

	amc_step_row *rows;
	size_t n;
	ok(amc_store_get_steps(s, LEGACY_ID, &rows, &n, &e) == 0, "legacy steps read: %s", e.msg);
	is_int(n, 2, "both of them");
	if (n == 2) {
		char want[64];
		snprintf(want, sizeof want, "artifacts/%s/0001.png", LEGACY_ID);
		is_str(rows[0].after_screenshot, want, "after_screenshot is the legacy screenshot_path");
		is_str(rows[0].screenshot_path, want, "screenshot_path reads as it was");
		ok(rows[0].before_screenshot == NULL, "before_screenshot is unknown (NULL)");
		is_str(rows[0].ocr, "[]", "ocr reads as []");
		is_str(rows[0].args, "{\"app\":\"contacts\"}", "args kept");
		is_str(rows[1].tool, "tap", "second step's tool");
		ok(rows[1].result == NULL, "a NULL result stays NULL");
		ok(rows[1].ui_tree == NULL && rows[1].scene == NULL, "new evidence fields are NULL");
	}
	amc_step_rows_free(rows, n);

	/* New records go into the migrated table beside the legacy ones. */
	char before[64], after[64];
	snprintf(before, sizeof before, "artifacts/%s/0002.png", LEGACY_ID);
	snprintf(after, sizeof after, "artifacts/%s/0003-after.png", LEGACY_ID);
	amc_step_row r = {.task_id = (char *)LEGACY_ID, .step = 3, .tool = "type_text",
			  .before_screenshot = before, .after_screenshot = after};
	ok(amc_store_add_step(s, &r, &e) == 0, "a new step goes into a migrated database: %s", e.msg);
	amc_store_close(s);

	ok(amc_store_open(home, &s, &e) == 0, "reopening is a no-op: %s", e.msg);
	is_int(one_int(amc_store_db(s), "PRAGMA user_version"), AMC_STORE_SCHEMA_VERSION, "still the latest version");
	is_int(one_int(amc_store_db(s), "SELECT count(*) FROM timeline"), 3, "three records");
	amc_store_close(s);
}

static void test_fresh_equals_migrated(const char *base)
{
	char h1[PATH_MAX], h2[PATH_MAX];
	make_home(base, "fresh", h1, sizeof h1);
	make_home(base, "migrated", h2, sizeof h2);
	ok(build_db(h2, V1_SCHEMA, 1) == 0, "an empty version-1 database");
	amc_store *a = NULL, *b = NULL;
	amc_err e = {0};
	ok(amc_store_open(h1, &a, &e) == 0, "a fresh database runs 1 then 2");
	ok(amc_store_open(h2, &b, &e) == 0, "a version-1 database runs 2");
	const char *tables[] = {"tasks", "timeline"};
	for (int i = 0; i < 2; i++) {
		char ca[2048];
		snprintf(ca, sizeof ca, "%s", columns(amc_store_db(a), tables[i]));
		is_str(columns(amc_store_db(b), tables[i]), ca, "%s: same columns either way", tables[i]);
	}
	is_int(one_int(amc_store_db(a), "PRAGMA user_version"), AMC_STORE_SCHEMA_VERSION, "fresh at the latest");
	amc_store_close(a);
	amc_store_close(b);
}

static void test_newer_refused(const char *base)
{
	char home[PATH_MAX];
	make_home(base, "newer", home, sizeof home);
	ok(build_db(home, V1_SCHEMA, 99) == 0, "a database from a newer amc (version 99)");
	amc_store *s = NULL;
	amc_err e = {0};
	ok(amc_store_open(home, &s, &e) != 0, "is refused");
	is_int(e.code, AMC_EENV, "as an environment error");
	like(e.msg, "upgrade amc", "saying to upgrade amc: %s", e.msg);
	like(e.msg, "99", "naming its version");
	ok(s == NULL, "no store");
	/* And it was not touched. */
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/amc.db", home);
	sqlite3 *db;
	sqlite3_open(path, &db);
	is_int(one_int(db, "PRAGMA user_version"), 99, "its version is unchanged");
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL);
	sqlite3_step(st);
	is_str((const char *)sqlite3_column_text(st, 0), "delete", "nor its journal mode");
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void test_foreign_refused(const char *base)
{
	char home[PATH_MAX];
	make_home(base, "foreign", home, sizeof home);
	ok(build_db(home, "CREATE TABLE recipes (name TEXT);", 0) == 0, "another program's SQLite file");
	amc_store *s = NULL;
	amc_err e = {0};
	ok(amc_store_open(home, &s, &e) != 0, "is not taken over");
	is_int(e.code, AMC_EENV, "environment error");
	like(e.msg, "not amc's", "saying whose it is not: %s", e.msg);
}

static void test_failed_step_rolls_back(const char *base)
{
	char home[PATH_MAX];
	make_home(base, "broken", home, sizeof home);
	/* A version-1 file that already has a column version 2 adds: the ALTER
	 * fails half way through step 2. */
	char sql[2048];
	snprintf(sql, sizeof sql, "%sALTER TABLE timeline ADD COLUMN scene TEXT;", V1_SCHEMA);
	ok(build_db(home, sql, 1) == 0, "a version-1 database with a clashing column");
	amc_store *s = NULL;
	amc_err e = {0};
	ok(amc_store_open(home, &s, &e) != 0, "the migration fails");
	like(e.msg, "version 2", "the message names the step: %s", e.msg);
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/amc.db", home);
	sqlite3 *db;
	sqlite3_open(path, &db);
	is_int(one_int(db, "PRAGMA user_version"), 1, "user_version stays 1");
	ok(!strstr(columns(db, "tasks"), "source_task_id"), "the columns added before the failure are rolled back");
	sqlite3_close(db);
}

/* Version 7: an existing database's cross-task references are backfilled, so
 * retention of the older task keeps the file the newer one names. */
static void test_xrefs_backfilled(const char *base)
{
	char home[PATH_MAX], sql[4096], file[PATH_MAX + 64];
	make_home(base, "xrefs", home, sizeof home);
	snprintf(sql, sizeof sql,
		 "%s"
		 "INSERT INTO tasks (id, kind, status, created_ms) VALUES"
		 " ('01olderxxxxxxxxa', 'goal', 'succeeded', 1700000000000),"
		 " ('01newerxxxxxxxxb', 'goal', 'succeeded', 1700000005000);"
		 "INSERT INTO timeline (task_id, step, screenshot_path) VALUES"
		 " ('01olderxxxxxxxxa', 1, 'artifacts/01olderxxxxxxxxa/0001.png'),"
		 " ('01olderxxxxxxxxa', 2, 'artifacts/01olderxxxxxxxxa/0002.png'),"
		 " ('01newerxxxxxxxxb', 1, 'artifacts/01olderxxxxxxxxa/0002.png');",
		 V1_SCHEMA);
	ok(build_db(home, sql, 1) == 0, "a version-1 database where one task names another's file");
	snprintf(file, sizeof file, "%s/artifacts/01olderxxxxxxxxa", home);
	amc_mkdir_p(file, 0700, NULL);
	const char *names[] = { "0001.png", "0002.png" };
	for (int i = 0; i < 2; i++) {
		snprintf(file, sizeof file, "%s/artifacts/01olderxxxxxxxxa/%s", home, names[i]);
		amc_write_atomic(file, "png", 3, 0600, NULL);
	}
	amc_store *s = NULL;
	amc_err e = {0};
	ok(amc_store_open(home, &s, &e) == 0, "opens and migrates: %s", e.msg);
	sqlite3 *db = amc_store_db(s);
	is_int(one_int(db, "SELECT count(*) FROM artifact_xrefs WHERE task_id = '01newerxxxxxxxxb' AND "
			   "path = 'artifacts/01olderxxxxxxxxa/0002.png'"),
	       1, "version 7 noted the cross-task reference");
	is_int(one_int(db, "SELECT count(*) FROM artifact_xrefs"), 1, "and only that one (own files are not noted)");
	amc_retention_opts ro = { 1, 0, 0 };
	amc_retention_report rep;
	ok(amc_store_retention(s, &ro, &rep, &e) == 0 && rep.tasks == 1, "retention removes the older task: %s", e.msg);
	snprintf(file, sizeof file, "%s/artifacts/01olderxxxxxxxxa/0002.png", home);
	ok(access(file, F_OK) == 0, "the file the kept task names survives");
	snprintf(file, sizeof file, "%s/artifacts/01olderxxxxxxxxa/0001.png", home);
	ok(access(file, F_OK) != 0, "the removed task's own file is gone");
	amc_store_close(s);
}

int main(void)
{
	const char *base = test_home("migrate");
	test_v1_upgrade(base);
	test_fresh_equals_migrated(base);
	test_newer_refused(base);
	test_foreign_refused(base);
	test_failed_step_rolls_back(base);
	test_xrefs_backfilled(base);
	return done_testing();
}
