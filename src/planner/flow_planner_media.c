/* flow_planner_media.c - the commands about what the screen looks like:
 * takeScreenshot (cropOn), assertScreenshot, startRecording/stopRecording
 * and the appearance commands (setDarkMode, toggleDarkMode, assertDarkMode,
 * assertLightMode), each one step of a tool (screenshot, assert_screenshot,
 * record, set_device, get_device: runtime/tools.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "flow/flow_cmds.h"
#include "planner/flow_planner_int.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static void describe(amc_action *out, const char *what, const char *text)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, what);
	if (text) {
		amc_sb_putc(&sb, ' ');
		amc_sanitize_line(text, strlen(text) > 120 ? 120 : strlen(text), &sb);
	}
	free(out->description);
	out->description = amc_sb_detach(&sb);
}

/* cropOn's element on this screen, as "crop": [x1, y1, x2, y2] in args.
 * FP_ACT with *found 1 (crop added), FP_REOBSERVE while it may still come,
 * FP_ACT with the step decided (not found, or skipped when optional), FP_FAIL. */
static int add_crop(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, const char *tool,
		    amc_action *out, int *found, amc_err *e)
{
	*found = 0;
	amc_selector s;
	int i = fp_find_now(fp, c, &c->sel, ctx, &s, e);
	if (i == -2) {
		amc_selector_clear(&s);
		return FP_FAIL;
	}
	if (i < 0 && ctx && ctx->waited_ms < fp->wait_ms) {
		amc_selector_clear(&s);
		return FP_REOBSERVE;
	}
	if (i < 0 && c->sel.optional) {
		fp_skip_optional(fp, c, &s, out, tool, "cropOn: not visible");
		amc_selector_clear(&s);
		return FP_ACT;
	}
	fp_begin(fp, c, tool, out);
	if (i < 0) {
		fp_decide(out, 0, fp_not_found(fp, c, &s, ctx, "cropOn: no element matches"), NULL);
	} else {
		const amc_bounds *b = &fp_obs_tree(ctx)->nodes[i].bounds;
		cJSON *box = cJSON_AddArrayToObject(out->args, "crop");
		cJSON_AddItemToArray(box, cJSON_CreateNumber(b->x1));
		cJSON_AddItemToArray(box, cJSON_CreateNumber(b->y1));
		cJSON_AddItemToArray(box, cJSON_CreateNumber(b->x2));
		cJSON_AddItemToArray(box, cJSON_CreateNumber(b->y2));
		*found = 1;
	}
	amc_selector_clear(&s);
	return FP_ACT;
}

/* The file a flow names, relative to the flow file's folder (as Maestro
 * resolves flowPath.resolve(path)); absolute paths stay. Caller frees. */
static char *beside_flow(flow_planner *fp, const char *p)
{
	const char *path = fp_top(fp)->file ? fp_top(fp)->file->path : NULL;
	const char *slash = path ? strrchr(path, '/') : NULL;
	amc_sb sb;
	amc_sb_init(&sb);
	if (p[0] != '/' && slash)
		amc_sb_printf(&sb, "%.*s/", (int)(slash - path), path);
	amc_sb_puts(&sb, p);
	return amc_sb_detach(&sb);
}

/* Maestro's normalizeScreenshotPath: a path without an image extension gets ".png". */
static char *with_png(const char *p)
{
	static const char *const EXT[] = { ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tiff", ".wbmp", ".heic", ".heif" };
	size_t n = strlen(p);
	for (size_t i = 0; i < sizeof EXT / sizeof EXT[0]; i++) {
		size_t k = strlen(EXT[i]);
		if (n >= k && !strcasecmp(p + n - k, EXT[i]))
			return amc_xstrdup(p);
	}
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s.png", p);
	return amc_sb_detach(&sb);
}

/* takeScreenshot, or assertScreenshot when `assert`. */
static int screenshot(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, int assert,
		      amc_err *e)
{
	const char *tool = assert ? "assert_screenshot" : "screenshot";
	char *path = NULL;
	if (c->text && fp_interp(fp, c, c->text, &path, e) != 0)
		return FP_FAIL;
	double threshold = 95; /* YamlAssertScreenshot's DEFAULT_DIFF_THRESHOLD */
	if (assert && c->direction) {
		char *t = NULL, *end;
		if (fp_interp(fp, c, c->direction, &t, e) != 0) {
			free(path);
			return FP_FAIL;
		}
		threshold = strtod(t, &end);
		int bad = !*t || *end || threshold < 0 || threshold > 100;
		if (bad) {
			char *w = fp_where(fp, c), *q = amc_sanitize_dup(t);
			amc_err_set(e, AMC_EUSAGE, "%s: assertScreenshot: thresholdPercentage must be a number from 0 to "
				    "100, got '%.40s'", w, q);
			free(w);
			free(q);
		}
		free(t);
		if (bad) {
			free(path);
			return FP_FAIL;
		}
	}
	int found = 1, rc = FP_ACT;
	if (c->crop) {
		rc = add_crop(fp, c, ctx, tool, out, &found, e);
		if (rc != FP_ACT || !found) {
			free(path);
			return rc;
		}
	} else {
		fp_begin(fp, c, tool, out);
	}
	if (assert) {
		char *ref = with_png(path);
		size_t n = strlen(ref);
		cJSON *refs = cJSON_AddArrayToObject(out->args, "references");
		char *beside = beside_flow(fp, ref);
		cJSON_AddItemToArray(refs, cJSON_CreateString(beside));
		if (strcmp(beside, ref))
			cJSON_AddItemToArray(refs, cJSON_CreateString(ref));
		free(beside);
		if (n > 4 && !strcasecmp(ref + n - 4, ".png")) /* what takeScreenshot NAME kept as shot-NAME.png */
			ref[n - 4] = '\0';
		cJSON_AddStringToObject(out->args, "shot", ref);
		cJSON_AddStringToObject(out->args, "name", ref);
		cJSON_AddNumberToObject(out->args, "threshold", threshold);
		free(ref);
		describe(out, "assertScreenshot", path);
	} else {
		if (path)
			cJSON_AddStringToObject(out->args, "name", path);
		describe(out, "takeScreenshot", path);
	}
	free(path);
	return FP_ACT;
}

int fp_plan_take_screenshot(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			    amc_err *e)
{
	return screenshot(fp, c, ctx, out, 0, e);
}

int fp_plan_assert_screenshot(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			      amc_err *e)
{
	return screenshot(fp, c, ctx, out, 1, e);
}

int fp_plan_start_recording(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			    amc_err *e)
{
	(void)ctx;
	char *name = NULL;
	if (fp_interp(fp, c, c->text, &name, e) != 0)
		return FP_FAIL;
	fp_begin(fp, c, "record", out);
	cJSON_AddStringToObject(out->args, "op", "start");
	cJSON_AddStringToObject(out->args, "name", name);
	describe(out, "startRecording", name);
	free(fp->rec_name);
	fp->rec_name = name;
	return FP_ACT;
}

int fp_plan_stop_recording(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			   amc_err *e)
{
	(void)ctx;
	(void)e;
	fp_begin(fp, c, "record", out);
	cJSON_AddStringToObject(out->args, "op", "stop");
	cJSON_AddStringToObject(out->args, "name", fp->rec_name ? fp->rec_name : "recording");
	describe(out, "stopRecording", fp->rec_name);
	free(fp->rec_name);
	fp->rec_name = NULL;
	return FP_ACT;
}

/* setDarkMode, toggleDarkMode: set_device dark_mode to v; `said` after the name. */
static int dark_mode(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *v, const char *said)
{
	fp_begin(fp, c, "set_device", out);
	cJSON_AddStringToObject(out->args, "setting", "dark_mode");
	cJSON_AddStringToObject(out->args, "value", v);
	describe(out, amc_flow_cmd_name(c), said);
	return FP_ACT;
}

int fp_plan_set_dark_mode(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			  amc_err *e)
{
	(void)ctx;
	(void)e;
	return dark_mode(fp, c, out, c->text && !strcmp(c->text, "enabled") ? "on" : "off", c->text);
}

int fp_plan_toggle_dark_mode(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			     amc_err *e)
{
	(void)ctx;
	(void)e;
	return dark_mode(fp, c, out, "toggle", NULL);
}

/* assertDarkMode, assertLightMode: get_device dark_mode expecting on/off. */
static int expect_mode(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *expect)
{
	fp_begin(fp, c, "get_device", out);
	cJSON_AddStringToObject(out->args, "setting", "dark_mode");
	cJSON_AddStringToObject(out->args, "expect", expect);
	describe(out, amc_flow_cmd_name(c), NULL);
	return FP_ACT;
}

int fp_plan_assert_dark_mode(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			     amc_err *e)
{
	(void)ctx;
	(void)e;
	return expect_mode(fp, c, out, "on");
}

int fp_plan_assert_light_mode(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			      amc_err *e)
{
	(void)ctx;
	(void)e;
	return expect_mode(fp, c, out, "off");
}
