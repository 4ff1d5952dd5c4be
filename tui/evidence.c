/* evidence.c - the Task view's tabbed evidence pane (see evidence.h). */
#include "tui/evidence.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "image/png.h"
#include "perception/ocr.h"
#include "runtime/stepdiff.h"
#include "tui/app.h"
#include "tui/text.h"
#include "tui/theme.h"
#include "tui/tree.h"
#include "util/fsutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static const char *const TAB_NAMES[AMC_TUI_NTABS] = { "Tree", "OCR", "Scene", "Diff", "Sem" };

/* One row of a list tab: its text (raw: drawn sanitized), the element its
 * colour comes from, and the box it marks on the before image. */
typedef struct row {
	char *text;
	amc_tui_el el;
	int box[4];
	int has_box;
} row;

typedef struct list {
	row *v;
	size_t n;
	long sel, top;   /* sel: the selected row (-1 none) in OCR and Scene; Diff and Sem scroll (top) */
	int page;
} list;

struct amc_tui_evidence {
	amc_step_row s;          /* the shown step: task id, step, tool, paths, stored diff (copies) */
	int have_step;
	amc_store *store;
	amc_tui_tab tab;
	amc_tui_tree *tree;
	list l[AMC_TUI_NTABS];
	char summary[AMC_TUI_NTABS][160];
	int have_semantic;
	int diff_loaded;         /* the Diff tab's rows are made (on first show: may read artifacts) */
	int changed_nothing;     /* -1 unknown until the diff is read */
	int tab_col[AMC_TUI_NTABS][2]; /* first and last column of each name on the frame; -1 not shown */
	int tab_row[AMC_TUI_NTABS];    /* 0: on the top border, 1: on the bottom one */
	int drawn_h;                   /* the pane's height when last drawn (clicks on the bottom border) */
	char policy[16];         /* the configured OCR policy, for the OCR tab's label */
	int ocr_now;             /* the OCR tab shows a full OCR read now (R), not the record's */
	char kb_label[64];       /* the Scene's keyboard element ("keyboard (QWERTY)"), "" when none */
	int kb_box[4];
	int sum_rows;            /* rows the label took when last drawn (clicks) */
};

amc_tui_evidence *amc_tui_evidence_new(void)
{
	amc_tui_evidence *ev = amc_xcalloc(1, sizeof *ev);
	ev->tree = amc_tui_tree_new();
	ev->changed_nothing = -1;
	return ev;
}

static void list_clear(list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	memset(l, 0, sizeof *l);
}

static row *add_row(list *l, const char *text, amc_tui_el el)
{
	l->v = amc_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	row *r = &l->v[l->n++];
	memset(r, 0, sizeof *r);
	r->text = amc_xstrdup(text);
	r->el = el;
	return r;
}

static void forget_step(amc_tui_evidence *ev)
{
	if (ev->have_step)
		amc_step_row_free(&ev->s);
	memset(&ev->s, 0, sizeof ev->s);
	ev->have_step = 0;
	for (int i = 0; i < AMC_TUI_NTABS; i++)
		list_clear(&ev->l[i]);
	ev->have_semantic = 0;
	ev->diff_loaded = 0;
	ev->changed_nothing = -1;
	ev->ocr_now = 0;
	ev->kb_label[0] = 0;
}

void amc_tui_evidence_free(amc_tui_evidence *ev)
{
	if (!ev)
		return;
	forget_step(ev);
	amc_tui_tree_free(ev->tree);
	free(ev);
}

static int bounds_of(const cJSON *o, int box[4])
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "bounds");
	if (!cJSON_IsArray(b) || cJSON_GetArraySize(b) != 4)
		return 0;
	for (int i = 0; i < 4; i++) {
		const cJSON *v = cJSON_GetArrayItem(b, i);
		if (!cJSON_IsNumber(v))
			return 0;
		box[i] = v->valueint;
	}
	return box[2] >= box[0] && box[3] >= box[1];
}

static const char *str_of(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
	return s ? s : "";
}

/* Whether the centre of box b lies in box k ([x1,y1,x2,y2] both). */
static int in_box(const int k[4], const int b[4])
{
	int cx = (b[0] + b[2]) / 2, cy = (b[1] + b[3]) / 2;
	return cx >= k[0] && cx < k[2] && cy >= k[1] && cy < k[3];
}

static void load_ocr(amc_tui_evidence *ev, const char *json)
{
	list *l = &ev->l[AMC_TUI_TAB_OCR];
	cJSON *ocr = json ? cJSON_Parse(json) : NULL;
	int n = cJSON_IsArray(ocr) ? cJSON_GetArraySize(ocr) : 0;
	amc_sb sb;
	amc_sb_init(&sb);
	/* the keyboard's keys are one row, as they are one element of the Scene */
	long kb_row = -1;
	int kb_words = 0;
	for (int i = 0; i < n; i++) {
		const cJSON *o = cJSON_GetArrayItem(ocr, i);
		const cJSON *cf = cJSON_GetObjectItemCaseSensitive(o, "confidence");
		int box[4] = { 0, 0, 0, 0 }, has = bounds_of(o, box);
		if (has && ev->kb_label[0] && in_box(ev->kb_box, box)) {
			if (kb_row < 0) {
				kb_row = (long)l->n;
				row *r = add_row(l, "", AMC_EL_DIM);
				memcpy(r->box, ev->kb_box, sizeof r->box);
				r->has_box = 1;
			}
			kb_words++;
			continue;
		}
		amc_sb_reset(&sb);
		/* tesseract's confidence is 0-100; older records and fixtures kept 0-1 */
		double c = cJSON_IsNumber(cf) ? cf->valuedouble : 0.0;
		c = c <= 1.0 ? c * 100.0 : c;
		amc_sb_printf(&sb, "%2d %3.0f%% \"%s\"", i + 1, c < 0 ? 0.0 : c > 100 ? 100.0 : c, str_of(o, "text"));
		if (has)
			amc_sb_printf(&sb, " [%d,%d][%d,%d]", box[0], box[1], box[2], box[3]);
		row *r = add_row(l, amc_sb_str(&sb), AMC_EL_NORMAL);
		memcpy(r->box, box, sizeof box);
		r->has_box = has;
	}
	if (kb_row >= 0) {
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "   %s: %d word%s [%d,%d][%d,%d]", ev->kb_label, kb_words,
			      kb_words == 1 ? "" : "s", ev->kb_box[0], ev->kb_box[1], ev->kb_box[2], ev->kb_box[3]);
		free(l->v[kb_row].text);
		l->v[kb_row].text = amc_sb_detach(&sb);
		amc_sb_init(&sb);
	}
	/* which screen, and which policy (the record does not keep the one its
	 * run used: the configured one is named as such) */
	const char *p = ev->policy[0] ? ev->policy : "gaps";
	if (ev->ocr_now)
		snprintf(ev->summary[AMC_TUI_TAB_OCR], sizeof ev->summary[0],
			 "OCR of Before: %d word%s, full OCR read now", n, n == 1 ? "" : "s");
	else
		snprintf(ev->summary[AMC_TUI_TAB_OCR], sizeof ev->summary[0],
			 "OCR of Before: %d word%s (R: full), ocr.policy %s%s", n, n == 1 ? "" : "s", p,
			 !strcmp(p, "gaps") ? ": where the UI tree has no text" : "");
	amc_sb_free(&sb);
	cJSON_Delete(ocr);
}

static void load_scene(amc_tui_evidence *ev, const char *json)
{
	list *l = &ev->l[AMC_TUI_TAB_SCENE];
	cJSON *sc = json ? cJSON_Parse(json) : NULL;
	const cJSON *els = cJSON_GetObjectItemCaseSensitive(sc, "elements");
	int n = cJSON_IsArray(els) ? cJSON_GetArraySize(els) : 0;
	int by[3] = { 0, 0, 0 };
	amc_sb sb;
	amc_sb_init(&sb);
	for (int i = 0; i < n; i++) {
		const cJSON *o = cJSON_GetArrayItem(els, i);
		const char *src = str_of(o, "source"), *text = str_of(o, "text");
		by[!strcmp(src, "ocr") ? 1 : !strcmp(src, "fused") ? 2 : 0]++;
		int box[4] = { 0, 0, 0, 0 }, has = bounds_of(o, box);
		if (has && !strcmp(str_of(o, "type"), "keyboard") && !ev->kb_label[0]) {
			snprintf(ev->kb_label, sizeof ev->kb_label, "%s", *text ? text : "keyboard");
			memcpy(ev->kb_box, box, sizeof box);
		}
		amc_sb_reset(&sb);
		/* what it is and says first: a 26-column pane (80x24) still shows
		 * the text; where it came from, its id and box after */
		amc_sb_printf(&sb, "%-9s", str_of(o, "type"));
		if (*text)
			amc_sb_printf(&sb, " \"%s\"", text);
		amc_sb_printf(&sb, " %s %s", src, str_of(o, "id"));
		if (has)
			amc_sb_printf(&sb, " [%d,%d][%d,%d]", box[0], box[1], box[2], box[3]);
		row *r = add_row(l, amc_sb_str(&sb), AMC_EL_NORMAL);
		memcpy(r->box, box, sizeof box);
		r->has_box = has;
	}
	if (sc)
		snprintf(ev->summary[AMC_TUI_TAB_SCENE], sizeof ev->summary[0],
			 "Scene of Before: %d elements (%d uitree, %d ocr, %d fused)", n, by[0], by[1], by[2]);
	else
		snprintf(ev->summary[AMC_TUI_TAB_SCENE], sizeof ev->summary[0], "(no Scene recorded for this step)");
	amc_sb_free(&sb);
	cJSON_Delete(sc);
}

static void load_semantic(amc_tui_evidence *ev, const char *json)
{
	cJSON *j = json && *json ? cJSON_Parse(json) : NULL;
	ev->have_semantic = j && !cJSON_IsNull(j);
	char *pretty = ev->have_semantic ? cJSON_Print(j) : NULL;
	const char *p = pretty;
	while (p && *p) {
		size_t n = strcspn(p, "\n");
		char *one = amc_xstrndup(p, n);
		add_row(&ev->l[AMC_TUI_TAB_SEMANTIC], one, AMC_EL_NORMAL);
		free(one);
		p += n + (p[n] == '\n');
	}
	snprintf(ev->summary[AMC_TUI_TAB_SEMANTIC], sizeof ev->summary[0], "%s",
		 ev->have_semantic ? "SemanticScene the planner saw" : "(no SemanticScene for this step)");
	free(pretty);
	cJSON_Delete(j);
}

/* The tree of the screen after the action: in the record for get_ui_tree
 * records, else the observation's tree artifact. */
static void load_tree(amc_tui_evidence *ev, const amc_step_row *s)
{
	amc_err e;
	if (s->ui_tree) {
		amc_tui_tree_load(ev->tree, s->ui_tree, &e);
		return;
	}
	char abs[PATH_MAX], *buf = NULL; /* a longer path could not be opened anyway */
	size_t len;
	if (s->ui_tree_path && amc_store_artifact_abspath(ev->store, s->ui_tree_path, abs, sizeof abs, &e) == 0 &&
	    amc_read_file(abs, 64u * 1024 * 1024, &buf, &len, &e) == 0) {
		amc_tui_tree_load(ev->tree, buf, &e);
		free(buf);
	} else {
		amc_tui_tree_load(ev->tree, NULL, &e);
	}
}

void amc_tui_evidence_step(amc_tui_evidence *ev, amc_store *store, const amc_step_row *s)
{
	ev->store = store;
	if (s && ev->have_step && ev->s.step == s->step && ev->s.task_id && s->task_id &&
	    !strcmp(ev->s.task_id, s->task_id))
		return;
	forget_step(ev);
	if (!s) {
		amc_err e;
		amc_tui_tree_load(ev->tree, NULL, &e);
		return;
	}
	ev->have_step = 1;
	ev->s.task_id = amc_xstrdup(s->task_id);
	ev->s.step = s->step;
	ev->s.tool = amc_xstrdup(s->tool);
	ev->s.before_screenshot = amc_xstrdup(s->before_screenshot);
	ev->s.after_screenshot = amc_xstrdup(s->after_screenshot);
	ev->s.ui_tree_path = amc_xstrdup(s->ui_tree_path);
	ev->s.tree_diff = amc_xstrdup(s->tree_diff);
	ev->changed_nothing = s->tree_diff ? amc_stepdiff_changed_nothing(s->tree_diff) : -1;
	load_tree(ev, s);
	load_scene(ev, s->scene); /* first: the OCR tab folds the keyboard's words */
	load_ocr(ev, s->ocr);
	load_semantic(ev, s->semantic_scene);
	if (ev->tab == AMC_TUI_TAB_SEMANTIC && !ev->have_semantic)
		ev->tab = AMC_TUI_TAB_TREE;
}

static void diff_line(char op, const char *line, void *ud)
{
	amc_tui_el el = op == '+' ? AMC_EL_ADDED : op == '-' ? AMC_EL_REMOVED : op == '~' ? AMC_EL_CHANGED
		      : op == '!' ? AMC_EL_WARN : AMC_EL_DIM;
	add_row(ud, line, el);
}

/* The Diff tab's rows: the stored diff, or one computed from the artifacts
 * (older records), on the first show of the tab for this step. */
static void load_diff(amc_tui_evidence *ev)
{
	if (ev->diff_loaded || !ev->have_step)
		return;
	ev->diff_loaded = 1;
	char *json = NULL;
	amc_err e;
	list *l = &ev->l[AMC_TUI_TAB_DIFF];
	if (amc_stepdiff_of_row(ev->store, &ev->s, &json, &e) != 0) {
		add_row(l, e.msg, AMC_EL_ERROR);
		return;
	}
	ev->changed_nothing = amc_stepdiff_changed_nothing(json);
	amc_stepdiff_render(json, amc_tui_utf8(), diff_line, l);
	snprintf(ev->summary[AMC_TUI_TAB_DIFF], sizeof ev->summary[0], "Diff: before %s after (%s)",
		 amc_tui_utf8() ? "\xe2\x86\x92" : "->", ev->s.tree_diff ? "recorded" : "computed now");
	free(json);
}

/* One form of the tab names: 0 "2 OCR", 1 "2OCR", 2 "2O"; the shown tab is
 * always "[2 OCR]". */
static int tab_name(const amc_tui_evidence *ev, int i, int form, char *out, size_t n)
{
	if (i == (int)ev->tab)
		return snprintf(out, n, "[%d %s]", i + 1, TAB_NAMES[i]);
	if (form == 2)
		return snprintf(out, n, "%d%c", i + 1, TAB_NAMES[i][0]);
	return snprintf(out, n, form ? "%d%s" : "%d %s", i + 1, TAB_NAMES[i]);
}

/* Joins the names of the shown tabs a..b-1 (in `idx`) into out, noting where
 * each is on the frame row `row` (0 the top, 1 the bottom); returns the width. */
static int join_names(amc_tui_evidence *ev, const int *idx, int a, int b, int form, int row, char *out, size_t n)
{
	size_t len = 0;
	out[0] = 0;
	for (int k = a; k < b; k++) {
		char one[32];
		int w = tab_name(ev, idx[k], form, one, sizeof one);
		if (w < 0 || len + (size_t)w + 2 >= n)
			break;
		len += (size_t)snprintf(out + len, n - len, "%s%s", len ? " " : "", one);
		/* amc_tui_box draws " title " from column 2 of the frame */
		ev->tab_col[idx[k]][0] = 3 + (int)len - w;
		ev->tab_col[idx[k]][1] = 3 + (int)len - 1;
		ev->tab_row[idx[k]] = row;
	}
	return (int)len;
}

/* The tab names for the frame, each with its key's digit: "1 Tree [2 OCR]
 * 3 Scene 4 Diff 5 Sem" on the top border where that fits in `room`
 * columns; else split between the top and the bottom border, in order
 * ("[1 Tree] 2 OCR" over "3 Scene 4 Diff": an 80-column terminal gives this
 * pane 26), then the same without the spaces ("2OCR"); only where even that
 * does not fit, digit and initial ("2O"), which a newcomer cannot read. */
static void title(amc_tui_evidence *ev, int room, char *top, char *bottom, size_t n)
{
	int idx[AMC_TUI_NTABS], nt = 0;
	for (int i = 0; i < AMC_TUI_NTABS; i++) {
		ev->tab_col[i][0] = ev->tab_col[i][1] = -1;
		if (!(i == AMC_TUI_TAB_SEMANTIC && !ev->have_semantic))
			idx[nt++] = i;
	}
	bottom[0] = 0;
	if (join_names(ev, idx, 0, nt, 0, 0, top, n) <= room)
		return;
	for (int form = 0; form < 2; form++)
		for (int k = nt - 1; k >= 1; k--) /* the top as full as it can be */
			if (join_names(ev, idx, 0, k, form, 0, top, n) <= room &&
			    join_names(ev, idx, k, nt, form, 1, bottom, n) <= room)
				return;
	for (int i = 0; i < AMC_TUI_NTABS; i++)
		ev->tab_col[i][0] = ev->tab_col[i][1] = -1;
	bottom[0] = 0;
	join_names(ev, idx, 0, nt, 2, 0, top, n);
}

static int selects(amc_tui_tab tab)
{
	return tab == AMC_TUI_TAB_OCR || tab == AMC_TUI_TAB_SCENE;
}

static void draw_list(amc_tui_evidence *ev, list *l, int y, int x, int h, int w, int focused)
{
	int sel_tab = selects(ev->tab);
	l->page = h;
	if (sel_tab && l->sel >= 0) {
		if (l->sel < l->top)
			l->top = l->sel;
		if (l->sel >= l->top + h)
			l->top = l->sel - h + 1;
	}
	if (l->top > (long)l->n - 1)
		l->top = l->n ? (long)l->n - 1 : 0;
	if (l->top < 0)
		l->top = 0;
	amc_sb sb;
	amc_sb_init(&sb);
	for (int i = 0; i < h && l->top + i < (long)l->n; i++) {
		const row *r = &l->v[l->top + i];
		int sel = sel_tab && l->top + i == l->sel;
		amc_sb_reset(&sb);
		/* a cursor mark, so the selection reads without colour or reverse */
		if (sel_tab)
			amc_sb_puts(&sb, sel ? ">" : " ");
		amc_sb_puts(&sb, r->text);
		attr_t at = sel ? amc_tui_attr(focused ? AMC_EL_SELECTED : AMC_EL_FOCUS) : amc_tui_attr(r->el);
		amc_tui_put(stdscr, y + i, x, w, amc_sb_str(&sb), at, 1);
	}
	amc_sb_free(&sb);
}

/* The tab's label in at most maxrows rows of w columns, broken at spaces;
 * the last row ends in "…" when the rest does not fit. Returns the rows. */
static int draw_label(const char *s, int y, int x, int w, int maxrows)
{
	amc_sb safe;
	amc_sb_init(&safe);
	amc_sanitize_line(s, strlen(s), &safe);
	const char *p = amc_sb_str(&safe);
	int r = 0;
	attr_t at = amc_tui_attr(AMC_EL_DIM);
	while (r < maxrows) {
		if (r == maxrows - 1 || amc_tui_width(p) <= w) {
			amc_tui_put(stdscr, y + r++, x, w, p, at, 1); /* cut with a marker */
			break;
		}
		size_t next, take = amc_tui_wrap_take(p, w, &next);
		char *one = amc_xstrndup(p, take);
		amc_tui_put(stdscr, y + r++, x, w, one, at, 1);
		free(one);
		p += next;
		if (!*p)
			break;
	}
	amc_sb_free(&safe);
	return r ? r : 1;
}

void amc_tui_evidence_draw(amc_tui_evidence *ev, int y, int x, int h, int w, int focused)
{
	char t[160], b[160];
	title(ev, w - 6, t, b, sizeof t);
	amc_tui_box(y, x, h, w, t, focused);
	ev->drawn_h = h;
	if (h < 3 || w < 3)
		return;
	if (b[0] && w > 6) { /* the rest of the tab names, on the bottom border */
		char bt[170];
		snprintf(bt, sizeof bt, " %s ", b);
		amc_tui_put(stdscr, y + h - 1, x + 2, w - 4, bt, amc_tui_attr(focused ? AMC_EL_FOCUS : AMC_EL_BORDER) |
			    (focused ? A_BOLD : 0), 0);
	}
	if (!ev->have_step) {
		amc_tui_put(stdscr, y + 1, x + 1, w - 2, "(no step)", amc_tui_attr(AMC_EL_DIM), 0);
		return;
	}
	char sum[200];
	if (ev->tab == AMC_TUI_TAB_TREE) {
		/* the tree is the screen after the action; the other tabs say theirs */
		char tt[160];
		amc_tui_tree_title(ev->tree, tt, sizeof tt);
		snprintf(sum, sizeof sum, "%s%s", !strncmp(tt, "UI tree", 7) ? "UI tree of After" : "",
			 !strncmp(tt, "UI tree", 7) ? tt + 7 : tt);
	} else {
		if (ev->tab == AMC_TUI_TAB_DIFF)
			load_diff(ev);
		snprintf(sum, sizeof sum, "%s", ev->summary[ev->tab]);
	}
	/* the label wraps to a second row rather than lose what it says when
	 * the pane is narrow (80x24), when the pane has rows to spare */
	int rows = draw_label(sum, y + 1, x + 1, w - 2, h >= 8 ? 2 : 1);
	ev->sum_rows = rows;
	if (ev->tab == AMC_TUI_TAB_TREE)
		amc_tui_tree_draw_in(ev->tree, y + 1 + rows, x + 1, h - 2 - rows, w - 2, focused);
	else
		draw_list(ev, &ev->l[ev->tab], y + 1 + rows, x + 1, h - 2 - rows, w - 2, focused);
}

int amc_tui_evidence_request(amc_tui_evidence *ev, amc_tui_req req)
{
	if (ev->tab == AMC_TUI_TAB_TREE)
		return amc_tui_tree_request(ev->tree, req);
	list *l = &ev->l[ev->tab];
	long *pos = selects(ev->tab) ? &l->sel : &l->top;
	long page = l->page > 1 ? l->page : 1, last = l->n ? (long)l->n - 1 : 0;
	switch (req) {
	case AMC_REQ_DOWN: (*pos)++; break;
	case AMC_REQ_UP: (*pos)--; break;
	case AMC_REQ_PAGE_DOWN: *pos += page; break;
	case AMC_REQ_PAGE_UP: *pos -= page; break;
	case AMC_REQ_TOP: *pos = 0; break;
	case AMC_REQ_BOTTOM: *pos = last; break;
	default: return 0;
	}
	if (*pos > last)
		*pos = last;
	if (*pos < 0)
		*pos = 0;
	return 1;
}

int amc_tui_evidence_tab_request(amc_tui_evidence *ev, amc_tui_req req, const char **why)
{
	*why = NULL;
	amc_tui_tab to;
	switch (req) {
	case AMC_REQ_TAB_NEXT:
		to = (amc_tui_tab)((ev->tab + 1) % AMC_TUI_NTABS);
		if (to == AMC_TUI_TAB_SEMANTIC && !ev->have_semantic)
			to = AMC_TUI_TAB_TREE;
		break;
	case AMC_REQ_TAB_TREE: to = AMC_TUI_TAB_TREE; break;
	case AMC_REQ_TAB_OCR: to = AMC_TUI_TAB_OCR; break;
	case AMC_REQ_TAB_SCENE: to = AMC_TUI_TAB_SCENE; break;
	case AMC_REQ_TAB_DIFF: to = AMC_TUI_TAB_DIFF; break;
	case AMC_REQ_TAB_SEMANTIC:
		if (!ev->have_semantic) {
			*why = "this step has no SemanticScene (enrichment was off or failed)";
			return 1;
		}
		to = AMC_TUI_TAB_SEMANTIC;
		break;
	default: return 0;
	}
	ev->tab = to;
	return 1;
}

amc_tui_tab amc_tui_evidence_tab(const amc_tui_evidence *ev)
{
	return ev->tab;
}

int amc_tui_evidence_next_word(amc_tui_evidence *ev)
{
	list *l = &ev->l[AMC_TUI_TAB_OCR];
	if (ev->tab != AMC_TUI_TAB_OCR) {
		ev->tab = AMC_TUI_TAB_OCR;
		l->sel = l->n ? 0 : -1;
	} else {
		l->sel = l->sel + 1 < (long)l->n ? l->sel + 1 : -1;
	}
	return (int)l->sel + 1;
}

int amc_tui_evidence_mark(const amc_tui_evidence *ev, int box[4])
{
	if (!selects(ev->tab))
		return 0;
	const list *l = &ev->l[ev->tab];
	if (l->sel < 0 || l->sel >= (long)l->n || !l->v[l->sel].has_box)
		return 0;
	memcpy(box, l->v[l->sel].box, 4 * sizeof *box);
	return 1;
}

int amc_tui_evidence_tree_selector(const amc_tui_evidence *ev, amc_sb *out)
{
	if (ev->tab != AMC_TUI_TAB_TREE) {
		amc_sb_puts(out, "select a node in the UI tree tab (1) first");
		return -1;
	}
	return amc_tui_tree_selected_selector(ev->tree, out);
}

void amc_tui_evidence_set_policy(amc_tui_evidence *ev, const char *policy)
{
	snprintf(ev->policy, sizeof ev->policy, "%s", policy ? policy : "");
}

int amc_tui_evidence_ocr_full(amc_tui_evidence *ev, amc_err *e)
{
	char abs[PATH_MAX];
	if (!ev->have_step || !ev->s.before_screenshot)
		return amc_err_set(e, AMC_EUSAGE, "this step has no before screenshot to read");
	if (amc_store_artifact_abspath(ev->store, ev->s.before_screenshot, abs, sizeof abs, e) != 0)
		return -1;
	amc_image img;
	if (amc_png_decode_file(abs, &img, e) != 0)
		return amc_err_prefix(e, "cannot read the before screenshot");
	amc_ocr_result r;
	int rc = amc_ocr_run(&img, NULL, AMC_OCR_FULL, &r, e);
	amc_image_free(&img);
	if (rc != 0)
		return amc_err_prefix(e, "full OCR");
	cJSON *j = amc_ocr_to_json(&r);
	char *json = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	amc_ocr_result_free(&r);
	list_clear(&ev->l[AMC_TUI_TAB_OCR]);
	ev->ocr_now = 1;
	load_ocr(ev, json);
	free(json);
	ev->l[AMC_TUI_TAB_OCR].sel = -1;
	ev->tab = AMC_TUI_TAB_OCR;
	return 0;
}

int amc_tui_evidence_pick(amc_tui_evidence *ev, int dir)
{
	if (!ev->have_step)
		return 0;
	ev->tab = AMC_TUI_TAB_TREE;
	return amc_tui_tree_pick_next(ev->tree, dir);
}

int amc_tui_evidence_pick_at(amc_tui_evidence *ev, int px, int py)
{
	if (!ev->have_step)
		return 0;
	ev->tab = AMC_TUI_TAB_TREE;
	return amc_tui_tree_pick_at(ev->tree, px, py);
}

int amc_tui_evidence_tree_summary(const amc_tui_evidence *ev, amc_sb *out)
{
	return amc_tui_tree_selected_summary(ev->tree, out);
}

int amc_tui_evidence_tree_mark(const amc_tui_evidence *ev, int box[4])
{
	return ev->tab == AMC_TUI_TAB_TREE && amc_tui_tree_selected_bounds(ev->tree, box);
}

void amc_tui_evidence_click(amc_tui_evidence *ev, int row, int col, int twice)
{
	int bottom = ev->drawn_h > 2 && row == ev->drawn_h - 1;
	if (row == 0 || bottom) {
		for (int i = 0; i < AMC_TUI_NTABS; i++)
			if (ev->tab_col[i][0] >= 0 && ev->tab_row[i] == bottom && col >= ev->tab_col[i][0] &&
			    col <= ev->tab_col[i][1])
				ev->tab = (amc_tui_tab)i;
		return;
	}
	int first = 1 + (ev->sum_rows > 0 ? ev->sum_rows : 1); /* the frame, the label */
	if (row < first)
		return;
	if (ev->tab == AMC_TUI_TAB_TREE) {
		amc_tui_tree_click(ev->tree, row - first, twice);
		return;
	}
	list *l = &ev->l[ev->tab];
	long k = l->top + (row - first);
	if (selects(ev->tab) && k >= 0 && k < (long)l->n)
		l->sel = k;
}

int amc_tui_evidence_changed_nothing(const amc_tui_evidence *ev)
{
	return ev->changed_nothing;
}

int amc_tui_evidence_tree_keys(const amc_tui_evidence *ev)
{
	return ev->tab == AMC_TUI_TAB_TREE;
}

void amc_tui_evidence_tree_search(amc_tui_evidence *ev, const char *text)
{
	amc_tui_tree_search(ev->tree, text);
}
