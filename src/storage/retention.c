/* retention.c - bounded history: tasks beyond the newest `keep`
 * or older than `max_age_days` go, with their timeline records and the
 * artifacts nothing else references. Never a task that may still run.
 *
 * Order matters for "rows never point at missing files": rows are deleted and
 * the set of still-referenced paths computed in one write transaction; files
 * are unlinked only after it commits. A crash in between leaves files that no
 * row names (wasted space), never a row that names a missing file. */
#include "storage/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "storage/store_int.h"
#include "util/clock.h"
#include "util/strbuf.h"

#define DAY_MS (24LL * 60 * 60 * 1000)

typedef struct strlist {
	char **v;
	long long *size; /* per string: the file's size when the folder scan saw it, else -1 */
	size_t n, cap;
} strlist;

static void strlist_add_size(strlist *l, char *s, long long size)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 32;
		l->v = amc_xrealloc(l->v, l->cap * sizeof *l->v);
		l->size = amc_xrealloc(l->size, l->cap * sizeof *l->size);
	}
	l->size[l->n] = size;
	l->v[l->n++] = s;
}

static void strlist_free(strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	free(l->size);
	memset(l, 0, sizeof *l);
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
			strlist_add_size(out, v, sqlite3_column_count(st) > 1 ? amc_store_col_i64(st, 1, -1) : -1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : amc_store_sql_error_rc(s, rc, e, what);
}

static int add_candidate(amc_store *s, sqlite3_stmt *ins, const char *rel, long long size, amc_err *e)
{
	int rc = SQLITE_OK;
	sqlite3_reset(ins);
	amc_store_bind_text(ins, 1, rel, &rc);
	amc_store_bind_i64(ins, 2, size, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(ins);
	return rc == SQLITE_DONE ? 0 : amc_store_sql_error_rc(s, rc, e, "note an artifact for retention");
}

/* Every file in a removed task's folder is a candidate too: that catches
 * files no row names (thumbnails, temp files of a crashed write). Its size is
 * noted here (one fstatat a file, relative to the open folder), so the report
 * needs no second stat of each file. */
static int scan_folder(amc_store *s, sqlite3_stmt *ins, const char *id, amc_err *e)
{
	char dir[PATH_MAX];
	if (!amc_store_id_ok(id) || snprintf(dir, sizeof dir, "%s/artifacts/%s", s->home, id) >= (int)sizeof dir)
		return 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0; /* no artifacts, or nothing we could remove anyway */
	struct dirent *de;
	int rc = 0;
	while (rc == 0 && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char rel[PATH_MAX];
		struct stat st;
		if (snprintf(rel, sizeof rel, "artifacts/%s/%s", id, de->d_name) >= (int)sizeof rel ||
		    !amc_store_relpath_ok(rel))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode))
			continue;
		rc = add_candidate(s, ins, rel, S_ISREG(st.st_mode) ? (long long)st.st_size : 0, e);
	}
	closedir(d);
	return rc;
}

static long long exec_changes(amc_store *s, const char *sql, const char *what, amc_err *e)
{
	if (amc_store_exec(s, sql, what, e) != 0)
		return -1;
	return (long long)sqlite3_changes(s->db);
}

/* The tasks to remove, as a WHERE clause from fixed fragments (an absent limit
 * adds nothing); ?1 is keep, ?2 the age cutoff. */
static void victim_where(const amc_retention_opts *o, amc_sb *sql)
{
	amc_sb_puts(sql, " WHERE status NOT IN " AMC_STORE_ACTIVE_SQL " AND (0");
	if (o->keep > 0)
		amc_sb_puts(sql, " OR id IN (SELECT id FROM tasks ORDER BY created_ms DESC, id DESC "
				 "LIMIT -1 OFFSET ?1)");
	if (o->max_age_days > 0)
		amc_sb_puts(sql, " OR created_ms < ?2");
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

/* Inside the transaction: pick victims, note candidate files, delete rows and
 * list the candidates no remaining row references. */
static int plan(amc_store *s, const amc_retention_opts *o, amc_retention_report *r,
		strlist *victims, strlist *doomed, amc_err *e)
{
	if (amc_store_exec(s, "CREATE TEMP TABLE IF NOT EXISTS amc_ret_victims (id TEXT PRIMARY KEY)",
			   "prepare retention", e) != 0 ||
	    amc_store_exec(s, "CREATE TEMP TABLE IF NOT EXISTS amc_ret_files (path TEXT PRIMARY KEY, size INTEGER)",
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
	/* Files the removed rows name, wherever they are. */
	if (amc_store_exec(s,
			   "INSERT OR IGNORE INTO temp.amc_ret_files (path) SELECT p FROM ("
			   " SELECT before_screenshot AS p FROM timeline WHERE task_id IN temp.amc_ret_victims"
			   " UNION ALL SELECT after_screenshot FROM timeline WHERE task_id IN temp.amc_ret_victims"
			   " UNION ALL SELECT screenshot_path FROM timeline WHERE task_id IN temp.amc_ret_victims"
			   " UNION ALL SELECT ui_tree_path FROM timeline WHERE task_id IN temp.amc_ret_victims"
			   ") WHERE p IS NOT NULL",
			   "list the artifacts of removed tasks", e) != 0)
		return -1;
	sqlite3_stmt *ins;
	if (amc_store_prepare(s,
			      "INSERT INTO temp.amc_ret_files (path, size) VALUES (?1, ?2)"
			      " ON CONFLICT (path) DO UPDATE SET size = excluded.size",
			      &ins, e) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < victims->n; i++)
		rc = scan_folder(s, ins, victims->v[i], e);
	sqlite3_finalize(ins);
	if (rc != 0)
		return -1;
	long long steps = exec_changes(s, "DELETE FROM timeline WHERE task_id IN temp.amc_ret_victims",
				       "remove timeline records", e);
	if (steps < 0 || exec_changes(s, "DELETE FROM tasks WHERE id IN temp.amc_ret_victims",
				      "remove tasks", e) < 0)
		return -1;
	r->steps = (long)steps;
	/* A file of a removed task's may still be named by a kept task's row (a
	 * reused observation, a frame stored once for two tasks): such rows are
	 * noted in artifact_xrefs when written (migration 7), so only that small
	 * table is asked, never the whole timeline. A kept screenshot keeps its
	 * thumbnail (x.png -> x.thumb.png, store.h). */
	if (amc_store_exec(s, "DELETE FROM artifact_xrefs WHERE task_id IN temp.amc_ret_victims",
			   "forget the removed tasks' references", e) != 0)
		return -1;
	return query_strings(s,
			     "SELECT path, size FROM temp.amc_ret_files f"
			     " WHERE NOT EXISTS (SELECT 1 FROM artifact_xrefs x WHERE x.path = f.path)"
			     " AND NOT (f.path LIKE '%.thumb.png' AND EXISTS (SELECT 1 FROM artifact_xrefs x"
			     "  WHERE x.path = substr(f.path, 1, length(f.path) - 10) || '.png'))",
			     "find unreferenced artifacts", doomed, e);
}

static void drop_temp(amc_store *s)
{
	sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.amc_ret_victims", NULL, NULL, NULL);
	sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.amc_ret_files", NULL, NULL, NULL);
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
	strlist victims = {0}, doomed = {0};
	if (amc_store_begin(s, e) != 0)
		return -1;
	if (plan(s, o, r, &victims, &doomed, e) != 0) {
		amc_store_rollback(s);
		drop_temp(s);
		strlist_free(&victims);
		strlist_free(&doomed);
		return -1;
	}
	/* Sizes before anything is removed, so a dry run reports the same. */
	char **abs = amc_xcalloc(doomed.n ? doomed.n : 1, sizeof *abs);
	for (size_t i = 0; i < doomed.n; i++) {
		char p[PATH_MAX];
		struct stat st;
		if (amc_store_artifact_abspath(s, doomed.v[i], p, sizeof p, NULL) != 0)
			continue; /* never escapes artifacts/ */
		if (doomed.size[i] >= 0) { /* seen by the folder scan */
			abs[i] = amc_xstrdup(p);
			r->files++;
			r->bytes += doomed.size[i];
			continue;
		}
		if (lstat(p, &st) != 0 || S_ISDIR(st.st_mode))
			continue; /* already gone is fine */
		abs[i] = amc_xstrdup(p);
		r->files++;
		if (S_ISREG(st.st_mode))
			r->bytes += (long long)st.st_size;
	}
	int result = 0;
	if (o->dry_run) {
		amc_store_rollback(s);
	} else if (amc_store_commit(s, e) != 0) {
		memset(r, 0, sizeof *r);
		result = -1;
	} else {
		long long u0 = amc_mono_us();
		for (size_t i = 0; i < doomed.n; i++) {
			if (abs[i] && unlink(abs[i]) != 0 && errno != ENOENT && result == 0)
				result = amc_err_set(e, AMC_EENV, "removed the rows but cannot delete %s: %s",
						     abs[i], strerror(errno));
		}
		/* Folders of removed tasks go when nothing in them is still needed
		 * (a shared file a kept row names stays, and so does its folder). */
		for (size_t i = 0; i < victims.n; i++) {
			char dir[PATH_MAX];
			if (amc_store_id_ok(victims.v[i]) &&
			    snprintf(dir, sizeof dir, "%s/artifacts/%s", s->home, victims.v[i]) < (int)sizeof dir)
				(void)rmdir(dir);
		}
		r->unlink_us = amc_mono_us() - u0;
	}
	drop_temp(s);
	for (size_t i = 0; i < doomed.n; i++)
		free(abs[i]);
	free(abs);
	strlist_free(&victims);
	strlist_free(&doomed);
	return result;
}
