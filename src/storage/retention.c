/* retention.c - bounded history: tasks beyond the newest `keep`
 * or older than `max_age_days` go, with their timeline records and the
 * artifacts nothing else references. Never a task that may still run.
 *
 * Order matters for "rows never point at missing files": rows are deleted and
 * the set of still-referenced paths computed in one write transaction; files
 * are unlinked only after it commits. A crash in between leaves files that no
 * row names (wasted space), never a row that names a missing file.
 *
 * Which files go: a file belongs to the task whose folder holds it
 * (artifacts/<task-id>/). A removed task's folder goes whole, but for the
 * files a kept task's row still names (a frame stored once for two tasks, a
 * reused observation) and their thumbnails. Those rows are noted in
 * artifact_xrefs when written (migration 7), so the "kept" set is a range
 * lookup there per removed folder, never a scan of the remaining timeline.
 * A file in another folder that a removed row named goes only when that
 * folder's task is gone already (it was kept for this row), never a kept
 * task's file.
 *
 * The folders are swept in two passes, each from a few threads: list what
 * goes (readdir, fstatat; it only reads, so it runs while SQLite deletes the
 * rows), then, after the commit, delete it (unlinkat, rmdir). Both mostly
 * wait for the disk (see AMC_RET_THREADS), and waits overlap; the crash
 * guarantee above is the same, since every unlink still comes after the
 * commit. */
#include "storage/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "storage/store_int.h"
#include "util/clock.h"
#include "util/strbuf.h"

#define DAY_MS (24LL * 60 * 60 * 1000)

typedef struct strlist {
	char **v;
	size_t n, cap;
} strlist;

static void strlist_add(strlist *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 32;
		l->v = amc_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = s;
}

static void strlist_free(strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int strlist_has(const strlist *l, const char *s)
{
	return l->n && bsearch(&s, l->v, l->n, sizeof *l->v, cmp_str) != NULL;
}

/* Text column 0 of every row of a parameterless query. */
static int query_strings(amc_store *s, const char *sql, const char *what, strlist *out, amc_err *e)
{
	sqlite3_stmt *st;
	if (amc_store_prepare(s, sql, &st, e) != 0)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *v = amc_store_col_dup(st, 0);
		if (v)
			strlist_add(out, v);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : amc_store_sql_error_rc(s, rc, e, what);
}

static long long exec_changes(amc_store *s, const char *sql, const char *what, amc_err *e)
{
	if (amc_store_exec(s, sql, what, e) != 0)
		return -1;
	return (long long)sqlite3_changes(s->db);
}

/* The tasks to remove, as a WHERE clause from fixed fragments (an absent limit
 * adds nothing); ?1 is keep, ?2 the age cutoff. The count limit names the
 * oldest (count - keep) tasks rather than skipping the newest `keep`: the
 * index on created_ms then walks only the tasks that go (an OFFSET walked
 * every kept one, and an OR with a constant scanned the whole table, at every
 * start-up). Ties in created_ms are broken by id both ways, so the two name
 * the same tasks. */
static void victim_where(const amc_retention_opts *o, amc_sb *sql)
{
	amc_sb_puts(sql, " WHERE status NOT IN " AMC_STORE_ACTIVE_SQL " AND (");
	if (o->keep > 0)
		amc_sb_puts(sql, "id IN (SELECT id FROM tasks ORDER BY created_ms, id "
				 "LIMIT max(0, (SELECT count(*) FROM tasks) - ?1))");
	if (o->keep > 0 && o->max_age_days > 0)
		amc_sb_puts(sql, " OR ");
	if (o->max_age_days > 0)
		amc_sb_puts(sql, "created_ms < ?2");
	amc_sb_puts(sql, ")");
}

/* Run "PREFIX FROM tasks WHERE <victims> SUFFIX" with the limits bound; a
 * row's first column goes to *first (may be NULL). */
static int run_victims(amc_store *s, const amc_retention_opts *o, const char *prefix,
		       const char *suffix, long long *first, const char *what, amc_err *e)
{
	amc_sb sql;
	amc_sb_init(&sql);
	amc_sb_puts(&sql, prefix);
	amc_sb_puts(&sql, " FROM tasks");
	victim_where(o, &sql);
	amc_sb_puts(&sql, suffix);
	sqlite3_stmt *st;
	int prc = amc_store_prepare(s, amc_sb_str(&sql), &st, e);
	amc_sb_free(&sql);
	if (prc != 0)
		return -1;
	int rc = SQLITE_OK;
	if (o->keep > 0)
		amc_store_bind_i64(st, 1, o->keep, &rc);
	if (o->max_age_days > 0) {
		long long days = o->max_age_days > 1000000 ? 1000000 : o->max_age_days;
		amc_store_bind_i64(st, 2, amc_now_ms() - days * DAY_MS, &rc);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (first)
			*first = (long long)sqlite3_column_int64(st, 0);
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : amc_store_sql_error_rc(s, rc, e, what);
}

static int select_victims(amc_store *s, const amc_retention_opts *o, amc_err *e)
{
	return run_victims(s, o, "INSERT INTO temp.amc_ret_victims (id) SELECT id", "", NULL,
			   "choose tasks to remove", e);
}

/* Inside the transaction: pick the tasks that go, delete their rows and
 * note what the folder sweep must keep (`kept`, sorted: files in a removed
 * task's folder that a kept row names), start the sweep's listing (`w`), and
 * note which files outside the removed folders go (`orphans`: a removed row named them, their own task is gone,
 * and no remaining row names them). */
typedef struct sweep sweep;
static void sweep_list_start(sweep *w);

static int plan(amc_store *s, const amc_retention_opts *o, amc_retention_report *r,
		strlist *victims, strlist *kept, strlist *orphans, sweep *w, amc_err *e)
{
	if (amc_store_exec(s, "CREATE TEMP TABLE IF NOT EXISTS amc_ret_victims (id TEXT PRIMARY KEY)",
			   "prepare retention", e) != 0 ||
	    amc_store_exec(s, "CREATE TEMP TABLE IF NOT EXISTS amc_ret_files (path TEXT PRIMARY KEY)",
			   "prepare retention", e) != 0 ||
	    amc_store_exec(s, "DELETE FROM temp.amc_ret_victims", "prepare retention", e) != 0 ||
	    amc_store_exec(s, "DELETE FROM temp.amc_ret_files", "prepare retention", e) != 0)
		return -1;
	if (select_victims(s, o, e) != 0)
		return -1;
	if (query_strings(s, "SELECT id FROM temp.amc_ret_victims", "list tasks to remove", victims, e) != 0)
		return -1;
	r->tasks = (long)victims->n;
	if (victims->n == 0)
		return 0;
	/* What the removed rows name outside their own folders: their own
	 * artifact_xrefs rows (files inside their folders the sweep finds). */
	if (amc_store_exec(s,
			   "INSERT OR IGNORE INTO temp.amc_ret_files (path) SELECT path FROM artifact_xrefs"
			   " WHERE task_id IN temp.amc_ret_victims",
			   "list the artifacts of removed tasks", e) != 0)
		return -1;
	/* A kept row's xref under a removed folder ("artifacts/<id>/" up to
	 * "artifacts/<id>0", '0' following '/') keeps that file. Known before
	 * the rows go (the write lock is held), so the folders are listed
	 * while SQLite deletes them. */
	if (query_strings(s,
			  "SELECT x.path FROM temp.amc_ret_victims v JOIN artifact_xrefs x"
			  " ON x.path > 'artifacts/' || v.id || '/' AND x.path < 'artifacts/' || v.id || '0'"
			  " WHERE x.task_id NOT IN temp.amc_ret_victims",
			  "find the artifacts kept tasks still name", kept, e) != 0)
		return -1;
	if (kept->n) /* qsort of NULL, even with 0 items, is undefined (UBSan) */
		qsort(kept->v, kept->n, sizeof *kept->v, cmp_str);
	sweep_list_start(w);
	long long steps = exec_changes(s, "DELETE FROM timeline WHERE task_id IN temp.amc_ret_victims",
				       "remove timeline records", e);
	if (steps < 0 || exec_changes(s, "DELETE FROM tasks WHERE id IN temp.amc_ret_victims",
				      "remove tasks", e) < 0)
		return -1;
	r->steps = (long)steps;
	if (amc_store_exec(s, "DELETE FROM artifact_xrefs WHERE task_id IN temp.amc_ret_victims",
			   "forget the removed tasks' references", e) != 0)
		return -1;
	/* Task ids are 16 characters (amc_store_id_ok): the folder of
	 * "artifacts/<id>/..." is substr(path, 11, 16). */
	return query_strings(s,
			     "SELECT f.path FROM temp.amc_ret_files f WHERE substr(f.path, 1, 10) = 'artifacts/'"
			     " AND substr(f.path, 27, 1) = '/'"
			     " AND substr(f.path, 11, 16) NOT IN temp.amc_ret_victims"
			     " AND NOT EXISTS (SELECT 1 FROM tasks k WHERE k.id = substr(f.path, 11, 16))"
			     " AND NOT EXISTS (SELECT 1 FROM artifact_xrefs x WHERE x.path = f.path)",
			     "find unreferenced artifacts", orphans, e);
}

/* How many threads delete the removed folders' files at once. Each unlink
 * and rmdir mostly waits: where the file system discards freed blocks at
 * once (ext4 mounted with discard and no journal, as here), the call waits
 * for the device's discard, 40 us quiet to milliseconds on a busy disk; a
 * journalled file system waits less but still for locks and bitmaps. Waits
 * overlap across folders, so threads beyond the cores pay: 16 cut the
 * deletion of 3000 folders of two files from 15 s to 1 s on this machine's
 * loaded disk, where 8 took 2 s. */
#define AMC_RET_THREADS 16
/* Folders per thread below which fewer threads start (thread start-up is
 * ~50 us; a start-up retention of a few tasks needs none). */
#define AMC_RET_PER_THREAD 32

/* One removed task's folder between the sweep's two passes: what the listing
 * found there to delete (names packed "a\0b\0"), filled by one thread. */
typedef struct folder {
	const char *id; /* the victims list owns it */
	char *names;
	size_t len, cap;
	long files;
	long long bytes;
	int found; /* opened: its files go, then the folder */
} folder;

/* The sweep's shared state: the folders, the next one a thread takes, the
 * first error (threads set it under mu). */
struct sweep {
	amc_store *s;
	const strlist *victims, *kept;
	amc_retention_report *r;
	folder *f;
	size_t n, next;
	int result;
	amc_err *e;
	pthread_mutex_t mu;
	pthread_t th[2 * (AMC_RET_THREADS - 1)]; /* a pass's threads, and the listing's top-up */
	size_t started; /* threads running the current pass */
	void *(*pass)(void *);
};

static void sweep_fail(sweep *w, const char *what, const char *shown, int err)
{
	pthread_mutex_lock(&w->mu);
	if (w->result == 0)
		w->result = amc_err_set(w->e, AMC_EENV, "removed the rows but cannot %s %s: %s", what, shown,
					strerror(err));
	pthread_mutex_unlock(&w->mu);
}

static folder *sweep_take(sweep *w)
{
	pthread_mutex_lock(&w->mu);
	folder *f = w->next < w->n ? &w->f[w->next++] : NULL;
	pthread_mutex_unlock(&w->mu);
	return f;
}

/* Start a pass over every folder on up to AMC_RET_THREADS - 1 threads
 * running `tfn` (`fn`, or `fn` at a lower priority); the caller's share
 * (`fn`) comes in sweep_wait, which a thread that did not start leaves
 * more to. */
static void sweep_start_as(sweep *w, void *(*fn)(void *), void *(*tfn)(void *))
{
	size_t want = (w->n + AMC_RET_PER_THREAD - 1) / AMC_RET_PER_THREAD;
	if (want > AMC_RET_THREADS)
		want = AMC_RET_THREADS;
	w->next = 0;
	w->started = 0;
	w->pass = fn;
	while (w->started + 1 < want && pthread_create(&w->th[w->started], NULL, tfn, w) == 0)
		w->started++;
}

static void sweep_start(sweep *w, void *(*fn)(void *))
{
	sweep_start_as(w, fn, fn);
}

/* The caller's share of the pass, then the others' end. */
static void sweep_wait(sweep *w)
{
	if (!w->pass)
		return;
	w->pass(w);
	for (size_t i = 0; i < w->started; i++)
		pthread_join(w->th[i], NULL);
	w->started = 0;
	w->pass = NULL;
}

static void sweep_run(sweep *w, void *(*fn)(void *))
{
	sweep_start(w, fn);
	sweep_wait(w);
}

/* 1 when the artifact `rel` stays: a kept row names it, or it is the
 * thumbnail of a screenshot one names (x.png -> x.thumb.png, store.h). */
static int is_kept(const strlist *kept, const char *rel)
{
	static const char thumb[] = ".thumb.png";
	if (!kept->n)
		return 0;
	if (strlist_has(kept, rel))
		return 1;
	size_t n = strlen(rel), t = sizeof thumb - 1;
	if (n <= t || strcmp(rel + n - t, thumb) != 0)
		return 0;
	char png[PATH_MAX];
	if (n - t + 5 > sizeof png)
		return 0;
	memcpy(png, rel, n - t);
	memcpy(png + n - t, ".png", 5);
	return strlist_has(kept, png);
}

static int folder_path(const sweep *w, const folder *f, char *dir, size_t n)
{
	return amc_store_id_ok(f->id) && snprintf(dir, n, "%s/artifacts/%s", w->s->home, f->id) < (int)n ? 0 : -1;
}

static void folder_add(folder *f, const char *name)
{
	size_t n = strlen(name) + 1;
	if (f->len + n > f->cap) {
		f->cap = f->cap * 2 + n + 64;
		f->names = amc_xrealloc(f->names, f->cap);
	}
	memcpy(f->names + f->len, name, n);
	f->len += n;
}

/* First pass, one removed task's folder: every file in it goes (catching the
 * files no row names: thumbnails, temp files of a crashed write) but the kept
 * ones. Sizes come from one fstatat a file on the open folder, so a dry run
 * reports the same without removing anything. A folder that is a link is
 * not followed: what it points at is no task's. */
static void list_folder(sweep *w, folder *f)
{
	char dir[PATH_MAX];
	if (folder_path(w, f, dir, sizeof dir) != 0)
		return;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return; /* no artifacts, or nothing we could remove anyway */
	}
	f->found = 1;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char rel[PATH_MAX];
		struct stat st;
		if (snprintf(rel, sizeof rel, "artifacts/%s/%s", f->id, de->d_name) >= (int)sizeof rel ||
		    !amc_store_relpath_ok(rel) || is_kept(w->kept, rel))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode))
			continue;
		f->files++;
		if (S_ISREG(st.st_mode))
			f->bytes += (long long)st.st_size;
		folder_add(f, de->d_name);
	}
	closedir(d);
}

/* The listing's threads, started while the rows are deleted, yield to the
 * thread deleting them. When the folders are in the page cache, listing is
 * CPU work (open, getdents, fstatat), and 15 threads of it at the same
 * weight as SQLite's thread took most of 2 cores while the rows went. amc's
 * part of retention of 10k tasks of 100k (bench_store, a noisy disk): 398
 * and 609 ms in two runs before, 299-561 ms (median 330) in six with the
 * listing at nice 19. When the folders must come from the disk, the threads
 * mostly wait, and their waits still overlap. On a machine busy with other
 * work, nice 19 threads get next to nothing (1150 ms under load 5), so
 * once the rows are committed, sweep_files tops the listing up with
 * threads at the process's priority. Linux only: elsewhere setpriority
 * names the whole process. */
static void listing_yields(void)
{
#ifdef __linux__
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
#endif
}

static void *list_folders(void *arg)
{
	sweep *w = arg;
	for (folder *f; (f = sweep_take(w));)
		list_folder(w, f);
	return NULL;
}

static void *list_folders_yielding(void *arg)
{
	listing_yields();
	return list_folders(arg);
}

/* After the commit: what the yielding threads have not listed yet is
 * shared by up to AMC_RET_THREADS - 1 more threads at the process's
 * priority (and the caller, in sweep_wait). */
static void sweep_list_top_up(sweep *w)
{
	pthread_mutex_lock(&w->mu);
	size_t left = w->next < w->n ? w->n - w->next : 0;
	pthread_mutex_unlock(&w->mu);
	size_t want = (left + AMC_RET_PER_THREAD - 1) / AMC_RET_PER_THREAD, added = 0;
	while (added + 1 < want && added + 1 < AMC_RET_THREADS &&
	       pthread_create(&w->th[w->started], NULL, list_folders, w) == 0) {
		w->started++;
		added++;
	}
}

/* Second pass, nothing but the file system's calls: the listed files, then
 * the folder if that left it empty (a kept file keeps it). The folder stays
 * open across its rmdir so that its inode is freed at the close, outside the
 * lock rmdir holds on artifacts/ (the freeing waits for the device's discard;
 * under that lock it would serialize every thread's rmdirs). */
static void remove_folder(sweep *w, folder *f)
{
	char dir[PATH_MAX];
	if (!f->found || folder_path(w, f, dir, sizeof dir) != 0)
		return;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			sweep_fail(w, "open", dir, errno);
		return;
	}
	for (size_t i = 0; i < f->len; i += strlen(f->names + i) + 1) {
		const char *name = f->names + i;
		if (unlinkat(fd, name, 0) != 0 && errno != ENOENT) {
			int err = errno;
			char rel[PATH_MAX];
			snprintf(rel, sizeof rel, "artifacts/%s/%s", f->id, name);
			sweep_fail(w, "delete", rel, err);
		}
	}
	(void)rmdir(dir); /* fails when a kept file is in it: the folder stays */
	close(fd);
}

static void *remove_folders(void *arg)
{
	sweep *w = arg;
	for (folder *f; (f = sweep_take(w));)
		remove_folder(w, f);
	return NULL;
}

static int timed_unlink(sweep *w, const char *path)
{
	long long t0 = amc_mono_us();
	int rc = unlink(path);
	int err = errno;
	w->r->unlink_us += amc_mono_us() - t0;
	if (rc != 0 && err != ENOENT)
		sweep_fail(w, "delete", path, err);
	return rc;
}

/* A file outside the removed folders that only removed rows named (its own
 * task went earlier and left it for them): it goes, with its thumbnail, and
 * its folder when that empties it. */
static void sweep_orphan(sweep *w, const char *rel, int dry_run)
{
	char p[PATH_MAX], thumb[PATH_MAX];
	const char *files[2] = { p, NULL };
	if (amc_store_artifact_abspath(w->s, rel, p, sizeof p, NULL) != 0)
		return; /* never escapes artifacts/ */
	if (amc_store_thumb_path(p, thumb, sizeof thumb) == 0)
		files[1] = thumb;
	for (int i = 0; i < 2 && files[i]; i++) {
		struct stat st;
		if (lstat(files[i], &st) != 0 || S_ISDIR(st.st_mode))
			continue; /* already gone is fine */
		w->r->files++;
		if (S_ISREG(st.st_mode))
			w->r->bytes += (long long)st.st_size;
		if (!dry_run)
			(void)timed_unlink(w, files[i]);
	}
	char *slash = strrchr(p, '/');
	if (!dry_run && slash) {
		*slash = '\0';
		long long t0 = amc_mono_us();
		(void)rmdir(p); /* fails when a kept file is in it: the folder stays */
		w->r->unlink_us += amc_mono_us() - t0;
	}
}

static void sweep_init(sweep *w, amc_store *s, const strlist *victims, const strlist *kept,
		       amc_retention_report *r, amc_err *e)
{
	memset(w, 0, sizeof *w);
	w->s = s;
	w->victims = victims;
	w->kept = kept;
	w->r = r;
	w->e = e;
	pthread_mutex_init(&w->mu, NULL);
}

/* The listing of the removed folders starts (plan, once `kept` is final):
 * it only reads, so it runs while the rows are deleted and committed. */
static void sweep_list_start(sweep *w)
{
	w->n = w->victims->n;
	w->f = amc_xcalloc(w->n ? w->n : 1, sizeof *w->f);
	for (size_t i = 0; i < w->n; i++)
		w->f[i].id = w->victims->v[i];
	sweep_start_as(w, list_folders, list_folders_yielding);
}

static void sweep_free(sweep *w)
{
	sweep_wait(w); /* a listing still running, when the transaction failed */
	for (size_t i = 0; i < w->n; i++)
		free(w->f[i].names);
	free(w->f);
	pthread_mutex_destroy(&w->mu);
}

/* The files of a committed removal (or, in a dry run, counted the same way
 * without removing anything): the removed tasks' folders, listed (begun in
 * plan), then emptied from several threads; then the orphans. The report's
 * unlink_us is the wall time of the emptying, which makes only unlink and
 * rmdir calls, plus the orphans' own calls. */
static int sweep_files(sweep *w, const strlist *orphans, int dry_run)
{
	if (w->pass == list_folders)
		sweep_list_top_up(w);
	sweep_wait(w);
	for (size_t i = 0; i < w->n; i++) {
		w->r->files += w->f[i].files;
		w->r->bytes += w->f[i].bytes;
	}
	if (!dry_run) {
		long long t0 = amc_mono_us();
		sweep_run(w, remove_folders);
		w->r->unlink_us += amc_mono_us() - t0;
	}
	for (size_t i = 0; i < orphans->n; i++)
		sweep_orphan(w, orphans->v[i], dry_run);
	return w->result;
}

static void drop_temp(amc_store *s)
{
	sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.amc_ret_victims", NULL, NULL, NULL);
	sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.amc_ret_files", NULL, NULL, NULL);
}

/* Debian builds SQLite with secure_delete on (upstream's default is off),
 * which writes every page a delete frees, zeroed: for 10k tasks about four
 * times the page writes of the delete itself (45k against 11k in bench_store's
 * database), a sixth of retention's CPU time and a quarter of its own wall
 * time on tmpfs. FAST still zeroes
 * deleted content on every page the transaction writes anyway; a page freed
 * whole keeps its old bytes until SQLite reuses it, as with any SQLite built
 * without secure_delete. Only retention's transaction: the connection's
 * setting comes back after it. Returns the setting to restore, or -1. */
static int secure_delete_fast(amc_store *s)
{
	sqlite3_stmt *st = NULL;
	int secure = -1;
	if (sqlite3_prepare_v2(s->db, "PRAGMA secure_delete", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		secure = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (secure != 1)
		return -1;
	sqlite3_exec(s->db, "PRAGMA secure_delete = FAST", NULL, NULL, NULL);
	return secure;
}

static void secure_delete_restore(amc_store *s, int secure)
{
	if (secure == 1)
		sqlite3_exec(s->db, "PRAGMA secure_delete = 1", NULL, NULL, NULL);
}

int amc_store_retention(amc_store *s, const amc_retention_opts *o, amc_retention_report *r, amc_err *e)
{
	amc_retention_report local;
	if (!r)
		r = &local;
	memset(r, 0, sizeof *r);
	if (!o || (o->keep <= 0 && o->max_age_days <= 0))
		return 0; /* no limit set: keep everything */
	/* Runs at every start-up: when nothing is due, a read answers it without
	 * taking the write lock. */
	long long due = 0;
	if (run_victims(s, o, "SELECT EXISTS (SELECT 1", ")", &due, "check for old tasks", e) != 0)
		return -1;
	if (!due)
		return 0;
	strlist victims = {0}, kept = {0}, orphans = {0};
	int secure = secure_delete_fast(s);
	if (amc_store_begin(s, e) != 0) {
		secure_delete_restore(s, secure);
		return -1;
	}
	sweep w;
	sweep_init(&w, s, &victims, &kept, r, e);
	int result = plan(s, o, r, &victims, &kept, &orphans, &w, e);
	if (result != 0 || o->dry_run) {
		amc_store_rollback(s);
	} else if (amc_store_commit(s, e) != 0) {
		result = -1;
	}
	secure_delete_restore(s, secure);
	drop_temp(s);
	if (result != 0) {
		memset(r, 0, sizeof *r);
	} else {
		/* Files only once the rows are gone for good (or, in a dry run,
		 * counted the same way without removing anything). */
		result = sweep_files(&w, &orphans, o->dry_run);
	}
	sweep_free(&w);
	strlist_free(&victims);
	strlist_free(&kept);
	strlist_free(&orphans);
	return result;
}
