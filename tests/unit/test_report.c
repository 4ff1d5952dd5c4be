/* test_report.c - the export module (report/report.c, report/html.c):
 * hostile text through every field a device, OCR, a model or a file fills
 * (goal, flow name, errors, summary, UI text, content descriptions, resource
 * ids, OCR words, reasoning, arguments, results) comes out as text, never as
 * markup; the page carries its CSP and fetches nothing; screenshots are
 * embedded, a missing one is said; the tree-diff section says when there is
 * none; the JSON document and the --dir layout. The same reports in a real
 * browser: tests/integration/test_report_browser.sh. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "image/png.h"
#include "perception/uitree.h"
#include "report/report.h"
#include "runtime/stepdiff.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"

static const char ID[] = "7200000000000001";

/* Each payload tries another way out of text: a script, an attribute break
 * with an event handler, the end of the style block, and bidi controls (RLO,
 * LRI) that reorder what a reader sees. */
#define P_SCRIPT "<script>alert(1)</script>"
#define P_ATTR "\"><img src=x onerror=alert(2)>"
#define P_STYLE "</style><style>body{display:none}</style>"
#define P_BIDI "\xE2\x80\xAEtxt.exe\xE2\x81\xA6"
#define ALL P_SCRIPT " " P_ATTR " " P_STYLE " " P_BIDI

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0, len = strlen(needle);
	for (const char *p = hay; (p = strstr(p, needle)); p += len)
		n++;
	return n;
}

static size_t count_ci(const char *hay, const char *needle)
{
	size_t n = 0, len = strlen(needle);
	for (const char *p = hay; *p; p++)
		if (!strncasecmp(p, needle, len))
			n++;
	return n;
}

static void put_png(amc_store *s, const char *name, unsigned char shade, char *rel, size_t n)
{
	amc_image img = { 0 };
	amc_err e;
	amc_image_alloc(&img, 1080, 2400, &e);
	for (int y = 0; y < img.h; y++)
		for (int x = 0; x < img.w; x++) {
			unsigned char *p = img.px + ((size_t)y * img.w + x) * 4;
			p[0] = (unsigned char)(shade + (y / 200) * 10);
			p[1] = (unsigned char)(x / 5);
			p[2] = shade;
			p[3] = 255;
		}
	unsigned char *png;
	size_t len;
	if (amc_png_encode(&img, 1, &png, &len, &e) != 0 ||
	    amc_store_put_artifact(s, ID, name, png, len, rel, n, &e) != 0)
		diag("screenshot: %s", e.msg);
	free(png);
	amc_image_free(&img);
}

/* A tree artifact whose every string field is hostile; the tree stays in *tp
 * (caller frees). */
static void put_tree(amc_store *s, char *rel, size_t n, amc_ui_tree *tp)
{
	amc_ui_tree t = { 0 };
	amc_uitree_builder b;
	amc_err e;
	amc_uitree_builder_init(&b, &t);
	int root = amc_uitree_builder_add(&b, -1, &e);
	int kid = amc_uitree_builder_add(&b, root, &e);
	amc_uitree_builder_done(&b);
	snprintf(t.format, sizeof t.format, "uiautomator");
	amc_uitree_set_str(&t.nodes[root].class_name, "android.widget.FrameLayout");
	amc_uitree_set_str(&t.nodes[kid].class_name, P_SCRIPT);
	amc_uitree_set_str(&t.nodes[kid].text, "UI text " ALL);
	amc_uitree_set_str(&t.nodes[kid].content_desc, "desc " ALL);
	amc_uitree_set_str(&t.nodes[kid].resource_id, P_ATTR);
	t.nodes[kid].bounds = (amc_bounds){ 0, 100, 1080, 300 };
	cJSON *j = amc_uitree_to_json(&t);
	char *text = amc_json_print(j);
	if (amc_store_put_artifact(s, ID, "obs-0002-tree.json", text, strlen(text), rel, n, &e) != 0)
		diag("tree: %s", e.msg);
	free(text);
	cJSON_Delete(j);
	*tp = t;
}

/* The runner's stored diff (runtime/stepdiff.h) between two trees and, when
 * given, one image standing for both screenshots. Caller frees. */
static char *diff_of(const char *tool, const amc_ui_tree *a, const amc_ui_tree *b, const amc_image *img)
{
	amc_stepdiff_in in = { tool, a, b, img, img, 0, 0.001, 0, 0, 0 };
	cJSON *d = amc_stepdiff_compute(&in);
	char *text = amc_json_print(d);
	cJSON_Delete(d);
	return text;
}

static void make_task(amc_store *s)
{
	amc_err e = { 0 };
	amc_task_row t = { .id = (char *)ID, .kind = "goal", .goal = "goal " ALL, .flow_name = "flow " ALL,
			   .device = "sim:0", .planner = "llm", .status = "failed", .created_ms = 1700000000000LL,
			   .started_ms = 1700000000100LL, .finished_ms = 1700000009100LL, .steps = 3, .max_steps = 50,
			   .summary = "summary " ALL, .error = "task error " ALL, .input_tokens = 1200,
			   .output_tokens = 80, .cost_usd = 0.0123, .source_task_id = "src " P_SCRIPT,
			   .source_attempt = 2 };
	ok(amc_store_create_task(s, &t, &e) == 0, "a task with hostile text everywhere: %s", e.msg);
	char shot1[256], shot2[256], tree[256];
	put_png(s, "obs-0001.png", 40, shot1, sizeof shot1);
	put_png(s, "obs-0002.png", 200, shot2, sizeof shot2);
	amc_ui_tree after, before = { 0 };
	put_tree(s, tree, sizeof tree, &after);
	/* before: the root alone, so the hostile node is "added" in the diff */
	amc_uitree_builder tb;
	amc_uitree_builder_init(&tb, &before);
	int root = amc_uitree_builder_add(&tb, -1, &e);
	amc_uitree_builder_done(&tb);
	snprintf(before.format, sizeof before.format, "uiautomator");
	amc_uitree_set_str(&before.nodes[root].class_name, "android.widget.FrameLayout");
	char *diff1 = diff_of("tap", &before, &after, NULL);
	amc_image same = { 0 };
	amc_image_alloc(&same, 100, 200, &e);
	char *diff3 = diff_of("tap", &after, &after, &same);
	amc_image_free(&same);
	char ocr[1024];
	cJSON *o = cJSON_CreateArray(), *w = cJSON_CreateObject();
	cJSON_AddStringToObject(w, "text", "ocr " ALL);
	cJSON_AddNumberToObject(w, "confidence", 0.91);
	cJSON *bb = cJSON_AddArrayToObject(w, "bounds");
	for (int k = 0; k < 4; k++)
		cJSON_AddItemToArray(bb, cJSON_CreateNumber(k * 100));
	cJSON_AddItemToArray(o, w);
	char *otext = amc_json_print(o);
	snprintf(ocr, sizeof ocr, "%s", otext);
	free(otext);
	cJSON_Delete(o);
	cJSON *a = cJSON_CreateObject();
	cJSON_AddNumberToObject(a, "x", 540);
	cJSON_AddNumberToObject(a, "y", 200);
	cJSON_AddStringToObject(a, "selector", "text=" ALL);
	char *args = amc_json_print(a);
	cJSON_Delete(a);
	cJSON *sc = cJSON_CreateObject(), *els = cJSON_AddArrayToObject(sc, "elements"), *el = cJSON_CreateObject();
	cJSON_AddStringToObject(el, "id", "e1");
	cJSON_AddStringToObject(el, "text", "scene " ALL);
	cJSON *eb = cJSON_AddArrayToObject(el, "bounds");
	int bv[4] = { 0, 100, 1080, 300 };
	for (int k = 0; k < 4; k++)
		cJSON_AddItemToArray(eb, cJSON_CreateNumber(bv[k]));
	cJSON_AddItemToArray(els, el);
	char *scene = amc_json_print(sc);
	cJSON_Delete(sc);
	amc_step_row r1 = { .task_id = (char *)ID, .step = 1, .tool = "tap", .args = args,
			    .description = "tap " ALL, .status = "ok", .result = "{\"note\":\"" P_SCRIPT "\"}",
			    .before_screenshot = shot1, .after_screenshot = shot2, .ocr = ocr, .scene = scene,
			    .ui_tree_path = tree, .reasoning = "reasoning " ALL, .started_ms = 1700000000200LL,
			    .finished_ms = 1700000000900LL, .tree_diff = diff1 };
	ok(amc_store_add_step(s, &r1, &e) == 0, "step 1: %s", e.msg);
	/* step 2: its before is step 1's after; its after was never written */
	amc_step_row r2 = { .task_id = (char *)ID, .step = 2, .tool = "swipe",
			    .args = "{\"x1\":500,\"y1\":2000,\"x2\":500,\"y2\":600}", .description = "swipe up",
			    .status = "failed", .error = "step error " ALL, .before_screenshot = shot2,
			    .after_screenshot = "artifacts/7200000000000001/obs-9999.png" };
	ok(amc_store_add_step(s, &r2, &e) == 0, "step 2: %s", e.msg);
	/* step 3: a tap that changed nothing (same tree, same pixels) */
	amc_step_row r3 = { .task_id = (char *)ID, .step = 3, .tool = "tap", .args = "{\"x\":5,\"y\":5}",
			    .description = "tap the margin", .status = "ok", .tree_diff = diff3 };
	ok(amc_store_add_step(s, &r3, &e) == 0, "step 3: %s", e.msg);
	free(diff1);
	free(diff3);
	amc_uitree_free(&after);
	amc_uitree_free(&before);
	free(args);
	free(scene);
}

static void test_escape(void)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_report_html_escape(&sb, "a<b>&\"'c");
	is_str(amc_sb_str(&sb), "a&lt;b&gt;&amp;&quot;&#39;c", "the five HTML characters become entities");
	amc_sb_reset(&sb);
	amc_report_html_escape(&sb, "x\033[31my\xE2\x80\xAEz\x01");
	ok(!strchr(amc_sb_str(&sb), '\033') && !strstr(amc_sb_str(&sb), "\xE2\x80\xAE") &&
		   !strchr(amc_sb_str(&sb), '\x01'),
	   "escape, bidi and control bytes are replaced: %s", amc_sb_str(&sb));
	amc_sb_free(&sb);
}

static void test_html(amc_store *s, amc_report_task *t)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_err e = { 0 };
	ok(amc_report_html(s, t, &sb, &e) == 0, "the page is written");
	const char *h = amc_sb_str(&sb);
	ok(!strncmp(h, "<!DOCTYPE html>", 15), "an HTML5 document");
	like(h, "<meta http-equiv=\"Content-Security-Policy\" content=\"" AMC_REPORT_CSP "\">",
	     "it carries the Content-Security-Policy");
	is_int(count_ci(h, "<script"), 0, "no <script> element (nor a hostile one)");
	is_int(count_ci(h, "onerror="), count_of(h, "onerror=alert(2)&gt;"),
	       "every onerror= is inside escaped text");
	is_int(count_ci(h, "<img"), 4, "four <img> elements: the three readable screenshots and one thumbnail");
	is_int(count_of(h, "<img class=\"shot\" width=\""), 3, "three are amc's own screenshots");
	is_int(count_of(h, "<img class=\"thumb\" width=\""), 1,
	       "one the index's thumbnail (step 1's after; the others have no readable screen)");
	is_int(count_of(h, "<span class=\"nothumb\">no screen</span>"), 2, "the other two say so");
	is_int(count_ci(h, "</style>"), 1, "one </style>: the page's own");
	is_int(count_ci(h, "<style"), 1, "one <style>");
	is_int(count_of(h, "\xE2\x80\xAE") + count_of(h, "\xE2\x81\xA6"), 0, "no bidi control reaches the page");
	is_int(count_ci(h, "http:") + count_ci(h, "https:") + count_ci(h, "url("), 0,
	       "nothing refers to anything outside the page");
	is_int(count_ci(h, "href="), count_of(h, "href=\"#"), "every link is to a place in the page");
	is_int(count_of(h, " src=\"data:image/"), count_of(h, " src=\""), "every src attribute is a data: URL");
	/* the text is there, escaped, for each field */
	static const char *const fields[] = { "goal ", "task error ", "summary ", "tap ", "reasoning ",
					      "ocr ", "UI text ", "desc ", "step error " };
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		char want[128];
		snprintf(want, sizeof want, "%s&lt;script&gt;alert(1)&lt;/script&gt;", fields[i]);
		like(h, want, "the %sfield shows the script as text", fields[i]);
	}
	like(h, "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;", "an attribute break shows as text");
	like(h, "&lt;/style&gt;&lt;style&gt;", "a style break shows as text");
	like(h, "data-steps=\"3\"", "the step count");
	is_int(count_of(h, "<section class=\"step"), 3, "one section per step");
	like(h, "id=\"step-2\" data-step=\"2\"", "steps are addressable");
	like(h, "<section class=\"step failed\" id=\"step-2\"", "the failed step is marked");
	like(h, "before (target marked)", "a tap's before image is marked");
	like(h, "screenshot not readable", "a missing screenshot is said, not fatal");
	like(h, "<nav id=\"index\"", "a step index at the top");
	ok(strstr(h, "<nav id=\"index\"") < strstr(h, "<section class=\"step"), "before the first step");
	is_int(count_of(h, "<li class=\"ok\"><a href=\"#step-"), 2, "two steps ok in the index");
	is_int(count_of(h, "<li class=\"failed\"><a href=\"#step-2\""), 1, "the failed one marked, linked to its section");
	like(h, "<a class=\"jump\" href=\"#step-2\">jump to the failure: step 2 swipe up", "a jump to the failure");
	like(h, "<dd class=\"action\"><code>tap text=&lt;script&gt;alert(1)&lt;/script&gt;",
	     "the action in words, its outside text escaped");
	like(h, "(e1) at 540,200</code>", "with the element's scene id and the point");
	like(h, "<dd class=\"action\"><code>swipe up from 500,2000 to 500,600</code>", "a swipe's direction");
	like(h, "<details class=\"raw\"><summary>arguments and result as JSON</summary><dl><dt>action</dt><dd><code>{",
	     "the raw JSON stays, collapsed");
	like(h, "<details class=\"difflist\"><summary>UI-tree diff: 1 added, 0 removed, 0 changed</summary>",
	     "the diff collapsed to its counts");
	like(h, "<li class=\"add\"><code>+ ", "step 1's stored diff: the added node, marked + (reads without colour)");
	like(h, "UI text &lt;script&gt;alert(1)&lt;/script&gt;", "its text escaped");
	like(h, "tree: 1 added, 0 removed", "with its counts");
	like(h, "tree: unknown (the after tree is not recorded)",
	     "step 2 has none stored: computed from the artifacts, saying what is missing");
	is_int(count_of(h, "<li class=\"warn\"><code>! changed nothing"), 1,
	       "step 3 (same tree, same pixels) is flagged as having changed nothing");
	is_int(count_of(h, "<div class=\"diff\"><ul class=\"difflist\"><li class=\"warn\"><code>! changed nothing"), 1,
	       "in sight, above the collapsed list");
	like(h, "UI tree after the step (2 nodes)", "the UI tree, in a <details>");
	like(h, "<details class=\"tree\">", "collapsible");
	like(h, "OCR words (1)", "the OCR words");
	like(h, "<td>0.91</td>", "with their confidence");
	like(h, "1200 input tokens, 80 output tokens, $0.0123", "usage and cost");
	like(h, "attempt 2", "the source attempt");
	ok(sb.len < 200 * 1024, "three steps take %zu bytes", sb.len);
	amc_sb_free(&sb);
}

/* The tap marker leaves the tapped element's inside (its label) untouched and
 * points at it from outside; an assertion's match is boxed. Device 1080x2400
 * drawn at 270x600 (f = 0.25). */
static void test_marker(void)
{
	amc_err e;
	amc_image img = { 0 };
	amc_image_alloc(&img, 270, 600, &e);
	memset(img.px, 0xff, (size_t)img.w * img.h * 4);
	amc_step_row r = { .tool = "tap", .args = "{\"x\":922,\"y\":1039}",
			   .scene = "{\"elements\":[{\"id\":\"e9\",\"text\":\"Save\",\"bounds\":[852,990,992,1088]},"
				    "{\"id\":\"e1\",\"bounds\":[0,0,1080,2400]}]}" };
	amc_report_mark_target(&img, 0.25, &r);
	int inside = 0, painted = 0;
	for (int y = 248; y < 272; y++)
		for (int x = 213; x < 248; x++)
			inside += memcmp(img.px + ((size_t)y * img.w + x) * 4, "\xff\xff\xff\xff", 4) != 0;
	for (size_t i = 0; i < (size_t)img.w * img.h; i++)
		painted += memcmp(img.px + i * 4, "\xff\xff\xff\xff", 4) != 0;
	is_int(inside, 0, "nothing is drawn inside the tapped element (its label stays readable)");
	ok(painted > 100, "the marker is drawn around it (%d pixels)", painted);
	unsigned char *left = img.px + ((size_t)259 * img.w + 202) * 4, *above = img.px + ((size_t)237 * img.w + 230) * 4;
	ok(left[0] == 0xff && left[1] == 0x2d && above[0] == 0xff && above[1] == 0x2d,
	   "ticks left of and above the box point at the tapped row and column");
	memset(img.px, 0xff, (size_t)img.w * img.h * 4);
	amc_step_row a = { .tool = "assert_visible", .args = "{\"selector\":\"text=\\\"Saved\\\"\"}",
			   .result = "{\"matched\":{\"text\":\"Saved\",\"bounds\":[400,800,680,880]}}" };
	amc_report_mark_target(&img, 0.25, &a);
	unsigned char *edge = img.px + ((size_t)210 * img.w + 97) * 4;
	ok(edge[0] == 0x1a && edge[1] == 0x7f && edge[2] == 0x37, "the element an assertion matched is boxed in green");
	amc_image_free(&img);
}

static void test_json_and_dir(amc_store *s, amc_report_task *t, const char *base)
{
	cJSON *j = amc_report_json(s, t, NULL);
	is_str(amc_json_str(j, "format"), "amc-task", "the JSON names its format");
	const cJSON *task = cJSON_GetObjectItemCaseSensitive(j, "task");
	is_str(amc_json_str(task, "id"), ID, "the task");
	is_str(amc_json_str(task, "goal"), "goal " ALL, "its goal exactly as stored (JSON escapes it)");
	const cJSON *steps = cJSON_GetObjectItemCaseSensitive(j, "steps");
	is_int(cJSON_GetArraySize(steps), 3, "every step");
	const cJSON *s1 = cJSON_GetArrayItem(steps, 0);
	const char *before = amc_json_str(s1, "before_screenshot");
	ok(before && before[0] == '/' && amc_file_exists(before), "artifact paths are absolute: %s",
	   before ? before : "(null)");
	ok(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(s1, "ocr")), "the OCR words as JSON");
	ok(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(s1, "args")), "the arguments as JSON");
	const cJSON *td = cJSON_GetObjectItemCaseSensitive(s1, "tree_diff");
	ok(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(td, "tree")), "the stored tree diff as JSON");
	const cJSON *s3 = cJSON_GetArrayItem(steps, 2);
	ok(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(s3, "tree_diff"),
							 "changed_nothing")),
	   "step 3's diff says it changed nothing");
	cJSON_Delete(j);

	char dir[PATH_MAX], path[PATH_MAX + 64];
	amc_err e = { 0 };
	pathf(dir, sizeof dir, "%s/export", base);
	ok(amc_report_dir(s, t, dir, &e) == 0, "--dir writes: %s", e.msg);
	pathf(path, sizeof path, "%s/task.json", dir);
	char *text = NULL;
	size_t len;
	if (!ok(amc_read_file(path, 64 << 20, &text, &len, &e) == 0, "DIR/task.json: %s", e.msg))
		return;
	cJSON *d = cJSON_Parse(text);
	free(text);
	const cJSON *d1 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "steps"), 0);
	is_str(amc_json_str(d1, "before_screenshot"), "artifacts/7200000000000001/obs-0001.png",
	       "paths are relative to DIR");
	pathf(path, sizeof path, "%s/artifacts/7200000000000001/obs-0001.png", dir);
	ok(amc_file_exists(path), "the screenshot is copied beside it");
	pathf(path, sizeof path, "%s/artifacts/7200000000000001/obs-0002-tree.json", dir);
	ok(amc_file_exists(path), "and the UI tree");
	const cJSON *d2 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "steps"), 1);
	ok(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(d2, "after_screenshot")),
	   "a screenshot that was never written is null, not a dangling path");
	cJSON_Delete(d);
	ok(amc_report_dir(s, t, dir, &e) != 0, "a folder that is not empty is refused");
	like(e.msg, "not empty", "saying so: %s", e.msg);
}

int main(void)
{
	const char *home = test_home("report");
	test_escape();
	test_marker();
	amc_store *s;
	amc_err e = { 0 };
	if (!ok(amc_store_open(home, &s, &e) == 0, "open the store: %s", e.msg))
		return done_testing();
	make_task(s);
	amc_report_task t;
	ok(amc_report_load(s, "72000000", &t, &e) == 0, "load by prefix: %s", e.msg);
	is_int(t.nsteps, 3, "with its steps");
	test_html(s, &t);
	test_json_and_dir(s, &t, home);
	amc_report_free(&t);
	ok(amc_report_load(s, "nosuchtask", &t, &e) != 0, "an unknown task is an error");
	amc_store_close(s);
	return done_testing();
}
