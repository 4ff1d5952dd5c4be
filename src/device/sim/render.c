/* render.c - the sim's painter: text (glyphs from font.c, grey-scale
 * anti-aliasing) and anti-aliased shapes into an RGBA frame, from the view tree
 * that screens.c builds; plus the status bar, the gesture handle and transitions. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/sim/screens.h"
#include "util/sanitize.h"

#define ascent sim_ascent
#define line_height sim_line_height

/* ---- canvas ---- */

typedef struct cv {
	amc_image *img;
	int x1, y1, x2, y2; /* clip */
} cv;

typedef struct painter {
	sim *s;
	amc_image *img;
	int dx;
	int record;                    /* add drawn strings to s->drawn */
	const unsigned char *dumped;   /* per node: in the UI dump (NULL: none is) */
} painter;

static inline void blend_px(unsigned char *p, uint32_t c, unsigned a)
{
	unsigned r = c >> 24, g = (c >> 16) & 255, b = (c >> 8) & 255;
	if (a >= 255) {
		p[0] = (unsigned char)r;
		p[1] = (unsigned char)g;
		p[2] = (unsigned char)b;
	} else if (a) {
		unsigned ia = 255 - a;
		p[0] = (unsigned char)((r * a + p[0] * ia + 127) / 255);
		p[1] = (unsigned char)((g * a + p[1] * ia + 127) / 255);
		p[2] = (unsigned char)((b * a + p[2] * ia + 127) / 255);
	}
	p[3] = 255;
}

/* Clip the box to the canvas's clip; 0 when nothing of it is left. */
static int clip_box(const cv *c, int *x1, int *y1, int *x2, int *y2)
{
	if (*x1 < c->x1)
		*x1 = c->x1;
	if (*y1 < c->y1)
		*y1 = c->y1;
	if (*x2 > c->x2)
		*x2 = c->x2;
	if (*y2 > c->y2)
		*y2 = c->y2;
	return *x1 < *x2 && *y1 < *y2;
}

static void fill_rect(const cv *c, int x1, int y1, int x2, int y2, uint32_t col)
{
	if (!clip_box(c, &x1, &y1, &x2, &y2))
		return;
	unsigned a = col & 255;
	if (a == 255) {
		unsigned char px[4] = {(unsigned char)(col >> 24), (unsigned char)(col >> 16), (unsigned char)(col >> 8), 255};
		unsigned char *row0 = c->img->px + ((size_t)y1 * c->img->w + x1) * 4;
		for (int x = 0; x < x2 - x1; x++)
			memcpy(row0 + (size_t)x * 4, px, 4);
		for (int y = y1 + 1; y < y2; y++)
			memcpy(c->img->px + ((size_t)y * c->img->w + x1) * 4, row0, (size_t)(x2 - x1) * 4);
		return;
	}
	for (int y = y1; y < y2; y++) {
		unsigned char *p = c->img->px + ((size_t)y * c->img->w + x1) * 4;
		for (int x = x1; x < x2; x++, p += 4)
			blend_px(p, col, a);
	}
}

static inline void plot(const cv *c, int x, int y, uint32_t col, double cov)
{
	if (x < c->x1 || y < c->y1 || x >= c->x2 || y >= c->y2 || cov <= 0)
		return;
	if (cov > 1)
		cov = 1;
	blend_px(c->img->px + ((size_t)y * c->img->w + x) * 4, col, (unsigned)((col & 255) * cov + 0.5));
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Anti-aliased rounded rectangle: straight spans are filled, only the corner
 * squares are computed per pixel. */
static void fill_rrect(const cv *c, int x1, int y1, int x2, int y2, int r, uint32_t col)
{
	if (x2 <= x1 || y2 <= y1)
		return;
	int maxr = ((x2 - x1) < (y2 - y1) ? (x2 - x1) : (y2 - y1)) / 2;
	if (r > maxr)
		r = maxr;
	if (r <= 0) {
		fill_rect(c, x1, y1, x2, y2, col);
		return;
	}
	fill_rect(c, x1, y1 + r, x2, y2 - r, col);
	fill_rect(c, x1 + r, y1, x2 - r, y1 + r, col);
	fill_rect(c, x1 + r, y2 - r, x2 - r, y2, col);
	for (int yy = 0; yy < r; yy++) {
		for (int xx = 0; xx < r; xx++) {
			double dx = r - (xx + 0.5), dy = r - (yy + 0.5);
			double cov = clamp01(r - sqrt(dx * dx + dy * dy) + 0.5);
			if (cov <= 0)
				continue;
			plot(c, x1 + xx, y1 + yy, col, cov);
			plot(c, x2 - 1 - xx, y1 + yy, col, cov);
			plot(c, x1 + xx, y2 - 1 - yy, col, cov);
			plot(c, x2 - 1 - xx, y2 - 1 - yy, col, cov);
		}
	}
}

static void fill_circle(const cv *c, double cx, double cy, double r, uint32_t col)
{
	int x1 = (int)floor(cx - r - 1), x2 = (int)ceil(cx + r + 1);
	int y1 = (int)floor(cy - r - 1), y2 = (int)ceil(cy + r + 1);
	if (!clip_box(c, &x1, &y1, &x2, &y2))
		return;
	double inner = r - 0.75;
	for (int y = y1; y < y2; y++) {
		double dy = y + 0.5 - cy;
		for (int x = x1; x < x2; x++) {
			double dx = x + 0.5 - cx;
			double d2 = dx * dx + dy * dy;
			if (inner > 0 && d2 < inner * inner) {
				blend_px(c->img->px + ((size_t)y * c->img->w + x) * 4, col, col & 255);
				continue;
			}
			plot(c, x, y, col, r - sqrt(d2) + 0.5);
		}
	}
}

static void ring(const cv *c, double cx, double cy, double r, double t, uint32_t col, uint32_t inside)
{
	fill_circle(c, cx, cy, r, col);
	fill_circle(c, cx, cy, r - t, inside);
}

/* The Wi-Fi fan: a 90-degree sector pointing up from the bottom centre. */
static void wifi_fan(const cv *c, int x1, int y1, int x2, int y2, uint32_t col)
{
	double cx = (x1 + x2) / 2.0, cy = y2, r = y2 - y1;
	for (int y = y1; y < y2; y++) {
		for (int x = x1; x < x2; x++) {
			double dx = x + 0.5 - cx, dy = cy - (y + 0.5);
			double d = sqrt(dx * dx + dy * dy);
			double cov = clamp01(r - d + 0.5) * clamp01((dy - fabs(dx)) / M_SQRT2 + 0.5);
			plot(c, x, y, col, cov);
		}
	}
}

static void draw_glyphs(sim_font *f, const cv *c, int x, int base, int px, int bold, uint32_t col,
			const char *s, size_t len)
{
	unsigned ca = col & 255;
	for (size_t i = 0; i < len;) {
		unsigned cp;
		i += amc_utf8_decode((const unsigned char *)s + i, len - i, &cp);
		if (sim_font_invisible(cp))
			continue;
		const sim_glyph *g = sim_font_glyph(f, px, bold, cp);
		int gx = x + g->left, gy = base - g->top;
		for (int yy = 0; yy < g->h; yy++) {
			int y = gy + yy;
			if (y < c->y1 || y >= c->y2)
				continue;
			const unsigned char *src = g->bm + (size_t)yy * g->w;
			unsigned char *dst = c->img->px + ((size_t)y * c->img->w) * 4;
			for (int xx = 0; xx < g->w; xx++) {
				int X = gx + xx;
				if (!src[xx] || X < c->x1 || X >= c->x2)
					continue;
				blend_px(dst + (size_t)X * 4, col, (src[xx] * ca + 127) / 255);
			}
		}
		x += g->adv;
	}
}

static void record(painter *p, const cv *c, const char *s, size_t len, int x1, int y1, int x2, int y2, int in_tree)
{
	if (!p->record || len == 0 || !clip_box(c, &x1, &y1, &x2, &y2))
		return;
	sim *s_ = p->s;
	if (s_->ndrawn == s_->capdrawn) {
		s_->capdrawn = s_->capdrawn ? s_->capdrawn * 2 : 64;
		s_->drawn = amc_xrealloc(s_->drawn, (size_t)s_->capdrawn * sizeof *s_->drawn);
	}
	drawn_text *d = &s_->drawn[s_->ndrawn++];
	d->text = amc_xstrndup(s, len);
	d->x1 = x1;
	d->y1 = y1;
	d->x2 = x2;
	d->y2 = y2;
	d->in_tree = in_tree;
}

/* Draw one line in [x1,x2) with its box's top at `top`; ellipsize with "…" when it
 * does not fit. Returns the drawn width. */
static int text_line(painter *p, const cv *c, int x1, int x2, int top, int px, int bold, uint32_t col,
		     const char *s, size_t len, int center, int in_tree)
{
	sim_font *f = p->s->font;
	int maxw = x2 - x1;
	int w = sim_text_width(f, px, bold, s, len);
	amc_sb tmp;
	amc_sb_init(&tmp);
	if (w > maxw) {
		int ell = sim_text_width(f, px, bold, "\xe2\x80\xa6", 3);
		size_t keep = 0;
		int acc = 0;
		for (size_t i = 0; i < len;) {
			unsigned cp;
			size_t n = amc_utf8_decode((const unsigned char *)s + i, len - i, &cp);
			int a = sim_font_invisible(cp) ? 0 : sim_font_glyph(f, px, bold, cp)->adv;
			if (acc + a + ell > maxw)
				break;
			acc += a;
			i += n;
			keep = i;
		}
		amc_sb_append(&tmp, s, keep);
		amc_sb_puts(&tmp, "\xe2\x80\xa6");
		s = tmp.buf;
		len = tmp.len;
		w = acc + ell;
		in_tree = 0; /* the tree holds the whole string, not this cut */
	}
	int x = center ? x1 + (maxw - w) / 2 : x1;
	draw_glyphs(f, c, x, top + ascent(px), px, bold, col, s, len);
	record(p, c, s, len, x, top, x + w, top + line_height(px), in_tree);
	amc_sb_free(&tmp);
	return w;
}

/* Greedy word wrap of `s` into [x1,x2); draws from `top`, one line per
 * line_height. Returns the y after the last line and the caret position. */
static int text_block(painter *p, const cv *c, int x1, int x2, int top, int px, uint32_t col, const char *s,
		      int *caret_x, int *caret_y)
{
	sim_font *f = p->s->font;
	int lh = line_height(px), y = top, maxw = x2 - x1;
	size_t len = strlen(s), i = 0;
	*caret_x = x1;
	*caret_y = top;
	for (;;) {
		/* One paragraph: up to the next '\n'. */
		size_t end = i;
		while (end < len && s[end] != '\n')
			end++;
		size_t ls = i;
		while (1) {
			size_t le = ls, last_space = 0;
			int w = 0, have_space = 0;
			while (le < end) {
				unsigned cp;
				size_t n = amc_utf8_decode((const unsigned char *)s + le, end - le, &cp);
				int a = sim_font_invisible(cp) ? 0 : sim_font_glyph(f, px, 0, cp)->adv;
				if (w + a > maxw && le > ls)
					break;
				if (cp == ' ') {
					last_space = le;
					have_space = 1;
				}
				w += a;
				le += n;
			}
			size_t next = le;
			if (le < end && have_space && last_space > ls) {
				le = last_space;
				next = last_space + 1;
			}
			int lw = text_line(p, c, x1, x2, y, px, 0, col, s + ls, le - ls, 0, 0);
			*caret_x = x1 + lw;
			*caret_y = y;
			y += lh;
			ls = next;
			if (ls >= end)
				break;
		}
		if (end >= len)
			break;
		i = end + 1;
		if (i >= len) {
			/* A trailing newline puts the caret on a fresh line. */
			*caret_x = x1;
			*caret_y = y;
			break;
		}
	}
	return y;
}

/* dp to px for the painter's own measures (strokes, paddings, the status bar). */
static int dp(const sim *s, double v)
{
	return (int)lround(v * s->dp);
}

static void shape_icon(const cv *c, const vnode *n, int x1, int y1, int x2, int y2)
{
	double cx = (x1 + x2) / 2.0, cy = (y1 + y2) / 2.0, r = (x2 - x1) / 2.0;
	uint32_t col = n->fg;
	switch (n->icon) {
	case 1: /* person: head and shoulders */
		fill_circle(c, cx, cy - r * 0.28, r * 0.34, col);
		{
			cv c2 = *c;
			if (c2.y2 > (int)(cy + r * 0.9))
				c2.y2 = (int)(cy + r * 0.9);
			fill_circle(&c2, cx, cy + r * 0.75, r * 0.62, col);
		}
		break;
	case 2: /* plus */
		fill_rrect(c, (int)(cx - r * 0.5), (int)(cy - r * 0.07), (int)(cx + r * 0.5), (int)(cy + r * 0.07),
			   (int)(r * 0.07), col);
		fill_rrect(c, (int)(cx - r * 0.07), (int)(cy - r * 0.5), (int)(cx + r * 0.07), (int)(cy + r * 0.5),
			   (int)(r * 0.07), col);
		break;
	case 3: /* search: ring and handle */
		ring(c, cx - r * 0.15, cy - r * 0.15, r * 0.45, r * 0.14, col, n->bg);
		for (double t = 0.0; t <= 1.0; t += 0.05)
			fill_circle(c, cx + r * (0.18 + 0.4 * t), cy + r * (0.18 + 0.4 * t), r * 0.09, col);
		break;
	case 4: /* note: page with lines */
		fill_rrect(c, (int)(cx - r * 0.6), (int)(cy - r * 0.75), (int)(cx + r * 0.6), (int)(cy + r * 0.75),
			   (int)(r * 0.15), col);
		for (int k = 0; k < 3; k++)
			fill_rect(c, (int)(cx - r * 0.38), (int)(cy - r * 0.4 + k * r * 0.3), (int)(cx + r * 0.38),
				  (int)(cy - r * 0.4 + k * r * 0.3 + r * 0.1), n->bg);
		break;
	case 5: /* wifi fan inside the box */
		wifi_fan(c, (int)(cx - r * 0.8), (int)(cy - r * 0.55), (int)(cx + r * 0.8), (int)(cy + r * 0.55), col);
		break;
	}
}

/* A switch: a pill with its knob at the end it is set to. */
static void paint_switch(const cv *c, sim *s, const vnode *n, int x1, int y1, int x2, int y2)
{
	int on = !!(n->flags & VF_CHECKED);
	int h = y2 - y1, rr = h / 2;
	if (on) {
		fill_rrect(c, x1, y1, x2, y2, rr, n->fg);
		fill_circle(c, x2 - rr, y1 + rr, rr * 0.75, n->accent);
	} else {
		fill_rrect(c, x1, y1, x2, y2, rr, n->fg2);
		fill_rrect(c, x1 + dp(s, 2), y1 + dp(s, 2), x2 - dp(s, 2), y2 - dp(s, 2), rr - dp(s, 2), n->bg);
		fill_circle(c, x1 + rr, y1 + rr, rr * 0.5, n->fg2);
	}
}

/* A Material outlined text field: fg text, fg2 outline and hint, accent focus. */
static void paint_field(painter *p, const cv *c, const vnode *n, int x1, int y1, int x2, int y2, int in_tree)
{
	sim *s = p->s;
	int focused = !!(n->flags & VF_FOCUSED);
	int stroke = focused ? dp(s, 2) : dp(s, 1);
	if (stroke < 1)
		stroke = 1;
	uint32_t line = focused ? n->accent : n->fg2;
	int r = dp(s, 4);
	fill_rrect(c, x1, y1, x2, y2, r, line);
	fill_rrect(c, x1 + stroke, y1 + stroke, x2 - stroke, y2 - stroke, r - stroke, n->bg);
	int px = n->font_px, lh = line_height(px);
	int tx = x1 + dp(s, 16), top = y1 + ((y2 - y1) - lh) / 2;
	const char *hint = n->hint ? n->hint : "";
	const char *val = n->ptext ? n->ptext : "";
	int hint_in_tree = in_tree && n->text && !strcmp(n->text, hint) && !*val;
	int caret_x = tx;
	if (*val || focused) {
		/* The label floats onto the outline, over a gap in it. */
		int lpx = px * 3 / 4;
		int lw = sim_text_width(s->font, lpx, 0, hint, strlen(hint));
		fill_rect(c, tx - dp(s, 4), y1, tx + lw + dp(s, 4), y1 + stroke, n->bg);
		text_line(p, c, tx, x2 - dp(s, 16), y1 - line_height(lpx) / 2, lpx, 0, line, hint, strlen(hint), 0,
			  hint_in_tree);
	} else {
		text_line(p, c, tx, x2 - dp(s, 16), top, px, 0, n->fg2, hint, strlen(hint), 0, hint_in_tree);
	}
	if (*val)
		caret_x = tx + text_line(p, c, tx, x2 - dp(s, 16), top, px, 0, n->fg, val, strlen(val), 0,
					 in_tree && n->text && !strcmp(n->text, val));
	if (focused)
		fill_rect(c, caret_x + 1, top, caret_x + 1 + dp(s, 2), top + lh, n->accent);
}

/* The battery: its outline as four strips so the hollow part shows what is
 * behind it, filled to its level. */
static void paint_battery(const cv *c, sim *s, const vnode *n, int x1, int y1, int x2, int y2)
{
	int level = n->a1, nub = (x2 - x1) / 10, t = dp(s, 1.5), g = dp(s, 3);
	if (t < 1)
		t = 1;
	int bx2 = x2 - nub;
	fill_rect(c, x1, y1, bx2, y1 + t, n->fg);
	fill_rect(c, x1, y2 - t, bx2, y2, n->fg);
	fill_rect(c, x1, y1 + t, x1 + t, y2 - t, n->fg);
	fill_rect(c, bx2 - t, y1 + t, bx2, y2 - t, n->fg);
	int inner = (bx2 - g) - (x1 + g);
	fill_rect(c, x1 + g, y1 + g, x1 + g + inner * level / 100, y2 - g, n->fg);
	fill_rect(c, bx2, y1 + (y2 - y1) / 3, x2, y2 - (y2 - y1) / 3, n->fg);
}

static void paint_node(painter *p, const vtree *t, int i, cv clip)
{
	const vnode *n = &t->n[i];
	sim *s = p->s;
	int x1 = n->x1 + p->dx, x2 = n->x2 + p->dx, y1 = n->y1, y2 = n->y2;
	/* A string counts as "in the tree" when the dump shows the node holding it. */
	int holder = (n->flags & VF_PARENT_TEXT) ? n->parent : i;
	int in_tree = p->dumped && holder >= 0 && p->dumped[holder];
	const vnode *hn = holder >= 0 ? &t->n[holder] : n;
	cv c = clip;
	switch (n->paint) {
	case P_RECT:
		fill_rrect(&c, x1, y1, x2, y2, n->radius, n->bg);
		break;
	case P_CIRCLE:
		fill_circle(&c, (x1 + x2) / 2.0, (y1 + y2) / 2.0, (x2 - x1) / 2.0, n->bg);
		break;
	case P_TEXT:
		if (n->bg & 255)
			fill_rrect(&c, x1, y1, x2, y2, n->radius, n->bg);
		if (n->ptext) {
			int lh = line_height(n->font_px);
			int top = y1 + ((y2 - y1) - lh) / 2;
			int it = in_tree && ((hn->text && !strcmp(hn->text, n->ptext)) || (hn->desc && !strcmp(hn->desc, n->ptext)));
			text_line(p, &c, x1, x2, top, n->font_px, !!(n->flags & VF_BOLD), n->fg, n->ptext,
				  strlen(n->ptext), !!(n->flags & VF_CENTER), it);
		}
		break;
	case P_BLOCK: {
		int cxp, cyp;
		text_block(p, &c, x1 + dp(s, 16), x2 - dp(s, 16), y1 + dp(s, 8), n->font_px, n->fg,
			   n->ptext ? n->ptext : "", &cxp, &cyp);
		if (n->flags & VF_FOCUSED)
			fill_rect(&c, cxp + 1, cyp, cxp + 1 + dp(s, 2), cyp + line_height(n->font_px), n->accent);
		break;
	}
	case P_SWITCH:
		paint_switch(&c, s, n, x1, y1, x2, y2);
		break;
	case P_FIELD:
		paint_field(p, &c, n, x1, y1, x2, y2, in_tree);
		break;
	case P_WIFI:
		wifi_fan(&c, x1, y1, x2, y2, n->fg);
		break;
	case P_BATTERY:
		paint_battery(&c, s, n, x1, y1, x2, y2);
		break;
	case P_GRADIENT:
		for (int y = y1 < c.y1 ? c.y1 : y1; y < y2 && y < c.y2; y++) {
			double k = (double)(y - y1) / (y2 - y1 > 1 ? y2 - y1 - 1 : 1);
			uint32_t col = 255;
			for (int sh = 8; sh <= 24; sh += 8) {
				double a = (n->bg >> sh) & 255, z = (n->fg >> sh) & 255;
				col |= (uint32_t)(a + (z - a) * k + 0.5) << sh;
			}
			fill_rect(&c, x1, y, x2, y + 1, col);
		}
		break;
	case P_SCRIM:
		fill_rect(&c, c.x1, c.y1, c.x2, c.y2, n->bg);
		break;
	case P_LINE_ICON:
		shape_icon(&c, n, x1, y1, x2, y2);
		break;
	default:
		break;
	}
	if (!(n->flags & VF_NOCLIP)) {
		if (x1 > c.x1)
			c.x1 = x1;
		if (y1 > c.y1)
			c.y1 = y1;
		if (x2 < c.x2)
			c.x2 = x2;
		if (y2 < c.y2)
			c.y2 = y2;
	}
	if (c.x1 >= c.x2 || c.y1 >= c.y2)
		return;
	for (int k = n->first; k >= 0; k = t->n[k].next)
		paint_node(p, t, k, c);
}

static void paint_tree(painter *p, const vtree *t)
{
	cv c = {p->img, 0, 0, p->img->w, p->img->h};
	if (t->count > 0)
		paint_node(p, t, 0, c);
}

/* Status bar (SystemUI's window: painted, never in the app's UI tree) and the
 * gesture-navigation handle. Light icons over the launcher wallpaper and dark
 * theme, dark ones over light apps. */
static void paint_system(painter *p, int light)
{
	sim *s = p->s;
	cv c = {p->img, 0, 0, p->img->w, p->img->h};
	uint32_t fg = light ? 0xFFFFFFFF : 0x1C1B1FFF;
	int sb = dp(s, 32), px = dp(s, 14);
	char clock[16];
	sim_clock(s, clock, sizeof clock);
	int lh = line_height(px), top = (sb - lh) / 2;
	p->dx = 0;
	text_line(p, &c, dp(s, 24), dp(s, 120), top, px, 0, fg, clock, strlen(clock), 0, 0);
	int level = sim_battery(s);
	char pct[8];
	snprintf(pct, sizeof pct, "%d%%", level);
	int pw = sim_text_width(s->font, px, 0, pct, strlen(pct));
	int right = s->w - dp(s, 16);
	int show_pct = s->st.toggles[TG_BATTERY_PCT];
	if (show_pct) {
		text_line(p, &c, right - pw, right, top, px, 0, fg, pct, strlen(pct), 0, 0);
		right -= pw + dp(s, 4);
	}
	vnode bat = {0};
	bat.paint = P_BATTERY;
	bat.fg = fg;
	bat.a1 = level;
	int bw = dp(s, 24), bh = dp(s, 12);
	bat.x1 = right - bw;
	bat.x2 = right;
	bat.y1 = (sb - bh) / 2;
	bat.y2 = bat.y1 + bh;
	vtree one = {&bat, 1, 1, NULL, -1, 0, 0};
	bat.parent = bat.first = bat.last = bat.next = -1;
	paint_tree(p, &one);
	right -= bw + dp(s, 8);
	if (s->st.toggles[TG_WIFI]) {
		int ww = dp(s, 18), wh = dp(s, 13);
		wifi_fan(&c, right - ww, (sb - wh) / 2 - dp(s, 1), right, (sb + wh) / 2 - dp(s, 1), fg);
		right -= ww + dp(s, 8);
	}
	if (s->st.toggles[TG_AIRPLANE])
		text_line(p, &c, right - dp(s, 20), right, top, px, 0, fg, "\xe2\x9c\x88", 3, 1, 0);
	/* Gesture handle. */
	int hw = dp(s, 108), hh = dp(s, 4);
	fill_rrect(&c, (s->w - hw) / 2, s->h - dp(s, 12) - hh, (s->w + hw) / 2, s->h - dp(s, 12), hh / 2,
		   light ? 0xFFFFFFE0 : 0x1C1B1FC0);
}

static double ease_out(double t)
{
	double u = 1.0 - t;
	return 1.0 - u * u * u;
}

static void clear_drawn(sim *s)
{
	for (int i = 0; i < s->ndrawn; i++)
		free(s->drawn[i].text);
	s->ndrawn = 0;
}

static int light_status(const sim *s, const sim_view *v)
{
	return v->e.screen == SCR_LAUNCHER || s->st.toggles[TG_DARK];
}

int sim_render_frame(sim *s, amc_image *img, amc_err *e)
{
	if (amc_image_alloc(img, s->w, s->h, e) != 0)
		return -1;
	clear_drawn(s);
	sim_view cur;
	sim_current_view(s, &cur);
	vtree t;
	sim_build(s, &cur, &t);
	unsigned char *dumped = amc_xmalloc((size_t)t.count + 1);
	int *vis = amc_xmalloc(((size_t)t.count + 1) * 4 * sizeof *vis);
	vtree_dumped(&t, s->w, s->h, dumped, vis);
	free(vis);
	painter p = {s, img, 0, 1, NULL};
	long long el = s->st.time_ms - s->st.tr_start;
	if (s->st.tr_kind != TR_NONE && el >= 0 && el < SIM_TRANSITION_MS) {
		double k = ease_out((double)el / SIM_TRANSITION_MS);
		vtree o;
		sim_build(s, &s->st.tr_from, &o);
		switch (s->st.tr_kind) {
		case TR_SLIDE_FWD:
			p.dx = -(int)(s->w * 0.25 * k);
			paint_tree(&p, &o);
			p.dx = s->w - (int)(s->w * k);
			p.dumped = dumped;
			paint_tree(&p, &t);
			break;
		case TR_SLIDE_BACK:
			p.dx = -(int)(s->w * 0.25 * (1.0 - k));
			p.dumped = dumped;
			paint_tree(&p, &t);
			p.dx = (int)(s->w * k);
			p.dumped = NULL;
			paint_tree(&p, &o);
			break;
		default: {
			amc_image top;
			paint_tree(&p, &o);
			if (amc_image_alloc(&top, s->w, s->h, e) != 0) {
				vtree_free(&o);
				vtree_free(&t);
				free(dumped);
				amc_image_free(img);
				return -1;
			}
			p.img = &top;
			p.dumped = dumped;
			paint_tree(&p, &t);
			unsigned a = (unsigned)(k * 255 + 0.5);
			size_t npx = (size_t)s->w * s->h;
			for (size_t i = 0; i < npx; i++) {
				unsigned char *d = img->px + i * 4;
				const unsigned char *q = top.px + i * 4;
				uint32_t col = (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | 255;
				blend_px(d, col, a);
			}
			amc_image_free(&top);
			p.img = img;
			break;
		}
		}
		vtree_free(&o);
	} else {
		p.dumped = dumped;
		paint_tree(&p, &t);
	}
	p.dumped = NULL;
	paint_system(&p, light_status(s, &cur));
	vtree_free(&t);
	free(dumped);
	return 0;
}
