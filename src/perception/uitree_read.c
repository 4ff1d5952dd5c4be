/* uitree_read.c - the format readers: one walker over the parsed document
 * and, per format, which elements are nodes and how a node's attributes are
 * read. Every format lands in the same amc_ui_node, so the Scene, selectors
 * and planners never know which one a device spoke. */
#include "perception/uitree_read.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

typedef struct reader reader;

typedef struct format {
	amc_uitree_fmt id;
	const char *name;   /* amc_ui_tree.format */
	/* Which elements are nodes; the others are looked through (their nodes
	 * attach to the nearest node above). */
	int (*is_node)(const xmlNode *el);
	void (*read)(reader *r, amc_ui_node *n, xmlNode *el);
	/* What the root says about the whole tree (rotation, scale); may be NULL. */
	void (*prepare)(reader *r, xmlNode *root);
	int root_may_be_node;   /* a bare XCUITest source has no wrapper */
} format;

struct reader {
	amc_uitree_builder b;
	xmlDocPtr doc;
	amc_err *e;
	const format *f;
	int screen_width;   /* screenshot width for XCUITest scaling; 0: unknown */
	double scale;       /* XCUITest points -> pixels */
};

static char *attr(reader *r, const xmlNode *el, const char *name)
{
	return amc_uitree_xml_attr(r->doc, el, name);
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

/* ---- adb uiautomator ---------------------------------------------------- */

static void read_uiautomator(reader *r, amc_ui_node *n, xmlNode *el)
{
	int have_bounds = 0, bounds_ok = 0, shown = 1;
	for (xmlAttrPtr a = el->properties; a; a = a->next) {
		const char *k = (const char *)a->name;
		if (!k)
			continue;
		char *v = amc_uitree_xml_attr_value(r->doc, a);
		if (!strcmp(k, "text"))
			amc_uitree_set_str(&n->text, v);
		else if (!strcmp(k, "resource-id"))
			amc_uitree_set_str(&n->resource_id, v);
		else if (!strcmp(k, "class"))
			amc_uitree_set_str(&n->class_name, v);
		else if (!strcmp(k, "package"))
			amc_uitree_set_str(&n->package, v);
		else if (!strcmp(k, "content-desc"))
			amc_uitree_set_str(&n->content_desc, v);
		else if (!strcmp(k, "hint"))
			amc_uitree_set_str(&n->hint, v);
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
		} else if (is_true(v)) {
			/* Attributes that are no flag (drawing-order, window
			 * attributes, future additions) are ignored on purpose. */
			n->flags |= amc_uitree_flag_by_attr(k);
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
static int is_uiautomator_node(const xmlNode *el)
{
	return amc_uitree_xml_name_is(el, "node");
}


/* The root's rotation attribute (uiautomator and UiAutomator2 alike). */
static void read_rotation(reader *r, xmlNode *root)
{
	for (xmlAttrPtr a = root->properties; a; a = a->next) {
		if (a->name && !strcmp((const char *)a->name, "rotation")) {
			char *v = amc_uitree_xml_attr_value(r->doc, a);
			const char *end;
			int rot;
			if (parse_int_span(v, &end, &rot) == 0 && !*end)
				r->b.t->rotation = rot;
			free(v);
		}
	}
}

/* ---- Appium UiAutomator2 ------------------------------------------------ */

/* Same attributes as uiautomator (empty ones omitted, `displayed` added), but
 * every element is a node named after its class. */
static int is_any_element(const xmlNode *el)
{
	(void)el;
	return 1;
}

static void read_uia2(reader *r, amc_ui_node *n, xmlNode *el)
{
	read_uiautomator(r, n, el);
	if (!n->class_name[0])
		amc_uitree_set_str(&n->class_name, (const char *)el->name);
}

/* ---- Appium XCUITest ------------------------------------------------------ */

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

/* The box in pixels; displayed unless visible="false" or the box is empty
 * (XCUITest and the fake driver give geometry the same way). */
static void set_box(amc_ui_node *n, double x1, double y1, double x2, double y2, const char *vis)
{
	n->bounds = (amc_bounds){ px_round(x1), px_round(y1), px_round(x2), px_round(y2) };
	if ((!vis || strcmp(vis, "false")) && n->bounds.x2 > n->bounds.x1 && n->bounds.y2 > n->bounds.y1)
		n->flags |= AMC_NODE_DISPLAYED;
}

static int type_ends(const char *type, const char *suffix)
{
	size_t a = strlen(type), b = strlen(suffix);
	return a >= b && !strcmp(type + a - b, suffix);
}

static void read_xcui(reader *r, amc_ui_node *n, xmlNode *el)
{
	char *type = attr(r, el, "type");
	if (!type || !*type) {
		free(type);
		type = amc_xstrdup((const char *)el->name);
	}
	char *name = attr(r, el, "name"), *label = attr(r, el, "label");
	char *value = attr(r, el, "value"), *ph = attr(r, el, "placeholderValue");
	amc_uitree_set_str(&n->class_name, type);
	amc_uitree_set_str(&n->resource_id, name);
	int field = type_ends(type, "TextField") || type_ends(type, "SearchField") ||
		    type_ends(type, "TextView");
	int toggle = type_ends(type, "Switch") || type_ends(type, "CheckBox") || type_ends(type, "Toggle");
	/* A field's label names it; what it holds is its value. A switch's value
	 * is its state ("1"/"0"), never text. */
	const char *text = field ? (value && (!ph || strcmp(value, ph)) ? value : "")
			 : (label && *label ? label : (!toggle && value) ? value : "");
	amc_uitree_set_str(&n->text, text);
	if (name && *name && strcmp(name, text))
		amc_uitree_set_str(&n->content_desc, name);
	else if (field && label && *label)
		amc_uitree_set_str(&n->content_desc, label);
	amc_uitree_set_str(&n->hint, ph);
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
		char *v = attr(r, el, boolattrs[i][0]);
		if (is_true(v))
			n->flags |= !strcmp(boolattrs[i][0], "enabled") ? AMC_NODE_ENABLED :
				    !strcmp(boolattrs[i][0], "selected") ? AMC_NODE_SELECTED : AMC_NODE_FOCUSED;
		free(v);
	}
	char *vis = attr(r, el, "visible");
	char *xs = attr(r, el, "x"), *ys = attr(r, el, "y");
	char *ws = attr(r, el, "width"), *hs = attr(r, el, "height");
	double x, y, wd, ht;
	if (parse_points(xs, &x) == 0 && parse_points(ys, &y) == 0 && parse_points(ws, &wd) == 0 &&
	    parse_points(hs, &ht) == 0 && wd >= 0 && ht >= 0) {
		double s = r->scale;
		set_box(n, x * s, y * s, (x + wd) * s, (y + ht) * s, vis);
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

static int is_xcui_element(const xmlNode *el)
{
	return !strncmp((const char *)el->name, "XCUIElementType", 15);
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

/* Points -> pixels: the screenshot width over the first element's width. */
static void xcui_scale(reader *r, xmlNode *root)
{
	r->scale = 1.0;
	xmlNode *app = xcui_first(root, 3);
	if (app && r->screen_width > 0) {
		char *ws = attr(r, app, "width");
		double pw;
		if (parse_points(ws, &pw) == 0 && pw >= 1)
			r->scale = (double)r->screen_width / pw;
		free(ws);
	}
}

/* ---- the Appium fake driver (amc's tests) ------------------------------- */

/* Not a device format: the page source of the Appium fake driver that amc's
 * Appium tests drive. It is read so that flows run against the fake app;
 * keep it working, but no phone sends it.
 *
 * <AppiumAUT><app width height> with elements of any tag carrying id, text,
 * hint, value, visible, enabled and left top width height (pixels). Text: the
 * text attribute, else value (MockInputField), else the element's own
 * character data. */
static void read_fake(reader *r, amc_ui_node *n, xmlNode *el)
{
	amc_uitree_set_str(&n->class_name, (const char *)el->name);
	char *id = attr(r, el, "id"), *text = attr(r, el, "text"), *value = attr(r, el, "value");
	char *hint = attr(r, el, "hint"), *desc = attr(r, el, "content-desc");
	amc_uitree_set_str(&n->resource_id, id);
	amc_uitree_set_str(&n->hint, hint);
	amc_uitree_set_str(&n->content_desc, desc);
	if (text && *text) {
		amc_uitree_set_str(&n->text, text);
	} else if (value && *value) {
		amc_uitree_set_str(&n->text, value);
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
		amc_uitree_set_str(&n->text, t);
		free(t);
		amc_sb_free(&sb);
	}
	char *vis = attr(r, el, "visible"), *en = attr(r, el, "enabled");
	if (!en || strcmp(en, "false"))
		n->flags |= AMC_NODE_ENABLED;
	if (strcmp((const char *)el->name, "app"))
		n->flags |= AMC_NODE_CLICKABLE;
	if (!strcmp((const char *)el->name, "MockInputField"))
		n->flags |= AMC_NODE_FOCUSABLE;
	char *ls = attr(r, el, "left"), *ts = attr(r, el, "top");
	char *ws = attr(r, el, "width"), *hs = attr(r, el, "height");
	double x = 0, y = 0, wd, ht;
	if ((!ls || parse_points(ls, &x) == 0) && (!ts || parse_points(ts, &y) == 0) && parse_points(ws, &wd) == 0 &&
	    parse_points(hs, &ht) == 0 && wd >= 0 && ht >= 0) {
		set_box(n, x, y, x + wd, y + ht, vis);
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

/* ---- the walker ------------------------------------------------------- */

static const format formats[] = {
	{AMC_UITREE_UIAUTOMATOR, "uiautomator", is_uiautomator_node, read_uiautomator, read_rotation, 0},
	{AMC_UITREE_UIAUTOMATOR2, "uiautomator2", is_any_element, read_uia2, read_rotation, 0},
	{AMC_UITREE_XCUITEST, "xcuitest", is_xcui_element, read_xcui, xcui_scale, 1},
	{AMC_UITREE_APPIUM_FAKE, "appium-fake", is_any_element, read_fake, NULL, 0},
};

static const format *format_of(amc_uitree_fmt fmt)
{
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (formats[i].id == fmt)
			return &formats[i];
	return NULL;
}

const char *amc_uitree_read_format_name(amc_uitree_fmt fmt)
{
	const format *f = format_of(fmt);
	return f ? f->name : "";
}

/* The element children of `el`, depth first. `edepth` counts elements, node
 * or not, so wrappers cannot nest without bound either. */
static int walk(reader *r, xmlNode *el, int parent, int edepth)
{
	if (edepth > AMC_UITREE_MAX_DEPTH)
		return amc_uitree_too_deep(r->e);
	for (xmlNode *c = el->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || !c->name)
			continue;
		int id = parent;
		if (r->f->is_node(c)) {
			id = amc_uitree_builder_add(&r->b, parent, r->e);
			if (id < 0)
				return -1;
			r->f->read(r, &r->b.t->nodes[id], c);
		}
		if (walk(r, c, id, edepth + 1) != 0)
			return -1;
	}
	return 0;
}

int amc_uitree_read_doc(xmlDocPtr doc, amc_uitree_fmt fmt, int screen_width, amc_ui_tree *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
	const format *f = format_of(fmt);
	if (!root || !root->name || !f)
		return amc_err_set(e, AMC_EUSAGE, "internal: no UI tree document to read");
	reader r = {.doc = doc, .e = e, .f = f, .screen_width = screen_width, .scale = 1.0};
	amc_uitree_builder_init(&r.b, out);
	if (f->prepare)
		f->prepare(&r, root);
	int rc;
	if (f->root_may_be_node && f->is_node(root)) {
		int id = amc_uitree_builder_add(&r.b, -1, e);
		if (id >= 0)
			f->read(&r, &out->nodes[id], root);
		rc = id < 0 ? -1 : walk(&r, root, id, 1);
	} else {
		rc = walk(&r, root, -1, 1);
	}
	amc_uitree_builder_done(&r.b);
	if (rc != 0) {
		amc_uitree_free(out);
		return -1;
	}
	snprintf(out->format, sizeof out->format, "%s", f->name);
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
	xmlDocPtr doc;
	if (amc_uitree_xml_read(xml, len, &doc, e) != 0)
		return -1;
	amc_uitree_fmt fmt;
	int rc = amc_uitree_xml_detect(xmlDocGetRootElement(doc), &fmt, e);
	if (rc == 0)
		rc = amc_uitree_read_doc(doc, fmt, screen_width, out, e);
	xmlFreeDoc(doc);
	return rc;
}
