/* store.c - opening the database (modes, pragmas, migration, recovery) and the
 * helpers the other storage files share (store_int.h). */
#include "storage/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "storage/migrate.h"
#include "storage/store_int.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/status.h"
#include "util/strbuf.h"

#define BUSY_TIMEOUT_MS 5000

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
				   what, msg, path, BUSY_TIMEOUT_MS / 1000);
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

/* ---- open / close ---------------------------------------------------------- */

/* Create the database file ourselves so it is 0600 from its first byte (SQLite
 * would create it 0644 & ~umask); an empty file is a valid empty database. */
static int precreate(const char *path, amc_err *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	return amc_err_set(e, AMC_EENV, "cannot create database %s: %s", path, strerror(errno));
}

/* Files 0600 (the -wal/-shm files are created later by SQLite with the
 * database's mode, but an older amc.db may have been wider). Best effort for
 * the side files: they may vanish when another process closes the last
 * connection. */
static int tighten_modes(const amc_store *s, amc_err *e)
{
	if (chmod(s->path, 0600) != 0)
		return amc_err_set(e, AMC_EENV, "cannot set mode 0600 on %s: %s", s->path, strerror(errno));
	static const char *const side[] = {"-wal", "-shm"};
	for (size_t i = 0; i < 2; i++) {
		char p[PATH_MAX + 8]; /* the database path plus "-wal" or "-shm" */
		snprintf(p, sizeof p, "%s%s", s->path, side[i]);
		if (chmod(p, 0600) != 0 && errno != ENOENT)
			return amc_err_set(e, AMC_EENV, "cannot set mode 0600 on %s: %s", p, strerror(errno));
	}
	return 0;
}

/* PRAGMA journal_mode = WAL on a new file needs an exclusive lock, and SQLite
 * answers SQLITE_BUSY at once, without the busy handler, when another process
 * opening the same new file holds a shared lock (deadlock avoidance). So
 * retry here, within the same budget as busy_timeout. */
static int step_journal_mode(amc_store *s, sqlite3_stmt **st, amc_err *e)
{
	long long deadline = amc_mono_ms() + BUSY_TIMEOUT_MS;
	for (;;) {
		int rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, st, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(*st);
		if (rc == SQLITE_ROW)
			return 0;
		sqlite3_finalize(*st);
		*st = NULL;
		if ((rc & 0xff) != SQLITE_BUSY || amc_mono_ms() >= deadline)
			return amc_store_sql_error_rc(s, rc, e, "switch the database to WAL mode");
		amc_sleep_ms(10);
	}
}

static int set_pragmas(amc_store *s, amc_err *e)
{
	sqlite3_stmt *st;
	if (step_journal_mode(s, &st, e) != 0)
		return -1;
	const char *mode = (const char *)sqlite3_column_text(st, 0);
	int wal = mode && !strcmp(mode, "wal");
	char got[32];
	snprintf(got, sizeof got, "%s", mode ? mode : "?");
	sqlite3_finalize(st);
	if (!wal)
		return amc_err_set(e, AMC_EENV,
				   "cannot switch database %s to WAL mode (it stays '%s'); keep AMC_HOME "
				   "on a local file system",
				   s->path, got);
	if (amc_store_exec(s, "PRAGMA synchronous = NORMAL", "set synchronous=NORMAL", e) != 0)
		return -1;
	return amc_store_exec(s, "PRAGMA foreign_keys = ON", "turn on foreign keys", e);
}

int amc_store_open(const char *home, amc_store **out, amc_err *e)
{
	*out = NULL;
	if (!home || home[0] != '/')
		return amc_err_set(e, AMC_EENV, "the amc home folder must be an absolute path (got '%s'); "
				   "set AMC_HOME to one", home ? home : "");
	amc_store *s = amc_xcalloc(1, sizeof *s);
	if (snprintf(s->home, sizeof s->home, "%s", home) >= (int)sizeof s->home ||
	    amc_path_join(s->path, sizeof s->path, home, "amc.db") != 0) {
		free(s);
		return amc_err_set(e, AMC_EENV, "the amc home path is too long: %s", home);
	}
	struct stat st;
	if (stat(home, &st) != 0) {
		/* Ours to create: 0700. An existing folder is the user's choice. */
		if (amc_mkdir_p(home, 0700, e) != 0)
			goto fail;
	} else if (!S_ISDIR(st.st_mode)) {
		amc_err_set(e, AMC_EENV, "amc home %s is not a folder; set AMC_HOME to a folder", home);
		goto fail;
	}
	if (precreate(s->path, e) != 0)
		goto fail;
	int rc = sqlite3_open_v2(s->path, &s->db,
				 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX |
					 SQLITE_OPEN_NOFOLLOW,
				 NULL);
	if (rc != SQLITE_OK) {
		amc_store_sql_error_rc(s, rc, e, "open the database");
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	/* Check before set_pragmas writes (WAL) to a file that may not be ours. */
	if (amc_migrate_check(s->db, s->path, e) != 0 || set_pragmas(s, e) != 0 ||
	    amc_migrate_run(s->db, s->path, NULL, e) != 0 ||
	    tighten_modes(s, e) != 0 || amc_store_recover(s, e) < 0)
		goto fail;
	*out = s;
	return 0;
fail:
	amc_store_close(s);
	return -1;
}

void amc_store_close(amc_store *s)
{
	if (!s)
		return;
	if (s->db)
		sqlite3_close_v2(s->db);
	free(s);
}

const char *amc_store_home(const amc_store *s)
{
	return s->home;
}

struct sqlite3 *amc_store_db(amc_store *s)
{
	return s ? s->db : NULL;
}
