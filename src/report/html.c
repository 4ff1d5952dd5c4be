/* html.c - `amc export TASK --html FILE`: one self-contained page.
 *
 * Nothing in the page is fetched: screenshots are data: URLs, the style is in
 * the page, there is no script, and a Content-Security-Policy meta tag says
 * so to the browser (AMC_REPORT_CSP). Every string that came from a device,
 * OCR, a model or a file goes through amc_report_html_escape. Collapsible
 * parts (OCR words, the UI tree) are <details>, which needs no script. */
#include "report/report.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "image/jpeg.h"
#include "image/png.h"
#include "perception/uitree.h"
#include "report/action.h"
#include "runtime/stepdiff.h"
#include "util/base64.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "storage/stored_tree.h"

void amc_report_html_escape(amc_sb *out, const char *s)
{
	if (!s)
		return;
	amc_sb safe;
	amc_sb_init(&safe);
	amc_sanitize_text(s, strlen(s), &safe);
	for (const char *p = amc_sb_str(&safe); *p; p++) {
		switch (*p) {
		case '&': amc_sb_puts(out, "&amp;"); break;
		case '<': amc_sb_puts(out, "&lt;"); break;
		case '>': amc_sb_puts(out, "&gt;"); break;
		case '"': amc_sb_puts(out, "&quot;"); break;
		case '\'': amc_sb_puts(out, "&#39;"); break;
		default: amc_sb_putc(out, *p);
		}
	}
	amc_sb_free(&safe);
}

#define ESC(sb, s) amc_report_html_escape((sb), (s))

/* ---- screenshots -------------------------------------------------------- */

#define MARK_RGBA 0xff2d55ffu  /* the action's target */
#define PATH_RGBA 0x0a84ffffu  /* a swipe's path */

/* A thick dot, for drawing lines out of the one primitive image.h has. */
static void dot(amc_image *img, int x, int y, uint32_t rgba)
{
	amc_image_rect(img, x - 2, y - 2, x + 2, y + 2, 3, rgba);
}

static void line(amc_image *img, int x0, int y0, int x1, int y1, uint32_t rgba)
{
	int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
	int err = dx + dy;
	for (int guard = 0; guard < 20000; guard++) {
		dot(img, x0, y0, rgba);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

static int read_bounds(const cJSON *arr, amc_bounds *b)
{
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != 4)
		return -1;
	int v[4];
	for (int i = 0; i < 4; i++) {
		const cJSON *x = cJSON_GetArrayItem(arr, i);
		if (!cJSON_IsNumber(x))
			return -1;
		v[i] = x->valueint;
	}
	*b = (amc_bounds){ v[0], v[1], v[2], v[3] };
	return 0;
}

/* The smallest scene element containing (x, y), else -1. */
static int element_at(const cJSON *scene, int x, int y, amc_bounds *out)
{
	const cJSON *el;
	long best = -1;
	cJSON_ArrayForEach(el, cJSON_GetObjectItemCaseSensitive(scene, "elements")) {
		amc_bounds b;
		if (read_bounds(cJSON_GetObjectItemCaseSensitive(el, "bounds"), &b) != 0)
			continue;
		long area = (long)(b.x2 - b.x1) * (b.y2 - b.y1);
		if (x >= b.x1 && x < b.x2 && y >= b.y1 && y < b.y2 && area > 0 && (best < 0 || area < best)) {
			best = area;
			*out = b;
		}
	}
	return best < 0 ? -1 : 0;
}

#define MATCH_RGBA 0x1a7f37ffu /* the element an assertion matched */
#define RING_R 14              /* a tap's ring, in the embedded image's pixels */
#define TICK_LEN 12            /* a tap's crosshair ticks outside the element */

static void px_set(amc_image *img, int x, int y, uint32_t rgba)
{
	if (x < 0 || y < 0 || x >= img->w || y >= img->h)
		return;
	unsigned char *p = img->px + ((size_t)y * img->w + x) * 4;
	p[0] = rgba >> 24;
	p[1] = rgba >> 16;
	p[2] = rgba >> 8;
	p[3] = rgba;
}

/* A point with nothing drawn over it: a ring with a hollow centre, for a
 * point on no known element. */
static void ring(amc_image *img, int cx, int cy, uint32_t rgba)
{
	int ro = RING_R, ri = RING_R - 3;
	for (int dy = -ro; dy <= ro; dy++)
		for (int dx = -ro; dx <= ro; dx++) {
			int d2 = dx * dx + dy * dy;
			if (d2 <= ro * ro && d2 >= ri * ri)
				px_set(img, cx + dx, cy + dy, rgba);
		}
}

/* A tap on an element: the element boxed just outside its edges and four
 * ticks outside the box that point at the tapped point along its row and
 * column, so the crosshair meets at the point while nothing is drawn over
 * the element's label (a filled dot and box at the point covered it). */
static void crosshair_out(amc_image *img, amc_bounds b, int cx, int cy, uint32_t rgba)
{
	b.x1 -= 3, b.y1 -= 3, b.x2 += 3, b.y2 += 3;
	amc_image_rect(img, b.x1, b.y1, b.x2, b.y2, 2, rgba);
	for (int k = 2; k <= TICK_LEN; k++)
		for (int w = -1; w <= 1; w++) {
			px_set(img, b.x1 - k, cy + w, rgba);
			px_set(img, b.x2 + k, cy + w, rgba);
			px_set(img, cx + w, b.y1 - k, rgba);
			px_set(img, cx + w, b.y2 + k, rgba);
		}
}

/* The bounds an assertion's result says it matched ({"matched":{"bounds"}}). */
static int matched_bounds(const amc_step_row *r, amc_bounds *b)
{
	cJSON *res = r->result ? cJSON_Parse(r->result) : NULL;
	int rc = read_bounds(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(res, "matched"), "bounds"), b);
	cJSON_Delete(res);
	return rc;
}

/* Draw the step's target on `img` (scaled by f from the device's pixels): the
 * element it acted on boxed, a tap's point ringed, a swipe's path, the
 * element an assertion matched boxed in green. */
void amc_report_mark_target(amc_image *img, double f, const amc_step_row *r)
{
	cJSON *args = r->args ? cJSON_Parse(r->args) : NULL;
	cJSON *scene = r->scene ? cJSON_Parse(r->scene) : NULL;
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(args, "x");
	const cJSON *y = cJSON_GetObjectItemCaseSensitive(args, "y");
	const cJSON *x1 = cJSON_GetObjectItemCaseSensitive(args, "x1");
	const cJSON *y1 = cJSON_GetObjectItemCaseSensitive(args, "y1");
	const cJSON *x2 = cJSON_GetObjectItemCaseSensitive(args, "x2");
	const cJSON *y2 = cJSON_GetObjectItemCaseSensitive(args, "y2");
	amc_bounds b;
	if (cJSON_IsNumber(x) && cJSON_IsNumber(y)) {
		int px = (int)(x->valueint * f), py = (int)(y->valueint * f);
		if (element_at(scene, x->valueint, y->valueint, &b) == 0)
			crosshair_out(img, (amc_bounds){ (int)(b.x1 * f), (int)(b.y1 * f), (int)(b.x2 * f), (int)(b.y2 * f) },
				      px, py, MARK_RGBA);
		else
			ring(img, px, py, MARK_RGBA);
	} else if (cJSON_IsNumber(x1) && cJSON_IsNumber(y1) && cJSON_IsNumber(x2) && cJSON_IsNumber(y2)) {
		int ax = (int)(x1->valueint * f), ay = (int)(y1->valueint * f);
		line(img, ax, ay, (int)(x2->valueint * f), (int)(y2->valueint * f), PATH_RGBA);
		ring(img, ax, ay, PATH_RGBA);
	} else if (matched_bounds(r, &b) == 0) {
		amc_image_rect(img, (int)(b.x1 * f) - 3, (int)(b.y1 * f) - 3, (int)(b.x2 * f) + 3, (int)(b.y2 * f) + 3,
			       2, MATCH_RGBA);
	}
	cJSON_Delete(args);
	cJSON_Delete(scene);
}

/* What the step's before image marks: 1 a point or a path, 2 the element an
 * assertion matched, 0 nothing. */
static int has_target(const amc_step_row *r)
{
	cJSON *a = r->args ? cJSON_Parse(r->args) : NULL;
	int yes = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(a, "x")) ||
		  cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(a, "x1"));
	cJSON_Delete(a);
	amc_bounds b;
	return yes ? 1 : matched_bounds(r, &b) == 0 ? 2 : 0;
}

/* `img` as an <img> data: URL, JPEG or PNG, whichever is smaller. */
static void put_img(amc_sb *out, const amc_image *img, const char *cls, const char *alt)
{
	amc_err e;
	unsigned char *jpg = NULL, *png = NULL;
	size_t jlen = 0, plen = 0;
	int jok = amc_jpeg_encode(img, AMC_REPORT_JPEG_QUALITY, &jpg, &jlen, &e) == 0;
	int pok = amc_png_encode(img, 9, &png, &plen, &e) == 0;
	if (jok || pok) {
		int use_png = pok && (!jok || plen < jlen);
		amc_sb_printf(out, "<img class=\"%s\" width=\"%d\" height=\"%d\" alt=\"%s\" src=\"data:image/%s;base64,",
			      cls, img->w, img->h, alt, use_png ? "png" : "jpeg");
		amc_base64_append(out, use_png ? png : jpg, use_png ? plen : jlen);
		amc_sb_puts(out, "\">");
	} else {
		amc_sb_puts(out, "<p class=\"none\">screenshot not encodable: ");
		ESC(out, e.msg);
		amc_sb_puts(out, "</p>");
	}
	free(jpg);
	free(png);
}

/* An <img> of an artifact, scaled, marked when `r` is given, as JPEG or PNG,
 * whichever is smaller. */
static void put_shot(amc_sb *out, amc_store *s, const char *rel, const char *label, const amc_step_row *r)
{
	char abs[PATH_MAX];
	amc_err e;
	amc_image full = { 0 }, small = { 0 };
	amc_sb_printf(out, "<figure><figcaption>%s</figcaption>", label);
	if (!rel) {
		amc_sb_puts(out, "<p class=\"none\">no screenshot recorded</p></figure>");
		return;
	}
	if (amc_store_artifact_abspath(s, rel, abs, sizeof abs, &e) != 0 ||
	    amc_png_decode_file(abs, &full, &e) != 0 ||
	    amc_image_scale_fit(&full, AMC_REPORT_SHOT_MAX_W, AMC_REPORT_SHOT_MAX_H, &small, &e) != 0) {
		amc_sb_puts(out, "<p class=\"none\">screenshot not readable: ");
		ESC(out, e.msg);
		amc_sb_puts(out, "</p></figure>");
		amc_image_free(&full);
		return;
	}
	if (r)
		amc_report_mark_target(&small, (double)small.w / full.w, r);
	put_img(out, &small, "shot", label);
	amc_sb_puts(out, "</figure>");
	amc_image_free(&full);
	amc_image_free(&small);
}

/* A file the step made (a recording, a named or cropped screenshot, a
 * comparison's diff), in the page as it plays: an animated PNG or a PNG in
 * an <img>, an MP4 in a <video>; past AMC_REPORT_MEDIA_MAX bytes a link to
 * the file instead, so one long recording does not swell the page. */
#define AMC_REPORT_MEDIA_MAX (16u * 1024u * 1024u)
static void put_made(amc_sb *out, amc_store *s, const amc_step_row *r, const char *key, const char *label)
{
	char rel[PATH_MAX], abs[PATH_MAX];
	amc_err e;
	if (amc_store_step_file(r->result, key, rel, sizeof rel) != 0 ||
	    (r->after_screenshot && !strcmp(rel, r->after_screenshot)) ||
	    amc_store_artifact_abspath(s, rel, abs, sizeof abs, &e) != 0)
		return;
	size_t n = strlen(rel);
	int mp4 = n > 4 && !strcmp(rel + n - 4, ".mp4"), apng = n > 5 && !strcmp(rel + n - 5, ".apng");
	char *data = NULL;
	size_t len = 0;
	amc_sb_printf(out, "<figure><figcaption>%s</figcaption>", label);
	if (amc_read_file(abs, AMC_REPORT_MEDIA_MAX, &data, &len, &e) == 0) {
		amc_sb_printf(out, mp4 ? "<video class=\"shot\" controls src=\"data:video/mp4;base64,"
				       : "<img class=\"shot\" alt=\"%s\" src=\"data:image/%s;base64,",
			      label, apng ? "apng" : "png");
		amc_base64_append(out, (const unsigned char *)data, len);
		amc_sb_puts(out, mp4 ? "\"></video>" : "\">");
		free(data);
	}
	amc_sb_puts(out, "<p class=\"file\"><a href=\"file://");
	ESC(out, abs);
	amc_sb_puts(out, "\">");
	ESC(out, rel);
	amc_sb_puts(out, "</a></p></figure>");
}

/* The index's thumbnail of an artifact (AMC_REPORT_THUMB_W x _H at most), or
 * a placeholder of that size saying there is none. */
static void put_thumb(amc_sb *out, amc_store *s, const char *rel)
{
	char abs[PATH_MAX];
	amc_err e;
	amc_image full = { 0 }, small = { 0 };
	if (rel && amc_store_artifact_abspath(s, rel, abs, sizeof abs, &e) == 0 &&
	    amc_png_decode_file(abs, &full, &e) == 0 &&
	    amc_image_scale_fit(&full, AMC_REPORT_THUMB_W, AMC_REPORT_THUMB_H, &small, &e) == 0)
		put_img(out, &small, "thumb", "after");
	else
		amc_sb_puts(out, "<span class=\"nothumb\">no screen</span>");
	amc_image_free(&full);
	amc_image_free(&small);
}

/* ---- parts of a step ---------------------------------------------------- */

static void put_json_pre(amc_sb *out, const char *label, const char *json)
{
	if (!json || !*json || !strcmp(json, "{}") || !strcmp(json, "null"))
		return;
	cJSON *j = cJSON_Parse(json);
	char *text = j ? cJSON_PrintUnformatted(j) : NULL;
	amc_sb_printf(out, "<dt>%s</dt><dd><code>", label);
	ESC(out, text ? text : json);
	amc_sb_puts(out, "</code></dd>");
	free(text);
	cJSON_Delete(j);
}

static void put_ocr(amc_sb *out, const char *ocr)
{
	cJSON *arr = ocr ? cJSON_Parse(ocr) : NULL;
	int n = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0;
	amc_sb_printf(out, "<details class=\"ocr\"><summary>OCR words (%d)</summary>", n);
	if (n) {
		amc_sb_puts(out, "<table><tr><th>text</th><th>confidence</th><th>box</th></tr>");
		const cJSON *w;
		cJSON_ArrayForEach(w, arr) {
			amc_bounds b = { 0 };
			int has_b = read_bounds(cJSON_GetObjectItemCaseSensitive(w, "bounds"), &b) == 0;
			const cJSON *c = cJSON_GetObjectItemCaseSensitive(w, "confidence");
			amc_sb_puts(out, "<tr><td>");
			ESC(out, amc_json_str(w, "text"));
			if (cJSON_IsNumber(c))
				amc_sb_printf(out, "</td><td>%.2f</td><td>", c->valuedouble);
			else
				amc_sb_puts(out, "</td><td>-</td><td>");
			if (has_b)
				amc_sb_printf(out, "[%d,%d][%d,%d]", b.x1, b.y1, b.x2, b.y2);
			amc_sb_puts(out, "</td></tr>");
		}
		amc_sb_puts(out, "</table>");
	} else {
		amc_sb_puts(out, "<p class=\"none\">no OCR words recorded for this step</p>");
	}
	amc_sb_puts(out, "</details>");
	cJSON_Delete(arr);
}

/* The step's diff lines as they come (runtime/stepdiff.h's render), counted
 * by kind: the summary says the counts, the list waits in a <details>. */
typedef struct diff_acc {
	amc_sb list, warn;
	int add, rem, chg, other;
} diff_acc;

/* One line of the step's diff: the symbol starts the text, so it reads
 * without colour; the class colours it. '!' (the action changed nothing)
 * stays in sight above the collapsed list. */
static void diff_line(char op, const char *line, void *ud)
{
	diff_acc *d = ud;
	const char *cls = op == '+' ? "add" : op == '-' ? "rem" : op == '~' ? "chg" : op == '!' ? "warn" : "note";
	amc_sb *to = op == '!' ? &d->warn : &d->list;
	if (op == '+')
		d->add++;
	else if (op == '-')
		d->rem++;
	else if (op == '~')
		d->chg++;
	else if (op != '!')
		d->other++;
	amc_sb_printf(to, "<li class=\"%s\"><code>", cls);
	ESC(to, line);
	amc_sb_puts(to, "</code></li>");
}

/* The step's before/after difference: its stored diff, or one computed now
 * from the trees and screenshots beside the record (older records), as a
 * one-line summary whose full list opens on demand. */
static void tree_diff_section(amc_sb *out, amc_store *s, const amc_step_row *r)
{
	char *json = NULL;
	amc_err e = { 0 };
	if (amc_stepdiff_of_row(s, r, &json, &e) != 0 || !json) {
		amc_sb_puts(out, "<p class=\"diff none\">UI-tree diff not available for this step: ");
		ESC(out, e.msg[0] ? e.msg : "no record");
		amc_sb_puts(out, "</p>");
		free(json);
		return;
	}
	diff_acc d = { 0 };
	amc_sb_init(&d.list);
	amc_sb_init(&d.warn);
	amc_stepdiff_render(json, 1, diff_line, &d);
	amc_sb_puts(out, "<div class=\"diff\">");
	if (d.warn.len)
		amc_sb_printf(out, "<ul class=\"difflist\">%s</ul>", amc_sb_str(&d.warn));
	amc_sb_printf(out, "<details class=\"difflist\"><summary>UI-tree diff: %d added, %d removed, %d changed</summary>"
			   "<ul class=\"difflist\">%s</ul></details></div>",
		      d.add, d.rem, d.chg, d.list.len ? amc_sb_str(&d.list) : "<li class=\"note\">no change</li>");
	amc_sb_free(&d.list);
	amc_sb_free(&d.warn);
	free(json);
}

static void put_node(amc_sb *out, const amc_ui_node *n)
{
	const char *cls = n->class_name && *n->class_name ? n->class_name : "node";
	const char *dot = strrchr(cls, '.');
	amc_sb_puts(out, "<code>");
	ESC(out, dot && dot[1] ? dot + 1 : cls);
	amc_sb_puts(out, "</code>");
	if (n->text && *n->text) {
		amc_sb_puts(out, " <q>");
		ESC(out, n->text);
		amc_sb_puts(out, "</q>");
	}
	if (n->content_desc && *n->content_desc) {
		amc_sb_puts(out, " <span class=\"desc\">desc ");
		ESC(out, n->content_desc);
		amc_sb_puts(out, "</span>");
	}
	if (n->resource_id && *n->resource_id) {
		amc_sb_puts(out, " <span class=\"rid\">#");
		ESC(out, n->resource_id);
		amc_sb_puts(out, "</span>");
	}
	amc_sb_printf(out, " <span class=\"b\">[%d,%d][%d,%d]</span>", n->bounds.x1, n->bounds.y1, n->bounds.x2,
		      n->bounds.y2);
}

/* The tree of the step's after observation, nested lists in a <details>. */
static void put_tree(amc_sb *out, amc_store *s, const amc_step_row *r)
{
	amc_err e = { 0 };
	amc_ui_tree t;
	int ok = r->ui_tree_path && amc_stored_tree_load(s, r->ui_tree_path, &t, &e) == 0;
	if (!ok) {
		amc_sb_puts(out, "<details class=\"tree\"><summary>UI tree</summary><p class=\"none\">");
		if (r->ui_tree_path)
			ESC(out, e.msg);
		else
			amc_sb_puts(out, "no UI tree recorded for this step");
		amc_sb_puts(out, "</p></details>");
		return;
	}
	amc_sb_printf(out, "<details class=\"tree\"><summary>UI tree after the step (%zu nodes)</summary>", t.count);
	size_t shown = t.count < AMC_REPORT_TREE_MAX_NODES ? t.count : AMC_REPORT_TREE_MAX_NODES;
	int cur = -1;
	for (size_t i = 0; i < shown; i++) {
		int d = t.nodes[i].depth;
		if (d > cur + 1)
			d = cur + 1; /* pre-order never skips a level; guard all the same */
		if (d > cur) {
			amc_sb_puts(out, "<ul>");
		} else {
			amc_sb_puts(out, "</li>");
			for (; cur > d; cur--)
				amc_sb_puts(out, "</ul></li>");
		}
		cur = d;
		amc_sb_puts(out, "<li>");
		put_node(out, &t.nodes[i]);
	}
	for (; cur >= 0; cur--)
		amc_sb_puts(out, "</li></ul>");
	if (shown < t.count)
		amc_sb_printf(out, "<p class=\"none\">%zu more nodes not shown</p>", t.count - shown);
	amc_sb_puts(out, "</details>");
	amc_uitree_free(&t);
}

static int step_failed(const amc_step_row *r)
{
	return r->status && strcmp(r->status, "ok");
}

/* The action in words (report/action.h); the raw arguments stay one click away. */
static void put_action(amc_sb *out, const amc_step_row *r)
{
	cJSON *args = r->args ? cJSON_Parse(r->args) : NULL;
	cJSON *scene = r->scene ? cJSON_Parse(r->scene) : NULL;
	amc_sb words;
	amc_sb_init(&words);
	amc_report_action_words(r->tool, args, scene, &words);
	amc_sb_puts(out, "<dt>action</dt><dd class=\"action\"><code>");
	ESC(out, amc_sb_str(&words));
	amc_sb_puts(out, "</code></dd>");
	amc_sb_free(&words);
	cJSON_Delete(args);
	cJSON_Delete(scene);
}

static void put_step(amc_sb *out, amc_store *s, const amc_step_row *r)
{
	int failed = step_failed(r);
	amc_sb_printf(out, "<section class=\"step%s\" id=\"step-%d\" data-step=\"%d\"><h2>%d · ", failed ? " failed" : "",
		      r->step, r->step, r->step);
	ESC(out, r->tool ? r->tool : "?");
	if (r->description && *r->description) {
		amc_sb_puts(out, " — ");
		ESC(out, r->description);
	}
	amc_sb_puts(out, " <span class=\"status\">");
	ESC(out, r->status ? r->status : "?");
	amc_sb_puts(out, "</span> <a class=\"top\" href=\"#index\">index ↑</a></h2><div class=\"body\"><div class=\"shots\">");
	int target = has_target(r);
	put_shot(out, s, r->before_screenshot,
		 target == 1 ? "before (target marked)" : target == 2 ? "before (match boxed)" : "before",
		 target ? r : NULL);
	put_shot(out, s, r->after_screenshot, "after", NULL);
	put_made(out, s, r, "file", r->tool && !strcmp(r->tool, "record") ? "recording" : "file");
	put_made(out, s, r, "diff", "differences (red)");
	amc_sb_puts(out, "</div><div class=\"text\"><dl>");
	put_action(out, r);
	if (r->error && *r->error) {
		amc_sb_puts(out, "<dt>error</dt><dd class=\"err\">");
		ESC(out, r->error);
		amc_sb_puts(out, "</dd>");
	}
	if (r->reasoning && *r->reasoning) {
		amc_sb_puts(out, "<dt>reasoning</dt><dd>");
		ESC(out, r->reasoning);
		amc_sb_puts(out, "</dd>");
	}
	if (r->started_ms > 0 && r->finished_ms >= r->started_ms) {
		char dur[32];
		amc_format_duration(r->finished_ms - r->started_ms, dur, sizeof dur);
		amc_sb_printf(out, "<dt>time</dt><dd>%s</dd>", dur);
	}
	amc_sb_puts(out, "</dl>");
	tree_diff_section(out, s, r);
	amc_sb_puts(out, "<details class=\"raw\"><summary>arguments and result as JSON</summary><dl>");
	put_json_pre(out, "action", r->args);
	put_json_pre(out, "result", r->result);
	amc_sb_puts(out, "</dl></details>");
	put_ocr(out, r->ocr);
	put_tree(out, s, r);
	amc_sb_puts(out, "</div></div></section>\n");
}

/* The step index at the top: every step's after screen as a thumbnail with
 * its number and status, each a link to its section, and a link to the
 * first failed step (or the task's error) that a reader sees first. */
static void put_index(amc_sb *out, amc_store *s, const amc_report_task *t)
{
	const amc_step_row *bad = NULL;
	for (size_t i = 0; i < t->nsteps && !bad; i++)
		if (step_failed(&t->steps[i]))
			bad = &t->steps[i];
	amc_sb_printf(out, "<nav id=\"index\" aria-label=\"steps\"><h2>%zu step%s", t->nsteps, t->nsteps == 1 ? "" : "s");
	if (bad) {
		amc_sb_printf(out, " <a class=\"jump\" href=\"#step-%d\">jump to the failure: step %d ", bad->step, bad->step);
		ESC(out, bad->description && *bad->description ? bad->description : bad->tool);
		amc_sb_puts(out, " ↓</a>");
	} else if (t->task.error && *t->task.error) {
		amc_sb_puts(out, " <a class=\"jump\" href=\"#task-error\">the task failed after its last step: its error ↑</a>");
	}
	amc_sb_puts(out, "</h2><ol class=\"strip\">");
	for (size_t i = 0; i < t->nsteps; i++) {
		const amc_step_row *r = &t->steps[i];
		int failed = step_failed(r);
		amc_sb_printf(out, "<li class=\"%s\"><a href=\"#step-%d\" title=\"", failed ? "failed" : "ok", r->step);
		ESC(out, r->description && *r->description ? r->description : r->tool);
		amc_sb_puts(out, "\">");
		put_thumb(out, s, r->after_screenshot ? r->after_screenshot : r->before_screenshot);
		amc_sb_printf(out, "<span class=\"n\">%d</span><span class=\"st\">%s", r->step, failed ? "✗ " : "✓ ");
		ESC(out, r->status ? r->status : "?");
		amc_sb_puts(out, "</span><span class=\"what\">");
		ESC(out, r->tool ? r->tool : "?");
		amc_sb_puts(out, "</span></a></li>");
	}
	amc_sb_puts(out, "</ol></nav>\n");
}

/* ---- the page ----------------------------------------------------------- */

static const char CSS[] =
	":root{color-scheme:light dark;--fg:#1d1d1f;--bg:#fff;--mute:#6e6e73;--line:#d2d2d7;--bad:#c9182b}"
	"@media (prefers-color-scheme:dark){:root{--fg:#f5f5f7;--bg:#1c1c1e;--mute:#a1a1a6;--line:#3a3a3c;"
	"--bad:#ff6b6b}}"
	"body{font:14px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;"
	"max-width:1240px;padding:16px}"
	"h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;margin:0 0 8px}h3{font-size:14px;margin:8px 0 4px}"
	"h4{font-size:13px;margin:4px 0}"
	"dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}dt{color:var(--mute)}"
	"dd{margin:0;overflow-wrap:anywhere;white-space:pre-wrap}"
	"code{font:12px/1.4 ui-monospace,monospace;overflow-wrap:anywhere}"
	".step{border-top:1px solid var(--line);padding:10px 0}.failed h2,.err{color:var(--bad)}"
	".status{font-weight:normal;color:var(--mute);font-size:13px}"
	".body{display:flex;gap:16px;align-items:flex-start}.text{flex:1;min-width:0}"
	".shots{display:flex;gap:8px;flex:none}figure{margin:0}figcaption{color:var(--mute);font-size:12px}"
	"img.shot{border:1px solid var(--line);display:block;width:132px;height:auto}"
	"header dl{grid-template-columns:max-content 1fr max-content 1fr}"
	"#index h2{font-size:15px}.jump{color:var(--bad);font-weight:bold;margin-left:12px}"
	".strip{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0;padding:0}"
	".strip a{display:flex;flex-direction:column;align-items:center;width:64px;padding:3px;border:2px solid var(--line);"
	"border-radius:6px;text-decoration:none;color:var(--fg);font-size:11px}"
	".strip .failed a{border-color:var(--bad)}.strip .failed .st{color:var(--bad);font-weight:bold}"
	".strip .ok .st{color:#1a7f37}img.thumb{display:block}.n{font-weight:bold}"
	".what{color:var(--mute);overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:60px}"
	".nothumb{display:block;width:56px;height:124px;color:var(--mute)}"
	".top{font-size:12px;font-weight:normal;margin-left:8px}"
	".none{color:var(--mute);font-style:italic}table{border-collapse:collapse;font-size:12px}"
	"td,th{border:1px solid var(--line);padding:1px 6px;text-align:left}"
	"details{margin:6px 0}summary{cursor:pointer;color:var(--mute)}"
	".tree ul{margin:0;padding-left:16px;list-style:none;font-size:12px}"
	".desc,.rid,.b{color:var(--mute)}"
	".difflist{margin:0;padding-left:0;list-style:none}.add{color:#1a7f37}.rem,.warn{color:var(--bad)}"
	".chg{color:#9a6700}.note{color:var(--mute)}.warn{font-weight:bold}";

static void put_row(amc_sb *out, const char *label, const char *value)
{
	if (!value || !*value)
		return;
	amc_sb_printf(out, "<dt>%s</dt><dd>", label);
	ESC(out, value);
	amc_sb_puts(out, "</dd>");
}

static void put_time_row(amc_sb *out, const char *label, long long ms)
{
	char when[32];
	if (ms <= 0)
		return;
	amc_format_time(ms, when, sizeof when);
	put_row(out, label, when);
}

static void put_header(amc_sb *out, const amc_task_row *t, const amc_decision_row *dec, size_t ndec)
{
	const char *title = t->goal && *t->goal ? t->goal : t->flow_name && *t->flow_name ? t->flow_name
							   : t->flow_path ? t->flow_path : t->id;
	amc_sb_puts(out, "<header><h1>");
	ESC(out, title);
	amc_sb_puts(out, "</h1><dl>");
	put_row(out, "task", t->id);
	put_row(out, "status", t->status);
	put_row(out, t->goal ? "goal" : "flow", t->goal ? t->goal : t->flow_name);
	put_row(out, "flow file", t->flow_path);
	put_row(out, "device", t->device);
	put_row(out, "planner", t->planner);
	amc_sb agent;
	amc_sb_init(&agent);
	if (amc_report_agent_summary(t, dec, ndec, "; ", &agent)) /* a coding agent's CLI: billing, cost, session */
		put_row(out, "agent", amc_sb_str(&agent) + strlen("agent     "));
	amc_sb_free(&agent);
	put_time_row(out, "created", t->created_ms);
	put_time_row(out, "started", t->started_ms);
	put_time_row(out, "finished", t->finished_ms);
	char buf[96];
	if (t->started_ms > 0 && t->finished_ms >= t->started_ms) {
		amc_format_duration(t->finished_ms - t->started_ms, buf, sizeof buf);
		put_row(out, "duration", buf);
	}
	snprintf(buf, sizeof buf, "%d (limit %d)", t->steps, t->max_steps);
	put_row(out, "steps", buf);
	if (t->source_task_id) {
		amc_sb_puts(out, "<dt>source</dt><dd>");
		ESC(out, t->source_task_id);
		if (t->source_attempt >= 0)
			amc_sb_printf(out, " attempt %d", t->source_attempt);
		amc_sb_puts(out, "</dd>");
	}
	if (t->input_tokens >= 0 || t->output_tokens >= 0 || t->cost_usd >= 0) {
		amc_sb_puts(out, "<dt>usage</dt><dd>");
		if (t->input_tokens >= 0)
			amc_sb_printf(out, "%lld input tokens, ", t->input_tokens);
		if (t->output_tokens >= 0)
			amc_sb_printf(out, "%lld output tokens, ", t->output_tokens);
		if (t->cost_usd >= 0)
			amc_sb_printf(out, "$%.4f", t->cost_usd);
		else
			amc_sb_puts(out, "cost unknown");
		amc_sb_puts(out, "</dd>");
	} else {
		put_row(out, "usage", "no model calls recorded");
	}
	put_row(out, "summary", t->summary);
	if (t->error && *t->error) {
		amc_sb_puts(out, "<dt>error</dt><dd class=\"err\" id=\"task-error\">");
		ESC(out, t->error);
		amc_sb_puts(out, "</dd>");
	}
	amc_sb_puts(out, "</dl></header>\n");
}

int amc_report_html(amc_store *s, const amc_report_task *t, amc_sb *out, amc_err *e)
{
	(void)e; /* every part that can fail says so in the page instead */
	const amc_task_row *k = &t->task;
	amc_sb_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			 "<meta http-equiv=\"Content-Security-Policy\" content=\"" AMC_REPORT_CSP "\">\n"
			 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			 "<meta name=\"generator\" content=\"amc export\">\n<title>amc task ");
	ESC(out, k->id);
	amc_sb_puts(out, ": ");
	ESC(out, k->goal ? k->goal : k->flow_name ? k->flow_name : k->status);
	amc_sb_printf(out, "</title>\n<style>%s</style></head>\n<body>\n", CSS);
	put_header(out, k, t->decisions, t->ndecisions);
	put_index(out, s, t);
	amc_sb_printf(out, "<main id=\"steps\" data-steps=\"%zu\">\n", t->nsteps);
	if (!t->nsteps)
		amc_sb_puts(out, "<p class=\"none\">this task recorded no steps</p>");
	for (size_t i = 0; i < t->nsteps; i++)
		put_step(out, s, &t->steps[i]);
	char when[32];
	amc_format_time(amc_now_ms(), when, sizeof when);
	amc_sb_printf(out, "</main>\n<footer><p class=\"none\">written by amc export at %s</p></footer>\n"
			   "</body></html>\n", when);
	return 0;
}
