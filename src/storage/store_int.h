/* store_int.h - what the storage files share and nothing outside src/storage/
 * may include: the store struct, SQLite error mapping, binding helpers and the
 * validators for ids, statuses and artifact paths. */
#ifndef AMC_STORE_INT_H
#define AMC_STORE_INT_H

#include <limits.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>

#include "storage/store.h"

/* How many recent screenshots put_frame compares a new one with: a task's
 * screens (5 to 10 on the task suite) and the launcher a few tasks back. A
 * hit costs one read of the earlier file (the bytes are compared, never the
 * hash alone). */
#define AMC_STORE_SEEN_FRAMES 32

struct amc_store {
	sqlite3 *db;
	char home[PATH_MAX];
	char path[PATH_MAX];   /* $AMC_HOME/amc.db, for messages */
	long long busy_since;  /* amc_mono_ms() when the current lock wait began */
	long long busy_max_ms; /* the longest lock wait of this connection */
	int busy_waits;        /* how many statements had to wait for a lock */
	struct amc_ckpt *ckpt; /* WAL checkpoints off the step's path (checkpoint.h) */
	/* The screenshots this handle stored last, newest first, so a frame
	 * seen again (unchanged, or a screen come back to: every task starts on
	 * the launcher) is stored once (artifacts.c); guarded by png_mu. */
	pthread_mutex_t png_mu;
	struct amc_seen_frame {
		uint64_t hash;
		size_t len;
		char *rel; /* malloc'd; NULL: an empty slot */
	} seen[AMC_STORE_SEEN_FRAMES];
};

/* Task statuses that mean "someone may still work on it": never removed by
 * retention, checked by recovery. */
/* How long a connection waits for another one's write lock. */
#define AMC_STORE_BUSY_TIMEOUT_MS 5000

#define AMC_STORE_ACTIVE_SQL "('running','queued','waiting_user')"

/* Fill `e` (AMC_EENV) as "cannot WHAT: sqlite message (database PATH)". `rc` is
 * the failing result code, or 0 for the connection's last one. A damaged or
 * foreign file gets the advice to move it aside. Returns -1. */
int amc_store_db_error(sqlite3 *db, const char *path, int rc, amc_err *e, const char *what);
/* The same for a store's connection. */
int amc_store_sql_error(const amc_store *s, amc_err *e, const char *what);
int amc_store_sql_error_rc(const amc_store *s, int rc, amc_err *e, const char *what);

int amc_store_prepare(amc_store *s, const char *sql, sqlite3_stmt **st, amc_err *e);
/* Run one statement without parameters or rows (BEGIN, COMMIT, DDL). */
int amc_store_exec(amc_store *s, const char *sql, const char *what, amc_err *e);
/* BEGIN IMMEDIATE: take the write lock up front, so a read-then-write
 * transaction never fails half way with SQLITE_BUSY (busy_timeout applies). */
int amc_store_begin(amc_store *s, amc_err *e);
int amc_store_commit(amc_store *s, amc_err *e);
void amc_store_rollback(amc_store *s);

/* Binders that stop at the first failure: each returns the first non-OK code
 * it has seen in *rc (start with SQLITE_OK). NULL text binds NULL. */
void amc_store_bind_text(sqlite3_stmt *st, int i, const char *v, int *rc);
void amc_store_bind_i64(sqlite3_stmt *st, int i, long long v, int *rc);
/* NULL when v <= 0 ("not yet" / "unknown" timestamps, pids). */
void amc_store_bind_pos(sqlite3_stmt *st, int i, long long v, int *rc);
/* NULL when v < 0 (unknown counts). */
void amc_store_bind_nonneg(sqlite3_stmt *st, int i, long long v, int *rc);

/* malloc'd copy of a text column, NULL for NULL. */
char *amc_store_col_dup(sqlite3_stmt *st, int i);
long long amc_store_col_i64(sqlite3_stmt *st, int i, long long if_null);

/* 1 for a full task id: exactly 16 of [0-9a-z]. */
int amc_store_id_ok(const char *id);
/* 1 for a known task status. */
int amc_store_status_ok(const char *status);
/* 1 when `rel` is a clean path inside artifacts/: relative, at least
 * artifacts/X/Y, no empty, "." or ".." component, no control characters. */
int amc_store_relpath_ok(const char *rel);

/* Remove the temp files (NAME.tmp.PID.N, util/fsutil.c's atomic writes) a
 * killed process left in a task's artifacts folder. Returns how many. */
int amc_store_sweep_tmp(amc_store *s, const char *task_id);

#endif
