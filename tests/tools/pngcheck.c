/* pngcheck - test helper: exit 0 when every argument is a PNG amc can decode,
 * printing "WIDTHxHEIGHT path" for each. */
#include <stdio.h>

#include "image/png.h"

int main(int argc, char **argv)
{
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		amc_image img;
		amc_err e;
		if (amc_png_decode_file(argv[i], &img, &e) != 0) {
			printf("BAD %s: %s\n", argv[i], e.msg);
			rc = 1;
			continue;
		}
		printf("%dx%d %s\n", img.w, img.h, argv[i]);
		amc_image_free(&img);
	}
	return argc > 1 ? rc : 2;
}
