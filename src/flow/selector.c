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

static int node_matches(matcher *text, matcher *id, const amc_ui_node *n)
{
	if (!(n->flags & AMC_NODE_DISPLAYED))
		return 0;
	if (text->pattern && !value_matches(text, n->text) && !value_matches(text, n->content_desc) &&
	    !value_matches(text, n->hint))
		return 0;
	if (id->pattern && !id_matches(id, n->resource_id))
		return 0;
	return 1;
}

static int before(const amc_ui_tree *t, int a, int b)
{
	const amc_bounds *ba = &t->nodes[a].bounds, *bb = &t->nodes[b].bounds;
	if (ba->y1 != bb->y1)
		return ba->y1 < bb->y1;
	if (ba->x1 != bb->x1)
		return ba->x1 < bb->x1;
	return a < b;
}

/* Stable bottom-up merge sort by (y1, x1), document order on ties. (qsort would
 * need the tree in a global, and runners for several devices are threads.) */
static void sort_by_position(const amc_ui_tree *t, int *idx, int cnt)
{
	if (cnt < 2)
		return;
	int *tmp = amc_xmalloc((size_t)cnt * sizeof *tmp);
	for (int w = 1; w < cnt; w *= 2) {
		for (int lo = 0; lo < cnt; lo += 2 * w) {
			int mid = lo + w < cnt ? lo + w : cnt, hi = lo + 2 * w < cnt ? lo + 2 * w : cnt;
			int a = lo, b = mid, k = lo;
			while (a < mid && b < hi)
				tmp[k++] = before(t, idx[b], idx[a]) ? idx[b++] : idx[a++];
			while (a < mid)
				tmp[k++] = idx[a++];
			while (b < hi)
				tmp[k++] = idx[b++];
		}
		memcpy(idx, tmp, (size_t)cnt * sizeof *idx);
	}
	free(tmp);
}

/* Matching node indexes, deepest only, sorted top-to-bottom then left-to-right.
 * Returns the count; *out (caller frees) may be NULL when the count is 0. */
static int collect(const amc_selector *s, const amc_ui_tree *t, int **out)
{
	*out = NULL;
	if (!s || !t || !t->nodes || t->count == 0 || (!s->text && !s->id))
		return 0;
	matcher text, id;
	matcher_init(&text, s->text);
	matcher_init(&id, s->id);
	size_t n = t->count;
	unsigned char *hit = amc_xcalloc(n, 1), *covered = amc_xcalloc(n, 1);
	for (size_t i = 0; i < n; i++)
		hit[i] = (unsigned char)node_matches(&text, &id, &t->nodes[i]);
	matcher_free(&text);
	matcher_free(&id);
	/* Mark every ancestor of a match; stop early at one already marked. The
	 * step bound guards against a malformed parent chain with a cycle. */
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
	int *idx = amc_xmalloc(n * sizeof *idx);
	int cnt = 0;
	for (size_t i = 0; i < n; i++)
		if (hit[i] && !covered[i])
			idx[cnt++] = (int)i;
	free(hit);
	free(covered);
	if (cnt == 0) {
		free(idx);
		return 0;
	}
	sort_by_position(t, idx, cnt);
	*out = idx;
	return cnt;
}

int amc_selector_find(const amc_selector *s, const amc_ui_tree *t)
{
	int *idx;
	int cnt = collect(s, t, &idx);
	int want = s && s->index > 0 ? s->index : 0;
	int r = want < cnt ? idx[want] : -1;
	free(idx);
	return r;
}

int amc_selector_count(const amc_selector *s, const amc_ui_tree *t)
{
	int *idx;
	int cnt = collect(s, t, &idx);
	free(idx);
	return cnt;
}

static void put_q(amc_sb *sb, const char *v)
{
	amc_sb_putc(sb, '"');
	size_t len = strlen(v);
	amc_sanitize_line(v, len > 80 ? 80 : len, sb);
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
