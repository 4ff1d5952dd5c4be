/* tools_media.c - the tools that make files of the screen (tools_media.h).
 * The files are the task's artifacts (amc_tool_ctx.put), named from the
 * flow's words made safe: shot-NAME.png (takeScreenshot), rec-NAME.apng or
 * .mp4 (a recording), diff-NAME.png (a failed assertScreenshot). */
#include "runtime/tools_media.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/png.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* Maestro's tolerance per pixel (ScreenshotMatch.DEFAULT_PIXEL_TOLERANCE). */
#define MATCH_TOLERANCE 0.1

/* PREFIX-NAME.EXT with NAME's bytes outside [A-Za-z0-9._-] as '_' (a
 * Maestro path "shots/home" is "shots_home"), at most 80 of them. */
static void file_name(char *out, size_t n, const char *prefix, const char *name, const char *ext)
{
	char safe[81];
	size_t k = 0;
	for (const char *p = name && *name ? name : "screen"; *p && k < 80; p++) {
		char ch = *p;
		int okc = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
			  ch == '_' || (ch == '.' && k > 0);
		safe[k++] = okc ? ch : '_';
	}
	safe[k] = '\0';
	snprintf(out, n, "%s-%s.%s", prefix, safe, ext);
}

static int no_files(amc_err *e)
{
	return amc_err_set(e, AMC_EUSAGE, "this front end keeps no files for a step (run it as a task: amc run)");
}

/* The screen the step saw, as pixels (a copy the caller frees). */
static int screen_px(const amc_tool_ctx *c, amc_image *out, amc_err *e)
{
	if (c->obs->img.px)
		return amc_image_copy(&c->obs->img, out, e);
	return amc_png_decode(c->obs->png, c->obs->png_len, out, e);
}

/* args.crop [x1, y1, x2, y2] clamped to the screen: 1 and the box, 0 none,
 * -1 an empty box (e says so). */
static int crop_box(const cJSON *args, const amc_image *img, int box[4], amc_err *e)
{
	const cJSON *cr = cJSON_GetObjectItemCaseSensitive(args, "crop");
	if (!cr)
		return 0;
	if (!cJSON_IsArray(cr) || cJSON_GetArraySize(cr) != 4)
		return amc_err_set(e, AMC_EUSAGE, "crop must be [x1, y1, x2, y2]");
	for (int i = 0; i < 4; i++) {
		const cJSON *v = cJSON_GetArrayItem(cr, i);
		double d = cJSON_IsNumber(v) ? v->valuedouble : -1;
		int lim = i % 2 ? img->h : img->w;
		box[i] = d < 0 ? 0 : d > lim ? lim : (int)d;
	}
	if (box[2] <= box[0] || box[3] <= box[1])
		return amc_err_set(e, AMC_EFAIL, "cannot crop the screenshot: the element has no size on screen "
				   "(%d,%d-%d,%d)", box[0], box[1], box[2], box[3]);
	return 1;
}

/* The screen, cropped to args.crop when given, into *out. */
static int screen_cropped(const amc_tool_ctx *c, const cJSON *args, amc_image *out, int *cropped, amc_err *e)
{
	amc_image full;
	int box[4];
	if (screen_px(c, &full, e) != 0)
		return -1;
	*cropped = crop_box(args, &full, box, e);
	if (*cropped < 0) {
		amc_image_free(&full);
		return -1;
	}
	if (!*cropped) {
		*out = full;
		return 0;
	}
	int rc = amc_image_crop(&full, box[0], box[1], box[2] - box[0], box[3] - box[1], out, e);
	amc_image_free(&full);
	return rc;
}

static int put_png(const amc_tool_ctx *c, const char *name, const amc_image *img, char *rel, size_t reln, amc_err *e)
{
	unsigned char *png = NULL;
	size_t len = 0;
	if (amc_png_encode(img, AMC_PNG_CAPTURE_LEVEL, &png, &len, e) != 0)
		return -1;
	int rc = c->put(c->put_ud, name, png, len, rel, reln, e);
	free(png);
	return rc;
}

/* takeScreenshot: the screen the step saw; with a name, also a file of its
 * own (cropped to args.crop: cropOn's element), as Maestro writes NAME.png. */
int amc_tool_screenshot(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *name = amc_json_str(args, "name");
	cJSON *r = cJSON_CreateObject();
	*res = r;
	if (!name && !cJSON_GetObjectItemCaseSensitive(args, "crop")) {
		cJSON_AddNumberToObject(r, "width", c->obs->width);
		cJSON_AddNumberToObject(r, "height", c->obs->height);
		cJSON_AddNumberToObject(r, "png_bytes", (double)c->obs->png_len);
		if (c->obs->png_path)
			cJSON_AddStringToObject(r, "file", c->obs->png_path);
		return 0;
	}
	if (!c->put)
		return no_files(e);
	amc_image img;
	int cropped = 0;
	if (screen_cropped(c, args, &img, &cropped, e) != 0)
		return -1;
	char fname[128], rel[PATH_MAX];
	file_name(fname, sizeof fname, "shot", name, "png");
	int rc = put_png(c, fname, &img, rel, sizeof rel, e);
	cJSON_AddNumberToObject(r, "width", img.w);
	cJSON_AddNumberToObject(r, "height", img.h);
	cJSON_AddBoolToObject(r, "cropped", cropped);
	amc_image_free(&img);
	if (rc == 0)
		cJSON_AddStringToObject(r, "file", rel);
	return rc;
}

/* startRecording/stopRecording: the driver records, the stop's bytes become
 * rec-NAME.EXT. */
int amc_tool_record(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *op = amc_json_str(args, "op"), *name = amc_json_str(args, "name");
	if (!op || (strcmp(op, "start") && strcmp(op, "stop")))
		return amc_err_set(e, AMC_EUSAGE, "record 'op' must be start or stop");
	const amc_device_ops *o = c->dev->ops;
	if (!o->record_start || !o->record_stop)
		return amc_err_set(e, AMC_EUSAGE, "%s devices cannot record their screen", o->kind);
	if (!strcmp(op, "start")) {
		if (!c->put)
			return no_files(e);
		if (o->record_start(c->dev, e) != 0)
			return -1;
		*res = cJSON_CreateObject();
		cJSON_AddStringToObject(*res, "recording", "started");
		return 0;
	}
	unsigned char *data = NULL;
	size_t len = 0;
	char ext[8] = "bin", fname[128], rel[PATH_MAX];
	int frames = -1;
	if (o->record_stop(c->dev, &data, &len, ext, sizeof ext, &frames, e) != 0)
		return -1;
	if (!c->put) {
		free(data);
		return no_files(e);
	}
	file_name(fname, sizeof fname, "rec", name, ext);
	int rc = c->put(c->put_ud, fname, data, len, rel, sizeof rel, e);
	free(data);
	if (rc != 0)
		return -1;
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "file", rel);
	cJSON_AddStringToObject(r, "format", ext);
	cJSON_AddNumberToObject(r, "bytes", (double)len);
	if (frames >= 0)
		cJSON_AddNumberToObject(r, "frames", frames);
	*res = r;
	return 0;
}

/* The reference: args.references in order, with this task's own
 * shot-SHOT.png (a takeScreenshot earlier in the run) second, as Maestro
 * looks in the flow's folder, then its screenshots, then where it runs. */
static int find_reference(const amc_tool_ctx *c, const cJSON *args, char *path, size_t n, amc_sb *tried)
{
	const cJSON *refs = cJSON_GetObjectItemCaseSensitive(args, "references");
	const char *shot = amc_json_str(args, "shot");
	int nrefs = cJSON_IsArray(refs) ? cJSON_GetArraySize(refs) : 0, last = nrefs > 0 ? nrefs : 1;
	/* candidate k: references[0], then the shot, then references[1...] */
	for (int k = 0; k <= last; k++) {
		char cand[PATH_MAX];
		int ref = k == 0 ? 0 : k == 1 ? -1 : k - 1;
		if (k == 0 && nrefs == 0)
			continue;
		if (ref < 0) {
			if (!shot || !c->home || !c->task_id)
				continue;
			char fname[128];
			file_name(fname, sizeof fname, "shot", shot, "png");
			snprintf(cand, sizeof cand, "%s/artifacts/%s/%s", c->home, c->task_id, fname);
		} else {
			const cJSON *v = cJSON_GetArrayItem(refs, ref);
			if (!cJSON_IsString(v))
				continue;
			snprintf(cand, sizeof cand, "%s", v->valuestring);
		}
		amc_sb_puts(tried, tried->len ? ", " : "");
		amc_sanitize_line(cand, strlen(cand) > 200 ? 200 : strlen(cand), tried);
		if (amc_file_exists(cand)) {
			snprintf(path, n, "%s", cand);
			return 0;
		}
	}
	return -1;
}

/* assertScreenshot: the screen (cropped to cropOn's element) against a
 * reference PNG, Maestro's rule (ScreenshotMatch): the same size, and at
 * least `threshold` % of the pixels within its tolerance; a failure keeps
 * diff-NAME.png (the screen, differing pixels red) as evidence. */
int amc_tool_assert_screenshot(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const cJSON *th = cJSON_GetObjectItemCaseSensitive(args, "threshold");
	double threshold = cJSON_IsNumber(th) ? th->valuedouble : 95;
	char ref[PATH_MAX];
	amc_sb tried;
	amc_sb_init(&tried);
	if (find_reference(c, args, ref, sizeof ref, &tried) != 0) {
		amc_err_set(e, AMC_EFAIL, "assertScreenshot: no reference image; looked for %s (make one with "
			    "takeScreenshot, or `amc sim screenshot FILE` on the sim)", amc_sb_str(&tried));
		amc_sb_free(&tried);
		return -1;
	}
	amc_sb_free(&tried);
	amc_image want, got;
	if (amc_png_decode_file(ref, &want, e) != 0)
		return amc_err_prefix(e, "assertScreenshot: the reference is not a PNG amc reads");
	int cropped = 0;
	if (screen_cropped(c, args, &got, &cropped, e) != 0) {
		amc_image_free(&want);
		return -1;
	}
	amc_image diff;
	double m = amc_image_match_percent(&want, &got, MATCH_TOLERANCE, &diff);
	cJSON *r = cJSON_CreateObject();
	*res = r;
	char *safe = amc_sanitize_dup(ref);
	cJSON_AddStringToObject(r, "reference", safe);
	cJSON_AddNumberToObject(r, "threshold", threshold);
	int rc = 0;
	if (m < 0) {
		rc = amc_err_set(e, AMC_EFAIL, "assertScreenshot: size mismatch: %s is %dx%d, the screen%s %dx%d (use "
				 "the same device, or cropOn)", safe, want.w, want.h, cropped ? " cropped" : "", got.w,
				 got.h);
	} else {
		cJSON_AddNumberToObject(r, "match_percent", (double)(long long)(m * 100) / 100);
		if (m < threshold) {
			char fname[128], rel[PATH_MAX] = "";
			file_name(fname, sizeof fname, "diff", amc_json_str(args, "name"), "png");
			amc_err de;
			if (diff.px && c->put && put_png(c, fname, &diff, rel, sizeof rel, &de) == 0)
				cJSON_AddStringToObject(r, "diff", rel);
			rc = amc_err_set(e, AMC_EFAIL, "assertScreenshot: the screen matches %s at %.2f %%, below the "
					 "threshold of %g %%%s%s", safe, m, threshold, rel[0] ? " (differences in red: " : "",
					 rel[0] ? rel : "");
			if (rel[0])
				snprintf(e->msg + strlen(e->msg), sizeof e->msg - strlen(e->msg), ")");
		}
	}
	free(safe);
	amc_image_free(&diff);
	amc_image_free(&want);
	amc_image_free(&got);
	return rc;
}
