/* mkfixture - a small, fully fixed amc database for the TUI's golden-screen
 * tests: fixed ids, times and screenshots, so dumps are stable.
 *
 *   mkfixture HOME [--hostile | --agent]
 *
 * 30 tasks (statuses cycle), the newest with 3 steps and before/after images.
 * --hostile puts raw terminal escapes, OSC 52, C1 (U+009B), bidi controls and
 * wide characters into goals, errors, descriptions, arguments and OCR text.
 * --agent gives the goal task t028 one step planned by a model: its reasoning,
 * a SemanticScene and the model calls (decisions) with usage and cost.
 * --evidence gives the newest task's observations their UI trees (as the
 * runner stores them), step 1 a swipe with a Scene and no stored diff (the TUI
 * computes it), step 2 a tap that changed nothing (the same screen after it;
 * its diff stored as the runner computes it) with a SemanticScene. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "image/png.h"
#include "perception/scene.h"
#include "perception/uitree.h"
#include "runtime/stepdiff.h"
#include "storage/store.h"
#include "util/jsonutil.h"

#define T0 1767225600000LL /* 2026-01-01 00:00:00 UTC */

static const char *const HOSTILE = "evil\033[31mRED\033]52;c;cHduZWQ=\a\xc2\x9b" "2J\xe2\x80\xae" "txet\xe2\x81\xa6 wide:\xe6\xbc\xa2\xe5\xad\x97 end";

static int die(const amc_err *e)
{
	fprintf(stderr, "mkfixture: %s\n", e->msg);
	return 1;
}

/* A phone-shaped test card: coloured bands and a dark button, deterministic. */
static int image_png(int variant, unsigned char **png, size_t *len, amc_err *e)
{
	amc_image img;
	if (amc_image_alloc(&img, 270, 600, e) != 0)
		return -1;
	for (int y = 0; y < img.h; y++)
		for (int x = 0; x < img.w; x++) {
			unsigned char *p = img.px + ((size_t)y * img.w + x) * 4;
			int band = y / 100;
			p[0] = (unsigned char)(band * 40 + variant * 60);
			p[1] = (unsigned char)(255 - band * 30);
			p[2] = (unsigned char)(x * 255 / img.w);
			p[3] = 255;
			if (y > 300 && y < 360 && x > 60 && x < 210)
				p[0] = p[1] = p[2] = 20;
		}
	int rc = amc_png_encode(&img, 6, png, len, e);
	amc_image_free(&img);
	return rc;
}

/* The settings list (variant 0) and the battery screen (1 and 2), as the sim
 * draws them. */
static const char *const TREES[2] = {
	"<hierarchy rotation=\"0\"><node index=\"0\" text=\"\" class=\"android.widget.FrameLayout\" "
	"package=\"com.android.settings\" enabled=\"true\" bounds=\"[0,0][270,600]\">"
	"<node index=\"0\" text=\"Settings\" resource-id=\"android:id/title_bar\" class=\"android.widget.TextView\" "
	"enabled=\"true\" bounds=\"[10,20][200,60]\" />"
	"<node index=\"1\" text=\"Wi-Fi\" resource-id=\"android:id/title\" class=\"android.widget.TextView\" "
	"clickable=\"true\" enabled=\"true\" bounds=\"[60,200][210,260]\" />"
	"<node index=\"2\" text=\"Battery\" resource-id=\"android:id/title\" class=\"android.widget.TextView\" "
	"clickable=\"true\" enabled=\"true\" bounds=\"[60,300][210,360]\" />"
	"<node index=\"3\" text=\"\" resource-id=\"com.android.settings:id/switch\" class=\"android.widget.Switch\" "
	"checkable=\"true\" checked=\"false\" enabled=\"true\" bounds=\"[220,200][260,260]\" />"
	"</node></hierarchy>",
	"<hierarchy rotation=\"0\"><node index=\"0\" text=\"\" class=\"android.widget.FrameLayout\" "
	"package=\"com.android.settings\" enabled=\"true\" bounds=\"[0,0][270,600]\">"
	"<node index=\"0\" text=\"Battery\" resource-id=\"android:id/title_bar\" class=\"android.widget.TextView\" "
	"enabled=\"true\" bounds=\"[10,20][200,60]\" />"
	"<node index=\"1\" text=\"72%\" resource-id=\"com.android.settings:id/level\" class=\"android.widget.TextView\" "
	"enabled=\"true\" bounds=\"[60,200][210,260]\" />"
	"<node index=\"2\" text=\"\" resource-id=\"com.android.settings:id/switch\" class=\"android.widget.Switch\" "
	"checkable=\"true\" checked=\"true\" enabled=\"true\" bounds=\"[220,200][260,260]\" />"
	"</node></hierarchy>",
};

/* Observation v's tree stored beside its screenshot as the runner does
 * (obs-000v-tree.json), and parsed into *t. */
static int put_tree(amc_store *s, const char *id, int v, amc_ui_tree *t, char *rel, size_t n, amc_err *e)
{
	const char *xml = TREES[v ? 1 : 0];
	if (amc_uitree_parse(xml, strlen(xml), t, e) != 0)
		return -1;
	cJSON *j = amc_uitree_to_json(t);
	char *js = amc_json_print(j);
	cJSON_Delete(j);
	char name[32];
	snprintf(name, sizeof name, "obs-%04d-tree.json", v);
	int rc = amc_store_put_artifact(s, id, name, js, strlen(js), rel, n, e);
	free(js);
	return rc;
}

static char *scene_json(const amc_ui_tree *t)
{
	amc_scene sc;
	amc_err e;
	if (amc_scene_from_tree(t, 270, 600, &sc, &e) != 0)
		return NULL;
	cJSON *j = amc_scene_to_json(&sc);
	char *js = amc_json_print(j);
	cJSON_Delete(j);
	amc_scene_free(&sc);
	return js;
}

/* Over 120 lines: the fixture database written step by step in the order
 * the goldens show it; splitting it would only pass the store around. */
int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: mkfixture HOME [--hostile | --thumbs | --agent | --evidence | --collide]\n");
		return 2;
	}
	int hostile = argc > 2 && !strcmp(argv[2], "--hostile");
	int thumbs = argc > 2 && !strcmp(argv[2], "--thumbs"); /* as the runner writes them */
	int evidence = argc > 2 && !strcmp(argv[2], "--evidence");
	amc_store *s;
	amc_err e;
	if (amc_store_open(argv[1], &s, &e) != 0)
		return die(&e);
	static const char *const st[] = { "succeeded", "failed", "cancelled", "interrupted", "succeeded" };
	static const char *const flows[] = { "Add a contact", "Turn Wi-Fi off and on", "Create a note" };
	for (int i = 0; i < 30; i++) {
		char id[32], goal[256], src[32];
		snprintf(id, sizeof id, "t%03d000000000000", i + 1);
		amc_task_row t = { 0 };
		t.id = id;
		t.kind = i % 4 == 3 ? "goal" : "flow";
		if (i % 4 == 3) {
			snprintf(goal, sizeof goal, "goal number %d: open settings and check the battery", i + 1);
			t.goal = hostile && i == 29 ? (char *)HOSTILE : goal;
		} else {
			t.flow_name = (char *)flows[i % 3];
			t.flow_path = "/data/flows/x.yaml";
		}
		if (hostile && i == 29) {
			t.kind = "goal";
			t.goal = (char *)HOSTILE;
			t.flow_name = NULL;
		}
		t.device = i % 5 == 4 ? "sim:1" : "sim:0";
		t.planner = "flow";
		t.status = (char *)st[i % 5];
		t.created_ms = T0 + (long long)i * 60000;
		t.started_ms = t.created_ms + 100;
		t.finished_ms = t.started_ms + 1500 + i * 100;
		t.steps = i == 29 ? 3 : i % 7;
		t.max_steps = 50;
		t.error = !strcmp(t.status, "failed") ? (hostile ? (char *)HOSTILE : "assertVisible \"Saved\": no match") : NULL;
		t.summary = !strcmp(t.status, "succeeded") ? "all commands passed" : NULL;
		t.input_tokens = t.output_tokens = -1;
		t.cost_usd = -1;
		if (i % 6 == 5) {
			snprintf(src, sizeof src, "cloud-task-%d", i);
			t.source_task_id = src;
			t.source_attempt = 2;
		} else {
			t.source_attempt = -1;
		}
		if (amc_store_create_task(s, &t, &e) != 0)
			return die(&e);
	}
	/* Steps of the newest task. */
	const char *id = "t030000000000000";
	char rel[3][512];
	for (int v = 0; v < 3; v++) {
		unsigned char *png;
		size_t len;
		char name[32];
		/* --evidence: the tap of step 2 changes nothing, so its after image is its before image */
		if (image_png(evidence && v == 2 ? 1 : v, &png, &len, &e) != 0)
			return die(&e);
		snprintf(name, sizeof name, "obs-%04d.png", v);
		amc_image img;
		if (thumbs && (amc_png_decode(png, len, &img, &e) != 0 ||
			       amc_store_put_thumbnail(s, id, name, &img, &e) != 0))
			return die(&e);
		if (thumbs)
			amc_image_free(&img);
		if (amc_store_put_artifact(s, id, name, png, len, rel[v], sizeof rel[v], &e) != 0)
			return die(&e);
		free(png);
	}
	amc_ui_tree trees[3] = { { 0 }, { 0 }, { 0 } };
	char tree_rel[3][512];
	amc_image imgs[3] = { { 0 }, { 0 }, { 0 } };
	for (int v = 0; evidence && v < 3; v++) {
		char abs[4096];
		if (put_tree(s, id, v, &trees[v], tree_rel[v], sizeof tree_rel[v], &e) != 0 ||
		    amc_store_artifact_abspath(s, rel[v], abs, sizeof abs, &e) != 0 || amc_png_decode_file(abs, &imgs[v], &e) != 0)
			return die(&e);
	}
	static const char *const tools[] = { "launch_app", "tap", "assert_visible" };
	static const char *const descs[] = { "launchApp com.android.settings", "tapOn \"Battery\"", "assertVisible \"Battery\"" };
	for (int k = 0; k < 3; k++) {
		amc_step_row r = { 0 };
		char args[512], ocr[512];
		r.task_id = (char *)id;
		r.step = k + 1;
		r.tool = (char *)tools[k];
		r.description = hostile && k == 1 ? (char *)HOSTILE : (char *)descs[k];
		if (hostile)
			snprintf(args, sizeof args, "{\"text\":\"%s\"}", "\\u001b]52;c;aGk=\\u0007\\u009b\\u202e");
		else if (k == 1)
			snprintf(args, sizeof args, "{\"x\":135,\"y\":330,\"selector\":\"text=\\\"Battery\\\"\"}");
		else
			snprintf(args, sizeof args, "{\"flow_line\":%d}", k + 2);
		r.args = args;
		r.status = k == 2 && !hostile ? "ok" : "ok";
		r.result = k == 1 ? "{\"matched\":{\"text\":\"Battery\",\"bounds\":[60,300,210,360]}}" : "{}";
		r.error = NULL;
		r.before_screenshot = rel[k];
		r.after_screenshot = rel[k + 1 < 3 ? k + 1 : 2];
		r.screenshot_path = r.after_screenshot;
		if (hostile)
			snprintf(ocr, sizeof ocr, "[{\"text\":\"%s\",\"confidence\":0.91,\"bounds\":[1,2,3,4]}]", "ocr\\u001b[2Jx\\u009b\\u2067y");
		else
			snprintf(ocr, sizeof ocr, "[{\"text\":\"Battery\",\"confidence\":0.97,\"bounds\":[60,300,210,360]}]");
		r.ocr = ocr;
		if (k == 2) {
			/* A get_ui_tree-style record: the normalized tree in the record. */
			r.ui_tree = "{\"format\":\"uiautomator\",\"rotation\":0,\"nodes\":[{\"index\":0,"
				    "\"class\":\"android.widget.FrameLayout\",\"text\":\"\",\"resource_id\":\"\","
				    "\"package\":\"com.android.settings\",\"content_desc\":\"\",\"hint\":\"\","
				    "\"bounds\":[0,0,1080,2400],\"flags\":[\"enabled\",\"displayed\"],\"children\":["
				    "{\"index\":0,\"class\":\"android.widget.LinearLayout\",\"text\":\"\","
				    "\"resource_id\":\"com.android.settings:id/list\",\"package\":\"com.android.settings\","
				    "\"content_desc\":\"\",\"hint\":\"\",\"bounds\":[0,84,1080,2400],\"flags\":[\"enabled\"],"
				    "\"children\":["
				    "{\"index\":0,\"class\":\"android.widget.TextView\",\"text\":\"Wi-Fi\",\"resource_id\":"
				    "\"android:id/title\",\"package\":\"com.android.settings\",\"content_desc\":\"\",\"hint\":\"\","
				    "\"bounds\":[0,84,1080,200],\"flags\":[\"enabled\",\"clickable\"],\"children\":[]},"
				    "{\"index\":1,\"class\":\"android.widget.TextView\",\"text\":\"Battery\",\"resource_id\":"
				    "\"android:id/title\",\"package\":\"com.android.settings\",\"content_desc\":\"\",\"hint\":\"\","
				    "\"bounds\":[0,200,1080,316],\"flags\":[\"enabled\",\"clickable\"],\"children\":[]}]},"
				    "{\"index\":1,\"class\":\"android.widget.Switch\",\"text\":\"\",\"resource_id\":"
				    "\"com.android.settings:id/switch_widget\",\"package\":\"com.android.settings\","
				    "\"content_desc\":\"Use Wi-Fi\",\"hint\":\"\",\"bounds\":[900,84,1060,200],"
				    "\"flags\":[\"checkable\",\"checked\"],\"children\":[]}]}]}";
		}
		char *scene = NULL, *diff = NULL;
		if (evidence && k == 0) {
			r.tool = "swipe";
			r.description = "swipe up";
			snprintf(args, sizeof args, "{\"x1\":135,\"y1\":500,\"x2\":135,\"y2\":150}");
			r.result = "{}";
		}
		if (evidence && k < 2) {
			r.ui_tree_path = tree_rel[k + 1];
			r.scene = scene = scene_json(&trees[k]);
		}
		if (evidence && k == 1) {
			/* what the runner stores: the diff of the two observations */
			amc_stepdiff_in in = { "tap", &trees[1], &trees[2], &imgs[1], &imgs[2], 20, 0.001, 0, 0, 0 };
			cJSON *dj = amc_stepdiff_compute(&in);
			r.tree_diff = diff = amc_json_print(dj);
			cJSON_Delete(dj);
			r.semantic_scene = "{\"page\":\"Battery\",\"intents\":[\"check the battery level\"],"
					   "\"widgets\":[{\"element_id\":\"e1\",\"purpose\":\"battery saver switch\"}]}";
		}
		r.reasoning = "flow command";
		r.timings = "{\"observe_ms\":12,\"plan_ms\":0,\"act_ms\":40,\"settle_ms\":100}";
		r.started_ms = T0 + 29 * 60000 + 100 + k * 500;
		r.finished_ms = r.started_ms + 300 + k * 10;
		if (amc_store_add_step(s, &r, &e) != 0)
			return die(&e);
		free(scene);
		free(diff);
	}
	for (int v = 0; v < 3; v++) {
		amc_uitree_free(&trees[v]);
		amc_image_free(&imgs[v]);
	}
	if (argc > 2 && !strcmp(argv[2], "--agent")) {
		const char *gid = "t028000000000000";
		amc_step_row r = { 0 };
		r.task_id = (char *)gid;
		r.step = 1;
		r.tool = "tap";
		r.description = "tap 'Battery'";
		r.args = "{\"x\":135,\"y\":330}";
		r.status = "ok";
		r.result = "{}";
		r.reasoning = "The battery entry is on screen; opening it shows the level.";
		r.semantic_scene = "{\"screen\":\"Settings\",\"purpose\":\"list of settings\","
				   "\"actions\":[{\"label\":\"Battery\",\"does\":\"opens battery details\"}]}";
		r.timings = "{\"observe_ms\":12,\"plan_ms\":900,\"act_ms\":40,\"settle_ms\":100}";
		r.started_ms = T0 + 27 * 60000 + 100;
		r.finished_ms = r.started_ms + 1100;
		if (amc_store_add_step(s, &r, &e) != 0)
			return die(&e);
		for (int k = 0; k < 2; k++) {
			amc_decision_row d = { 0 };
			d.task_id = (char *)gid;
			d.step = 1;
			d.attempt = -1;
			d.created_ms = T0 + 27 * 60000 + 100 + k * 400;
			d.planner = "llm";
			d.model = "claude-sonnet-5";
			d.system_prompt = "system";
			d.user_prompt = "Goal: open settings and check the battery";
			d.tool = k ? "tap" : NULL;
			d.args = k ? "{\"x\":135,\"y\":330}" : NULL;
			d.outcome = k ? "act" : "fail";
			d.input_tokens = 1200 + k * 34;
			d.output_tokens = 50 + k * 6;
			d.cost_usd = 0.0061 + k * 0.0002;
			d.detail = "{}";
			if (amc_store_add_decision(s, &d, &e) != 0)
				return die(&e);
		}
	}
	if (argc > 2 && !strcmp(argv[2], "--collide")) {
		/* a task whose id shares the first 8 characters with t030...: the
		 * short ids shown must grow to 9 to tell them apart (issue 27) */
		amc_task_row t = { 0 };
		t.id = "t030000010000000";
		t.kind = "flow";
		t.flow_name = "Twin of task 30";
		t.flow_path = "/data/flows/x.yaml";
		t.device = "sim:0";
		t.planner = "flow";
		t.status = "succeeded";
		t.created_ms = T0 + 29 * 60000 + 30000;
		t.started_ms = t.created_ms + 100;
		t.finished_ms = t.started_ms + 1000;
		t.max_steps = 50;
		t.input_tokens = t.output_tokens = -1;
		t.cost_usd = -1;
		if (amc_store_create_task(s, &t, &e) != 0 || amc_store_update_task(s, &t, &e) != 0)
			return die(&e);
	}
	amc_store_close(s);
	return 0;
}
