/* image.h - RGBA8 images and the few operations amc needs on them.
 * An amc_image owns its pixels (free with amc_image_free). */
#ifndef AMC_IMAGE_H
#define AMC_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"

/* Largest image amc accepts from anywhere (a device, a file): 16384 px a side and
 * 64 Mpx in all, i.e. at most 256 MiB of RGBA. */
#define AMC_IMAGE_MAX_SIDE 16384
#define AMC_IMAGE_MAX_PIXELS (64u * 1024u * 1024u)

typedef struct amc_image {
	int w, h;
	unsigned char *px; /* w*h*4 bytes, RGBA, row-major, no padding */
} amc_image;

int amc_image_alloc(amc_image *img, int w, int h, amc_err *e); /* zeroed (transparent black) */
void amc_image_free(amc_image *img);
int amc_image_copy(const amc_image *src, amc_image *dst, amc_err *e);
/* Fraction (0..1) of pixels in rows >= y0 whose any channel differs by more than
 * `tol` (0..255). Images of different sizes differ completely (1.0). */
double amc_image_diff_fraction(const amc_image *a, const amc_image *b, int y0, int tol);
/* 64-bit FNV-1a of size and pixels (rows >= y0 only when y0 > 0). */
uint64_t amc_image_hash(const amc_image *img, int y0);
/* Box-filter downscale to fit within max_w x max_h keeping aspect (never upscales). */
int amc_image_scale_fit(const amc_image *src, int max_w, int max_h, amc_image *dst, amc_err *e);
int amc_image_crop(const amc_image *src, int x, int y, int w, int h, amc_image *dst, amc_err *e);
/* Maestro's assertScreenshot comparison (its ScreenshotMatch): the
 * percentage (0..100) of pixels of `actual` that match `expected` within
 * `tolerance` (0..1) of the largest RGB distance, by Euclidean distance over
 * R, G and B (alpha is not compared); -1 when the sizes differ. With `diff`
 * non-NULL, *diff becomes a copy of `actual` with the differing pixels red
 * (only when the result is not 100 and the sizes match; caller frees). */
double amc_image_match_percent(const amc_image *expected, const amc_image *actual, double tolerance, amc_image *diff);
/* Draw a rectangle outline (thickness t) in colour 0xRRGGBBAA, clipped. */
void amc_image_rect(amc_image *img, int x1, int y1, int x2, int y2, int t, uint32_t rgba);

#endif
