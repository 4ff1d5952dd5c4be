/* tasks.c - task rows: idempotent create, updates, lookup by id prefix, paged
 * listing, and recovery of tasks whose owner died. */
#include "storage/store.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "storage/store_int.h"
#include "util/clock.h"
#include "util/lockfile.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define TASK_COLS                                                                        \
	"id, kind, goal, flow_path, flow_name, device, planner, status, created_ms, "    \
	"started_ms, finished_ms, steps, max_steps, summary, error, input_tokens, "      \
	"output_tokens, cost_usd, source_task_id, source_attempt, owner_pid, lock_name"

#define DEFAULT_LIMIT 50
#define AMBIGUOUS_SHOWN 5

static void read_task(sqlite3_stmt *st, amc_task_row *t)
{
	memset(t, 0, sizeof *t);
	t->id = amc_store_col_dup(st, 0);
	t->kind = amc_store_col_dup(st, 1);
	t->goal = amc_store_col_dup(st, 2);
	t->flow_path = amc_store_col_dup(st, 3);
	t->flow_name = amc_store_col_dup(st, 4);
	t->device = amc_store_col_dup(st, 5);
	t->planner = amc_store_col_dup(st, 6);
	t->status = amc_store_col_dup(st, 7);
	t->created_ms = amc_store_col_i64(st, 8, 0);
	t->started_ms = amc_store_col_i64(st, 9, 0);
	t->finished_ms = amc_store_col_i64(st, 10, 0);
	t->steps = (int)amc_store_col_i64(st, 11, 0);
	t->max_steps = (int)amc_store_col_i64(st, 12, 0);
	t->summary = amc_store_col_dup(st, 13);
	t->error = amc_store_col_dup(st, 14);
	t->input_tokens = amc_store_col_i64(st, 15, -1);
	t->output_tokens = amc_store_col_i64(st, 16, -1);
	t->cost_usd = sqlite3_column_type(st, 17) == SQLITE_NULL ? -1.0 : sqlite3_column_double(st, 17);
	t->source_task_id = amc_store_col_dup(st, 18);
	t->source_attempt = (int)amc_store_col_i64(st, 19, -1);
	t->owner_pid = (long)amc_store_col_i64(st, 20, 0);
	t->lock_name = amc_store_col_dup(st, 21);
}

void amc_task_row_free(amc_task_row *t)
{
	if (!t)
		return;
	free(t->id);
	free(t->kind);
	free(t->goal);
	free(t->flow_path);
	free(t->flow_name);
	free(t->device);
	free(t->planner);
	free(t->status);
	free(t->summary);
	free(t->error);
	free(t->source_task_id);
	free(t->lock_name);
	memset(t, 0, sizeof *t);
}

void amc_task_rows_free(amc_task_row *rows, size_t n)
{
	if (!rows)
		return;
	for (size_t i = 0; i < n; i++)
		amc_task_row_free(&rows[i]);
	free(rows);
}

/* User input echoed in a message goes through the terminal-safe filter. */
static int bad_id(amc_err *e, const char *id)
{
	char *safe = amc_sanitize_dup(id ? id : "");
	amc_err_set(e, AMC_EUSAGE,
		    "'%s' is not a task id: ids are 16 characters of 0-9 and a-z, and a unique "
		    "prefix is enough (see `amc tasks`)", safe);
	free(safe);
	return -1;
}

static int bad_status(amc_err *e, const char *status)
{
	char *safe = amc_sanitize_dup(status ? status : "(none)");
	amc_err_set(e, AMC_EUSAGE,
		    "unknown task status '%s': use one of queued, running, succeeded, failed, "
		    "cancelled, interrupted, waiting_user",
		    safe);
	free(safe);
	return -1;
}

int amc_store_create_task(amc_store *s, const amc_task_row *t, amc_err *e)
{
	if (!t || !amc_store_id_ok(t->id))
		return bad_id(e, t ? t->id : NULL);
	if (!t->kind || !t->kind[0])
		return amc_err_set(e, AMC_EUSAGE, "task %s has no kind (flow or goal)", t->id);
	const char *status = t->status ? t->status : "queued";
	if (!amc_store_status_ok(status))
		return bad_status(e, status);
	/* ON CONFLICT DO NOTHING: the runner creates the row for every
	 * entry path, and a caller that already created it must not fail or get a
	 * second row; the first row's fields win. */
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      "INSERT INTO tasks (" TASK_COLS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
			      "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22) "
			      "ON CONFLICT(id) DO NOTHING",
			      &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, t->id, &rc);
	amc_store_bind_text(st, 2, t->kind, &rc);
	amc_store_bind_text(st, 3, t->goal, &rc);
	amc_store_bind_text(st, 4, t->flow_path, &rc);
	amc_store_bind_text(st, 5, t->flow_name, &rc);
	amc_store_bind_text(st, 6, t->device, &rc);
	amc_store_bind_text(st, 7, t->planner, &rc);
	amc_store_bind_text(st, 8, status, &rc);
	amc_store_bind_i64(st, 9, t->created_ms > 0 ? t->created_ms : amc_now_ms(), &rc);
	amc_store_bind_pos(st, 10, t->started_ms, &rc);
	amc_store_bind_pos(st, 11, t->finished_ms, &rc);
	amc_store_bind_i64(st, 12, t->steps, &rc);
	amc_store_bind_i64(st, 13, t->max_steps, &rc);
	amc_store_bind_text(st, 14, t->summary, &rc);
	amc_store_bind_text(st, 15, t->error, &rc);
	amc_store_bind_nonneg(st, 16, t->input_tokens, &rc);
	amc_store_bind_nonneg(st, 17, t->output_tokens, &rc);
	if (rc == SQLITE_OK)
		rc = t->cost_usd >= 0 ? sqlite3_bind_double(st, 18, t->cost_usd) : sqlite3_bind_null(st, 18);
	amc_store_bind_text(st, 19, t->source_task_id, &rc);
	amc_store_bind_nonneg(st, 20, t->source_attempt, &rc);
	amc_store_bind_pos(st, 21, t->owner_pid, &rc);
	amc_store_bind_text(st, 22, t->lock_name, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		char what[64];
		snprintf(what, sizeof what, "create task %s", t->id);
		return amc_store_sql_error_rc(s, rc, e, what);
	}
	return 0;
}

int amc_store_update_task(amc_store *s, const amc_task_row *t, amc_err *e)
{
	if (!t || !amc_store_id_ok(t->id))
		return bad_id(e, t ? t->id : NULL);
	if (!amc_store_status_ok(t->status))
		return bad_status(e, t->status);
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      "UPDATE tasks SET status = ?2, started_ms = ?3, finished_ms = ?4, steps = ?5, "
			      "summary = ?6, error = ?7, input_tokens = ?8, output_tokens = ?9, "
			      "cost_usd = ?10, owner_pid = ?11, lock_name = ?12 WHERE id = ?1",
			      &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, t->id, &rc);
	amc_store_bind_text(st, 2, t->status, &rc);
	amc_store_bind_pos(st, 3, t->started_ms, &rc);
	amc_store_bind_pos(st, 4, t->finished_ms, &rc);
	amc_store_bind_i64(st, 5, t->steps, &rc);
	amc_store_bind_text(st, 6, t->summary, &rc);
	amc_store_bind_text(st, 7, t->error, &rc);
	amc_store_bind_nonneg(st, 8, t->input_tokens, &rc);
	amc_store_bind_nonneg(st, 9, t->output_tokens, &rc);
	if (rc == SQLITE_OK)
		rc = t->cost_usd >= 0 ? sqlite3_bind_double(st, 10, t->cost_usd) : sqlite3_bind_null(st, 10);
	amc_store_bind_pos(st, 11, t->owner_pid, &rc);
	amc_store_bind_text(st, 12, t->lock_name, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		char what[64];
		snprintf(what, sizeof what, "update task %s", t->id);
		return amc_store_sql_error_rc(s, rc, e, what);
	}
	if (sqlite3_changes(s->db) == 0)
		return amc_err_set(e, AMC_EUSAGE, "no task %s to update (create it first)", t->id);
	return 0;
}

/* 1 and *out filled when the exact id exists, 0 when not, -1 on error. */
static int fetch_exact(amc_store *s, const char *id, amc_task_row *out, amc_err *e)
{
	sqlite3_stmt *st;
	if (amc_store_prepare(s, "SELECT " TASK_COLS " FROM tasks WHERE id = ?1", &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, id, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	int found = 0;
	if (rc == SQLITE_ROW) {
		read_task(st, out);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		return amc_store_sql_error_rc(s, rc, e, "read a task");
	}
	sqlite3_finalize(st);
	return found;
}

int amc_store_get_task(amc_store *s, const char *id_or_prefix, amc_task_row *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	if (!id_or_prefix || !id_or_prefix[0])
		return amc_err_set(e, AMC_EUSAGE, "no task id given (see `amc tasks`)");
	/* Ids are lower case; accept a prefix typed in capitals. */
	char p[17];
	size_t n = strlen(id_or_prefix);
	if (n > 16)
		return bad_id(e, id_or_prefix);
	for (size_t i = 0; i <= n; i++) {
		char c = id_or_prefix[i];
		p[i] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
	}
	for (size_t i = 0; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'z')))
			return bad_id(e, id_or_prefix);
	if (n == 16) {
		int rc = fetch_exact(s, p, out, e);
		if (rc < 0)
			return -1;
		if (rc == 1)
			return 0;
		return amc_err_set(e, AMC_EUSAGE, "no task matches '%s' (see `amc tasks`)", p);
	}
	/* A range on the primary key finds a prefix with the index: every id that
	 * starts with p lies in [p, p + "~"), as ids use only [0-9a-z] (< '~'). */
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      "SELECT id, (SELECT count(*) FROM tasks WHERE id >= ?1 AND id < ?1 || '~') "
			      "FROM tasks WHERE id >= ?1 AND id < ?1 || '~' ORDER BY id DESC LIMIT ?2",
			      &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, p, &rc);
	amc_store_bind_i64(st, 2, AMBIGUOUS_SHOWN, &rc);
	char ids[AMBIGUOUS_SHOWN][17];
	int got = 0;
	long total = 0;
	while (rc == SQLITE_OK || rc == SQLITE_ROW) {
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW)
			break;
		snprintf(ids[got], sizeof ids[got], "%s", (const char *)sqlite3_column_text(st, 0));
		total = (long)sqlite3_column_int64(st, 1);
		got++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return amc_store_sql_error_rc(s, rc, e, "look up a task by id prefix");
	if (got == 0)
		return amc_err_set(e, AMC_EUSAGE, "no task matches '%s' (see `amc tasks`)", p);
	if (total > 1) {
		amc_sb sb;
		amc_sb_init(&sb);
		for (int i = 0; i < got; i++)
			amc_sb_printf(&sb, "%s%s", i ? ", " : "", ids[i]);
		if (total > got)
			amc_sb_printf(&sb, " and %ld more", total - got);
		amc_err_set(e, AMC_EUSAGE, "'%s' matches %ld tasks (%s): give more characters of the id",
			    p, total, amc_sb_str(&sb));
		amc_sb_free(&sb);
		return -1;
	}
	rc = fetch_exact(s, ids[0], out, e);
	if (rc < 0)
		return -1;
	if (rc == 0) /* removed between the two queries */
		return amc_err_set(e, AMC_EUSAGE, "no task matches '%s' (see `amc tasks`)", p);
	return 0;
}

/* ---- short ids (git-style abbreviation) ------------------------------------ */

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;
	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

/* The id just before (dir < 0) or after (dir > 0) `id` in key order, "" when none. */
static int neighbour_id(amc_store *s, const char *id, int dir, char out[AMC_ID_SIZE], amc_err *e)
{
	out[0] = '\0';
	sqlite3_stmt *st;
	const char *sql = dir < 0 ? "SELECT id FROM tasks WHERE id < ?1 ORDER BY id DESC LIMIT 1"
				  : "SELECT id FROM tasks WHERE id > ?1 ORDER BY id LIMIT 1";
	if (amc_store_prepare(s, sql, &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, id, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		snprintf(out, AMC_ID_SIZE, "%s", v ? v : "");
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return amc_store_sql_error_rc(s, rc, e, "read the neighbouring task id");
	return 0;
}

int amc_store_short_id(amc_store *s, const char *id, char out[AMC_ID_SIZE], amc_err *e)
{
	snprintf(out, AMC_ID_SIZE, "%s", id ? id : "");
	if (!id || strlen(id) != AMC_ID_LEN)
		return 0; /* not a full id: shown as it is */
	char prev[AMC_ID_SIZE], next[AMC_ID_SIZE];
	if (neighbour_id(s, id, -1, prev, e) != 0 || neighbour_id(s, id, 1, next, e) != 0)
		return -1;
	/* Sorted keys: the nearest ids share the longest prefixes with `id`. */
	size_t need = common_prefix(id, prev);
	size_t b = common_prefix(id, next);
	need = (b > need ? b : need) + 1;
	if (need < AMC_SHORT_ID_LEN)
		need = AMC_SHORT_ID_LEN;
	if (need > AMC_ID_LEN)
		need = AMC_ID_LEN;
	out[need] = '\0';
	return 0;
}

int amc_store_short_id_len(amc_store *s, amc_err *e)
{
	sqlite3_stmt *st;
	if (amc_store_prepare(s, "SELECT id FROM tasks ORDER BY id", &st, e) != 0)
		return -1;
	size_t need = AMC_SHORT_ID_LEN;
	char prev[AMC_ID_SIZE] = "";
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		if (!v)
			continue;
		size_t c = common_prefix(prev, v) + 1;
		if (c > need)
			need = c;
		snprintf(prev, sizeof prev, "%s", v);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return amc_store_sql_error_rc(s, rc, e, "read the task ids");
	return (int)(need > AMC_ID_LEN ? AMC_ID_LEN : need);
}

/* ---- listing --------------------------------------------------------------- */

/* The WHERE clause from fixed fragments (so an absent filter costs nothing and
 * the status index stays usable); values are always bound: ?1 status, ?2 the
 * LIKE pattern. */
static int build_where(const amc_task_filter *f, amc_sb *sql, char **pattern, amc_err *e)
{
	*pattern = NULL;
	int have_status = f && f->status && f->status[0];
	int have_search = f && f->search && f->search[0];
	if (have_status && !amc_store_status_ok(f->status))
		return bad_status(e, f->status);
	amc_sb_puts(sql, " WHERE 1");
	if (have_status)
		amc_sb_puts(sql, " AND status = ?1");
	if (have_search) {
		amc_sb_puts(sql, " AND (id LIKE ?2 ESCAPE '\\' OR goal LIKE ?2 ESCAPE '\\'"
				 " OR flow_name LIKE ?2 ESCAPE '\\')");
		/* A plain substring: the LIKE wildcards in it are escaped. */
		amc_sb pat;
		amc_sb_init(&pat);
		amc_sb_putc(&pat, '%');
		for (const char *c = f->search; *c; c++) {
			if (*c == '%' || *c == '_' || *c == '\\')
				amc_sb_putc(&pat, '\\');
			amc_sb_putc(&pat, *c);
		}
		amc_sb_putc(&pat, '%');
		*pattern = amc_sb_detach(&pat);
	}
	return 0;
}

static int bind_filter(sqlite3_stmt *st, const amc_task_filter *f, const char *pattern)
{
	int rc = SQLITE_OK;
	if (f && f->status && f->status[0])
		amc_store_bind_text(st, 1, f->status, &rc);
	if (pattern)
		amc_store_bind_text(st, 2, pattern, &rc);
	return rc;
}

/* ---- orders and keyset paging ---------------------------------------------
 * Each order as SQL with its key, and the condition "the row sorts after the
 * anchor" (?5 status, ?6 duration, ?7 created_ms, ?8 id). The condition and
 * order for "before" are the same text with < and > swapped and ASC and DESC
 * swapped, which is why the duration expression has neither < nor >. */
#define DUR_EXPR "(CASE WHEN started_ms IS NULL OR finished_ms IS NULL THEN -1 ELSE max(finished_ms - started_ms, 0) END)"
static const struct sort_sql {
	const char *name, *order, *after;
} SORTS[AMC_SORT_COUNT] = {
	{ "newest", "created_ms DESC, id DESC", "(created_ms < ?7 OR (created_ms = ?7 AND id < ?8))" },
	{ "oldest", "created_ms ASC, id ASC", "(created_ms > ?7 OR (created_ms = ?7 AND id > ?8))" },
	{ "status", "status ASC, created_ms DESC, id DESC",
	  "(status > ?5 OR (status = ?5 AND (created_ms < ?7 OR (created_ms = ?7 AND id < ?8))))" },
	{ "duration", DUR_EXPR " DESC, created_ms DESC, id DESC",
	  "(" DUR_EXPR " < ?6 OR (" DUR_EXPR " = ?6 AND (created_ms < ?7 OR (created_ms = ?7 AND id < ?8))))" },
};

static amc_task_sort sort_of(const amc_task_filter *f)
{
	return f && f->sort > 0 && f->sort < AMC_SORT_COUNT ? f->sort : AMC_SORT_NEWEST;
}

const char *amc_store_sort_name(amc_task_sort sort)
{
	return SORTS[sort > 0 && sort < AMC_SORT_COUNT ? sort : AMC_SORT_NEWEST].name;
}

/* `text` with < and >, and ASC and DESC, swapped. */
static void put_reversed(amc_sb *sql, const char *text)
{
	for (const char *c = text; *c; c++) {
		if (!strncmp(c, "DESC", 4)) {
			amc_sb_puts(sql, "ASC");
			c += 3;
		} else if (!strncmp(c, "ASC", 3)) {
			amc_sb_puts(sql, "DESC");
			c += 2;
		} else {
			amc_sb_putc(sql, *c == '<' ? '>' : *c == '>' ? '<' : *c);
		}
	}
}

static void bind_anchor(sqlite3_stmt *st, const amc_task_row *a, int *rc)
{
	long long dur = a->started_ms > 0 && a->finished_ms > 0 ?
			(a->finished_ms > a->started_ms ? a->finished_ms - a->started_ms : 0) : -1;
	amc_store_bind_text(st, 5, a->status ? a->status : "", rc);
	amc_store_bind_i64(st, 6, dur, rc);
	amc_store_bind_i64(st, 7, a->created_ms, rc);
	amc_store_bind_text(st, 8, a->id ? a->id : "", rc);
}

static int run_list(amc_store *s, sqlite3_stmt *st, int rc, amc_task_row **out, size_t *n, amc_err *e)
{
	amc_task_row *rows = NULL;
	size_t cnt = 0, cap = 0;
	while (rc == SQLITE_OK || rc == SQLITE_ROW) {
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW)
			break;
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			rows = amc_xrealloc(rows, cap * sizeof *rows);
		}
		read_task(st, &rows[cnt++]);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		amc_task_rows_free(rows, cnt);
		return amc_store_sql_error_rc(s, rc, e, "list tasks");
	}
	*out = rows;
	*n = cnt;
	return 0;
}

int amc_store_list_tasks_at(amc_store *s, const amc_task_filter *f, const amc_task_row *anchor, int dir,
			    amc_task_row **out, size_t *n, amc_err *e)
{
	*out = NULL;
	*n = 0;
	const struct sort_sql *so = &SORTS[sort_of(f)];
	amc_sb sql;
	amc_sb_init(&sql);
	char *pattern;
	amc_sb_puts(&sql, "SELECT " TASK_COLS " FROM tasks");
	if (build_where(f, &sql, &pattern, e) != 0) {
		amc_sb_free(&sql);
		return -1;
	}
	if (anchor) {
		amc_sb_puts(&sql, " AND (");
		if (dir < 0)
			put_reversed(&sql, so->after);
		else
			amc_sb_puts(&sql, so->after);
		if (dir == 0)
			amc_sb_puts(&sql, " OR id = ?8");
		amc_sb_puts(&sql, ")");
	}
	amc_sb_puts(&sql, " ORDER BY ");
	if (dir < 0)
		put_reversed(&sql, so->order);
	else
		amc_sb_puts(&sql, so->order);
	amc_sb_puts(&sql, " LIMIT ?3");
	sqlite3_stmt *st;
	int prc = amc_store_prepare(s, amc_sb_str(&sql), &st, e);
	amc_sb_free(&sql);
	if (prc != 0) {
		free(pattern);
		return -1;
	}
	int rc = bind_filter(st, f, pattern);
	amc_store_bind_i64(st, 3, f && f->limit > 0 ? f->limit : DEFAULT_LIMIT, &rc);
	if (anchor)
		bind_anchor(st, anchor, &rc);
	int r = run_list(s, st, rc, out, n, e);
	free(pattern);
	if (r == 0 && dir < 0)
		for (size_t i = 0; i < *n / 2; i++) { /* nearest first -> list order */
			amc_task_row tmp = (*out)[i];
			(*out)[i] = (*out)[*n - 1 - i];
			(*out)[*n - 1 - i] = tmp;
		}
	return r;
}

long amc_store_count_tasks_before(amc_store *s, const amc_task_filter *f, const amc_task_row *anchor, amc_err *e)
{
	if (!anchor)
		return 0;
	amc_sb sql;
	amc_sb_init(&sql);
	char *pattern;
	amc_sb_puts(&sql, "SELECT count(*) FROM tasks");
	if (build_where(f, &sql, &pattern, e) != 0) {
		amc_sb_free(&sql);
		return -1;
	}
	amc_sb_puts(&sql, " AND ");
	put_reversed(&sql, SORTS[sort_of(f)].after);
	sqlite3_stmt *st;
	int prc = amc_store_prepare(s, amc_sb_str(&sql), &st, e);
	amc_sb_free(&sql);
	if (prc != 0) {
		free(pattern);
		return -1;
	}
	int rc = bind_filter(st, f, pattern);
	bind_anchor(st, anchor, &rc);
	long count = 0;
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		count = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	free(pattern);
	if (rc != SQLITE_ROW)
		return amc_store_sql_error_rc(s, rc, e, "count tasks");
	return count;
}

int amc_store_list_tasks(amc_store *s, const amc_task_filter *f, amc_task_row **out, size_t *n,
			 amc_err *e)
{
	*out = NULL;
	*n = 0;
	amc_sb sql;
	amc_sb_init(&sql);
	char *pattern;
	amc_sb_puts(&sql, "SELECT " TASK_COLS " FROM tasks");
	if (build_where(f, &sql, &pattern, e) != 0) {
		amc_sb_free(&sql);
		return -1;
	}
	amc_sb_printf(&sql, " ORDER BY %s LIMIT ?3 OFFSET ?4", SORTS[sort_of(f)].order);
	sqlite3_stmt *st;
	int prc = amc_store_prepare(s, amc_sb_str(&sql), &st, e);
	amc_sb_free(&sql);
	if (prc != 0) {
		free(pattern);
		return -1;
	}
	int rc = bind_filter(st, f, pattern);
	amc_store_bind_i64(st, 3, f && f->limit > 0 ? f->limit : DEFAULT_LIMIT, &rc);
	amc_store_bind_i64(st, 4, f && f->offset > 0 ? f->offset : 0, &rc);
	int r = run_list(s, st, rc, out, n, e);
	free(pattern); /* bound as static text: freed after run_list finalized */
	return r;
}

long amc_store_count_tasks(amc_store *s, const amc_task_filter *f, amc_err *e)
{
	amc_sb sql;
	amc_sb_init(&sql);
	char *pattern;
	amc_sb_puts(&sql, "SELECT count(*) FROM tasks");
	if (build_where(f, &sql, &pattern, e) != 0) {
		amc_sb_free(&sql);
		return -1;
	}
	sqlite3_stmt *st;
	int prc = amc_store_prepare(s, amc_sb_str(&sql), &st, e);
	amc_sb_free(&sql);
	if (prc != 0) {
		free(pattern);
		return -1;
	}
	int rc = bind_filter(st, f, pattern);
	long count = 0;
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		count = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	free(pattern);
	if (rc != SQLITE_ROW)
		return amc_store_sql_error_rc(s, rc, e, "count tasks");
	return count;
}

/* ---- recovery -------------------------------------------------------------- */

typedef struct orphan_cand {
	char *id;
	char *status;
	long pid;
	char *lock;
} orphan_cand;

/* Only ESRCH proves a process gone; EPERM means it exists under another user. */
static int pid_dead(long pid)
{
	return pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

static int mark_interrupted(amc_store *s, const orphan_cand *c, amc_err *e)
{
	char msg[160];
	if (c->pid > 0)
		snprintf(msg, sizeof msg,
			 "the amc process running this task (pid %ld) stopped before it finished", c->pid);
	else
		snprintf(msg, sizeof msg, "the amc process running this task stopped before it finished");
	/* The status guard keeps a row that moved on meanwhile as it is. */
	int queued = !strcmp(c->status, "queued");
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      queued ? "UPDATE tasks SET status = 'interrupted', error = ?2, finished_ms = ?3 "
				       "WHERE id = ?1 AND status = 'queued'"
				     : "UPDATE tasks SET status = 'interrupted', error = ?2, finished_ms = ?3 "
				       "WHERE id = ?1 AND status IN ('running', 'waiting_user')",
			      &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, c->id, &rc);
	amc_store_bind_text(st, 2, msg, &rc);
	amc_store_bind_i64(st, 3, amc_now_ms(), &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		char what[64];
		snprintf(what, sizeof what, "mark task %s interrupted", c->id);
		return amc_store_sql_error_rc(s, rc, e, what);
	}
	if (sqlite3_changes(s->db) == 0)
		return 0;
	/* The dead owner may have been writing an artifact: no temp file outlives
	 * this start (check-hardening's kill -9 part found them left). */
	amc_store_sweep_tmp(s, c->id);
	return 1;
}

/* A running task's process holds the flock named by its lock_name for the
 * task's whole duration, and the kernel drops it when the process dies. So:
 * lock free -> the owner is gone. We take the lock while updating, so no new
 * owner can start on that device between our check and our write. */
static int recover_running(amc_store *s, const orphan_cand *c, amc_err *e)
{
	if (!c->lock || !c->lock[0]) {
		/* No lock recorded: the pid is all we have; a live one keeps the row. */
		if (c->pid > 0 && !pid_dead(c->pid))
			return 0;
		return mark_interrupted(s, c, e);
	}
	char note[64], holder[256];
	snprintf(note, sizeof note, "recover pid %ld", (long)getpid());
	amc_lock *l = NULL;
	amc_err le;
	int rc = amc_lock_try(s->home, c->lock, note, &l, holder, sizeof holder, &le);
	if (rc == 0) {
		int r = mark_interrupted(s, c, e);
		amc_lock_release(l);
		return r;
	}
	if (rc == 1) {
		/* Held: normally by this task's live owner. But if the note names
		 * another task, the device has moved on to it (one task holds a device
		 * at a time), so this row's owner died before it could finish. */
		char first[32] = "";
		sscanf(holder, "%31s", first);
		if (amc_store_id_ok(first) && strcmp(first, c->id) != 0)
			return mark_interrupted(s, c, e);
		return 0;
	}
	/* The lock cannot be checked (e.g. an unreadable locks folder): leave the
	 * row as it is rather than guess; the next open tries again. */
	return 0;
}

int amc_store_recover(amc_store *s, amc_err *e)
{
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      "SELECT id, status, owner_pid, lock_name FROM tasks "
			      "WHERE status IN ('running', 'waiting_user', 'queued')",
			      &st, e) != 0)
		return -1;
	/* Collect first: the checks take locks and write, better with no open cursor. */
	orphan_cand *c = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			c = amc_xrealloc(c, cap * sizeof *c);
		}
		c[n].id = amc_store_col_dup(st, 0);
		c[n].status = amc_store_col_dup(st, 1);
		c[n].pid = (long)amc_store_col_i64(st, 2, 0);
		c[n].lock = amc_store_col_dup(st, 3);
		n++;
	}
	sqlite3_finalize(st);
	int result = 0;
	if (rc != SQLITE_DONE) {
		result = amc_store_sql_error_rc(s, rc, e, "find tasks left running");
	} else {
		for (size_t i = 0; i < n; i++) {
			int r;
			if (!c[i].id || !c[i].status)
				continue;
			if (!strcmp(c[i].status, "queued"))
				r = pid_dead(c[i].pid) ? mark_interrupted(s, &c[i], e) : 0;
			else
				r = recover_running(s, &c[i], e);
			if (r < 0) {
				result = -1;
				break;
			}
			result += r;
		}
	}
	for (size_t i = 0; i < n; i++) {
		free(c[i].id);
		free(c[i].status);
		free(c[i].lock);
	}
	free(c);
	return result;
}
