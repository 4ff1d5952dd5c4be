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
		amc_image_free(&img);
	}
	return 0;
}
