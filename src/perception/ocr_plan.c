/* ocr_plan.c - planning OCR: the regions of a frame worth handing to the
 * engine and the pixel checks that skip or crop them. Pure computation on the
 * UI tree and a gray frame, so it is tested without tesseract. */
#include "perception/ocr_plan.h"

#include <stdlib.h>
#include <string.h>

#include "perception/ocr.h"
#include "util/strbuf.h"

/* ITU-R BT.601 luma in integers; tesseract binarizes it itself (Otsu). */
void amc_ocr_plan_gray(const amc_image *img, amc_ocr_gray *g, const amc_bounds *r)
{
	for (int y = r->y1; y < r->y2; y++) {
		const unsigned char *s = img->px + ((size_t)y * (size_t)img->w + (size_t)r->x1) * 4;
		unsigned char *d = g->px + (size_t)y * (size_t)img->w + (size_t)r->x1;
		for (int x = r->x1; x < r->x2; x++, s += 4)
			*d++ = (unsigned char)((s[0] * 77u + s[1] * 150u + s[2] * 29u) >> 8);
	}
}

/* A region whose pixels barely vary holds no text: skip it without OCR. */
#define BLANK_RANGE 24
/* Margin (px) kept around the ink when a region is cropped to it. */
#define INK_MARGIN 12

/* Shrink a region to the rows and columns that differ from its background
 * (the top-left pixel) by more than BLANK_RANGE, plus a margin: a tall canvas
 * with three lines of text costs what the three lines cost, not the canvas
 * (130 -> 40 ms on the Notes editor). 0 when nothing is inked. */
int amc_ocr_plan_crop_to_ink(const amc_ocr_gray *g, amc_bounds *r)
{
	int bg = g->px[(size_t)r->y1 * (size_t)g->w + (size_t)r->x1];
	int x1 = r->x2, y1 = r->y2, x2 = r->x1 - 1, y2 = r->y1 - 1;
	for (int y = r->y1; y < r->y2; y++) {
		const unsigned char *row = g->px + (size_t)y * (size_t)g->w;
		for (int x = r->x1; x < r->x2; x++) {
			int d = row[x] - bg;
			if (d > BLANK_RANGE || d < -BLANK_RANGE) {
				if (x < x1)
					x1 = x;
				if (x > x2)
					x2 = x;
				if (y < y1)
					y1 = y;
				y2 = y;
			}
		}
	}
	if (x2 < x1)
		return 0;
	amc_bounds c = { x1 - INK_MARGIN, y1 - INK_MARGIN, x2 + 1 + INK_MARGIN, y2 + 1 + INK_MARGIN };
	if (c.x1 < r->x1)
		c.x1 = r->x1;
	if (c.y1 < r->y1)
		c.y1 = r->y1;
	if (c.x2 > r->x2)
		c.x2 = r->x2;
	if (c.y2 > r->y2)
		c.y2 = r->y2;
	*r = c;
	return 1;
}

int amc_ocr_plan_blank(const amc_ocr_gray *g, const amc_bounds *r)
{
	int lo = 255, hi = 0;
	for (int y = r->y1; y < r->y2; y += 2) {
		const unsigned char *row = g->px + (size_t)y * (size_t)g->w;
		for (int x = r->x1; x < r->x2; x += 2) {
			if (row[x] < lo)
				lo = row[x];
			if (row[x] > hi)
				hi = row[x];
		}
		if (hi - lo > BLANK_RANGE)
			return 0;
	}
	return 1;
}

/* ---- the regions ---------------------------------------------------------- */

void amc_ocr_plan_push(amc_ocr_plan *rv, amc_bounds b, int line)
{
	if (rv->n == rv->cap) {
		rv->cap = rv->cap ? rv->cap * 2 : 16;
		rv->v = amc_xrealloc(rv->v, rv->cap * sizeof *rv->v);
	}
	rv->v[rv->n++] = (amc_ocr_region){ b, line };
}

static amc_bounds clip(amc_bounds b, int w, int h)
{
	if (b.x1 < 0)
		b.x1 = 0;
	if (b.y1 < 0)
		b.y1 = 0;
	if (b.x2 > w)
		b.x2 = w;
	if (b.y2 > h)
		b.y2 = h;
	return b;
}

int amc_ocr_plan_big_enough(const amc_bounds *b)
{
	return b->x2 - b->x1 >= AMC_OCR_MIN_REGION && b->y2 - b->y1 >= AMC_OCR_MIN_REGION;
}

static int node_has_text(const amc_ui_node *n)
{
	return n->text[0] || n->content_desc[0];
}

/* Grid cell (px) for finding areas no node covers. */
#define GRID 24

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

/* Worth reading: a text-less node people tap (a button whose label is only
 * pixels) or a large text-less box (a canvas, a web view, a banner image).
 * Small decorative icons are skipped: they only yield noise. */
static int worth_reading(const amc_ui_node *nd, const amc_bounds *b)
{
	if (nd->flags & (AMC_NODE_CLICKABLE | AMC_NODE_LONG_CLICKABLE))
		return 1;
	if (ends_with(nd->class_name, "Button"))
		return 1;
	return b->x2 - b->x1 >= AMC_OCR_LARGE_BOX_MIN_WIDTH;
}

/* The text-less boxes (topmost nodes whose subtree carries no text) and, for
 * gaps, the areas that no text-bearing node or text-less box covers. */
void amc_ocr_plan_regions(const amc_ui_tree *t, int w, int h, int with_gaps, int lines_only, amc_ocr_plan *rv)
{
	size_t n = t ? t->count : 0;
	unsigned char *txt = n ? amc_xcalloc(n, 1) : NULL;
	for (size_t k = n; k-- > 0;) {
		const amc_ui_node *nd = &t->nodes[k];
		if (!(nd->flags & AMC_NODE_DISPLAYED))
			continue;
		if (node_has_text(nd))
			txt[k] = 1;
		if (txt[k] && nd->parent >= 0)
			txt[nd->parent] = 1;
	}
	int gw = (w + GRID - 1) / GRID, gh = (h + GRID - 1) / GRID;
	unsigned char *cov = with_gaps ? amc_xcalloc((size_t)gw * (size_t)gh, 1) : NULL;
	for (size_t k = 0; k < n; k++) {
		const amc_ui_node *nd = &t->nodes[k];
		if (!(nd->flags & AMC_NODE_DISPLAYED))
			continue;
		amc_bounds b = clip(nd->bounds, w, h);
		if (b.x2 <= b.x1 || b.y2 <= b.y1)
			continue;
		int top_textless = !txt[k] && nd->parent >= 0 && txt[nd->parent];
		int read = top_textless && amc_ocr_plan_big_enough(&b) && worth_reading(nd, &b);
		if (read) {
			int line = b.y2 - b.y1 <= AMC_OCR_LINE_MAX_HEIGHT;
			amc_bounds r = b;
			if (line && b.x2 - b.x1 > 4 * AMC_OCR_BORDER_SHRINK &&
			    b.y2 - b.y1 > 4 * AMC_OCR_BORDER_SHRINK) {
				r.x1 += AMC_OCR_BORDER_SHRINK;
				r.y1 += AMC_OCR_BORDER_SHRINK;
				r.x2 -= AMC_OCR_BORDER_SHRINK;
				r.y2 -= AMC_OCR_BORDER_SHRINK;
			}
			/* In full mode the whole-frame pass reads tall boxes already. */
			if (line || !lines_only)
				amc_ocr_plan_push(rv, r, line);
		}
		/* Covered: nodes that carry text themselves, text-less boxes read
		 * above and small text-less leaves (icons); containers only through
		 * their children. */
		if (cov && (node_has_text(nd) || read || (top_textless && nd->first_child < 0))) {
			for (int gy = b.y1 / GRID; gy < gh && gy * GRID < b.y2; gy++)
				for (int gx = b.x1 / GRID; gx < gw && gx * GRID < b.x2; gx++)
					cov[(size_t)gy * (size_t)gw + (size_t)gx] = 1;
		}
	}
	if (cov) {
		/* Uncovered areas as rectangles that hold no covered cell: runs of
		 * free cells per grid row, stacked while the next row has the same
		 * run. A line of pixel-only text between nodes becomes one band. */
		typedef struct open_rect { int x1, x2, y1; } open_rect;
		open_rect *open = amc_xcalloc((size_t)gw + 1, sizeof *open), *next = amc_xcalloc((size_t)gw + 1, sizeof *next);
		int nopen = 0;
		for (int gy = 0; gy <= gh; gy++) {
			int nnext = 0;
			for (int gx = 0; gy < gh && gx < gw;) {
				if (cov[(size_t)gy * (size_t)gw + (size_t)gx]) {
					gx++;
					continue;
				}
				int x1 = gx;
				while (gx < gw && !cov[(size_t)gy * (size_t)gw + (size_t)gx])
					gx++;
				next[nnext++] = (open_rect){ x1, gx, gy };
			}
			/* Runs that continue keep their start row; the others close. */
			for (int i = 0; i < nopen; i++) {
				int kept = 0;
				for (int j = 0; j < nnext; j++)
					if (next[j].x1 == open[i].x1 && next[j].x2 == open[i].x2) {
						next[j].y1 = open[i].y1;
						kept = 1;
					}
				if (!kept) {
					amc_bounds b = clip((amc_bounds){ open[i].x1 * GRID, open[i].y1 * GRID,
									 open[i].x2 * GRID, gy * GRID }, w, h);
					if (b.y2 - b.y1 >= AMC_OCR_MIN_GAP_HEIGHT && amc_ocr_plan_big_enough(&b))
						amc_ocr_plan_push(rv, b, 0);
				}
			}
			open_rect *tmp = open;
			open = next;
			next = tmp;
			nopen = nnext;
		}
		free(open);
		free(next);
	}
	free(cov);
	free(txt);
}

void amc_ocr_plan_free(amc_ocr_plan *p)
{
	free(p->v);
	memset(p, 0, sizeof *p);
}

int amc_ocr_plan_inside_line(const amc_ocr_plan *rv, const amc_bounds *b)
{
	int cx = (b->x1 + b->x2) / 2, cy = (b->y1 + b->y2) / 2;
	for (size_t i = 0; i < rv->n; i++)
		if (rv->v[i].line && cx >= rv->v[i].r.x1 && cx < rv->v[i].r.x2 && cy >= rv->v[i].r.y1 &&
		    cy < rv->v[i].r.y2)
			return 1;
	return 0;
}
