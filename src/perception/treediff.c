/* treediff.c - UI tree diff (the rule is in treediff.h). */
#include "perception/treediff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* One node of either tree, for sorting into groups of equal keys. */
typedef struct item {
	const amc_ui_node *node;
	int side;  /* 0 before, 1 after */
	int idx;
	int keys;  /* the pass's key (qsort has no user pointer, and runner threads diff at once) */
} item;

/* The fields a pass compares, in this order: resource id, class, text, description. */
enum { KEY_ID = 1, KEY_ID_CLASS = 2, KEY_ALL = 4 };

typedef struct matcher {
	const amc_ui_tree *t[2];
	int *pair[2];  /* pair[0][i]: the after node of before node i, -1 none; pair[1] the inverse */
	int pass;      /* 1, 2 or 3, for the counts */
	amc_tree_diff *d;
} matcher;

static const char *s_or(const char *s)
{
	return s ? s : "";
}

static int cmp_fields(const amc_ui_node *a, const amc_ui_node *b, int keys)
{
	int c = strcmp(s_or(a->resource_id), s_or(b->resource_id));
	if (c || keys == KEY_ID)
		return c;
	if ((c = strcmp(s_or(a->class_name), s_or(b->class_name))) != 0 || keys == KEY_ID_CLASS)
		return c;
	if ((c = strcmp(s_or(a->text), s_or(b->text))) != 0)
		return c;
	return strcmp(s_or(a->content_desc), s_or(b->content_desc));
}

static int cmp_items(const void *pa, const void *pb)
{
	const item *a = pa, *b = pb;
	int c = cmp_fields(a->node, b->node, a->keys);
	if (c)
		return c;
	if (a->side != b->side)
		return a->side - b->side;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

static void link_pair(matcher *m, int b, int a)
{
	m->pair[0][b] = a;
	m->pair[1][a] = b;
	m->d->matched++;
	if (m->pass == 1)
		m->d->by_id++;
	else if (m->pass == 2)
		m->d->by_key++;
	else
		m->d->by_place++;
}

static int iabs(int v)
{
	return v < 0 ? -v : v;
}

static int same_place(const amc_ui_node *a, const amc_ui_node *b)
{
	return iabs(a->bounds.x1 - b->bounds.x1) <= AMC_TREEDIFF_BOUNDS_TOL &&
	       iabs(a->bounds.y1 - b->bounds.y1) <= AMC_TREEDIFF_BOUNDS_TOL &&
	       iabs(a->bounds.x2 - b->bounds.x2) <= AMC_TREEDIFF_BOUNDS_TOL &&
	       iabs(a->bounds.y2 - b->bounds.y2) <= AMC_TREEDIFF_BOUNDS_TOL;
}

/* A group of equal keys: g[0..nb) before nodes, g[nb..n) after nodes, each in
 * document order. */
static void pair_group(matcher *m, const item *g, size_t nb, size_t n)
{
	size_t na = n - nb;
	if (!nb || !na)
		return;
	if (m->pass == 1) {
		if (nb == 1 && na == 1)
			link_pair(m, g[0].idx, g[1].idx);
		return;
	}
	/* same place first (passes 2 and 3) */
	if ((long)nb * (long)na <= AMC_TREEDIFF_MAX_PLACE_PAIRS) {
		for (size_t i = 0; i < nb; i++)
			for (size_t j = nb; j < n; j++)
				if (m->pair[1][g[j].idx] < 0 && same_place(g[i].node, g[j].node)) {
					link_pair(m, g[i].idx, g[j].idx);
					break;
				}
	}
	if (m->pass == 3)
		return;
	/* then the rest in document order */
	size_t j = nb;
	for (size_t i = 0; i < nb; i++) {
		if (m->pair[0][g[i].idx] >= 0)
			continue;
		while (j < n && m->pair[1][g[j].idx] >= 0)
			j++;
		if (j == n)
			break;
		link_pair(m, g[i].idx, g[j].idx);
		j++;
	}
}

/* One pass: the unpaired nodes of both trees (with a resource id, for pass 1)
 * sorted by the pass's key, each group of equal keys paired. */
static void run_pass(matcher *m, int pass)
{
	m->pass = pass;
	int keys = pass == 1 ? KEY_ID : pass == 2 ? KEY_ALL : KEY_ID_CLASS;
	size_t cap = m->t[0]->count + m->t[1]->count, n = 0;
	if (!cap)
		return;
	item *v = amc_xmalloc(cap * sizeof *v);
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < m->t[side]->count; i++) {
			const amc_ui_node *node = &m->t[side]->nodes[i];
			if (m->pair[side][i] >= 0 || (pass == 1 && !node->resource_id[0]))
				continue;
			v[n++] = (item){ node, side, (int)i, keys };
		}
	qsort(v, n, sizeof *v, cmp_items);
	for (size_t s = 0; s < n;) {
		size_t e = s + 1, nb = v[s].side == 0;
		while (e < n && !cmp_fields(v[s].node, v[e].node, keys)) {
			nb += v[e].side == 0;
			e++;
		}
		pair_group(m, v + s, nb, e - s);
		s = e;
	}
	free(v);
}

static unsigned changes_of(const amc_ui_node *a, const amc_ui_node *b)
{
	unsigned w = 0;
	if (strcmp(s_or(a->text), s_or(b->text)))
		w |= AMC_TD_TEXT;
	if (strcmp(s_or(a->content_desc), s_or(b->content_desc)))
		w |= AMC_TD_DESC;
	static const struct {
		unsigned flag, what;
	} flags[] = { { AMC_NODE_CHECKED, AMC_TD_CHECKED }, { AMC_NODE_ENABLED, AMC_TD_ENABLED },
		      { AMC_NODE_FOCUSED, AMC_TD_FOCUSED }, { AMC_NODE_SELECTED, AMC_TD_SELECTED } };
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if ((a->flags ^ b->flags) & flags[i].flag)
			w |= flags[i].what;
	if (!same_place(a, b))
		w |= AMC_TD_BOUNDS;
	return w;
}

static void push(amc_tree_diff *d, size_t *cap, amc_td_entry e)
{
	if (d->n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		d->v = amc_xrealloc(d->v, *cap * sizeof *d->v);
	}
	d->v[d->n++] = e;
}

void amc_treediff(const amc_ui_tree *before, const amc_ui_tree *after, amc_tree_diff *out)
{
	memset(out, 0, sizeof *out);
	matcher m = { { before, after }, { NULL, NULL }, 0, out };
	for (int side = 0; side < 2; side++) {
		size_t c = m.t[side]->count;
		m.pair[side] = amc_xmalloc((c ? c : 1) * sizeof(int));
		for (size_t i = 0; i < c; i++)
			m.pair[side][i] = -1;
	}
	run_pass(&m, 1);
	run_pass(&m, 2);
	run_pass(&m, 3);
	size_t cap = 0;
	for (size_t i = 0; i < before->count; i++)
		if (m.pair[0][i] < 0) {
			push(out, &cap, (amc_td_entry){ AMC_TD_REMOVED, (int)i, -1, 0 });
			out->removed++;
		}
	for (size_t j = 0; j < after->count; j++)
		if (m.pair[1][j] < 0) {
			push(out, &cap, (amc_td_entry){ AMC_TD_ADDED, -1, (int)j, 0 });
			out->added++;
		}
	for (size_t j = 0; j < after->count; j++) {
		int i = m.pair[1][j];
		unsigned w = i >= 0 ? changes_of(&before->nodes[i], &after->nodes[j]) : 0;
		if (w) {
			push(out, &cap, (amc_td_entry){ AMC_TD_CHANGED, i, (int)j, w });
			out->changed++;
		}
	}
	free(m.pair[0]);
	free(m.pair[1]);
}

void amc_treediff_free(amc_tree_diff *d)
{
	if (!d)
		return;
	free(d->v);
	memset(d, 0, sizeof *d);
}

/* Position of node i among its siblings (roots count among the roots). */
static int sibling_pos(const amc_ui_tree *t, int i)
{
	int p = t->nodes[i].parent, k = 0;
	int c = p >= 0 ? t->nodes[p].first_child : 0;
	while (c >= 0 && c != i && k <= (int)t->count) {
		c = t->nodes[c].next_sibling;
		k++;
	}
	return k;
}

void amc_treediff_ref(const amc_ui_tree *t, int node, char *out, size_t n)
{
	if (!n)
		return;
	out[0] = 0;
	if (!t || node < 0 || (size_t)node >= t->count)
		return;
	int path[AMC_UITREE_MAX_DEPTH + 1], depth = 0;
	for (int i = node; i >= 0 && depth <= AMC_UITREE_MAX_DEPTH; i = t->nodes[i].parent)
		path[depth++] = sibling_pos(t, i);
	size_t len = 0;
	for (int k = depth - 1; k >= 0 && len < n; k--) {
		int w = snprintf(out + len, n - len, k == depth - 1 ? "%d" : ".%d", path[k]);
		if (w < 0 || (size_t)w >= n - len) {
			out[len] = 0;
			return;
		}
		len += (size_t)w;
	}
}

/* A copy of s cut to AMC_TREEDIFF_JSON_MAX_TEXT bytes without splitting a
 * UTF-8 sequence ("..." marks the cut). */
static cJSON *clipped(const char *s)
{
	s = s_or(s);
	size_t n = strlen(s);
	if (n <= AMC_TREEDIFF_JSON_MAX_TEXT)
		return cJSON_CreateString(s);
	n = AMC_TREEDIFF_JSON_MAX_TEXT;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	char *c = amc_xmalloc(n + 4);
	memcpy(c, s, n);
	memcpy(c + n, "...", 4);
	cJSON *j = cJSON_CreateString(c);
	free(c);
	return j;
}

static void add_clipped(cJSON *o, const char *key, const char *s)
{
	if (s && *s)
		cJSON_AddItemToObject(o, key, clipped(s));
}

static cJSON *bounds_json(const amc_bounds *b)
{
	int v[4] = { b->x1, b->y1, b->x2, b->y2 };
	return cJSON_CreateIntArray(v, 4);
}

static void describe(cJSON *o, const amc_ui_node *n)
{
	add_clipped(o, "class", n->class_name);
	add_clipped(o, "id", n->resource_id);
	add_clipped(o, "text", n->text);
	add_clipped(o, "desc", n->content_desc);
	cJSON_AddItemToObject(o, "bounds", bounds_json(&n->bounds));
}

static void old_new_str(cJSON *ch, const char *key, const char *a, const char *b)
{
	cJSON *p = cJSON_AddArrayToObject(ch, key);
	cJSON_AddItemToArray(p, clipped(a));
	cJSON_AddItemToArray(p, clipped(b));
}

static const struct {
	unsigned what, flag;
	const char *name;
} FLAG_CHANGES[] = {
	{ AMC_TD_CHECKED, AMC_NODE_CHECKED, "checked" },
	{ AMC_TD_ENABLED, AMC_NODE_ENABLED, "enabled" },
	{ AMC_TD_FOCUSED, AMC_NODE_FOCUSED, "focused" },
	{ AMC_TD_SELECTED, AMC_NODE_SELECTED, "selected" },
};
#define N_FLAG_CHANGES (sizeof FLAG_CHANGES / sizeof FLAG_CHANGES[0])

cJSON *amc_treediff_to_json(const amc_tree_diff *d, const amc_ui_tree *before, const amc_ui_tree *after)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "matched", (double)d->matched);
	cJSON_AddNumberToObject(j, "added", (double)d->added);
	cJSON_AddNumberToObject(j, "removed", (double)d->removed);
	cJSON_AddNumberToObject(j, "changed", (double)d->changed);
	cJSON *arr = cJSON_AddArrayToObject(j, "entries");
	size_t shown = d->n < AMC_TREEDIFF_JSON_MAX_ENTRIES ? d->n : AMC_TREEDIFF_JSON_MAX_ENTRIES;
	char ref[256];
	for (size_t k = 0; k < shown; k++) {
		const amc_td_entry *en = &d->v[k];
		cJSON *o = cJSON_CreateObject();
		const amc_ui_node *b = en->before >= 0 ? &before->nodes[en->before] : NULL;
		const amc_ui_node *a = en->after >= 0 ? &after->nodes[en->after] : NULL;
		cJSON_AddStringToObject(o, "op", en->op == AMC_TD_REMOVED ? "-" : en->op == AMC_TD_ADDED ? "+" : "~");
		if (a)
			amc_treediff_ref(after, en->after, ref, sizeof ref);
		else
			amc_treediff_ref(before, en->before, ref, sizeof ref);
		cJSON_AddStringToObject(o, "ref", ref);
		if (a && b) {
			amc_treediff_ref(before, en->before, ref, sizeof ref);
			cJSON_AddStringToObject(o, "before_ref", ref);
		}
		describe(o, a ? a : b);
		if (en->op == AMC_TD_CHANGED) {
			cJSON *ch = cJSON_AddObjectToObject(o, "changes");
			if (en->what & AMC_TD_TEXT)
				old_new_str(ch, "text", b->text, a->text);
			if (en->what & AMC_TD_DESC)
				old_new_str(ch, "desc", b->content_desc, a->content_desc);
			for (size_t f = 0; f < N_FLAG_CHANGES; f++)
				if (en->what & FLAG_CHANGES[f].what) {
					cJSON *p = cJSON_AddArrayToObject(ch, FLAG_CHANGES[f].name);
					cJSON_AddItemToArray(p, cJSON_CreateBool((b->flags & FLAG_CHANGES[f].flag) != 0));
					cJSON_AddItemToArray(p, cJSON_CreateBool((a->flags & FLAG_CHANGES[f].flag) != 0));
				}
			if (en->what & AMC_TD_BOUNDS) {
				cJSON *p = cJSON_AddArrayToObject(ch, "bounds");
				cJSON_AddItemToArray(p, bounds_json(&b->bounds));
				cJSON_AddItemToArray(p, bounds_json(&a->bounds));
			}
		}
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddNumberToObject(j, "omitted", (double)(d->n - shown));
	return j;
}

/* ---- rendering the JSON form ---- */

static const char *short_class(const char *c)
{
	const char *dot = c ? strrchr(c, '.') : NULL;
	return dot ? dot + 1 : c ? c : "";
}

static const char *short_id(const char *id)
{
	const char *p = id ? strstr(id, ":id/") : NULL;
	return p ? p + 4 : id ? id : "";
}

static void put_bounds(amc_sb *sb, const cJSON *b)
{
	if (cJSON_GetArraySize(b) != 4) {
		amc_sb_puts(sb, "[?]");
		return;
	}
	int v[4];
	for (int i = 0; i < 4; i++) {
		const cJSON *x = cJSON_GetArrayItem(b, i);
		v[i] = cJSON_IsNumber(x) ? x->valueint : 0;
	}
	amc_sb_printf(sb, "[%d,%d][%d,%d]", v[0], v[1], v[2], v[3]);
}

static const char *str_item(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
	return s ? s : "";
}

static void put_value(amc_sb *sb, const cJSON *v)
{
	if (cJSON_IsBool(v))
		amc_sb_puts(sb, cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsString(v))
		amc_sb_printf(sb, "\"%s\"", v->valuestring);
	else if (cJSON_IsArray(v))
		put_bounds(sb, v);
	else
		amc_sb_puts(sb, "?");
}

int amc_treediff_render(const cJSON *tree, int utf8, amc_treediff_line_fn fn, void *ud)
{
	const cJSON *entries = cJSON_GetObjectItemCaseSensitive(tree, "entries");
	if (!cJSON_IsArray(entries))
		return 0;
	int lines = 0;
	amc_sb sb;
	amc_sb_init(&sb);
	const cJSON *en;
	cJSON_ArrayForEach(en, entries) {
		const char *op = str_item(en, "op");
		if (strlen(op) != 1 || !strchr("+-~", op[0]))
			continue;
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "%c %s", op[0], short_class(str_item(en, "class")));
		const char *text = str_item(en, "text"), *desc = str_item(en, "desc"), *id = str_item(en, "id");
		if (*text)
			amc_sb_printf(&sb, " \"%s\"", text);
		else if (*desc)
			amc_sb_printf(&sb, " (%s)", desc);
		if (*id)
			amc_sb_printf(&sb, " #%s", short_id(id));
		const cJSON *ch = cJSON_GetObjectItemCaseSensitive(en, "changes");
		if (op[0] == '~' && cJSON_IsObject(ch)) {
			const cJSON *c;
			cJSON_ArrayForEach(c, ch) {
				if (cJSON_GetArraySize(c) != 2 || !c->string)
					continue;
				amc_sb_printf(&sb, "  %s: ", c->string);
				put_value(&sb, cJSON_GetArrayItem(c, 0));
				amc_sb_puts(&sb, utf8 ? " \xe2\x86\x92 " : " -> ");
				put_value(&sb, cJSON_GetArrayItem(c, 1));
			}
		} else {
			amc_sb_putc(&sb, ' ');
			put_bounds(&sb, cJSON_GetObjectItemCaseSensitive(en, "bounds"));
		}
		amc_sb_printf(&sb, "  @%s", str_item(en, "ref"));
		fn(op[0], amc_sb_str(&sb), ud);
		lines++;
	}
	const cJSON *om = cJSON_GetObjectItemCaseSensitive(tree, "omitted");
	if (cJSON_IsNumber(om) && om->valuedouble >= 1) {
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "  ... %.0f more not stored", om->valuedouble);
		fn(' ', amc_sb_str(&sb), ud);
		lines++;
	}
	amc_sb_free(&sb);
	return lines;
}
