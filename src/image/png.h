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
#include "image/pngfast.h"

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
/* Settling compares frames without decoding them (runtime/observe.c): `out`
 * gets the rows below nothing converted; an RGBA sample of every `step`th
 * row and column is made when amc_png_probe_sample asks for it (pngfast.h).
 * A file the fast path declines is decoded (counted by amc_png_decode_count)
 * and probed from its pixels, its sample made at once. Free with
 * amc_png_probe_free. */
int amc_png_probe_read(const void *buf, size_t len, int step, amc_png_probe *out, amc_err *e);
/* Make p->sample if it is not made yet (frames found exactly equal never
 * need one): 0, or -1 on out of memory. */
int amc_png_probe_sample(amc_png_probe *p, amc_err *e);
/* 1 when the two frames' pixels are exactly equal in rows >= y0. */
int amc_png_probe_same(const amc_png_probe *a, const amc_png_probe *b, int y0);
void amc_png_probe_free(amc_png_probe *p);
/* The probed frame's RGBA pixels, made from the probe's rows in place (no
 * second inflate): the frame's one decode, so it counts in
 * amc_png_decode_count, unless the probe itself was a full decode (a file
 * the fast path declined), which was counted then. The rows move into
 * `out` (owned by the caller, amc_image_free); free `p` as before. -1 with
 * `e` set when `p` holds no rows. */
int amc_png_probe_to_image(amc_png_probe *p, amc_image *out, amc_err *e);
/* How many amc_png_probe_read calls this process made. */
long amc_png_probe_count(void);
/* Encode RGBA8 losslessly at `level` (0-9) as the smallest of palette (at most
 * 256 colours), RGB (opaque) or RGBA, one filter for the frame (None for a
 * frame of at most 4,096 colours, a UI's; else Sub or Up, chosen on sampled
 * rows), through libdeflate (pngfast.h). *out is malloc'd, owned by the caller. Every PNG
 * reader reads all three layouts. */
/* The level of captured screenshots. Measured on a 1080x2400 sim frame
 * (bench_store): libdeflate 6 writes RGB frames ~35 % smaller than zlib 1 did
 * as RGBA, in about the same time. On bench_store's seven sim screens
 * (filter None, their few-colour layout), mean bytes and deflate time (best
 * of 5, load ~5): 6: 76,299 B 11.9 ms; 7: 74,600 B 14.1 ms; 8: 73,136 B
 * 24.8 ms; 9: 72,820 B; 12: 65,776 B at ~1 s. 7 takes 2 % off every stored
 * step for 2 ms; 8 and up cost more than they save. Sub, Up, Paeth, Average
 * and a per-row filter choice were all 16-47 % larger than None there. */
#define AMC_PNG_CAPTURE_LEVEL 7
int amc_png_encode(const amc_image *img, int level, unsigned char **out, size_t *len, amc_err *e);
/* How many amc_png_encode calls this process made (tests count the work of an
 * MCP observe: a frame it reuses is neither decoded nor encoded again). */
long amc_png_encode_count(void);
/* The same through libpng and zlib (RGBA, adaptive filters at level >= 4): what
 * `screencap -p` sends at level 6, the baseline the benches compare with. */
int amc_png_encode_libpng(const amc_image *img, int level, unsigned char **out, size_t *len, amc_err *e);

#endif
