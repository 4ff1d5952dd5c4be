/* test_stepdiff.c - a step's before/after difference (runtime/stepdiff.c):
 * the "changed nothing" rule part by part, unknown stays unknown, the diff
 * computed on demand from stored artifacts, the rendered lines, and the
 * runner storing it with each record of a task run on the sim (a tap on
 * nothing flagged, a tap that opens a screen not). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device/device.h"
#include "image/png.h"
#include "runtime/events.h"
#include "runtime/run.h"
#include "runtime/stepdiff.h"
#include "script_planner.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"

#define XML_A "<hierarchy rotation=\"0\"><node index=\"0\" text=\"\" class=\"android.widget.FrameLayout\" " \
	"bounds=\"[0,0][100,200]\"><node index=\"0\" text=\"Wi-Fi\" resource-id=\"p:id/title\" " \
	"class=\"android.widget.TextView\" bounds=\"[0,40][100,80]\" /></node></hierarchy>"
#define XML_B "<hierarchy rotation=\"0\"><node index=\"0\" text=\"\" class=\"android.widget.FrameLayout\" " \
	"bounds=\"[0,0][100,200]\"><node index=\"0\" text=\"Wi-Fi on\" resource-id=\"p:id/title\" " \
	"class=\"android.widget.TextView\" bounds=\"[0,40][100,80]\" /></node></hierarchy>"

static void tree(const char *xml, amc_ui_tree *t)
{
	amc_err e;
	if (amc_uitree_parse(xml, strlen(xml), t, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		exit(1);
	}
}

/* A 100x200 grey image with `n` pixels from row y painted white. */
static void image(amc_image *img, int y, int n)
{
	amc_err e;
	if (amc_image_alloc(img, 100, 200, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		exit(1);
	}
	for (int i = 0; i < 100 * 200; i++)
		((uint32_t *)img->px)[i] = 0xff808080u;
	for (int i = 0; i < n; i++)
		((uint32_t *)img->px)[y * 100 + i] = 0xffffffffu;
}

static int flag_of(const amc_stepdiff_in *in)
{
	cJSON *j = amc_stepdiff_compute(in);
	char *s = amc_json_print(j);
	int v = amc_stepdiff_changed_nothing(s);
	free(s);
	cJSON_Delete(j);
	return v;
}

#define XML_FOCUSED "<hierarchy rotation=\"0\"><node index=\"0\" text=\"\" class=\"android.widget.FrameLayout\" " \
	"bounds=\"[0,0][100,200]\"><node index=\"0\" text=\"\" resource-id=\"p:id/name\" focused=\"true\" " \
	"class=\"android.widget.EditText\" bounds=\"[0,40][100,80]\" /></node></hierarchy>"

/* Issue 27: a tap on the field that already has focus (bundled add-contact's
 * step 4 `tapOn id="name"`) is not a missed tap; a tap beside it still is. */
static void test_focused_field(void)
{
	amc_ui_tree f;
	tree(XML_FOCUSED, &f);
	amc_image i0;
	image(&i0, 0, 0);
	amc_stepdiff_in in = { "tap", &f, &f, &i0, &i0, 10, 0.001, 1, 50, 60 };
	is_int(flag_of(&in), 0, "a tap on the focused field: not a missed tap");
	cJSON *j = amc_stepdiff_compute(&in);
	ok(cJSON_IsTrue(cJSON_GetObjectItem(j, "focused_field")), "focused_field says why");
	cJSON_Delete(j);
	in.tap_y = 150;
	is_int(flag_of(&in), 1, "a tap beside the focused field that changed nothing: flagged");
	in.have_tap = 0;
	in.tap_y = 60;
	is_int(flag_of(&in), 1, "the point unknown: flagged as before");
	cJSON *args = cJSON_Parse("{\"x\":5,\"y\":7}"), *res = cJSON_Parse("{\"matched\":{\"bounds\":[0,40,100,80]}}");
	int x = 0, y = 0;
	ok(amc_stepdiff_tap_point(args, NULL, &x, &y) && x == 5 && y == 7, "tap point from x/y");
	ok(amc_stepdiff_tap_point(NULL, res, &x, &y) && x == 50 && y == 60, "tap point from the matched bounds");
	ok(!amc_stepdiff_tap_point(NULL, NULL, &x, &y), "no tap point");
	cJSON_Delete(args);
	cJSON_Delete(res);
	amc_image_free(&i0);
	amc_uitree_free(&f);
}

static void test_rule(void)
{
	amc_ui_tree a, b;
	tree(XML_A, &a);
	tree(XML_B, &b);
	amc_image i0, i1, bar, many;
	image(&i0, 0, 0);
	image(&i1, 100, 10);   /* 10 of 20000 pixels: 0.05 % */
	image(&bar, 2, 100);   /* a whole row inside the status bar */
	image(&many, 100, 60); /* 0.3 % */
	amc_stepdiff_in in = { "tap", &a, &a, &i0, &i0, 10, 0.001, 0, 0, 0 };
	is_int(flag_of(&in), 1, "a tap, same tree, same pixels: changed nothing");
	in.after_img = &i1;
	is_int(flag_of(&in), 1, "pixels within the tolerance still count as none");
	in.after_img = &bar;
	is_int(flag_of(&in), 1, "the status bar (the clock) is left out");
	in.status_bar_px = 0;
	is_int(flag_of(&in), 0, "... only the status bar: the same row below it counts");
	in.status_bar_px = 10;
	in.after_img = &many;
	is_int(flag_of(&in), 0, "pixels beyond the tolerance: something changed");
	in.after_img = &i0;
	in.after = &b;
	is_int(flag_of(&in), 0, "a tree change: something changed");
	in.after = &a;
	static const char *const actions[] = { "long_press", "swipe", "type_text", "press_key" };
	for (int k = 0; k < 4; k++) {
		in.tool = actions[k];
		is_int(flag_of(&in), 1, "%s is an action", actions[k]);
	}
	in.tool = "wait";
	is_int(flag_of(&in), 0, "wait is not an action: never flagged");
	in.tool = "describe_screen";
	is_int(flag_of(&in), 0, "looking is not an action");
	in.tool = "tap";
	in.before = NULL;
	is_int(flag_of(&in), -1, "no before tree: unknown");
	in.before = &a;
	in.before_img = NULL;
	is_int(flag_of(&in), -1, "no before image: unknown");
	in.after = &b;
	is_int(flag_of(&in), 0, "... but a tree change is known without images");
	cJSON *j = amc_stepdiff_compute(&in);
	ok(cJSON_IsNull(cJSON_GetObjectItem(j, "pixels")), "pixels null when unknown");
	cJSON_Delete(j);
	in.before = NULL;
	j = amc_stepdiff_compute(&in);
	is_str(amc_json_str(j, "tree_missing"), "before", "the missing tree is named");
	char *s = amc_json_print(j);
	char *text = amc_stepdiff_text(s, 0);
	like(text, "tree: unknown (the before tree is not recorded)", "rendered: the tree unknown");
	like(text, "pixels: unknown", "rendered: the pixels unknown");
	like(text, "whether the action changed anything is unknown", "rendered: the flag unknown");
	free(text);
	free(s);
	cJSON_Delete(j);
	is_int(amc_stepdiff_changed_nothing(NULL), -1, "no JSON: unknown");
	is_int(amc_stepdiff_changed_nothing("not json"), -1, "bad JSON: unknown");
	text = amc_stepdiff_text("{oops", 1);
	like(text, "not readable", "an unreadable stored diff says so");
	free(text);
	amc_image_free(&i0);
	amc_image_free(&i1);
	amc_image_free(&bar);
	amc_image_free(&many);
	amc_uitree_free(&a);
	amc_uitree_free(&b);
}

static void test_render(void)
{
	amc_ui_tree a, b;
	tree(XML_A, &a);
	tree(XML_B, &b);
	amc_image i0;
	image(&i0, 0, 0);
	amc_stepdiff_in in = { "tap", &a, &a, &i0, &i0, 10, 0.001, 0, 0, 0 };
	cJSON *j = amc_stepdiff_compute(&in);
	char *s = amc_json_print(j);
	char *text = amc_stepdiff_text(s, 1);
	like(text, "! changed nothing: the UI tree is the same and 0.00% of the pixels", "the warning leads");
	like(text, "tree: 0 added, 0 removed, 0 changed, 2 unchanged", "the tree summary");
	free(text);
	free(s);
	cJSON_Delete(j);
	in.after = &b;
	j = amc_stepdiff_compute(&in);
	s = amc_json_print(j);
	text = amc_stepdiff_text(s, 1);
	ok(!strstr(text, "changed nothing"), "a change: no warning");
	like(text, "~ TextView \"Wi-Fi on\" #title  text: \"Wi-Fi\" \xe2\x86\x92 \"Wi-Fi on\"  @0.0", "the change, old and new");
	diag("%s", text);
	free(text);
	free(s);
	cJSON_Delete(j);
	amc_image_free(&i0);
	amc_uitree_free(&a);
	amc_uitree_free(&b);
}

/* Artifacts as the runner writes them, a record without a stored diff: the
 * diff is computed from them; a stored one is returned as stored. */
static void test_on_demand(amc_store *s)
{
	amc_err e;
	const char *id = "6100000000000001";
	amc_task_row t = { 0 };
	t.id = (char *)id;
	t.kind = "flow";
	t.status = "succeeded";
	t.created_ms = 1;
	t.source_attempt = -1;
	t.input_tokens = t.output_tokens = -1;
	t.cost_usd = -1;
	ok(amc_store_create_task(s, &t, &e) == 0, "task: %s", e.msg);
	char rel[3][512];
	const char *xmls[2] = { XML_A, XML_B };
	for (int k = 0; k < 2; k++) {
		amc_ui_tree tr;
		tree(xmls[k], &tr);
		cJSON *tj = amc_uitree_to_json(&tr);
		char *ts = amc_json_print(tj);
		char name[32];
		snprintf(name, sizeof name, "obs-%04d-tree.json", k + 1);
		ok(amc_store_put_artifact(s, id, name, ts, strlen(ts), rel[2], sizeof rel[2], &e) == 0, "tree %d", k + 1);
		free(ts);
		cJSON_Delete(tj);
		amc_uitree_free(&tr);
		amc_image img;
		image(&img, 0, 0);
		unsigned char *png;
		size_t len;
		ok(amc_png_encode(&img, 1, &png, &len, &e) == 0, "png %d", k + 1);
		snprintf(name, sizeof name, "obs-%04d.png", k + 1);
		ok(amc_store_put_artifact(s, id, name, png, len, rel[k], sizeof rel[k], &e) == 0, "screenshot %d", k + 1);
		free(png);
		amc_image_free(&img);
	}
	amc_step_row r = { 0 };
	r.task_id = (char *)id;
	r.step = 1;
	r.tool = "tap";
	r.status = "ok";
	r.before_screenshot = rel[0];
	r.after_screenshot = rel[1];
	ok(amc_store_add_step(s, &r, &e) == 0, "a step without a stored diff");
	r.step = 2;
	r.before_screenshot = rel[1];
	r.after_screenshot = rel[1];
	r.tree_diff = "{\"action\":true,\"tree\":null,\"pixels\":null,\"changed_nothing\":true}";
	ok(amc_store_add_step(s, &r, &e) == 0, "a step with one");
	r.step = 3;
	r.before_screenshot = "artifacts/6100000000000001/gone.png";
	r.tree_diff = NULL;
	ok(amc_store_add_step(s, &r, &e) == 0, "a step whose before files are gone");
	char *json = NULL;
	ok(amc_stepdiff_load(s, "61000000", 1, &json, &e) == 0, "load step 1 by a task prefix: %s", e.msg);
	cJSON *j = json ? cJSON_Parse(json) : NULL;
	is_int(amc_json_int(cJSON_GetObjectItem(j, "tree"), "changed", -1), 1, "computed: one node changed");
	ok(cJSON_IsObject(cJSON_GetObjectItem(j, "pixels")), "pixels compared");
	is_int(amc_stepdiff_changed_nothing(json), 0, "not flagged: the text changed");
	cJSON_Delete(j);
	free(json);
	ok(amc_stepdiff_load(s, id, 2, &json, &e) == 0, "load step 2");
	is_str(json, "{\"action\":true,\"tree\":null,\"pixels\":null,\"changed_nothing\":true}", "the stored diff as stored");
	free(json);
	ok(amc_stepdiff_load(s, id, 3, &json, &e) == 0, "load step 3");
	is_int(amc_stepdiff_changed_nothing(json), -1, "missing before files: unknown, not an error");
	like(json, "\"tree_missing\":\"before\"", "the before tree is missing");
	free(json);
	is_int(amc_stepdiff_load(s, id, 9, &json, &e), -1, "no step 9: an error");
	like(e.msg, "has no step 9", "saying so");
	ok(json == NULL, "and no JSON");
	is_int(amc_stepdiff_load(s, "ffff", 1, &json, &e), -1, "no such task: an error");
}

/* A task on the sim: the record of each action carries its diff. */
static void test_recorded(amc_store *s, const char *home)
{
	amc_err e;
	amc_config *cfg = amc_config_new();
	amc_runner_opts opts;
	amc_runner_opts_from_config(&opts, cfg);
	opts.ocr_policy = AMC_OCR_OFF;
	amc_device *dev = NULL;
	if (amc_device_open("sim", home, cfg, &dev, &e) != 0) {
		ok(0, "open sim: %s", e.msg);
		amc_config_free(cfg);
		return;
	}
	amc_bus *bus = amc_bus_new();
	/* launch settings; tap the status bar (nothing there to tap); tap the
	 * Wi-Fi row (opens its screen) */
	static const char *const steps[] = {
		"launch_app", "{\"app_id\":\"com.android.settings\"}",
		"tap", "{\"x\":540,\"y\":30}",
		"tap", "{\"x\":540,\"y\":530}",
		"wait", "{\"ms\":10}",
	};
	script sc = { steps, 4, 0, 0, NULL, 0, 0 };
	amc_planner *pl = planner_for(&sc);
	amc_task *t = amc_task_new("flow", "sim:0");
	amc_task_outcome out;
	int rc = amc_task_run(&(amc_run_env){ s, bus, dev, NULL, NULL, NULL, NULL }, pl, t, &opts, &out, &e);
	ok(rc == 0, "task ran: %s", rc ? e.msg : "");
	amc_step_row *rows = NULL;
	size_t n = 0;
	ok(amc_store_get_steps(s, t->id, &rows, &n, &e) == 0 && n == 4, "four records");
	for (size_t i = 0; i < n; i++)
		diag("step %d %s: %.200s", rows[i].step, rows[i].tool, rows[i].tree_diff ? rows[i].tree_diff : "(none)");
	if (n == 4) {
		ok(rows[0].tree_diff != NULL, "launch_app: a diff stored");
		is_int(amc_stepdiff_changed_nothing(rows[0].tree_diff), 0, "launch_app is not flagged");
		is_int(amc_stepdiff_changed_nothing(rows[1].tree_diff), 1, "the tap on nothing: changed nothing");
		is_int(amc_stepdiff_changed_nothing(rows[2].tree_diff), 0, "the tap on a row: changed something");
		cJSON *j = rows[2].tree_diff ? cJSON_Parse(rows[2].tree_diff) : NULL;
		ok(amc_json_int(cJSON_GetObjectItem(j, "tree"), "added", 0) > 0, "the new screen's nodes are added");
		cJSON_Delete(j);
		is_int(amc_stepdiff_changed_nothing(rows[3].tree_diff), 0, "wait is never flagged");
		char *json = NULL;
		/* the runner's diff and the on-demand one agree */
		free(rows[1].tree_diff);
		rows[1].tree_diff = NULL;
		ok(amc_stepdiff_of_row(s, &rows[1], &json, &e) == 0, "step 2 on demand");
		is_int(amc_stepdiff_changed_nothing(json), 1, "on demand, the tap on nothing is flagged too");
		free(json);
	}
	amc_step_rows_free(rows, n);
	amc_planner_free(pl);
	amc_task_free(t);
	amc_bus_free(bus);
	amc_device_close(dev);
	amc_config_free(cfg);
}

int main(void)
{
	const char *home = test_home("stepdiff");
	amc_err e;
	amc_store *s;
	if (amc_store_open(home, &s, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	test_rule();
	test_focused_field();
	test_render();
	test_on_demand(s);
	test_recorded(s, home);
	amc_store_close(s);
	return done_testing();
}
