/* tree.c - the UI-tree pane (see tree.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "perception/uitree.h"
#include "tui/app.h"
#include "tui/text.h"
#include "tui/tree.h"
#include "util/strbuf.h"

struct amc_tui_tree {
	amc_ui_tree tree;
	int loaded;
	char *json_pretty;      /* for the JSON view */
	char **json_lines;
	size_t njson;
	unsigned char *collapsed;
	int *visible;           /* node indexes of the visible rows */
	size_t nvisible;
	long sel, top;          /* rows */
	long json_top;
	int json;               /* JSON view on */
	int page;
	char *search;
	char reason[256];
};

/* Wired in by the TUI's caller (tui.h): the TUI includes no flow/ header. */
static amc_tui_selector_fn selector_fn;

void amc_tui_tree_set_selector(amc_tui_selector_fn fn)
{
	selector_fn = fn;
}

amc_tui_tree *amc_tui_tree_new(void)
{
	return amc_xcalloc(1, sizeof(amc_tui_tree));
}

static void tree_reset(amc_tui_tree *t)
{
	if (t->loaded)
		amc_uitree_free(&t->tree);
	memset(&t->tree, 0, sizeof t->tree);
	t->loaded = 0;
	free(t->json_pretty);
	t->json_pretty = NULL;
	for (size_t i = 0; i < t->njson; i++)
		free(t->json_lines[i]);
	free(t->json_lines);
	t->json_lines = NULL;
	t->njson = 0;
	free(t->collapsed);
	t->collapsed = NULL;
	free(t->visible);
	t->visible = NULL;
	t->nvisible = 0;
	t->sel = t->top = t->json_top = 0;
	t->reason[0] = 0;
}

void amc_tui_tree_free(amc_tui_tree *t)
{
	if (!t)
		return;
	tree_reset(t);
	free(t->search);
	free(t);
}

size_t amc_tui_tree_count(const amc_tui_tree *t)
{
	return t->loaded ? t->tree.count : 0;
}

static void relayout(amc_tui_tree *t)
{
	int keep = t->nvisible && t->sel < (long)t->nvisible ? t->visible[t->sel] : 0;
	t->nvisible = 0;
	for (size_t i = 0; i < t->tree.count;) {
		t->visible[t->nvisible++] = (int)i;
		if (t->collapsed[i]) {
			/* skip the subtree: pre-order, so it ends at the next node whose
			 * depth is not deeper */
			size_t j = i + 1;
			while (j < t->tree.count && t->tree.nodes[j].depth > t->tree.nodes[i].depth)
				j++;
			i = j;
		} else {
			i++;
		}
	}
	t->sel = 0;
	for (size_t r = 0; r < t->nvisible; r++)
		if (t->visible[r] <= keep)
			t->sel = (long)r;
}

int amc_tui_tree_load(amc_tui_tree *t, const char *json, amc_err *e)
{
	tree_reset(t);
	if (!json) {
		snprintf(t->reason, sizeof t->reason, "(no UI tree for this step)");
		return 0;
	}
	cJSON *j = cJSON_Parse(json);
	if (!j || amc_uitree_from_json(j, &t->tree, e) != 0) {
		cJSON_Delete(j);
		snprintf(t->reason, sizeof t->reason, "(the stored UI tree cannot be read)");
		return amc_err_set(e, AMC_EUSAGE, "stored UI tree is not valid");
	}
	t->loaded = 1;
	t->json_pretty = cJSON_Print(j);
	cJSON_Delete(j);
	for (const char *p = t->json_pretty; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		t->json_lines = amc_xrealloc(t->json_lines, (t->njson + 1) * sizeof *t->json_lines);
		t->json_lines[t->njson++] = amc_xstrndup(p, n);
		p = nl ? nl + 1 : p + n;
	}
	t->collapsed = amc_xcalloc(t->tree.count + 1, 1);
	t->visible = amc_xcalloc(t->tree.count + 1, sizeof *t->visible);
	relayout(t);
	return 0;
}

static const char *short_class(const char *c)
{
	const char *dot = c ? strrchr(c, '.') : NULL;
	return dot ? dot + 1 : c ? c : "?";
}

static void node_line(const amc_ui_node *n, int collapsed, amc_sb *sb)
{
	for (int d = 0; d < n->depth && d < 40; d++)
		amc_sb_puts(sb, " ");
	amc_sb_puts(sb, n->child_count ? (collapsed ? "+ " : "- ") : "  ");
	amc_sb_puts(sb, short_class(n->class_name));
	if (n->text && *n->text)
		amc_sb_printf(sb, " \"%s\"", n->text);
	if (n->content_desc && *n->content_desc)
		amc_sb_printf(sb, " desc=\"%s\"", n->content_desc);
	if (n->resource_id && *n->resource_id) {
		const char *id = strstr(n->resource_id, ":id/");
		amc_sb_printf(sb, " #%s", id ? id + 4 : n->resource_id);
	}
	if (n->flags & AMC_NODE_CLICKABLE)
		amc_sb_puts(sb, " [click]");
	if (n->flags & AMC_NODE_CHECKED)
		amc_sb_puts(sb, " [checked]");
}

void amc_tui_tree_title(const amc_tui_tree *t, char *out, size_t n)
{
	if (t->loaded)
		snprintf(out, n, "UI tree%s: %zu nodes%s%s", t->json ? " (JSON)" : "", t->tree.count,
			 t->search ? "  /" : "", t->search ? t->search : "");
	else
		snprintf(out, n, "UI tree");
}

void amc_tui_tree_draw_in(amc_tui_tree *t, int y, int x, int h, int w, int focused)
{
	t->page = h;
	if (!t->loaded) {
		amc_tui_put(stdscr, y, x, w, t->reason, amc_tui_attr(AMC_EL_DIM), 0);
		return;
	}
	if (t->json) {
		for (int i = 0; i < t->page && t->json_top + i < (long)t->njson; i++)
			amc_tui_put(stdscr, y + i, x, w, t->json_lines[t->json_top + i], amc_tui_attr(AMC_EL_NORMAL), 1);
		return;
	}
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + t->page)
		t->top = t->sel - t->page + 1;
	for (int i = 0; i < t->page && t->top + i < (long)t->nvisible; i++) {
		int idx = t->visible[t->top + i];
		int sel = t->top + i == t->sel;
		amc_sb sb;
		amc_sb_init(&sb);
		/* A cursor mark, so the selection reads without colour or reverse. */
		amc_sb_puts(&sb, sel ? ">" : " ");
		node_line(&t->tree.nodes[idx], t->collapsed[idx], &sb);
		amc_tui_put(stdscr, y + i, x, w, amc_sb_str(&sb),
			    sel ? amc_tui_attr(focused ? AMC_EL_SELECTED : AMC_EL_FOCUS) : amc_tui_attr(AMC_EL_NORMAL), 1);
		amc_sb_free(&sb);
	}
}

void amc_tui_tree_draw(amc_tui_tree *t, int y, int x, int h, int w, int focused)
{
	char title[128];
	amc_tui_tree_title(t, title, sizeof title);
	amc_tui_box(y, x, h, w, title, focused);
	amc_tui_tree_draw_in(t, y + 1, x + 1, h - 2, w - 2, focused);
}

static int ci_contains(const char *hay, const char *needle)
{
	if (!hay || !*needle)
		return 0;
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return 1;
	return 0;
}

static int matches(const amc_ui_node *n, const char *s)
{
	return ci_contains(n->text, s) || ci_contains(n->resource_id, s) || ci_contains(n->content_desc, s) ||
	       ci_contains(n->class_name, s) || ci_contains(n->hint, s);
}

/* Select node `idx`, expanding its ancestors so it is visible. */
static void reveal(amc_tui_tree *t, int idx)
{
	for (int p = t->tree.nodes[idx].parent; p >= 0; p = t->tree.nodes[p].parent)
		t->collapsed[p] = 0;
	relayout(t);
	for (size_t r = 0; r < t->nvisible; r++)
		if (t->visible[r] == idx)
			t->sel = (long)r;
}

static void find(amc_tui_tree *t, int dir)
{
	if (!t->search || !t->tree.count)
		return;
	long n = (long)t->tree.count;
	long cur = t->nvisible ? t->visible[t->sel] : 0;
	for (long k = 1; k <= n; k++) {
		long i = ((cur + dir * k) % n + n) % n;
		if (matches(&t->tree.nodes[i], t->search)) {
			reveal(t, (int)i);
			return;
		}
	}
}

void amc_tui_tree_search(amc_tui_tree *t, const char *text)
{
	free(t->search);
	t->search = text && *text ? amc_xstrdup(text) : NULL;
	if (!t->search || !t->loaded)
		return;
	long cur = t->nvisible ? t->visible[t->sel] : 0;
	if (matches(&t->tree.nodes[cur], t->search))
		return;
	find(t, 1);
}

static void set_all(amc_tui_tree *t, int collapsed)
{
	for (size_t i = 0; i < t->tree.count; i++)
		t->collapsed[i] = (unsigned char)(collapsed && t->tree.nodes[i].child_count > 0);
	/* Keep the roots visible: collapsing all leaves one row per root. */
	relayout(t);
}

void amc_tui_tree_click(amc_tui_tree *t, int row, int twice)
{
	if (!t->loaded || t->json || row < 0)
		return;
	long r = t->top + row;
	if (r >= (long)t->nvisible)
		return;
	t->sel = r;
	int idx = t->visible[r];
	if (twice && t->tree.nodes[idx].child_count) {
		t->collapsed[idx] = !t->collapsed[idx];
		relayout(t);
	}
}

int amc_tui_tree_request(amc_tui_tree *t, amc_tui_req req)
{
	if (!t->loaded)
		return req == AMC_REQ_COLLAPSE || req == AMC_REQ_EXPAND || req == AMC_REQ_COLLAPSE_ALL ||
		       req == AMC_REQ_EXPAND_ALL || req == AMC_REQ_JSON || req == AMC_REQ_SEARCH_NEXT ||
		       req == AMC_REQ_SEARCH_PREV;
	long *pos = t->json ? &t->json_top : &t->sel;
	long n = t->json ? (long)t->njson : (long)t->nvisible;
	int idx = t->nvisible ? t->visible[t->sel] : 0;
	switch (req) {
	case AMC_REQ_DOWN: (*pos)++; break;
	case AMC_REQ_UP: (*pos)--; break;
	case AMC_REQ_PAGE_DOWN: *pos += t->page > 1 ? t->page : 1; break;
	case AMC_REQ_PAGE_UP: *pos -= t->page > 1 ? t->page : 1; break;
	case AMC_REQ_TOP: *pos = 0; break;
	case AMC_REQ_BOTTOM: *pos = n - 1; break;
	case AMC_REQ_JSON: t->json = !t->json; return 1;
	case AMC_REQ_COLLAPSE:
		if (t->json)
			return 1;
		if (t->tree.nodes[idx].child_count && !t->collapsed[idx]) {
			t->collapsed[idx] = 1;
			relayout(t);
		} else if (t->tree.nodes[idx].parent >= 0) {
			reveal(t, t->tree.nodes[idx].parent); /* h on a leaf: to the parent */
		}
		return 1;
	case AMC_REQ_EXPAND:
		if (!t->json && t->collapsed[idx]) {
			t->collapsed[idx] = 0;
			relayout(t);
		}
		return 1;
	case AMC_REQ_COLLAPSE_ALL: set_all(t, 1); return 1;
	case AMC_REQ_EXPAND_ALL: set_all(t, 0); return 1;
	case AMC_REQ_SEARCH_NEXT: find(t, 1); return 1;
	case AMC_REQ_SEARCH_PREV: find(t, -1); return 1;
	default: return 0;
	}
	if (*pos >= n)
		*pos = n - 1;
	if (*pos < 0)
		*pos = 0;
	return 1;
}

int amc_tui_tree_selected_selector(const amc_tui_tree *t, amc_sb *out)
{
	if (!t || !t->loaded || t->json || t->sel < 0 || t->sel >= (long)t->nvisible) {
		amc_sb_puts(out, "select a node in the UI tree tab first");
		return -1;
	}
	if (!selector_fn) {
		amc_sb_puts(out, "no selector generator in this build of the interface");
		return -1;
	}
	amc_sb yaml;
	amc_sb_init(&yaml);
	int rc = selector_fn(&t->tree, (size_t)t->visible[t->sel], &yaml);
	if (rc == 0)
		amc_sb_printf(out, "tapOn: %s", amc_sb_str(&yaml));
	else
		amc_sb_puts(out, "no selector finds exactly this node (hidden, or nothing in it or its children tells it apart)");
	amc_sb_free(&yaml);
	return rc == 0 ? 0 : -1;
}

/* An element a person would pick on the screenshot: shown, with an area
 * smaller than the screen, and something that names it (text, description,
 * id) or a tap it takes. */
static int pickable(const amc_ui_tree *t, const amc_ui_node *n)
{
	if (n->depth == 0 || n->bounds.x2 <= n->bounds.x1 || n->bounds.y2 <= n->bounds.y1)
		return 0;
	if ((n->text && *n->text) || (n->content_desc && *n->content_desc))
		return 1;
	/* an id or a tap alone: not a container that fills half the screen
	 * (android:id/content, a list), which one does not pick */
	const amc_bounds *r = &t->nodes[0].bounds;
	long screen = (long)(r->x2 - r->x1) * (r->y2 - r->y1);
	long area = (long)(n->bounds.x2 - n->bounds.x1) * (n->bounds.y2 - n->bounds.y1);
	return ((n->resource_id && *n->resource_id) || (n->flags & AMC_NODE_CLICKABLE)) && area * 2 < screen;
}

/* Reading order: top to bottom, then left to right, then outer first. */
static int before(const amc_ui_node *a, int ia, const amc_ui_node *b, int ib)
{
	if (a->bounds.y1 != b->bounds.y1)
		return a->bounds.y1 < b->bounds.y1;
	if (a->bounds.x1 != b->bounds.x1)
		return a->bounds.x1 < b->bounds.x1;
	return ia < ib;
}

int amc_tui_tree_pick_next(amc_tui_tree *t, int dir)
{
	if (!t || !t->loaded || !t->tree.count)
		return 0;
	t->json = 0;
	int cur = t->nvisible && t->sel >= 0 && t->sel < (long)t->nvisible ? t->visible[t->sel] : -1;
	if (cur >= 0 && !pickable(&t->tree, &t->tree.nodes[cur]))
		cur = -1;
	if (dir == 0 && cur >= 0)
		return 1; /* the selected node is one: it is the pick */
	if (dir == 0)
		dir = 1;
	const amc_ui_node *c = cur >= 0 ? &t->tree.nodes[cur] : NULL;
	int best = -1;
	/* the nearest pickable node after (dir > 0) or before the current one in
	 * reading order; from nothing, the first (or the last) */
	for (size_t i = 0; i < t->tree.count; i++) {
		const amc_ui_node *n = &t->tree.nodes[i];
		if ((int)i == cur || !pickable(&t->tree, n))
			continue;
		if (c && (dir > 0 ? !before(c, cur, n, (int)i) : !before(n, (int)i, c, cur)))
			continue;
		if (best < 0 || (dir > 0 ? before(n, (int)i, &t->tree.nodes[best], best)
					 : before(&t->tree.nodes[best], best, n, (int)i)))
			best = (int)i;
	}
	if (best < 0)
		return 0;
	reveal(t, best);
	return 1;
}

int amc_tui_tree_pick_at(amc_tui_tree *t, int px, int py)
{
	if (!t || !t->loaded)
		return 0;
	int best = -1;
	long best_area = 0;
	for (size_t i = 0; i < t->tree.count; i++) {
		const amc_ui_node *n = &t->tree.nodes[i];
		if (!pickable(&t->tree, n) || px < n->bounds.x1 || px >= n->bounds.x2 || py < n->bounds.y1 || py >= n->bounds.y2)
			continue;
		long area = (long)(n->bounds.x2 - n->bounds.x1) * (n->bounds.y2 - n->bounds.y1);
		/* the smallest element under the point: what the finger would hit */
		if (best < 0 || area < best_area) {
			best = (int)i;
			best_area = area;
		}
	}
	if (best < 0)
		return 0;
	t->json = 0;
	reveal(t, best);
	return 1;
}

int amc_tui_tree_selected_summary(const amc_tui_tree *t, amc_sb *out)
{
	if (!t || !t->loaded || t->json || t->sel < 0 || t->sel >= (long)t->nvisible)
		return -1;
	amc_sb line;
	amc_sb_init(&line);
	const amc_ui_node *n = &t->tree.nodes[t->visible[t->sel]];
	node_line(n, 0, &line);
	/* node_line indents by depth and marks children: the words only */
	const char *p = amc_sb_str(&line);
	while (*p == ' ' || *p == '-' || *p == '+')
		p++;
	amc_sb_puts(out, p);
	amc_sb_free(&line);
	return 0;
}

int amc_tui_tree_selected_bounds(const amc_tui_tree *t, int box[4])
{
	if (!t || !t->loaded || t->json || t->sel < 0 || t->sel >= (long)t->nvisible)
		return 0;
	const amc_ui_node *n = &t->tree.nodes[t->visible[t->sel]];
	/* a root is the whole screen: an outline would only hide its edge */
	if (n->depth == 0 || n->bounds.x2 <= n->bounds.x1 || n->bounds.y2 <= n->bounds.y1)
		return 0;
	box[0] = n->bounds.x1;
	box[1] = n->bounds.y1;
	box[2] = n->bounds.x2;
	box[3] = n->bounds.y2;
	return 1;
}
