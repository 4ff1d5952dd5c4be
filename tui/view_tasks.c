/* view_tasks.c - the Tasks view: every task, newest first (or oldest, by
 * status, by duration: `s`), read one screen page at a time from SQLite
 * (never the whole table), by keyset so that a page deep down costs what the
 * first one does. */
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/session.h"
#include "tui/text.h"
#include "util/clock.h"
#include "util/status.h"
#include "util/strbuf.h"

/* The order f cycles through (all, then the statuses worth a look first). */
static const char *const FILTERS[] = { NULL, AMC_ST_RUNNING, AMC_ST_SUCCEEDED, AMC_ST_FAILED,
				       AMC_ST_CANCELLED, AMC_ST_INTERRUPTED, AMC_ST_QUEUED };
#define NFILTERS (sizeof FILTERS / sizeof FILTERS[0])

typedef struct tasks_view {
	amc_task_row *rows;
	size_t nrows;
	long total;
	long top, sel;        /* indices into the filtered list */
	int page;             /* rows that fit */
	int filter;
	amc_task_sort sort;
	char *search;
	int step_search;      /* S: / searches inside steps (the Search view) */
	char sel_id[32];      /* the selected task, followed across live updates */
	int idw;              /* ID column: long enough for every id to be unique here (git-style) */
} tasks_view;

static void remember(tasks_view *t)
{
	long i = t->sel - t->top;
	if (i >= 0 && (size_t)i < t->nrows)
		snprintf(t->sel_id, sizeof t->sel_id, "%s", t->rows[i].id);
	else
		t->sel_id[0] = 0;
}

/* The filter and order of the list, for a page of `limit` rows. */
static amc_task_filter filter_of(const tasks_view *t, int limit)
{
	amc_task_filter f = { FILTERS[t->filter], t->search, limit > 0 ? limit : 1, 0, t->sort };
	return f;
}

static void set_rows(tasks_view *t, amc_task_row *rows, size_t n)
{
	amc_task_rows_free(t->rows, t->nrows);
	t->rows = rows;
	t->nrows = n;
}

/* A row's sort key, copied so that it outlives the page it came from. */
typedef struct key_copy {
	amc_task_row row;
	char id[64], status[32];
} key_copy;

static const amc_task_row *key_of(key_copy *k, const amc_task_row *r)
{
	memset(k, 0, sizeof *k);
	snprintf(k->id, sizeof k->id, "%s", r->id);
	snprintf(k->status, sizeof k->status, "%s", r->status);
	k->row.id = k->id;
	k->row.status = k->status;
	k->row.created_ms = r->created_ms;
	k->row.started_ms = r->started_ms;
	k->row.finished_ms = r->finished_ms;
	return &k->row;
}

/* Bring the page starting at index `top` on screen. Moving by up to a page
 * reads only the rows next to the current page (keyset paging: O(page) at
 * any depth); the start and the end of the list are anchored there; only a
 * jump elsewhere (none of the keys does one) falls back to an offset. */
static int go(amc_tui_app *a, tasks_view *t, long top)
{
	int page = t->page > 0 ? t->page : 50;
	amc_task_row *rows = NULL;
	size_t n = 0;
	amc_err e;
	int rc;
	long d = top - t->top;
	if (top <= 0) {
		amc_task_filter f = filter_of(t, page);
		rc = amc_store_list_tasks_at(a->store, &f, NULL, 1, &rows, &n, &e);
		top = 0;
	} else if (top + page >= t->total) {
		amc_task_filter f = filter_of(t, page);
		rc = amc_store_list_tasks_at(a->store, &f, NULL, -1, &rows, &n, &e);
		top = t->total - (long)n;
	} else if (d > 0 && (size_t)d <= t->nrows) {
		key_copy k;
		amc_task_filter f = filter_of(t, page);
		rc = amc_store_list_tasks_at(a->store, &f, key_of(&k, &t->rows[d - 1]), 1, &rows, &n, &e);
	} else if (d < 0 && -d <= page && t->nrows > 0) {
		key_copy k;
		amc_task_filter f = filter_of(t, (int)-d);
		rc = amc_store_list_tasks_at(a->store, &f, key_of(&k, &t->rows[0]), -1, &rows, &n, &e);
		if (rc == 0) {
			/* the rows read, then what stays of the current page */
			size_t keep = t->nrows < (size_t)page - n ? t->nrows : (size_t)page - n;
			rows = amc_xrealloc(rows, (n + keep ? n + keep : 1) * sizeof *rows);
			memcpy(rows + n, t->rows, keep * sizeof *rows);
			for (size_t i = keep; i < t->nrows; i++)
				amc_task_row_free(&t->rows[i]);
			free(t->rows);
			t->rows = NULL;
			t->nrows = 0;
			n += keep;
			top = t->top - (long)(n - keep);
		}
	} else {
		amc_task_filter f = filter_of(t, page);
		f.offset = (int)top;
		rc = amc_store_list_tasks(a->store, &f, &rows, &n, &e);
	}
	if (rc != 0) {
		amc_tui_message(a, 1, "%s", e.msg);
		return -1;
	}
	set_rows(t, rows, n);
	t->top = top < 0 ? 0 : top;
	return 0;
}

/* Read the visible page again after the data, filter, search, order or page
 * size changed: the count (a scan of the filtered table) only when `recount`;
 * the page from its first row (which keeps its place in a live list). */
static void load_page(amc_tui_app *a, tasks_view *t, int recount)
{
	amc_err e;
	if (recount || t->total < 0) {
		amc_task_filter f = filter_of(t, 0);
		t->total = amc_store_count_tasks(a->store, &f, &e);
	}
	if (t->total < 0) {
		t->total = 0;
		set_rows(t, NULL, 0);
		amc_tui_message(a, 1, "%s", e.msg);
		return;
	}
	if (t->top > 0 && t->nrows > 0) {
		key_copy k;
		amc_task_filter f = filter_of(t, t->page);
		amc_task_row *rows = NULL;
		size_t n = 0;
		const amc_task_row *anchor = key_of(&k, &t->rows[0]);
		if (amc_store_list_tasks_at(a->store, &f, anchor, 0, &rows, &n, &e) == 0 && n > 0) {
			long before = amc_store_count_tasks_before(a->store, &f, &rows[0], &e);
			set_rows(t, rows, n);
			t->top = before >= 0 ? before : t->top;
		} else {
			amc_task_rows_free(rows, n);
			go(a, t, t->total); /* the page was the end of the list and is gone */
		}
	} else {
		t->top = 0;
		go(a, t, 0);
	}
	if (t->sel >= t->total)
		t->sel = t->total > 0 ? t->total - 1 : 0;
	/* Live updates insert rows above: keep the selection on the same task
	 * when it is still on the page. */
	if (t->sel_id[0]) {
		for (size_t i = 0; i < t->nrows; i++)
			if (!strcmp(t->rows[i].id, t->sel_id)) {
				t->sel = t->top + (long)i;
				break;
			}
	}
	if (t->sel < t->top)
		go(a, t, t->sel);
	else if (t->page > 0 && t->sel >= t->top + t->page)
		go(a, t, t->sel - t->page + 1);
	remember(t);
}

static void load(amc_tui_app *a, tasks_view *t)
{
	load_page(a, t, 1);
	/* short ids as `amc tasks` shows them: unique in this database (issue 27:
	 * 8 characters collided after a benchmark's 58 tasks) */
	amc_err e;
	int n = amc_store_short_id_len(a->store, &e);
	t->idw = n < AMC_SHORT_ID_LEN ? AMC_SHORT_ID_LEN : n > AMC_ID_LEN ? AMC_ID_LEN : n;
}

void *amc_tui_tasks_new(amc_tui_app *a)
{
	tasks_view *t = amc_xcalloc(1, sizeof *t);
	t->page = 20;
	load(a, t);
	return t;
}

static void reload(amc_tui_app *a, amc_tui_view *v)
{
	load(a, v->data);
}

static void fmt_duration(amc_tui_app *a, const amc_task_row *r, char *out, size_t n)
{
	if (!r->started_ms) {
		snprintf(out, n, "-");
		return;
	}
	long long end = r->finished_ms ? r->finished_ms : amc_tui_now(a);
	amc_format_duration(end > r->started_ms ? end - r->started_ms : 0, out, n);
}

static void draw(amc_tui_app *a, amc_tui_view *v, int y, int h, int w)
{
	tasks_view *t = v->data;
	int page = h - 1;
	if (page != t->page) {
		t->page = page > 1 ? page : 1;
		load_page(a, t, 0);
	}
	/* Columns sized by their content (issue 27): DEVICE as wide as the
	 * longest device shown (6 to 24), STARTED without the year and seconds
	 * under 130 columns; the goal takes what the others leave. */
	int wide = w >= 110, mid = w >= 80;
	int dvw = 6;
	for (size_t i = 0; i < t->nrows && (int)i < page; i++) {
		int dw = t->rows[i].device ? amc_tui_width(t->rows[i].device) : 0;
		dvw = dw > dvw ? dw : dvw;
	}
	if (dvw > 24)
		dvw = 24;
	int stw = w >= 130 ? 19 : 11;
	int idw = t->idw ? t->idw : AMC_SHORT_ID_LEN;
	int fixed = 2 + 14 + idw + 1 + dvw + 1 + 6 + 8 + (mid ? stw + 1 : 0) + (wide ? 18 : 0);
	int gw = w - fixed > 10 ? w - fixed : 10;
	char head[512];
	snprintf(head, sizeof head, "  %-13s %-*s %-*s %-*s %5s %7s %-*s%s", "STATUS", idw, "ID", gw, "GOAL / FLOW", dvw, "DEVICE",
		 "STEPS", "TIME", mid ? stw + 1 : 0, mid ? "STARTED" : "", wide ? "SOURCE" : "");
	amc_tui_put(stdscr, y, 0, w, head, amc_tui_attr(AMC_EL_TITLE), 1);
	for (size_t i = 0; i < t->nrows && (int)i < page; i++) {
		amc_task_row *r = &t->rows[i];
		int row = y + 1 + (int)i;
		int sel = (long)i + t->top == t->sel;
		attr_t base = sel ? amc_tui_attr(AMC_EL_SELECTED) : amc_tui_attr(AMC_EL_NORMAL);
		amc_tui_put(stdscr, row, 0, w, "", base, 1);
		attr_t st = sel ? base : amc_tui_attr(amc_tui_status_el(r->status));
		char s[64];
		snprintf(s, sizeof s, "%s %s", amc_tui_status_symbol(r->status), r->status);
		int x = 0;
		amc_tui_put(stdscr, row, x, 2, sel ? ">" : "", base, 1);
		x += 2;
		amc_tui_put(stdscr, row, x, 13, s, st, 1);
		x += 14;
		char id[AMC_ID_SIZE];
		snprintf(id, sizeof id, "%.*s", idw, r->id);
		amc_tui_put(stdscr, row, x, idw, id, base, 1);
		x += idw + 1;
		amc_sb g;
		amc_sb_init(&g);
		if (r->goal)
			amc_sb_puts(&g, r->goal);
		else
			amc_sb_printf(&g, "flow %s", r->flow_name ? r->flow_name : r->flow_path ? r->flow_path : "?");
		if (!strcmp(r->status, "running")) {
			int step;
			const char *ph = amc_tui_phase(a, r->id, &step);
			if (ph)
				amc_sb_printf(&g, "  [step %d: %s]", step, ph);
		} else if (r->error && *r->error) {
			amc_sb_printf(&g, "  (%s)", r->error);
		}
		amc_tui_put(stdscr, row, x, gw, amc_sb_str(&g), base, 1);
		amc_sb_free(&g);
		x += gw + 1;
		amc_tui_put(stdscr, row, x, dvw, r->device, base, 1);
		x += dvw + 1;
		char num[32];
		snprintf(num, sizeof num, "%5d", r->steps);
		amc_tui_put(stdscr, row, x, 5, num, base, 1);
		x += 6;
		char dur[32], dd[32];
		fmt_duration(a, r, dd, sizeof dd);
		snprintf(dur, sizeof dur, "%7s", dd);
		amc_tui_put(stdscr, row, x, 7, dur, base, 1);
		x += 8;
		if (mid) {
			char tm[32];
			amc_format_time(r->started_ms ? r->started_ms : r->created_ms, tm, sizeof tm);
			/* "2026-12-05 05:50:08" -> "12-05 05:50" when narrow */
			const char *shown = tm;
			if (stw < 19 && strlen(tm) >= 16) {
				tm[16] = '\0';
				shown = tm + 5;
			}
			amc_tui_put(stdscr, row, x, stw, shown, base, 1);
			x += stw + 1;
		}
		if (wide && r->source_task_id) {
			char src[64];
			if (r->source_attempt >= 0)
				snprintf(src, sizeof src, "%.12s#%d", r->source_task_id, r->source_attempt);
			else
				snprintf(src, sizeof src, "%.12s", r->source_task_id);
			amc_tui_put(stdscr, row, x, w - x, src, base, 1);
		}
	}
	if (t->total == 0) {
		const char *msg = t->search || t->filter ? "no task matches (f: filter, /: search; empty search clears)"
							: "no tasks yet: press n to launch a flow on the simulated phone";
		amc_tui_put(stdscr, y + 2, 2, w - 4, msg, amc_tui_attr(AMC_EL_DIM), 0);
	}
	/* Position and filter, right-aligned on the title row. */
	char pos[256];
	snprintf(pos, sizeof pos, "%ld/%ld%s%s%s%s%s%s%s%s ", t->total ? t->sel + 1 : 0, t->total,
		 t->step_search ? "  /=steps" : "",
		 t->sort ? "  sort=" : "", t->sort ? amc_store_sort_name(t->sort) : "",
		 t->filter ? "  status=" : "", t->filter ? FILTERS[t->filter] : "",
		 t->search ? "  search=\"" : "", t->search ? t->search : "", t->search ? "\"" : "");
	int pw = amc_tui_width(pos);
	if (pw < w - 20)
		amc_tui_put(stdscr, 0, w - pw, pw, pos, amc_tui_attr(AMC_EL_STATUS), 0);
}

/* The words typed after / in step mode: the Search view lists the hits. */
static void search_steps(amc_tui_app *a, const char *text, void *ud)
{
	(void)ud;
	if (text && *text)
		amc_tui_push(a, &amc_tui_view_hits, amc_tui_hits_new(a, text));
}

static void set_search(amc_tui_app *a, const char *text, void *ud)
{
	tasks_view *t = ud;
	free(t->search);
	t->search = text && *text ? amc_xstrdup(text) : NULL;
	t->sel = t->top = 0;
	t->sel_id[0] = 0;
	load(a, t);
}

static int request(amc_tui_app *a, amc_tui_view *v, amc_tui_req req)
{
	tasks_view *t = v->data;
	long old = t->sel;
	switch (req) {
	case AMC_REQ_DOWN: t->sel++; break;
	case AMC_REQ_UP: t->sel--; break;
	case AMC_REQ_PAGE_DOWN: t->sel += t->page; break;
	case AMC_REQ_PAGE_UP: t->sel -= t->page; break;
	case AMC_REQ_TOP: t->sel = 0; break;
	case AMC_REQ_BOTTOM: t->sel = t->total - 1; break;
	case AMC_REQ_ENTER: {
		long i = t->sel - t->top;
		if (i >= 0 && (size_t)i < t->nrows)
			amc_tui_push(a, &amc_tui_view_task, amc_tui_task_new(a, t->rows[i].id));
		return 1;
	}
	case AMC_REQ_FILTER:
		t->filter = (t->filter + 1) % (int)NFILTERS;
		t->sel = t->top = 0;
		t->sel_id[0] = 0;
		load(a, t);
		return 1;
	case AMC_REQ_SORT:
		t->sort = (t->sort + 1) % AMC_SORT_COUNT;
		t->sel = t->top = 0;
		t->sel_id[0] = 0;
		load(a, t);
		return 1;
	case AMC_REQ_SEARCH:
		if (t->step_search)
			amc_tui_open_dialog(a, amc_tui_input_new("Search in steps", "", search_steps, t));
		else
			amc_tui_open_dialog(a, amc_tui_input_new("Search", t->search ? t->search : "", set_search, t));
		return 1;
	case AMC_REQ_SEARCH_MODE:
		t->step_search = !t->step_search;
		amc_tui_message(a, 0, "/ now searches %s (S switches)",
				t->step_search ? "inside every step: screen text, OCR, actions, reasoning, errors"
					       : "the task list: goals, flow names and ids");
		return 1;
	case AMC_REQ_BACK:
		if (t->search || t->filter) { /* Esc clears the search and filter first */
			free(t->search);
			t->search = NULL;
			t->filter = 0;
			t->sel_id[0] = 0;
			load(a, t);
		}
		return 1;
	default:
		return 0;
	}
	if (t->sel < 0)
		t->sel = 0;
	if (t->sel >= t->total)
		t->sel = t->total > 0 ? t->total - 1 : 0;
	if (t->sel != old && (t->sel < t->top || t->sel >= t->top + t->page)) {
		go(a, t, t->sel < t->top ? t->sel : t->sel - t->page + 1);
		t->sel_id[0] = 0;
	}
	remember(t);
	return 1;
}

/* Rows start on screen row 2 (title bar, column heads); a click selects, a
 * second click on the selected row or a double click opens it. */
static void click(amc_tui_app *a, amc_tui_view *v, int y, int x, int twice)
{
	(void)x;
	tasks_view *t = v->data;
	long i = y - 2;
	if (i < 0 || (size_t)i >= t->nrows)
		return;
	if (twice || t->top + i == t->sel) {
		amc_tui_push(a, &amc_tui_view_task, amc_tui_task_new(a, t->rows[i].id));
		return;
	}
	t->sel = t->top + i;
	remember(t);
}

static int live(amc_tui_app *a, amc_tui_view *v)
{
	(void)a;
	tasks_view *t = v->data;
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].status, AMC_ST_RUNNING) || !strcmp(t->rows[i].status, AMC_ST_QUEUED))
			return 1;
	return 0;
}

static const char *task(amc_tui_app *a, amc_tui_view *v)
{
	(void)a;
	tasks_view *t = v->data;
	long i = t->sel - t->top;
	if (i >= 0 && (size_t)i < t->nrows && !amc_status_is_terminal(t->rows[i].status))
		return t->rows[i].id;
	return NULL;
}

static void vfree(amc_tui_view *v)
{
	tasks_view *t = v->data;
	amc_task_rows_free(t->rows, t->nrows);
	free(t->search);
	free(t);
}

const amc_tui_view_ops amc_tui_view_tasks = {
	"Tasks", AMC_VIEW_TASKS, draw, request, reload, live, task, vfree, NULL, click,
};
