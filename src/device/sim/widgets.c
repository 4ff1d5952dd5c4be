/* widgets.c - building blocks of the sim's view trees (see widgets.h) and
 * hit-testing: what a tap reaches is what is drawn on top, clipped by its
 * parents, so the tree, the picture and the taps agree. */
#include <stdlib.h>
#include <string.h>

#include "device/sim/widgets.h"

const sim_pal sim_light = {0xFEF7FFFF, 0xF3EDF7FF, 0x1D1B20FF, 0x49454FFF, 0xE7E0ECFF, 0x6750A4FF, 0xFFFFFFFF,
			  0xEADDFFFF, 0x21005DFF, 0x79747EFF, 0xB3261EFF,
			  0xE8EAEDFF, 0xFFFFFFFF, 0xC9CDD2FF, 0x202124FF};
const sim_pal sim_dark = {0x141218FF, 0x211F26FF, 0xE6E0E9FF, 0xCAC4D0FF, 0x36343BFF, 0xD0BCFFFF, 0x381E72FF,
			 0x4F378BFF, 0xEADDFFFF, 0x938F99FF, 0xF2B8B5FF,
			 0x202124FF, 0x3C4043FF, 0x2A2B2EFF, 0xE8EAEDFF};

int sim_add(sim_builder *b, int parent, int x1, int y1, int x2, int y2, const char *cls)
{
	vtree *t = b->t;
	if (t->count == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 128;
		t->n = amc_xrealloc(t->n, (size_t)t->cap * sizeof *t->n);
	}
	int i = t->count++;
	vnode *n = &t->n[i];
	memset(n, 0, sizeof *n);
	n->parent = parent;
	n->first = n->last = n->next = -1;
	n->x1 = x1;
	n->y1 = y1;
	n->x2 = x2;
	n->y2 = y2;
	n->cls = cls;
	n->rid = "";
	if (parent >= 0) {
		vnode *p = &t->n[parent];
		if (p->last >= 0)
			t->n[p->last].next = i;
		else
			p->first = i;
		p->last = i;
	}
	return i;
}

void sim_set_text(sim_builder *b, int i, const char *s)
{
	vnode *n = N(b, i);
	free(n->text);
	free(n->ptext);
	n->text = amc_xstrdup(s);
	n->ptext = amc_xstrdup(s);
}

void sim_set_desc(sim_builder *b, int i, const char *s)
{
	free(N(b, i)->desc);
	N(b, i)->desc = amc_xstrdup(s);
}

/* Painted-only decoration. */
int sim_deco(sim_builder *b, int parent, int x1, int y1, int x2, int y2, int paint, uint32_t bg, int radius)
{
	int i = sim_add(b, parent, x1, y1, x2, y2, "android.view.View");
	vnode *n = N(b, i);
	n->flags = VF_NOTREE;
	n->paint = paint;
	n->bg = bg;
	n->radius = radius;
	return i;
}

/* A one-line label: bounds are the text's own box (capped at maxw), as a
 * wrap_content TextView has. */
int sim_label(sim_builder *b, int parent, int x, int top, int maxw, const char *s, int sp, uint32_t col, unsigned flags,
		 const char *rid)
{
	int px = D(b, sp);
	int w = sim_text_width(b->s->font, px, !!(flags & VF_BOLD), s, strlen(s));
	if (w > maxw)
		w = maxw;
	if (w < 1)
		w = 1;
	int i = sim_add(b, parent, x, top, x + w, top + sim_line_height(px), "android.widget.TextView");
	vnode *n = N(b, i);
	n->paint = P_TEXT;
	n->fg = col;
	n->font_px = px;
	n->flags = flags;
	n->rid = rid ? rid : "";
	sim_set_text(b, i, s);
	return i;
}

int sim_glyph_icon(sim_builder *b, int parent, int cx, int cy, int size_dp, const char *glyph, uint32_t circle, uint32_t col,
		      int sp)
{
	int r = D(b, size_dp) / 2;
	int i = sim_deco(b, parent, cx - r, cy - r, cx + r, cy + r, (circle & 255) ? P_CIRCLE : P_NONE, circle, 0);
	if (glyph) {
		int px = D(b, sp);
		int g = sim_add(b, i, cx - r, cy - r, cx + r, cy + r, "android.view.View");
		vnode *n = N(b, g);
		n->flags = VF_NOTREE | VF_CENTER;
		n->paint = P_TEXT;
		n->fg = col;
		n->font_px = px;
		n->ptext = amc_xstrdup(glyph);
	}
	return i;
}

int sim_shape_icon(sim_builder *b, int parent, int cx, int cy, int size_dp, int icon, uint32_t circle, uint32_t col)
{
	int r = D(b, size_dp) / 2;
	int i = sim_deco(b, parent, cx - r, cy - r, cx + r, cy + r, (circle & 255) ? P_CIRCLE : P_NONE, circle, 0);
	int g = sim_add(b, i, cx - r * 6 / 10, cy - r * 6 / 10, cx + r * 6 / 10, cy + r * 6 / 10, "android.view.View");
	vnode *n = N(b, g);
	n->flags = VF_NOTREE;
	n->paint = P_LINE_ICON;
	n->icon = icon;
	n->fg = col;
	n->bg = circle;
	return i;
}

int sim_root(sim_builder *b, const char *pkg, uint32_t bg)
{
	b->t->pkg = pkg;
	int r = sim_add(b, -1, 0, 0, b->W, b->H, "android.widget.FrameLayout");
	N(b, r)->paint = P_RECT;
	N(b, r)->bg = bg;
	int c = sim_add(b, r, 0, 0, b->W, b->H, "android.widget.FrameLayout");
	N(b, c)->rid = "android:id/content";
	return c;
}

/* App bar under the status bar: optional "Navigate up" and a title. Returns the
 * y where content starts. */
int sim_app_bar(sim_builder *b, int parent, const char *title, int back)
{
	int top = D(b, 32), h = D(b, 64);
	int bar = sim_add(b, parent, 0, top, b->W, top + h, "android.view.ViewGroup");
	int x = D(b, 16);
	if (back) {
		int nb = sim_add(b, bar, D(b, 4), top + D(b, 8), D(b, 52), top + D(b, 56), "android.widget.ImageButton");
		vnode *n = N(b, nb);
		n->flags = VF_CLICKABLE | VF_FOCUSABLE;
		n->act = A_BACK;
		sim_set_desc(b, nb, "Navigate up");
		int g = sim_add(b, nb, n->x1, n->y1, n->x2, n->y2, "android.view.View");
		vnode *gn = N(b, g);
		gn->flags = VF_NOTREE | VF_CENTER;
		gn->paint = P_TEXT;
		gn->fg = b->c->text;
		gn->font_px = D(b, 24);
		gn->ptext = amc_xstrdup("\xe2\x86\x90");
		x = D(b, 64);
	}
	if (title && *title) {
		int px = D(b, 22);
		sim_label(b, bar, x, top + (h - sim_line_height(px)) / 2, b->W - x - D(b, 16), title, 22, b->c->text, 0, NULL);
	}
	return top + h;
}

int sim_list(sim_builder *b, int parent, int top, const char *rid)
{
	int l = sim_add(b, parent, 0, top, b->W, b->bottom, "androidx.recyclerview.widget.RecyclerView");
	vnode *n = N(b, l);
	n->flags = VF_SCROLLABLE | VF_FOCUSABLE;
	n->rid = rid;
	b->t->scroll_node = l;
	return l;
}

void sim_list_end(sim_builder *b, int list, int content_h)
{
	vnode *n = N(b, list);
	int view = n->y2 - n->y1;
	b->t->scroll_max = content_h > view ? content_h - view : 0;
	if (content_h <= view)
		n->flags &= ~VF_SCROLLABLE; /* Android reports scrollable only when it can scroll */
}

int sim_clamp_scroll(int scroll, int content_h, int view_h)
{
	int max = content_h > view_h ? content_h - view_h : 0;
	if (scroll > max)
		scroll = max;
	return scroll < 0 ? 0 : scroll;
}

void sim_switch(sim_builder *b, int parent, int right, int cy, int on)
{
	int w = D(b, 52), h = D(b, 32);
	int sw = sim_add(b, parent, right - w, cy - h / 2, right, cy - h / 2 + h, "android.widget.Switch");
	vnode *n = N(b, sw);
	n->rid = "com.android.settings:id/switch_widget";
	n->flags = VF_CHECKABLE | (on ? VF_CHECKED : 0);
	n->paint = P_SWITCH;
	n->fg = b->c->primary;
	n->fg2 = b->c->outline;
	n->accent = b->c->on_primary;
	n->bg = b->c->card;
}

void sim_row(sim_builder *b, int parent, int y, int h, const sim_rowspec *r)
{
	const sim_pal *c = b->c;
	int rw = sim_add(b, parent, 0, y, b->W, y + h, "android.widget.LinearLayout");
	vnode *n = N(b, rw);
	n->flags = VF_CLICKABLE | VF_FOCUSABLE;
	if (r->toggle >= 0) {
		n->act = A_TOGGLE;
		n->a1 = r->toggle;
	} else {
		n->act = r->act;
		n->a1 = r->a1;
		n->a2 = r->a2;
	}
	int tx = D(b, 16);
	if (r->glyph || r->shape) {
		int cx = D(b, 36), cy = y + h / 2, sz = D(b, 40);
		int ic = sim_add(b, rw, cx - sz / 2, cy - sz / 2, cx + sz / 2, cy + sz / 2, "android.widget.ImageView");
		N(b, ic)->rid = "android:id/icon";
		if (r->glyph)
			sim_glyph_icon(b, ic, cx, cy, 40, r->glyph, r->icon_bg, 0xFFFFFFFF, 20);
		else
			sim_shape_icon(b, ic, cx, cy, 40, r->shape, r->icon_bg, 0xFFFFFFFF);
		tx = D(b, 72);
	}
	int right = b->W - D(b, 16);
	int on = r->toggle >= 0 && b->s->st.toggles[r->toggle];
	int textw = right - tx - (r->toggle >= 0 ? D(b, 68) : 0);
	int p1 = D(b, 16), p2 = D(b, 14);
	int lh1 = sim_line_height(p1), lh2 = r->summary ? sim_line_height(p2) : 0;
	int top = y + (h - lh1 - lh2) / 2;
	sim_label(b, rw, tx, top, textw, r->title, 16, c->text, 0, r->title_rid ? r->title_rid : "android:id/title");
	if (r->summary)
		sim_label(b, rw, tx, top + lh1, textw, r->summary, 14, c->text2, 0, "android:id/summary");
	if (r->toggle >= 0)
		sim_switch(b, rw, right, y + h / 2, on);
	sim_deco(b, rw, tx, y + h - (D(b, 1) ? D(b, 1) : 1), b->W, y + h, P_RECT, c->divider, 0);
}

int sim_button(sim_builder *b, int parent, int x1, int y1, int x2, int y2, const char *text, int filled, const char *rid,
		  int act, int a1, int a2)
{
	const sim_pal *c = b->c;
	int bt = sim_add(b, parent, x1, y1, x2, y2, "android.widget.Button");
	vnode *n = N(b, bt);
	n->rid = rid ? rid : "";
	n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_CENTER;
	n->act = act;
	n->a1 = a1;
	n->a2 = a2;
	n->paint = P_TEXT;
	n->font_px = D(b, 15);
	n->radius = (y2 - y1) / 2;
	n->bg = filled == 1 ? c->primary : filled == 2 ? c->container : 0;
	n->fg = filled == 1 ? c->on_primary : filled == 2 ? c->on_container : c->primary;
	n->flags |= VF_BOLD;
	sim_set_text(b, bt, text);
	return bt;
}

int sim_button_width(sim_builder *b, const char *text)
{
	return sim_text_width(b->s->font, D(b, 15), 1, text, strlen(text)) + D(b, 48);
}

int sim_fab(sim_builder *b, int parent, const char *desc, const char *rid, const char *text)
{
	const sim_pal *c = b->c;
	int h = D(b, 56), w = text ? sim_text_width(b->s->font, D(b, 16), 1, text, strlen(text)) + D(b, 88) : h;
	int x2 = b->W - D(b, 16), y2 = b->bottom - D(b, 40);
	int f = sim_add(b, parent, x2 - w, y2 - h, x2, y2, text ? "android.widget.Button" : "android.widget.ImageButton");
	vnode *n = N(b, f);
	n->rid = rid;
	n->flags = VF_CLICKABLE | VF_FOCUSABLE;
	n->act = A_OPEN;
	if (desc)
		sim_set_desc(b, f, desc);
	if (text)
		sim_set_text(b, f, text);
	free(n->ptext);
	n->ptext = NULL;
	/* Shadow, surface, icon, label. */
	sim_deco(b, f, x2 - w + D(b, 1), y2 - h + D(b, 3), x2 + D(b, 1), y2 + D(b, 3), P_RECT, 0x00000030, D(b, 16));
	sim_deco(b, f, x2 - w, y2 - h, x2, y2, P_RECT, c->container, D(b, 16));
	sim_shape_icon(b, f, x2 - w + h / 2, y2 - h / 2, 40, 2, c->container, c->on_container);
	if (text) {
		int l = sim_label(b, f, x2 - w + h - D(b, 4), y2 - h + (h - sim_line_height(D(b, 16))) / 2, w, text, 16,
			      c->on_container, VF_BOLD | VF_NOTREE | VF_PARENT_TEXT, NULL);
		(void)l;
	}
	N(b, f)->flags |= VF_NOCLIP;
	return f;
}

int sim_field(sim_builder *b, int parent, int y, const char *hint, const char *value, const char *rid, int which, int focus)
{
	const sim_pal *c = b->c;
	int h = D(b, 56);
	int f = sim_add(b, parent, D(b, 16), y, b->W - D(b, 16), y + h, "android.widget.EditText");
	vnode *n = N(b, f);
	n->rid = rid;
	n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_LONGCLICK | (focus == which ? VF_FOCUSED : 0);
	n->act = A_FOCUS;
	n->a1 = which;
	n->paint = P_FIELD;
	n->font_px = D(b, 16);
	n->fg = c->text;
	n->fg2 = c->outline;
	n->accent = c->primary;
	n->bg = c->bg;
	/* All of its text selected (a long press): drawn on the selection colour. */
	if (focus == which && b->s->st.selected && *value) {
		n->flags |= VF_SELECTED;
		n->bg = SIM_SELECTION_BG;
	}
	n->hint = hint;
	/* An empty EditText reports its hint as its text (Android 8+ does). */
	n->text = amc_xstrdup(*value ? value : hint);
	n->ptext = amc_xstrdup(value);
	return f;
}

/* ---- hit-testing and the UI dump's view of the tree ---- */

void vtree_free(vtree *t)
{
	for (int i = 0; i < t->count; i++) {
		free(t->n[i].text);
		free(t->n[i].desc);
		free(t->n[i].ptext);
	}
	free(t->n);
	memset(t, 0, sizeof *t);
}

static int inside(const vnode *n, int x, int y)
{
	return x >= n->x1 && x < n->x2 && y >= n->y1 && y < n->y2;
}

/* Visible area of node i: its bounds clipped by every ancestor. */
static int visible_box(const vtree *t, int i, int *x1, int *y1, int *x2, int *y2)
{
	const vnode *n = &t->n[i];
	int a = n->x1, b = n->y1, c = n->x2, d = n->y2;
	for (int p = n->parent; p >= 0; p = t->n[p].parent) {
		const vnode *q = &t->n[p];
		if (q->flags & VF_NOCLIP)
			continue;
		if (q->x1 > a)
			a = q->x1;
		if (q->y1 > b)
			b = q->y1;
		if (q->x2 < c)
			c = q->x2;
		if (q->y2 < d)
			d = q->y2;
	}
	*x1 = a;
	*y1 = b;
	*x2 = c;
	*y2 = d;
	return a < c && b < d;
}

int vtree_hit(const vtree *t, int x, int y)
{
	/* Later nodes are painted over earlier ones: search from the end. */
	for (int i = t->count - 1; i >= 0; i--) {
		const vnode *n = &t->n[i];
		if (n->act == A_NONE || !inside(n, x, y))
			continue;
		int a, b, c, d;
		if (visible_box(t, i, &a, &b, &c, &d) && x >= a && x < c && y >= b && y < d)
			return i;
	}
	return -1;
}

int vtree_scroll_hit(const vtree *t, int x, int y)
{
	int i = t->scroll_node;
	if (i < 0 || !inside(&t->n[i], x, y))
		return -1;
	/* Something modal drawn over the list (keyboard, dialog) takes the gesture. */
	int h = vtree_hit(t, x, y);
	if (h >= 0 && (t->n[h].act == A_ABSORB || t->n[h].act == A_DLG_CANCEL || t->n[h].act == A_NOTIFY ||
		       t->n[h].act >= A_KEY_CHAR))
		return -1;
	return i;
}

void vtree_dumped(const vtree *t, int w, int h, unsigned char *dumped, int *vis)
{
	memset(dumped, 0, (size_t)t->count);
	int root = t->dump_root;
	for (int i = 0; i < t->count; i++) {
		int under = 0;
		for (int p = i; p >= 0; p = t->n[p].parent) {
			if (t->n[p].flags & VF_NOTREE)
				break;
			if (p == root) {
				under = 1;
				break;
			}
		}
		if (!under)
			continue;
		int a, b, c, d;
		if (!visible_box(t, i, &a, &b, &c, &d))
			continue;
		if (a < 0)
			a = 0;
		if (b < 0)
			b = 0;
		if (c > w)
			c = w;
		if (d > h)
			d = h;
		if (a >= c || b >= d)
			continue;
		/* A node is shown only when its parent is. */
		if (i != root && !dumped[t->n[i].parent])
			continue;
		dumped[i] = 1;
		vis[i * 4] = a;
		vis[i * 4 + 1] = b;
		vis[i * 4 + 2] = c;
		vis[i * 4 + 3] = d;
	}
}
