/* rawframe.h - Android's raw screencap frames (`adb exec-out screencap`
 * without -p): a little-endian header, then the rows with no padding.
 *
 *   12-byte header (older Android):  width, height, pixel format
 *   16-byte header (newer Android):  width, height, pixel format, colour space
 *
 * Pixel formats (Android's PixelFormat): 1 RGBA_8888, 2 RGBX_8888, 3 RGB_888,
 * 4 RGB_565, 5 BGRA_8888. Which header a frame has follows from its size:
 * exactly one layout makes the byte count come out right, so anything else
 * (a short read, a header that lies about the size or the format) is refused
 * and the caller falls back to a PNG screenshot. */
#ifndef AMC_RAWFRAME_H
#define AMC_RAWFRAME_H

#include <stddef.h>
#include <stdint.h>
#include "image/image.h"
#include "util/err.h"

enum {
	AMC_RAW_RGBA_8888 = 1,
	AMC_RAW_RGBX_8888 = 2,
	AMC_RAW_RGB_888 = 3,
	AMC_RAW_RGB_565 = 4,
	AMC_RAW_BGRA_8888 = 5
};

/* Colour spaces a 16-byte header may name (Android's Dataspace): unknown,
 * sRGB and Display P3. Pixels are taken as they are in every case. */
#define AMC_RAW_DATASPACE_UNKNOWN 0u
#define AMC_RAW_DATASPACE_SRGB 142671872u
#define AMC_RAW_DATASPACE_DISPLAY_P3 143261696u

/* Bytes per pixel of a format, 0 when amc does not know it. */
int amc_rawframe_bpp(uint32_t format);
/* Decode a raw frame into RGBA (out owned by the caller; 565 widened by bit
 * replication, as Android's own PNG encoder does). *header_len (may be NULL)
 * gets 12 or 16. AMC_EUSAGE (bad input) saying what was wrong otherwise; out is untouched. */
int amc_rawframe_decode(const void *buf, size_t len, amc_image *out, int *header_len, amc_err *e);
/* Encode img as a raw frame (for the adb stand-in and tests; caller frees
 * *out): header_len 12 or 16; 565 keeps the top bits of each channel. */
int amc_rawframe_encode(const amc_image *img, uint32_t format, int header_len, unsigned char **out,
			size_t *len, amc_err *e);

#endif
