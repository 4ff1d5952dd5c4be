#include "image/png.h"

#include <png.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/framebuf.h"
#include "image/pngfast.h"
#include "util/fsutil.h"

/* libpng reports errors through a callback that must not return: we copy the
 * message and longjmp back to the caller's setjmp, so nothing is printed and the
 * process never aborts. Everything the error path frees lives in this struct
 * (reached through a pointer), so no local variable needs to be volatile. */
typedef struct png_ctx {
	jmp_buf jmp;
	char msg[256];
	const unsigned char *buf;
	size_t len, pos;
	unsigned char *px;
	png_bytep *rows;
	unsigned char *out;
	size_t out_len, out_cap;
	int oom;
} png_ctx;

static void on_error(png_structp png, png_const_charp msg)
{
	png_ctx *c = png_get_error_ptr(png);
	snprintf(c->msg, sizeof c->msg, "%s", msg ? msg : "unknown error");
	longjmp(c->jmp, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg; /* warnings (bad ancillary chunks) are not worth a message */
}

static void read_mem(png_structp png, png_bytep data, size_t n)
{
	png_ctx *c = png_get_io_ptr(png);
	if (n > c->len - c->pos)
		png_error(png, "truncated data");
	memcpy(data, c->buf + c->pos, n);
	c->pos += n;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int check_size(uint32_t w, uint32_t h, amc_err *e)
{
	if (w == 0 || h == 0)
		return amc_err_set(e, AMC_EUSAGE, "PNG has an empty size (%ux%u)", w, h);
	if (w > AMC_IMAGE_MAX_SIDE || h > AMC_IMAGE_MAX_SIDE || (uint64_t)w * h > AMC_IMAGE_MAX_PIXELS)
		return amc_err_set(e, AMC_EUSAGE,
				   "PNG is too large (%ux%u; at most %d px a side and %u Mpx)", w, h,
				   AMC_IMAGE_MAX_SIDE, AMC_IMAGE_MAX_PIXELS >> 20);
	return 0;
}

int amc_png_info(const void *buf, size_t len, int *w, int *h, amc_err *e)
{
	const unsigned char *p = buf;
	if (len > AMC_PNG_MAX_BYTES)
		return amc_err_set(e, AMC_EUSAGE, "PNG data is too large (%zu bytes; at most %u)", len, AMC_PNG_MAX_BYTES);
	if (len < 8 || png_sig_cmp(p, 0, 8) != 0)
		return amc_err_set(e, AMC_EUSAGE, "not a PNG image (bad signature)");
	/* The IHDR chunk must come first: length 13, type, width, height. */
	if (len < 8 + 8 + 13 || be32(p + 8) != 13 || memcmp(p + 12, "IHDR", 4) != 0)
		return amc_err_set(e, AMC_EUSAGE, "corrupt PNG: missing or bad IHDR header");
	uint32_t pw = be32(p + 16), ph = be32(p + 20);
	if (check_size(pw, ph, e) != 0)
		return -1;
	*w = (int)pw;
	*h = (int)ph;
	return 0;
}

/* Decodes are counted so tests and benches can prove an observation decodes
 * its frame once (or never, when the device sends pixels). */
static atomic_long decodes;

long amc_png_decode_count(void)
{
	return atomic_load(&decodes);
}

/* Every chunk's declared length must fit in the bytes that follow it: libpng
 * allocates a text chunk's declared length before reading it, so an 83-byte
 * file declaring a 1.3 GB tEXt chunk cost that much memory (found by
 * `make check-hardening`). Stops at IEND or at the end of the input (a file cut
 * short is libpng's "truncated data" error). */
static int decode_libpng(const void *buf, size_t len, int w, int h, amc_image *out, amc_err *e);

static int check_chunks(const unsigned char *p, size_t len, amc_err *e)
{
	size_t off = 8;
	while (len - off >= 8) {
		uint32_t n = be32(p + off);
		char type[5];
		for (int i = 0; i < 4; i++)
			type[i] = (p[off + 4 + i] >= 'A' && p[off + 4 + i] <= 'z') ? (char)p[off + 4 + i] : '?';
		type[4] = 0;
		if (n > 0x7fffffffu || (size_t)n > len - off - 8)
			return amc_err_set(e, AMC_EUSAGE,
					   "corrupt PNG: chunk %s declares %u bytes but only %zu follow", type,
					   n, len - off - 8);
		if (!memcmp(p + off + 4, "IEND", 4))
			break;
		off += 8 + (size_t)n;
		if (len - off < 4)
			break;
		off += 4; /* CRC */
	}
	return 0;
}

int amc_png_decode(const void *buf, size_t len, amc_image *out, amc_err *e)
{
	int w, h;
	atomic_fetch_add(&decodes, 1);
	out->w = out->h = 0;
	out->px = NULL;
	/* Refuse oversized input and oversized headers before anything is allocated. */
	if (amc_png_info(buf, len, &w, &h, e) != 0 || check_chunks(buf, len, e) != 0)
		return -1;
	int rc = amc_pngfast_decode(buf, len, w, h, out, e);
	if (rc <= 0)
		return rc;
	return decode_libpng(buf, len, w, h, out, e);
}

int amc_png_decode_libpng(const void *buf, size_t len, amc_image *out, amc_err *e)
{
	int w, h;
	out->w = out->h = 0;
	out->px = NULL;
	if (amc_png_info(buf, len, &w, &h, e) != 0 || check_chunks(buf, len, e) != 0)
		return -1;
	return decode_libpng(buf, len, w, h, out, e);
}

/* libpng decodes what the fast path declines (pngfast.h): other depths,
 * interlacing, colour keys, and every corrupt file, whose message it writes. */
static int decode_libpng(const void *buf, size_t len, int w, int h, amc_image *out, amc_err *e)
{
	png_ctx *c = calloc(1, sizeof *c);
	if (!c)
		return amc_err_set(e, AMC_EENV, "out of memory decoding a PNG");
	c->buf = buf;
	c->len = len;
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, c, on_error, on_warning);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!png || !info) {
		png_destroy_read_struct(&png, NULL, NULL);
		free(c);
		return amc_err_set(e, AMC_EENV, "out of memory decoding a PNG");
	}
	if (setjmp(c->jmp)) {
		png_destroy_read_struct(&png, &info, NULL);
		free(c->rows);
		free(c->px);
		if (c->oom)
			amc_err_set(e, AMC_EENV, "out of memory decoding a %dx%d PNG", w, h);
		else
			amc_err_set(e, AMC_EUSAGE, "corrupt PNG: %s", c->msg);
		free(c);
		return -1;
	}
	png_set_read_fn(png, c, read_mem);
	png_set_user_limits(png, AMC_IMAGE_MAX_SIDE, AMC_IMAGE_MAX_SIDE);
	/* Bound memory spent on ancillary chunks (text, ICC profiles) in hostile files. */
	png_set_chunk_cache_max(png, 1000);
	png_set_chunk_malloc_max(png, 8u << 20);
	png_read_info(png, info);

	png_uint_32 pw, ph;
	int depth, ctype, interlace;
	png_get_IHDR(png, info, &pw, &ph, &depth, &ctype, &interlace, NULL, NULL);
	if (pw != (png_uint_32)w || ph != (png_uint_32)h)
		png_error(png, "header size changed");

	/* Normalise every colour type and depth to 8-bit RGBA. */
	if (ctype == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	if (ctype == PNG_COLOR_TYPE_GRAY && depth < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	if (png_get_valid(png, info, PNG_INFO_tRNS))
		png_set_tRNS_to_alpha(png);
	if (depth == 16)
		png_set_strip_16(png);
	if (ctype == PNG_COLOR_TYPE_GRAY || ctype == PNG_COLOR_TYPE_GRAY_ALPHA)
		png_set_gray_to_rgb(png);
	if (!(ctype & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
		png_set_filler(png, 0xff, PNG_FILLER_AFTER);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
	if (png_get_rowbytes(png, info) != (size_t)w * 4)
		png_error(png, "unexpected row size after conversion");

	c->px = malloc((size_t)w * (size_t)h * 4);
	c->rows = malloc((size_t)h * sizeof *c->rows);
	if (!c->px || !c->rows) {
		c->oom = 1;
		png_error(png, "out of memory");
	}
	for (int y = 0; y < h; y++)
		c->rows[y] = c->px + (size_t)y * w * 4;
	png_read_image(png, c->rows);
	/* Trailing chunks after the image data are not read: a file cut after its
	 * last IDAT still shows the whole picture, as browsers show it. */
	png_destroy_read_struct(&png, &info, NULL);
	out->w = w;
	out->h = h;
	out->px = c->px;
	free(c->rows);
	free(c);
	return 0;
}

static atomic_long probes;

long amc_png_probe_count(void)
{
	return atomic_load(&probes);
}

int amc_png_probe_read(const void *buf, size_t len, int step, amc_png_probe *out, amc_err *e)
{
	int w, h;
	atomic_fetch_add(&probes, 1);
	memset(out, 0, sizeof *out);
	if (step < 1)
		step = 1;
	if (amc_png_info(buf, len, &w, &h, e) != 0 || check_chunks(buf, len, e) != 0)
		return -1;
	int rc = amc_pngfast_probe(buf, len, w, h, step, out, e);
	if (rc <= 0)
		return rc;
	amc_image img;
	if (amc_png_decode(buf, len, &img, e) != 0)
		return -1;
	int sw = (w + step - 1) / step, sh = (h + step - 1) / step;
	if (amc_image_alloc(&out->sample, sw, sh, e) != 0) {
		amc_image_free(&img);
		return -1;
	}
	for (int y = 0; y < sh; y++)
		for (int x = 0; x < sw; x++)
			memcpy(out->sample.px + ((size_t)y * sw + x) * 4,
			       img.px + ((size_t)y * step * w + (size_t)x * step) * 4, 4);
	out->w = w;
	out->h = h;
	out->format = -1;
	out->step = step;
	out->row_bytes = (size_t)w * 4;
	out->rows = img.px;
	return 0;
}

int amc_png_probe_same(const amc_png_probe *a, const amc_png_probe *b, int y0)
{
	if (!a->rows || !b->rows || a->w != b->w || a->h != b->h || a->format != b->format ||
	    a->row_bytes != b->row_bytes)
		return 0;
	if (a->format == 3 && memcmp(a->pal, b->pal, sizeof a->pal))
		return 0;
	if (y0 < 0)
		y0 = 0;
	if (y0 >= a->h)
		return 1;
	size_t off = (size_t)y0 * a->row_bytes;
	return !memcmp(a->rows + off, b->rows + off, (size_t)a->h * a->row_bytes - off);
}

int amc_png_probe_sample(amc_png_probe *p, amc_err *e)
{
	return amc_pngfast_probe_sample(p, e);
}

int amc_png_probe_to_image(amc_png_probe *p, amc_image *out, amc_err *e)
{
	out->w = out->h = 0;
	out->px = NULL;
	if (!p || !p->rows)
		return amc_err_set(e, AMC_EUSAGE, "no probed frame to turn into pixels");
	if (p->format >= 0)
		atomic_fetch_add(&decodes, 1); /* a format -1 probe was a counted decode */
	amc_pngfast_probe_take(p, out);
	return 0;
}

void amc_png_probe_free(amc_png_probe *p)
{
	if (!p)
		return;
	amc_framebuf_put(p->rows);
	amc_image_free(&p->sample);
	memset(p, 0, sizeof *p);
}

int amc_png_decode_file(const char *path, amc_image *out, amc_err *e)
{
	char *buf;
	size_t len;
	out->w = out->h = 0;
	out->px = NULL;
	if (amc_read_file(path, AMC_PNG_MAX_BYTES, &buf, &len, e) != 0)
		return -1;
	int rc = amc_png_decode(buf, len, out, e);
	free(buf);
	if (rc != 0)
		amc_err_prefix(e, "%s", path);
	return rc;
}

static void write_mem(png_structp png, png_bytep data, size_t n)
{
	png_ctx *c = png_get_io_ptr(png);
	if (n > c->out_cap - c->out_len) {
		size_t cap = c->out_cap ? c->out_cap : 65536;
		while (cap - c->out_len < n)
			cap *= 2;
		unsigned char *p = realloc(c->out, cap);
		if (!p) {
			c->oom = 1;
			png_error(png, "out of memory");
		}
		c->out = p;
		c->out_cap = cap;
	}
	memcpy(c->out + c->out_len, data, n);
	c->out_len += n;
}

static void flush_mem(png_structp png)
{
	(void)png;
}

static atomic_long encodes;

long amc_png_encode_count(void)
{
	return atomic_load(&encodes);
}

int amc_png_encode(const amc_image *img, int level, unsigned char **out, size_t *len, amc_err *e)
{
	atomic_fetch_add(&encodes, 1);
	*out = NULL;
	*len = 0;
	if (!img->px || img->w <= 0 || img->h <= 0 || img->w > AMC_IMAGE_MAX_SIDE || img->h > AMC_IMAGE_MAX_SIDE ||
	    (uint64_t)img->w * (uint64_t)img->h > AMC_IMAGE_MAX_PIXELS)
		return amc_err_set(e, AMC_EUSAGE, "cannot encode a %dx%d image as PNG", img->w, img->h);
	if (level < 0 || level > 9)
		return amc_err_set(e, AMC_EUSAGE, "PNG compression level %d is out of range (0-9)", level);
	return amc_pngfast_encode(img, level, out, len, e);
}

/* libpng's encoder: no longer used for frames (pngfast.c writes smaller files
 * faster); kept for amc_png_encode_libpng, the baseline benches compare with. */
int amc_png_encode_libpng(const amc_image *img, int level, unsigned char **out, size_t *len, amc_err *e)
{
	*out = NULL;
	*len = 0;
	if (!img->px || img->w <= 0 || img->h <= 0 || img->w > AMC_IMAGE_MAX_SIDE || img->h > AMC_IMAGE_MAX_SIDE ||
	    (uint64_t)img->w * (uint64_t)img->h > AMC_IMAGE_MAX_PIXELS || level < 0 || level > 9)
		return amc_err_set(e, AMC_EUSAGE, "cannot encode a %dx%d image as PNG at level %d", img->w, img->h, level);
	png_ctx *c = calloc(1, sizeof *c);
	if (!c)
		return amc_err_set(e, AMC_EENV, "out of memory encoding a PNG");
	c->rows = malloc((size_t)img->h * sizeof *c->rows);
	png_structp png = c->rows ? png_create_write_struct(PNG_LIBPNG_VER_STRING, c, on_error, on_warning) : NULL;
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!png || !info) {
		png_destroy_write_struct(&png, NULL);
		free(c->rows);
		free(c);
		return amc_err_set(e, AMC_EENV, "out of memory encoding a PNG");
	}
	if (setjmp(c->jmp)) {
		png_destroy_write_struct(&png, &info);
		free(c->rows);
		free(c->out);
		if (c->oom)
			amc_err_set(e, AMC_EENV, "out of memory encoding a %dx%d PNG", img->w, img->h);
		else
			amc_err_set(e, AMC_EUSAGE, "cannot encode PNG: %s", c->msg);
		free(c);
		return -1;
	}
	png_set_write_fn(png, c, write_mem, flush_mem);
	png_set_compression_level(png, level);
	/* At fast levels zlib's run-length strategy (Z_RLE = 3) cuts encode time of a
	 * 1080x2400 screen by about a quarter for similar sizes. */
	if (level > 0 && level <= 3)
		png_set_compression_strategy(png, 3);
	/* Screens are mostly flat colour: the Sub filter alone compresses them about as
	 * well as adaptive filtering at a fraction of the time. */
	png_set_filter(png, PNG_FILTER_TYPE_BASE, level <= 3 ? PNG_FILTER_SUB : PNG_ALL_FILTERS);
	png_set_IHDR(png, info, (png_uint_32)img->w, (png_uint_32)img->h, 8, PNG_COLOR_TYPE_RGB_ALPHA,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
	png_write_info(png, info);
	for (int y = 0; y < img->h; y++)
		c->rows[y] = img->px + (size_t)y * img->w * 4;
	png_write_image(png, c->rows);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	*out = c->out;
	*len = c->out_len;
	free(c->rows);
	free(c);
	return 0;
}
