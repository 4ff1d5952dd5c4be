#include "runtime/observe.h"

#include <stdlib.h>
#include <string.h>

#include "image/png.h"
#include "perception/ocr.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/strbuf.h"

void amc_observation_free(amc_observation *o)
{
	if (!o)
		return;
	free(o->png);
	amc_image_free(&o->img);
	free(o->xml);
	amc_uitree_free(&o->tree);
	amc_scene_free(&o->scene);
	free(o->png_path);
	free(o->tree_path);
	free(o->ocr_json);
	cJSON_Delete(o->semantic);
	memset(o, 0, sizeof *o);
}

/* One screenshot's PNG bytes, retried on device errors only. */
static int capture_png(amc_device *dev, int retries, unsigned char **png, size_t *len, amc_err *e)
{
	for (int attempt = 0;; attempt++) {
		amc_err le;
		amc_err_clear(&le);
		if (dev->ops->screenshot(dev, png, len, &le) == 0)
			return 0;
		if (attempt >= retries || le.code == AMC_EUSAGE) {
			if (e)
				*e = le;
			return amc_err_prefix(e, "screenshot failed after %d tries", attempt + 1);
		}
		dev->ops->wait(dev, 100, NULL);
	}
}

/* One frame's pixels, and its PNG when the device sends one. Retries on device
 * errors only: a PNG that does not decode is bad input from the device and is
 * reported as such. */
static int capture_frame(amc_device *dev, int retries, unsigned char **png, size_t *len,
			 amc_image *img, amc_err *e)
{
	if (!dev->ops->frame) {
		if (capture_png(dev, retries, png, len, e) != 0)
			return -1;
		if (amc_png_decode(*png, *len, img, e) != 0) {
			free(*png);
			*png = NULL;
			return amc_err_prefix(e, "%s sent a screenshot that is not a valid PNG", dev->id);
		}
		return 0;
	}
	for (int attempt = 0;; attempt++) {
		amc_err le;
		amc_err_clear(&le);
		/* pixels straight from an in-process device; the PNG of the frame
		 * that is kept is made in finish() */
		*png = NULL;
		*len = 0;
		if (dev->ops->frame(dev, img, &le) == 0)
			return 0;
		if (attempt >= retries || le.code == AMC_EUSAGE) {
			if (e)
				*e = le;
			return amc_err_prefix(e, "screenshot failed after %d tries", attempt + 1);
		}
		dev->ops->wait(dev, 100, NULL);
	}
}

static int capture_tree(amc_device *dev, int retries, amc_observation *o, amc_err *e)
{
	for (int attempt = 0;; attempt++) {
		amc_err le;
		amc_err_clear(&le);
		size_t len = 0;
		if (dev->ops->ui_tree(dev, &o->xml, &len, &le) == 0) {
			/* The frame is captured first: its width scales XCUITest points. */
			if (amc_uitree_parse_scaled(o->xml, len, o->img.w, &o->tree, e) != 0)
				return amc_err_prefix(e, "%s sent a UI tree that could not be read", dev->id);
			return 0;
		}
		if (attempt >= retries || le.code == AMC_EUSAGE) {
			if (e)
				*e = le;
			return amc_err_prefix(e, "UI dump failed after %d tries", attempt + 1);
		}
		dev->ops->wait(dev, 100, NULL);
	}
}

/* OCR never fails an observation: missing language data turns it off for the
 * rest of this caller's observations (ocr.c logs that once, naming the
 * package); any other failure leaves this observation without OCR words. */
static void ocr_observation(amc_observe_opts *oo, amc_observation *o)
{
	amc_ocr_policy p = oo->ocr;
	amc_ocr_result r;
	amc_err oe;
	amc_err_clear(&oe);
	if (p != AMC_OCR_OFF && amc_ocr_run(&o->img, &o->tree, p, &r, &oe) == 0) {
		if (amc_scene_fuse(&o->scene, &r, &oe) != 0)
			amc_log_warn("OCR fusion failed: %s", oe.msg);
		cJSON *j = amc_ocr_to_json(&r);
		o->ocr_json = cJSON_PrintUnformatted(j);
		cJSON_Delete(j);
		amc_ocr_result_free(&r);
	} else if (p != AMC_OCR_OFF) {
		if (oe.code == AMC_EENV)
			oo->ocr = AMC_OCR_OFF;
		else
			amc_log_warn("OCR failed, this observation has none: %s", oe.msg);
	}
	if (!o->ocr_json)
		o->ocr_json = amc_xstrdup("[]");
}

static int finish(amc_device *dev, amc_observe_opts *oo, amc_observation *o, amc_err *e)
{
	if (!o->png && amc_png_encode(&o->img, AMC_PNG_CAPTURE_LEVEL, &o->png, &o->png_len, e) != 0)
		return amc_err_prefix(e, "cannot encode the screenshot");
	if (capture_tree(dev, oo->retries, o, e) != 0)
		return -1;
	o->width = o->img.w;
	o->height = o->img.h;
	if (amc_scene_from_tree(&o->tree, o->width, o->height, &o->scene, e) != 0)
		return -1;
	ocr_observation(oo, o);
	o->captured_ms = amc_now_ms();
	return 0;
}

int amc_observe(amc_device *dev, amc_observe_opts *o, amc_observation *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	if (capture_frame(dev, o->retries, &out->png, &out->png_len, &out->img, e) != 0 ||
	    finish(dev, o, out, e) != 0) {
		amc_observation_free(out);
		return -1;
	}
	return 0;
}

int amc_settle_same(amc_png_probe *a, amc_png_probe *b, const amc_settle_opts *s)
{
	if (amc_png_probe_same(a, b, s->status_bar_px))
		return 1;
	/* samples only now: most settled frames are exactly equal */
	amc_err e;
	if (amc_png_probe_sample(a, &e) != 0 || amc_png_probe_sample(b, &e) != 0)
		return 0; /* out of memory: never taken as settled */
	/* sample row y is frame row y * step: skip those inside the status bar */
	int y0 = (s->status_bar_px + AMC_SETTLE_SAMPLE_STEP - 1) / AMC_SETTLE_SAMPLE_STEP;
	return amc_image_diff_fraction(&a->sample, &b->sample, y0, AMC_SETTLE_PIXEL_TOLERANCE) <= s->tolerance;
}

/* Settling on a device that sends PNGs: frames are probed (inflated and
 * unfiltered, never converted) and compared exactly, then on a sample when
 * they differ; only the kept frame is decoded, once, from its probe. */
static int settle_png(amc_device *dev, const amc_settle_opts *s, amc_observe_opts *o, amc_observation *out,
		      int *frames, int *settled, amc_err *e)
{
	amc_png_probe prev = { 0 }, cur = { 0 };
	if (capture_png(dev, o->retries, &out->png, &out->png_len, e) != 0)
		return -1;
	(*frames)++;
	int timeout = s->timeout_ms > 0;
	if (timeout && amc_png_probe_read(out->png, out->png_len, AMC_SETTLE_SAMPLE_STEP, &prev, e) != 0)
		goto bad_png;
	long waited = 0;
	while (waited < s->timeout_ms) {
		int step = s->interval_ms;
		if (dev->ops->wait(dev, step, e) != 0)
			goto fail;
		waited += step;
		unsigned char *png = NULL;
		size_t len = 0;
		if (capture_png(dev, o->retries, &png, &len, e) != 0)
			goto fail;
		(*frames)++;
		free(out->png);
		out->png = png;
		out->png_len = len;
		if (amc_png_probe_read(png, len, AMC_SETTLE_SAMPLE_STEP, &cur, e) != 0)
			goto bad_png;
		int same = amc_settle_same(&prev, &cur, s);
		amc_png_probe_free(&prev);
		prev = cur;
		memset(&cur, 0, sizeof cur);
		if (same) {
			*settled = 1;
			break;
		}
	}
	/* The kept frame is the last one probed (prev): its rows become the
	 * pixels in place, the frame's one decode, without inflating it again. */
	int rc = timeout ? amc_png_probe_to_image(&prev, &out->img, e)
			 : amc_png_decode(out->png, out->png_len, &out->img, e);
	amc_png_probe_free(&prev);
	if (rc != 0)
		goto bad_png;
	return 0;
bad_png:
	amc_err_prefix(e, "%s sent a screenshot that is not a valid PNG", dev->id);
fail:
	amc_png_probe_free(&prev);
	amc_png_probe_free(&cur);
	return -1;
}

int amc_settle(amc_device *dev, const amc_settle_opts *s, amc_observe_opts *o,
	       amc_observation *out, int *frames, int *settled, amc_err *e)
{
	memset(out, 0, sizeof *out);
	*frames = 0;
	*settled = 0;
	if (!dev->ops->frame) {
		if (settle_png(dev, s, o, out, frames, settled, e) != 0)
			goto fail;
		if (finish(dev, o, out, e) != 0)
			goto fail;
		return 0;
	}
	if (capture_frame(dev, o->retries, &out->png, &out->png_len, &out->img, e) != 0)
		goto fail;
	(*frames)++;
	long waited = 0;
	while (waited < s->timeout_ms) {
		int step = s->interval_ms;
		if (dev->ops->wait(dev, step, e) != 0)
			goto fail;
		waited += step;
		unsigned char *png = NULL;
		size_t len = 0;
		amc_image img = { 0 };
		if (capture_frame(dev, o->retries, &png, &len, &img, e) != 0)
			goto fail;
		(*frames)++;
		double d = amc_image_diff_fraction(&out->img, &img, s->status_bar_px, AMC_SETTLE_PIXEL_TOLERANCE);
		free(out->png);
		amc_image_free(&out->img);
		out->png = png;
		out->png_len = len;
		out->img = img;
		if (d <= s->tolerance) {
			*settled = 1;
			break;
		}
	}
	if (finish(dev, o, out, e) != 0)
		goto fail;
	return 0;
fail:
	amc_observation_free(out);
	return -1;
}
