/* uitree.c - UI trees from devices, normalized to one flat node array.
 *
 * The XML comes from outside (a phone, a file a user captured), so it is parsed
 * defensively: the size is checked before libxml2 sees a byte, a DOCTYPE or ENTITY
 * declaration is refused before parsing (so entity expansion can never start) and
 * again on the parsed document, libxml2 runs with NONET and without NOENT, DTDLOAD
 * or HUGE (whose built-in depth limit of 256 stays on), and its errors go to a
 * handler set for this call on this thread instead of the terminal.
 *
 * Formats are detected from the parsed document and read by the walkers in
 * `formats[]`: adb uiautomator dumps, Appium UiAutomator2 page sources (tag =
 * class) and Appium XCUITest sources (points scaled to screenshot pixels). */
#include "perception/uitree.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "util/sanitize.h"
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

typedef struct builder {
	amc_ui_tree *t;
	size_t cap;
	int *last_child;    /* per node: its last child so far, so appending is O(1) */
	int last_root;      /* last node with parent -1, for linking roots as siblings */
} builder;

static void builder_done(builder *b)
{
	free(b->last_child);
	b->last_child = NULL;
}

/* Append a node under `parent` (-1: a new root). Links it as the parent's last
 * child. Strings start as "" so they are never NULL. */
static int builder_add(builder *b, int parent, amc_err *e)
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
		return amc_err_set(e, AMC_EUSAGE,
			"UI tree nests deeper than %d levels; refusing it (check that the input "
				"is a UI dump)", AMC_UITREE_MAX_DEPTH);
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

/* ---- attribute parsing ------------------------------------------------ */

/* Parse a decimal int that fills the whole span [s, end) after optional spaces. */
static int parse_int_span(const char *s, const char **endp, int *out)
{
	while (*s == ' ')
		s++;
	if (!(*s == '-' || *s == '+' || (*s >= '0' && *s <= '9')))
		return -1;
	errno = 0;
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || errno == ERANGE || v < INT_MIN || v > INT_MAX)
		return -1;
	while (*end == ' ')
		end++;
	*endp = end;
	*out = (int)v;
	return 0;
}

/* "[x1,y1][x2,y2]" -> bounds; -1 on anything else (the caller then treats the
 * node as not displayed rather than failing the whole dump). */
static int parse_bounds(const char *s, amc_bounds *b)
{
	int v[4];
	const char *p = s;
	for (int i = 0; i < 4; i++) {
		if (i % 2 == 0) {
			while (*p == ' ')
				p++;
			if (*p++ != '[')
				return -1;
		}
		if (parse_int_span(p, &p, &v[i]) != 0)
			return -1;
		if (*p++ != (i % 2 == 0 ? ',' : ']'))
			return -1;
	}
	while (*p == ' ')
		p++;
	if (*p)
		return -1;
	b->x1 = v[0];
	b->y1 = v[1];
	b->x2 = v[2];
	b->y2 = v[3];
	return 0;
}

static int is_true(const char *v)
{
	return v && !strcmp(v, "true");
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = amc_xstrdup(v ? v : "");
}

/* ---- the uiautomator format ------------------------------------------- */

typedef struct walk {
	builder b;
	xmlDocPtr doc;
	amc_err *e;
	int screen_width;   /* screenshot width for XCUITest scaling; 0: unknown */
} walk;

static int name_is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && n->name && !strcmp((const char *)n->name, name);
}

/* The value of an attribute as a new UTF-8 string (entities and character
 * references already decoded by libxml2), or NULL when it has none. */
static char *attr_value(xmlDocPtr doc, xmlAttrPtr a)
{
	xmlChar *v = xmlNodeListGetString(doc, a->children, 1);
	char *r = amc_xstrdup(v ? (const char *)v : "");
	xmlFree(v);
	return r;
}

static void read_uiautomator_attrs(walk *w, amc_ui_node *n, xmlNode *el)
{
	int have_bounds = 0, bounds_ok = 0, shown = 1;
	for (xmlAttrPtr a = el->properties; a; a = a->next) {
		const char *k = (const char *)a->name;
		if (!k)
			continue;
		char *v = attr_value(w->doc, a);
		if (!strcmp(k, "text"))
			set_str(&n->text, v);
		else if (!strcmp(k, "resource-id"))
			set_str(&n->resource_id, v);
		else if (!strcmp(k, "class"))
			set_str(&n->class_name, v);
		else if (!strcmp(k, "package"))
			set_str(&n->package, v);
		else if (!strcmp(k, "content-desc"))
			set_str(&n->content_desc, v);
		else if (!strcmp(k, "hint"))
			set_str(&n->hint, v);
		else if (!strcmp(k, "bounds")) {
			have_bounds = 1;
			bounds_ok = parse_bounds(v, &n->bounds) == 0;
			if (!bounds_ok)
				memset(&n->bounds, 0, sizeof n->bounds);
		} else if (!strcmp(k, "index")) {
			int idx;
			const char *end;
			if (parse_int_span(v, &end, &idx) == 0 && !*end && idx >= 0)
				n->index = idx;
		} else if (!strcmp(k, "displayed")) {
			shown = !!strcmp(v, "false");
		} else {
			for (size_t i = 0; i < N_FLAGS; i++)
				if (flag_defs[i].attr && !strcmp(k, flag_defs[i].attr) && is_true(v))
					n->flags |= flag_defs[i].flag;
			/* Anything else (drawing-order, window attributes, future
			 * additions) is ignored on purpose. */
		}
		free(v);
	}
	const amc_bounds *bb = &n->bounds;
	/* [0,0][0,0] is how uiautomator marks a node that is not on screen; an
	 * empty or inverted box cannot be seen or tapped either. */
	if (shown && have_bounds && bounds_ok && bb->x2 > bb->x1 && bb->y2 > bb->y1)
		n->flags |= AMC_NODE_DISPLAYED;
}

/* Elements other than <node> (<displays>, <display>, <window>, anything new) are
 * transparent: their <node> descendants attach to the nearest <node> above. */
static int walk_uiautomator_children(walk *w, xmlNode *el, int parent, int edepth)
{
	if (edepth > AMC_UITREE_MAX_DEPTH)
		return amc_err_set(w->e, AMC_EUSAGE,
			"UI tree nests deeper than %d levels; refusing it (check that the input "
				"is a UI dump)", AMC_UITREE_MAX_DEPTH);
	for (xmlNode *c = el->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (name_is(c, "node")) {
			int id = builder_add(&w->b, parent, w->e);
			if (id < 0)
				return -1;
			read_uiautomator_attrs(w, &w->b.t->nodes[id], c);
			if (walk_uiautomator_children(w, c, id, edepth + 1) != 0)
				return -1;
		} else if (walk_uiautomator_children(w, c, parent, edepth + 1) != 0) {
			return -1;
		}
	}
	return 0;
}

/* The root's rotation attribute (uiautomator and UiAutomator2 alike). */
static void read_rotation(walk *w, xmlNode *root)
{
	for (xmlAttrPtr a = root->properties; a; a = a->next) {
		if (a->name && !strcmp((const char *)a->name, "rotation")) {
			char *v = attr_value(w->doc, a);
			const char *end;
			int r;
			if (parse_int_span(v, &end, &r) == 0 && !*end)
				w->b.t->rotation = r;
			free(v);
		}
	}
}

static int walk_uiautomator(walk *w, xmlNode *root)
{
	read_rotation(w, root);
	return walk_uiautomator_children(w, root, -1, 1);
}

/* ---- Appium UiAutomator2 ------------------------------------------------ */

/* Same attributes as uiautomator (empty ones omitted, `displayed` added), but
 * every element is named after its class. */
static int walk_uia2_children(walk *w, xmlNode *el, int parent, int edepth)
{
	if (edepth > AMC_UITREE_MAX_DEPTH)
		return amc_err_set(w->e, AMC_EUSAGE,
			"UI tree nests deeper than %d levels; refusing it (check that the input "
				"is a UI dump)", AMC_UITREE_MAX_DEPTH);
	for (xmlNode *c = el->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || !c->name)
			continue;
		int id = builder_add(&w->b, parent, w->e);
		if (id < 0)
			return -1;
		amc_ui_node *n = &w->b.t->nodes[id];
		read_uiautomator_attrs(w, n, c);
		if (!n->class_name[0])
			set_str(&n->class_name, (const char *)c->name);
		if (walk_uia2_children(w, c, id, edepth + 1) != 0)
			return -1;
	}
	return 0;
}

static int walk_uia2(walk *w, xmlNode *root)
{
	read_rotation(w, root);
	return walk_uia2_children(w, root, -1, 1);
}

/* ---- Appium XCUITest ------------------------------------------------------ */

static char *attr_of(walk *w, xmlNode *el, const char *name)
{
	for (xmlAttrPtr a = el->properties; a; a = a->next)
		if (a->name && !strcmp((const char *)a->name, name))
			return attr_value(w->doc, a);
	return NULL;
}

/* XCUITest geometry is in points, possibly fractional ("12.5"). */
static int parse_points(const char *v, double *out)
{
	if (!v || !*v)
		return -1;
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (end == v || *end || errno == ERANGE || !(d > -1e7 && d < 1e7))
		return -1;
	*out = d;
	return 0;
}

/* Points x scale to the nearest pixel, clamped so that no input can overflow
 * an int (points are bounded by parse_points, the scale by the screen width). */
static int px_round(double v)
{
	if (v > 1e9)
		return 1000000000;
	if (v < -1e9)
		return -1000000000;
	return (int)(v < 0 ? v - 0.5 : v + 0.5);
}

static int type_ends(const char *type, const char *suffix)
{
	size_t a = strlen(type), b = strlen(suffix);
	return a >= b && !strcmp(type + a - b, suffix);
}

static void read_xcui_attrs(walk *w, amc_ui_node *n, xmlNode *el, double scale)
{
	char *type = attr_of(w, el, "type");
	if (!type || !*type) {
		free(type);
		type = amc_xstrdup((const char *)el->name);
	}
	char *name = attr_of(w, el, "name"), *label = attr_of(w, el, "label");
	char *value = attr_of(w, el, "value"), *ph = attr_of(w, el, "placeholderValue");
	set_str(&n->class_name, type);
	set_str(&n->resource_id, name);
	int field = type_ends(type, "TextField") || type_ends(type, "SearchField") ||
		    type_ends(type, "TextView");
	int toggle = type_ends(type, "Switch") || type_ends(type, "CheckBox") || type_ends(type, "Toggle");
	/* A field's label names it; what it holds is its value. A switch's value
	 * is its state ("1"/"0"), never text. */
	const char *text = field ? (value && (!ph || strcmp(value, ph)) ? value : "")
			 : (label && *label ? label : (!toggle && value) ? value : "");
	set_str(&n->text, text);
	if (name && *name && strcmp(name, text))
		set_str(&n->content_desc, name);
	else if (field && label && *label)
		set_str(&n->content_desc, label);
	set_str(&n->hint, ph);
	if (toggle) {
		n->flags |= AMC_NODE_CHECKABLE;
		if (value && (!strcmp(value, "1") || !strcmp(value, "true")))
			n->flags |= AMC_NODE_CHECKED;
	}
	if (field) {
		n->flags |= AMC_NODE_FOCUSABLE;
		if (type_ends(type, "SecureTextField"))
			n->flags |= AMC_NODE_PASSWORD;
	}
	/* XCUITest has no "clickable": controls people tap are known by type. */
	if (toggle || field || type_ends(type, "Button") || type_ends(type, "Cell") ||
	    type_ends(type, "Link") || type_ends(type, "Tab") || type_ends(type, "MenuItem"))
		n->flags |= AMC_NODE_CLICKABLE;
	if (type_ends(type, "Table") || type_ends(type, "CollectionView") || type_ends(type, "ScrollView"))
		n->flags |= AMC_NODE_SCROLLABLE;
	static const char *const boolattrs[][2] = { { "enabled", NULL }, { "selected", NULL },
						     { "focused", NULL } };
	for (size_t i = 0; i < sizeof boolattrs / sizeof boolattrs[0]; i++) {
		char *v = attr_of(w, el, boolattrs[i][0]);
		if (is_true(v))
			n->flags |= !strcmp(boolattrs[i][0], "enabled") ? AMC_NODE_ENABLED :
				    !strcmp(boolattrs[i][0], "selected") ? AMC_NODE_SELECTED : AMC_NODE_FOCUSED;
		free(v);
	}
	char *vis = attr_of(w, el, "visible");
	char *xs = attr_of(w, el, "x"), *ys = attr_of(w, el, "y");
	char *ws = attr_of(w, el, "width"), *hs = attr_of(w, el, "height");
	double x, y, wd, ht;
	if (parse_points(xs, &x) == 0 && parse_points(ys, &y) == 0 && parse_points(ws, &wd) == 0 &&
	    parse_points(hs, &ht) == 0 && wd >= 0 && ht >= 0) {
		double x1 = x * scale, y1 = y * scale, x2 = (x + wd) * scale, y2 = (y + ht) * scale;
		n->bounds = (amc_bounds){ px_round(x1), px_round(y1), px_round(x2), px_round(y2) };
		if ((!vis || strcmp(vis, "false")) && n->bounds.x2 > n->bounds.x1 && n->bounds.y2 > n->bounds.y1)
			n->flags |= AMC_NODE_DISPLAYED;
	}
	free(vis);
	free(xs);
	free(ys);
	free(ws);
	free(hs);
	free(type);
	free(name);
	free(label);
	free(value);
	free(ph);
}

static int walk_xcui_children(walk *w, xmlNode *el, int parent, int edepth, double scale)
{
	if (edepth > AMC_UITREE_MAX_DEPTH)
		return amc_err_set(w->e, AMC_EUSAGE,
			"UI tree nests deeper than %d levels; refusing it (check that the input "
				"is a UI dump)", AMC_UITREE_MAX_DEPTH);
	for (xmlNode *c = el->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || !c->name)
			continue;
		if (strncmp((const char *)c->name, "XCUIElementType", 15)) {
			/* Not an element (a wrapper): look through it. */
			if (walk_xcui_children(w, c, parent, edepth + 1, scale) != 0)
				return -1;
			continue;
		}
		int id = builder_add(&w->b, parent, w->e);
		if (id < 0)
			return -1;
		read_xcui_attrs(w, &w->b.t->nodes[id], c, scale);
		if (walk_xcui_children(w, c, id, edepth + 1, scale) != 0)
			return -1;
	}
	return 0;
}

/* The first XCUIElementType* element: its width in points sets the scale. */
static xmlNode *xcui_first(xmlNode *el, int limit)
{
	if (el->name && !strncmp((const char *)el->name, "XCUIElementType", 15))
		return el;
	for (xmlNode *c = el->children; c && limit > 0; c = c->next)
		if (c->type == XML_ELEMENT_NODE) {
			xmlNode *f = xcui_first(c, limit - 1);
			if (f)
				return f;
		}
	return NULL;
}

static int walk_xcui(walk *w, xmlNode *root)
{
	double scale = 1.0;
	xmlNode *app = xcui_first(root, 3);
	if (app && w->screen_width > 0) {
		char *ws = attr_of(w, app, "width");
		double pw;
		if (parse_points(ws, &pw) == 0 && pw >= 1)
			scale = (double)w->screen_width / pw;
		free(ws);
	}
	if (!strncmp((const char *)root->name, "XCUIElementType", 15)) {
		int id = builder_add(&w->b, -1, w->e);
		if (id < 0)
			return -1;
		read_xcui_attrs(w, &w->b.t->nodes[id], root, scale);
		return walk_xcui_children(w, root, id, 1, scale);
	}
	return walk_xcui_children(w, root, -1, 1, scale);
}

/* ---- the Appium fake driver's app (tests) ----------------------------- */

/* <AppiumAUT><app width height> with elements of any tag carrying id, text,
 * hint, value, visible, enabled and left top width height (pixels). The fake
 * driver is what amc's Appium tests drive; reading its source lets flows run
 * against it. Text: the text attribute, else value (MockInputField), else the
 * element's own character data. */
static void read_fake_attrs(walk *w, amc_ui_node *n, xmlNode *el)
{
	set_str(&n->class_name, (const char *)el->name);
	char *id = attr_of(w, el, "id"), *text = attr_of(w, el, "text"), *value = attr_of(w, el, "value");
	char *hint = attr_of(w, el, "hint"), *desc = attr_of(w, el, "content-desc");
	set_str(&n->resource_id, id);
	set_str(&n->hint, hint);
	set_str(&n->content_desc, desc);
	if (text && *text) {
		set_str(&n->text, text);
	} else if (value && *value) {
		set_str(&n->text, value);
	} else {
		amc_sb sb;
		amc_sb_init(&sb);
		for (xmlNode *c = el->children; c && sb.len < 4096; c = c->next)
			if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content)
				amc_sb_puts(&sb, (const char *)c->content);
		/* trim */
		const char *s = amc_sb_str(&sb);
		size_t a = strspn(s, " \t\r\n"), b = strlen(s);
		while (b > a && strchr(" \t\r\n", s[b - 1]))
			b--;
		char *t = amc_xstrndup(s + a, b - a);
		set_str(&n->text, t);
		free(t);
		amc_sb_free(&sb);
	}
	char *vis = attr_of(w, el, "visible"), *en = attr_of(w, el, "enabled");
	if (!en || strcmp(en, "false"))
		n->flags |= AMC_NODE_ENABLED;
	if (strcmp((const char *)el->name, "app"))
		n->flags |= AMC_NODE_CLICKABLE;
	if (!strcmp((const char *)el->name, "MockInputField"))
		n->flags |= AMC_NODE_FOCUSABLE;
	char *ls = attr_of(w, el, "left"), *ts = attr_of(w, el, "top");
	char *ws = attr_of(w, el, "width"), *hs = attr_of(w, el, "height");
	double x = 0, y = 0, wd, ht;
	if ((!ls || parse_points(ls, &x) == 0) && (!ts || parse_points(ts, &y) == 0) && parse_points(ws, &wd) == 0 &&
	    parse_points(hs, &ht) == 0 && wd >= 0 && ht >= 0) {
		n->bounds = (amc_bounds){ px_round(x), px_round(y), px_round(x + wd), px_round(y + ht) };
		if ((!vis || strcmp(vis, "false")) && n->bounds.x2 > n->bounds.x1 && n->bounds.y2 > n->bounds.y1)
			n->flags |= AMC_NODE_DISPLAYED;
	}
	free(id);
	free(text);
	free(value);
	free(hint);
	free(desc);
	free(vis);
	free(en);
	free(ls);
	free(ts);
	free(ws);
	free(hs);
}

static int walk_fake_children(walk *w, xmlNode *el, int parent, int edepth)
{
	if (edepth > AMC_UITREE_MAX_DEPTH)
		return amc_err_set(w->e, AMC_EUSAGE, "UI tree nests deeper than %d levels; refusing it (check that the input "
				   "is a UI dump)", AMC_UITREE_MAX_DEPTH);
	for (xmlNode *c = el->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || !c->name)
			continue;
		int id = builder_add(&w->b, parent, w->e);
		if (id < 0)
			return -1;
		read_fake_attrs(w, &w->b.t->nodes[id], c);
		if (walk_fake_children(w, c, id, edepth + 1) != 0)
			return -1;
	}
	return 0;
}

static int walk_fake(walk *w, xmlNode *root)
{
	return walk_fake_children(w, root, -1, 1);
}

/* ---- format detection -------------------------------------------------- */

/* The first element below `el`, looking through the multi-window wrappers. */
static xmlNode *first_content_element(xmlNode *el, int limit)
{
	for (xmlNode *c = el->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (limit > 0 && (name_is(c, "displays") || name_is(c, "display") || name_is(c, "window"))) {
			xmlNode *in = first_content_element(c, limit - 1);
			if (in)
				return in;
			continue;
		}
		return c;
	}
	return NULL;
}

enum fmt { FMT_UIAUTOMATOR, FMT_UIAUTOMATOR2, FMT_XCUITEST, FMT_APPIUM_FAKE, FMT_UNKNOWN };

static enum fmt detect_format(xmlNode *root)
{
	const char *rn = (const char *)root->name;
	/* The Appium fake driver wraps its <app> in AppiumAUT as XCUITest does. */
	if (!strcmp(rn, "AppiumAUT") && name_is(first_content_element(root, 0), "app"))
		return FMT_APPIUM_FAKE;
	if (!strcmp(rn, "AppiumAUT") || !strncmp(rn, "XCUIElementType", 15))
		return FMT_XCUITEST;
	if (strcmp(rn, "hierarchy"))
		return FMT_UNKNOWN;
	xmlNode *first = first_content_element(root, 3);
	/* An empty <hierarchy/> is what uiautomator prints for a screen with no
	 * accessible windows. Appium names elements after their class instead. */
	if (!first || name_is(first, "node"))
		return FMT_UIAUTOMATOR;
	return FMT_UIAUTOMATOR2;
}

static const struct format {
	enum fmt id;
	const char *name;
	int (*walk)(walk *, xmlNode *);   /* NULL: recognized but not read yet */
	const char *what;
} formats[] = {
	{FMT_UIAUTOMATOR, "uiautomator", walk_uiautomator, "adb uiautomator dump"},
	{FMT_UIAUTOMATOR2, "uiautomator2", walk_uia2, "Appium UiAutomator2 page source"},
	{FMT_XCUITEST, "xcuitest", walk_xcui, "Appium XCUITest page source"},
	{FMT_APPIUM_FAKE, "appium-fake", walk_fake, "Appium fake driver app"},
};

/* ---- libxml2 plumbing -------------------------------------------------- */

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void)
{
	xmlInitParser();
}

typedef struct xml_errs {
	int have;
	int line;
	char msg[512];
} xml_errs;

/* Keeps the first error; libxml2 often follows one mistake with a cascade. */
static void xml_on_error(void *data, xmlErrorPtr err)
{
	xml_errs *xe = data;
	if (!xe || !err || xe->have || err->level < XML_ERR_ERROR)
		return;
	xe->have = 1;
	xe->line = err->line;
	snprintf(xe->msg, sizeof xe->msg, "%s", err->message ? err->message : "unknown error");
	size_t l = strlen(xe->msg);
	while (l && (xe->msg[l - 1] == '\n' || xe->msg[l - 1] == ' '))
		xe->msg[--l] = '\0';
	/* Some messages run over two lines ("...encoding !\nBytes: 0xFF..."). */
	for (char *p = xe->msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

/* SAX hook: a DOCTYPE reached the parser even though the bytes did not show one
 * (an encoding such as UTF-7 can spell "<!" differently). libxml2 calls this
 * before it reads the internal subset, so stopping here means no entity is
 * ever declared. */
static void xml_on_doctype(void *ctx, const xmlChar *name, const xmlChar *ext_id, const xmlChar *sys_id)
{
	(void)name;
	(void)ext_id;
	(void)sys_id;
	xmlStopParser((xmlParserCtxtPtr)ctx);
}

/* memmem() is a GNU extension; this stays within POSIX. */
static const char *memstr(const char *h, size_t hl, const char *n)
{
	size_t nl = strlen(n);
	for (const char *p = h; nl <= hl - (size_t)(p - h);) {
		p = memchr(p, n[0], hl - (size_t)(p - h) - nl + 1);
		if (!p)
			return NULL;
		if (!memcmp(p, n, nl))
			return p;
		p++;
	}
	return NULL;
}

static const char *memstr_last(const char *h, size_t hl, const char *n)
{
	size_t nl = strlen(n);
	if (nl > hl)
		return NULL;
	for (size_t i = hl - nl + 1; i-- > 0;)
		if (!memcmp(h + i, n, nl))
			return h + i;
	return NULL;
}

static const char *memstr_ci(const char *h, size_t hl, const char *n)
{
	size_t nl = strlen(n);
	for (size_t i = 0; i + nl <= hl; i++)
		if (h[i] == '<' && !strncasecmp(h + i, n, nl))
			return h + i;
	return NULL;
}

static size_t count_lines(const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

/* The start of what the input said instead of XML, for the error message. */
static void quote_start(const char *s, size_t len, amc_sb *out)
{
	while (len && (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t'))
		s++, len--;
	size_t n = 0;
	while (n < len && n < 120 && s[n] != '\n' && s[n] != '\r')
		n++;
	amc_sanitize_line(s, n, out);
}

/* Find the XML in what `uiautomator dump` printed: from the first "<?xml" or
 * "<hierarchy" to the end of the last "</hierarchy>", dropping the trailing
 * "UI hierchary dumped to: /dev/tty" line and anything printed before. */
static int cut_document(const char *xml, size_t len, size_t *start, size_t *end, amc_err *e)
{
	const char *a = memstr(xml, len, "<?xml");
	const char *h = memstr(xml, len, "<hierarchy");
	const char *s = a && h ? (a < h ? a : h) : a ? a : h;
	if (!s)
		s = memchr(xml, '<', len);
	if (!s) {
		amc_sb q;
		amc_sb_init(&q);
		quote_start(xml, len, &q);
		if (q.len)
			amc_err_set(e, AMC_EUSAGE,
				"no UI hierarchy in the input; it says: \"%s\" (re-run the dump once the "
				"screen is idle, e.g. `adb exec-out uiautomator dump /dev/tty`)", amc_sb_str(&q));
		else
			amc_err_set(e, AMC_EUSAGE,
				"the UI tree input is empty; capture one with `adb exec-out uiautomator dump /dev/tty`");
		amc_sb_free(&q);
		return -1;
	}
	size_t off = (size_t)(s - xml);
	const char *close = memstr_last(s, len - off, "</hierarchy>");
	size_t stop;
	if (close) {
		stop = (size_t)(close - xml) + strlen("</hierarchy>");
	} else {
		/* Self-closing <hierarchy/> or another format: up to the last '>'. */
		const char *gt = NULL;
		for (size_t i = len; i-- > off;)
			if (xml[i] == '>') {
				gt = xml + i;
				break;
			}
		stop = gt ? (size_t)(gt - xml) + 1 : len;
	}
	*start = off;
	*end = stop;
	return 0;
}

int amc_uitree_parse(const char *xml, size_t len, amc_ui_tree *out, amc_err *e)
{
	return amc_uitree_parse_scaled(xml, len, 0, out, e);
}

int amc_uitree_parse_scaled(const char *xml, size_t len, int screen_width, amc_ui_tree *out, amc_err *e)
{
	if (!out)
		return amc_err_set(e, AMC_EUSAGE, "internal: no tree to parse into");
	memset(out, 0, sizeof *out);
	if (!xml && len)
		return amc_err_set(e, AMC_EUSAGE, "internal: UI tree input is NULL");
	if (len > AMC_UITREE_MAX_BYTES)
		return amc_err_set(e, AMC_EUSAGE,
			"UI tree is %zu bytes, over the %u byte limit; refusing it (a real dump is well "
			"under 1 MB; check that the file is a single UI dump)", len, AMC_UITREE_MAX_BYTES);

	size_t start, end;
	if (cut_document(xml ? xml : "", len, &start, &end, e) != 0)
		return -1;
	const char *doc_text = xml + start;
	size_t doc_len = end - start;
	size_t line_base = count_lines(xml, start);

	/* Refused before parsing, so no entity is ever declared, let alone expanded. */
	if (memstr_ci(doc_text, doc_len, "<!DOCTYPE") || memstr_ci(doc_text, doc_len, "<!ENTITY"))
		return amc_err_set(e, AMC_EUSAGE,
			"UI tree XML has a DOCTYPE or ENTITY declaration; refusing it (device dumps never "
			"have one, and entities can expand without bound or read local files)");

	/* Device dumps are UTF-8; NUL bytes mean UTF-16/32 or binary, which would
	 * also defeat the byte checks above. */
	if (memchr(doc_text, '\0', doc_len))
		return amc_err_set(e, AMC_EUSAGE,
			"UI tree XML contains NUL bytes; expected UTF-8 text (a UTF-16 file? "
			"re-capture it with `adb exec-out uiautomator dump /dev/tty`)");

	pthread_once(&xml_once, xml_init);
	xml_errs xe = {0};
	/* Thread-local in libxml2 2.9: another thread's parse is not affected.
	 * Save and restore, so whoever set a handler before gets it back. */
	xmlStructuredErrorFunc old_fn = xmlStructuredError;
	void *old_ctx = xmlStructuredErrorContext;
	xmlSetStructuredErrorFunc(&xe, xml_on_error);

	int rc = -1;
	xmlDocPtr doc = NULL;
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	if (!ctxt) {
		amc_err_set(e, AMC_EENV, "cannot create an XML parser (out of memory?)");
		goto done;
	}
	/* Never NOENT, DTDLOAD or HUGE: no substitution, no external subset, and
	 * libxml2's own depth and text-size limits stay on. */
	int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
	ctxt->sax->internalSubset = xml_on_doctype;
	doc = xmlCtxtReadMemory(ctxt, doc_text, (int)doc_len, "uitree.xml", NULL, opts);
	if (ctxt->errNo == XML_ERR_USER_STOP || (doc && (doc->intSubset || doc->extSubset))) {
		amc_err_set(e, AMC_EUSAGE, "UI tree XML has a DOCTYPE; refusing it (device dumps never "
			"have one, and entities can expand without bound or read local files)");
		goto done;
	}
	if (!doc || !ctxt->wellFormed) {
		if (xe.have && strstr(xe.msg, "Excessive depth"))
			amc_err_set(e, AMC_EUSAGE,
				"UI tree nests deeper than %d levels; refusing it (check that the input "
				"is a UI dump)", AMC_UITREE_MAX_DEPTH);
		else if (xe.have) {
			amc_sb m;
			amc_sb_init(&m);
			amc_sanitize_line(xe.msg, strlen(xe.msg), &m);
			amc_err_set(e, AMC_EUSAGE,
				"malformed UI tree XML at line %zu: %s (re-capture the dump; a dump cut short "
				"by a timeout is the usual cause)",
				line_base + (size_t)(xe.line > 0 ? xe.line : 1), amc_sb_str(&m));
			amc_sb_free(&m);
		} else {
			amc_err_set(e, AMC_EUSAGE, "malformed UI tree XML (re-capture the dump)");
		}
		goto done;
	}
	xmlNode *root = xmlDocGetRootElement(doc);
	if (!root || !root->name) {
		amc_err_set(e, AMC_EUSAGE, "UI tree XML has no root element");
		goto done;
	}
	enum fmt f = detect_format(root);
	const struct format *fm = NULL;
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (formats[i].id == f)
			fm = &formats[i];
	if (!fm || !fm->walk) {
		/* Name the element that gave the format away. */
		xmlNode *tell = f == FMT_UIAUTOMATOR2 ? first_content_element(root, 3) : root;
		const char *tn = tell && tell->name ? (const char *)tell->name : "?";
		amc_sb rn;
		amc_sb_init(&rn);
		amc_sanitize_line(tn, strlen(tn) > 80 ? 80 : strlen(tn), &rn);
		if (fm)
			amc_err_set(e, AMC_EUSAGE,
				"unsupported UI tree format: %s (element <%s>); amc reads adb uiautomator dumps "
				"for now (`adb exec-out uiautomator dump /dev/tty`)", fm->what, amc_sb_str(&rn));
		else
			amc_err_set(e, AMC_EUSAGE,
				"unsupported UI tree format: root element <%s>; expected an adb uiautomator "
				"dump (<hierarchy><node .../></hierarchy>)", amc_sb_str(&rn));
		amc_sb_free(&rn);
		goto done;
	}

	walk w = {.b = {.t = out, .last_root = -1}, .doc = doc, .e = e, .screen_width = screen_width};
	int wrc = fm->walk(&w, root);
	builder_done(&w.b);
	if (wrc != 0) {
		amc_uitree_free(out);
		goto done;
	}
	snprintf(out->format, sizeof out->format, "%s", fm->name);
	rc = 0;
done:
	if (doc)
		xmlFreeDoc(doc);
	if (ctxt)
		xmlFreeParserCtxt(ctxt);
	xmlSetStructuredErrorFunc(old_ctx, old_fn);
	return rc;
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
	set_str(dst, v->valuestring);
	return 0;
}

static int node_from_json(builder *b, const cJSON *o, int parent, amc_err *e)
{
	if (!cJSON_IsObject(o))
		return amc_err_set(e, AMC_EUSAGE, "stored UI tree: a node is not an object");
	int id = builder_add(b, parent, e);
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
			for (size_t k = 0; k < N_FLAGS; k++)
				if (!strcmp(f->valuestring, flag_defs[k].name))
					n->flags |= flag_defs[k].flag;
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
	builder b = {.t = out, .last_root = -1};
	const cJSON *c;
	cJSON_ArrayForEach(c, nodes) {
		if (node_from_json(&b, c, -1, e) != 0) {
			builder_done(&b);
			amc_uitree_free(out);
			return -1;
		}
	}
	builder_done(&b);
	snprintf(out->format, sizeof out->format, "%s", f->valuestring);
	return 0;
}
