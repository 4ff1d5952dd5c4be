/* Fuzz target: the raw screencap frame parser (image/rawframe.c). A frame it
 * takes must have exactly the bytes its header promises, and re-encode to the
 * same size. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "image/rawframe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_err e;
	amc_image img;
	int hl = 0;
	if (amc_rawframe_decode(data, size, &img, &hl, &e) == 0) {
		uint32_t f = (uint32_t)data[8] | (uint32_t)data[9] << 8 | (uint32_t)data[10] << 16 |
			     (uint32_t)data[11] << 24;
		size_t want = (size_t)hl + (size_t)img.w * (size_t)img.h * (size_t)amc_rawframe_bpp(f);
		if ((hl != 12 && hl != 16) || want != size)
			abort();
		unsigned char *back = NULL;
		size_t blen = 0;
		if (amc_rawframe_encode(&img, f, hl, &back, &blen, &e) != 0 || blen != size)
			abort();
		free(back);
		amc_image_free(&img);
	}
	return 0;
}
