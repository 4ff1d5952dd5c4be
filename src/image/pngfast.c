/* pngfast.c - PNG's fast path (pngfast.h): decode, settling's probes and
 * samples, and the encoder. Over 800 lines: the decoder, the probe and the
 * encoder share the chunk walk, the unfiltering and the kept buffers
 * (framebuf.h), and are fuzzed and tested against libpng as one unit; the
 * encoder is what would move out first. */
#include "image/pngfast.h"

#include "image/framebuf.h"

#include <libdeflate.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static atomic_long declined;

long amc_pngfast_declined(void)
{
	return atomic_load(&declined);
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int is_letter(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* A chunk's CRC covers its type and data. */
static int crc_ok(const unsigned char *chunk, uint32_t n)
{
	return libdeflate_crc32(0, chunk + 4, (size_t)n + 4) == be32(chunk + 8 + n);
}

/* Bytewise sums and floor averages of 8 (or 4) packed bytes without carries
 * crossing lanes (SWAR): the Up, Sub and Average filters a word at a time. */
#define LO7 0x7f7f7f7f7f7f7f7fULL
#define HI1 0x8080808080808080ULL
#define FE 0xfefefefefefefefeULL
static inline uint64_t add8(uint64_t a, uint64_t b)
{
	return ((a & LO7) + (b & LO7)) ^ ((a ^ b) & HI1);
}
static inline uint64_t avg8(uint64_t a, uint64_t b)
{
	return (a & b) + (((a ^ b) & FE) >> 1);
}
static inline uint32_t ld32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}
static inline void st32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

#ifdef __SSE2__
/* Paeth for 4-byte pixels with SSE2, one pixel a step in 16-bit lanes (the
 * pixel to the left is the only dependency): a 1080x2400 frame whose rows
 * are mostly Paeth (zlib 6 with adaptive filters, as phones write) took
 * ~50 ms byte by byte with branches. The tie rule is PNG's: a, then b, then c. */
static void unpaeth4(const unsigned char *in, unsigned char *out, const unsigned char *prev, size_t rb)
{
	const __m128i zero = _mm_setzero_si128();
	__m128i a = zero, c = zero;
	for (size_t i = 0; i < rb; i += 4) {
		__m128i b = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)ld32(prev + i)), zero);
		__m128i x = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)ld32(in + i)), zero);
		__m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);
		__m128i pc = _mm_add_epi16(pa, pb);
		pa = _mm_max_epi16(pa, _mm_sub_epi16(zero, pa));
		pb = _mm_max_epi16(pb, _mm_sub_epi16(zero, pb));
		pc = _mm_max_epi16(pc, _mm_sub_epi16(zero, pc));
		__m128i small = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
		__m128i use_a = _mm_cmpeq_epi16(pa, small), use_b = _mm_cmpeq_epi16(pb, small);
		__m128i bc = _mm_or_si128(_mm_and_si128(use_b, b), _mm_andnot_si128(use_b, c));
		__m128i near = _mm_or_si128(_mm_and_si128(use_a, a), _mm_andnot_si128(use_a, bc));
		a = _mm_and_si128(_mm_add_epi16(near, x), _mm_set1_epi16(0xff));
		st32(out + i, (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(a, zero)));
		c = b;
	}
}
#endif

static inline unsigned char paeth(int a, int b, int c)
{
	int p = a + b - c;
	int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
	if (pa <= pb && pa <= pc)
		return (unsigned char)a;
	return (unsigned char)(pb <= pc ? b : c);
}

/* Unfilter one row of `rb` bytes from `in` into `out`; `prev` is the previous
 * unfiltered row (NULL for the first). `out` may lie before `in` in the same
 * buffer (in place): every byte of `in` is read before the write that could
 * cover it, because writes trail reads. Returns -1 for an unknown filter. */
static int unfilter_row(int ft, const unsigned char *in, unsigned char *out, const unsigned char *prev, size_t rb,
			size_t bpp)
{
	size_t i;
	switch (ft) {
	case 0:
		memmove(out, in, rb);
		return 0;
	case 1: /* Sub */
		if (bpp == 4) {
			uint32_t left = 0;
			for (i = 0; i < rb; i += 4) {
				left = (uint32_t)add8(ld32(in + i), left);
				st32(out + i, left);
			}
		} else {
			for (i = 0; i < bpp && i < rb; i++)
				out[i] = in[i];
			for (; i < rb; i++)
				out[i] = (unsigned char)(in[i] + out[i - bpp]);
		}
		return 0;
	case 2: /* Up */
		if (!prev) {
			memmove(out, in, rb);
			return 0;
		}
		for (i = 0; i + 8 <= rb; i += 8) {
			uint64_t a, b;
			memcpy(&a, in + i, 8);
			memcpy(&b, prev + i, 8);
			a = add8(a, b);
			memcpy(out + i, &a, 8);
		}
		for (; i < rb; i++)
			out[i] = (unsigned char)(in[i] + prev[i]);
		return 0;
	case 3: /* Average */
		if (bpp == 4 && prev) {
			uint32_t left = 0;
			for (i = 0; i < rb; i += 4) {
				left = (uint32_t)add8(ld32(in + i), avg8(left, ld32(prev + i)));
				st32(out + i, left);
			}
			return 0;
		}
		for (i = 0; i < rb; i++) {
			int a = i >= bpp ? out[i - bpp] : 0, b = prev ? prev[i] : 0;
			out[i] = (unsigned char)(in[i] + ((a + b) >> 1));
		}
		return 0;
	case 4: /* Paeth */
		if (!prev) { /* with an empty row above, Paeth is Sub */
			for (i = 0; i < rb; i++)
				out[i] = (unsigned char)(in[i] + (i >= bpp ? out[i - bpp] : 0));
			return 0;
		}
#ifdef __SSE2__
		if (bpp == 4) {
			unpaeth4(in, out, prev, rb);
			return 0;
		}
#endif
		for (i = 0; i < bpp && i < rb; i++)
			out[i] = (unsigned char)(in[i] + prev[i]);
		for (; i < rb; i++)
			out[i] = (unsigned char)(in[i] + paeth(out[i - bpp], prev[i], prev[i - bpp]));
		return 0;
	default:
		return -1;
	}
}

typedef struct scan {
	int ctype;
	size_t ncomp;               /* bytes per pixel in the file: 1..4 */
	unsigned char pal[256 * 4]; /* RGBA; entries past the palette are opaque black, as libpng gives */
	int npal;
	size_t idat_len;    /* bytes of zlib data in all IDAT chunks */
	size_t first_idat;  /* offset of the first IDAT chunk */
	int idat_chunks;
} scan;

/* Walk the chunks up to the end of the IDAT run; 0 when the fast path can take
 * the file, 1 to decline it. amc_png_decode's check_chunks already proved every
 * declared length fits the buffer. */
static int scan_chunks(const unsigned char *p, size_t len, scan *s)
{
	size_t off = 8;
	int seen_idat = 0, seen_plte = 0, seen_trns = 0;
	if (p[24] != 8 || p[26] != 0 || p[27] != 0 || p[28] != 0)
		return 1; /* depth, compression, filter method, interlace */
	s->ctype = p[25];
	switch (s->ctype) {
	case 0: s->ncomp = 1; break;
	case 2: s->ncomp = 3; break;
	case 3: s->ncomp = 1; break;
	case 4: s->ncomp = 2; break;
	case 6: s->ncomp = 4; break;
	default: return 1;
	}
	for (int i = 0; i < 256; i++) {
		memset(s->pal + i * 4, 0, 3);
		s->pal[i * 4 + 3] = 0xff;
	}
	while (len - off >= 12) {
		uint32_t n = be32(p + off);
		const unsigned char *t = p + off + 4;
		if ((size_t)n > len - off - 12)
			return 1; /* no room for the CRC: libpng's verdict */
		for (int i = 0; i < 4; i++)
			if (!is_letter(t[i]))
				return 1;
		int critical = !(t[0] & 0x20);
		if (!memcmp(t, "IDAT", 4)) {
			if (!crc_ok(p + off, n))
				return 1;
			if (!seen_idat)
				s->first_idat = off;
			seen_idat = 1;
			s->idat_len += n;
			s->idat_chunks++;
		} else if (seen_idat) {
			break; /* the image data ended; later chunks are not read (nor by libpng) */
		} else if (!memcmp(t, "IHDR", 4)) {
			if (off != 8 || !crc_ok(p + off, n))
				return 1;
		} else if (!memcmp(t, "PLTE", 4)) {
			if (seen_plte || seen_trns || n == 0 || n % 3 || n > 768 || !crc_ok(p + off, n) ||
			    (s->ctype != 3 && s->ctype != 2 && s->ctype != 6))
				return 1;
			seen_plte = 1;
			s->npal = (int)(n / 3);
			for (int i = 0; i < s->npal; i++)
				memcpy(s->pal + i * 4, t + 4 + i * 3, 3);
		} else if (!memcmp(t, "tRNS", 4)) {
			/* Only a palette's alpha table; grey and RGB colour keys go to libpng. */
			if (s->ctype != 3 || !seen_plte || seen_trns || n > (uint32_t)s->npal || !crc_ok(p + off, n))
				return 1;
			seen_trns = 1;
			for (uint32_t i = 0; i < n; i++)
				s->pal[i * 4 + 3] = t[4 + i];
		} else if (!memcmp(t, "IEND", 4)) {
			break;
		} else if (critical) {
			return 1; /* an unknown critical chunk: libpng refuses it */
		}
		off += 12 + (size_t)n;
	}
	if (!s->idat_chunks || (s->ctype == 3 && !seen_plte))
		return 1;
	return 0;
}

/* Expand `npx` pixels of `ncomp` bytes at the start of `buf` to RGBA in place,
 * from the last pixel back, so no source byte is overwritten before it is read. */
static void expand_rgba(unsigned char *buf, size_t npx, const scan *s)
{
	size_t i = npx;
	switch (s->ctype) {
	case 0:
		while (i--) {
			unsigned char g = buf[i];
			buf[i * 4] = buf[i * 4 + 1] = buf[i * 4 + 2] = g;
			buf[i * 4 + 3] = 0xff;
		}
		break;
	case 2:
		while (i--) {
			unsigned char r = buf[i * 3], g = buf[i * 3 + 1], b = buf[i * 3 + 2];
			buf[i * 4] = r;
			buf[i * 4 + 1] = g;
			buf[i * 4 + 2] = b;
			buf[i * 4 + 3] = 0xff;
		}
		break;
	case 3:
		while (i--)
			memcpy(buf + i * 4, s->pal + (size_t)buf[i] * 4, 4);
		break;
	case 4:
		while (i--) {
			unsigned char g = buf[i * 2], a = buf[i * 2 + 1];
			buf[i * 4] = buf[i * 4 + 1] = buf[i * 4 + 2] = g;
			buf[i * 4 + 3] = a;
		}
		break;
	default:
		break;
	}
}

/* Inflate and unfilter into one malloc'd buffer big enough for the RGBA
 * expansion too; on success *px holds h rows of w * s->ncomp bytes. 0, 1
 * (declined; counted) or -1 (out of memory). */
static int inflate_rows(const unsigned char *buf, size_t len, int w, int h, scan *s, unsigned char **px_out,
			amc_err *e)
{
	*px_out = NULL;
	if (scan_chunks(buf, len, s) != 0)
		goto decline;
	size_t rb = (size_t)w * s->ncomp, raw_len = (size_t)h * (rb + 1);
	size_t rgba_len = (size_t)w * (size_t)h * 4;
	const unsigned char *z = buf + s->first_idat + 8;
	unsigned char *joined = NULL;
	if (s->idat_chunks > 1) { /* phones write 8 KB IDATs: join them for the whole-buffer inflate */
		joined = amc_framebuf_get(s->idat_len);
		if (!joined)
			return amc_err_set(e, AMC_EENV, "out of memory decoding a PNG");
		size_t off = s->first_idat, at = 0;
		for (int i = 0; i < s->idat_chunks; i++) {
			uint32_t n = be32(buf + off);
			memcpy(joined + at, buf + off + 8, n);
			at += n;
			off += 12 + (size_t)n;
		}
		z = joined;
	}
	/* One buffer serves the inflated rows, the unfiltered rows (in place) and
	 * the RGBA result (expanded in place): no copy of the frame is made. */
	/* A kept buffer (framebuf.h): a fresh one's page faults cost more than
	 * the inflate. */
	unsigned char *px = amc_framebuf_get(raw_len > rgba_len ? raw_len : rgba_len);
	struct libdeflate_decompressor *d = px ? libdeflate_alloc_decompressor() : NULL;
	if (!d) {
		amc_framebuf_put(px);
		amc_framebuf_put(joined);
		return amc_err_set(e, AMC_EENV, "out of memory decoding a PNG");
	}
	size_t in_used = 0;
	enum libdeflate_result r = libdeflate_zlib_decompress_ex(d, z, s->idat_len, px, raw_len, &in_used, NULL);
	libdeflate_free_decompressor(d);
	amc_framebuf_put(joined);
	if (r != LIBDEFLATE_SUCCESS)
		goto decline_px; /* short, long or corrupt stream: libpng says what is wrong */
	for (size_t y = 0; y < (size_t)h; y++) {
		const unsigned char *in = px + y * (rb + 1);
		unsigned char *o = px + y * rb;
		if (unfilter_row(in[0], in + 1, o, y ? o - rb : NULL, rb, s->ncomp) != 0)
			goto decline_px;
	}
	*px_out = px;
	return 0;
decline_px:
	amc_framebuf_put(px);
decline:
	atomic_fetch_add(&declined, 1);
	return 1;
}

int amc_pngfast_decode(const unsigned char *buf, size_t len, int w, int h, amc_image *out, amc_err *e)
{
	scan *s = calloc(1, sizeof *s);
	if (!s)
		return amc_err_set(e, AMC_EENV, "out of memory decoding a PNG");
	unsigned char *px;
	int rc = inflate_rows(buf, len, w, h, s, &px, e);
	if (rc == 0) {
		if (s->ctype != 6)
			expand_rgba(px, (size_t)w * (size_t)h, s);
		out->w = w;
		out->h = h;
		out->px = px;
	}
	free(s);
	return rc;
}

/* One pixel of the file's layout as RGBA. */
static void to_rgba(const scan *s, const unsigned char *p, unsigned char *o)
{
	switch (s->ctype) {
	case 0: o[0] = o[1] = o[2] = p[0]; o[3] = 0xff; break;
	case 2: memcpy(o, p, 3); o[3] = 0xff; break;
	case 3: memcpy(o, s->pal + (size_t)p[0] * 4, 4); break;
	case 4: o[0] = o[1] = o[2] = p[0]; o[3] = p[1]; break;
	default: memcpy(o, p, 4); break;
	}
}

int amc_pngfast_probe(const unsigned char *buf, size_t len, int w, int h, int step, amc_png_probe *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	scan *s = calloc(1, sizeof *s);
	if (!s)
		return amc_err_set(e, AMC_EENV, "out of memory reading a PNG");
	unsigned char *px;
	int rc = inflate_rows(buf, len, w, h, s, &px, e);
	if (rc != 0) {
		free(s);
		return rc;
	}
	out->w = w;
	out->h = h;
	out->format = s->ctype;
	out->row_bytes = (size_t)w * s->ncomp;
	out->rows = px;
	out->step = step;
	memcpy(out->pal, s->pal, sizeof out->pal);
	free(s);
	return 0;
}

int amc_pngfast_probe_sample(amc_png_probe *p, amc_err *e)
{
	if (p->sample.px || !p->rows || p->format < 0)
		return 0;
	int step = p->step > 0 ? p->step : 1;
	int sw = (p->w + step - 1) / step, sh = (p->h + step - 1) / step;
	/* every byte is written below: a kept buffer needs no zeroing */
	unsigned char *px = amc_framebuf_get((size_t)sw * (size_t)sh * 4);
	if (!px)
		return amc_err_set(e, AMC_EENV, "out of memory reading a PNG");
	scan s = { .ctype = p->format, .ncomp = p->format == 2 ? 3 : p->format == 4 ? 2 : p->format == 6 ? 4 : 1 };
	memcpy(s.pal, p->pal, sizeof s.pal);
	size_t xs = (size_t)step * s.ncomp;
	for (int y = 0; y < sh; y++) {
		const unsigned char *in = p->rows + (size_t)y * step * p->row_bytes;
		unsigned char *o = px + (size_t)y * sw * 4;
		if (s.ctype == 6) /* RGBA, as phones send: a word a pixel */
			for (int x = 0; x < sw; x++)
				memcpy(o + (size_t)x * 4, in + (size_t)x * xs, 4);
		else
			for (int x = 0; x < sw; x++)
				to_rgba(&s, in + (size_t)x * xs, o + (size_t)x * 4);
	}
	p->sample.w = sw;
	p->sample.h = sh;
	p->sample.px = px;
	return 0;
}

void amc_pngfast_probe_take(amc_png_probe *p, amc_image *out)
{
	if (p->format >= 0 && p->format != 6) {
		/* the palette, the format and the rows are all expand_rgba needs;
		 * the rows buffer has room for RGBA (inflate_rows) */
		scan s = { .ctype = p->format };
		memcpy(s.pal, p->pal, sizeof s.pal);
		expand_rgba(p->rows, (size_t)p->w * (size_t)p->h, &s);
	}
	out->w = p->w;
	out->h = p->h;
	out->px = p->rows;
	p->rows = NULL;
}

/* ---- encoding ---------------------------------------------------------- */

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* Append a chunk at *at (room was reserved): length, type, data, CRC. */
static void put_chunk(unsigned char *buf, size_t *at, const char *type, const unsigned char *data, size_t n)
{
	unsigned char *p = buf + *at;
	put32(p, (uint32_t)n);
	memcpy(p + 4, type, 4);
	if (n && data != p + 8)
		memmove(p + 8, data, n);
	put32(p + 8 + n, libdeflate_crc32(0, p + 4, n + 4));
	*at += 12 + n;
}

/* The palette of an image of at most 256 colours (RGBA words), in order of
 * first appearance; 0 when there are more. Runs of one colour (most of a
 * screen) cost one compare a pixel. */
static int palette_of(const amc_image *img, uint32_t *pal, unsigned char *index)
{
	/* index NULL: only count (most frames pass 256 colours early) */
	enum { SLOTS = 1024 };
	uint32_t key[SLOTS];
	short val[SLOTS];
	memset(val, -1, sizeof val);
	int n = 0;
	size_t np = (size_t)img->w * (size_t)img->h;
	uint32_t last = 0;
	int last_i = -1;
	for (size_t i = 0; i < np; i++) {
		uint32_t v = ld32(img->px + i * 4);
		if (last_i >= 0 && v == last) {
			if (index)
				index[i] = (unsigned char)last_i;
			continue;
		}
		uint32_t h = (v * 2654435761u) >> 22;
		while (val[h] >= 0 && key[h] != v)
			h = (h + 1) & (SLOTS - 1);
		if (val[h] < 0) {
			if (n == 256)
				return 0;
			key[h] = v;
			val[h] = (short)n;
			pal[n++] = v;
		}
		last = v;
		last_i = val[h];
		if (index)
			index[i] = (unsigned char)last_i;
	}
	return n;
}

/* Frames of at most FEW_COLOURS colours (a UI: flat fills and antialiased
 * text, 500 to 1,700 colours on sim screens) compress best unfiltered: a
 * glyph's bytes repeat wherever it is drawn in the same colours and deflate
 * finds the copies, while Sub, Up or Paeth residuals also depend on the
 * neighbours. Measured on 49 distinct task-suite frames at level 6: filter
 * None was the smallest of None, Sub, Up and Paeth on every one, 13-21 %
 * under the better of Sub and Up; sampling rows with a trial compression
 * picked wrong on most. Frames of more colours (photos, gradients) keep the
 * predictive filters, which win there by 2-3x. */
#define FEW_COLOURS 4096

/* 1 when `img` has at most FEW_COLOURS distinct RGBA values. Runs of one
 * colour (most of a screen) cost one compare a pixel; the count stops at the
 * first colour over the limit (a photo stops early). */
static int few_colours(const amc_image *img)
{
	enum { SLOTS = 4 * FEW_COLOURS };
	uint32_t *key = malloc(SLOTS * sizeof *key);
	unsigned char *used = calloc(SLOTS, 1);
	int n = 0, few = key && used;
	size_t np = (size_t)img->w * (size_t)img->h;
	uint32_t last = 0;
	for (size_t i = 0; few && i < np; i++) {
		uint32_t v = ld32(img->px + i * 4);
		if (i && v == last)
			continue;
		last = v;
		uint32_t h = (v * 2654435761u) >> 18; /* 14 bits: SLOTS */
		while (used[h] && key[h] != v)
			h = (h + 1) & (SLOTS - 1);
		if (!used[h]) {
			used[h] = 1;
			key[h] = v;
			few = ++n <= FEW_COLOURS;
		}
	}
	free(key);
	free(used);
	return few;
}

/* Filter one row (`prev` NULL for the first) with filter `ft` into `out`; a
 * loop per filter, so the common ones (Sub, Up) vectorize. */
static void filter_row(int ft, const unsigned char *restrict row, const unsigned char *restrict prev, size_t rb,
		       size_t bpp, unsigned char *restrict out)
{
	size_t i;
	if (ft == 2 && !prev)
		ft = 0;
	switch (ft) {
	case 1:
		for (i = 0; i < bpp && i < rb; i++)
			out[i] = row[i];
		for (; i < rb; i++)
			out[i] = (unsigned char)(row[i] - row[i - bpp]);
		break;
	case 2:
		for (i = 0; i < rb; i++)
			out[i] = (unsigned char)(row[i] - prev[i]);
		break;
	case 4:
		if (!prev) {
			filter_row(1, row, NULL, rb, bpp, out);
			break;
		}
		for (i = 0; i < bpp && i < rb; i++)
			out[i] = (unsigned char)(row[i] - prev[i]);
		for (; i < rb; i++)
			out[i] = (unsigned char)(row[i] - paeth(row[i - bpp], prev[i], prev[i - bpp]));
		break;
	default:
		memcpy(out, row, rb);
		break;
	}
}

/* Each encoding thread keeps its filtered-rows buffer and its compressor:
 * fresh pages for a 10 MB buffer cost more here (page faults) than filtering
 * it, so the second frame a thread encodes is much cheaper than the first.
 * Freed when the thread ends (a key destructor). */
typedef struct enc_cache {
	unsigned char *filt;
	size_t cap;
	struct libdeflate_compressor *c;
	int level;
} enc_cache;

static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_free(void *p)
{
	enc_cache *k = p;
	if (!k)
		return;
	free(k->filt);
	if (k->c)
		libdeflate_free_compressor(k->c);
	free(k);
}

static void cache_init(void)
{
	(void)pthread_key_create(&cache_key, cache_free);
}

/* The thread's cache with room for `need` filtered bytes and a compressor at
 * `level`; NULL on out of memory. */
static enc_cache *cache_get(size_t need, int level)
{
	pthread_once(&cache_once, cache_init);
	enc_cache *k = pthread_getspecific(cache_key);
	if (!k) {
		if (!(k = calloc(1, sizeof *k)))
			return NULL;
		if (pthread_setspecific(cache_key, k) != 0) {
			free(k);
			return NULL;
		}
	}
	if (k->cap < need) {
		free(k->filt);
		k->cap = 0;
		if (!(k->filt = malloc(need)))
			return NULL;
		k->cap = need;
	}
	if (!k->c || k->level != level) {
		if (k->c)
			libdeflate_free_compressor(k->c);
		k->level = level;
		if (!(k->c = libdeflate_alloc_compressor(level)))
			return NULL;
	}
	return k;
}

/* Row y of the frame in the file's layout: a palette row from `index`, an
 * RGBA row as is, or an RGB row packed into `tmp`. */
static const unsigned char *file_row(const amc_image *img, const unsigned char *index, size_t bpp, size_t y,
				     unsigned char *tmp)
{
	size_t w = (size_t)img->w;
	if (index)
		return index + y * w;
	const unsigned char *src = img->px + y * w * 4;
	if (bpp == 4)
		return src;
	for (size_t x = 0; x < w; x++)
		memcpy(tmp + x * 3, src + x * 4, 3);
	return tmp;
}

int amc_pngfast_encode(const amc_image *img, int level, unsigned char **out, size_t *len, amc_err *e)
{
	size_t w = (size_t)img->w, h = (size_t)img->h, np = w * h;
	int opaque = 1;
	for (size_t i = 0; i < np && opaque; i++)
		opaque = img->px[i * 4 + 3] == 0xff;
	uint32_t pal[256];
	unsigned char *index = NULL, *filt = NULL, *buf = NULL, *rows = NULL;
	struct libdeflate_compressor *c = NULL;
	int npal = palette_of(img, pal, NULL);
	if (npal) {
		if (!(index = amc_framebuf_get(np)))
			goto oom;
		palette_of(img, pal, index);
	}
	int ctype = npal ? 3 : opaque ? 2 : 6;
	size_t bpp = npal ? 1 : opaque ? 3 : 4, rb = w * bpp;
	/* two packed rows (this and the one above) instead of a packed frame:
	 * fewer fresh pages, which are dear here (page faults) */
	rows = malloc(2 * rb);
	enc_cache *k = cache_get(h * (rb + 1), level);
	if (!rows || !k)
		goto oom;
	filt = k->filt;
	c = k->c;
	/* Palette indices are not magnitudes: filter 0, as PNG advises; so for
	 * a frame of few colours (few_colours). Else one filter for the frame,
	 * chosen on every 16th row pair. */
	int ft = 0;
	if (!npal && !few_colours(img)) {
		/* Sub or Up: Paeth was picked on sim frames for files the same
		 * size (within 1 %) at three times the filtering time */
		static const int cand[] = { 1, 2 };
		unsigned long long best = ~0ULL;
		for (size_t k = 0; k < 2; k++) {
			unsigned long long sum = 0;
			for (size_t y = 1; y < h; y += 16) {
				const unsigned char *up = file_row(img, NULL, bpp, y - 1, rows);
				const unsigned char *cur = file_row(img, NULL, bpp, y, rows + rb);
				filter_row(cand[k], cur, up, rb, bpp, filt);
				for (size_t i = 0; i < rb; i++)
					sum += filt[i] < 128 ? filt[i] : 256 - filt[i];
			}
			if (sum < best) {
				best = sum;
				ft = cand[k];
			}
		}
	}
	const unsigned char *prev = NULL;
	for (size_t y = 0; y < h; y++) {
		unsigned char *tmp = rows + (y & 1) * rb; /* never the buffer `prev` points into */
		const unsigned char *cur = file_row(img, index, bpp, y, tmp);
		int f = y == 0 && ft != 1 ? (ft == 4 ? 1 : 0) : ft; /* no row above: Up is None, Paeth is Sub */
		filt[y * (rb + 1)] = (unsigned char)f;
		filter_row(f, cur, prev, rb, bpp, filt + y * (rb + 1) + 1);
		prev = cur;
	}
	size_t bound = libdeflate_zlib_compress_bound(c, h * (rb + 1));
	size_t cap = 8 + 25 + 12 + 256 * 3 + 12 + 256 + 12 + bound + 12;
	if (!(buf = malloc(cap)))
		goto oom;
	size_t at = 8;
	memcpy(buf, "\x89PNG\r\n\x1a\n", 8);
	unsigned char ihdr[13];
	put32(ihdr, (uint32_t)w);
	put32(ihdr + 4, (uint32_t)h);
	ihdr[8] = 8;
	ihdr[9] = (unsigned char)ctype;
	ihdr[10] = ihdr[11] = ihdr[12] = 0;
	put_chunk(buf, &at, "IHDR", ihdr, 13);
	if (npal) {
		unsigned char rgb[256 * 3], alpha[256];
		int ntrns = 0;
		for (int i = 0; i < npal; i++) {
			memcpy(rgb + i * 3, &pal[i], 3);
			alpha[i] = ((unsigned char *)&pal[i])[3];
			if (alpha[i] != 0xff)
				ntrns = i + 1;
		}
		put_chunk(buf, &at, "PLTE", rgb, (size_t)npal * 3);
		if (ntrns)
			put_chunk(buf, &at, "tRNS", alpha, (size_t)ntrns);
	}
	size_t zl = libdeflate_zlib_compress(c, filt, h * (rb + 1), buf + at + 8, bound);
	if (!zl)
		goto oom;
	put_chunk(buf, &at, "IDAT", buf + at + 8, zl);
	put_chunk(buf, &at, "IEND", NULL, 0);
	free(rows);
	amc_framebuf_put(index);
	*out = buf;
	*len = at;
	return 0;
oom:
	free(rows);
	amc_framebuf_put(index);
	free(buf);
	return amc_err_set(e, AMC_EENV, "out of memory encoding a %dx%d PNG", img->w, img->h);
}
