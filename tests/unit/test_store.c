/* test_store.c - opening the store: file and folder modes, pragmas, a damaged
 * database, and recovery of tasks whose owner died (the lock-based ownership
 * of docs/architecture.md "Ownership"). */
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/fsutil.h"
#include "util/lockfile.h"

static int mode_of(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	return (int)(st.st_mode & 07777);
}

static long long pragma_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static char *pragma_text(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	char *v = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

static void test_open_modes(const char *base)
{
	char home[PATH_MAX], p[PATH_MAX + 16];
	snprintf(home, sizeof home, "%s/fresh/amc", base);
	umask(022); /* the store must not depend on a strict umask */
	amc_store *s = NULL;
	amc_err e = {0};
	ok(amc_store_open(home, &s, &e) == 0, "open creates a new home: %s", e.msg);
	is_int(mode_of(home), 0700, "the home folder it creates is 0700");
	snprintf(p, sizeof p, "%s/amc.db", home);
	is_int(mode_of(p), 0600, "amc.db is 0600");
	snprintf(p, sizeof p, "%s/amc.db-wal", home);
	if (amc_file_exists(p))
		is_int(mode_of(p), 0600, "amc.db-wal is 0600");
	snprintf(p, sizeof p, "%s/amc.db-shm", home);
	ok(amc_file_exists(p), "WAL mode keeps a -shm file while open");
	is_int(mode_of(p), 0600, "amc.db-shm is 0600");
	is_str(amc_store_home(s), home, "amc_store_home");

	sqlite3 *db = amc_store_db(s);
	ok(db != NULL, "amc_store_db gives the handle");
	char *jm = pragma_text(db, "PRAGMA journal_mode");
	is_str(jm, "wal", "journal_mode is WAL");
	free(jm);
	is_int(pragma_int(db, "PRAGMA foreign_keys"), 1, "foreign keys are on");
	is_int(pragma_int(db, "PRAGMA synchronous"), 1, "synchronous is NORMAL");
	is_int(pragma_int(db, "PRAGMA busy_timeout"), 5000, "busy_timeout is 5 s");
	is_int(pragma_int(db, "PRAGMA user_version"), AMC_STORE_SCHEMA_VERSION, "schema at the latest version");

	/* Write through the store so the WAL exists, then check its mode. */
	amc_task_row t = {.id = "0000000000000001", .kind = "flow", .status = "queued"};
	ok(amc_store_create_task(s, &t, &e) == 0, "create a task: %s", e.msg);
	snprintf(p, sizeof p, "%s/amc.db-wal", home);
	ok(amc_file_exists(p), "a write leaves a -wal file");
	is_int(mode_of(p), 0600, "amc.db-wal is 0600 after a write");

	/* A second connection (another thread or process) opens the same file. */
	amc_store *s2 = NULL;
	ok(amc_store_open(home, &s2, &e) == 0, "a second connection opens: %s", e.msg);
	amc_task_row got;
	ok(amc_store_get_task(s2, "0000000000000001", &got, &e) == 0, "and sees the first one's row");
	amc_task_row_free(&got);
	amc_store_close(s2);
	amc_store_close(s);

	/* An older amc.db with a wide mode is tightened on open. */
	snprintf(p, sizeof p, "%s/amc.db", home);
	chmod(p, 0644);
	ok(amc_store_open(home, &s, &e) == 0, "reopen: %s", e.msg);
	is_int(mode_of(p), 0600, "a 0644 amc.db is set back to 0600");
	amc_store_close(s);
}

static void test_bad_homes(const char *base)
{
	amc_store *s = (amc_store *)1;
	amc_err e = {0};
	ok(amc_store_open("relative/home", &s, &e) != 0, "a relative home is refused");
	is_int(e.code, AMC_EENV, "as an environment error");
	ok(s == NULL, "and *out is NULL");

	char file[PATH_MAX];
	snprintf(file, sizeof file, "%s/plainfile", base);
	amc_write_atomic(file, "x", 1, 0600, NULL);
	ok(amc_store_open(file, &s, &e) != 0, "a home that is a file is refused");
	like(e.msg, "not a folder", "saying so: %s", e.msg);
}

static void corrupt_case(const char *base, const char *name, const void *data, size_t len)
{
	char home[PATH_MAX], db[PATH_MAX + 8];
	snprintf(home, sizeof home, "%s/%s", base, name);
	amc_mkdir_p(home, 0700, NULL);
	snprintf(db, sizeof db, "%s/amc.db", home);
	amc_write_atomic(db, data, len, 0600, NULL);
	amc_store *s = NULL;
	amc_err e = {0};
	ok(amc_store_open(home, &s, &e) != 0, "%s: open fails", name);
	is_int(e.code, AMC_EENV, "%s: as an environment error", name);
	like(e.msg, db, "%s: the message names the file: %s", name, e.msg);
	like(e.msg, "move it aside", "%s: and says to move it aside", name);
	ok(s == NULL, "%s: no store", name);
}

static void test_corrupt(const char *base)
{
	const char text[] = "this is a shopping list, not a database\n";
	char big[8192];
	for (size_t i = 0; i < sizeof big; i++)
		big[i] = (char)(i * 7 + 3);
	corrupt_case(base, "textfile", text, sizeof text - 1);
	corrupt_case(base, "noise", big, sizeof big);
	/* A real header with garbage after it: a damaged database. */
	memcpy(big, "SQLite format 3", 16);
	corrupt_case(base, "damaged", big, sizeof big);
}

/* A pid that surely names no process: a child that has exited and been reaped. */
static long dead_pid(void)
{
	pid_t p = fork();
	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return (long)p;
}

static void mk(amc_store *s, const char *id, const char *status, long pid, const char *lock)
{
	amc_err e = {0};
	amc_task_row t = {.id = (char *)id, .kind = "flow", .status = (char *)status,
			  .device = "sim:0", .owner_pid = pid, .lock_name = (char *)lock,
			  .input_tokens = -1, .output_tokens = -1, .cost_usd = -1, .source_attempt = -1};
	if (amc_store_create_task(s, &t, &e) != 0)
		diag("create %s: %s", id, e.msg);
}

static void add_steps(amc_store *s, const char *id, int n)
{
	for (int i = 1; i <= n; i++) {
		amc_err e = {0};
		amc_step_row r = {.task_id = (char *)id, .step = i, .tool = "tap", .status = "ok"};
		if (amc_store_add_step(s, &r, &e) != 0)
			diag("add step: %s", e.msg);
	}
}

static char *status_of(amc_store *s, const char *id, char **error)
{
	amc_task_row t;
	amc_err e = {0};
	static char buf[4][64];
	static int k;
	char *b = buf[k++ & 3];
	if (amc_store_get_task(s, id, &t, &e) != 0) {
		snprintf(b, 64, "(error)");
		return b;
	}
	snprintf(b, 64, "%s", t.status);
	if (error) {
		free(*error);
		*error = t.error ? strdup(t.error) : NULL;
	}
	amc_task_row_free(&t);
	return b;
}

static void test_recover(const char *base)
{
	char home[PATH_MAX];
	snprintf(home, sizeof home, "%s/recover", base);
	amc_store *s = NULL;
	amc_err e = {0};
	ok(amc_store_open(home, &s, &e) == 0, "open: %s", e.msg);
	long dead = dead_pid();
	const char *A = "000000000000000a"; /* running, lock free, owner dead */
	const char *B = "000000000000000b"; /* running, lock held (live owner) */
	const char *C = "000000000000000c"; /* queued, owner pid dead */
	const char *D = "000000000000000d"; /* queued, owner alive (us) */
	const char *E = "000000000000000e"; /* waiting_user, lock free */
	const char *F = "000000000000000f"; /* running, its device now held for another task */
	const char *G = "000000000000000g"; /* succeeded: untouched */
	mk(s, A, "running", dead, "device-sim:7");
	add_steps(s, A, 3);
	mk(s, B, "running", (long)getpid(), "device-sim:8");
	add_steps(s, B, 2);
	mk(s, C, "queued", dead, NULL);
	mk(s, D, "queued", (long)getpid(), NULL);
	mk(s, E, "waiting_user", dead, "device-sim:9");
	mk(s, F, "running", dead, "device-sim:10");
	mk(s, G, "succeeded", dead, "device-sim:11");
	amc_store_close(s);
	/* A's owner was killed while writing an artifact (check-hardening's kill -9
	 * part): its temp file goes at recovery; finished files stay. */
	char adir[PATH_MAX + 64], tmpf[PATH_MAX + 128], keep[PATH_MAX + 128];
	snprintf(adir, sizeof adir, "%s/artifacts/%s", home, A);
	snprintf(tmpf, sizeof tmpf, "%s/obs-0004.thumb.png.tmp.1858.29", adir);
	snprintf(keep, sizeof keep, "%s/obs-0003.png", adir);
	ok(amc_mkdir_p(adir, 0700, &e) == 0 && amc_write_atomic(keep, "x", 1, 0600, &e) == 0 &&
		   amc_write_atomic(tmpf, "partial", 7, 0600, &e) == 0,
	   "a temp file and a finished file in A's artifacts");

	/* flock locks conflict between open file descriptions even in one
	 * process, so holding B's lock here stands in for a live owner. */
	amc_lock *lb = NULL, *lf = NULL;
	char holder[128];
	char note_b[64], note_f[64];
	snprintf(note_b, sizeof note_b, "%s pid %ld", B, (long)getpid());
	snprintf(note_f, sizeof note_f, "0000000000000zzz pid %ld", (long)getpid());
	ok(amc_lock_try(home, "device-sim:8", note_b, &lb, holder, sizeof holder, &e) == 0, "hold B's device lock");
	ok(amc_lock_try(home, "device-sim:10", note_f, &lf, holder, sizeof holder, &e) == 0,
	   "hold F's device lock for another task");

	ok(amc_store_open(home, &s, &e) == 0, "reopen runs recovery: %s", e.msg);
	char *err = NULL;
	is_str(status_of(s, A, &err), "interrupted", "running task with a free lock -> interrupted");
	char want[128];
	snprintf(want, sizeof want, "the amc process running this task (pid %ld) stopped before it finished", dead);
	is_str(err, want, "with an error naming the pid");
	ok(access(tmpf, F_OK) != 0, "the dead owner's temp file is gone");
	ok(access(keep, F_OK) == 0, "its finished artifact stays");
	amc_task_row t;
	ok(amc_store_get_task(s, A, &t, &e) == 0 && t.finished_ms > 0, "and a finished time");
	is_int(t.steps, 0, "its step counter is as it was");
	amc_task_row_free(&t);
	amc_step_row *rows;
	size_t n;
	ok(amc_store_get_steps(s, A, &rows, &n, &e) == 0, "its steps read back");
	is_int(n, 3, "all three finished steps intact");
	amc_step_rows_free(rows, n);
	is_str(status_of(s, B, NULL), "running", "running task whose lock is held stays running");
	ok(amc_store_get_steps(s, B, &rows, &n, &e) == 0 && n == 2, "with its steps");
	amc_step_rows_free(rows, n);
	is_str(status_of(s, C, NULL), "interrupted", "queued task with a dead owner -> interrupted");
	is_str(status_of(s, D, NULL), "queued", "queued task with a live owner stays queued");
	is_str(status_of(s, E, NULL), "interrupted", "waiting_user task with a free lock -> interrupted");
	is_str(status_of(s, F, NULL), "interrupted", "running task whose device is held for another task -> interrupted");
	is_str(status_of(s, G, NULL), "succeeded", "finished tasks are untouched");
	free(err);

	is_int(amc_store_recover(s, &e), 0, "recovering again changes nothing");
	is_int(amc_lock_is_held(home, "device-sim:7", NULL, 0), 0, "recovery released the lock it took");

	/* A second connection in this process does not steal B either. */
	amc_store *s2 = NULL;
	ok(amc_store_open(home, &s2, &e) == 0, "another connection opens");
	is_str(status_of(s2, B, NULL), "running", "B still running while its owner lives");
	amc_store_close(s2);

	amc_lock_release(lb);
	amc_lock_release(lf);
	is_int(amc_store_recover(s, &e), 1, "once B's owner lets go without finishing, recovery takes it");
	is_str(status_of(s, B, NULL), "interrupted", "B interrupted");
	ok(amc_store_get_steps(s, B, &rows, &n, &e) == 0 && n == 2, "with its two steps");
	amc_step_rows_free(rows, n);
	amc_store_close(s);
}

/* Several processes opening a new home at once: one creates and migrates the
 * schema, the others wait (busy_timeout) and find it done. */
static void test_concurrent_open(const char *base)
{
	char home[PATH_MAX];
	snprintf(home, sizeof home, "%s/race", base);
	enum { N = 6 };
	pid_t kids[N];
	for (int i = 0; i < N; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			amc_store *s = NULL;
			amc_err e = {0};
			char id[32];
			snprintf(id, sizeof id, "00000000000000%02d", i);
			amc_task_row t = {.id = id, .kind = "flow", .status = "succeeded"};
			int rc = amc_store_open(home, &s, &e) != 0 || amc_store_create_task(s, &t, &e) != 0;
			if (rc)
				fprintf(stderr, "child %d: %s\n", i, e.msg);
			amc_store_close(s);
			_exit(rc);
		}
	}
	int failed = 0;
	for (int i = 0; i < N; i++) {
		int st = 0;
		waitpid(kids[i], &st, 0);
		failed += !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	is_int(failed, 0, "%d processes open a new home at once", N);
	amc_store *s = NULL;
	amc_err e = {0};
	ok(amc_store_open(home, &s, &e) == 0, "then it opens: %s", e.msg);
	is_int(amc_store_count_tasks(s, NULL, &e), N, "with every process's row");
	amc_store_close(s);
}

/* The disk kept back for a task's end: made 0600 at its full size, given up
 * once, and refused with a message a person can act on when the file system
 * has no room (RLIMIT_FSIZE stands in for a full disk: no mount needed). */
static void test_reserve(const char *base)
{
	char home[PATH_MAX], p[PATH_MAX + 16];
	snprintf(home, sizeof home, "%s/reserve/amc", base);
	amc_store *s = NULL;
	amc_err e = {0};
	ok(amc_store_open(home, &s, &e) == 0, "open a home for the reserve: %s", e.msg);
	snprintf(p, sizeof p, "%s/reserve", home);
	ok(!amc_file_exists(p), "opening the store keeps no reserve (a task's start does)");
	is_int(amc_store_reserve_keep(s, &e), 0, "keep: %s", e.msg);
	struct stat st;
	ok(stat(p, &st) == 0 && st.st_size == AMC_STORE_RESERVE_BYTES && st.st_blocks * 512 >= AMC_STORE_RESERVE_BYTES,
	   "the reserve is %d KB, allocated", AMC_STORE_RESERVE_BYTES / 1024);
	is_int(mode_of(p), 0600, "the reserve is 0600");
	is_int(amc_store_reserve_keep(s, &e), 0, "keep again: nothing to do");
	is_int(amc_store_reserve_release(s), 1, "release removes it");
	ok(!amc_file_exists(p), "and it is gone");
	is_int(amc_store_reserve_release(s), 0, "a second release has nothing to give");
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		struct rlimit rl = { 64 * 1024, 64 * 1024 };
		setrlimit(RLIMIT_FSIZE, &rl);
		amc_err ce = {0};
		int rc = amc_store_reserve_keep(s, &ce);
		_exit(rc == -1 && strstr(ce.msg, "is full") && strstr(ce.msg, "amc retention") && !amc_file_exists(p) ? 0 : 1);
	}
	int wst = 0;
	waitpid(pid, &wst, 0);
	ok(WIFEXITED(wst) && WEXITSTATUS(wst) == 0, "no room: keep fails saying the disk is full and what to do, "
	   "leaving no partial reserve");
	amc_store_close(s);
}

int main(void)
{
	const char *base = test_home("store");
	test_open_modes(base);
	test_bad_homes(base);
	test_corrupt(base);
	test_recover(base);
	test_concurrent_open(base);
	test_reserve(base);
	return done_testing();
}
