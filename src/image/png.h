/* png.h - PNG decode/encode, hardened for untrusted input: 8-bit frames (what
 * phones send) through libdeflate and our own unfiltering (pngfast.h), the rest
 * and all encoding through libpng.
 *
 * Decoding refuses input over AMC_PNG_MAX_BYTES before touching it, refuses
 * images over the amc_image limits from the header before allocating, and turns
 * every libpng error (corrupt data, bad CRC, truncation) into an amc_err with
 * code AMC_EUSAGE; libpng never prints and never aborts the process. */
#ifndef AMC_PNG_H
#define AMC_PNG_H

#include <stddef.h>
#include "image/image.h"

#define AMC_PNG_MAX_BYTES (64u * 1024u * 1024u)

/* Read width and height from the header only. */
int amc_png_info(const void *buf, size_t len, int *w, int *h, amc_err *e);
/* Decode any PNG (palette, grey, 16-bit, interlaced, with or without alpha) to RGBA8. */
int amc_png_decode(const void *buf, size_t len, amc_image *out, amc_err *e);
/* The same with libpng alone, never the fast path (pngfast.h): for tests and the
 * fuzz target, which compare the two; not counted. */
int amc_png_decode_libpng(const void *buf, size_t len, amc_image *out, amc_err *e);
int amc_png_decode_file(const char *path, amc_image *out, amc_err *e);
/* How many amc_png_decode calls this process made (files included). */
long amc_png_decode_count(void);
/* Encode RGBA8 (alpha kept) at zlib `level` (0-9; 1 is a good speed/size choice for
 * screenshots). *out is malloc'd, owned by the caller. */
/* The level of captured screenshots: speed over size (a 1080x2400 frame in
 * ~28 ms at -O2, against ~100 ms at 6). */
#define AMC_PNG_CAPTURE_LEVEL 1
int amc_png_encode(const amc_image *img, int level, unsigned char **out, size_t *len, amc_err *e);

#endif
