/* test_apng.c - animated PNG out of frames (src/image/apng.h): the frames
 * read back in order, equal frames equal and changed ones not, the file a
 * PNG whose default image is the first frame (what a viewer without APNG
 * shows), and frames of another size refused. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "image/apng.h"
#include "image/png.h"
#include "../tools/apng_read.h"

static void fill(amc_image *img, unsigned char v)
{
	for (size_t i = 0; i < (size_t)img->w * img->h * 4; i++)
		img->px[i] = (unsigned char)(v + i % 7);
}

int main(void)
{
	amc_err e;
	amc_image a, b, c;
	amc_image_alloc(&a, 40, 30, &e);
	amc_image_alloc(&b, 40, 30, &e);
	amc_image_alloc(&c, 30, 40, &e);
	fill(&a, 10);
	fill(&b, 10);
	b.px[4 * (40 * 12 + 7)] ^= 0x80; /* one pixel */
	amc_apng_frame f[3];
	ok(amc_apng_frame_pack(&a, &f[0], &e) == 0, "frame 1 packed");
	ok(amc_apng_frame_pack(&a, &f[1], &e) == 0, "frame 2 packed");
	ok(amc_apng_frame_pack(&b, &f[2], &e) == 0, "frame 3 packed");
	f[0].delay_ms = 100, f[1].delay_ms = 0, f[2].delay_ms = 100000;
	unsigned char *out = NULL;
	size_t len = 0;
	ok(amc_apng_assemble(f, 3, &out, &len, &e) == 0, "assembled: %s", e.msg);
	int w, h, n;
	uint64_t hs[8];
	const char *why = "";
	ok(apng_scan(out, len, &w, &h, &n, hs, 8, &why) == 0, "reads back (%s)", why);
	is_int(n, 3, "three frames");
	is_int(w, 40, "width");
	is_int(h, 30, "height");
	ok(hs[0] == hs[1], "equal frames are equal");
	ok(hs[0] != hs[2], "a changed pixel makes another frame");
	amc_image back;
	ok(amc_png_decode(out, len, &back, &e) == 0, "a plain PNG reader reads it");
	ok(back.w == 40 && back.h == 30 && !memcmp(back.px, a.px, (size_t)40 * 30 * 4),
	   "its default image is the first frame");
	amc_image_free(&back);
	out[len - 5] ^= 1; /* IEND's CRC */
	ok(apng_scan(out, len, &w, &h, &n, hs, 8, &why) != 0, "a damaged file is not read back");
	free(out);

	amc_apng_frame g[2] = { f[0], { 0 } };
	ok(amc_apng_frame_pack(&c, &g[1], &e) == 0, "a rotated frame packs");
	ok(amc_apng_assemble(g, 2, &out, &len, &e) != 0 && e.code == AMC_EUSAGE, "frames of two sizes refused");
	ok(amc_apng_assemble(g, 0, &out, &len, &e) != 0, "no frames refused");
	amc_apng_frame_free(&g[1]);
	for (int i = 0; i < 3; i++)
		amc_apng_frame_free(&f[i]);
	amc_image_free(&a);
	amc_image_free(&b);
	amc_image_free(&c);
	return done_testing();
}
