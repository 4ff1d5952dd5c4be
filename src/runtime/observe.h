/* observe.h - capturing what the device shows: screenshot, UI tree, scene; and
 * settling (waiting until the screen stops changing after an action). */
#ifndef AMC_OBSERVE_H
#define AMC_OBSERVE_H

#include "device/device.h"
#include "image/png.h"
#include "perception/ocr.h"
#include "runtime/planner.h"

/* How one caller (a task) observes. It is the caller's, not the process's, so
 * two tasks in one process can observe differently. */
typedef struct amc_observe_opts {
	int retries;         /* capture retries on a failing device */
	/* OCR of each observation: words fused into the scene and kept as JSON in
	 * o->ocr_json. When tesseract's language data is missing, observing sets
	 * this to AMC_OCR_OFF (so the caller stops paying for it) and the
	 * observation goes on without OCR. */
	amc_ocr_policy ocr;
} amc_observe_opts;

typedef struct amc_settle_opts {
	int timeout_ms;      /* give up waiting after this much device time */
	int interval_ms;     /* pause between two frames */
	double tolerance;    /* fraction of pixels that may differ between "equal" frames */
	int status_bar_px;   /* rows ignored when comparing (the clock ticks) */
} amc_settle_opts;

/* Per-channel difference (0-255) under which a pixel counts as unchanged. */
#define AMC_SETTLE_PIXEL_TOLERANCE 8

/* Settling over PNG screenshots compares a sample of every Nth row and column
 * when two frames are not exactly equal: a quarter of the pixels, so the
 * tolerance keeps its meaning (a share of pixels) while the sample is cheap. */
#define AMC_SETTLE_SAMPLE_STEP 2

/* Capture screenshot + UI tree and build the scene. Failed captures are retried
 * o->retries times (a short device wait between tries). */
int amc_observe(amc_device *dev, amc_observe_opts *o, amc_observation *out, amc_err *e);
/* After an action: capture until two consecutive frames match outside the status
 * bar (within the tolerance) or the timeout passes, then capture the tree of the
 * settled screen. *frames counts the screenshots taken; *settled is 0 when the
 * timeout ended the wait (the last frame is used). */
int amc_settle(amc_device *dev, const amc_settle_opts *s, amc_observe_opts *o,
	       amc_observation *out, int *frames, int *settled, amc_err *e);
/* Whether two probed frames (amc_png_probe_read, AMC_SETTLE_SAMPLE_STEP) count as
 * the same screen: exactly equal below the status bar, or within the
 * tolerance on their samples (made here, only when the frames are not
 * exactly equal; so the probes are not const). Over PNG screenshots a settle decodes only the
 * frame it keeps (amc_png_decode_count rises by one); amc_png_probe_count
 * counts the compared frames. */
int amc_settle_same(amc_png_probe *a, amc_png_probe *b, const amc_settle_opts *s);
void amc_observation_free(amc_observation *o);

#endif
