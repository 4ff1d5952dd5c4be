/* jpeg.h - JPEG encoding with libjpeg(-turbo), for reports that must stay small
 * (amc export --html). Encoding only: amc never reads JPEG from outside, so
 * there is no decoder to harden. libjpeg never prints and never exits: its
 * errors become an amc_err. */
#ifndef AMC_JPEG_H
#define AMC_JPEG_H

#include <stddef.h>
#include "image/image.h"

/* Encode RGBA8 as a baseline JPEG at `quality` (1-100), alpha dropped (pixels
 * are composited over white). *out is malloc'd, owned by the caller. */
int amc_jpeg_encode(const amc_image *img, int quality, unsigned char **out, size_t *len, amc_err *e);

#endif
