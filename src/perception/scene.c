/* scene.c - the Scene: what planners see of a screen, built from the UI tree
 * and fused with OCR. An element is a visible node that means something to a
 * user or a planner: it carries text, a description or a hint, or it can be
 * interacted with. Pure layout containers are left out so the Scene stays
 * small. */
#include "perception/scene.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/keyboard.h"
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

/* ---- the keyboard ---------------------------------------------------------- */

static amc_bounds union_of(const amc_bounds *a, const amc_bounds *b)
{
	return (amc_bounds){ a->x1 < b->x1 ? a->x1 : b->x1, a->y1 < b->y1 ? a->y1 : b->y1,
			     a->x2 > b->x2 ? a->x2 : b->x2, a->y2 > b->y2 ? a->y2 : b->y2 };
}

/* Exactly one UTF-8 character. */
static int one_char(const char *s)
{
	if (!s || !*s)
		return 0;
	const unsigned char *p = (const unsigned char *)s + 1;
	while ((*p & 0xc0) == 0x80)
		p++;
	return !*p;
}

/* The keyboard's id: its label and its box quantized to 16 px (an OCR box
 * moves by a pixel between two reads of the same screen). */
static uint32_t keyboard_id(const char *label, const amc_bounds *b)
{
	char pos[64];
	snprintf(pos, sizeof pos, "%d,%d,%d,%d", b->x1 / 16, b->y1 / 16, b->x2 / 16, b->y2 / 16);
	return hash_str(hash_str(hash_str(2166136261u, "keyboard"), label), pos);
}

static void set_keyboard(amc_element *el, const char *label, const amc_bounds *b, uint32_t h, double conf,
			 const char *source)
{
	snprintf(el->id, sizeof el->id, "e%08x", (unsigned)h);
	el->type = "keyboard";
	el->bounds = *b;
	free(el->text);
	el->text = amc_xstrdup(label);
	el->confidence = conf;
	el->source = source;
	if (!el->resource_id)
		el->resource_id = amc_xstrdup("");
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

static atomic_long builds, documents;

long amc_scene_build_count(void)
{
	return atomic_load(&builds);
}

long amc_scene_json_count(void)
{
	return atomic_load(&documents);
}

int amc_scene_from_tree(const amc_ui_tree *t, int width, int height, amc_scene *out, amc_err *e)
{
	atomic_fetch_add(&builds, 1);
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

	/* An input method's nodes (when the dump holds its window) make one
	 * keyboard element, not one per key: ime[i] for the node and its subtree. */
	unsigned char *ime = amc_xcalloc(t->count ? t->count : 1, 1);
	size_t n_el = 0, n_ime = 0;
	for (size_t i = 0; i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		ime[i] = amc_keyboard_ime_node(n) || (n->parent >= 0 && (size_t)n->parent < i && ime[n->parent]);
		if ((n->flags & AMC_NODE_DISPLAYED) && on_screen(&n->bounds, width, height) &&
		    is_meaningful(n)) {
			if (ime[i])
				n_ime++;
			else
				n_el++;
		}
	}
	if (n_ime)
		n_el++;
	if (!n_el) {
		free(ime);
		return 0;
	}
	out->elements = amc_xcalloc(n_el, sizeof *out->elements);

	idset ids = {0};
	ids.cap = 16;
	while (ids.cap < n_el * 2)
		ids.cap *= 2;
	ids.slot = amc_xcalloc(ids.cap, sizeof *ids.slot);
	ids.used = amc_xcalloc(ids.cap, 1);

	amc_kb_key *keys = n_ime ? amc_xcalloc(n_ime, sizeof *keys) : NULL;
	size_t nkeys = 0;
	long kb = -1;
	amc_bounds kbox = { 0, 0, 0, 0 };
	for (size_t i = 0; i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		if (!((n->flags & AMC_NODE_DISPLAYED) && on_screen(&n->bounds, width, height) &&
		      is_meaningful(n)))
			continue;
		if (ime[i]) {
			if (kb < 0) { /* the keyboard's place: where its first key is */
				kb = (long)out->count++;
				out->elements[kb].node = (int)i;
				kbox = n->bounds;
			}
			kbox = union_of(&kbox, &n->bounds);
			/* a key's label: one character ("q"); "Delete", "Voice input" are not letters of a row */
			const char *l = one_char(n->text) ? n->text : one_char(n->content_desc) ? n->content_desc : NULL;
			if (l)
				keys[nkeys++] = (amc_kb_key){ n->bounds, l };
			continue;
		}
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
	if (kb >= 0) {
		amc_element *el = &out->elements[kb];
		char label[64];
		amc_keyboard_label(amc_keyboard_layout(keys, nkeys), label, sizeof label);
		uint32_t h = keyboard_id(label, &kbox);
		while (!idset_add(&ids, h))
			h = hash_str(h, "#");
		set_keyboard(el, label, &kbox, h, 1.0, "uitree");
		/* the keyboard as a whole is not a button: typing goes through type_text */
		el->flags = AMC_NODE_DISPLAYED | AMC_NODE_ENABLED;
	}
	free(keys);
	free(ime);
	free(ids.slot);
	free(ids.used);
	return 0;
}

/* ---- fusion ------------------------------------------------------------- */

static long long area(const amc_bounds *b)
{
	if (b->x2 <= b->x1 || b->y2 <= b->y1)
		return 0;
	return (long long)(b->x2 - b->x1) * (long long)(b->y2 - b->y1);
}

static long long inter_area(const amc_bounds *a, const amc_bounds *b)
{
	amc_bounds i = { a->x1 > b->x1 ? a->x1 : b->x1, a->y1 > b->y1 ? a->y1 : b->y1,
			 a->x2 < b->x2 ? a->x2 : b->x2, a->y2 < b->y2 ? a->y2 : b->y2 };
	return area(&i);
}

double amc_bounds_iou(const amc_bounds *a, const amc_bounds *b)
{
	long long i = inter_area(a, b), u = area(a) + area(b) - i;
	return u > 0 ? (double)i / (double)u : 0.0;
}

double amc_bounds_containment(const amc_bounds *inner, const amc_bounds *outer)
{
	long long a = area(inner);
	return a > 0 ? (double)inter_area(inner, outer) / (double)a : 0.0;
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Case-insensitive (ASCII) substring test, for "does the tree text hold this
 * OCR word". The word's surrounding punctuation is ignored. */
static int text_has_word(const char *text, const char *word)
{
	const char *w = word;
	size_t n = strlen(w);
	while (n && !((unsigned char)*w >= 0x80 || (lower(*w) >= 'a' && lower(*w) <= 'z') || (*w >= '0' && *w <= '9')))
		w++, n--;
	while (n && !((unsigned char)w[n - 1] >= 0x80 || (lower(w[n - 1]) >= 'a' && lower(w[n - 1]) <= 'z') ||
		      (w[n - 1] >= '0' && w[n - 1] <= '9')))
		n--;
	if (!n)
		return 1;
	for (const char *p = text; *p; p++) {
		size_t k = 0;
		while (k < n && p[k] && lower((unsigned char)p[k]) == lower((unsigned char)w[k]))
			k++;
		if (k == n)
			return 1;
	}
	return 0;
}

/* The most specific element the word belongs to, or -1. */
static long match_element(const amc_scene *s, size_t tree_count, const amc_bounds *w)
{
	long best = -1;
	long long best_area = 0;
	for (size_t i = 0; i < tree_count; i++) {
		const amc_element *el = &s->elements[i];
		const amc_bounds *b = &el->bounds;
		/* A list or container is not where words belong: pixel text inside
		 * one (a canvas in a scroll view) is an element of its own. */
		if (!(el->text && el->text[0]) && (!strcmp(el->type, "list") || !strcmp(el->type, "container")))
			continue;
		if (amc_bounds_containment(w, b) >= AMC_FUSE_MIN_CONTAINMENT || amc_bounds_iou(w, b) >= AMC_FUSE_MIN_IOU) {
			long long a = area(b);
			if (best < 0 || a < best_area) {
				best = (long)i;
				best_area = a;
			}
		}
	}
	return best;
}

static void push_element(amc_scene *s, size_t *cap)
{
	if (s->count == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		s->elements = amc_xrealloc(s->elements, *cap * sizeof *s->elements);
	}
	memset(&s->elements[s->count], 0, sizeof s->elements[s->count]);
	s->count++;
}

static int cmp_word_pos(const void *a, const void *b)
{
	const amc_ocr_word *x = *(const amc_ocr_word *const *)a, *y = *(const amc_ocr_word *const *)b;
	int xc = (x->box.y1 + x->box.y2) / 2, yc = (y->box.y1 + y->box.y2) / 2;
	int h = x->box.y2 - x->box.y1;
	/* Same line when the centres are within half a word height. */
	if (xc - yc > h / 2 || yc - xc > h / 2)
		return xc < yc ? -1 : 1;
	return x->box.x1 < y->box.x1 ? -1 : x->box.x1 > y->box.x1;
}

typedef struct idbuf {
	char s[AMC_ELEMENT_ID_SIZE];
} idbuf;

static idbuf idstr(uint32_t h)
{
	idbuf b;
	snprintf(b.s, sizeof b.s, "e%08x", (unsigned)h);
	return b;
}

/* 1 with the tree's keyboard element's box, 2 with the box of one the OCR
 * words draw (among the words the tree's text does not explain), else 0. */
static int keyboard_in(const amc_scene *s, size_t tree_count, const char *had_text, const amc_ocr_result *ocr,
		       amc_bounds *box, const char **layout)
{
	for (size_t i = 0; i < tree_count; i++)
		if (!strcmp(s->elements[i].type, "keyboard")) {
			*box = s->elements[i].bounds;
			return 1;
		}
	amc_kb_key *keys = amc_xcalloc(ocr->count, sizeof *keys);
	size_t n = 0;
	for (size_t k = 0; k < ocr->count; k++) {
		const amc_ocr_word *w = &ocr->words[k];
		long m = match_element(s, tree_count, &w->box);
		if (m < 0 || !had_text[m])
			keys[n++] = (amc_kb_key){ w->box, w->text };
	}
	int found = amc_keyboard_find(keys, n, s->width, s->height, box, layout);
	free(keys);
	return found ? 2 : 0;
}

/* Over 120 lines: the fusion is one pass whose steps share the words' match
 * table (tree elements that had text, OCR words matched to them, the
 * keyboard's words absorbed); split, each step would rebuild it. */
int amc_scene_fuse(amc_scene *s, const amc_ocr_result *ocr, amc_err *e)
{
	if (!s)
		return amc_err_set(e, AMC_EUSAGE, "internal: no scene to fuse into");
	if (!ocr || !ocr->count)
		return 0;
	size_t tree_count = s->count, cap = s->count;
	/* Per tree element: confidence sum and count of the words it absorbed. */
	double *csum = amc_xcalloc(tree_count + 1, sizeof *csum);
	int *cnum = amc_xcalloc(tree_count + 1, sizeof *cnum);
	char *had_text = amc_xcalloc(tree_count + 1, 1);
	for (size_t i = 0; i < tree_count; i++)
		had_text[i] = s->elements[i].text && s->elements[i].text[0];
	const amc_ocr_word **loose = amc_xcalloc(ocr->count, sizeof *loose);
	size_t nloose = 0;

	/* A keyboard: the tree's (its words are its labels), else one the words
	 * draw; either way its words are not elements of their own. */
	amc_bounds kbox;
	const char *layout = NULL;
	int kb = keyboard_in(s, tree_count, had_text, ocr, &kbox, &layout);
	double kconf = 0;
	int knum = 0;

	for (size_t k = 0; k < ocr->count; k++) {
		const amc_ocr_word *w = &ocr->words[k];
		if (kb && amc_keyboard_holds(&kbox, &w->box)) {
			kconf += w->confidence;
			knum++;
			continue;
		}
		long m = match_element(s, tree_count, &w->box);
		if (m >= 0 && had_text[m] && text_has_word(s->elements[m].text, w->text)) {
			s->elements[m].source = "fused";
			continue;
		}
		if (m >= 0 && !had_text[m]) {
			amc_element *el = &s->elements[m];
			amc_sb sb;
			amc_sb_init(&sb);
			amc_sb_printf(&sb, "%s%s%s", el->text ? el->text : "", el->text && el->text[0] ? " " : "", w->text);
			free(el->text);
			el->text = amc_sb_detach(&sb);
			el->source = "fused";
			csum[m] += w->confidence;
			cnum[m]++;
			continue;
		}
		/* A word inside a node whose tree text does not hold it is an OCR
		 * misreading of that text: the tree wins (the raw word stays in the
		 * record's OCR observations). */
		if (m < 0)
			loose[nloose++] = w;
	}
	/* Text OCR supplied is only as sure as the engine was. */
	for (size_t i = 0; i < tree_count; i++)
		if (cnum[i])
			s->elements[i].confidence = csum[i] / cnum[i] / 100.0;

	if (kb == 2) {
		push_element(s, &cap);
		amc_element *el = &s->elements[s->count - 1];
		char label[64];
		amc_keyboard_label(layout, label, sizeof label);
		uint32_t h = keyboard_id(label, &kbox);
		while (amc_scene_find(s, idstr(h).s))
			h = hash_str(h, "#");
		set_keyboard(el, label, &kbox, h, knum ? kconf / knum / 100.0 : 0.0, "ocr");
		el->node = -1;
	}

	/* Words with no node: one element per run of words on a line. */
	qsort(loose, nloose, sizeof *loose, cmp_word_pos);
	for (size_t k = 0; k < nloose;) {
		amc_bounds b = loose[k]->box;
		double conf = loose[k]->confidence;
		amc_sb sb;
		amc_sb_init(&sb);
		amc_sb_puts(&sb, loose[k]->text);
		size_t j = k + 1;
		for (; j < nloose; j++) {
			const amc_bounds *n = &loose[j]->box;
			int h = b.y2 - b.y1;
			int cy = (n->y1 + n->y2) / 2;
			if (cy < b.y1 || cy > b.y2 || n->x1 < b.x2 - h / 2 || n->x1 - b.x2 > AMC_FUSE_WORD_GAP * h)
				break;
			amc_sb_printf(&sb, " %s", loose[j]->text);
			if (n->x2 > b.x2)
				b.x2 = n->x2;
			if (n->y1 < b.y1)
				b.y1 = n->y1;
			if (n->y2 > b.y2)
				b.y2 = n->y2;
			conf += loose[j]->confidence;
		}
		push_element(s, &cap);
		amc_element *el = &s->elements[s->count - 1];
		el->text = amc_sb_detach(&sb);
		el->bounds = b;
		el->type = "text";
		el->confidence = conf / (double)(j - k) / 100.0;
		el->source = "ocr";
		el->node = -1;
		el->resource_id = amc_xstrdup("");
		/* Positions quantized to 16 px so a one-pixel wobble in the engine's
		 * box does not change the id; twins get "#n" as tree elements do. */
		char pos[64];
		snprintf(pos, sizeof pos, "%d,%d", b.x1 / 16, b.y1 / 16);
		uint32_t h = hash_str(hash_str(hash_str(2166136261u, "ocr"), el->text), pos);
		for (unsigned dup = 2;; dup++) {
			char id[AMC_ELEMENT_ID_SIZE];
			snprintf(id, sizeof id, "e%08x", (unsigned)h);
			if (!amc_scene_find(s, id)) {
				memcpy(el->id, id, sizeof el->id);
				break;
			}
			snprintf(pos, sizeof pos, "#%u", dup);
			h = hash_str(h, pos);
		}
		k = j;
	}
	free(loose);
	free(csum);
	free(cnum);
	free(had_text);
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

/* The Scene's core fields first (id, type, bounds, text, confidence, source:
 * every element has them), then a few that help a planner act: the resource id
 * (what flows select by), clickability and the state of toggles. Defaults are
 * left out to keep the Scene small for prompts. */
cJSON *amc_scene_to_json(const amc_scene *s)
{
	atomic_fetch_add(&documents, 1);
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
