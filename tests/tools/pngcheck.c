/* pngcheck - test helper: exit 0 when every argument is a PNG amc can decode,
 * printing "WIDTHxHEIGHT path" for each; an animated PNG (a sim recording)
 * adds " frames=N distinct=M" (frames whose pixels differ from every other). */
#include <stdio.h>
#include <stdlib.h>

#include "image/png.h"
#include "util/fsutil.h"
#include "apng_read.h"

static void apng_line(const char *path)
{
	char *buf = NULL;
	size_t n = 0;
	amc_err e;
	if (amc_read_file(path, 512u * 1024u * 1024u, &buf, &n, &e) != 0 || n < 41 ||
	    memcmp(buf + 37, "acTL", 4)) {
		free(buf);
		return;
	}
	uint64_t hashes[4096];
	int w, h, frames;
	const char *why = "";
	if (apng_scan((const unsigned char *)buf, n, &w, &h, &frames, hashes, 4096, &why) != 0) {
		printf(" apng-bad=\"%s\"", why);
	} else {
		int distinct = 0;
		for (int i = 0; i < frames && i < 4096; i++) {
			int seen = 0;
			for (int k = 0; k < i && !seen; k++)
				seen = hashes[k] == hashes[i];
			distinct += !seen;
		}
		printf(" frames=%d distinct=%d", frames, distinct);
	}
	free(buf);
}

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
		printf("%dx%d %s", img.w, img.h, argv[i]);
		apng_line(argv[i]);
		printf("\n");
		amc_image_free(&img);
	}
	return argc > 1 ? rc : 2;
}
