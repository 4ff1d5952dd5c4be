/* stepdiff.c - a step's before/after difference (see stepdiff.h). */
#include "runtime/stepdiff.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/png.h"
#include "runtime/observe.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"
#include "storage/stored_tree.h"

int amc_stepdiff_is_action(const char *tool)
{
	static const char *const ACTIONS[] = { "tap", "long_press", "swipe", "type_text", "press_key" };
	for (size_t i = 0; tool && i < sizeof ACTIONS / sizeof ACTIONS[0]; i++)
		if (!strcmp(tool, ACTIONS[i]))
			return 1;
	return 0;
}

/* A tap's point: its x/y arguments, else the centre of the element it
 * matched. 1 when known. */
int amc_stepdiff_tap_point(const cJSON *args, const cJSON *result, int *x, int *y)
{
	const cJSON *jx = cJSON_GetObjectItemCaseSensitive(args, "x"), *jy = cJSON_GetObjectItemCaseSensitive(args, "y");
	if (cJSON_IsNumber(jx) && cJSON_IsNumber(jy)) {
		*x = jx->valueint;
		*y = jy->valueint;
		return 1;
	}
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(result, "matched");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(m, "bounds");
	if (!cJSON_IsArray(b) || cJSON_GetArraySize(b) != 4)
		return 0;
	*x = (cJSON_GetArrayItem(b, 0)->valueint + cJSON_GetArrayItem(b, 2)->valueint) / 2;
	*y = (cJSON_GetArrayItem(b, 1)->valueint + cJSON_GetArrayItem(b, 3)->valueint) / 2;
	return 1;
}

/* 1 when the deepest displayed node of `t` under x,y, or one of its
 * ancestors, has focus: the tap landed on the focused field. */
static int tap_on_focused(const amc_ui_tree *t, int x, int y)
{
	int best = -1;
	for (size_t i = 0; t && i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		if ((n->flags & AMC_NODE_DISPLAYED) && x >= n->bounds.x1 && x < n->bounds.x2 && y >= n->bounds.y1 &&
		    y < n->bounds.y2 && (best < 0 || n->depth >= t->nodes[best].depth))
			best = (int)i;
	}
	for (int i = best; i >= 0; i = t->nodes[i].parent)
		if (t->nodes[i].flags & AMC_NODE_FOCUSED)
			return 1;
	return 0;
}

cJSON *amc_stepdiff_compute(const amc_stepdiff_in *in)
{
	cJSON *j = cJSON_CreateObject();
	int action = amc_stepdiff_is_action(in->tool);
	cJSON_AddBoolToObject(j, "action", action);
	int tree_empty = -1; /* unknown */
	if (in->before && in->after) {
		amc_tree_diff d;
		amc_treediff(in->before, in->after, &d);
		tree_empty = d.n == 0;
		cJSON_AddItemToObject(j, "tree", amc_treediff_to_json(&d, in->before, in->after));
		amc_treediff_free(&d);
	} else {
		cJSON_AddNullToObject(j, "tree");
		cJSON_AddStringToObject(j, "tree_missing", !in->before && !in->after ? "both" : !in->before ? "before" : "after");
	}
	int pixels_same = -1;
	const amc_image *a = in->before_img, *b = in->after_img;
	if (a && b && a->px && b->px) {
		int bar = in->status_bar_px > 0 ? in->status_bar_px : 0;
		double f = amc_image_diff_fraction(a, b, bar, AMC_SETTLE_PIXEL_TOLERANCE);
		pixels_same = f <= in->tolerance;
		cJSON *p = cJSON_AddObjectToObject(j, "pixels");
		/* six decimals: a single pixel of a phone screen still shows */
		cJSON_AddNumberToObject(p, "changed", round(f * 1e6) / 1e6);
		cJSON_AddNumberToObject(p, "tolerance", in->tolerance);
		cJSON_AddNumberToObject(p, "status_bar_px", bar);
	} else {
		cJSON_AddNullToObject(j, "pixels");
	}
	int focused = in->have_tap && in->tool && !strcmp(in->tool, "tap") && in->before &&
		      tap_on_focused(in->before, in->tap_x, in->tap_y);
	if (focused)
		cJSON_AddTrueToObject(j, "focused_field");
	if (!action || focused)
		cJSON_AddFalseToObject(j, "changed_nothing");
	else if (tree_empty == 0 || pixels_same == 0)
		cJSON_AddFalseToObject(j, "changed_nothing");
	else if (tree_empty == 1 && pixels_same == 1)
		cJSON_AddTrueToObject(j, "changed_nothing");
	else
		cJSON_AddNullToObject(j, "changed_nothing");
	return j;
}

/* "artifacts/t/obs-0001.png" -> "artifacts/t/obs-0001-tree.json" (how the
 * runner names an observation's tree); 0 when `png` does not end in ".png". */
static int tree_path_of(const char *png, char *out, size_t n)
{
	size_t len = png ? strlen(png) : 0;
	if (len < 5 || strcmp(png + len - 4, ".png") != 0 || len - 4 + sizeof "-tree.json" > n)
		return 0;
	memcpy(out, png, len - 4);
	memcpy(out + len - 4, "-tree.json", sizeof "-tree.json");
	return 1;
}


static int load_image(amc_store *s, const char *rel, amc_image *img)
{
	char abs[PATH_MAX];
	amc_err e;
	return rel && amc_store_artifact_abspath(s, rel, abs, sizeof abs, &e) == 0 && amc_file_exists(abs) &&
	       amc_png_decode_file(abs, img, &e) == 0;
}

/* The stored tree at `rel` into *t: 1, or 0 when it cannot be had. */
static int stored_tree(amc_store *s, const char *rel, amc_ui_tree *t)
{
	amc_err e;
	return amc_stored_tree_load(s, rel, t, &e) == 0;
}

int amc_stepdiff_of_row(amc_store *s, const amc_step_row *r, char **json_out, amc_err *e)
{
	*json_out = NULL;
	if (!r)
		return amc_err_set(e, AMC_EUSAGE, "no step to compare");
	if (r->tree_diff) {
		*json_out = amc_xstrdup(r->tree_diff);
		return 0;
	}
	char bpath[PATH_MAX], apath[PATH_MAX];
	amc_ui_tree bt = { 0 }, at = { 0 };
	int have_b = tree_path_of(r->before_screenshot, bpath, sizeof bpath) && stored_tree(s, bpath, &bt);
	const char *arel = r->ui_tree_path;
	if (!arel && tree_path_of(r->after_screenshot, apath, sizeof apath))
		arel = apath;
	int have_a = stored_tree(s, arel, &at);
	amc_image bi = { 0 }, ai = { 0 };
	int have_bi = load_image(s, r->before_screenshot, &bi);
	int have_ai = have_bi && load_image(s, r->after_screenshot, &ai);
	int h = have_ai ? ai.h : 0;
	amc_stepdiff_in in = { r->tool, have_b ? &bt : NULL, have_a ? &at : NULL, have_bi ? &bi : NULL,
			       have_ai ? &ai : NULL, (int)lround(h * AMC_STEPDIFF_STATUS_BAR_FRACTION),
			       AMC_STEPDIFF_TOLERANCE, 0, 0, 0 };
	cJSON *ja = r->args ? cJSON_Parse(r->args) : NULL, *jr = r->result ? cJSON_Parse(r->result) : NULL;
	in.have_tap = amc_stepdiff_tap_point(ja, jr, &in.tap_x, &in.tap_y);
	cJSON_Delete(ja);
	cJSON_Delete(jr);
	cJSON *j = amc_stepdiff_compute(&in);
	*json_out = amc_json_print(j);
	cJSON_Delete(j);
	amc_uitree_free(&bt);
	amc_uitree_free(&at);
	amc_image_free(&bi);
	amc_image_free(&ai);
	return 0;
}

int amc_stepdiff_load(amc_store *s, const char *task_id, int step, char **json_out, amc_err *e)
{
	*json_out = NULL;
	amc_task_row t;
	if (amc_store_get_task(s, task_id, &t, e) != 0)
		return -1;
	amc_step_row *rows = NULL;
	size_t n = 0;
	int rc = amc_store_get_steps(s, t.id, &rows, &n, e);
	const amc_step_row *one = NULL;
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (rows[i].step == step)
			one = &rows[i];
	if (rc == 0 && !one)
		rc = amc_err_set(e, AMC_EUSAGE, "task %s has no step %d (it has %zu)", t.id, step, n);
	if (rc == 0)
		rc = amc_stepdiff_of_row(s, one, json_out, e);
	amc_step_rows_free(rows, n);
	amc_task_row_free(&t);
	return rc;
}

int amc_stepdiff_changed_nothing(const char *json)
{
	cJSON *j = json ? cJSON_Parse(json) : NULL;
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "changed_nothing");
	int v = cJSON_IsBool(f) ? cJSON_IsTrue(f) : -1;
	cJSON_Delete(j);
	return v;
}

static double num(const cJSON *o, const char *key, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

int amc_stepdiff_render(const char *json, int utf8, amc_treediff_line_fn fn, void *ud)
{
	cJSON *j = json ? cJSON_Parse(json) : NULL;
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		fn(' ', json ? "  (the stored difference is not readable)" : "  (no difference recorded)", ud);
		return 1;
	}
	int lines = 0;
	amc_sb sb;
	amc_sb_init(&sb);
	const cJSON *tree = cJSON_GetObjectItemCaseSensitive(j, "tree");
	const cJSON *px = cJSON_GetObjectItemCaseSensitive(j, "pixels");
	const cJSON *cn = cJSON_GetObjectItemCaseSensitive(j, "changed_nothing");
	if (cJSON_IsTrue(cn)) {
		amc_sb_printf(&sb, "! changed nothing: the UI tree is the same and %.2f%% of the pixels outside the status "
			      "bar changed (at most %.2f%% counts as none): a missed tap?",
			      num(px, "changed", 0) * 100, num(px, "tolerance", 0) * 100);
		fn('!', amc_sb_str(&sb), ud);
		lines++;
	}
	amc_sb_reset(&sb);
	if (cJSON_IsObject(tree)) {
		double m = num(tree, "matched", 0), c = num(tree, "changed", 0);
		amc_sb_printf(&sb, "  tree: %.0f added, %.0f removed, %.0f changed, %.0f unchanged",
			      num(tree, "added", 0), num(tree, "removed", 0), c, m - c > 0 ? m - c : 0);
	} else {
		const char *miss = amc_json_str(j, "tree_missing");
		amc_sb_printf(&sb, "  tree: unknown (the %s tree is not recorded)",
			      miss && !strcmp(miss, "both") ? "before and after" : miss && !strcmp(miss, "after") ? "after" : "before");
	}
	fn(' ', amc_sb_str(&sb), ud);
	lines++;
	amc_sb_reset(&sb);
	if (cJSON_IsObject(px))
		amc_sb_printf(&sb, "  pixels: %.2f%% changed outside the status bar (top %.0f rows)",
			      num(px, "changed", 0) * 100, num(px, "status_bar_px", 0));
	else
		amc_sb_puts(&sb, "  pixels: unknown (a screenshot is not recorded)");
	fn(' ', amc_sb_str(&sb), ud);
	lines++;
	if (cJSON_IsNull(cn) && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "action"))) {
		fn(' ', "  whether the action changed anything is unknown", ud);
		lines++;
	}
	if (cJSON_IsObject(tree))
		lines += amc_treediff_render(tree, utf8, fn, ud);
	amc_sb_free(&sb);
	cJSON_Delete(j);
	return lines;
}

static void join_line(char op, const char *line, void *ud)
{
	(void)op;
	amc_sb_puts(ud, line);
	amc_sb_putc(ud, '\n');
}

char *amc_stepdiff_text(const char *json, int utf8)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_stepdiff_render(json, utf8, join_line, &sb);
	return amc_sb_detach(&sb);
}
