/* Fuzz target: the PNG decoder (image/png.c), header probe and full decode.
 * Differential: whatever the fast path (pngfast.c) decodes, libpng must decode
 * to the same pixels, so a fast-path bug shows as a crash here, not as a
 * silently wrong screenshot. (libpng may refuse a file the fast path takes,
 * e.g. one with a broken ancillary chunk it reads and we skip.) */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "image/png.h"
#include "image/pngfast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_err e;
	amc_image img, ref;
	int w, h;
	(void)amc_png_info(data, size, &w, &h, &e);
	if (amc_png_decode(data, size, &img, &e) == 0) {
		/* Touch every pixel so a short buffer would show under ASan. */
		volatile unsigned sum = 0;
		for (size_t i = 0; i < (size_t)img.w * (size_t)img.h * 4; i++)
			sum += img.px[i];
		(void)sum;
		if (amc_png_decode_libpng(data, size, &ref, &e) == 0) {
			if (ref.w != img.w || ref.h != img.h ||
			    memcmp(ref.px, img.px, (size_t)img.w * (size_t)img.h * 4) != 0)
				abort(); /* the fast path and libpng disagree */
			amc_image_free(&ref);
		}
		/* The encoder is lossless on whatever decodes (palette, RGB or RGBA
		 * by content), and its output takes the fast path back. */
		unsigned char *enc;
		size_t elen;
		if ((size_t)img.w * (size_t)img.h <= 65536 && amc_png_encode(&img, 1, &enc, &elen, &e) == 0) {
			long d0 = amc_pngfast_declined();
			if (amc_png_decode(enc, elen, &ref, &e) != 0 || amc_pngfast_declined() != d0 ||
			    memcmp(ref.px, img.px, (size_t)img.w * (size_t)img.h * 4) != 0)
				abort();
			amc_image_free(&ref);
			free(enc);
		}
		amc_image_free(&img);
	}
	/* Settling's probe reads the same files without converting them. */
	amc_png_probe pr;
	if (amc_png_probe_read(data, size, 2, &pr, &e) == 0)
		amc_png_probe_free(&pr);
	return 0;
}
