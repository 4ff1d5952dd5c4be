/* test_font.c - the sim's font (src/device/sim/font.c): text widths (nothing
 * for nothing and for control characters, more for more, no kerning, bold
 * not narrower), glyph bitmaps, sizes clamped, the glyph cache giving the same
 * answers after it fills up and is cleared, and the shared line metrics. */
#include <stdio.h>
#include <string.h>

#include "device/sim/font.h"
#include "tap.h"

static void test_widths(sim_font *f)
{
	/* Text widths: nothing for nothing and for controls, more for more. */
	int px = 42;
	is_int(sim_text_width(f, px, 0, "", 0), 0, "empty string has no width");
	is_int(sim_text_width(f, px, 0, "\x01\x1b\x7f", 3), 0, "control characters take no room");
	int wi = sim_text_width(f, px, 0, "i", 1), ww = sim_text_width(f, px, 0, "W", 1);
	ok(wi > 0 && ww > wi, "W is wider than i (%d > %d)", ww, wi);
	ok(sim_text_width(f, px, 0, "Wi", 2) == ww + wi, "widths add up (no kerning)");
	ok(sim_text_width(f, 2 * px, 0, "Wi-Fi", 5) > sim_text_width(f, px, 0, "Wi-Fi", 5), "bigger size, wider");
	ok(sim_text_width(f, px, 1, "Settings", 8) >= sim_text_width(f, px, 0, "Settings", 8), "bold is not narrower");
	ok(sim_text_width(f, px, 0, "Zo\xc3\xab \xe2\x86\x90", 7) > 0, "non-ASCII text has width");
	is_int(sim_text_width(f, px, 0, "Wi-Fi", 2), wi + ww, "only `len` bytes are measured");
}

static void test_glyphs(sim_font *f)
{
	const sim_glyph *g = sim_font_glyph(f, 40, 0, 'W');
	ok(g->w > 0 && g->h > 0 && g->bm != NULL && g->adv > 0, "W has a bitmap (%dx%d) and an advance", g->w, g->h);
	int inked = 0;
	for (int i = 0; g->bm && i < g->w * g->h; i++)
		inked |= g->bm[i] > 200;
	ok(inked, "with solid coverage in it");
	ok(g->top > 0 && g->top <= sim_ascent(40) + 2, "standing on the baseline, below the ascent (top %d)", g->top);
	g = sim_font_glyph(f, 40, 0, ' ');
	ok(g->w == 0 && g->adv > 0, "a space has an advance and nothing to draw");
	is_int(sim_font_glyph(f, 1, 0, 'x')->adv, sim_font_glyph(f, 4, 0, 'x')->adv, "sizes under 4 px draw at 4 px");
	is_int(sim_font_glyph(f, 5000, 0, 'x')->adv, sim_font_glyph(f, 1000, 0, 'x')->adv,
	       "sizes over 1000 px draw at 1000 px");
	ok(sim_font_invisible(0x1b) && sim_font_invisible(0x7f) && sim_font_invisible(0x85), "C0, DEL and C1 are invisible");
	ok(!sim_font_invisible(' ') && !sim_font_invisible(0xa0) && !sim_font_invisible(0xe9), "space, nbsp and letters are not");
}

/* The cache holds 3/4 of 4096 glyphs and is cleared when full: widths must not
 * change across a clear. */
static void test_cache(sim_font *f)
{
	const char *s = "Settings \xe2\x86\x90 Zo\xc3\xab";
	int before = sim_text_width(f, 37, 1, s, strlen(s));
	int same = 1;
	for (int px = 8; px < 8 + 40; px++)
		for (unsigned cp = 'A'; cp < 'A' + 90; cp++)
			same &= sim_font_glyph(f, px, 0, cp)->adv >= 0;
	ok(same, "3,600 glyphs rendered through the cache");
	is_int(sim_text_width(f, 37, 1, s, strlen(s)), before, "widths are the same after the cache was cleared");
}

static void test_metrics(void)
{
	is_int(sim_ascent(100), 93, "ascent is 0.93 em");
	is_int(sim_line_height(100), 117, "a line is 1.17 em");
	is_int(sim_line_height(42), 49, "rounded to the nearest pixel");
}

int main(void)
{
	sim_font *f = NULL;
	amc_err e;
	if (sim_font_open(&f, &e) != 0) {
		ok(0, "open the sim's font: %s", e.msg);
		return done_testing();
	}
	test_widths(f);
	test_glyphs(f);
	test_cache(f);
	test_metrics();
	sim_font_close(f);
	sim_font_close(NULL);
	return done_testing();
}
