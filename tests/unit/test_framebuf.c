/* test_framebuf.c - kept frame buffers (image/framebuf.h): kept only while
 * held, within their bounds, freed on the last release; and decodes and
 * probes into a reused buffer (a bigger frame's, then a smaller one's, with
 * the old pixels still in it) give exactly libpng's pixels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "image/framebuf.h"
#include "image/image.h"
#include "image/png.h"

#define MB ((size_t)1 << 20)

/* _Noreturn: callers read the outputs of a failed call only after bail();
 * saying it never returns tells the compiler (clang's -Wsometimes-uninitialized). */
_Noreturn static void bail(const char *what, const char *msg)
{
	printf("Bail out! %s: %s\n", what, msg);
	exit(1);
}

static amc_framebuf_stats st(void)
{
	amc_framebuf_stats s;
	amc_framebuf_stats_get(&s);
	return s;
}

/* A frame of many colours (gradients and noise: RGB, predictive filters) or
 * of few (flat bands: a palette), `seed` changing every pixel. */
static void frame(amc_image *img, int w, int h, int many, unsigned seed)
{
	amc_err e;
	if (amc_image_alloc(img, w, h, &e) != 0)
		bail("alloc", e.msg);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			unsigned char *p = img->px + ((size_t)y * w + x) * 4;
			unsigned v = (unsigned)(x * 7 + y * 3) ^ seed;
			if (many) {
				p[0] = (unsigned char)(x + seed);
				p[1] = (unsigned char)(y * 2 + (v % 5));
				p[2] = (unsigned char)((x ^ y) + seed * 3);
			} else {
				p[0] = p[1] = p[2] = (unsigned char)(((y / 40) * 37 + seed) & 0xf0);
			}
			p[3] = 0xff;
		}
}

static int same_as_libpng(const unsigned char *png, size_t len, const amc_image *got)
{
	amc_image want;
	amc_err e;
	if (amc_png_decode_libpng(png, len, &want, &e) != 0)
		return 0;
	int same = want.w == got->w && want.h == got->h &&
		   !memcmp(want.px, got->px, (size_t)want.w * (size_t)want.h * 4);
	free(want.px);
	return same;
}

/* sample = every step-th pixel of every step-th row of the decoded file */
static int sample_right(const unsigned char *png, size_t len, const amc_image *sample, int step)
{
	amc_image full;
	amc_err e;
	if (!sample->px || amc_png_decode_libpng(png, len, &full, &e) != 0)
		return 0;
	int right = sample->w == (full.w + step - 1) / step && sample->h == (full.h + step - 1) / step;
	for (int y = 0; right && y < sample->h; y++)
		for (int x = 0; right && x < sample->w; x++)
			right = !memcmp(sample->px + ((size_t)y * sample->w + x) * 4,
					full.px + ((size_t)y * step * full.w + (size_t)x * step) * 4, 4);
	free(full.px);
	return right;
}

static void bounds(void)
{
	amc_framebuf_stats s0 = st();
	void *p = amc_framebuf_get(4 * MB);
	ok(p != NULL, "a buffer with no holder");
	amc_framebuf_put(p);
	is_int(st().kept, 0, "nothing is kept while no device holds the cache");

	amc_framebuf_hold();
	p = amc_framebuf_get(4 * MB);
	memset(p, 1, 4 * MB);
	amc_framebuf_put(p);
	is_int(st().kept, 1, "held: a given-back buffer is kept");
	void *q = amc_framebuf_get(3 * MB);
	ok(q == p, "and handed out again for a request of about its size");
	is_int(st().hits - s0.hits, 1, "counted as a hit");
	is_int(st().kept, 0, "no longer kept while in use");
	amc_framebuf_put(q);
	void *small = amc_framebuf_get(1 * MB);
	ok(small != q, "a request under half its size does not take it");
	free(small); /* plain malloc memory: free() is right too */
	void *tiny = amc_framebuf_get(1000);
	amc_framebuf_put(tiny);
	is_int(st().kept, 1, "a small buffer is not kept");

	void *many[AMC_FRAMEBUF_MAX_KEPT + 3];
	for (int i = 0; i < AMC_FRAMEBUF_MAX_KEPT + 3; i++)
		many[i] = amc_framebuf_get(2 * MB + (size_t)i * 4096);
	for (int i = 0; i < AMC_FRAMEBUF_MAX_KEPT + 3; i++)
		amc_framebuf_put(many[i]);
	is_int(st().kept, AMC_FRAMEBUF_MAX_KEPT, "at most %d buffers kept", AMC_FRAMEBUF_MAX_KEPT);
	void *big[4];
	for (int i = 0; i < 4; i++)
		big[i] = amc_framebuf_get(30 * MB);
	for (int i = 0; i < 4; i++)
		amc_framebuf_put(big[i]);
	ok(st().kept_bytes <= AMC_FRAMEBUF_MAX_BYTES, "at most %zu MB kept in all (%zu MB)",
	   AMC_FRAMEBUF_MAX_BYTES / MB, st().kept_bytes / MB);
	ok(st().kept >= 2, "the newest big ones kept (%d)", st().kept);

	amc_framebuf_hold(); /* a second device */
	amc_framebuf_release();
	ok(st().kept > 0, "one of two holders gone: still kept");
	amc_framebuf_release();
	is_int(st().kept, 0, "the last holder gone: everything freed");
	is_int((int)st().kept_bytes, 0, "no bytes kept");
	amc_framebuf_release(); /* one too many is harmless */
	is_int(st().holders, 0, "holders never below zero");
}

/* Decode and probe a bigger frame, then a smaller one, then the bigger one
 * again, each into the buffer the one before gave back. */
static void reuse(void)
{
	amc_err e;
	amc_framebuf_hold();
	struct {
		int w, h, many;
		const char *what;
	} F[] = {
		{ 1080, 2400, 1, "1080x2400 RGB, filtered" },
		{ 720, 1280, 0, "720x1280 palette" },
		{ 1080, 2400, 0, "1080x2400 palette" },
		{ 720, 1600, 1, "720x1600 RGB" },
	};
	long dec0 = amc_png_decode_count();
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < sizeof F / sizeof F[0]; i++) {
			amc_image src, got;
			frame(&src, F[i].w, F[i].h, F[i].many, (unsigned)(i * 31 + (size_t)round * 7));
			unsigned char *png, *png6;
			size_t len, len6;
			if (amc_png_encode(&src, 6, &png, &len, &e) != 0 ||
			    amc_png_encode_libpng(&src, 6, &png6, &len6, &e) != 0)
				bail("encode", e.msg);
			amc_image_free(&src);
			long hits = st().hits;
			ok(amc_png_decode(png, len, &got, &e) == 0 && same_as_libpng(png, len, &got),
			   "round %d: %s (amc's encoding) decodes right", round + 1, F[i].what);
			if (round || i)
				ok(st().hits > hits, "into a kept buffer");
			amc_image_free(&got);
			ok(amc_png_decode(png6, len6, &got, &e) == 0 && same_as_libpng(png6, len6, &got),
			   "round %d: %s as screencap -p (zlib 6, adaptive) decodes right", round + 1, F[i].what);
			amc_image_free(&got);
			/* a probe turned into the frame's pixels, in a reused buffer */
			amc_png_probe p;
			ok(amc_png_probe_read(png6, len6, 3, &p, &e) == 0 && amc_png_probe_sample(&p, &e) == 0 &&
			   sample_right(png6, len6, &p.sample, 3), "round %d: %s as screencap -p: its sample (every 3rd)",
			   round + 1, F[i].what);
			amc_png_probe_free(&p);
			ok(amc_png_probe_read(png6, len6, 2, &p, &e) == 0 && amc_png_probe_to_image(&p, &got, &e) == 0 &&
			   same_as_libpng(png6, len6, &got), "round %d: %s probed, then its pixels from the probe",
			   round + 1, F[i].what);
			ok(p.rows == NULL && p.sample.px == NULL, "the rows moved out (no sample was asked for)");
			ok(amc_png_probe_sample(&p, &e) == 0 && p.sample.px == NULL, "nor can one be made now");
			amc_png_probe_free(&p);
			amc_image_free(&got);
			ok(amc_png_probe_read(png, len, 2, &p, &e) == 0 && p.sample.px == NULL,
			   "round %d: %s probed, no sample yet", round + 1, F[i].what);
			ok(amc_png_probe_sample(&p, &e) == 0 && sample_right(png6, len6, &p.sample, 2),
			   "its sample, made in a reused buffer, is every 2nd pixel of every 2nd row");
			ok(amc_png_probe_to_image(&p, &got, &e) == 0 && same_as_libpng(png, len, &got),
			   "round %d: %s (amc's encoding) from its probe", round + 1, F[i].what);
			amc_png_probe_free(&p);
			amc_image_free(&got);
			free(png);
			free(png6);
		}
	}
	is_int(amc_png_decode_count() - dec0, 2 * 4 * 4, "each decode and each probe made into pixels counts once");
	amc_png_probe p = { 0 };
	amc_image img;
	ok(amc_png_probe_to_image(&p, &img, &e) == -1 && img.px == NULL, "an empty probe has no pixels");
	amc_framebuf_release();
	is_int(st().kept, 0, "released");
}

int main(void)
{
	bounds();
	reuse();
	return done_testing();
}
