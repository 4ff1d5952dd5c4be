/* jpeg.c - see jpeg.h. */
#include "image/jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct jerr {
	struct jpeg_error_mgr mgr;
	jmp_buf jump;
	char msg[JMSG_LENGTH_MAX];
} jerr;

/* libjpeg's default error_exit prints and calls exit(): never here. */
static void on_error(j_common_ptr cinfo)
{
	jerr *je = (jerr *)cinfo->err;
	cinfo->err->format_message(cinfo, je->msg);
	longjmp(je->jump, 1);
}

/* Warnings are not fatal to an encoder; keep them off stderr. */
static void on_message(j_common_ptr cinfo)
{
	(void)cinfo;
}

int amc_jpeg_encode(const amc_image *img, int quality, unsigned char **out, size_t *len, amc_err *e)
{
	*out = NULL;
	*len = 0;
	if (!img || !img->px || img->w <= 0 || img->h <= 0)
		return amc_err_set(e, AMC_EUSAGE, "cannot encode an empty image as JPEG");
	if (quality < 1 || quality > 100)
		return amc_err_set(e, AMC_EUSAGE, "JPEG quality %d is outside 1-100", quality);
	struct jpeg_compress_struct c;
	jerr je;
	memset(&je, 0, sizeof je);
	/* volatile: read after a longjmp back into this frame */
	unsigned char *volatile row = NULL;
	unsigned char *buf = NULL;
	unsigned long blen = 0;
	c.err = jpeg_std_error(&je.mgr);
	je.mgr.error_exit = on_error;
	je.mgr.output_message = on_message;
	if (setjmp(je.jump)) {
		jpeg_destroy_compress(&c);
		free(row);
		free(buf);
		return amc_err_set(e, AMC_EENV, "cannot encode a JPEG: %s", je.msg);
	}
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &buf, &blen);
	c.image_width = (JDIMENSION)img->w;
	c.image_height = (JDIMENSION)img->h;
	c.input_components = 3;
	c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, quality, TRUE);
	c.optimize_coding = TRUE; /* a few per cent smaller for free */
	jpeg_start_compress(&c, TRUE);
	row = malloc((size_t)img->w * 3);
	if (!row) {
		strcpy(je.msg, "out of memory");
		longjmp(je.jump, 1);
	}
	while (c.next_scanline < c.image_height) {
		const unsigned char *p = img->px + (size_t)c.next_scanline * (size_t)img->w * 4;
		for (int x = 0; x < img->w; x++, p += 4) {
			/* over white, so a transparent pixel is not black */
			unsigned a = p[3];
			for (int k = 0; k < 3; k++)
				row[x * 3 + k] = (unsigned char)((p[k] * a + 255 * (255 - a) + 127) / 255);
		}
		JSAMPROW rows[1] = { row };
		jpeg_write_scanlines(&c, rows, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	free(row);
	*out = buf;
	*len = blen;
	return 0;
}
