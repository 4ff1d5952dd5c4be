/* scene.c - the Scene of seed 002, built from the UI tree alone (OCR fusion
 * comes later). An element is a visible node that means something to a user or a
 * planner: it carries text, a description or a hint, or it can be interacted with.
 * Pure layout containers are left out so the Scene stays small. */
#include "perception/scene.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* ---- class names ------------------------------------------------------- */

/* "android.widget.Button" -> "Button"; inner classes ("Outer$Inner") -> "Inner". */
static const char *simple_name(const char *cls)
{
	const char *s = cls;
	for (const char *p = cls; *p; p++)
		if (*p == '.' || *p == '$')
			s = p + 1;
	return s;
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !memcmp(s + a - b, suf, b);
}

static int ends_with_any(const char *s, const char *const *sufs)
{
	for (; *sufs; sufs++)
		if (ends_with(s, *sufs))
			return 1;
	return 0;
}

/* Suffixes so that support-library and Material subclasses (AppCompatEditText,
 * MaterialButton, SwitchMaterial...) are recognized without listing each one. */
static const char *const input_classes[] = {
	"EditText", "AutoCompleteTextView", "SearchAutoComplete", NULL
};
static const char *const toggle_classes[] = {
	"Switch", "SwitchCompat", "SwitchMaterial", "CheckBox", "ToggleButton", "RadioButton",
	"CheckedTextView", NULL
};
static const char *const button_classes[] = {
	"Button", "FloatingActionButton", "ButtonCompat", NULL
};
static const char *const list_classes[] = {
	"RecyclerView", "ListView", "GridView", "ScrollView", "ViewPager", "ViewPager2",
	"ExpandableListView", NULL
};
static const char *const image_classes[] = {
	"ImageView", "Image", NULL
};
static const char *const container_classes[] = {
	"Layout", "ViewGroup", "ViewPager", "ViewPager2", "CardView", "Toolbar", "RecyclerView",
	"ListView", "GridView", "ScrollView", "ViewAnimator", "ViewFlipper", "ViewSwitcher",
	"ViewStub", NULL
};

static int is_input(const amc_ui_node *n)
{
	const char *sn = simple_name(n->class_name);
	if (ends_with_any(sn, input_classes) || (n->flags & AMC_NODE_PASSWORD))
		return 1;
	/* Compose text fields have no EditText class but take focus and show a hint. */
	return (n->flags & AMC_NODE_FOCUSABLE) && n->hint[0] && !ends_with_any(sn, button_classes);
}

static int is_list(const amc_ui_node *n)
{
	return (n->flags & AMC_NODE_SCROLLABLE) != 0;
}

static int has_label(const amc_ui_node *n)
{
	return n->text[0] || n->content_desc[0];
}

/* A row of a list: a clickable direct child of a scrollable list. */
static int is_list_row(const amc_ui_tree *t, const amc_ui_node *n)
{
	return (n->flags & (AMC_NODE_CLICKABLE | AMC_NODE_LONG_CLICKABLE)) && n->parent >= 0 &&
	       is_list(&t->nodes[n->parent]);
}

static const char *infer_type(const amc_ui_tree *t, const amc_ui_node *n)
{
	const char *sn = simple_name(n->class_name);
	int clickable = (n->flags & AMC_NODE_CLICKABLE) != 0;
	if (is_input(n))
		return "input";
	if (ends_with_any(sn, toggle_classes) || (n->flags & AMC_NODE_CHECKABLE))
		return "toggle";
	if (ends_with_any(sn, button_classes))
		return "button";
	if (is_list(n))
		return "list";
	if (is_list_row(t, n))
		return "list_item";
	int image = ends_with_any(sn, image_classes);
	if (image && !n->text[0] && !clickable)
		return "image";
	if (clickable && has_label(n))
		return "button";
	if (image && !n->text[0])
		return "image";
	if (ends_with(sn, "TextView") || !strcmp(sn, "Text"))
		return "text";
	if (ends_with_any(sn, container_classes) || ends_with_any(sn, list_classes))
		return "container";
	return "view";
}

/* Worth an element: visible and carrying text or an interaction. */
static int is_meaningful(const amc_ui_node *n)
{
	if (n->text[0] || n->content_desc[0] || n->hint[0])
		return 1;
	if (n->flags & (AMC_NODE_CLICKABLE | AMC_NODE_LONG_CLICKABLE | AMC_NODE_CHECKABLE |
			AMC_NODE_SCROLLABLE))
		return 1;
	return is_input(n);
}

static int on_screen(const amc_bounds *b, int w, int h)
{
	return b->x2 > 0 && b->y2 > 0 && b->x1 < w && b->y1 < h;
}

/* ---- stable ids --------------------------------------------------------- */

static uint32_t fnv1a(uint32_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

/* Fields are separated by 0x1f so ("ab","c") and ("a","bc") hash differently. */
static uint32_t hash_str(uint32_t h, const char *s)
{
	h = fnv1a(h, s, strlen(s));
	return fnv1a(h, "\x1f", 1);
}

static uint32_t element_hash(const amc_ui_node *n, unsigned dup)
{
	char b[64];
	uint32_t h = 2166136261u;
	h = hash_str(h, n->class_name);
	h = hash_str(h, n->resource_id);
	h = hash_str(h, n->text);
	h = hash_str(h, n->content_desc);
	snprintf(b, sizeof b, "%d,%d,%d,%d", n->bounds.x1, n->bounds.y1, n->bounds.x2, n->bounds.y2);
	h = hash_str(h, b);
	if (dup) {
		/* The n-th twin (same fields) in document order: deterministic. */
		snprintf(b, sizeof b, "#%u", dup);
		h = hash_str(h, b);
	}
	return h;
}

/* Open-addressing set of the ids handed out so far. */
typedef struct idset {
	uint32_t *slot;
	unsigned char *used;
	size_t cap;
} idset;

static int idset_add(idset *s, uint32_t v)
{
	size_t i = (v * 2654435761u) & (s->cap - 1);
	while (s->used[i]) {
		if (s->slot[i] == v)
			return 0;
		i = (i + 1) & (s->cap - 1);
	}
	s->used[i] = 1;
	s->slot[i] = v;
	return 1;
}

/* ---- building ------------------------------------------------------------ */

void amc_scene_free(amc_scene *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->count; i++) {
		free(s->elements[i].text);
		free(s->elements[i].resource_id);
	}
	free(s->elements);
	memset(s, 0, sizeof *s);
}

int amc_scene_from_tree(const amc_ui_tree *t, int width, int height, amc_scene *out, amc_err *e)
{
	if (!out)
		return amc_err_set(e, AMC_EUSAGE, "internal: no scene to build into");
	memset(out, 0, sizeof *out);
	if (!t || (t->count && !t->nodes))
		return amc_err_set(e, AMC_EUSAGE, "internal: no UI tree to build a scene from");

	/* Without a screenshot the screen is as large as the displayed roots. */
	if (width <= 0 || height <= 0) {
		int w = 0, h = 0;
		for (size_t i = 0; i < t->count; i++) {
			const amc_ui_node *n = &t->nodes[i];
			if (n->parent < 0 && (n->flags & AMC_NODE_DISPLAYED)) {
				if (n->bounds.x2 > w)
					w = n->bounds.x2;
				if (n->bounds.y2 > h)
					h = n->bounds.y2;
			}
		}
		if (width <= 0)
			width = w;
		if (height <= 0)
			height = h;
	}
	out->width = width;
	out->height = height;

	size_t n_el = 0;
	for (size_t i = 0; i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		if ((n->flags & AMC_NODE_DISPLAYED) && on_screen(&n->bounds, width, height) &&
		    is_meaningful(n))
			n_el++;
	}
	if (!n_el)
		return 0;
	out->elements = amc_xcalloc(n_el, sizeof *out->elements);

	idset ids = {0};
	ids.cap = 16;
	while (ids.cap < n_el * 2)
		ids.cap *= 2;
	ids.slot = amc_xcalloc(ids.cap, sizeof *ids.slot);
	ids.used = amc_xcalloc(ids.cap, 1);

	for (size_t i = 0; i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		if (!((n->flags & AMC_NODE_DISPLAYED) && on_screen(&n->bounds, width, height) &&
		      is_meaningful(n)))
			continue;
		amc_element *el = &out->elements[out->count++];
		uint32_t h = element_hash(n, 0);
		for (unsigned dup = 2; !idset_add(&ids, h); dup++)
			h = element_hash(n, dup);
		snprintf(el->id, sizeof el->id, "e%08x", (unsigned)h);
		el->type = infer_type(t, n);
		el->bounds = n->bounds;
		el->text = amc_xstrdup(n->text[0] ? n->text : n->content_desc[0] ? n->content_desc : n->hint);
		el->confidence = 1.0;
		el->source = "uitree";
		el->node = (int)i;
		el->resource_id = amc_xstrdup(n->resource_id);
		el->flags = n->flags;
	}
	free(ids.slot);
	free(ids.used);
	return 0;
}

const amc_element *amc_scene_find(const amc_scene *s, const char *id)
{
	if (!s || !id)
		return NULL;
	for (size_t i = 0; i < s->count; i++)
		if (!strcmp(s->elements[i].id, id))
			return &s->elements[i];
	return NULL;
}

/* The seed-002 fields first, then a few that help a planner act: the resource id
 * (what flows select by), clickability and the state of toggles. Defaults are
 * left out to keep the Scene small for prompts. */
cJSON *amc_scene_to_json(const amc_scene *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "width", s ? s->width : 0);
	cJSON_AddNumberToObject(o, "height", s ? s->height : 0);
	cJSON *arr = cJSON_AddArrayToObject(o, "elements");
	for (size_t i = 0; s && i < s->count; i++) {
		const amc_element *el = &s->elements[i];
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "id", el->id);
		cJSON_AddStringToObject(j, "type", el->type ? el->type : "view");
		int b[4] = {el->bounds.x1, el->bounds.y1, el->bounds.x2, el->bounds.y2};
		cJSON_AddItemToObject(j, "bounds", cJSON_CreateIntArray(b, 4));
		cJSON_AddStringToObject(j, "text", el->text ? el->text : "");
		cJSON_AddNumberToObject(j, "confidence", el->confidence);
		cJSON_AddStringToObject(j, "source", el->source ? el->source : "uitree");
		if (el->resource_id && el->resource_id[0])
			cJSON_AddStringToObject(j, "resource_id", el->resource_id);
		cJSON_AddBoolToObject(j, "clickable", (el->flags & AMC_NODE_CLICKABLE) != 0);
		if (el->flags & AMC_NODE_LONG_CLICKABLE)
			cJSON_AddTrueToObject(j, "long_clickable");
		if (el->flags & AMC_NODE_CHECKABLE)
			cJSON_AddBoolToObject(j, "checked", (el->flags & AMC_NODE_CHECKED) != 0);
		if (el->flags & AMC_NODE_SCROLLABLE)
			cJSON_AddTrueToObject(j, "scrollable");
		if (el->flags & AMC_NODE_FOCUSED)
			cJSON_AddTrueToObject(j, "focused");
		if (el->flags & AMC_NODE_SELECTED)
			cJSON_AddTrueToObject(j, "selected");
		if (el->flags & AMC_NODE_PASSWORD)
			cJSON_AddTrueToObject(j, "password");
		/* Only when the tree says so: OCR elements (node -1) have no such state. */
		if (el->node >= 0 && !(el->flags & AMC_NODE_ENABLED))
			cJSON_AddFalseToObject(j, "enabled");
		cJSON_AddItemToArray(arr, j);
	}
	return o;
}
