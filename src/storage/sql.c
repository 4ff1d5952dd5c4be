/* sql.c - the SQL helpers every storage file shares (store_int.h): error
 * mapping, statements and transactions, binders, column readers and the
 * validators for ids, statuses and artifact paths. They live apart from
 * store.c so that store.c (open: migrate, recover) and the files it calls
 * (migrate.c, tasks.c) depend on this file instead of on each other. */
#include "storage/store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/status.h"
#include "util/strbuf.h"


/* ---- errors ---------------------------------------------------------------- */

int amc_store_db_error(sqlite3 *db, const char *path, int rc, amc_err *e, const char *what)
{
	int code = rc ? rc : (db ? sqlite3_extended_errcode(db) : SQLITE_ERROR);
	/* The connection's message is the precise one when it belongs to this code. */
	const char *msg = (db && sqlite3_extended_errcode(db) == code) ? sqlite3_errmsg(db)
								       : sqlite3_errstr(code);
	path = path ? path : "amc.db";
	switch (code & 0xff) {
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return amc_err_set(e, AMC_EENV,
				   "cannot %s: %s (database %s): the file is damaged or not an amc "
				   "database; move it aside (mv %s %s.broken) and amc starts a new, "
				   "empty history",
				   what, msg, path, path, path);
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return amc_err_set(e, AMC_EENV,
				   "cannot %s: %s (database %s): another amc process kept the database "
				   "busy for over %d s; try again",
				   what, msg, path, AMC_STORE_BUSY_TIMEOUT_MS / 1000);
	case SQLITE_FULL:
		return amc_err_set(e, AMC_EENV, "cannot %s: %s (database %s): free some disk space "
				   "(`amc retention` removes old tasks)", what, msg, path);
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return amc_err_set(e, AMC_EENV, "cannot %s: %s (database %s): check that the file "
				   "and its folder are yours and writable", what, msg, path);
	default:
		return amc_err_set(e, AMC_EENV, "cannot %s: %s (database %s)", what, msg, path);
	}
}

int amc_store_sql_error(const amc_store *s, amc_err *e, const char *what)
{
	return amc_store_db_error(s->db, s->path, 0, e, what);
}

int amc_store_sql_error_rc(const amc_store *s, int rc, amc_err *e, const char *what)
{
	return amc_store_db_error(s->db, s->path, rc, e, what);
}

/* ---- statements ------------------------------------------------------------ */

int amc_store_prepare(amc_store *s, const char *sql, sqlite3_stmt **st, amc_err *e)
{
	*st = NULL;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(*st);
		*st = NULL;
		return amc_store_sql_error_rc(s, rc, e, "prepare a query");
	}
	return 0;
}

int amc_store_exec(amc_store *s, const char *sql, const char *what, amc_err *e)
{
	sqlite3_stmt *st;
	if (amc_store_prepare(s, sql, &st, e) != 0)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : amc_store_sql_error_rc(s, rc, e, what);
}

int amc_store_begin(amc_store *s, amc_err *e)
{
	return amc_store_exec(s, "BEGIN IMMEDIATE", "start a transaction", e);
}

int amc_store_commit(amc_store *s, amc_err *e)
{
	if (amc_store_exec(s, "COMMIT", "commit a transaction", e) != 0) {
		amc_store_rollback(s);
		return -1;
	}
	return 0;
}

void amc_store_rollback(amc_store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

void amc_store_bind_text(sqlite3_stmt *st, int i, const char *v, int *rc)
{
	if (*rc != SQLITE_OK)
		return;
	*rc = v ? sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i);
}

void amc_store_bind_i64(sqlite3_stmt *st, int i, long long v, int *rc)
{
	if (*rc == SQLITE_OK)
		*rc = sqlite3_bind_int64(st, i, (sqlite3_int64)v);
}

void amc_store_bind_pos(sqlite3_stmt *st, int i, long long v, int *rc)
{
	if (*rc != SQLITE_OK)
		return;
	*rc = v > 0 ? sqlite3_bind_int64(st, i, (sqlite3_int64)v) : sqlite3_bind_null(st, i);
}

void amc_store_bind_nonneg(sqlite3_stmt *st, int i, long long v, int *rc)
{
	if (*rc != SQLITE_OK)
		return;
	*rc = v >= 0 ? sqlite3_bind_int64(st, i, (sqlite3_int64)v) : sqlite3_bind_null(st, i);
}

char *amc_store_col_dup(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NULL;
	const unsigned char *t = sqlite3_column_text(st, i);
	int n = sqlite3_column_bytes(st, i);
	return t ? amc_xstrndup((const char *)t, (size_t)n) : NULL;
}

long long amc_store_col_i64(sqlite3_stmt *st, int i, long long if_null)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return if_null;
	return (long long)sqlite3_column_int64(st, i);
}

/* ---- validation ------------------------------------------------------------ */

int amc_store_id_ok(const char *id)
{
	if (!id)
		return 0;
	size_t n = 0;
	for (; id[n]; n++)
		if (!((id[n] >= '0' && id[n] <= '9') || (id[n] >= 'a' && id[n] <= 'z')))
			return 0;
	return n == 16;
}

int amc_store_status_ok(const char *status)
{
	return amc_status_find(status) != NULL;
}

int amc_store_relpath_ok(const char *rel)
{
	static const char root[] = "artifacts/";
	if (!rel || strncmp(rel, root, sizeof root - 1) != 0)
		return 0;
	if (strlen(rel) >= 1024)
		return 0;
	int comps = 0;
	const char *p = rel + sizeof root - 1;
	for (;;) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == 0 || (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f || p[i] == '\\')
				return 0;
		comps++;
		if (!end)
			break;
		p = end + 1;
	}
	/* artifacts/<task>/<file> at least: never the artifacts folder itself. */
	return comps >= 2;
}

