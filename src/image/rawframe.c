#include "image/rawframe.h"

#include <stdlib.h>
#include <string.h>

int amc_rawframe_bpp(uint32_t format)
{
	switch (format) {
	case AMC_RAW_RGBA_8888:
	case AMC_RAW_RGBX_8888:
	case AMC_RAW_BGRA_8888: return 4;
	case AMC_RAW_RGB_888: return 3;
	case AMC_RAW_RGB_565: return 2;
	}
	return 0;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* The pixel bytes a header promises, 0 when the header is not one amc takes. */
static size_t promised(const unsigned char *h, int header_len, amc_err *e)
{
	uint32_t w = le32(h), ht = le32(h + 4), f = le32(h + 8);
	int bpp = amc_rawframe_bpp(f);
	if (w == 0 || ht == 0 || w > AMC_IMAGE_MAX_SIDE || ht > AMC_IMAGE_MAX_SIDE ||
	    (uint64_t)w * ht > AMC_IMAGE_MAX_PIXELS) {
		amc_err_set(e, AMC_EUSAGE, "raw frame has an impossible size (%ux%u)", w, ht);
		return 0;
	}
	if (!bpp) {
		amc_err_set(e, AMC_EUSAGE, "raw frame has an unknown pixel format %u", f);
		return 0;
	}
	if (header_len == 16) {
		uint32_t c = le32(h + 12);
		if (c != AMC_RAW_DATASPACE_UNKNOWN && c != AMC_RAW_DATASPACE_SRGB && c != AMC_RAW_DATASPACE_DISPLAY_P3) {
			amc_err_set(e, AMC_EUSAGE, "raw frame has an unknown colour space %u", c);
			return 0;
		}
	}
	return (size_t)w * ht * (size_t)bpp;
}

int amc_rawframe_decode(const void *buf, size_t len, amc_image *out, int *header_len, amc_err *e)
{
	const unsigned char *b = buf;
	if (!b || len < 12)
		return amc_err_set(e, AMC_EUSAGE, "raw frame is too short for a header (%zu bytes)", len);
	/* The layout is the one whose byte count matches: 16 first (newer
	 * Android), then 12. A truncated or padded frame matches neither. */
	int hl = 0;
	size_t want = 0;
	amc_err pe;
	amc_err_clear(&pe);
	if (len >= 16 && (want = promised(b, 16, &pe)) && want == len - 16)
		hl = 16;
	else if ((want = promised(b, 12, &pe)) && want == len - 12)
		hl = 12;
	if (!hl) {
		if (pe.code != AMC_OK) {
			if (e)
				*e = pe;
			return -1;
		}
		return amc_err_set(e, AMC_EUSAGE,
				   "raw frame's size does not match its header (%ux%u format %u, %zu bytes)",
				   le32(b), le32(b + 4), le32(b + 8), len);
	}
	int w = (int)le32(b), h = (int)le32(b + 4);
	uint32_t f = le32(b + 8);
	amc_image img;
	if (amc_image_alloc(&img, w, h, e) != 0)
		return -1;
	const unsigned char *s = b + hl;
	unsigned char *d = img.px;
	size_t n = (size_t)w * h;
	switch (f) {
	case AMC_RAW_RGBA_8888:
		memcpy(d, s, n * 4);
		break;
	case AMC_RAW_RGBX_8888:
		for (size_t i = 0; i < n; i++, s += 4, d += 4)
			d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = 255;
		break;
	case AMC_RAW_BGRA_8888:
		for (size_t i = 0; i < n; i++, s += 4, d += 4)
			d[0] = s[2], d[1] = s[1], d[2] = s[0], d[3] = s[3];
		break;
	case AMC_RAW_RGB_888:
		for (size_t i = 0; i < n; i++, s += 3, d += 4)
			d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = 255;
		break;
	default: /* AMC_RAW_RGB_565, little-endian, red in the top bits */
		for (size_t i = 0; i < n; i++, s += 2, d += 4) {
			unsigned v = (unsigned)s[0] | (unsigned)s[1] << 8;
			unsigned r = v >> 11, g = (v >> 5) & 63, bl = v & 31;
			d[0] = (unsigned char)(r << 3 | r >> 2);
			d[1] = (unsigned char)(g << 2 | g >> 4);
			d[2] = (unsigned char)(bl << 3 | bl >> 2);
			d[3] = 255;
		}
		break;
	}
	*out = img;
	if (header_len)
		*header_len = hl;
	return 0;
}

int amc_rawframe_encode(const amc_image *img, uint32_t format, int header_len, unsigned char **out,
			size_t *len, amc_err *e)
{
	int bpp = amc_rawframe_bpp(format);
	if (!bpp || (header_len != 12 && header_len != 16) || !img->px || img->w <= 0 || img->h <= 0)
		return amc_err_set(e, AMC_EUSAGE, "cannot encode a raw frame (format %u, %d-byte header)", format,
				   header_len);
	size_t n = (size_t)img->w * img->h;
	unsigned char *b = malloc((size_t)header_len + n * (size_t)bpp);
	if (!b)
		return amc_err_set(e, AMC_EENV, "out of memory for a raw frame");
	put32(b, (uint32_t)img->w);
	put32(b + 4, (uint32_t)img->h);
	put32(b + 8, format);
	if (header_len == 16)
		put32(b + 12, AMC_RAW_DATASPACE_SRGB);
	const unsigned char *s = img->px;
	unsigned char *d = b + header_len;
	for (size_t i = 0; i < n; i++, s += 4) {
		switch (format) {
		case AMC_RAW_RGBA_8888: d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = s[3]; break;
		case AMC_RAW_RGBX_8888: d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = 0; break;
		case AMC_RAW_BGRA_8888: d[0] = s[2], d[1] = s[1], d[2] = s[0], d[3] = s[3]; break;
		case AMC_RAW_RGB_888: d[0] = s[0], d[1] = s[1], d[2] = s[2]; break;
		default: {
			unsigned v = (unsigned)(s[0] >> 3) << 11 | (unsigned)(s[1] >> 2) << 5 | (unsigned)(s[2] >> 3);
			d[0] = (unsigned char)v;
			d[1] = (unsigned char)(v >> 8);
		}
		}
		d += bpp;
	}
	*out = b;
	*len = (size_t)header_len + n * (size_t)bpp;
	return 0;
}
