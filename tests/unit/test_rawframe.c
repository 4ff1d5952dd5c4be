/* test_rawframe.c - raw screencap frames (src/image/rawframe.c): both header
 * layouts, every pixel format, 565 widening, and strict refusal of frames
 * whose header does not match their bytes. */
#include <stdlib.h>
#include <string.h>

#include "image/png.h"
#include "image/rawframe.h"
#include "tap.h"

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* An opaque test picture: every pixel different. */
static void picture(amc_image *img, int w, int h)
{
	amc_image_alloc(img, w, h, NULL);
	for (int i = 0; i < w * h; i++) {
		img->px[i * 4] = (unsigned char)(i * 7);
		img->px[i * 4 + 1] = (unsigned char)(i * 13 + 5);
		img->px[i * 4 + 2] = (unsigned char)(i * 29 + 11);
		img->px[i * 4 + 3] = 255;
	}
}

static void test_round_trips(void)
{
	amc_image src, got;
	picture(&src, 7, 5);
	static const uint32_t exact[] = { AMC_RAW_RGBA_8888, AMC_RAW_RGBX_8888, AMC_RAW_RGB_888, AMC_RAW_BGRA_8888 };
	int same = 0, layouts = 0;
	for (int hl = 12; hl <= 16; hl += 4)
		for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
			unsigned char *b = NULL;
			size_t len = 0;
			int got_hl = 0;
			amc_err e;
			if (amc_rawframe_encode(&src, exact[i], hl, &b, &len, &e) == 0 &&
			    amc_rawframe_decode(b, len, &got, &got_hl, &e) == 0) {
				same += got.w == 7 && got.h == 5 && !memcmp(got.px, src.px, 7 * 5 * 4);
				layouts += got_hl == hl;
				amc_image_free(&got);
			}
			free(b);
		}
	is_int(same, 8, "RGBA, RGBX, RGB888 and BGRA in both headers decode to the same pixels");
	is_int(layouts, 8, "the header layout is told apart by the byte count");

	/* 565: the top bits survive, widened by bit replication */
	unsigned char *b = NULL;
	size_t len = 0;
	amc_err e;
	ok(amc_rawframe_encode(&src, AMC_RAW_RGB_565, 16, &b, &len, &e) == 0 && len == 16 + 7 * 5 * 2,
	   "565 frame is 2 bytes a pixel");
	ok(amc_rawframe_decode(b, len, &got, NULL, &e) == 0, "565 decodes");
	int widened = 1;
	for (int i = 0; i < 7 * 5; i++) {
		unsigned r = src.px[i * 4] >> 3, g = src.px[i * 4 + 1] >> 2, bl = src.px[i * 4 + 2] >> 3;
		widened &= got.px[i * 4] == (r << 3 | r >> 2) && got.px[i * 4 + 1] == (g << 2 | g >> 4) &&
			   got.px[i * 4 + 2] == (bl << 3 | bl >> 2) && got.px[i * 4 + 3] == 255;
	}
	ok(widened, "565 channels widened by bit replication, opaque");
	/* and a 565 frame decodes to exactly the PNG of the same (widened) screen */
	unsigned char *png = NULL;
	size_t plen = 0;
	amc_image fromp;
	ok(amc_png_encode(&got, 1, &png, &plen, &e) == 0 && amc_png_decode(png, plen, &fromp, &e) == 0 &&
	   !memcmp(fromp.px, got.px, 7 * 5 * 4), "pixel-identical to the PNG of the same screen");
	amc_image_free(&fromp);
	free(png);
	amc_image_free(&got);
	free(b);

	/* RGBX: the X byte is not alpha */
	ok(amc_rawframe_encode(&src, AMC_RAW_RGBX_8888, 12, &b, &len, &e) == 0, "RGBX frame");
	ok(b[12 + 3] == 0, "encoded with X = 0 as phones send it");
	ok(amc_rawframe_decode(b, len, &got, NULL, &e) == 0 && got.px[3] == 255, "X becomes opaque alpha");
	amc_image_free(&got);
	free(b);
	amc_image_free(&src);
	ok(amc_rawframe_encode(&(amc_image){ 1, 1, (unsigned char[4]){ 0 } }, 9, 16, &b, &len, &e) == -1,
	   "an unknown format cannot be encoded");
}

static int refused(const unsigned char *b, size_t len, const char *want, const char *what)
{
	amc_err e;
	amc_image img = { 0 };
	amc_err_clear(&e);
	int rc = amc_rawframe_decode(b, len, &img, NULL, &e);
	ok(rc == -1 && img.px == NULL && e.code == AMC_EUSAGE, "%s refused", what);
	like(e.msg, want, "%s: says why", what);
	return rc;
}

static void test_refusals(void)
{
	unsigned char b[16 + 4 * 4 * 4 + 8];
	memset(b, 0, sizeof b);
	put32(b, 4);
	put32(b + 4, 4);
	put32(b + 8, AMC_RAW_RGBA_8888);
	put32(b + 12, AMC_RAW_DATASPACE_SRGB);
	amc_image img;
	amc_err e;
	ok(amc_rawframe_decode(b, 16 + 64, &img, NULL, &e) == 0, "a whole 4x4 frame decodes");
	amc_image_free(&img);
	refused(b, 16 + 64 - 1, "does not match its header", "a truncated frame");
	refused(b, 16 + 64 + 1, "does not match its header", "a frame with bytes to spare");
	refused(b, 11, "too short", "a frame shorter than a header");
	refused(NULL, 0, "too short", "no bytes");
	put32(b, 1080);
	put32(b + 4, 2400);
	refused(b, 16 + 64, "does not match its header", "a header that lies about the size");
	put32(b, 0);
	refused(b, 16, "impossible size", "a zero width");
	put32(b, 20000);
	put32(b + 4, 1);
	refused(b, 16, "impossible size", "a width over the limit");
	put32(b, 4);
	put32(b + 4, 4);
	put32(b + 8, 7);
	refused(b, 16 + 64, "unknown pixel format 7", "an unknown pixel format");
	put32(b + 8, AMC_RAW_RGBA_8888);
	put32(b + 12, 12345);
	refused(b, 16 + 64, "unknown colour space", "an unknown colour space");
	is_int(amc_rawframe_bpp(AMC_RAW_RGB_565), 2, "565 is 2 bytes");
	is_int(amc_rawframe_bpp(0), 0, "format 0 is unknown");
}

int main(void)
{
	test_round_trips();
	test_refusals();
	return done_testing();
}
