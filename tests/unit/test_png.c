/* test_png.c - PNG decode/encode: round trips, every colour type, and hostile
 * input (corrupt, truncated, oversized) refused with AMC_EUSAGE, never a crash. */
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"
#include "image/png.h"
#include "util/clock.h"
#include "util/fsutil.h"

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

/* Write a small PNG of any type with libpng directly. `rows` are raw rows in
 * that type's layout. */
static membuf make_png(int w, int h, int depth, int ctype, int interlace, png_colorp pal, int npal,
		       png_bytep trns, int ntrns, png_color_16p trns_col, unsigned char **rows)
{
	membuf m = {NULL, 0};
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(m.p);
		m.p = NULL;
		m.n = 0;
		return m;
	}
	png_set_write_fn(png, &m, wr, fl);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, ctype, interlace, PNG_COMPRESSION_TYPE_BASE,
		     PNG_FILTER_TYPE_BASE);
	if (pal)
		png_set_PLTE(png, info, pal, npal);
	if (trns || trns_col)
		png_set_tRNS(png, info, trns, ntrns, trns_col);
	png_write_info(png, info);
	png_write_image(png, rows);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return m;
}

static uint32_t get(const amc_image *img, int x, int y)
{
	const unsigned char *p = img->px + ((size_t)y * img->w + x) * 4;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* PNG's CRC-32, bit by bit (no zlib needed for a test). */
static uint32_t crc(const unsigned char *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
	}
	return c ^ 0xFFFFFFFFu;
}

static void be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

int main(void)
{
	amc_err e;
	amc_image img, back;
	test_home("png");

	/* Round trip of RGBA with alpha. */
	amc_image_alloc(&img, 33, 17, &e);
	for (int i = 0; i < 33 * 17 * 4; i++)
		img.px[i] = (unsigned char)(i * 7 + i / 5);
	unsigned char *png;
	size_t len;
	for (int level = 0; level <= 9; level += 9) {
		ok(amc_png_encode(&img, level, &png, &len, &e) == 0, "encode at level %d", level);
		int w = 0, h = 0;
		ok(amc_png_info(png, len, &w, &h, &e) == 0 && w == 33 && h == 17, "info reads the size");
		ok(amc_png_decode(png, len, &back, &e) == 0, "decode");
		ok(back.w == 33 && back.h == 17 && !memcmp(back.px, img.px, 33 * 17 * 4), "round trip is exact");
		amc_image_free(&back);
		if (level == 9)
			break;
		/* Corrupt one byte inside the image data: a CRC or zlib error, not a crash. */
		unsigned char *bad = malloc(len);
		memcpy(bad, png, len);
		bad[len / 2] ^= 0x5A;
		ok(amc_png_decode(bad, len, &back, &e) == -1 && e.code == AMC_EUSAGE && strstr(e.msg, "PNG"),
		   "corrupt data refused: %s", e.msg);
		ok(back.px == NULL, "no image on failure");
		/* Truncated at many points. */
		int all = 1;
		for (size_t cut = 0; cut < len - 12; cut += 7) {
			if (amc_png_decode(png, cut, &back, &e) != -1 || e.code != AMC_EUSAGE)
				all = 0;
		}
		ok(all, "every truncation refused (last: %s)", e.msg);
		/* A chunk declaring more bytes than follow (check-hardening's fuzzing:
		 * 1.3 GB allocated for an 83-byte file) is refused before libpng. */
		{
			unsigned char bomb[8 + 25 + 12 + 21];
			memcpy(bomb, png, 8 + 25); /* signature and IHDR */
			static const unsigned char text[] = { 0x4e, 0x2b, 0x9b, 0x15, 't', 'E', 'X', 't' };
			memcpy(bomb + 33, text, sizeof text);
			memset(bomb + 33 + 8, 'a', sizeof bomb - 33 - 8);
			long long t0 = amc_mono_ms();
			ok(amc_png_decode(bomb, sizeof bomb, &back, &e) == -1 && e.code == AMC_EUSAGE &&
				   strstr(e.msg, "tEXt declares 1311480597 bytes"),
			   "a chunk longer than the file is refused: %s", e.msg);
			ok(amc_mono_ms() - t0 < 100, "at once");
		}
		/* Not a PNG at all. */
		ok(amc_png_decode("GIF89a....................", 26, &back, &e) == -1 && strstr(e.msg, "not a PNG"),
		   "other formats refused: %s", e.msg);
		/* A file too large is refused before it is read. */
		ok(amc_png_decode(png, (size_t)AMC_PNG_MAX_BYTES + 1, &back, &e) == -1 && strstr(e.msg, "too large"),
		   "input over the byte limit refused: %s", e.msg);
		/* Oversized dimensions in the header: refused before allocating. */
		memcpy(bad, png, len);
		be32(bad + 16, 20000);
		be32(bad + 20, 20000);
		uint32_t sum = crc(bad + 12, 17);
		be32(bad + 29, sum);
		int w2, h2;
		ok(amc_png_info(bad, len, &w2, &h2, &e) == -1 && strstr(e.msg, "too large") && strstr(e.msg, "20000x20000"),
		   "huge header refused by info: %s", e.msg);
		ok(amc_png_decode(bad, len, &back, &e) == -1 && e.code == AMC_EUSAGE && strstr(e.msg, "too large"),
		   "huge header refused by decode: %s", e.msg);
		be32(bad + 16, 1);
		be32(bad + 20, 70000000);
		be32(bad + 29, crc(bad + 12, 17));
		ok(amc_png_decode(bad, len, &back, &e) == -1 && strstr(e.msg, "too large"), "tall sliver refused");
		/* Bad IHDR CRC with a plausible size. */
		memcpy(bad, png, len);
		bad[30] ^= 1;
		ok(amc_png_decode(bad, len, &back, &e) == -1 && e.code == AMC_EUSAGE, "bad header CRC refused: %s", e.msg);
		free(bad);
		free(png);
	}
	free(png);
	ok(amc_png_encode(&img, 10, &png, &len, &e) == -1 && e.code == AMC_EUSAGE, "level 10 refused");
	amc_image empty = {0, 0, NULL};
	ok(amc_png_encode(&empty, 1, &png, &len, &e) == -1, "empty image refused");

	/* Palette with transparency, 4-bit. */
	png_color pal[3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
	png_byte trns[3] = {255, 128, 0};
	unsigned char prow[2][2] = {{0x01, 0x20}, {0x12, 0x00}}; /* 4 px per row, 4 bits each */
	unsigned char *prows[2] = {prow[0], prow[1]};
	membuf m = make_png(4, 2, 4, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, pal, 3, trns, 3, NULL, prows);
	ok(m.p && amc_png_decode(m.p, m.n, &back, &e) == 0, "4-bit palette with tRNS decodes");
	is_int(get(&back, 0, 0), 0xFF0000FF, "palette entry 0 opaque red");
	is_int(get(&back, 1, 0), 0x00FF0080, "palette entry 1 half-transparent green");
	is_int(get(&back, 2, 0), 0x0000FF00, "palette entry 2 transparent blue");
	is_int(get(&back, 0, 1), 0x00FF0080, "second row");
	amc_image_free(&back);
	free(m.p);

	/* Grey 1-bit. */
	unsigned char grow[1][1] = {{0xA0}};
	unsigned char *grows[1] = {grow[0]};
	m = make_png(3, 1, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, NULL, grows);
	ok(m.p && amc_png_decode(m.p, m.n, &back, &e) == 0, "1-bit grey decodes");
	is_int(get(&back, 0, 0), 0xFFFFFFFF, "white");
	is_int(get(&back, 1, 0), 0x000000FF, "black");
	is_int(get(&back, 2, 0), 0xFFFFFFFF, "white again");
	amc_image_free(&back);
	free(m.p);

	/* Grey 16-bit with a transparent colour, interlaced. */
	enum { W16 = 9, H16 = 9 };
	unsigned char g16[H16][W16 * 2];
	unsigned char *g16rows[H16];
	for (int y = 0; y < H16; y++) {
		g16rows[y] = g16[y];
		for (int x = 0; x < W16; x++) {
			unsigned v = (unsigned)(x * 7000 + y * 300);
			g16[y][x * 2] = (unsigned char)(v >> 8);
			g16[y][x * 2 + 1] = (unsigned char)v;
		}
	}
	png_color_16 tcol = {0};
	tcol.gray = 0;
	m = make_png(W16, H16, 16, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_ADAM7, NULL, 0, NULL, 0, &tcol, g16rows);
	ok(m.p && amc_png_decode(m.p, m.n, &back, &e) == 0, "16-bit grey, tRNS, Adam7 decodes");
	is_int(get(&back, 0, 0), 0x00000000, "the tRNS grey is transparent");
	is_int(get(&back, 1, 0) >> 8, 0x1B1B1B, "16-bit grey stripped to 8 bits");
	is_int(get(&back, 1, 0) & 255, 255, "other greys opaque");
	is_int(get(&back, 8, 8) >> 24, (8 * 7000 + 8 * 300) >> 8, "interlaced pixels in place");
	amc_image_free(&back);
	free(m.p);

	/* RGB 16-bit and grey+alpha 8-bit. */
	unsigned char rgb16[1][12] = {{0xFF, 0xFF, 0x00, 0x00, 0x80, 0x00, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC}};
	unsigned char *rrows[1] = {rgb16[0]};
	m = make_png(2, 1, 16, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, NULL, rrows);
	ok(m.p && amc_png_decode(m.p, m.n, &back, &e) == 0, "16-bit RGB decodes");
	is_int(get(&back, 0, 0), 0xFF0080FF, "16-bit RGB pixel");
	is_int(get(&back, 1, 0), 0x12569AFF, "second pixel");
	amc_image_free(&back);
	free(m.p);
	unsigned char ga[1][4] = {{0x40, 0x80, 0xC0, 0xFF}};
	unsigned char *garows[1] = {ga[0]};
	m = make_png(2, 1, 8, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_INTERLACE_NONE, NULL, 0, NULL, 0, NULL, garows);
	ok(m.p && amc_png_decode(m.p, m.n, &back, &e) == 0, "grey+alpha decodes");
	is_int(get(&back, 0, 0), 0x40404080, "grey+alpha pixel");
	amc_image_free(&back);
	free(m.p);

	/* From a file, with the path in errors. */
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/x.png", getenv("AMC_HOME"));
	amc_png_encode(&img, 1, &png, &len, &e);
	amc_write_atomic(path, png, len, 0600, &e);
	free(png);
	ok(amc_png_decode_file(path, &back, &e) == 0 && back.w == 33, "decode a file");
	amc_image_free(&back);
	amc_write_atomic(path, "\x89PNG\r\n\x1a\n", 8, 0600, &e);
	ok(amc_png_decode_file(path, &back, &e) == -1 && strstr(e.msg, path), "error names the file: %s", e.msg);
	ok(amc_png_decode_file("/nonexistent/x.png", &back, &e) == -1, "missing file");
	amc_image_free(&img);
	return done_testing();
}
