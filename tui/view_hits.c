/* view_hits.c - the Search view: `/` in the Tasks view, switched to steps
 * with S, searches inside every step amc recorded (the full-text index,
 * storage/search.h, as `amc search` does: the words are quoted) and lists the
 * hits newest first: task, step, the field that matched and a snippet with
 * the matches highlighted. Enter opens the task at that step.
 *
 * The first page is read when the view opens and again whenever the database
 * changes (reload: new steps match, a task removed by retention goes, the
 * selection stays on its step): a query's first page costs well under a
 * millisecond over a million steps (docs/search.md), so the UI is never held
 * up. Everything from the index is untrusted text: amc_tui_put draws each
 * piece terminal-safe. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/search.h"
#include "tui/app.h"
#include "tui/text.h"
#include "util/strbuf.h"

/* Hits listed at most (one page of the index). */
#define HITS_MAX 200

typedef struct hits_view {
	char *query;
	amc_search_hit *hits;
	size_t n;
	char error[AMC_ERR_MSG_MAX];
	long sel, top;
	int page;
} hits_view;

/* Run the query; the hits before are replaced (an error keeps none). */
static void run_query(amc_tui_app *a, hits_view *h)
{
	amc_search_hits_free(h->hits, h->n);
	h->hits = NULL;
	h->n = 0;
	h->error[0] = 0;
	amc_search_query q = { 0 };
	q.text = h->query;
	q.limit = HITS_MAX;
	amc_err e;
	if (amc_store_search(a->store, &q, &h->hits, &h->n, &e) != 0)
		snprintf(h->error, sizeof h->error, "%s", e.msg);
}

void *amc_tui_hits_new(amc_tui_app *a, const char *query)
{
	hits_view *h = amc_xcalloc(1, sizeof *h);
	h->query = amc_xstrdup(query ? query : "");
	run_query(a, h);
	return h;
}

/* The snippet: pieces between AMC_SEARCH_MARK_ON/OFF drawn highlighted, each
 * made terminal-safe by amc_tui_put. */
static void put_snippet(int y, int x, int w, const char *s, attr_t normal, attr_t mark)
{
	int col = 0, on = 0;
	/* the match must show: where the text before it and the match do not
	 * fit (a hit in a long screen list at 80 columns showed no match at
	 * all), that text is cut from the left to a third of the width, "…" first */
	const char *m = s ? strchr(s, AMC_SEARCH_MARK_ON) : NULL;
	if (m && m > s && w > 12) {
		char *pre = amc_xstrndup(s, (size_t)(m - s));
		for (char *c = pre; *c; c++)
			if (*c == '\n' || *c == '\t')
				*c = ' '; /* as drawn below */
		const char *me = strchr(m + 1, AMC_SEARCH_MARK_OFF);
		char *hit = amc_xstrndup(m + 1, me ? (size_t)(me - m - 1) : strlen(m + 1));
		int pw = amc_tui_width(pre), hw = amc_tui_width(hit);
		if (pw + hw > w) {
			int keep = w / 3;
			const char *p = pre;
			while (*p && pw > keep - 1) {
				const char *nx = p + 1;
				while (*nx && ((unsigned char)*nx & 0xC0) == 0x80)
					nx++; /* never inside a character */
				char ch[8];
				snprintf(ch, sizeof ch, "%.*s", (int)(nx - p), p);
				pw -= amc_tui_width(ch);
				p = nx;
			}
			col += amc_tui_put(stdscr, y, x, w, amc_tui_utf8() ? "\xe2\x80\xa6" : "~", normal, 0);
			s += p - pre;
		}
		free(pre);
		free(hit);
	}
	while (s && *s && col < w) {
		size_t n = strcspn(s, "\x02\x03");
		if (n) {
			char *piece = amc_xstrndup(s, n);
			for (char *c = piece; *c; c++)
				if (*c == '\n' || *c == '\t')
					*c = ' '; /* the screen's lines, side by side */
			col += amc_tui_put(stdscr, y, x + col, w - col, piece, on ? mark : normal, 0);
			free(piece);
		}
		s += n;
		if (*s == AMC_SEARCH_MARK_ON)
			on = 1;
		else if (*s == AMC_SEARCH_MARK_OFF)
			on = 0;
		if (*s)
			s++;
	}
	if (col < w)
		amc_tui_put(stdscr, y, x + col, w - col, "", normal, 1);
}

static void draw(amc_tui_app *a, amc_tui_view *v, int y, int h, int w)
{
	(void)a;
	hits_view *s = v->data;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "Search in steps: \"%s\"  %zu hit%s%s  (Enter: open the task at the step, Esc: back)",
		      s->query, s->n, s->n == 1 ? "" : "s", s->n == HITS_MAX ? " (the newest)" : "");
	amc_tui_put(stdscr, y, 1, w - 2, amc_sb_str(&sb), amc_tui_attr(AMC_EL_TITLE), 1);
	int row = y + 1, end = y + h;
	if (s->error[0]) {
		amc_tui_put(stdscr, row, 1, w - 2, s->error, amc_tui_attr(AMC_EL_ERROR), 1);
		amc_sb_free(&sb);
		return;
	}
	if (!s->n) {
		amc_tui_put(stdscr, row, 1, w - 2, "no step matches (the words are searched as they are; Esc: back)",
			    amc_tui_attr(AMC_EL_DIM), 1);
		amc_sb_free(&sb);
		return;
	}
	amc_tui_put(stdscr, row++, 1, w - 2, "TASK     STEP FIELD         SNIPPET", amc_tui_attr(AMC_EL_TITLE), 1);
	s->page = end - row > 1 ? end - row : 1;
	if (s->sel < s->top)
		s->top = s->sel;
	if (s->sel >= s->top + s->page)
		s->top = s->sel - s->page + 1;
	for (long i = s->top; i < (long)s->n && row < end; i++, row++) {
		const amc_search_hit *hit = &s->hits[i];
		attr_t at = i == s->sel ? amc_tui_attr(AMC_EL_SELECTED) : amc_tui_attr(AMC_EL_NORMAL);
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "%-8.8s %4d %-13.13s ", hit->task_id ? hit->task_id : "?", hit->step,
			      hit->field ? hit->field : "?");
		int c = amc_tui_put(stdscr, row, 1, w - 2, amc_sb_str(&sb), at, 0);
		if (w - 2 - c > 0)
			put_snippet(row, 1 + c, w - 2 - c, hit->snippet, at,
				    i == s->sel ? at : amc_tui_attr(AMC_EL_TARGET) | A_BOLD);
	}
	amc_sb_free(&sb);
}

static int request(amc_tui_app *a, amc_tui_view *v, amc_tui_req req)
{
	hits_view *s = v->data;
	long n = (long)s->n;
	switch (req) {
	case AMC_REQ_DOWN: s->sel++; break;
	case AMC_REQ_UP: s->sel--; break;
	case AMC_REQ_PAGE_DOWN: s->sel += s->page; break;
	case AMC_REQ_PAGE_UP: s->sel -= s->page; break;
	case AMC_REQ_TOP: s->sel = 0; break;
	case AMC_REQ_BOTTOM: s->sel = n - 1; break;
	case AMC_REQ_ENTER:
		if (s->sel >= 0 && s->sel < n && s->hits[s->sel].task_id) {
			void *t = amc_tui_task_new(a, s->hits[s->sel].task_id);
			amc_tui_task_select(t, s->hits[s->sel].step);
			amc_tui_push(a, &amc_tui_view_task, t);
		}
		return 1;
	default:
		return 0;
	}
	if (s->sel >= n)
		s->sel = n - 1;
	if (s->sel < 0)
		s->sel = 0;
	return 1;
}

static void reload(amc_tui_app *a, amc_tui_view *v)
{
	hits_view *s = v->data;
	char *task = NULL;
	int step = 0;
	if (s->sel >= 0 && s->sel < (long)s->n && s->hits[s->sel].task_id) {
		task = amc_xstrdup(s->hits[s->sel].task_id);
		step = s->hits[s->sel].step;
	}
	run_query(a, s);
	long keep = -1;
	for (size_t i = 0; task && i < s->n && keep < 0; i++)
		if (s->hits[i].task_id && !strcmp(s->hits[i].task_id, task) && s->hits[i].step == step)
			keep = (long)i;
	if (keep >= 0)
		s->sel = keep;
	if (s->sel >= (long)s->n)
		s->sel = (long)s->n - 1;
	if (s->sel < 0)
		s->sel = 0;
	free(task);
}

static const char *hit_task(amc_tui_app *a, amc_tui_view *v)
{
	(void)a;
	hits_view *s = v->data;
	return s->sel >= 0 && s->sel < (long)s->n ? s->hits[s->sel].task_id : NULL;
}

static void vfree(amc_tui_view *v)
{
	hits_view *s = v->data;
	amc_search_hits_free(s->hits, s->n);
	free(s->query);
	free(s);
}

const amc_tui_view_ops amc_tui_view_hits = {
	"Search", AMC_VIEW_HITS, draw, request, reload, NULL, hit_task, vfree, NULL, NULL,
};
