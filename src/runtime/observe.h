/* observe.h - capturing what the device shows: screenshot, UI tree, scene; and
 * settling (waiting until the screen stops changing after an action). */
#ifndef AMC_OBSERVE_H
#define AMC_OBSERVE_H

#include "device/device.h"
#include "perception/ocr.h"
#include "runtime/planner.h"

typedef struct amc_settle_opts {
	int timeout_ms;      /* give up waiting after this much device time */
	int interval_ms;     /* pause between two frames */
	double tolerance;    /* fraction of pixels that may differ between "equal" frames */
	int status_bar_px;   /* rows ignored when comparing (the clock ticks) */
	int retries;         /* capture retries on a failing device */
} amc_settle_opts;

/* Per-channel difference (0-255) under which a pixel counts as unchanged. */
#define AMC_SETTLE_PIXEL_TOLERANCE 8

/* Capture screenshot + UI tree and build the scene. Failed captures are retried
 * `retries` times (a short device wait between tries). */
int amc_observe(amc_device *dev, int retries, amc_observation *out, amc_err *e);
/* After an action: capture until two consecutive frames match outside the status
 * bar (within the tolerance) or the timeout passes, then capture the tree of the
 * settled screen. *frames counts the screenshots taken; *settled is 0 when the
 * timeout ended the wait (the last frame is used). */
int amc_settle(amc_device *dev, const amc_settle_opts *o, amc_observation *out,
	       int *frames, int *settled, amc_err *e);
void amc_observation_free(amc_observation *o);

/* OCR of every observation in this process (default off; the runner sets it
 * from [ocr] policy). OCR words are fused into the scene and kept as JSON in
 * o->ocr_json. When tesseract's language data is missing the policy falls back
 * to off (logged once) and observations go on without OCR. */
void amc_observe_set_ocr(amc_ocr_policy p);
amc_ocr_policy amc_observe_ocr(void);

#endif
