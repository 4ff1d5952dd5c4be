/* test_flow_export.c - a succeeded task written as a Maestro flow
 * (flow_export.h): the selector chosen for each tap from the tree the step
 * saw (unique id, unique text, text with index, point), secrets as ${NAME},
 * keys, swipes, app commands, left-out steps, the final assertVisible; the
 * result parses as a flow; a task that did not succeed is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device/device.h"
#include "device/sim/sim.h"
#include "flow/flow.h"
#include "flow/flow_export.h"
#include "planner/flow_planner.h"
#include "runtime/events.h"
#include "runtime/run.h"
#include "util/config.h"
#include "perception/uitree.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/jsonutil.h"

#define ROW(b, txt, id) "<node index=\"0\" text=\"" txt "\" resource-id=\"" id "\" class=\"android.widget.TextView\" " \
	"package=\"com.android.contacts\" clickable=\"true\" bounds=\"" b "\" />"
#define XML_LIST "<hierarchy rotation=\"0\"><node index=\"0\" text=\"\" class=\"android.widget.FrameLayout\" " \
	"package=\"com.android.contacts\" bounds=\"[0,0][1000,2000]\">" \
	ROW("[0,100][1000,200]", "Bob", "p:id/name") ROW("[0,200][1000,300]", "Bob", "p:id/name") \
	ROW("[0,300][1000,400]", "Alan Turing (1912)", "p:id/name") ROW("[700,1800][1000,1900]", "Add contact", "p:id/add") \
	ROW("[0,1000][1000,1100]", "", "") "</node></hierarchy>"
#define XML_DONE "<hierarchy rotation=\"0\"><node index=\"0\" text=\"\" class=\"android.widget.FrameLayout\" " \
	"package=\"com.android.contacts\" bounds=\"[0,0][1000,2000]\">" \
	ROW("[0,100][1000,200]", "Contacts", "p:id/title") ROW("[0,200][1000,300]", "Ada Lovelace", "p:id/name") \
	"</node></hierarchy>"

static void put_tree(amc_store *s, const char *id, const char *name, const char *xml, char *rel, size_t n)
{
	amc_ui_tree t;
	amc_err e;
	if (amc_uitree_parse(xml, strlen(xml), &t, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		exit(1);
	}
	cJSON *j = amc_uitree_to_json(&t);
	char *txt = amc_json_print(j);
	ok(amc_store_put_artifact(s, id, name, txt, strlen(txt), rel, n, &e) == 0, "tree %s", name);
	free(txt);
	cJSON_Delete(j);
	amc_uitree_free(&t);
}

static void task(amc_store *s, const char *id, const char *status)
{
	amc_task_row t = { 0 };
	amc_err e;
	amc_err_clear(&e);
	t.id = (char *)id;
	t.kind = "goal";
	t.goal = "add the contact Ada Lovelace";
	t.planner = "llm";
	t.device = "sim:0";
	t.status = (char *)status;
	t.created_ms = 1;
	t.steps = 9;
	t.source_attempt = -1;
	t.input_tokens = t.output_tokens = -1;
	t.cost_usd = -1;
	ok(amc_store_create_task(s, &t, &e) == 0, "task %s: %s", id, e.msg);
}

/* Run `yaml` as a flow task on a reset sim:0; the task id into id_out and
 * the sim's state after it into *state (caller frees). 0 when it succeeded. */
static int run_flow(amc_store *s, const char *home, amc_config *cfg, const char *yaml, char *id_out, size_t n,
		    char **state)
{
	amc_err e;
	*state = NULL;
	if (amc_sim_reset(home, 0, cfg, &e) != 0) {
		diag("reset: %s", e.msg);
		return -1;
	}
	amc_flow f;
	amc_planner *pl = NULL;
	if (amc_flow_parse(yaml, strlen(yaml), "replay.yaml", &f, &e) != 0 ||
	    amc_flow_planner_new(&f, 1500, &pl, &e) != 0) {
		diag("flow: %s", e.msg);
		return -1;
	}
	amc_device *dev = NULL;
	if (amc_device_open("sim", home, cfg, &dev, &e) != 0) {
		diag("sim: %s", e.msg);
		amc_planner_free(pl);
		return -1;
	}
	amc_runner_opts opts;
	amc_runner_opts_from_config(&opts, cfg);
	opts.ocr_policy = AMC_OCR_OFF;
	amc_bus *bus = amc_bus_new();
	amc_task *t = amc_task_new("flow", "sim:0");
	amc_task_outcome out;
	int rc = amc_task_run(&(amc_run_env){ s, bus, dev, NULL, NULL, NULL, NULL }, pl, t, &opts, &out, &e);
	if (rc != 0)
		diag("run: %s", e.msg);
	else if (strcmp(out.status, "succeeded"))
		rc = -1, diag("the task %s: %s", out.status, out.error);
	snprintf(id_out, n, "%s", t->id);
	if (amc_sim_state_json(dev, state, &e) != 0)
		rc = -1;
	amc_planner_free(pl);
	amc_task_free(t);
	amc_bus_free(bus);
	amc_device_close(dev);
	return rc;
}

/* A run on the sim exported, then replayed on a reset sim: the same state. */
static void test_replay(amc_store *s, const char *home)
{
	static const char ORIGINAL[] =
		"appId: com.android.contacts\n---\n- launchApp:\n    clearState: true\n- tapOn: \"Add contact\"\n"
		"- tapOn:\n    id: name\n- inputText: \"Ada Lovelacx\"\n- eraseText: 1\n- inputText: e\n"
		"- tapOn:\n    id: phone\n- inputText: 555-0100\n- hideKeyboard\n- tapOn: Save\n- back\n"
		"- assertVisible: Ada Lovelace\n";
	amc_config *cfg = amc_config_new();
	char id[64], id2[64];
	char *before = NULL, *after = NULL, *y = NULL;
	amc_err e;
	int rc = run_flow(s, home, cfg, ORIGINAL, id, sizeof id, &before);
	ok(rc == 0, "the original run on the sim succeeded");
	like(before, "Ada Lovelace", "and added the contact");
	ok(amc_flow_export(s, id, &y, &e) == 0, "exported: %s", e.msg);
	diag("%s", y ? y : "");
	like(y, "- inputText: \"Ada Lovelacx\"\n- pressKey: Backspace\n", "eraseText 1 as Backspace");
	like(y, "- hideKeyboard", "hideKeyboard");
	like(y, "- clearState: \"com.android.contacts\"", "clearState");
	ok(y && run_flow(s, home, cfg, y, id2, sizeof id2, &after) == 0, "the exported flow replays on a reset sim");
	ok(before && after && !strcmp(before, after), "to the same sim state, as a whole");
	if (before && after && strcmp(before, after))
		diag("original: %s\nreplay: %s", before, after);
	free(before);
	free(after);
	free(y);
	amc_config_free(cfg);
}

int main(void)
{
	const char *home = test_home("flow_export");
	amc_err e;
	amc_store *s;
	if (amc_store_open(home, &s, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	const char *id = "6200000000000001";
	task(s, id, "succeeded");
	char list[512], done[512], png[512];
	put_tree(s, id, "obs-0001-tree.json", XML_LIST, list, sizeof list);
	put_tree(s, id, "obs-0002-tree.json", XML_DONE, done, sizeof done);
	snprintf(png, sizeof png, "%.*s.png", (int)(strlen(list) - strlen("-tree.json")), list);

	static const struct { const char *tool, *args, *status; } STEPS[] = {
		{ "launch_app", "{\"app_id\":\"com.android.contacts\"}", "ok" },
		{ "screenshot", "{}", "ok" },
		{ "tap", "{\"x\":850,\"y\":1850}", "ok" },
		{ "tap", "{\"x\":500,\"y\":250}", "ok" },
		{ "tap", "{\"x\":500,\"y\":350}", "ok" },
		{ "tap", "{\"x\":500,\"y\":1050}", "ok" },
		{ "tap", "{\"x\":1,\"y\":1}", "failed" },
		{ "type_text", "{\"text\":\"pw {{secret:PASS}}\\n\\\"q\\\"\"}", "ok" },
		{ "press_key", "{\"key\":\"enter\"}", "ok" },
		{ "press_key", "{\"key\":\"back\"}", "ok" },
		{ "swipe", "{\"x1\":500,\"y1\":1500,\"x2\":500,\"y2\":500,\"ms\":300}", "ok" },
		{ "long_press", "{\"x\":500,\"y\":150,\"ms\":800}", "ok" },
		{ "manage_app", "{\"op\":\"open_link\",\"link\":\"sim://notes\"}", "ok" },
		{ "stop_app", "{\"app_id\":\"com.amc.notes\"}", "ok" },
		{ "clear_app", "{\"app_id\":\"com.amc.notes\"}", "ok" },
		{ "clear_app", "{\"app_id\":\"com.android.contacts\"}", "refused" },
		{ "rotate", "{\"orientation\":\"landscape_left\"}", "ok" },
		{ "list_apps", "{}", "ok" },
		{ "wait", "{\"ms\":100}", "ok" },
	};
	size_t nsteps = sizeof STEPS / sizeof STEPS[0];
	for (size_t i = 0; i < nsteps; i++) {
		amc_step_row r = { 0 };
		r.task_id = (char *)id;
		r.step = (int)i + 1;
		r.tool = (char *)STEPS[i].tool;
		r.args = (char *)STEPS[i].args;
		r.status = (char *)STEPS[i].status;
		r.before_screenshot = png;
		r.ui_tree_path = i + 1 == nsteps ? done : list;
		ok(amc_store_add_step(s, &r, &e) == 0, "step %zu", i + 1);
	}
	char *y = NULL;
	ok(amc_flow_export(s, "62000000", &y, &e) == 0, "exported by a prefix: %s", e.msg);
	if (!y)
		y = strdup("");
	diag("%s", y);
	like(y, "appId: \"com.android.contacts\"\n---\n- launchApp:\n    appId: \"com.android.contacts\"\n- tapOn:",
	     "appId, then launchApp; the screenshot left out");
	like(y, "# a unique resource id\n    id: \"p:id/add\"", "a unique id");
	like(y, "match 2 of 2, top to bottom\n    text: \"Bob\"\n    index: 1", "a repeated text with its index");
	like(y, "# a unique text\n    text: \"Alan Turing \\\\(1912\\\\)\"", "a unique text, as a literal regex");
	like(y, "point: \"50%,53%\"", "nothing to tell it apart: a point as a share of the screen");
	ok(!strstr(y, "\"1,1\"") && !strstr(y, "1%,0%"), "the failed step left out");
	like(y, "- inputText: \"pw ${PASS}\\x0a\\\"q\\\"\"", "a secret as ${NAME}; quotes and control bytes escaped");
	like(y, "give them with -e NAME=VALUE", "saying how to give it");
	like(y, "- pressKey: Enter\n- back\n", "keys");
	like(y, "start: \"50%,75%\"\n    end: \"50%,25%\"\n    duration: 300", "a swipe in shares of the screen");
	like(y, "- longPressOn:\n    # this text is on the screen 2 times: match 1 of 2, top to bottom\n    text: \"Bob\"\n    index: 0",
	     "a long press: the first Bob");
	like(y, "- openLink: \"sim://notes\"", "openLink");
	like(y, "- stopApp: \"com.amc.notes\"\n- clearState: \"com.amc.notes\"\n- setOrientation: LANDSCAPE_LEFT\n",
	     "stop_app, clear_app and rotate as stopApp, clearState and setOrientation; the refused clear_app and "
	     "list_apps left out");
	ok(!strstr(y, "wait"), "waits left out");
	like(y, "- assertVisible: \"Ada Lovelace\"", "the goal's text on the final screen asserted");

	amc_flow f;
	int prc = amc_flow_parse(y, strlen(y), "export.yaml", &f, &e);
	ok(prc == 0, "the export parses as a flow: %s", prc ? e.msg : "");
	if (prc == 0) {
		is_int((int)f.count, 15, "fifteen commands");
		amc_flow_free(&f);
	}
	free(y);

	task(s, "6200000000000002", "failed");
	ok(amc_flow_export(s, "6200000000000002", &y, &e) == -1 && e.code == AMC_EUSAGE && !y, "a failed task is refused");
	like(e.msg, "only a succeeded task", "saying why");
	task(s, "6200000000000003", "succeeded");
	ok(amc_flow_export(s, "6200000000000003", &y, &e) == -1 && e.code == AMC_EUSAGE, "no step: refused");
	ok(amc_flow_export(s, "ffff", &y, &e) == -1, "an unknown task");
	test_replay(s, home);
	amc_store_close(s);
	return done_testing();
}
