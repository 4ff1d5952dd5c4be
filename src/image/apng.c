/* apng.c - APNG out of compressed RGBA frames (apng.h). Chunks as the APNG
 * specification lays them out: IHDR, acTL, then per frame fcTL and its data
 * (IDAT for the first, fdAT with a sequence number after), IEND; fcTL and
 * fdAT share one sequence counter from 0. */
#include "image/apng.h"

#include <libdeflate.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

#define APNG_LEVEL 6 /* flat phone screens: level 6 is a third smaller than 1 and fast enough per frame */

void amc_apng_frame_free(amc_apng_frame *f)
{
	if (!f)
		return;
	free(f->z);
	memset(f, 0, sizeof *f);
}

int amc_apng_frame_pack(const amc_image *img, amc_apng_frame *f, amc_err *e)
{
	memset(f, 0, sizeof *f);
	if (!img || !img->px || img->w <= 0 || img->h <= 0)
		return amc_err_set(e, AMC_EUSAGE, "no frame to record");
	size_t stride = (size_t)img->w * 4, rawlen = (size_t)img->h * (stride + 1);
	unsigned char *raw = malloc(rawlen);
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(APNG_LEVEL);
	if (!raw || !c) {
		free(raw);
		if (c)
			libdeflate_free_compressor(c);
		return amc_err_set(e, AMC_EENV, "out of memory packing a %dx%d frame", img->w, img->h);
	}
	/* Up filter: a phone screen's rows repeat, so most bytes become 0 */
	for (int y = 0; y < img->h; y++) {
		unsigned char *o = raw + (size_t)y * (stride + 1);
		const unsigned char *row = img->px + (size_t)y * stride, *up = y ? row - stride : NULL;
		o[0] = 2;
		for (size_t x = 0; x < stride; x++)
			o[1 + x] = (unsigned char)(row[x] - (up ? up[x] : 0));
	}
	size_t bound = libdeflate_zlib_compress_bound(c, rawlen);
	f->z = malloc(bound);
	size_t n = f->z ? libdeflate_zlib_compress(c, raw, rawlen, f->z, bound) : 0;
	free(raw);
	libdeflate_free_compressor(c);
	if (!n) {
		amc_apng_frame_free(f);
		return amc_err_set(e, AMC_EENV, "out of memory packing a %dx%d frame", img->w, img->h);
	}
	unsigned char *shrunk = realloc(f->z, n);
	if (shrunk)
		f->z = shrunk;
	f->zlen = n;
	f->w = img->w;
	f->h = img->h;
	return 0;
}

static void put32(amc_sb *sb, uint32_t v)
{
	unsigned char b[4] = { (unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
			       (unsigned char)v };
	amc_sb_append(sb, (const char *)b, 4);
}

static void put16(amc_sb *sb, unsigned v)
{
	unsigned char b[2] = { (unsigned char)(v >> 8), (unsigned char)v };
	amc_sb_append(sb, (const char *)b, 2);
}

/* A chunk: length, type, data, CRC over type and data. `data` may be split
 * in a head (sequence number) and a body. */
static void chunk(amc_sb *sb, const char *type, const unsigned char *head, size_t hn, const unsigned char *body,
		  size_t bn)
{
	put32(sb, (uint32_t)(hn + bn));
	size_t at = sb->len;
	amc_sb_append(sb, type, 4);
	if (hn)
		amc_sb_append(sb, (const char *)head, hn);
	if (bn)
		amc_sb_append(sb, (const char *)body, bn);
	put32(sb, libdeflate_crc32(0, sb->buf + at, sb->len - at));
}

static void be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

int amc_apng_assemble(const amc_apng_frame *frames, size_t n, unsigned char **out, size_t *len, amc_err *e)
{
	*out = NULL;
	*len = 0;
	if (!n || !frames)
		return amc_err_set(e, AMC_EUSAGE, "a recording needs at least one frame");
	int w = frames[0].w, h = frames[0].h;
	for (size_t i = 0; i < n; i++)
		if (frames[i].w != w || frames[i].h != h || !frames[i].z)
			return amc_err_set(e, AMC_EUSAGE, "frame %zu is %dx%d, the recording %dx%d", i, frames[i].w,
					   frames[i].h, w, h);
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_append(&sb, "\x89PNG\r\n\x1a\n", 8);
	unsigned char b[26];
	be32(b, (uint32_t)w);
	be32(b + 4, (uint32_t)h);
	b[8] = 8, b[9] = 6, b[10] = 0, b[11] = 0, b[12] = 0; /* 8-bit RGBA, deflate, adaptive, not interlaced */
	chunk(&sb, "IHDR", b, 13, NULL, 0);
	be32(b, (uint32_t)n);
	be32(b + 4, 0); /* loop forever */
	chunk(&sb, "acTL", b, 8, NULL, 0);
	uint32_t seq = 0;
	for (size_t i = 0; i < n; i++) {
		int d = frames[i].delay_ms < 1 ? 1 : frames[i].delay_ms > 65535 ? 65535 : frames[i].delay_ms;
		amc_sb fc;
		amc_sb_init(&fc);
		put32(&fc, seq++);
		put32(&fc, (uint32_t)w);
		put32(&fc, (uint32_t)h);
		put32(&fc, 0);
		put32(&fc, 0);
		put16(&fc, (unsigned)d);
		put16(&fc, 1000);
		amc_sb_putc(&fc, 0); /* dispose NONE */
		amc_sb_putc(&fc, 0); /* blend SOURCE: every frame is whole */
		chunk(&sb, "fcTL", (const unsigned char *)fc.buf, fc.len, NULL, 0);
		amc_sb_free(&fc);
		if (i == 0) {
			chunk(&sb, "IDAT", NULL, 0, frames[i].z, frames[i].zlen);
		} else {
			be32(b, seq++);
			chunk(&sb, "fdAT", b, 4, frames[i].z, frames[i].zlen);
		}
	}
	chunk(&sb, "IEND", NULL, 0, NULL, 0);
	*len = sb.len;
	*out = (unsigned char *)amc_sb_detach(&sb);
	return 0;
}
