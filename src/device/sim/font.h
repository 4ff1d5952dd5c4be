/* font.h - the sim's font: FreeType glyphs of DejaVu Sans with a cache, and
 * the line metrics the layout and the painter share (private to the sim). */
#ifndef AMC_SIM_FONT_H
#define AMC_SIM_FONT_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

typedef struct sim_font sim_font;

/* One rendered glyph: a grey-scale bitmap (w x h coverage bytes, NULL when
 * empty) placed `left`, `top` from the pen on the baseline; `adv` moves the pen. */
typedef struct sim_glyph {
	uint64_t key; /* the cache's slot key (0: empty slot) */
	int left, top, w, h, adv;
	unsigned char *bm;
} sim_glyph;

/* DejaVu Sans line metrics: ascender 0.928 em, line height 1.164 em. */
static inline int sim_ascent(int px)
{
	return (int)(px * 0.93 + 0.5);
}

static inline int sim_line_height(int px)
{
	return (int)(px * 1.17 + 0.5);
}

/* Load both faces from AMC_DEJAVU_DIR; *out is the caller's, freed with
 * sim_font_close. AMC_EENV names the package to install when a face is missing. */
int sim_font_open(sim_font **out, amc_err *e);
void sim_font_close(sim_font *f);
/* The glyph of code point `cp` at `px` pixels (clamped to 4..1000); never
 * NULL (an empty glyph when FreeType cannot render it). Owned by the cache:
 * valid until the next call, which may clear it. */
const sim_glyph *sim_font_glyph(sim_font *f, int px, int bold, unsigned cp);
/* Control characters take no room and draw nothing (they still reach the UI tree). */
int sim_font_invisible(unsigned cp);
/* Advance width in pixels of `len` bytes of UTF-8. */
int sim_text_width(sim_font *f, int px, int bold, const char *s, size_t len);

#endif
