/* selgen.c - a selector for one node (flow/selgen.h). */
#include "flow/selgen.h"

#include <stdlib.h>
#include <string.h>

#include "flow/selector.h"
#include "util/strbuf.h"

char *amc_selgen_regex_literal(const char *s)
{
	amc_sb sb;
	amc_sb_init(&sb);
	for (const char *p = s; *p; p++) {
		if (strchr("\\^$.|?*+()[]{}", *p))
			amc_sb_putc(&sb, '\\');
		amc_sb_putc(&sb, *p);
	}
	return amc_sb_detach(&sb);
}

void amc_selgen_free(amc_selector *s)
{
	free(s->text);
	free(s->id);
	if (s->contains_child) {
		amc_selgen_free(s->contains_child);
		free(s->contains_child);
	}
	memset(s, 0, sizeof *s);
}

/* 1 when `sel` (index set or not) finds node i and, without an index,
 * nothing else. With an index the index is searched. */
static int finds(amc_selector *sel, const amc_ui_tree *t, size_t i, int with_index)
{
	if (!with_index) {
		sel->has_index = 0;
		return amc_selector_count(sel, t) == 1 && amc_selector_find(sel, t) == (int)i;
	}
	int count = amc_selector_count(sel, t);
	sel->has_index = 1;
	for (sel->index = 0; sel->index < count && sel->index < AMC_SELGEN_MAX_INDEX; sel->index++)
		if (amc_selector_find(sel, t) == (int)i)
			return 1;
	sel->has_index = 0;
	return 0;
}

static int gen(const amc_ui_tree *t, size_t i, amc_selector *out, int depth);

/* A node that a descendant with the same text or id shadows (the engine
 * keeps the deepest match): containsChild with a selector of one of its
 * direct children. */
static int by_child(const amc_ui_tree *t, size_t i, amc_selector *out, int depth)
{
	if (depth >= 5)
		return -1;
	for (size_t c = i + 1; c < t->count; c++) {
		if (t->nodes[c].parent != (int)i)
			continue;
		amc_selector child;
		if (gen(t, c, &child, depth + 1) != 0)
			continue;
		amc_selector sel;
		memset(&sel, 0, sizeof sel);
		sel.contains_child = malloc(sizeof child);
		if (!sel.contains_child) {
			amc_selgen_free(&child);
			return -1;
		}
		*sel.contains_child = child;
		for (int with_index = 0; with_index < 2; with_index++)
			if (finds(&sel, t, i, with_index)) {
				*out = sel;
				return 0;
			}
		amc_selgen_free(&sel);
	}
	return -1;
}

int amc_selgen_node(const amc_ui_tree *t, size_t i, amc_selector *out)
{
	return gen(t, i, out, 0);
}

static int gen(const amc_ui_tree *t, size_t i, amc_selector *out, int depth)
{
	memset(out, 0, sizeof *out);
	if (i >= t->count)
		return -1;
	const amc_ui_node *n = &t->nodes[i];
	if (!(n->flags & AMC_NODE_DISPLAYED))
		return -1;
	const char *text = n->text && *n->text ? n->text : n->content_desc && *n->content_desc ? n->content_desc : NULL;
	const char *id = n->resource_id && *n->resource_id ? n->resource_id : NULL;
	if (!text && !id)
		return by_child(t, i, out, depth);
	char *rt = text ? amc_selgen_regex_literal(text) : NULL;
	char *ri = id ? amc_selgen_regex_literal(id) : NULL;
	/* id, text, both; then each with an index */
	const struct { int id, text; } ways[] = { { 1, 0 }, { 0, 1 }, { 1, 1 } };
	for (int with_index = 0; with_index < 2; with_index++)
		for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
			if ((ways[w].id && !ri) || (ways[w].text && !rt))
				continue;
			amc_selector sel;
			memset(&sel, 0, sizeof sel);
			sel.id = ways[w].id ? ri : NULL;
			sel.text = ways[w].text ? rt : NULL;
			if (finds(&sel, t, i, with_index)) {
				*out = sel;
				out->id = sel.id ? strdup(sel.id) : NULL;
				out->text = sel.text ? strdup(sel.text) : NULL;
				free(rt);
				free(ri);
				return 0;
			}
		}
	free(rt);
	free(ri);
	return by_child(t, i, out, depth);
}

static void yq(amc_sb *out, const char *s)
{
	amc_sb_putc(out, '"');
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			amc_sb_putc(out, '\\');
		amc_sb_putc(out, *p);
	}
	amc_sb_putc(out, '"');
}

void amc_selgen_yaml(const amc_selector *s, amc_sb *out)
{
	const char *sep = "";
	amc_sb_putc(out, '{');
	if (s->id) {
		amc_sb_puts(out, "id: ");
		yq(out, s->id);
		sep = ", ";
	}
	if (s->text) {
		amc_sb_printf(out, "%stext: ", sep);
		yq(out, s->text);
		sep = ", ";
	}
	if (s->has_index) {
		amc_sb_printf(out, "%sindex: %d", sep, s->index);
		sep = ", ";
	}
	if (s->contains_child) {
		amc_sb_printf(out, "%scontainsChild: ", sep);
		amc_selgen_yaml(s->contains_child, out);
	}
	amc_sb_putc(out, '}');
}
