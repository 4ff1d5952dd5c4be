/* search.c - querying the full-text index that search_schema.h's triggers
 * keep, and the visible text of an observation that the runner stores for it. */
#include "storage/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "storage/search_schema.h"
#include "storage/store_int.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

void amc_search_hits_free(amc_search_hit *hits, size_t n)
{
	if (!hits)
		return;
	for (size_t i = 0; i < n; i++) {
		free(hits[i].task_id);
		free(hits[i].field);
		free(hits[i].snippet);
		free(hits[i].task_status);
		free(hits[i].task_title);
		free(hits[i].tool);
	}
	free(hits);
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

char *amc_search_quote(const char *words)
{
	amc_sb sb;
	amc_sb_init(&sb);
	int any = 0;
	for (const char *p = words ? words : ""; *p;) {
		while (*p && is_space((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (any)
			amc_sb_putc(&sb, ' ');
		amc_sb_putc(&sb, '"');
		for (; *p && !is_space((unsigned char)*p); p++) {
			if (*p == '"')
				amc_sb_putc(&sb, '"');
			amc_sb_putc(&sb, *p);
		}
		amc_sb_putc(&sb, '"');
		any = 1;
	}
	if (!any) {
		amc_sb_free(&sb);
		return NULL;
	}
	return amc_sb_detach(&sb);
}

/* ---- visible text ------------------------------------------------------- */

/* A small set of strings seen, so each tree text is indexed once per screen
 * (a list repeats its labels; the index gains nothing from the copies). */
typedef struct seen_set {
	const char **slot;
	size_t cap, n;
} seen_set;

static unsigned long hash_str(const char *s)
{
	unsigned long h = 1469598103934665603UL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211UL;
	return h;
}

/* 1 when `s` was not in the set (and is now), 0 when it was. */
static int seen_add(seen_set *set, const char *s)
{
	if (set->n * 2 >= set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 64;
		const char **slot = amc_xcalloc(cap, sizeof *slot);
		for (size_t i = 0; i < set->cap; i++) {
			if (!set->slot[i])
				continue;
			size_t j = hash_str(set->slot[i]) & (cap - 1);
			while (slot[j])
				j = (j + 1) & (cap - 1);
			slot[j] = set->slot[i];
		}
		free(set->slot);
		set->slot = slot;
		set->cap = cap;
	}
	size_t j = hash_str(s) & (set->cap - 1);
	for (; set->slot[j]; j = (j + 1) & (set->cap - 1))
		if (!strcmp(set->slot[j], s))
			return 0;
	set->slot[j] = s;
	set->n++;
	return 1;
}

/* Append `s` as one line, unless it is empty, seen already or over the bound. */
static void put_line(amc_sb *sb, seen_set *set, const char *s)
{
	if (!s || !*s || sb->len >= AMC_SEARCH_SCREEN_MAX || !seen_add(set, s))
		return;
	size_t len = strlen(s), room = AMC_SEARCH_SCREEN_MAX - sb->len;
	if (len + 1 > room)
		return; /* a partial text would index half a word */
	amc_sb_append(sb, s, len);
	amc_sb_putc(sb, '\n');
}

char *amc_search_visible_text(const amc_ui_tree *tree, const char *ocr_json)
{
	amc_sb sb;
	amc_sb_init(&sb);
	seen_set set = { 0 };
	for (size_t i = 0; tree && i < tree->count; i++) {
		const amc_ui_node *n = &tree->nodes[i];
		if (!(n->flags & AMC_NODE_DISPLAYED) || (n->flags & AMC_NODE_PASSWORD))
			continue;
		put_line(&sb, &set, n->text);
		put_line(&sb, &set, n->content_desc);
		put_line(&sb, &set, n->hint);
	}
	free(set.slot);
	/* OCR words in the order read, on one line, so a phrase across words
	 * ("Payment failed") still matches; not de-duplicated for that reason. */
	cJSON *ocr = ocr_json ? cJSON_Parse(ocr_json) : NULL;
	if (!cJSON_IsArray(ocr)) {
		cJSON_Delete(ocr);
		ocr = NULL;
	}
	int words = 0;
	const cJSON *w;
	cJSON_ArrayForEach(w, ocr) {
		const char *t = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(w, "text"));
		if (!t || !*t)
			continue;
		size_t len = strlen(t);
		if (sb.len + len + 2 > AMC_SEARCH_SCREEN_MAX)
			break;
		if (words++)
			amc_sb_putc(&sb, ' ');
		amc_sb_append(&sb, t, len);
	}
	if (words)
		amc_sb_putc(&sb, '\n');
	cJSON_Delete(ocr);
	return amc_sb_detach(&sb);
}

/* ---- search ------------------------------------------------------------- */

/* FTS5 reports a bad expression as SQLITE_ERROR with one of these. */
static int fts_syntax_error(const char *msg)
{
	return msg && (strstr(msg, "fts5:") || strstr(msg, "no such column") ||
		       strstr(msg, "unknown special query") || strstr(msg, "malformed MATCH"));
}

static int check_query(const amc_search_query *q, amc_err *e)
{
	if (!q->text || !*q->text)
		return amc_err_set(e, AMC_EUSAGE, "search for what? give one or more words");
	if (strlen(q->text) > AMC_SEARCH_QUERY_MAX)
		return amc_err_set(e, AMC_EUSAGE, "the search is %zu bytes long; the most is %d",
				   strlen(q->text), AMC_SEARCH_QUERY_MAX);
	if (q->task_id && !amc_store_id_ok(q->task_id)) {
		char *safe = amc_sanitize_dup(q->task_id);
		amc_err_set(e, AMC_EUSAGE, "'%s' is not a task id (see `amc tasks`)", safe);
		free(safe);
		return -1;
	}
	if (q->status && !amc_store_status_ok(q->status)) {
		char *safe = amc_sanitize_dup(q->status);
		amc_err_set(e, AMC_EUSAGE, "unknown status '%s' (see `amc tasks --help`)", safe);
		free(safe);
		return -1;
	}
	return 0;
}

int amc_store_search(amc_store *s, const amc_search_query *q, amc_search_hit **out, size_t *n, amc_err *e)
{
	*out = NULL;
	*n = 0;
	if (check_query(q, e) != 0)
		return -1;
	char *expr = q->fts ? amc_xstrdup(q->text) : amc_search_quote(q->text);
	if (!expr)
		return amc_err_set(e, AMC_EUSAGE, "search for what? give one or more words");
	int limit = q->limit <= 0 ? 20 : q->limit > AMC_SEARCH_LIMIT_MAX ? AMC_SEARCH_LIMIT_MAX : q->limit;
	/* Driven by the FTS5 index in descending rowid order, which it produces
	 * itself: no sort, and snippet() runs only for the rows returned. Only the
	 * filters asked for are in the SQL, so the plan stays that simple. */
	amc_sb sql;
	amc_sb_init(&sql);
	/* search_map and the records directly rather than the view search_doc
	 * (which snippet() reads, through FTS5): one lookup of the task and the
	 * step per row instead of two. created_ms as the view computes it. */
	amc_sb_puts(&sql,
		    "SELECT m.id, k.id, m.step, " AMC_SEARCH_FIELD_NAME("m.field") ","
		    " snippet(search_fts, 0, char(2), char(3), '…', 16), " AMC_SEARCH_CREATED("m", "k", "t") ","
		    " k.status, COALESCE(NULLIF(k.goal, ''), NULLIF(k.flow_name, ''), k.flow_path), t.tool"
		    " FROM search_fts JOIN search_map m ON m.id = search_fts.rowid"
		    " JOIN tasks k ON k.search_key = m.tkey"
		    " LEFT JOIN timeline t ON t.task_id = k.id AND t.step = m.step WHERE search_fts MATCH ?1");
	if (q->task_id)
		amc_sb_puts(&sql, " AND k.id = ?2");
	if (q->status)
		amc_sb_puts(&sql, " AND k.status = ?3");
	if (q->since_ms > 0)
		amc_sb_puts(&sql, " AND " AMC_SEARCH_CREATED("m", "k", "t") " >= ?4");
	if (q->before_id > 0)
		amc_sb_puts(&sql, " AND search_fts.rowid < ?5");
	amc_sb_puts(&sql, " ORDER BY search_fts.rowid DESC LIMIT ?6");
	sqlite3_stmt *st;
	int prc = amc_store_prepare(s, amc_sb_str(&sql), &st, e);
	amc_sb_free(&sql);
	if (prc != 0) {
		free(expr);
		return -1;
	}
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, expr, &rc);
	if (q->task_id)
		amc_store_bind_text(st, 2, q->task_id, &rc);
	if (q->status)
		amc_store_bind_text(st, 3, q->status, &rc);
	if (q->since_ms > 0)
		amc_store_bind_i64(st, 4, q->since_ms, &rc);
	if (q->before_id > 0)
		amc_store_bind_i64(st, 5, q->before_id, &rc);
	amc_store_bind_i64(st, 6, limit, &rc);
	amc_search_hit *hits = NULL;
	size_t cnt = 0;
	if (rc == SQLITE_OK)
		hits = amc_xcalloc((size_t)limit, sizeof *hits);
	while (rc == SQLITE_OK || rc == SQLITE_ROW) {
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW || cnt == (size_t)limit)
			break;
		amc_search_hit *h = &hits[cnt++];
		h->id = amc_store_col_i64(st, 0, 0);
		h->task_id = amc_store_col_dup(st, 1);
		h->step = (int)amc_store_col_i64(st, 2, 0);
		h->field = amc_store_col_dup(st, 3);
		h->snippet = amc_store_col_dup(st, 4);
		h->created_ms = amc_store_col_i64(st, 5, 0);
		h->task_status = amc_store_col_dup(st, 6);
		h->task_title = amc_store_col_dup(st, 7);
		h->tool = amc_store_col_dup(st, 8);
	}
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE; /* the LIMIT is in the SQL; this is only a guard */
	if (rc != SQLITE_DONE) {
		sqlite3 *db = amc_store_db(s);
		const char *msg = sqlite3_errmsg(db);
		if (q->fts && fts_syntax_error(msg)) {
			char *safe = amc_sanitize_dup(msg);
			amc_err_set(e, AMC_EUSAGE,
				    "bad search expression: %s (FTS5 syntax: \"a phrase\", prefix*, AND, OR, "
				    "NOT, parentheses; without --fts the words are searched as they are)",
				    safe);
			free(safe);
		} else {
			amc_store_sql_error_rc(s, rc, e, "search the index");
		}
		sqlite3_finalize(st);
		free(expr);
		amc_search_hits_free(hits, cnt);
		return -1;
	}
	sqlite3_finalize(st);
	free(expr);
	*out = hits;
	*n = cnt;
	return 0;
}
