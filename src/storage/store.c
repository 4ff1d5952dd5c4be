/* store.c - opening the database: modes, pragmas, migration, recovery.
 * The helpers the other storage files share are in sql.c (store_int.h). */
#include "storage/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "storage/checkpoint.h"
#include "storage/migrate.h"
#include "storage/store_int.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/strbuf.h"


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
	long long deadline = amc_mono_ms() + AMC_STORE_BUSY_TIMEOUT_MS;
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

/* sqlite3_busy_timeout's policy (sleep and retry for up to
 * AMC_STORE_BUSY_TIMEOUT_MS, the same steps as SQLite's), measuring how long each statement waited for a
 * lock, so `make check-hardening` can print the longest wait. */
static int busy_wait(void *ud, int n)
{
	static const int delays[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
	amc_store *s = ud;
	long long now = amc_mono_ms();
	if (n == 0) {
		s->busy_since = now;
		s->busy_waits++;
	}
	if (now - s->busy_since >= AMC_STORE_BUSY_TIMEOUT_MS)
		return 0;
	amc_sleep_ms(delays[n < 12 ? n : 11]);
	long long waited = amc_mono_ms() - s->busy_since;
	if (waited > s->busy_max_ms)
		s->busy_max_ms = waited;
	return 1;
}

int amc_store_open(const char *home, amc_store **out, amc_err *e)
{
	*out = NULL;
	if (!home || home[0] != '/')
		return amc_err_set(e, AMC_EENV, "the amc home folder must be an absolute path (got '%s'); "
				   "set AMC_HOME to one", home ? home : "");
	amc_store *s = amc_xcalloc(1, sizeof *s);
	pthread_mutex_init(&s->png_mu, NULL);
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
	/* AMC_STORE_STATS=1 (the hardening harness): the same policy, measured. */
	const char *stats = getenv("AMC_STORE_STATS");
	if (stats && !strcmp(stats, "1"))
		sqlite3_busy_handler(s->db, busy_wait, s);
	else
		sqlite3_busy_timeout(s->db, AMC_STORE_BUSY_TIMEOUT_MS);
	/* Check before set_pragmas writes (WAL) to a file that may not be ours. */
	if (amc_migrate_check(s->db, s->path, e) != 0 || set_pragmas(s, e) != 0 ||
	    amc_migrate_run(s->db, s->path, NULL, e) != 0 ||
	    tighten_modes(s, e) != 0 || amc_store_recover(s, e) < 0)
		goto fail;
	s->ckpt = amc_ckpt_start(s->db, s->path);
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
	/* AMC_STORE_STATS=1: one line on stderr for the hardening harness. */
	const char *stats = getenv("AMC_STORE_STATS");
	if (stats && !strcmp(stats, "1"))
		fprintf(stderr, "amc-store-stats: lock waits %d, longest %lld ms\n", s->busy_waits,
			s->busy_max_ms);
	amc_ckpt_stop(s->ckpt);
	if (s->db)
		sqlite3_close_v2(s->db);
	for (int i = 0; i < AMC_STORE_SEEN_FRAMES; i++)
		free(s->seen[i].rel);
	pthread_mutex_destroy(&s->png_mu);
	free(s);
}

void amc_store_checkpoint_counts(amc_store *s, int drain, long *background, long *inline_count)
{
	if (drain)
		amc_ckpt_drain(s->ckpt);
	amc_ckpt_counts(s->ckpt, background, inline_count);
}

const char *amc_store_home(const amc_store *s)
{
	return s->home;
}

struct sqlite3 *amc_store_db(amc_store *s)
{
	return s ? s->db : NULL;
}

static int reserve_path(const amc_store *s, char *out, size_t n)
{
	return amc_path_join(out, n, s->home, "reserve");
}

int amc_store_reserve_keep(amc_store *s, amc_err *e)
{
	char p[PATH_MAX];
	struct stat st;
	if (reserve_path(s, p, sizeof p) != 0)
		return 0;
	if (stat(p, &st) == 0 && st.st_size >= AMC_STORE_RESERVE_BYTES)
		return 0;
	int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return 0; /* not ours to judge: the database write that follows says more */
	int rc = posix_fallocate(fd, 0, AMC_STORE_RESERVE_BYTES);
	close(fd);
	if (rc == ENOSPC || rc == EDQUOT || rc == EFBIG) {
		(void)unlink(p);
		return amc_err_set(e, AMC_EENV, "the disk holding %s is full (no room to keep %d KB for the task's end): "
				   "free some disk space (`amc retention` removes old tasks)", s->home,
				   AMC_STORE_RESERVE_BYTES / 1024);
	}
	return 0;
}

int amc_store_reserve_release(amc_store *s)
{
	char p[PATH_MAX];
	return reserve_path(s, p, sizeof p) == 0 && unlink(p) == 0;
}
