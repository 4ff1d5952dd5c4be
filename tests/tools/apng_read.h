/* apng_read.h - tests only: read back the APNG files amc writes
 * (src/image/apng.h) - chunk CRCs checked, each frame's data inflated to the
 * size IHDR implies and hashed - so a test can tell how many frames a
 * recording holds and whether they differ. Not a general APNG reader. */
#ifndef AMC_TEST_APNG_READ_H
#define AMC_TEST_APNG_READ_H

#include <libdeflate.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t apng_rd32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* 0 and *frames (fcTL count == data chunks), the size and each frame's FNV-1a
 * hash of its unfiltered-as-stored rows (up to maxh of them); -1 when the
 * file is not such an APNG (*why says what). */
static int apng_scan(const unsigned char *b, size_t n, int *w, int *h, int *frames, uint64_t *hashes, int maxh,
		     const char **why)
{
	*frames = 0;
	*w = *h = 0;
	int fctl = 0, actl = -1;
	if (n < 8 || memcmp(b, "\x89PNG\r\n\x1a\n", 8)) {
		*why = "not a PNG";
		return -1;
	}
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	size_t at = 8, rawlen = 0;
	unsigned char *raw = NULL;
	int rc = -1;
	*why = "no IEND";
	while (at + 12 <= n) {
		uint32_t len = apng_rd32(b + at);
		if (len > n - at - 12) {
			*why = "a chunk runs past the end";
			break;
		}
		const unsigned char *type = b + at + 4, *data = b + at + 8;
		if (apng_rd32(data + len) != libdeflate_crc32(0, type, len + 4)) {
			*why = "bad CRC";
			break;
		}
		if (!memcmp(type, "IHDR", 4) && len == 13) {
			*w = (int)apng_rd32(data);
			*h = (int)apng_rd32(data + 4);
			if (*w <= 0 || *h <= 0 || *w > 8192 || *h > 8192 || data[8] != 8 || data[9] != 6) {
				*why = "not 8-bit RGBA";
				break;
			}
			rawlen = (size_t)*h * ((size_t)*w * 4 + 1);
			raw = malloc(rawlen);
		} else if (!memcmp(type, "acTL", 4) && len == 8) {
			actl = (int)apng_rd32(data);
		} else if (!memcmp(type, "fcTL", 4)) {
			fctl++;
		} else if ((!memcmp(type, "IDAT", 4) || !memcmp(type, "fdAT", 4)) && raw) {
			size_t skip = type[0] == 'f' ? 4 : 0, got = 0;
			if (len < skip || libdeflate_zlib_decompress(d, data + skip, len - skip, raw, rawlen, &got) !=
						  LIBDEFLATE_SUCCESS || got != rawlen) {
				*why = "a frame does not inflate to its size";
				break;
			}
			uint64_t hh = 1469598103934665603ull;
			for (size_t i = 0; i < rawlen; i++)
				hh = (hh ^ raw[i]) * 1099511628211ull;
			if (*frames < maxh)
				hashes[*frames] = hh;
			(*frames)++;
		} else if (!memcmp(type, "IEND", 4)) {
			if (actl != *frames || fctl != *frames)
				*why = "acTL, fcTL and the frames disagree";
			else
				rc = 0;
			break;
		}
		at += 12 + len;
	}
	free(raw);
	libdeflate_free_decompressor(d);
	return rc;
}

#endif
