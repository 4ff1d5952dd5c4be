/* uitree.c - the UI tree's node model: one flat node array in document order,
 * built node by node (the format readers in uitree_read.c and the stored-tree
 * reader below share the builder), the flag table, and the JSON form that
 * timelines store. Reading device XML is in uitree_xml.c and uitree_read.c. */
#include "perception/uitree.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* ---- flags ------------------------------------------------------------- */

/* One table gives the JSON names, the flag-name list and the uiautomator
 * attribute each flag is read from. */
static const struct flag_def {
	unsigned flag;
	const char *name;   /* JSON / display name */
	const char *attr;   /* uiautomator attribute that sets it when "true"; NULL if derived */
} flag_defs[] = {
	{AMC_NODE_CHECKABLE, "checkable", "checkable"},
	{AMC_NODE_CHECKED, "checked", "checked"},
	{AMC_NODE_CLICKABLE, "clickable", "clickable"},
	{AMC_NODE_ENABLED, "enabled", "enabled"},
	{AMC_NODE_FOCUSABLE, "focusable", "focusable"},
	{AMC_NODE_FOCUSED, "focused", "focused"},
	{AMC_NODE_SCROLLABLE, "scrollable", "scrollable"},
	{AMC_NODE_LONG_CLICKABLE, "long_clickable", "long-clickable"},
	{AMC_NODE_PASSWORD, "password", "password"},
	{AMC_NODE_SELECTED, "selected", "selected"},
	{AMC_NODE_DISPLAYED, "displayed", NULL},
	{AMC_NODE_NAF, "naf", "NAF"},
};
#define N_FLAGS (sizeof flag_defs / sizeof flag_defs[0])

void amc_uitree_flag_names(unsigned flags, char *out, size_t n)
{
	if (!out || n == 0)
		return;
	out[0] = '\0';
	size_t at = 0;
	for (size_t i = 0; i < N_FLAGS; i++) {
		if (!(flags & flag_defs[i].flag))
			continue;
		int w = snprintf(out + at, n - at, "%s%s", at ? "," : "", flag_defs[i].name);
		if (w < 0 || (size_t)w >= n - at) {
			/* Truncated: keep whole names only, so a reader never sees half a word. */
			out[at] = '\0';
			return;
		}
		at += (size_t)w;
	}
}

unsigned amc_uitree_flag_by_name(const char *name)
{
	for (size_t i = 0; name && i < N_FLAGS; i++)
		if (!strcmp(name, flag_defs[i].name))
			return flag_defs[i].flag;
	return 0;
}

unsigned amc_uitree_flag_by_attr(const char *attr)
{
	for (size_t i = 0; attr && i < N_FLAGS; i++)
		if (flag_defs[i].attr && !strcmp(attr, flag_defs[i].attr))
			return flag_defs[i].flag;
	return 0;
}

/* ---- tree building ---------------------------------------------------- */

void amc_uitree_free(amc_ui_tree *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->count; i++) {
		amc_ui_node *n = &t->nodes[i];
		free(n->text);
		free(n->resource_id);
		free(n->class_name);
		free(n->package);
		free(n->content_desc);
		free(n->hint);
	}
	free(t->nodes);
	memset(t, 0, sizeof *t);
}

void amc_uitree_builder_init(amc_uitree_builder *b, amc_ui_tree *t)
{
	*b = (amc_uitree_builder){ .t = t, .last_root = -1 };
}

void amc_uitree_builder_done(amc_uitree_builder *b)
{
	free(b->last_child);
	b->last_child = NULL;
}

int amc_uitree_too_deep(amc_err *e)
{
	return amc_err_set(e, AMC_EUSAGE,
		"UI tree nests deeper than %d levels; refusing it (check that the input "
			"is a UI dump)", AMC_UITREE_MAX_DEPTH);
}

int amc_uitree_builder_add(amc_uitree_builder *b, int parent, amc_err *e)
{
	amc_ui_tree *t = b->t;
	if (t->count >= AMC_UITREE_MAX_NODES)
		return amc_err_set(e, AMC_EUSAGE,
			"UI tree has more than %d nodes; refusing it (a real screen has a few hundred; "
			"check that the input is a single UI dump)", AMC_UITREE_MAX_NODES);
	if (t->count == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		t->nodes = amc_xrealloc(t->nodes, b->cap * sizeof *t->nodes);
		b->last_child = amc_xrealloc(b->last_child, b->cap * sizeof *b->last_child);
	}
	int id = (int)t->count;
	amc_ui_node *n = &t->nodes[id];
	memset(n, 0, sizeof *n);
	n->parent = parent;
	n->first_child = -1;
	n->next_sibling = -1;
	n->depth = parent < 0 ? 0 : t->nodes[parent].depth + 1;
	if (n->depth >= AMC_UITREE_MAX_DEPTH)
		return amc_uitree_too_deep(e);
	n->text = amc_xstrdup("");
	n->resource_id = amc_xstrdup("");
	n->class_name = amc_xstrdup("");
	n->package = amc_xstrdup("");
	n->content_desc = amc_xstrdup("");
	n->hint = amc_xstrdup("");
	t->count++;

	b->last_child[id] = -1;

	int prev;
	if (parent < 0) {
		prev = b->last_root;
		b->last_root = id;
	} else {
		amc_ui_node *p = &t->nodes[parent];
		n->index = p->child_count; /* the position, unless an "index" attribute says otherwise */
		prev = b->last_child[parent];
		if (p->first_child < 0)
			p->first_child = id;
		b->last_child[parent] = id;
		p->child_count++;
	}
	if (prev >= 0)
		t->nodes[prev].next_sibling = id;
	return id;
}

void amc_uitree_set_str(char **field, const char *v)
{
	free(*field);
	*field = amc_xstrdup(v ? v : "");
}

/* ---- JSON ------------------------------------------------------------- */

static cJSON *node_to_json(const amc_ui_tree *t, int i)
{
	const amc_ui_node *n = &t->nodes[i];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "index", n->index);
	cJSON_AddStringToObject(o, "class", n->class_name);
	cJSON_AddStringToObject(o, "text", n->text);
	cJSON_AddStringToObject(o, "resource_id", n->resource_id);
	cJSON_AddStringToObject(o, "package", n->package);
	cJSON_AddStringToObject(o, "content_desc", n->content_desc);
	cJSON_AddStringToObject(o, "hint", n->hint);
	int b[4] = {n->bounds.x1, n->bounds.y1, n->bounds.x2, n->bounds.y2};
	cJSON_AddItemToObject(o, "bounds", cJSON_CreateIntArray(b, 4));
	cJSON *fl = cJSON_AddArrayToObject(o, "flags");
	for (size_t k = 0; k < N_FLAGS; k++)
		if (n->flags & flag_defs[k].flag)
			cJSON_AddItemToArray(fl, cJSON_CreateString(flag_defs[k].name));
	cJSON *ch = cJSON_AddArrayToObject(o, "children");
	for (int c = n->first_child; c >= 0; c = t->nodes[c].next_sibling)
		cJSON_AddItemToArray(ch, node_to_json(t, c));
	return o;
}

cJSON *amc_uitree_to_json(const amc_ui_tree *t)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "format", t ? t->format : "");
	cJSON_AddNumberToObject(o, "rotation", t ? t->rotation : 0);
	cJSON *arr = cJSON_AddArrayToObject(o, "nodes");
	if (t && t->count)
		for (int r = 0; r >= 0; r = t->nodes[r].next_sibling)
			cJSON_AddItemToArray(arr, node_to_json(t, r));
	return o;
}

static int json_int_val(const cJSON *v, int *out)
{
	if (!cJSON_IsNumber(v))
		return -1;
	double d = v->valuedouble;
	if (!(d >= INT_MIN && d <= INT_MAX) || d != (double)(int)d)
		return -1;
	*out = (int)d;
	return 0;
}

static int json_str_field(const cJSON *o, const char *key, char **dst, amc_err *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v) || !v->valuestring)
		return amc_err_set(e, AMC_EUSAGE, "stored UI tree: \"%s\" is not a string", key);
	amc_uitree_set_str(dst, v->valuestring);
	return 0;
}

static int node_from_json(amc_uitree_builder *b, const cJSON *o, int parent, amc_err *e)
{
	if (!cJSON_IsObject(o))
		return amc_err_set(e, AMC_EUSAGE, "stored UI tree: a node is not an object");
	int id = amc_uitree_builder_add(b, parent, e);
	if (id < 0)
		return -1;
	/* `n` is not used after the children are added: they may move the array. */
	amc_ui_node *n = &b->t->nodes[id];
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "index");
	if (v && json_int_val(v, &n->index) != 0)
		return amc_err_set(e, AMC_EUSAGE, "stored UI tree: \"index\" is not an integer");
	if (json_str_field(o, "class", &n->class_name, e) || json_str_field(o, "text", &n->text, e) ||
	    json_str_field(o, "resource_id", &n->resource_id, e) ||
	    json_str_field(o, "package", &n->package, e) ||
	    json_str_field(o, "content_desc", &n->content_desc, e) ||
	    json_str_field(o, "hint", &n->hint, e))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(o, "bounds");
	if (v) {
		int bv[4];
		if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 4)
			return amc_err_set(e, AMC_EUSAGE, "stored UI tree: \"bounds\" is not [x1,y1,x2,y2]");
		for (int k = 0; k < 4; k++)
			if (json_int_val(cJSON_GetArrayItem(v, k), &bv[k]) != 0)
				return amc_err_set(e, AMC_EUSAGE, "stored UI tree: \"bounds\" holds a non-integer");
		n->bounds = (amc_bounds){bv[0], bv[1], bv[2], bv[3]};
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "flags");
	if (v) {
		if (!cJSON_IsArray(v))
			return amc_err_set(e, AMC_EUSAGE, "stored UI tree: \"flags\" is not an array");
		const cJSON *f;
		cJSON_ArrayForEach(f, v) {
			if (!cJSON_IsString(f))
				return amc_err_set(e, AMC_EUSAGE, "stored UI tree: a flag is not a string");
			/* Unknown names are skipped: a newer amc may store more flags. */
			n->flags |= amc_uitree_flag_by_name(f->valuestring);
		}
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "children");
	if (v) {
		if (!cJSON_IsArray(v))
			return amc_err_set(e, AMC_EUSAGE, "stored UI tree: \"children\" is not an array");
		const cJSON *c;
		cJSON_ArrayForEach(c, v)
			if (node_from_json(b, c, id, e) != 0)
				return -1;
	}
	return 0;
}

int amc_uitree_from_json(const cJSON *j, amc_ui_tree *out, amc_err *e)
{
	if (!out)
		return amc_err_set(e, AMC_EUSAGE, "internal: no tree to read into");
	memset(out, 0, sizeof *out);
	if (!cJSON_IsObject(j))
		return amc_err_set(e, AMC_EUSAGE, "stored UI tree is not a JSON object");
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "format");
	if (!cJSON_IsString(f) || !f->valuestring || strlen(f->valuestring) >= sizeof out->format)
		return amc_err_set(e, AMC_EUSAGE, "stored UI tree has no valid \"format\"");
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(j, "rotation");
	if (r && json_int_val(r, &out->rotation) != 0)
		return amc_err_set(e, AMC_EUSAGE, "stored UI tree: \"rotation\" is not an integer");
	const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(j, "nodes");
	if (!cJSON_IsArray(nodes)) {
		memset(out, 0, sizeof *out);
		return amc_err_set(e, AMC_EUSAGE, "stored UI tree has no \"nodes\" array");
	}
	amc_uitree_builder b;
	amc_uitree_builder_init(&b, out);
	const cJSON *c;
	cJSON_ArrayForEach(c, nodes) {
		if (node_from_json(&b, c, -1, e) != 0) {
			amc_uitree_builder_done(&b);
			amc_uitree_free(out);
			return -1;
		}
	}
	amc_uitree_builder_done(&b);
	snprintf(out->format, sizeof out->format, "%s", f->valuestring);
	return 0;
}
