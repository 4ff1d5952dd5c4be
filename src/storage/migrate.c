/* migrate.c - schema versions, one row of MIGRATIONS each.
 *
 * Rules for a new version: append a row (never edit a shipped one), only add
 * (nullable columns, tables, indexes) so older rows stay readable, and bump
 * AMC_STORE_SCHEMA_VERSION in store.h; the static assertion below keeps the two
 * in step. */
#include "storage/migrate.h"

#include <stdio.h>

#include "storage/search_schema.h"
#include "storage/store.h"
#include "storage/store_int.h"

typedef struct amc_migration {
	int version;
	const char *what;
	const char *sql;
} amc_migration;

static const amc_migration MIGRATIONS[] = {
	{1, "create the tasks and timeline tables",
	 "CREATE TABLE tasks ("
	 " id TEXT PRIMARY KEY NOT NULL,"
	 " kind TEXT NOT NULL,"
	 " goal TEXT,"
	 " flow_path TEXT,"
	 " flow_name TEXT,"
	 " device TEXT,"
	 " planner TEXT,"
	 " status TEXT NOT NULL,"
	 " created_ms INTEGER NOT NULL,"
	 " started_ms INTEGER,"
	 " finished_ms INTEGER,"
	 " steps INTEGER NOT NULL DEFAULT 0,"
	 " max_steps INTEGER,"
	 " summary TEXT,"
	 " error TEXT,"
	 " owner_pid INTEGER,"
	 " lock_name TEXT);"
	 "CREATE TABLE timeline ("
	 " task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,"
	 " step INTEGER NOT NULL,"
	 " tool TEXT,"
	 " args TEXT,"
	 " description TEXT,"
	 " status TEXT,"
	 " result TEXT,"
	 " error TEXT,"
	 " screenshot_path TEXT,"
	 " created_ms INTEGER,"
	 " PRIMARY KEY (task_id, step));"},

	/* Generic correlation (the task a run came from), usage, and complete per-step
	 * evidence (distinct before/after, OCR, UI tree, scene, timings). All
	 * nullable so version-1 rows read as "unknown". */
	{2, "add correlation, usage and per-step evidence columns",
	 "ALTER TABLE tasks ADD COLUMN source_task_id TEXT;"
	 "ALTER TABLE tasks ADD COLUMN source_attempt INTEGER;"
	 "ALTER TABLE tasks ADD COLUMN input_tokens INTEGER;"
	 "ALTER TABLE tasks ADD COLUMN output_tokens INTEGER;"
	 "ALTER TABLE tasks ADD COLUMN cost_usd REAL;"
	 "ALTER TABLE timeline ADD COLUMN before_screenshot TEXT;"
	 "ALTER TABLE timeline ADD COLUMN after_screenshot TEXT;"
	 "ALTER TABLE timeline ADD COLUMN ocr TEXT DEFAULT '[]';"
	 "ALTER TABLE timeline ADD COLUMN ui_tree TEXT;"
	 "ALTER TABLE timeline ADD COLUMN ui_tree_path TEXT;"
	 "ALTER TABLE timeline ADD COLUMN scene TEXT;"
	 "ALTER TABLE timeline ADD COLUMN semantic_scene TEXT;"
	 "ALTER TABLE timeline ADD COLUMN reasoning TEXT;"
	 "ALTER TABLE timeline ADD COLUMN timings TEXT;"
	 "ALTER TABLE timeline ADD COLUMN started_ms INTEGER;"
	 "ALTER TABLE timeline ADD COLUMN finished_ms INTEGER;"
	 "CREATE INDEX tasks_created_idx ON tasks(created_ms);"
	 /* status first: serves `amc tasks --status S`, newest first. */
	 "CREATE INDEX tasks_status_idx ON tasks(status, created_ms);"},

	/* Planner decisions (prompt text, tool call, arguments,
	 * usage and cost per model call), removed with their task and bounded by
	 * amc_store_prune_decisions. Never image bytes. */
	{3, "add the planner decisions table",
	 "CREATE TABLE planner_decisions ("
	 " id INTEGER PRIMARY KEY,"
	 " task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,"
	 " step INTEGER NOT NULL,"
	 " attempt INTEGER,"
	 " created_ms INTEGER NOT NULL,"
	 " planner TEXT,"
	 " model TEXT,"
	 " system_prompt TEXT,"
	 " user_prompt TEXT,"
	 " tool TEXT,"
	 " args TEXT,"
	 " outcome TEXT,"
	 " input_tokens INTEGER,"
	 " output_tokens INTEGER,"
	 " cost_usd REAL,"
	 " detail TEXT);"
	 "CREATE INDEX planner_decisions_task_idx ON planner_decisions(task_id, step);"},

	/* Each step's before/after difference (runtime/stepdiff.h: the UI tree
	 * diff, the pixels changed, the "changed nothing" flag) as small JSON.
	 * NULL for older rows: readers compute it on demand from the trees. */
	{4, "add the per-step tree diff column",
	 "ALTER TABLE timeline ADD COLUMN tree_diff TEXT;"},

	/* Full-text search over everything amc saw (storage/search_schema.h):
	 * the screen-text columns, the FTS5 index, its triggers and the backfill. */
	{5, "add the full-text search index", AMC_SEARCH_MIGRATION_SQL},
	/* The task suite: an information task's answer on its task, and one row
	 * per template run of `amc bench tasks` (kept when the task is pruned:
	 * the scores outlive the evidence). */
	{6, "add task answers and the suite runs table",
	 "ALTER TABLE tasks ADD COLUMN answer TEXT;"
	 "CREATE TABLE suite_runs ("
	 " id INTEGER PRIMARY KEY,"
	 " suite_id TEXT NOT NULL,"
	 " task_id TEXT,"
	 " template TEXT NOT NULL,"
	 " seed INTEGER NOT NULL,"
	 " params TEXT,"
	 " planner TEXT NOT NULL,"
	 " model TEXT,"
	 " device TEXT,"
	 " amc_version TEXT,"
	 " amc_commit TEXT,"
	 " config TEXT,"
	 " passed INTEGER NOT NULL,"
	 " reason TEXT,"
	 " answer TEXT,"
	 " confirm_asked INTEGER,"
	 " steps INTEGER,"
	 " input_tokens INTEGER,"
	 " output_tokens INTEGER,"
	 " cost_usd REAL,"
	 " wall_ms INTEGER,"
	 " created_ms INTEGER NOT NULL);"
	 "CREATE INDEX suite_runs_suite_idx ON suite_runs(suite_id, id);"},

	/* Cross-task artifact references: a row naming a file outside its own
	 * task's folder (a reused observation, a frame stored once for two tasks)
	 * is noted here by triggers, so retention asks this small table which of a
	 * removed task's files a kept task still needs instead of scanning every
	 * remaining row (retention.c). The backfill covers existing databases. */
	{7, "add the cross-task artifact references",
	 "CREATE TABLE artifact_xrefs ("
	 " path TEXT NOT NULL,"
	 " task_id TEXT NOT NULL,"
	 " PRIMARY KEY (path, task_id)) WITHOUT ROWID;"
	 "CREATE INDEX artifact_xrefs_task_idx ON artifact_xrefs(task_id);"
	 "CREATE TRIGGER timeline_xrefs_ai AFTER INSERT ON timeline BEGIN"
	 " INSERT OR IGNORE INTO artifact_xrefs (path, task_id) SELECT p, NEW.task_id FROM ("
	 "  SELECT NEW.before_screenshot AS p UNION ALL SELECT NEW.after_screenshot"
	 "  UNION ALL SELECT NEW.screenshot_path UNION ALL SELECT NEW.ui_tree_path)"
	 " WHERE p IS NOT NULL AND substr(p, 1, length(NEW.task_id) + 11) IS NOT 'artifacts/' || NEW.task_id || '/';"
	 "END;"
	 "CREATE TRIGGER timeline_xrefs_au AFTER UPDATE OF before_screenshot, after_screenshot, screenshot_path,"
	 " ui_tree_path ON timeline BEGIN"
	 " INSERT OR IGNORE INTO artifact_xrefs (path, task_id) SELECT p, NEW.task_id FROM ("
	 "  SELECT NEW.before_screenshot AS p UNION ALL SELECT NEW.after_screenshot"
	 "  UNION ALL SELECT NEW.screenshot_path UNION ALL SELECT NEW.ui_tree_path)"
	 " WHERE p IS NOT NULL AND substr(p, 1, length(NEW.task_id) + 11) IS NOT 'artifacts/' || NEW.task_id || '/';"
	 "END;"
	 "INSERT OR IGNORE INTO artifact_xrefs (path, task_id) SELECT p, task_id FROM ("
	 " SELECT before_screenshot AS p, task_id FROM timeline UNION ALL SELECT after_screenshot, task_id FROM timeline"
	 " UNION ALL SELECT screenshot_path, task_id FROM timeline UNION ALL SELECT ui_tree_path, task_id FROM timeline)"
	 " WHERE p IS NOT NULL AND substr(p, 1, length(task_id) + 11) IS NOT 'artifacts/' || task_id || '/';"},

	/* The search index without its second copy of the texts: search_doc
	 * becomes a view over the records (storage/search_schema.h). */
	{8, "index the search texts where the records keep them", AMC_SEARCH_V8_SQL},
};

#define N_MIGRATIONS ((int)(sizeof MIGRATIONS / sizeof MIGRATIONS[0]))
_Static_assert(sizeof MIGRATIONS / sizeof MIGRATIONS[0] == AMC_STORE_SCHEMA_VERSION,
	       "MIGRATIONS must end at AMC_STORE_SCHEMA_VERSION");

static int read_int(sqlite3 *db, const char *path, const char *sql, const char *what,
		    int *out, amc_err *e)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return amc_store_db_error(db, path, rc, e, what);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		amc_store_db_error(db, path, rc, e, what);
		sqlite3_finalize(st);
		return -1;
	}
	*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

int amc_migrate_version(sqlite3 *db, const char *path, int *version, amc_err *e)
{
	return read_int(db, path, "PRAGMA user_version", "read the schema version", version, e);
}

static int run_sql(sqlite3 *db, const char *path, const char *sql, const char *what, amc_err *e)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : amc_store_db_error(db, path, rc, e, what);
}

static int too_new(const char *path, int v, amc_err *e)
{
	return amc_err_set(e, AMC_EENV,
			   "database %s has schema version %d, newer than this amc understands "
			   "(up to %d): upgrade amc, or point AMC_HOME at another folder",
			   path, v, N_MIGRATIONS);
}

static int not_ours(const char *path, int objects, amc_err *e)
{
	return amc_err_set(e, AMC_EENV,
			   "%s is a SQLite database but not amc's (it has %d schema objects and no "
			   "amc version): move it aside (mv %s %s.other) or point AMC_HOME elsewhere",
			   path, objects, path, path);
}

/* Version 0 with tables is somebody else's SQLite file, not a new one. */
static int foreign(sqlite3 *db, const char *path, amc_err *e)
{
	int n;
	if (read_int(db, path, "SELECT count(*) FROM sqlite_master", "read the schema", &n, e) != 0)
		return -1;
	return n > 0 ? not_ours(path, n, e) : 0;
}

/* One step inside its own write transaction. Returns 1 when the database is
 * at the latest version, 0 after applying a step, -1 on error. */
static int step_once(sqlite3 *db, const char *path, int *from, amc_err *e)
{
	if (run_sql(db, path, "BEGIN IMMEDIATE", "start a schema migration", e) != 0)
		return -1;
	int v;
	/* Re-read under the write lock: another process may have migrated meanwhile. */
	if (amc_migrate_version(db, path, &v, e) != 0)
		goto fail;
	if (from && *from < 0)
		*from = v;
	if (v > N_MIGRATIONS) {
		too_new(path, v, e);
		goto fail;
	}
	if (v == N_MIGRATIONS) {
		if (run_sql(db, path, "COMMIT", "finish the schema check", e) != 0)
			goto fail;
		return 1;
	}
	if (v == 0 && foreign(db, path, e) != 0)
		goto fail;
	const amc_migration *m = &MIGRATIONS[v];
	char what[160], pragma[64];
	snprintf(what, sizeof what, "migrate the database to version %d (%s)", m->version, m->what);
	if (run_sql(db, path, m->sql, what, e) != 0)
		goto fail;
	/* PRAGMA takes no bound parameters; the value is our own integer. */
	snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", m->version);
	if (run_sql(db, path, pragma, what, e) != 0)
		goto fail;
	if (run_sql(db, path, "COMMIT", what, e) != 0)
		goto fail;
	return 0;
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int amc_migrate_check(sqlite3 *db, const char *path, amc_err *e)
{
	/* One statement, so one snapshot: read separately, another process could
	 * create the tables between the two reads and a new database would look
	 * like somebody else's. */
	sqlite3_stmt *st = NULL;
	const char *what = "read the schema version";
	int rc = sqlite3_prepare_v2(db,
				    "SELECT (SELECT user_version FROM pragma_user_version), "
				    "(SELECT count(*) FROM sqlite_master)",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return amc_store_db_error(db, path, rc, e, what);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		amc_store_db_error(db, path, rc, e, what);
		sqlite3_finalize(st);
		return -1;
	}
	int v = sqlite3_column_int(st, 0), objects = sqlite3_column_int(st, 1);
	sqlite3_finalize(st);
	if (v > N_MIGRATIONS)
		return too_new(path, v, e);
	if (v == 0 && objects > 0)
		return not_ours(path, objects, e);
	return 0;
}

int amc_migrate_run(sqlite3 *db, const char *path, int *from, amc_err *e)
{
	int v;
	if (from)
		*from = -1;
	/* Cheap path without the write lock: the usual open finds nothing to do. */
	if (amc_migrate_version(db, path, &v, e) != 0)
		return -1;
	if (v > N_MIGRATIONS)
		return too_new(path, v, e);
	if (v == N_MIGRATIONS) {
		if (from)
			*from = v;
		return 0;
	}
	for (;;) {
		int rc = step_once(db, path, from, e);
		if (rc < 0)
			return -1;
		if (rc == 1)
			return 0;
	}
}
