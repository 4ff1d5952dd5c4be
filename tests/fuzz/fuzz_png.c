/* Fuzz target: the PNG decoder (image/png.c), header probe and full decode. */
#include <stddef.h>
#include <stdint.h>

#include "image/png.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_err e;
	amc_image img;
	int w, h;
	(void)amc_png_info(data, size, &w, &h, &e);
	if (amc_png_decode(data, size, &img, &e) == 0) {
		/* Touch every pixel so a short buffer would show under ASan. */
		volatile unsigned sum = 0;
		for (size_t i = 0; i < (size_t)img.w * (size_t)img.h * 4; i++)
			sum += img.px[i];
		(void)sum;
		amc_image_free(&img);
	}
	return 0;
}
