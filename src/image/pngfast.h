/* pngfast.h - the fast path of PNG decoding: whole-buffer inflate (libdeflate)
 * and our own unfiltering, for the PNGs phones send (8-bit, not interlaced).
 *
 * Why: profiling a 1080x2400 screencap decode with libpng showed zlib's
 * streaming inflate and libpng's per-row machinery taking ~95 ms of a 232 ms
 * observation; libdeflate inflates the whole buffer at once, several times
 * faster, and unfiltering into the output buffer in place saves a copy.
 *
 * The fast path is strict: anything unusual (another depth, interlacing, a CRC
 * mismatch, a stream that is short or long, an unknown critical chunk, a tRNS
 * on a grey or RGB image) is declined and amc_png_decode asks libpng, which
 * stays the judge of every odd file. amc_png_decode (png.h) is the entry
 * point; this header is for png.c, its test and the fuzz target. */
#ifndef AMC_PNGFAST_H
#define AMC_PNGFAST_H

#include <stddef.h>
#include "image/image.h"

/* Decode `buf` (whose header amc_png_info already validated as w x h) into
 * `out` (RGBA8, malloc'd, owned by the caller). Returns 0 when decoded, 1 when
 * the fast path declines the file (out untouched, no error set), -1 with `e`
 * set when memory ran out. */
int amc_pngfast_decode(const unsigned char *buf, size_t len, int w, int h, amc_image *out, amc_err *e);

/* A frame read for comparing, not for showing (settling): its rows inflated
 * and unfiltered in the file's own layout (nothing converted), and, when
 * asked for, an RGBA sample of every `step`th row and column. Equal rows
 * mean equal pixels. */
typedef struct amc_png_probe {
	int w, h;
	int format;             /* PNG colour type of `rows`; -1 when rows are RGBA from a full decode */
	size_t row_bytes;
	unsigned char *rows;    /* h * row_bytes, malloc'd with room for h * w RGBA pixels */
	unsigned char pal[256 * 4]; /* the palette (format 3): equal indices mean equal pixels only with it */
	int step;               /* the sample's: every step-th row and column */
	amc_image sample;       /* made when first asked for (amc_png_probe_sample): frames that are
				 * exactly equal never need it */
} amc_png_probe;

/* Fill `out` from `buf` (header already validated as w x h). 0, 1 when the
 * fast path declines (out empty, no error), -1 on out of memory. */
int amc_pngfast_probe(const unsigned char *buf, size_t len, int w, int h, int step, amc_png_probe *out, amc_err *e);

/* Make p->sample from p->rows if it is not made yet (nothing when the rows
 * are gone). 0, or -1 on out of memory. */
int amc_pngfast_probe_sample(amc_png_probe *p, amc_err *e);

/* Turn a probe from amc_pngfast_probe (format >= 0) or from a full decode
 * (format -1) into the frame's RGBA pixels, in place: the rows move into
 * `out` (owned by the caller, amc_image_free) and `p` keeps its sample
 * (free it with amc_png_probe_free). The same pixels amc_pngfast_decode
 * gives for the file, without inflating it again. */
void amc_pngfast_probe_take(amc_png_probe *p, amc_image *out);

/* Encode `img` (already checked by amc_png_encode) as the smallest of three
 * lossless layouts: a palette when it has at most 256 colours, RGB when it is
 * opaque, else RGBA; one filter for the frame (Sub, Up or Paeth, chosen on a
 * sample of rows); one IDAT compressed by libdeflate at `level` (0-12). */
int amc_pngfast_encode(const amc_image *img, int level, unsigned char **out, size_t *len, amc_err *e);

/* How many decodes the fast path declined (tests check screencaps never are). */
long amc_pngfast_declined(void);

#endif
