/* test_pngfast.c - the PNG fast path (libdeflate + own unfiltering) against
 * libpng: every 8-bit colour type, every filter, one IDAT or many, and a
 * 1080x2400 screen-like frame, which must take the fast path (no decline) and
 * decode to exactly libpng's pixels. Prints both decode times (not asserted:
 * the bench asserts speed, this asserts sameness). */
#include <libdeflate.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "image/png.h"
#include "image/pngfast.h"
#include "image/image.h"

typedef struct membuf {
	unsigned char *p;
	size_t n;
} membuf;

static void wr(png_structp png, png_bytep d, size_t n)
{
	membuf *m = png_get_io_ptr(png);
	m->p = realloc(m->p, m->n + n);
	memcpy(m->p + m->n, d, n);
	m->n += n;
}

static void fl(png_structp png)
{
	(void)png;
}

/* The set of row filters (bit 1 << type) in an encoded file of one IDAT
 * (what amc_png_encode writes) with `rb` bytes a row; 0 when unreadable. */
static unsigned filters_used(const unsigned char *p, size_t n, size_t rb, size_t h)
{
	size_t at = 8;
	while (at + 12 <= n) {
		size_t len = (size_t)p[at] << 24 | (size_t)p[at + 1] << 16 | (size_t)p[at + 2] << 8 | p[at + 3];
		if (!memcmp(p + at + 4, "IDAT", 4) && at + 12 + len <= n) {
			unsigned char *raw = malloc(h * (rb + 1));
			struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
			unsigned mask = 0;
			if (raw && d && libdeflate_zlib_decompress(d, p + at + 8, len, raw, h * (rb + 1), NULL) == 0)
				for (size_t y = 0; y < h; y++)
					mask |= 1u << (raw[y * (rb + 1)] & 7);
			libdeflate_free_decompressor(d);
			free(raw);
			return mask;
		}
		at += 12 + len;
	}
	return 0;
}

static void quiet(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg; /* indices past the palette are meant: no warning */
}

/* `rows` in the colour type's layout; `filters` a PNG_FILTER_* mask; IDATs of
 * `zbuf` bytes (libpng's default is 8 KB, as phones write). */
static membuf make(int w, int h, int ctype, int filters, int level, size_t zbuf, png_colorp pal, int npal,
		   png_bytep trns, int ntrns, unsigned char **rows)
{
	membuf m = {NULL, 0};
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, quiet);
	png_infop info = png_create_info_struct(png);
	if (setjmp(png_jmpbuf(png))) {
		diag("libpng could not write the test image");
		png_destroy_write_struct(&png, &info);
		free(m.p);
		return (membuf){NULL, 0};
	}
	png_set_write_fn(png, &m, wr, fl);
	png_set_compression_level(png, level);
	png_set_benign_errors(png, 1);
	png_set_check_for_invalid_index(png, 1); /* indices past the palette are written as given */
	png_set_compression_buffer_size(png, zbuf);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, ctype, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
	if (pal)
		png_set_PLTE(png, info, pal, npal);
	if (trns)
		png_set_tRNS(png, info, trns, ntrns, NULL);
	png_write_info(png, info);
	png_write_image(png, rows);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return m;
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Fast and libpng agree, and the fast path did not decline. */
static int same(const membuf *m, const char *what)
{
	amc_err e;
	amc_image a, b;
	long d0 = amc_pngfast_declined();
	int ra = amc_png_decode(m->p, m->n, &a, &e);
	int fast = amc_pngfast_declined() == d0;
	int rb = amc_png_decode_libpng(m->p, m->n, &b, &e);
	int eq = ra == 0 && rb == 0 && a.w == b.w && a.h == b.h && !memcmp(a.px, b.px, (size_t)a.w * a.h * 4);
	ok(eq && fast, "%s: fast path taken and equal to libpng", what);
	if (!(eq && fast))
		diag("decode %d, libpng %d (%s), fast path %s", ra, rb, rb ? e.msg : "", fast ? "taken" : "declined");
	amc_image_free(&a);
	amc_image_free(&b);
	return eq && fast;
}

int main(void)
{
	static const struct {
		int ctype, comp;
		const char *name;
	} types[] = {{0, 1, "grey"}, {2, 3, "RGB"}, {3, 1, "palette"}, {4, 2, "grey+alpha"}, {6, 4, "RGBA"}};
	static const struct {
		int mask;
		const char *name;
	} filt[] = {{PNG_FILTER_NONE, "none"},   {PNG_FILTER_SUB, "sub"},     {PNG_FILTER_UP, "up"},
		    {PNG_FILTER_AVG, "average"}, {PNG_FILTER_PAETH, "paeth"}, {PNG_ALL_FILTERS, "adaptive"}};
	png_color pal[200];
	png_byte trns[100];
	for (int i = 0; i < 200; i++)
		pal[i] = (png_color){(png_byte)(i * 3), (png_byte)(255 - i), (png_byte)(i * 7)};
	for (int i = 0; i < 100; i++)
		trns[i] = (png_byte)(i * 2);
	const int w = 37, h = 23; /* odd sizes: no row is a multiple of a word */
	unsigned char *rows[23], *data = malloc((size_t)w * h * 4);
	for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
		for (int i = 0; i < w * h * types[t].comp; i++)
			data[i] = (unsigned char)(types[t].ctype == 3 ? (i * 13 + i / 37) % 230 /* some past the palette */
								      : (i * 31) ^ (i / 11) * 17);
		for (int y = 0; y < h; y++)
			rows[y] = data + (size_t)y * w * types[t].comp;
		for (size_t f = 0; f < sizeof filt / sizeof *filt; f++) {
			membuf m = make(w, h, types[t].ctype, filt[f].mask, 6, f == 5 ? 64 : 8192,
					types[t].ctype == 3 ? pal : NULL, 200, types[t].ctype == 3 ? trns : NULL, 100, rows);
			char what[80];
			snprintf(what, sizeof what, "%s, filter %s%s", types[t].name, filt[f].name, f == 5 ? ", 64-byte IDATs" : "");
			same(&m, what);
			free(m.p);
		}
	}
	free(data);

	/* Encoding picks the smallest lossless layout, and every layout reads
	 * back exactly, through the fast path and through libpng. */
	{
		static const struct {
			const char *name;
			int colours, alpha, ctype;
		} cases[] = { { "few colours: palette", 5, 0, 3 },        { "few with alpha: palette + tRNS", 5, 1, 3 },
			      { "a UI's colours, opaque: RGB", 1000, 0, 2 },
			      { "many colours, opaque: RGB", 5000, 0, 2 }, { "many with alpha: RGBA", 5000, 1, 6 } };
		for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
			amc_image im;
			amc_err e;
			amc_image_alloc(&im, 301, 77, &e);
			for (int i = 0; i < 301 * 77; i++) {
				int v = (i / 3 + i % 7) % cases[k].colours;
				im.px[i * 4] = (unsigned char)v;
				im.px[i * 4 + 1] = (unsigned char)(v >> 8);
				im.px[i * 4 + 2] = (unsigned char)(v * 3);
				im.px[i * 4 + 3] = cases[k].alpha && v == 2 ? 100 : 255;
			}
			unsigned char *p;
			size_t n;
			int enc = amc_png_encode(&im, 6, &p, &n, &e);
			int ct = enc == 0 && n > 25 ? p[25] : -1;
			ok(ct == cases[k].ctype, "%s (colour type %d)", cases[k].name, ct);
			/* Up to 4,096 colours (a UI's flat fills and antialiased
			 * text) unfiltered, more (photos) with a predictive filter. */
			size_t bpp = ct == 3 ? 1 : ct == 2 ? 3 : 4;
			unsigned fm = enc == 0 ? filters_used(p, n, 301 * bpp, 77) : 0;
			if (cases[k].colours <= 4096)
				ok(fm == 1u, "%s: every row filter None (filters 0x%x)", cases[k].name, fm);
			else
				ok(fm && !(fm & 1u << 0), "%s: rows filtered Sub or Up (filters 0x%x)", cases[k].name, fm);
			membuf m = { p, n };
			same(&m, cases[k].name);
			amc_image back;
			ok(amc_png_decode(p, n, &back, &e) == 0 && !memcmp(back.px, im.px, (size_t)301 * 77 * 4),
			   "%s: lossless", cases[k].name);
			amc_image_free(&back);
			amc_image_free(&im);
			free(p);
		}
	}

	/* Odd files go to libpng, which says what is wrong: one byte of the image
	 * data flipped, and a stream cut short (an IDAT with a valid CRC). */
	{
		unsigned char one[4 * 8] = {0};
		unsigned char *r1[8];
		for (int y = 0; y < 8; y++)
			r1[y] = one;
		membuf m = make(8, 8, 0, PNG_FILTER_NONE, 6, 8192, NULL, 0, NULL, 0, r1);
		amc_err e;
		amc_image img;
		long d0 = amc_pngfast_declined();
		m.p[m.n - 12 - 4 - 2] ^= 0x40; /* inside the last IDAT: a CRC error */
		ok(amc_png_decode(m.p, m.n, &img, &e) == -1 && e.code == AMC_EUSAGE, "corrupt IDAT refused: %s", e.msg);
		ok(amc_pngfast_declined() == d0 + 1, "declined by the fast path, judged by libpng");
		free(m.p);
	}

	/* A 1080x2400 frame like a phone's: flat bars, text-like noise, a gradient,
	 * zlib 6 with adaptive filters in 8 KB IDATs (what `screencap -p` sends). */
	{
		const int W = 1080, H = 2400;
		unsigned char *px = malloc((size_t)W * H * 4), **rr = malloc(sizeof *rr * H);
		for (int y = 0; y < H; y++) {
			rr[y] = px + (size_t)y * W * 4;
			for (int x = 0; x < W; x++) {
				unsigned char *p = rr[y] + x * 4;
				if (y < 80)
					p[0] = 30, p[1] = 30, p[2] = 40;
				else if (y > 1600)
					p[0] = (unsigned char)(x * 255 / W), p[1] = (unsigned char)(y / 10), p[2] = 128;
				else
					p[0] = p[1] = p[2] = ((y / 40) % 2 && ((x * 7 + y * 3) % 23 < 4)) ? 20 : 250;
				p[3] = 255;
			}
		}
		membuf m = make(W, H, 6, PNG_ALL_FILTERS, 6, 8192, NULL, 0, NULL, 0, rr);
		ok(same(&m, "1080x2400 screen, zlib 6, adaptive filters"), "screen decodes on the fast path");
		amc_err e;
		amc_image img;
		double best_fast = 1e9, best_png = 1e9;
		for (int r = 0; r < 5; r++) {
			double t0 = now_ms();
			amc_png_decode(m.p, m.n, &img, &e);
			double t1 = now_ms();
			amc_image_free(&img);
			amc_png_decode_libpng(m.p, m.n, &img, &e);
			double t2 = now_ms();
			amc_image_free(&img);
			best_fast = t1 - t0 < best_fast ? t1 - t0 : best_fast;
			best_png = t2 - t1 < best_png ? t2 - t1 : best_png;
		}
		diag("1080x2400 (%zu bytes) decode, best of 5: fast path %.1f ms, libpng %.1f ms", m.n, best_fast, best_png);
		free(m.p);
		free(rr);
		free(px);
	}
	return done_testing();
}
