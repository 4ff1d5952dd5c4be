/* test_sql.c - the SQL helpers the storage files share (src/storage/sql.c):
 * error mapping with advice, statements and transactions, binders that stop at
 * the first failure, column readers and the validators. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/store.h"
#include "storage/store_int.h"
#include "tap.h"
#include "testutil.h"

static void test_errors(void)
{
	amc_err e;
	amc_err_clear(&e);
	is_int(amc_store_db_error(NULL, "/x/amc.db", SQLITE_CORRUPT, &e, "read tasks"), -1, "db_error returns -1");
	is_int(e.code, AMC_EENV, "a damaged file is an environment error");
	like(e.msg, "cannot read tasks", "message says what failed");
	like(e.msg, "mv /x/amc.db /x/amc.db.broken", "damaged: says how to move it aside");
	amc_store_db_error(NULL, "/x/amc.db", SQLITE_BUSY, &e, "write");
	like(e.msg, "busy for over 5 s", "busy: names the wait");
	amc_store_db_error(NULL, NULL, SQLITE_FULL, &e, "write");
	like(e.msg, "free some disk space", "full disk: advice");
	like(e.msg, "database amc.db", "no path: names amc.db");
	amc_store_db_error(NULL, "/x/amc.db", SQLITE_READONLY, &e, "write");
	like(e.msg, "yours and writable", "read-only: advice");
	amc_store_db_error(NULL, "/x/amc.db", SQLITE_MISMATCH, &e, "write");
	ok(!strstr(e.msg, "move it aside") && strstr(e.msg, "cannot write"), "other codes: no advice");
}

static void test_statements(amc_store *s)
{
	amc_err e;
	sqlite3_stmt *st = NULL;
	is_int(amc_store_exec(s, "CREATE TABLE t(a TEXT, b INTEGER, c INTEGER, d INTEGER)", "create", &e), 0, "exec DDL");
	is_int(amc_store_prepare(s, "SELECT nope FROM nowhere", &st, &e), -1, "prepare of bad SQL fails");
	ok(st == NULL, "no statement is left behind");
	like(e.msg, "no such table", "with SQLite's words");

	is_int(amc_store_begin(s, &e), 0, "begin immediate");
	ok(!sqlite3_get_autocommit(amc_store_db(s)), "a transaction is open");
	is_int(amc_store_prepare(s, "INSERT INTO t VALUES (?,?,?,?)", &st, &e), 0, "prepare insert");
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, NULL, &rc);
	amc_store_bind_i64(st, 2, 7, &rc);
	amc_store_bind_pos(st, 3, 0, &rc);
	amc_store_bind_nonneg(st, 4, -1, &rc);
	is_int(rc, SQLITE_OK, "binders report OK");
	is_int(sqlite3_step(st), SQLITE_DONE, "row inserted");
	sqlite3_finalize(st);
	amc_store_rollback(s);
	ok(sqlite3_get_autocommit(amc_store_db(s)), "rollback closes the transaction");

	amc_store_begin(s, &e);
	amc_store_prepare(s, "INSERT INTO t VALUES (?,?,?,?)", &st, &e);
	rc = SQLITE_OK;
	amc_store_bind_text(st, 1, "x", &rc);
	amc_store_bind_i64(st, 9, 1, &rc); /* no parameter 9 */
	ok(rc == SQLITE_RANGE, "a failing bind is reported");
	amc_store_bind_text(st, 2, "y", &rc);
	is_int(rc, SQLITE_RANGE, "later binds keep the first failure");
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	rc = SQLITE_OK;
	amc_store_bind_text(st, 1, "x", &rc);
	amc_store_bind_i64(st, 2, 3, &rc);
	amc_store_bind_pos(st, 3, 12, &rc);
	amc_store_bind_nonneg(st, 4, 0, &rc);
	is_int(sqlite3_step(st), SQLITE_DONE, "second row inserted");
	sqlite3_finalize(st);
	is_int(amc_store_commit(s, &e), 0, "commit");

	is_int(amc_store_prepare(s, "SELECT a, b, c, d FROM t", &st, &e), 0, "prepare select");
	int rows = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *a = amc_store_col_dup(st, 0);
		is_str(a, "x", "only the committed row is there");
		is_int(amc_store_col_i64(st, 1, -5), 3, "integer column");
		is_int(amc_store_col_i64(st, 2, -5), 12, "positive value bound as itself");
		is_int(amc_store_col_i64(st, 3, -5), 0, "zero is a known count");
		free(a);
		rows++;
	}
	sqlite3_finalize(st);
	is_int(rows, 1, "one row");

	amc_store_exec(s, "INSERT INTO t VALUES (NULL, NULL, NULL, NULL)", "insert", &e);
	amc_store_prepare(s, "SELECT a, b FROM t WHERE a IS NULL", &st, &e);
	is_int(sqlite3_step(st), SQLITE_ROW, "null row");
	ok(amc_store_col_dup(st, 0) == NULL, "NULL text is NULL");
	is_int(amc_store_col_i64(st, 1, -5), -5, "NULL integer is the default");
	sqlite3_finalize(st);

	amc_store_prepare(s, "SELECT count(*) FROM t WHERE c IS NULL AND d IS NULL", &st, &e);
	sqlite3_step(st);
	is_int(sqlite3_column_int64(st, 0), 1, "pos(0) and nonneg(-1) were stored as NULL");
	sqlite3_finalize(st);
}

static void test_validators(void)
{
	ok(amc_store_id_ok("0123456789abcdef"), "16 lowercase alphanumerics are an id");
	ok(!amc_store_id_ok("0123456789abcde"), "15 are not");
	ok(!amc_store_id_ok("0123456789ABCDEF"), "upper case is not");
	ok(!amc_store_id_ok("../../etc/passwd"), "a path is not");
	ok(!amc_store_id_ok(NULL), "NULL is not");
	ok(amc_store_status_ok("running") && amc_store_status_ok("waiting_user"), "known statuses");
	ok(!amc_store_status_ok("done") && !amc_store_status_ok(NULL), "unknown statuses");
	ok(amc_store_relpath_ok("artifacts/0123456789abcdef/001-after.png"), "an artifact path");
	ok(!amc_store_relpath_ok("artifacts"), "the folder itself is not");
	ok(!amc_store_relpath_ok("artifacts/x"), "artifacts/X alone is not");
	ok(!amc_store_relpath_ok("/etc/passwd"), "absolute is not");
	ok(!amc_store_relpath_ok("artifacts/../amc.db"), "'..' is not");
	ok(!amc_store_relpath_ok("artifacts//x/y"), "an empty component is not");
	ok(!amc_store_relpath_ok("artifacts/a/b\x1b[2J"), "control bytes are not");
	ok(!amc_store_relpath_ok("artifacts/a\\b/c"), "backslashes are not");
}

int main(void)
{
	test_home("sql");
	amc_store *s = NULL;
	amc_err e;
	if (!ok(amc_store_open(getenv("AMC_HOME"), &s, &e) == 0, "store opens (%s)", e.msg))
		return done_testing();
	test_errors();
	test_statements(s);
	test_validators();
	amc_store_close(s);
	return done_testing();
}
