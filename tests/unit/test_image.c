/* test_image.c - RGBA image operations. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "image/image.h"

static void px(amc_image *img, int x, int y, uint32_t rgba)
{
	unsigned char *p = img->px + ((size_t)y * img->w + x) * 4;
	p[0] = (unsigned char)(rgba >> 24);
	p[1] = (unsigned char)(rgba >> 16);
	p[2] = (unsigned char)(rgba >> 8);
	p[3] = (unsigned char)rgba;
}

static uint32_t get(const amc_image *img, int x, int y)
{
	const unsigned char *p = img->px + ((size_t)y * img->w + x) * 4;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}


/* The box filter as it was first written (a division per channel): the fast
 * amc_image_scale_fit must give the same bytes. */
static void scale_ref(const amc_image *src, int w, int h, amc_image *dst)
{
	amc_err e;
	amc_image_alloc(dst, w, h, &e);
	for (int y = 0; y < h; y++) {
		int sy0 = (int)((int64_t)y * src->h / h), sy1 = (int)((int64_t)(y + 1) * src->h / h);
		if (sy1 <= sy0)
			sy1 = sy0 + 1;
		for (int x = 0; x < w; x++) {
			int sx0 = (int)((int64_t)x * src->w / w), sx1 = (int)((int64_t)(x + 1) * src->w / w);
			if (sx1 <= sx0)
				sx1 = sx0 + 1;
			uint64_t acc[4] = { 0, 0, 0, 0 };
			for (int sy = sy0; sy < sy1; sy++)
				for (int sx = sx0; sx < sx1; sx++)
					for (int c = 0; c < 4; c++)
						acc[c] += src->px[((size_t)sy * src->w + sx) * 4 + c];
			uint64_t n = (uint64_t)(sy1 - sy0) * (uint64_t)(sx1 - sx0);
			for (int c = 0; c < 4; c++)
				dst->px[((size_t)y * w + x) * 4 + c] = (unsigned char)((acc[c] + n / 2) / n);
		}
	}
}

/* Random and extreme pixels at sizes where the boxes are 1 to ~9000 pixels
 * (past the reciprocal's bound of 4096): the same bytes as the reference. */
static void test_scale_exact(void)
{
	static const int sizes[][4] = { { 1080, 2400, 1024, 1024 }, { 1080, 2400, 480, 480 }, { 640, 480, 7, 5 },
					{ 300, 300, 299, 299 }, { 9000, 2, 1, 1 }, { 5000, 3, 2, 2 },
					{ 97, 1033, 13, 200 } };
	uint64_t rng = 88172645463325252ull;
	int bad = 0;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		amc_image src, fast, ref;
		amc_err e;
		amc_image_alloc(&src, sizes[i][0], sizes[i][1], &e);
		size_t n = (size_t)src.w * src.h * 4;
		for (size_t k = 0; k < n; k++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			/* a third of the rows all 255: the largest sums */
			src.px[k] = (k / 4 / src.w) % 3 == 0 ? 255 : (unsigned char)rng;
		}
		if (amc_image_scale_fit(&src, sizes[i][2], sizes[i][3], &fast, &e) != 0) {
			bad++;
			amc_image_free(&src);
			continue;
		}
		scale_ref(&src, fast.w, fast.h, &ref);
		bad += memcmp(fast.px, ref.px, (size_t)fast.w * fast.h * 4) != 0;
		amc_image_free(&src);
		amc_image_free(&fast);
		amc_image_free(&ref);
	}
	is_int(bad, 0, "scale_fit gives the reference box filter's bytes (7 sizes, boxes of 1 to 9000 px)");
}

/* assertScreenshot's comparison, as Maestro's ScreenshotMatch counts: a
 * pixel differs when its RGB distance exceeds tolerance * sqrt(3 * 255^2). */
static void match_percent(void)
{
	amc_err e;
	amc_image x, y, d, z;
	amc_image_alloc(&x, 10, 10, &e);
	amc_image_alloc(&y, 10, 10, &e);
	amc_image_alloc(&z, 10, 9, &e);
	for (int i = 0; i < 100; i++)
		px(&x, i % 10, i / 10, 0x808080FF), px(&y, i % 10, i / 10, 0x808080FF);
	ok(amc_image_match_percent(&x, &y, 0.1, &d) == 100 && !d.px, "equal images match 100 %%, no diff image");
	px(&y, 1, 1, 0x8A8A8AFF);  /* distance sqrt(300) ~ 17.3 < 44.2: within tolerance */
	px(&y, 2, 2, 0xFF0000FF);  /* far */
	px(&y, 3, 3, 0x80808000);  /* alpha only: not compared */
	double m = amc_image_match_percent(&x, &y, 0.1, &d);
	ok(m > 98.99 && m < 99.01, "one pixel of 100 differs: 99 %% (got %.2f)", m);
	ok(d.px && get(&d, 2, 2) == 0xFF0000FFu && get(&d, 1, 1) == 0x8A8A8AFFu, "the diff image marks it red");
	amc_image_free(&d);
	m = amc_image_match_percent(&x, &y, 0, NULL);
	ok(m > 97.99 && m < 98.01, "tolerance 0: every RGB change counts (got %.2f)", m);
	ok(amc_image_match_percent(&x, &z, 0.1, NULL) < 0, "sizes differ: -1");
	amc_image_free(&x);
	amc_image_free(&y);
	amc_image_free(&z);
}

int main(void)
{
	match_percent();
	amc_err e;
	amc_image a, b, c;

	ok(amc_image_alloc(&a, 4, 3, &e) == 0, "alloc");
	is_int(a.w, 4, "width");
	is_int(a.h, 3, "height");
	is_int(get(&a, 3, 2), 0, "zeroed");
	ok(amc_image_alloc(&b, 0, 3, &e) == -1 && e.code == AMC_EUSAGE, "empty size refused");
	ok(b.px == NULL, "no pixels on failure");
	ok(amc_image_alloc(&b, AMC_IMAGE_MAX_SIDE + 1, 1, &e) == -1 && strstr(e.msg, "too large"), "over-wide refused");
	ok(amc_image_alloc(&b, 16384, 16384, &e) == -1, "over 64 Mpx refused");

	px(&a, 1, 1, 0x112233FF);
	ok(amc_image_copy(&a, &b, &e) == 0 && get(&b, 1, 1) == 0x112233FF, "copy");
	ok(amc_image_diff_fraction(&a, &b, 0, 0) == 0.0, "copies do not differ");
	px(&b, 0, 0, 0x000010FF);
	ok(amc_image_diff_fraction(&a, &b, 0, 0) > 0.08 && amc_image_diff_fraction(&a, &b, 0, 0) < 0.09, "one pixel in 12");
	ok(amc_image_diff_fraction(&a, &b, 0, 255) == 0.0, "within tolerance");
	ok(amc_image_diff_fraction(&a, &b, 1, 0) == 0.0, "rows above y0 ignored");
	ok(amc_image_diff_fraction(&a, &b, 99, 0) == 0.0, "y0 past the end");
	ok(amc_image_hash(&a, 0) != amc_image_hash(&b, 0), "hash sees the change");
	ok(amc_image_hash(&a, 1) == amc_image_hash(&b, 1), "hash from y0 ignores it");

	ok(amc_image_alloc(&c, 5, 3, &e) == 0, "other size");
	ok(amc_image_diff_fraction(&a, &c, 0, 0) == 1.0, "different sizes differ completely");
	ok(amc_image_hash(&a, 0) != amc_image_hash(&c, 0), "size is part of the hash");
	amc_image_free(&c);

	amc_image big, small;
	amc_image_alloc(&big, 100, 50, &e);
	for (int y = 0; y < 50; y++)
		for (int x = 0; x < 100; x++)
			px(&big, x, y, x < 50 ? 0xFF0000FF : 0x0000FFFF);
	ok(amc_image_scale_fit(&big, 10, 10, &small, &e) == 0, "scale to fit");
	is_int(small.w, 10, "scaled width");
	is_int(small.h, 5, "aspect kept");
	is_int(get(&small, 0, 0), 0xFF0000FF, "left stays red");
	is_int(get(&small, 9, 4), 0x0000FFFF, "right stays blue");
	amc_image_free(&small);
	ok(amc_image_scale_fit(&big, 1000, 1000, &small, &e) == 0 && small.w == 100 && small.h == 50, "never upscales");
	amc_image_free(&small);
	ok(amc_image_scale_fit(&big, 0, 10, &small, &e) == -1, "empty target refused");
	amc_image_alloc(&c, 4, 4, &e);
	px(&c, 0, 0, 0xFFFFFFFF);
	px(&c, 1, 0, 0x000000FF);
	px(&c, 0, 1, 0xFFFFFFFF);
	px(&c, 1, 1, 0x000000FF);
	amc_image half;
	ok(amc_image_scale_fit(&c, 2, 2, &half, &e) == 0, "box filter");
	is_int(get(&half, 0, 0), 0x808080FF, "2x2 box averaged (rounded)");
	amc_image_free(&half);
	amc_image_free(&c);

	ok(amc_image_crop(&big, 45, 10, 10, 5, &c, &e) == 0, "crop");
	is_int(get(&c, 4, 0), 0xFF0000FF, "crop left");
	is_int(get(&c, 5, 4), 0x0000FFFF, "crop right");
	amc_image_free(&c);
	ok(amc_image_crop(&big, 95, 0, 10, 5, &c, &e) == -1 && e.code == AMC_EUSAGE, "crop outside refused");
	ok(amc_image_crop(&big, -1, 0, 10, 5, &c, &e) == -1, "negative crop refused");

	amc_image_rect(&big, 10, 10, 20, 20, 2, 0x00FF00FF);
	is_int(get(&big, 10, 10), 0x00FF00FF, "rect corner");
	is_int(get(&big, 11, 15), 0x00FF00FF, "rect thickness");
	is_int(get(&big, 15, 15), 0xFF0000FF, "rect inside untouched");
	is_int(get(&big, 19, 19), 0x00FF00FF, "rect drawn inside its bounds");
	amc_image_rect(&big, -100000, -5, 2000000000, 3, 1, 0x010203FF);
	is_int(get(&big, 0, 2), 0x010203FF, "clipped rect");
	amc_image_rect(&big, 5, 5, 1, 1, 1, 0x111111FF);
	is_int(get(&big, 1, 1), 0x111111FF, "swapped corners");

	amc_image_free(&big);
	amc_image_free(&a);
	amc_image_free(&b);
	amc_image_free(&a); /* double free of an emptied image is safe */
	test_scale_exact();
	return done_testing();
}
