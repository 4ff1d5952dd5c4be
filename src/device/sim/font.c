/* font.c - the sim's text: DejaVu Sans (regular and bold) through FreeType,
 * rendered as grey-scale glyphs into a cache, and the width of a string. Both
 * the layout (widgets.c measures labels) and the painter (render.c draws them)
 * use it, so what is laid out is exactly what is drawn. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "device/sim/font.h"
#include "util/sanitize.h"

#ifndef AMC_DEJAVU_DIR
#error "AMC_DEJAVU_DIR must be defined (configure --with-dejavu-dir)"
#endif

#define GCACHE_SIZE 4096 /* power of two; cleared when 3/4 full */

struct sim_font {
	FT_Library lib;
	FT_Face face[2]; /* regular, bold */
	int cur_px[2];
	sim_glyph *tab;  /* open-addressed cache keyed by (bold, px, code point) */
	int used;
};

int sim_font_open(sim_font **out, amc_err *e)
{
	static const char *files[2] = {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf"};
	sim_font *f = calloc(1, sizeof *f);
	if (!f)
		return amc_err_set(e, AMC_EENV, "out of memory loading fonts");
	f->tab = calloc(GCACHE_SIZE, sizeof *f->tab);
	if (!f->tab || FT_Init_FreeType(&f->lib) != 0) {
		free(f->tab);
		free(f);
		return amc_err_set(e, AMC_EENV, "cannot initialise FreeType");
	}
	for (int i = 0; i < 2; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", AMC_DEJAVU_DIR, files[i]);
		if (FT_New_Face(f->lib, path, 0, &f->face[i]) != 0) {
			sim_font_close(f);
			return amc_err_set(e, AMC_EENV,
					   "cannot load the sim's font %s: install fonts-dejavu-core (apt-get install fonts-dejavu-core)",
					   path);
		}
	}
	*out = f;
	return 0;
}

static void cache_clear(sim_font *f)
{
	for (int i = 0; i < GCACHE_SIZE; i++) {
		free(f->tab[i].bm);
		f->tab[i].bm = NULL;
		f->tab[i].key = 0;
	}
	f->used = 0;
}

void sim_font_close(sim_font *f)
{
	if (!f)
		return;
	if (f->tab)
		cache_clear(f);
	free(f->tab);
	for (int i = 0; i < 2; i++)
		if (f->face[i])
			FT_Done_Face(f->face[i]);
	if (f->lib)
		FT_Done_FreeType(f->lib);
	free(f);
}

const sim_glyph *sim_font_glyph(sim_font *f, int px, int bold, unsigned cp)
{
	static const sim_glyph empty;
	if (px < 4)
		px = 4;
	if (px > 1000)
		px = 1000;
	uint64_t key = ((uint64_t)(bold ? 1 : 0) << 40) | ((uint64_t)px << 21) | (cp & 0x1FFFFF) | (1ull << 41);
	unsigned hsh = (unsigned)((key * 0x9E3779B97F4A7C15ull) >> 52) & (GCACHE_SIZE - 1);
	for (;;) {
		sim_glyph *g = &f->tab[hsh];
		if (g->key == key)
			return g;
		if (!g->key)
			break;
		hsh = (hsh + 1) & (GCACHE_SIZE - 1);
	}
	if (f->used >= GCACHE_SIZE * 3 / 4) {
		cache_clear(f);
		return sim_font_glyph(f, px, bold, cp);
	}
	FT_Face face = f->face[bold ? 1 : 0];
	if (f->cur_px[bold ? 1 : 0] != px) {
		if (FT_Set_Pixel_Sizes(face, 0, (FT_UInt)px) != 0)
			return &empty;
		f->cur_px[bold ? 1 : 0] = px;
	}
	if (FT_Load_Char(face, cp, FT_LOAD_RENDER | FT_LOAD_TARGET_LIGHT) != 0)
		return &empty;
	FT_GlyphSlot gs = face->glyph;
	sim_glyph *g = &f->tab[hsh];
	g->key = key;
	g->left = gs->bitmap_left;
	g->top = gs->bitmap_top;
	g->w = (int)gs->bitmap.width;
	g->h = (int)gs->bitmap.rows;
	g->adv = (int)((gs->advance.x + 32) >> 6);
	g->bm = NULL;
	if (g->w > 0 && g->h > 0 && gs->bitmap.pixel_mode == FT_PIXEL_MODE_GRAY) {
		g->bm = malloc((size_t)g->w * g->h);
		if (!g->bm) {
			g->w = g->h = 0;
		} else {
			for (int y = 0; y < g->h; y++) {
				const unsigned char *row = gs->bitmap.buffer + (ptrdiff_t)y * gs->bitmap.pitch;
				memcpy(g->bm + (size_t)y * g->w, row, (size_t)g->w);
			}
		}
	} else {
		g->w = g->h = 0;
	}
	f->used++;
	return g;
}

/* Control characters take no room and draw nothing (they still reach the UI tree). */
int sim_font_invisible(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

int sim_text_width(sim_font *f, int px, int bold, const char *s, size_t len)
{
	int w = 0;
	for (size_t i = 0; i < len;) {
		unsigned cp;
		i += amc_utf8_decode((const unsigned char *)s + i, len - i, &cp);
		if (sim_font_invisible(cp))
			continue;
		w += sim_font_glyph(f, px, bold, cp)->adv;
	}
	return w;
}
