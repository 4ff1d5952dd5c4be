/* image.c - Chafa symbols through ncurses (see image.h).
 *
 * Chafa 1.12's INDEXED_240 canvas maps to terminal colours 16..255, which leaves
 * the 16 themeable colours alone; each cell's pens become a pair from
 * alloc_pair(), which ncurses recycles least-recently-used. */
#include <chafa.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "image/png.h"
#include "tui/image.h"
#include "tui/pixels.h"
#include "tui/text.h"
#include "tui/theme.h"
#include "util/strbuf.h"

typedef struct cell {
	wchar_t ch;
	short fg, bg;
} cell;

typedef struct render {
	char *path;
	int w, h;            /* pane size asked for */
	int cw, ch;          /* canvas size in cells */
	int iw, ih;          /* image size in pixels */
	int mode;            /* 0 = 240 colours, 1 = 16, 2 = placeholder */
	cell *cells;
	unsigned long used;
} render;

#define CACHE 16
static FILE *timing_f;

void amc_tui_image_timing(FILE *f)
{
	timing_f = f;
}

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}
static render cache[CACHE];
static unsigned long tick;

void amc_tui_image_forget(void)
{
	for (int i = 0; i < CACHE; i++) {
		free(cache[i].path);
		free(cache[i].cells);
		memset(&cache[i], 0, sizeof cache[i]);
	}
}

static int do_render(render *r, const char *path, int w, int h, int mode)
{
	amc_image img;
	amc_err e;
	if (amc_png_decode_file(path, &img, &e) != 0)
		return -1;
	r->iw = img.w;
	r->ih = img.h;
	r->mode = mode;
	if (mode == 2) {
		amc_image_free(&img);
		return 0;
	}
	gint cw = w, ch = h;
	chafa_calc_canvas_geometry(img.w, img.h, &cw, &ch, 0.5f, FALSE, FALSE);
	if (cw < 1)
		cw = 1;
	if (ch < 1)
		ch = 1;
	ChafaSymbolMap *sm = chafa_symbol_map_new();
	chafa_symbol_map_add_by_tags(sm, amc_tui_utf8() ? (CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE)
							 : (CHAFA_SYMBOL_TAG_ASCII | CHAFA_SYMBOL_TAG_SPACE));
	ChafaCanvasConfig *cfg = chafa_canvas_config_new();
	chafa_canvas_config_set_geometry(cfg, cw, ch);
	chafa_canvas_config_set_canvas_mode(cfg, mode == 0 ? CHAFA_CANVAS_MODE_INDEXED_240 : CHAFA_CANVAS_MODE_INDEXED_16);
	chafa_canvas_config_set_symbol_map(cfg, sm);
	chafa_canvas_config_set_work_factor(cfg, 0.2f);
	ChafaCanvas *cv = chafa_canvas_new(cfg);
	chafa_canvas_draw_all_pixels(cv, CHAFA_PIXEL_RGBA8_UNASSOCIATED, img.px, img.w, img.h, img.w * 4);
	r->cw = cw;
	r->ch = ch;
	r->cells = amc_xcalloc((size_t)cw * (size_t)ch, sizeof *r->cells);
	for (int yy = 0; yy < ch; yy++)
		for (int xx = 0; xx < cw; xx++) {
			cell *c = &r->cells[yy * cw + xx];
			gint fg, bg;
			c->ch = (wchar_t)chafa_canvas_get_char_at(cv, xx, yy);
			chafa_canvas_get_raw_colors_at(cv, xx, yy, &fg, &bg);
			c->fg = (short)fg;
			c->bg = (short)bg;
		}
	chafa_canvas_unref(cv);
	chafa_canvas_config_unref(cfg);
	chafa_symbol_map_unref(sm);
	amc_image_free(&img);
	return 0;
}

static render *get(const char *path, int w, int h, int mode)
{
	render *lru = &cache[0];
	for (int i = 0; i < CACHE; i++) {
		if (cache[i].path && cache[i].w == w && cache[i].h == h && cache[i].mode == mode &&
		    !strcmp(cache[i].path, path)) {
			cache[i].used = ++tick;
			return &cache[i];
		}
		if (cache[i].used < lru->used)
			lru = &cache[i];
	}
	free(lru->path);
	free(lru->cells);
	memset(lru, 0, sizeof *lru);
	if (do_render(lru, path, w, h, mode) != 0) {
		free(lru->cells);
		memset(lru, 0, sizeof *lru);
		return NULL;
	}
	lru->path = amc_xstrdup(path);
	lru->w = w;
	lru->h = h;
	lru->used = ++tick;
	return lru;
}

int amc_tui_image_draw(const char *abspath, int y, int x, int h, int w, int tx, int ty, const char *mode_name)
{
	if (h < 1 || w < 1)
		return 0;
	/* Real pixels where the terminal has them (the cells stay blank; the
	 * image is written after doupdate()). The target mark is symbols-only. */
	if (strcmp(mode_name, "none") != 0 && amc_tui_pixels_place(abspath, y, x, h, w) == 0)
		return 0;
	int mode = 2;
	if (strcmp(mode_name, "none") != 0 && has_colors() && COLORS >= 16)
		mode = COLORS >= 256 ? 0 : COLORS >= 16 ? 1 : 2;
	long long t0 = timing_f ? now_us() : 0;
	int fresh = 0;
	for (int i = 0; i < CACHE && timing_f; i++)
		if (cache[i].path && cache[i].w == w && cache[i].h == h && cache[i].mode == mode && !strcmp(cache[i].path, abspath))
			fresh = 1;
	render *r = get(abspath, w, h, mode);
	if (!r) {
		amc_tui_put(stdscr, y, x, w, "(screenshot missing or unreadable)", amc_tui_attr(AMC_EL_DIM), 0);
		return -1;
	}
	if (r->mode == 2) {
		char s[64];
		snprintf(s, sizeof s, "[screenshot %dx%d]", r->iw, r->ih);
		amc_tui_put(stdscr, y + h / 2, x + (w - (int)strlen(s) > 0 ? (w - (int)strlen(s)) / 2 : 0), w, s,
			    amc_tui_attr(AMC_EL_DIM), 0);
		return 0;
	}
	int ox = x + (w - r->cw) / 2, oy = y;
	int mx = -1, my = -1;
	if (tx >= 0 && ty >= 0 && r->iw > 0 && r->ih > 0) {
		mx = (int)((long)tx * r->cw / r->iw);
		my = (int)((long)ty * r->ch / r->ih);
	}
	for (int yy = 0; yy < r->ch; yy++)
		for (int xx = 0; xx < r->cw; xx++) {
			cell *c = &r->cells[yy * r->cw + xx];
			wchar_t wc[2] = { c->ch ? c->ch : L' ', 0 };
			int pair = alloc_pair(c->fg >= 0 ? c->fg : -1, c->bg >= 0 ? c->bg : -1);
			cchar_t cc;
			if (xx == mx && yy == my) {
				wc[0] = amc_tui_utf8() ? 0x25CE : '@'; /* ◎ */
				setcchar(&cc, wc, amc_tui_attr(AMC_EL_TARGET) & ~A_COLOR,
					 (short)PAIR_NUMBER(amc_tui_attr(AMC_EL_TARGET)), NULL);
			} else {
				setcchar(&cc, wc, A_NORMAL, (short)(pair > 0 && pair < 32768 ? pair : 0), NULL);
			}
			mvadd_wch(oy + yy, ox + xx, &cc);
		}
	if (timing_f)
		fprintf(timing_f, "%s %lld %dx%d\n", fresh ? "render_cached_us" : "render_cold_us", now_us() - t0, w, h);
	return 0;
}
