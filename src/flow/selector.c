/* selector.c - Maestro selector semantics over a normalized UI tree.
 *
 * Like Maestro: a pattern matches a value when it equals it literally or when
 * the regex (case-insensitive, dot matches newline, multi-line) matches the whole
 * value; values with newlines are also tried with the newlines as spaces. A
 * pattern that does not compile is compared literally. When a node and one of its
 * descendants both match, only the deepest is kept (so a tap lands on the
 * element, not on its container). Each pattern is compiled once per call and the
 * match is bounded by PCRE2's match and depth limits, so a pathological pattern
 * costs a bounded amount of work per node and counts as no match. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "flow/selector.h"

#include <pcre2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/sanitize.h"
#include "util/strbuf.h"

#define SEL_MATCH_LIMIT 100000u
#define SEL_DEPTH_LIMIT 5000u
#define SEL_HEAP_LIMIT_KIB 20000u
#define SEL_MAX_LIMIT_HITS 3

typedef struct matcher {
	const char *pattern;
	pcre2_code *re;          /* NULL: literal comparison only */
	pcre2_match_data *md;
	pcre2_match_context *mc;
	int limit_hits;          /* after a few, the pattern is treated as pathological */
} matcher;

static void matcher_init(matcher *m, const char *pattern)
{
	int err;
	PCRE2_SIZE off;
	memset(m, 0, sizeof *m);
	m->pattern = pattern;
	if (!pattern)
		return;
	m->re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
			      PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED |
			      PCRE2_CASELESS | PCRE2_DOTALL | PCRE2_MULTILINE,
			      &err, &off, NULL);
	if (!m->re)
		return;
	m->md = pcre2_match_data_create_from_pattern(m->re, NULL);
	m->mc = pcre2_match_context_create(NULL);
	if (!m->md || !m->mc) {
		pcre2_match_data_free(m->md);
		pcre2_match_context_free(m->mc);
		pcre2_code_free(m->re);
		m->re = NULL;
		m->md = NULL;
		m->mc = NULL;
		return;
	}
	pcre2_set_match_limit(m->mc, SEL_MATCH_LIMIT);
	pcre2_set_depth_limit(m->mc, SEL_DEPTH_LIMIT);
	pcre2_set_heap_limit(m->mc, SEL_HEAP_LIMIT_KIB);
}

static void matcher_free(matcher *m)
{
	pcre2_match_data_free(m->md);
	pcre2_match_context_free(m->mc);
	pcre2_code_free(m->re);
	memset(m, 0, sizeof *m);
}

static int regex_full(matcher *m, const char *s, size_t len)
{
	if (!m->re || m->limit_hits >= SEL_MAX_LIMIT_HITS)
		return 0;
	/* ANCHORED + ENDANCHORED at compile time: a match spans the whole subject.
	 * Errors (match limit hit, bad UTF) count as no match; a pattern that keeps
	 * hitting the limits is only compared literally for the rest of the tree, so
	 * one call costs a few limits' worth of work, not one per node. */
	int rc = pcre2_match(m->re, (PCRE2_SPTR)s, len, 0, 0, m->md, m->mc);
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT)
		m->limit_hits++;
	return rc >= 0;
}

static int value_matches(matcher *m, const char *v)
{
	if (!v || !*v)
		return 0;
	size_t len = strlen(v);
	if (!strcmp(v, m->pattern) || regex_full(m, v, len))
		return 1;
	if (!memchr(v, '\n', len))
		return 0;
	char *flat = amc_xstrdup(v);
	for (char *c = flat; *c; c++)
		if (*c == '\n')
			*c = ' ';
	int hit = !strcmp(flat, m->pattern) || regex_full(m, flat, len);
	free(flat);
	return hit;
}

static int id_matches(matcher *m, const char *rid)
{
	if (!rid || !*rid)
		return 0;
	if (value_matches(m, rid))
		return 1;
	const char *slash = strrchr(rid, '/');  /* "pkg:id/name" -> "name" */
	return slash && value_matches(m, slash + 1);
}

/* ---- Maestro's filters, each giving an ordered list of node indexes ---- */

typedef struct list {
	int *v;
	int n;
} list;

static void list_add(list *l, int i, size_t cap)
{
	if (l->v == NULL)
		l->v = amc_xmalloc((cap ? cap : 1) * sizeof *l->v);
	l->v[l->n++] = i;
}

static int displayed(const amc_ui_tree *t, size_t i)
{
	return (t->nodes[i].flags & AMC_NODE_DISPLAYED) != 0;
}

/* Is a an ancestor of d (bounded walk: a malformed chain cannot loop)? */
static int ancestor_of(const amc_ui_tree *t, int a, int d)
{
	int p = t->nodes[d].parent;
	for (size_t steps = 0; p >= 0 && (size_t)p < t->count && steps < t->count; steps++) {
		if (p == a)
			return 1;
		p = t->nodes[p].parent;
	}
	return 0;
}

/* Nodes whose value matches, the deepest only (a match inside a match
 * replaces it), in document order: text or id. */
static list deepest(const amc_ui_tree *t, const char *pattern, int is_id)
{
	list out = { 0 };
	matcher m;
	matcher_init(&m, pattern);
	size_t n = t->count;
	unsigned char *hit = amc_xcalloc(n, 1), *covered = amc_xcalloc(n, 1);
	for (size_t i = 0; i < n; i++) {
		const amc_ui_node *nd = &t->nodes[i];
		if (!displayed(t, i))
			continue;
		hit[i] = (unsigned char)(is_id ? id_matches(&m, nd->resource_id)
					       : value_matches(&m, nd->text) || value_matches(&m, nd->content_desc) ||
							 value_matches(&m, nd->hint));
	}
	matcher_free(&m);
	for (size_t i = 0; i < n; i++) {
		if (!hit[i])
			continue;
		int p = t->nodes[i].parent;
		for (size_t steps = 0; p >= 0 && (size_t)p < n && steps < n; steps++) {
			if (covered[p])
				break;
			covered[p] = 1;
			p = t->nodes[p].parent;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (hit[i] && !covered[i])
			list_add(&out, (int)i, n);
	free(hit);
	free(covered);
	return out;
}

static int flag_ok(unsigned flags, unsigned bit, int want)
{
	return want == AMC_SEL_ANY || ((flags & bit) != 0) == (want == AMC_SEL_YES);
}

static int iabs(int x)
{
	return x < 0 ? -x : x;
}

/* Maestro's TraitFilters: hasText (a text), isSquare (|1 - w/h| < 0.03),
 * hasLongText (more than 200 characters). */
static int traits_hold(const amc_ui_node *nd, unsigned traits)
{
	size_t len = nd->text ? strlen(nd->text) : 0;
	int w = nd->bounds.x2 - nd->bounds.x1, h = nd->bounds.y2 - nd->bounds.y1;
	if ((traits & AMC_TRAIT_TEXT) && len == 0)
		return 0;
	if ((traits & AMC_TRAIT_LONG_TEXT) && len <= 200)
		return 0;
	if ((traits & AMC_TRAIT_SQUARE) && (h <= 0 || fabs(1.0 - (double)w / h) >= 0.03))
		return 0;
	return 1;
}

/* Displayed nodes that pass the state and size keys, in document order. */
static list plain(const amc_ui_tree *t, const amc_selector *s)
{
	list out = { 0 };
	for (size_t i = 0; i < t->count; i++) {
		const amc_ui_node *nd = &t->nodes[i];
		if (!displayed(t, i) || !flag_ok(nd->flags, AMC_NODE_ENABLED, s->enabled) ||
		    !flag_ok(nd->flags, AMC_NODE_CHECKED, s->checked) || !flag_ok(nd->flags, AMC_NODE_FOCUSED, s->focused) ||
		    !flag_ok(nd->flags, AMC_NODE_SELECTED, s->selected))
			continue;
		if (s->width > 0 && iabs((nd->bounds.x2 - nd->bounds.x1) - s->width) > s->tolerance)
			continue;
		if (s->height > 0 && iabs((nd->bounds.y2 - nd->bounds.y1) - s->height) > s->tolerance)
			continue;
		if (s->traits && !traits_hold(nd, s->traits))
			continue;
		list_add(&out, (int)i, t->count);
	}
	return out;
}

enum { REL_BELOW, REL_ABOVE, REL_LEFT_OF, REL_RIGHT_OF };

static int rel_holds(const amc_bounds *it, const amc_bounds *other, int kind)
{
	switch (kind) {
	case REL_BELOW: return it->y1 > other->y1;
	case REL_ABOVE: return it->y1 < other->y1;
	case REL_LEFT_OF: return it->x1 < other->x1;
	default: return it->x1 > other->x1;
	}
}

static double center_dist(const amc_bounds *a, const amc_bounds *b)
{
	double ax = (a->x1 + a->x2) / 2.0, ay = (a->y1 + a->y2) / 2.0;
	double bx = (b->x1 + b->x2) / 2.0, by = (b->y1 + b->y2) / 2.0;
	return (ax - bx) * (ax - bx) + (ay - by) * (ay - by); /* squared: the order is the same */
}

typedef struct pair {
	int node;
	double d;
	int seq;
} pair;

static int pair_before(const pair *a, const pair *b)
{
	return a->d < b->d || (a->d == b->d && a->seq < b->seq);
}

/* Every displayed node in relation `kind` to some anchor, nearest pairs first
 * (centre distance), each node once where it first comes. */
static list relative_to(const amc_ui_tree *t, const list *anchors, int kind)
{
	list out = { 0 };
	size_t cap = 16, np = 0;
	pair *ps = amc_xmalloc(cap * sizeof *ps);
	for (size_t i = 0; i < t->count; i++) {
		if (!displayed(t, i))
			continue;
		for (int k = 0; k < anchors->n; k++) {
			const amc_bounds *o = &t->nodes[anchors->v[k]].bounds;
			if (!rel_holds(&t->nodes[i].bounds, o, kind))
				continue;
			if (np == cap) {
				cap *= 2;
				ps = amc_xrealloc(ps, cap * sizeof *ps);
			}
			ps[np] = (pair){ (int)i, center_dist(&t->nodes[i].bounds, o), (int)np };
			np++;
		}
	}
	/* insertion sort would be quadratic on big trees: bottom-up merge sort */
	pair *tmp = amc_xmalloc((np ? np : 1) * sizeof *tmp);
	for (size_t w = 1; w < np; w *= 2) {
		for (size_t lo = 0; lo < np; lo += 2 * w) {
			size_t mid = lo + w < np ? lo + w : np, hi = lo + 2 * w < np ? lo + 2 * w : np;
			size_t a = lo, b = mid, k = lo;
			while (a < mid && b < hi)
				tmp[k++] = pair_before(&ps[b], &ps[a]) ? ps[b++] : ps[a++];
			while (a < mid)
				tmp[k++] = ps[a++];
			while (b < hi)
				tmp[k++] = ps[b++];
		}
		memcpy(ps, tmp, np * sizeof *ps);
	}
	free(tmp);
	unsigned char *seen = amc_xcalloc(t->count ? t->count : 1, 1);
	for (size_t i = 0; i < np; i++) {
		if (!seen[ps[i].node]) {
			seen[ps[i].node] = 1;
			list_add(&out, ps[i].node, t->count);
		}
	}
	free(seen);
	free(ps);
	return out;
}

static list resolve(const amc_selector *s, const amc_ui_tree *t, int depth);

/* containsChild: the nodes whose direct child is the child selector's element. */
static list with_child(const amc_ui_tree *t, const amc_selector *child, int depth)
{
	list out = { 0 }, c = resolve(child, t, depth + 1);
	if (c.n > 0) {
		int p = t->nodes[c.v[0]].parent;
		if (p >= 0 && (size_t)p < t->count && displayed(t, (size_t)p))
			list_add(&out, p, 1);
	}
	free(c.v);
	return out;
}

/* containsDescendants: nodes with a match of every selector below them. */
static list with_descendants(const amc_ui_tree *t, const amc_selector *ds, size_t nd, int depth)
{
	list out = { 0 };
	list *each = amc_xcalloc(nd, sizeof *each);
	for (size_t k = 0; k < nd; k++)
		each[k] = resolve(&ds[k], t, depth + 1);
	for (size_t i = 0; i < t->count; i++) {
		if (!displayed(t, i))
			continue;
		int all = 1;
		for (size_t k = 0; k < nd && all; k++) {
			int any = 0;
			for (int j = 0; j < each[k].n && !any; j++)
				any = ancestor_of(t, (int)i, each[k].v[j]);
			all = any;
		}
		if (all)
			list_add(&out, (int)i, t->count);
	}
	for (size_t k = 0; k < nd; k++)
		free(each[k].v);
	free(each);
	return out;
}

/* childOf: nodes inside an element of the parent selector. */
static list inside(const amc_ui_tree *t, const amc_selector *parent, int depth)
{
	list out = { 0 }, ps = resolve(parent, t, depth + 1);
	for (size_t i = 0; i < t->count; i++) {
		if (!displayed(t, i))
			continue;
		int in = 0;
		for (int j = 0; j < ps.n && !in; j++)
			in = ancestor_of(t, ps.v[j], (int)i);
		if (in)
			list_add(&out, (int)i, t->count);
	}
	free(ps.v);
	return out;
}

/* Keep the nodes of *acc that are in l too, in acc's order (Maestro's intersect). */
static void intersect(const amc_ui_tree *t, list *acc, int *have, list l)
{
	if (!*have) {
		*acc = l;
		*have = 1;
		return;
	}
	unsigned char *in = amc_xcalloc(t->count ? t->count : 1, 1);
	for (int i = 0; i < l.n; i++)
		in[l.v[i]] = 1;
	int k = 0;
	for (int i = 0; i < acc->n; i++)
		if (in[acc->v[i]])
			acc->v[k++] = acc->v[i];
	acc->n = k;
	free(in);
	free(l.v);
}

static int before(const amc_ui_tree *t, int a, int b)
{
	const amc_bounds *ba = &t->nodes[a].bounds, *bb = &t->nodes[b].bounds;
	if (ba->y1 != bb->y1)
		return ba->y1 < bb->y1;
	return ba->x1 < bb->x1;
}

static int clickable_before(const amc_ui_tree *t, int a, int b)
{
	return (t->nodes[a].flags & AMC_NODE_CLICKABLE) && !(t->nodes[b].flags & AMC_NODE_CLICKABLE);
}

/* Stable bottom-up merge sort with a "goes before" test. (qsort would need the
 * tree in a global, and runners for several devices are threads.) */
static void sort_nodes(const amc_ui_tree *t, int *idx, int cnt, int (*lt)(const amc_ui_tree *, int, int))
{
	if (cnt < 2)
		return;
	int *tmp = amc_xmalloc((size_t)cnt * sizeof *tmp);
	for (int w = 1; w < cnt; w *= 2) {
		for (int lo = 0; lo < cnt; lo += 2 * w) {
			int mid = lo + w < cnt ? lo + w : cnt, hi = lo + 2 * w < cnt ? lo + 2 * w : cnt;
			int a = lo, b = mid, k = lo;
			while (a < mid && b < hi)
				tmp[k++] = lt(t, idx[b], idx[a]) ? idx[b++] : idx[a++];
			while (a < mid)
				tmp[k++] = idx[a++];
			while (b < hi)
				tmp[k++] = idx[b++];
		}
		memcpy(idx, tmp, (size_t)cnt * sizeof *idx);
	}
	free(tmp);
}

/* The selector's matches in Maestro's order: the filters in Maestro's order
 * intersected (the first filter's order kept), then with index: by position
 * (top to bottom, left to right) and only the index-th; without: clickable
 * ones first. */
static list resolve(const amc_selector *s, const amc_ui_tree *t, int depth)
{
	list acc = { 0 };
	int have = 0;
	if (!s || !t || !t->nodes || t->count == 0 || depth > 16)
		return acc;
	if (s->text)
		intersect(t, &acc, &have, deepest(t, s->text, 0));
	if (s->id)
		intersect(t, &acc, &have, deepest(t, s->id, 1));
	if (s->width > 0 || s->height > 0 || s->enabled || s->checked || s->focused || s->selected || s->traits)
		intersect(t, &acc, &have, plain(t, s));
	const amc_selector *rel[4] = { s->below, s->above, s->left_of, s->right_of };
	for (int k = 0; k < 4; k++) {
		if (!rel[k])
			continue;
		list anchors = resolve(rel[k], t, depth + 1);
		intersect(t, &acc, &have, relative_to(t, &anchors, k));
		free(anchors.v);
	}
	if (s->contains_child)
		intersect(t, &acc, &have, with_child(t, s->contains_child, depth));
	if (s->ndescendants)
		intersect(t, &acc, &have, with_descendants(t, s->descendants, s->ndescendants, depth));
	if (s->child_of)
		intersect(t, &acc, &have, inside(t, s->child_of, depth));
	/* No criterion (only an index, or only a label): Maestro's filter list
	 * is empty and Filters.intersect of no filters keeps every node
	 * (Orchestra.buildFilter); then the index, or clickable first. So
	 * `tapOn: {index: 2}` is the third element in reading order, and
	 * `assertVisible: {label: x}` holds on any screen, as in Maestro. */
	if (!have)
		intersect(t, &acc, &have, plain(t, s));
	if (s->has_index || s->index > 0) {
		sort_nodes(t, acc.v, acc.n, before);
		if (s->index < acc.n) {
			acc.v[0] = acc.v[s->index];
			acc.n = 1;
		} else {
			acc.n = 0;
		}
	} else {
		sort_nodes(t, acc.v, acc.n, clickable_before);
	}
	return acc;
}

int amc_selector_find(const amc_selector *s, const amc_ui_tree *t)
{
	list l = resolve(s, t, 0);
	int r = l.n > 0 ? l.v[0] : -1;
	free(l.v);
	return r;
}

int amc_selector_count(const amc_selector *s, const amc_ui_tree *t)
{
	amc_selector all;
	if (!s)
		return 0;
	all = *s;
	all.has_index = 0;
	all.index = 0;
	list l = resolve(&all, t, 0);
	free(l.v);
	return l.n;
}

static void put_q(amc_sb *sb, const char *v)
{
	amc_sb_putc(sb, '"');
	size_t len = strlen(v);
	amc_sanitize_line(v, amc_utf8_cut(v, 80), sb);
	if (len > 80)
		amc_sb_puts(sb, "...");
	amc_sb_putc(sb, '"');
}

char *amc_selector_describe(const amc_selector *s)
{
	amc_sb sb;
	amc_sb_init(&sb);
	if (!s)
		return amc_sb_detach(&sb);
	if (s->text) {
		amc_sb_puts(&sb, "text=");
		put_q(&sb, s->text);
	}
	if (s->id) {
		amc_sb_puts(&sb, sb.len ? " id=" : "id=");
		put_q(&sb, s->id);
	}
	if (s->has_point)
		amc_sb_printf(&sb, "%spoint=%d%s,%d%s", sb.len ? " " : "", s->point_x,
			      s->point_is_percent ? "%" : "", s->point_y, s->point_is_percent ? "%" : "");
	if (s->index)
		amc_sb_printf(&sb, "%sindex=%d", sb.len ? " " : "", s->index);
	return amc_sb_detach(&sb);
}
