/* test_jpeg.c - image/jpeg.c: an encoded image decodes (with libjpeg) to the
 * same size and about the same colours, alpha is composited over white, a
 * lower quality is smaller, and bad input is an error, never a print or exit. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "image/jpeg.h"
#include "tap.h"

static void fill(amc_image *img, int alpha)
{
	for (int y = 0; y < img->h; y++)
		for (int x = 0; x < img->w; x++) {
			unsigned char *p = img->px + ((size_t)y * img->w + x) * 4;
			p[0] = (unsigned char)(x * 255 / img->w);
			p[1] = 40;
			p[2] = (unsigned char)(y * 255 / img->h);
			p[3] = (unsigned char)alpha;
		}
}

typedef struct derr {
	struct jpeg_error_mgr mgr;
	jmp_buf jump;
} derr;

static void derr_exit(j_common_ptr c)
{
	longjmp(((derr *)c->err)->jump, 1);
}

/* Decode with libjpeg: width, height and the pixel at (x, y). 0 on success. */
static int decode(const unsigned char *buf, size_t len, int *w, int *h, int x, int y, unsigned char rgb[3])
{
	struct jpeg_decompress_struct d;
	derr je;
	d.err = jpeg_std_error(&je.mgr);
	je.mgr.error_exit = derr_exit;
	unsigned char *volatile row = NULL;
	if (setjmp(je.jump)) {
		jpeg_destroy_decompress(&d);
		free(row);
		return -1;
	}
	jpeg_create_decompress(&d);
	jpeg_mem_src(&d, buf, (unsigned long)len);
	jpeg_read_header(&d, TRUE);
	d.out_color_space = JCS_RGB;
	jpeg_start_decompress(&d);
	*w = (int)d.output_width;
	*h = (int)d.output_height;
	row = malloc((size_t)d.output_width * 3);
	while (d.output_scanline < d.output_height) {
		int at = (int)d.output_scanline;
		JSAMPROW rows[1] = { row };
		jpeg_read_scanlines(&d, rows, 1);
		if (at == y)
			memcpy(rgb, row + x * 3, 3);
	}
	jpeg_finish_decompress(&d);
	jpeg_destroy_decompress(&d);
	free(row);
	return 0;
}

static int near(int a, int b)
{
	return abs(a - b) <= 12;
}

int main(void)
{
	amc_image img = { 0 };
	amc_err e = { 0 };
	ok(amc_image_alloc(&img, 270, 600, &e) == 0, "an image");
	fill(&img, 255);
	unsigned char *hi = NULL, *lo = NULL;
	size_t hlen = 0, llen = 0;
	ok(amc_jpeg_encode(&img, 90, &hi, &hlen, &e) == 0, "encode at quality 90: %s", e.msg);
	ok(hlen > 100 && hi[0] == 0xFF && hi[1] == 0xD8 && hi[hlen - 2] == 0xFF && hi[hlen - 1] == 0xD9,
	   "a JPEG stream (SOI ... EOI), %zu bytes", hlen);
	int w = 0, h = 0;
	unsigned char rgb[3] = { 0 };
	ok(decode(hi, hlen, &w, &h, 200, 300, rgb) == 0, "libjpeg decodes it");
	is_int(w, 270, "width kept");
	is_int(h, 600, "height kept");
	ok(near(rgb[0], 200 * 255 / 270) && near(rgb[1], 40) && near(rgb[2], 300 * 255 / 600),
	   "colours kept: %d %d %d", rgb[0], rgb[1], rgb[2]);
	ok(amc_jpeg_encode(&img, 30, &lo, &llen, &e) == 0, "encode at quality 30");
	ok(llen < hlen, "lower quality, smaller (%zu < %zu)", llen, hlen);
	free(hi);
	free(lo);

	fill(&img, 0);
	ok(amc_jpeg_encode(&img, 90, &hi, &hlen, &e) == 0, "a transparent image encodes");
	int drc = decode(hi, hlen, &w, &h, 10, 10, rgb);
	ok(drc == 0 && rgb[0] > 240 && rgb[1] > 240 && rgb[2] > 240,
	   "transparent pixels come out white: %d %d %d", rgb[0], rgb[1], rgb[2]);
	free(hi);

	ok(amc_jpeg_encode(&img, 0, &hi, &hlen, &e) != 0 && e.code == AMC_EUSAGE, "quality 0 is refused");
	ok(amc_jpeg_encode(&img, 101, &hi, &hlen, &e) != 0, "quality 101 is refused");
	amc_image empty = { 0 };
	ok(amc_jpeg_encode(&empty, 80, &hi, &hlen, &e) != 0 && hi == NULL, "an empty image is refused");
	amc_image_free(&img);
	return done_testing();
}
