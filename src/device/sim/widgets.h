/* widgets.h - the sim's view-tree building blocks (private to the sim): the
 * node allocator, labels, icons, app bar, lists, settings rows, switches,
 * buttons, text fields and the floating action button, laid out in dp and
 * scaled to the screen; and hit-testing of a built tree. The screens
 * (screens*.c) put these together; nodes live in the builder's vtree. */
#ifndef AMC_SIM_WIDGETS_H
#define AMC_SIM_WIDGETS_H

#include "device/sim/sim_int.h"

/* Colours (Material 3 baseline). */
typedef struct sim_pal {
	uint32_t bg, card, text, text2, divider, primary, on_primary, container, on_container, outline, error;
	uint32_t kb_panel, kb_key, kb_special, kb_text;
} sim_pal;

extern const sim_pal sim_light, sim_dark;

/* One tree being built: the state it shows, the palette, the screen size. */
typedef struct sim_builder {
	const sim *s;
	vtree *t;
	const sim_pal *c;
	int W, H, bottom; /* bottom: top of the keyboard, or the screen's height */
} sim_builder;

/* dp to px, rounded half away from zero. Short names: layout code is made of them. */
static inline int D(const sim_builder *b, double v)
{
	return (int)(v * b->s->dp + (v >= 0 ? 0.5 : -0.5));
}

/* Node i of the tree being built; valid until the next sim_add (which may move the array). */
static inline vnode *N(sim_builder *b, int i)
{
	return &b->t->n[i];
}

/* Every builder returns the new node's index. Bounds are in px. */
int sim_add(sim_builder *b, int parent, int x1, int y1, int x2, int y2, const char *cls);
/* Set the node's text (dumped) and painted text to copies of s. */
void sim_set_text(sim_builder *b, int i, const char *s);
void sim_set_desc(sim_builder *b, int i, const char *s);
/* Painted-only decoration (VF_NOTREE). */
int sim_deco(sim_builder *b, int parent, int x1, int y1, int x2, int y2, int paint, uint32_t bg, int radius);
/* A one-line TextView at (x, top) as wide as its text (at most maxw); sp is the font size in dp. */
int sim_label(sim_builder *b, int parent, int x, int top, int maxw, const char *s, int sp, uint32_t col, unsigned flags,
	      const char *rid);
/* A circle of size_dp centred on (cx, cy) (none when circle's alpha is 0) with a text glyph or a drawn icon. */
int sim_glyph_icon(sim_builder *b, int parent, int cx, int cy, int size_dp, const char *glyph, uint32_t circle,
		   uint32_t col, int sp);
int sim_shape_icon(sim_builder *b, int parent, int cx, int cy, int size_dp, int icon, uint32_t circle, uint32_t col);
/* The window (package pkg, filled with bg) and its content frame; returns the content node. */
int sim_root(sim_builder *b, const char *pkg, uint32_t bg);
/* App bar under the status bar: optional "Navigate up" and a title. Returns the
 * y where content starts. */
int sim_app_bar(sim_builder *b, int parent, const char *title, int back);
/* A scrollable list from top to b->bottom; it becomes the tree's scroll node. */
int sim_list(sim_builder *b, int parent, int top, const char *rid);
/* Close a list whose content is content_h px tall: sets how far it scrolls. */
void sim_list_end(sim_builder *b, int list, int content_h);
/* scroll clamped to what a list of content_h shown in view_h can scroll. */
int sim_clamp_scroll(int scroll, int content_h, int view_h);
/* A Switch ending at `right`, centred on cy. */
void sim_switch(sim_builder *b, int parent, int right, int cy, int on);

/* A settings-style row: icon, title, summary, optional switch, divider. */
typedef struct sim_rowspec {
	const char *glyph;
	int shape;          /* P_LINE_ICON icon kind when no glyph */
	uint32_t icon_bg;
	const char *title, *summary;
	int toggle;         /* -1 none */
	int act, a1, a2;
	const char *title_rid;
} sim_rowspec;

void sim_row(sim_builder *b, int parent, int y, int h, const sim_rowspec *r);
/* A pill button; filled: 0 text, 1 filled, 2 tonal. Tapping it runs act(a1, a2). */
int sim_button(sim_builder *b, int parent, int x1, int y1, int x2, int y2, const char *text, int filled,
	       const char *rid, int act, int a1, int a2);
/* The width sim_button needs for text. */
int sim_button_width(sim_builder *b, const char *text);
/* The floating action button at the bottom right: an icon, or extended with text.
 * Its action is A_OPEN; the caller sets a1/a2. */
int sim_fab(sim_builder *b, int parent, const char *desc, const char *rid, const char *text);
/* An outlined EditText at y for field `which` (enum sim_field), focused when focus == which. */
int sim_field(sim_builder *b, int parent, int y, const char *hint, const char *value, const char *rid, int which,
	      int focus);

/* Free the nodes' strings and the array; *t is left empty. */
void vtree_free(vtree *t);
/* Topmost node with an action containing (x, y); -1 when none. */
int vtree_hit(const vtree *t, int x, int y);
/* The scrollable list under (x, y) unless something modal covers it; -1 when none. */
int vtree_scroll_hit(const vtree *t, int x, int y);
/* Which nodes the UI dump shows (1 each) with their clipped bounds: a node is
 * dumped when it is under dump_root, not VF_NOTREE, and something of it is
 * visible inside its parents and the screen. `vis` holds 4 ints per node. */
void vtree_dumped(const vtree *t, int w, int h, unsigned char *dumped, int *vis);

#endif
