#include "image/image.h"

#include <stdlib.h>
#include <string.h>

#include "image/framebuf.h"

static int check_dims(int w, int h, amc_err *e)
{
	if (w <= 0 || h <= 0)
		return amc_err_set(e, AMC_EUSAGE, "image size %dx%d is empty", w, h);
	if (w > AMC_IMAGE_MAX_SIDE || h > AMC_IMAGE_MAX_SIDE ||
	    (uint64_t)w * (uint64_t)h > AMC_IMAGE_MAX_PIXELS)
		return amc_err_set(e, AMC_EUSAGE, "image size %dx%d is too large (at most %d px a side and %u Mpx)",
				   w, h, AMC_IMAGE_MAX_SIDE, AMC_IMAGE_MAX_PIXELS >> 20);
	return 0;
}

int amc_image_alloc(amc_image *img, int w, int h, amc_err *e)
{
	img->w = img->h = 0;
	img->px = NULL;
	if (check_dims(w, h, e) != 0)
		return -1;
	img->px = calloc((size_t)w * (size_t)h, 4);
	if (!img->px)
		return amc_err_set(e, AMC_EENV, "out of memory for a %dx%d image", w, h);
	img->w = w;
	img->h = h;
	return 0;
}

void amc_image_free(amc_image *img)
{
	if (!img)
		return;
	amc_framebuf_put(img->px); /* kept for the next frame while a device is open */
	img->px = NULL;
	img->w = img->h = 0;
}

int amc_image_copy(const amc_image *src, amc_image *dst, amc_err *e)
{
	if (amc_image_alloc(dst, src->w, src->h, e) != 0)
		return -1;
	memcpy(dst->px, src->px, (size_t)src->w * (size_t)src->h * 4);
	return 0;
}

static int row_start(int y0, int h)
{
	if (y0 < 0)
		return 0;
	return y0 > h ? h : y0;
}

double amc_image_diff_fraction(const amc_image *a, const amc_image *b, int y0, int tol)
{
	if (!a->px || !b->px || a->w != b->w || a->h != b->h)
		return 1.0;
	int start = row_start(y0, a->h);
	size_t n = (size_t)a->w * (size_t)(a->h - start);
	if (n == 0)
		return 0.0;
	const unsigned char *p = a->px + (size_t)start * a->w * 4;
	const unsigned char *q = b->px + (size_t)start * b->w * 4;
	size_t diff = 0;
	for (size_t i = 0; i < n; i++, p += 4, q += 4) {
		/* Fast path: identical pixels are the common case when settling. */
		if (!memcmp(p, q, 4))
			continue;
		for (int c = 0; c < 4; c++) {
			if (abs((int)p[c] - (int)q[c]) > tol) {
				diff++;
				break;
			}
		}
	}
	return (double)diff / (double)n;
}

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

uint64_t amc_image_hash(const amc_image *img, int y0)
{
	uint64_t h = 14695981039346656037ull;
	unsigned char dims[8];
	uint32_t w = (uint32_t)img->w, ht = (uint32_t)img->h;
	for (int i = 0; i < 4; i++) {
		dims[i] = (unsigned char)(w >> (8 * i));
		dims[4 + i] = (unsigned char)(ht >> (8 * i));
	}
	h = fnv(h, dims, sizeof dims);
	if (!img->px)
		return h;
	int start = row_start(y0, img->h);
	return fnv(h, img->px + (size_t)start * img->w * 4, (size_t)img->w * (size_t)(img->h - start) * 4);
}

/* Boxes up to this many source pixels divide by a reciprocal multiply. */
#define BOX_EXACT_N 4096

int amc_image_scale_fit(const amc_image *src, int max_w, int max_h, amc_image *dst, amc_err *e)
{
	if (!src->px || src->w <= 0 || src->h <= 0)
		return amc_err_set(e, AMC_EUSAGE, "cannot scale an empty image");
	if (max_w <= 0 || max_h <= 0)
		return amc_err_set(e, AMC_EUSAGE, "scale target %dx%d is empty", max_w, max_h);
	int w = src->w, h = src->h;
	if (w > max_w || h > max_h) {
		/* Compare ratios in integers so the result never exceeds the box. */
		if ((int64_t)max_w * src->h <= (int64_t)max_h * src->w) {
			w = max_w;
			h = (int)((int64_t)src->h * max_w / src->w);
		} else {
			h = max_h;
			w = (int)((int64_t)src->w * max_h / src->h);
		}
		if (w < 1)
			w = 1;
		if (h < 1)
			h = 1;
	}
	if (amc_image_alloc(dst, w, h, e) != 0)
		return -1;
	if (w == src->w && h == src->h) {
		memcpy(dst->px, src->px, (size_t)w * h * 4);
		return 0;
	}
	/* Box filter: each destination pixel averages the source rectangle it
	 * covers, rounded half up. Done a destination row at a time: the source
	 * rows of its band are summed column by column into acc, then each sum is
	 * divided by a reciprocal multiply instead of a division (exact for boxes
	 * of at most BOX_EXACT_N pixels; larger ones divide). A 1080x2400 frame to
	 * 461x1024 (MCP's image) went from ~10 ms to ~4 ms here, warm (issue 31). */
	int *sx = malloc(((size_t)w + 1) * sizeof *sx);
	uint64_t *acc = malloc((size_t)w * 4 * sizeof *acc);
	if (!sx || !acc) {
		free(sx);
		free(acc);
		amc_image_free(dst);
		return amc_err_set(e, AMC_EENV, "out of memory scaling a %dx%d image", src->w, src->h);
	}
	for (int x = 0; x <= w; x++)
		sx[x] = (int)((int64_t)x * src->w / w);
	for (int y = 0; y < h; y++) {
		int sy0 = (int)((int64_t)y * src->h / h);
		int sy1 = (int)((int64_t)(y + 1) * src->h / h);
		if (sy1 <= sy0)
			sy1 = sy0 + 1;
		memset(acc, 0, (size_t)w * 4 * sizeof *acc);
		for (int sy = sy0; sy < sy1; sy++) {
			const unsigned char *row = src->px + (size_t)sy * src->w * 4;
			for (int x = 0; x < w; x++) {
				int x0 = sx[x], x1 = sx[x + 1] > x0 ? sx[x + 1] : x0 + 1;
				const unsigned char *p = row + (size_t)x0 * 4;
				uint64_t *a = acc + (size_t)x * 4;
				uint32_t r = 0, g = 0, b = 0, al = 0; /* at most src->w * 255 per row */
				for (int k = x0; k < x1; k++, p += 4) {
					r += p[0];
					g += p[1];
					b += p[2];
					al += p[3];
				}
				a[0] += r;
				a[1] += g;
				a[2] += b;
				a[3] += al;
			}
		}
		unsigned char *d = dst->px + (size_t)y * w * 4;
		for (int x = 0; x < w; x++, d += 4) {
			int x0 = sx[x], x1 = sx[x + 1] > x0 ? sx[x + 1] : x0 + 1;
			uint64_t n = (uint64_t)(sy1 - sy0) * (uint64_t)(x1 - x0);
			const uint64_t *a = acc + (size_t)x * 4;
			if (n <= BOX_EXACT_N) {
				/* (v + n/2) / n as (v + n/2) * m >> 32, m = floor(2^32 / n) + 1:
				 * exact while (v + n/2) * (m * n - 2^32) < 2^32, which holds
				 * for v + n/2 < 256 n and n <= 4096 */
				uint64_t m = (UINT64_C(1) << 32) / n + 1;
				for (int c = 0; c < 4; c++)
					d[c] = (unsigned char)(((a[c] + n / 2) * m) >> 32);
			} else {
				for (int c = 0; c < 4; c++)
					d[c] = (unsigned char)((a[c] + n / 2) / n);
			}
		}
	}
	free(sx);
	free(acc);
	return 0;
}

int amc_image_crop(const amc_image *src, int x, int y, int w, int h, amc_image *dst, amc_err *e)
{
	if (x < 0 || y < 0 || w <= 0 || h <= 0 || x > src->w - w || y > src->h - h)
		return amc_err_set(e, AMC_EUSAGE, "crop %dx%d+%d+%d is outside the %dx%d image", w, h, x, y,
				   src->w, src->h);
	if (amc_image_alloc(dst, w, h, e) != 0)
		return -1;
	for (int r = 0; r < h; r++)
		memcpy(dst->px + (size_t)r * w * 4, src->px + ((size_t)(y + r) * src->w + x) * 4, (size_t)w * 4);
	return 0;
}

static void fill(amc_image *img, int x1, int y1, int x2, int y2, const unsigned char c[4])
{
	if (x1 < 0)
		x1 = 0;
	if (y1 < 0)
		y1 = 0;
	if (x2 > img->w)
		x2 = img->w;
	if (y2 > img->h)
		y2 = img->h;
	for (int y = y1; y < y2; y++) {
		unsigned char *p = img->px + ((size_t)y * img->w + x1) * 4;
		for (int x = x1; x < x2; x++, p += 4)
			memcpy(p, c, 4);
	}
}

void amc_image_rect(amc_image *img, int x1, int y1, int x2, int y2, int t, uint32_t rgba)
{
	if (!img->px || t <= 0)
		return;
	if (x1 > x2) {
		int s = x1;
		x1 = x2;
		x2 = s;
	}
	if (y1 > y2) {
		int s = y1;
		y1 = y2;
		y2 = s;
	}
	/* Clamp first so the arithmetic below cannot overflow on wild input. */
	if (t > AMC_IMAGE_MAX_SIDE)
		t = AMC_IMAGE_MAX_SIDE;
	x1 = x1 < -t ? -t : (x1 > img->w + t ? img->w + t : x1);
	x2 = x2 < -t ? -t : (x2 > img->w + t ? img->w + t : x2);
	y1 = y1 < -t ? -t : (y1 > img->h + t ? img->h + t : y1);
	y2 = y2 < -t ? -t : (y2 > img->h + t ? img->h + t : y2);
	const unsigned char c[4] = {(unsigned char)(rgba >> 24), (unsigned char)(rgba >> 16),
				    (unsigned char)(rgba >> 8), (unsigned char)rgba};
	/* Outline drawn inside [x1,x2) x [y1,y2), so a box never grows past its bounds. */
	fill(img, x1, y1, x2, y1 + t, c);
	fill(img, x1, y2 - t, x2, y2, c);
	fill(img, x1, y1, x1 + t, y2, c);
	fill(img, x2 - t, y1, x2, y2, c);
}

double amc_image_match_percent(const amc_image *expected, const amc_image *actual, double tolerance, amc_image *diff)
{
	if (diff)
		memset(diff, 0, sizeof *diff);
	if (!expected->px || !actual->px || expected->w != actual->w || expected->h != actual->h)
		return -1;
	size_t total = (size_t)expected->w * expected->h, differing = 0;
	if (!total)
		return 100;
	/* (tolerance * sqrt(255^2 * 3))^2, as ScreenshotMatch's differenceConstant */
	double limit = tolerance * tolerance * 255.0 * 255.0 * 3.0;
	amc_err e;
	for (size_t i = 0; i < total; i++) {
		const unsigned char *a = expected->px + i * 4, *b = actual->px + i * 4;
		int dr = b[0] - a[0], dg = b[1] - a[1], db = b[2] - a[2];
		if (!dr && !dg && !db)
			continue;
		if (tolerance > 0 && (double)(dr * dr + dg * dg + db * db) <= limit)
			continue;
		if (!differing++ && diff && amc_image_copy(actual, diff, &e) != 0)
			diff = NULL;
		if (diff) {
			unsigned char *p = diff->px + i * 4;
			p[0] = 255, p[1] = 0, p[2] = 0, p[3] = 255;
		}
	}
	return 100.0 - (double)differing * 100.0 / (double)total;
}
