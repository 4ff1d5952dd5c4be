/* apng.h - animated PNG (APNG) out of RGBA frames: the sim's screen
 * recordings (startRecording/stopRecording).
 *
 * Why APNG: a recording must play for a person with what Debian and a
 * browser have (Firefox and Chromium animate it in an <img>, ffplay plays it,
 * any PNG viewer shows its first frame), and amc already links a deflate
 * (libdeflate): no video encoder is needed for a phone screen that changes
 * step by step. Frames are compressed as they come (amc_apng_frame_pack), so
 * a recording holds compressed frames only, and put together at the end
 * (amc_apng_assemble). Every frame is a full canvas (no offsets, blend
 * SOURCE), 8-bit RGBA, rows with PNG's Up filter. */
#ifndef AMC_APNG_H
#define AMC_APNG_H

#include <stddef.h>
#include "image/image.h"
#include "util/err.h"

/* One frame, compressed: a zlib stream of its filtered rows. */
typedef struct amc_apng_frame {
	unsigned char *z;   /* malloc'd, owned */
	size_t zlen;
	int w, h;           /* the frame's size: all frames of one file share it */
	int delay_ms;       /* how long it shows (clamped to 1..65535 when written) */
} amc_apng_frame;

/* Compress img into *f (f->delay_ms is left for the caller). */
int amc_apng_frame_pack(const amc_image *img, amc_apng_frame *f, amc_err *e);
void amc_apng_frame_free(amc_apng_frame *f);

/* The APNG file of n >= 1 frames of the same size, looping forever, into
 * *out (malloc'd, caller frees). AMC_EUSAGE when sizes differ or n is 0. */
int amc_apng_assemble(const amc_apng_frame *frames, size_t n, unsigned char **out, size_t *len, amc_err *e);

#endif
