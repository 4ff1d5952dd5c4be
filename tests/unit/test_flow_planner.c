/* test_flow_planner.c - the flow planner driven with hand-built observations. */
#include <stdlib.h>
#include <string.h>

#include "planner/flow_planner.h"
#include "perception/uitree.h"
#include "tap.h"
#include "testutil.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"

typedef struct screen {
	amc_observation obs;
	size_t cap;
} screen;

static void screen_init(screen *s)
{
	memset(s, 0, sizeof *s);
	s->obs.width = 1080;
	s->obs.height = 2400;
}

static int add(screen *s, int parent, const char *text, const char *rid, const char *desc, int x1, int y1,
	       int x2, int y2)
{
	amc_ui_tree *t = &s->obs.tree;
	if (t->count == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		t->nodes = amc_xrealloc(t->nodes, s->cap * sizeof *t->nodes);
	}
	int i = (int)t->count++;
	amc_ui_node *n = &t->nodes[i];
	memset(n, 0, sizeof *n);
	n->parent = parent;
	n->first_child = n->next_sibling = -1;
	n->text = amc_xstrdup(text ? text : "");
	n->resource_id = amc_xstrdup(rid ? rid : "");
	n->class_name = amc_xstrdup("android.widget.TextView");
	n->package = amc_xstrdup("");
	n->content_desc = amc_xstrdup(desc ? desc : "");
	n->hint = amc_xstrdup("");
	n->bounds = (amc_bounds){ x1, y1, x2, y2 };
	n->flags = AMC_NODE_DISPLAYED | AMC_NODE_ENABLED;
	return i;
}

static void screen_free(screen *s)
{
	amc_uitree_free(&s->obs.tree);
	memset(s, 0, sizeof *s);
}

/* The end of every planner test: what it built, freed. */
static void finish(amc_planner *p, screen *s, amc_action *a)
{
	screen_free(s);
	amc_action_clear(a);
	amc_planner_free(p);
}

/* The contacts list of the sim. */
static void contacts_list(screen *s)
{
	screen_init(s);
	int r = add(s, -1, NULL, NULL, NULL, 0, 0, 1080, 2400);
	add(s, r, "Contacts", "com.android.contacts:id/title", NULL, 40, 100, 600, 200);
	add(s, r, "Bob", "com.android.contacts:id/name", NULL, 40, 300, 1040, 400);
	add(s, r, "", "com.android.contacts:id/fab_add", "Add contact", 900, 2100, 1040, 2240);
}

static amc_planner *planner_for(const char *yaml, long wait_ms)
{
	amc_flow f;
	amc_err e;
	if (amc_flow_parse(yaml, strlen(yaml), "test.yaml", &f, &e) != 0) {
		diag("parse: %s", e.msg);
		return NULL;
	}
	amc_planner *p;
	if (amc_flow_planner_new(&f, wait_ms, &p, &e) != 0) {
		diag("new: %s", e.msg);
		amc_flow_free(&f);
		return NULL;
	}
	ok(f.cmds == NULL && f.count == 0, "planner took the flow (caller's struct zeroed)");
	return p;
}

static amc_plan_rc step(amc_planner *p, const screen *s, long long waited, amc_action *a, amc_err *e)
{
	amc_plan_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.obs = s ? &s->obs : NULL;
	ctx.last_ok = 1;
	ctx.waited_ms = waited;
	amc_action_clear(a);
	amc_err_clear(e);
	return p->ops->next(p, &ctx, a, e);
}

static int arg_int(const amc_action *a, const char *k)
{
	return amc_json_int(a->args, k, -999);
}

/* tapOn repeat with delay: YamlFluentCommand.tapCommand builds a TapRepeat
 * (maestro-orchestra), so Maestro waits delay ms between the taps
 * (DrugAddict11/maestro-test-apk writes repeat: 3, delay: 5000). */
static void test_tap_repeat_delay(void)
{
	amc_planner *p = planner_for("appId: com.android.contacts\n---\n"
				     "- tapOn: {text: \"Bob\", repeat: 3, delay: 700}\n- back\n", 5000);
	if (!ok(p != NULL, "planner created"))
		return;
	screen s;
	contacts_list(&s);
	amc_action a;
	amc_err e;
	memset(&a, 0, sizeof a);
	const char *want[] = { "tap", "wait", "tap", "wait", "tap", "press_key" };
	int good = 1, ms = 1;
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		amc_plan_rc rc = step(p, &s, 0, &a, &e);
		if (rc != AMC_PLAN_ACT || strcmp(a.tool, want[k])) {
			diag("step %zu: rc %d tool %s, wanted %s", k, (int)rc, a.tool, want[k]);
			good = 0;
		}
		if (!strcmp(a.tool, "wait"))
			ms &= arg_int(&a, "ms") == 700;
	}
	ok(good, "three taps with a wait between each two, then the next command");
	ok(ms, "each wait is the delay");
	finish(p, &s, &a);
}

static void test_tap_and_wait(void)
{
	amc_planner *p = planner_for("appId: com.android.contacts\n---\n- launchApp\n- tapOn: \"Add contact\"\n"
				     "- tapOn: \"Save\"\n", 5000);
	if (!ok(p != NULL, "planner created"))
		return;
	screen s;
	contacts_list(&s);
	amc_action a;
	amc_err e;
	memset(&a, 0, sizeof a);
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_ACT, "launchApp acts");
	is_str(a.tool, "launch_app", "launchApp -> launch_app");
	is_str(amc_json_str(a.args, "app_id"), "com.android.contacts", "default appId from the config");
	is_int(arg_int(&a, "flow_line"), 3, "flow_line recorded");
	is_str(a.description, "launchApp com.android.contacts", "description names the app");
	ok(!a.decided, "launchApp is not decided by the planner");

	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_ACT, "tapOn acts");
	is_str(a.tool, "tap", "tapOn -> tap");
	is_int(arg_int(&a, "x"), 970, "x is the centre of the bounds");
	is_int(arg_int(&a, "y"), 2170, "y is the centre of the bounds");
	is_str(amc_json_str(a.args, "selector"), "text=\"Add contact\"", "selector recorded");
	is_int(arg_int(&a, "flow_line"), 4, "tapOn flow_line");
	is_str(a.description, "tapOn \"Add contact\"", "tapOn description");

	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_REOBSERVE, "not found: re-observe");
	is_int(step(p, &s, 4999, &a, &e), AMC_PLAN_REOBSERVE, "still within the wait timeout");
	is_int(step(p, &s, 5000, &a, &e), AMC_PLAN_ACT, "timeout: a decided step");
	ok(a.decided && !a.decided_ok, "decided failed");
	like(a.decided_error, "test.yaml:5: tapOn: no element matches text=\"Save\" after 5.0 s",
	     "failure names the file, line, command, selector and the wait");
	like(a.decided_error, "on screen: 'Contacts', 'Bob', 'Add contact'", "and what was on screen");
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_DONE, "after the last command: done");
	finish(p, &s, &a);
}

static void test_asserts(void)
{
	amc_planner *p = planner_for("appId: x\n---\n- assertVisible: \"Bob\"\n- assertNotVisible: \"Bob\"\n"
				     "- assertNotVisible: \"Zed\"\n- assertVisible: {id: \"missing\"}\n", 1000);
	if (!p)
		return;
	screen s;
	contacts_list(&s);
	amc_action a;
	amc_err e;
	memset(&a, 0, sizeof a);
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_ACT, "assertVisible found");
	ok(a.decided && a.decided_ok, "decided ok");
	is_str(a.tool, "assert_visible", "tool assert_visible");
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(a.decided_result, "matched");
	is_str(amc_json_str(m, "text"), "Bob", "result: matched text");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(m, "bounds");
	ok(cJSON_IsArray(b) && cJSON_GetArraySize(b) == 4 && cJSON_GetArrayItem(b, 1)->valueint == 300,
	   "result: matched bounds");

	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_REOBSERVE, "assertNotVisible waits for it to go");
	is_int(step(p, &s, 1000, &a, &e), AMC_PLAN_ACT, "then fails");
	ok(a.decided && !a.decided_ok, "assertNotVisible failed");
	like(a.decided_error, "test.yaml:4: assertNotVisible: text=\"Bob\" is still visible after 1.0 s: "
	     "'Bob' at [40,300][1040,400]", "message with where it is");

	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_ACT, "assertNotVisible holds");
	ok(a.decided && a.decided_ok, "decided ok");
	is_str(a.tool, "assert_not_visible", "tool assert_not_visible");

	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_REOBSERVE, "assertVisible waits");
	is_int(step(p, &s, 1500, &a, &e), AMC_PLAN_ACT, "then decides");
	ok(a.decided && !a.decided_ok, "assertVisible failed");
	like(a.decided_error, "assertVisible: no element matches id=\"missing\" after 1.5 s; on screen:",
	     "assertVisible failure message");
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_DONE, "done");
	like(a.description, "flow 'test': 4 commands passed", "summary");
	finish(p, &s, &a);
}

static void test_other_commands(void)
{
	amc_planner *p = planner_for(
		"appId: com.a\nname: Misc\n---\n- launchApp: com.b\n- inputText: \"Ada\"\n- pressKey: Enter\n"
		"- back\n- scroll\n- swipe: {direction: LEFT, duration: 200}\n"
		"- swipe: {start: \"50%,80%\", end: \"50%,20%\"}\n- waitForAnimationToEnd\n- takeScreenshot: s1\n"
		"- tapOn: {point: \"50%,50%\"}\n- longPressOn: {text: \"Bob\", index: 0}\n"
		"- tapOn: {text: \"Nope\", optional: true}\n", 0);
	if (!p)
		return;
	screen s;
	contacts_list(&s);
	amc_action a;
	amc_err e;
	memset(&a, 0, sizeof a);
	step(p, &s, 0, &a, &e);
	is_str(amc_json_str(a.args, "app_id"), "com.b", "launchApp with its own id");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "type_text") && !strcmp(amc_json_str(a.args, "text"), "Ada"), "inputText -> type_text");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "press_key") && !strcmp(amc_json_str(a.args, "key"), "enter"), "pressKey -> press_key");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "press_key") && !strcmp(amc_json_str(a.args, "key"), "back"), "back -> press_key back");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "swipe") && arg_int(&a, "y1") > arg_int(&a, "y2") && arg_int(&a, "x1") == 540,
	   "scroll -> swipe upwards in the middle");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "swipe") && arg_int(&a, "x1") > arg_int(&a, "x2") && arg_int(&a, "ms") == 200,
	   "swipe LEFT with its duration");
	step(p, &s, 0, &a, &e);
	ok(arg_int(&a, "x1") == 540 && arg_int(&a, "y1") == 1920 && arg_int(&a, "x2") == 540 &&
	   arg_int(&a, "y2") == 480, "swipe start/end in percent of the screen");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "wait") && arg_int(&a, "ms") > 0, "waitForAnimationToEnd -> wait");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "screenshot") && !strcmp(amc_json_str(a.args, "name"), "s1"), "takeScreenshot");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "tap") && arg_int(&a, "x") == 540 && arg_int(&a, "y") == 1200, "tapOn point");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "long_press") && arg_int(&a, "x") == 540 && arg_int(&a, "y") == 350,
	   "longPressOn -> long_press at the centre");
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_ACT, "optional, wait 0: decided at once");
	ok(a.decided && a.decided_ok, "optional not found: decided ok");
	is_str(a.description, "tapOn \"Nope\" (optional, skipped)", "skip noted");
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_DONE, "done");
	like(a.description, "flow 'Misc': 11 commands passed, 1 optional skipped", "summary counts the skip");
	finish(p, &s, &a);
}

static void test_scroll_until_visible(void)
{
	amc_planner *p = planner_for("- scrollUntilVisible: {element: \"About phone\", timeout: 3000}\n"
				     "- scrollUntilVisible: {element: \"Nowhere\"}\n", 0);
	if (!p)
		return;
	screen s;
	amc_action a;
	amc_err e;
	memset(&a, 0, sizeof a);
	screen_init(&s);
	int r = add(&s, -1, NULL, NULL, NULL, 0, 0, 1080, 2400);
	add(&s, r, "Wi-Fi", NULL, NULL, 0, 100, 1080, 200);
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_ACT, "not visible: swipe");
	ok(!strcmp(a.tool, "swipe") && !a.decided && arg_int(&a, "y1") > arg_int(&a, "y2"),
	   "direction DOWN swipes the finger up");
	screen_free(&s);
	screen_init(&s);
	r = add(&s, -1, NULL, NULL, NULL, 0, 0, 1080, 2400);
	add(&s, r, "About phone", NULL, NULL, 0, 1900, 1080, 2000);
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_ACT, "visible now");
	ok(a.decided && a.decided_ok, "decided ok");
	/* Second command: the screen never changes, so it stops early. */
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_ACT, "swipe once");
	ok(!strcmp(a.tool, "swipe"), "a swipe");
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_ACT, "same screen after the swipe");
	ok(a.decided && !a.decided_ok, "fails");
	like(a.decided_error, "test.yaml:2: scrollUntilVisible: no element matches text=\"Nowhere\" after 1 swipe "
	     "(the screen stopped moving)", "says why");
	finish(p, &s, &a);
}

static void test_previous_failure(void)
{
	amc_planner *p = planner_for("- launchApp: a.b\n- back\n", 0);
	if (!p)
		return;
	amc_action a;
	amc_err e;
	memset(&a, 0, sizeof a);
	amc_plan_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.last_ok = 1;
	is_int(p->ops->next(p, &ctx, &a, &e), AMC_PLAN_ACT, "no observation: still plans launchApp");
	amc_action_clear(&a);
	ctx.last_tool = "launch_app";
	ctx.last_ok = 0;
	ctx.last_error = "device \x1b[31mgone";
	is_int(p->ops->next(p, &ctx, &a, &e), AMC_PLAN_FAIL, "after a failed step: FAIL");
	like(e.msg, "test.yaml:1: launchApp a.b: device", "with the error, naming the file, line and command");
	ok(!strchr(e.msg, 0x1b), "sanitized");
	amc_action_clear(&a);
	amc_planner_free(p);

	amc_flow empty;
	memset(&empty, 0, sizeof empty);
	ok(amc_flow_planner_new(&empty, 0, &p, &e) == -1, "a flow with no commands is refused");
}

static void test_bundled_on_screens(void)
{
	/* add-contact.yaml, walked over screens shaped like the sim's (docs/sim.md). */
	amc_flow f;
	amc_err e;
	amc_planner *p;
	if (!ok(amc_flow_load(test_src("data/flows/add-contact.yaml"), &f, &e) == 0, "add-contact loads"))
		return;
	ok(amc_flow_planner_new(&f, 1000, &p, &e) == 0, "planner");
	screen list, form, detail, list2;
	contacts_list(&list);
	screen_init(&form);
	int r = add(&form, -1, NULL, NULL, NULL, 0, 0, 1080, 2400);
	add(&form, r, "Create contact", NULL, NULL, 40, 100, 600, 200);
	add(&form, r, "", "com.android.contacts:id/name", NULL, 40, 300, 1040, 400);
	add(&form, r, "", "com.android.contacts:id/phone", NULL, 40, 500, 1040, 600);
	add(&form, r, "Save", "com.android.contacts:id/save", NULL, 800, 2200, 1040, 2300);
	screen_init(&detail);
	r = add(&detail, -1, NULL, NULL, NULL, 0, 0, 1080, 2400);
	add(&detail, r, "Ada Lovelace", NULL, NULL, 40, 300, 1040, 400);
	add(&detail, r, "555-0100", NULL, NULL, 40, 500, 1040, 600);
	contacts_list(&list2);
	add(&list2, 0, "Ada Lovelace", "com.android.contacts:id/name", NULL, 40, 200, 1040, 290);
	/* launchApp's clearState acts first (manage_app), then the launch */
	const screen *seq[] = { &list, &list, &list, &form, &form, &form, &form, &form, &form, &detail, &detail, &detail,
				&list2, &list2 };
	amc_action a;
	memset(&a, 0, sizeof a);
	int acted = 0, failed = 0;
	for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		amc_plan_rc rc = step(p, seq[i], 0, &a, &e);
		if (rc != AMC_PLAN_ACT || (a.decided && !a.decided_ok)) {
			failed = 1;
			diag("command %zu: rc %d %s", i, rc, a.decided_error ? a.decided_error : e.msg);
			break;
		}
		acted++;
	}
	ok(!failed && acted == 14, "every command of add-contact.yaml plans on sim-like screens (14 actions)");
	is_int(step(p, &list2, 0, &a, &e), AMC_PLAN_DONE, "and the flow is done");
	like(a.description, "flow 'Add a contact': 13 commands passed", "summary");
	amc_action_clear(&a);
	amc_planner_free(p);
	screen_free(&list);
	screen_free(&form);
	screen_free(&detail);
	screen_free(&list2);
}

/* The previous step's outcome, as the runner reports it, then the next decision. */
static amc_plan_rc after(amc_planner *p, const screen *s, int last_ok, const char *err, amc_action *a, amc_err *e)
{
	amc_plan_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.obs = s ? &s->obs : NULL;
	ctx.last_tool = "tap";
	ctx.last_ok = last_ok;
	char *errc = err ? strdup(err) : NULL; /* err may be a->decided_error, freed below */
	ctx.last_error = errc;
	ctx.step = 7;
	amc_action_clear(a);
	amc_err_clear(e);
	amc_plan_rc rc = p->ops->next(p, &ctx, a, e);
	free(errc);
	return rc;
}

static amc_planner *planner_opts(const char *yaml, const char *const *files, amc_flow_run_opts *o)
{
	amc_flow f;
	amc_err e;
	if (amc_flow_parse(yaml, strlen(yaml), "dir/main.yaml", &f, &e) != 0) {
		diag("parse: %s", e.msg);
		return NULL;
	}
	if (files) {
		/* sub-flows from memory, by path */
		for (size_t i = 0; i < f.count; i++) {
			amc_flow_cmd *c = &f.cmds[i];
			for (size_t k = 0; c->file && files[k]; k += 2) {
				if (strcmp(c->file, files[k]))
					continue;
				char path[128];
				snprintf(path, sizeof path, "dir/%s", files[k]);
				c->sub = amc_xcalloc(1, sizeof *c->sub);
				if (amc_flow_parse_sub(files[k + 1], strlen(files[k + 1]), path, 0, c->sub, &e) != 0)
					diag("sub: %s", e.msg);
			}
		}
	}
	amc_planner *p;
	amc_flow_run_opts def;
	amc_flow_run_opts_init(&def);
	if (amc_flow_planner_new_opts(&f, o ? o : &def, &p, &e) != 0) {
		diag("new: %s", e.msg);
		return NULL;
	}
	return p;
}

static void test_blocks(void)
{
	static const char *const FILES[] = {
		"sub.yaml", "---\n- tapOn: Bob\n- assertVisible: ${WHO}\n", NULL,
	};
	amc_planner *p = planner_opts("appId: com.a\nenv:\n  WHO: Bob\n  X: ${WHO}!\n---\n"
				      "- runFlow: {file: sub.yaml, env: {WHO: Contacts}}\n"
				      "- repeat: {times: 2, commands: [{inputText: \"${X}\"}]}\n"
				      "- runFlow: {when: {visible: Nobody}, commands: [back]}\n"
				      "- runFlow: {when: {platform: Android, notVisible: Nobody}, commands: [{pressKey: home}]}\n"
				      "- retry: {maxRetries: 1, commands: [{tapOn: Bob}, {assertVisible: Done}]}\n",
				      FILES, NULL);
	if (!ok(p != NULL, "a flow with blocks"))
		return;
	screen s;
	contacts_list(&s);
	amc_action a;
	amc_err e;
	memset(&a, 0, sizeof a);
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_ACT, "runFlow goes straight to the sub-flow's first command");
	ok(!strcmp(a.tool, "tap") && arg_int(&a, "flow_line") == 2, "tapOn Bob, line 2 of the sub-flow");
	is_str(amc_json_str(a.args, "flow_file"), "dir/sub.yaml", "the step names the sub-flow's file");
	step(p, &s, 0, &a, &e);
	ok(a.decided && a.decided_ok, "assertVisible ${WHO}: the runFlow env: (Contacts) over the flow's (Bob)");
	step(p, &s, 0, &a, &e);
	is_str(amc_json_str(a.args, "text"), "Bob!", "env: values are interpolated ($X is ${WHO}!)");
	step(p, &s, 0, &a, &e);
	is_str(amc_json_str(a.args, "text"), "Bob!", "repeat: the second round");
	step(p, &s, 0, &a, &e);
	like(a.description, "runFlow (1 command) (skipped: its when: condition is false)", "when visible: false");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "press_key") && !strcmp(amc_json_str(a.args, "key"), "home"),
	   "when platform Android and notVisible: runs");
	step(p, &s, 0, &a, &e);
	is_str(a.tool, "tap", "retry: first attempt, tap");
	step(p, &s, 0, &a, &e);
	ok(a.decided && !a.decided_ok, "its assertion fails");
	is_int(after(p, &s, 0, a.decided_error, &a, &e), AMC_PLAN_ACT, "the failure is judged: retry");
	is_str(a.tool, "tap", "second attempt starts again");
	step(p, &s, 0, &a, &e);
	ok(a.decided && !a.decided_ok, "fails again");
	is_int(after(p, &s, 0, a.decided_error, &a, &e), AMC_PLAN_FAIL, "no retries left: the task fails");
	like(e.msg, "step 6: dir/main.yaml:10: assertVisible: no element matches text=\"Done\"",
	     "naming the step, file and line");
	amc_action_clear(&a);
	amc_planner_free(p);
	screen_free(&s);
}

static void test_hooks_and_failures(void)
{
	static const char *const FILES[] = { "bad.yaml", "---\n- back\n- tapOn: Nobody\n", NULL };
	amc_planner *p = planner_opts("appId: com.a\nonFlowStart: [{launchApp: {clearState: true}}]\n"
				      "onFlowComplete: [{pressKey: Home}]\n---\n- runFlow: bad.yaml\n- back\n",
				      FILES, NULL);
	if (!ok(p != NULL, "a flow with hooks"))
		return;
	screen s;
	contacts_list(&s);
	amc_action a;
	amc_err e;
	memset(&a, 0, sizeof a);
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "manage_app") && !strcmp(amc_json_str(a.args, "op"), "clear_state") &&
	   !strcmp(amc_json_str(a.args, "app_id"), "com.a"), "onFlowStart: clearState first");
	step(p, &s, 0, &a, &e);
	is_str(a.tool, "launch_app", "then the launch");
	step(p, &s, 0, &a, &e);
	is_str(amc_json_str(a.args, "key"), "back", "the sub-flow's back");
	is_int(after(p, &s, 0, "device gone", &a, &e), AMC_PLAN_ACT, "a device failure: the hook still runs");
	is_str(amc_json_str(a.args, "key"), "home", "onFlowComplete's pressKey");
	is_int(step(p, &s, 0, &a, &e), AMC_PLAN_FAIL, "then the task fails");
	is_str(e.msg, "step 6: dir/bad.yaml:2: back: device gone", "with the sub-flow's file and line");
	amc_action_clear(&a);
	amc_planner_free(p);

	/* an optional command's failure is a skip; an undefined name is undefined (Maestro's GraalJsEngine) */
	p = planner_opts("appId: com.a\n---\n- back: {optional: true}\n- inputText: ${NOPE}\n", NULL, NULL);
	step(p, &s, 0, &a, &e);
	is_int(after(p, &s, 0, "no", &a, &e), AMC_PLAN_ACT, "an optional failure skipped; then the input");
	is_str(amc_json_str(a.args, "text"), "undefined", "an undefined name types undefined, as in Maestro");
	amc_action_clear(&a);
	amc_planner_free(p);
	screen_free(&s);
}

static void test_state_and_input(void)
{
	amc_flow_run_opts o;
	amc_flow_run_opts_init(&o);
	amc_flow_kv cli[] = { { "WHO", "Grace" } };
	o.env = cli;
	o.nenv = 1;
	o.seed = 42;
	amc_planner *p = planner_opts(
		"appId: com.a\nenv: {WHO: Ada}\n---\n- copyTextFrom: {id: name}\n- pasteText\n- setClipboard: \"${WHO}\"\n"
		"- pasteText\n- eraseText: 3\n- hideKeyboard\n- inputRandomNumber: {length: 5}\n- inputRandomEmail\n"
		"- stopApp\n- killApp: com.b\n- openLink: sim://notes\n- clearKeychain\n- assertTrue: \"${WHO}\"\n"
		"- assertTrue: {condition: \"false\"}\n", NULL, &o);
	if (!ok(p != NULL, "a flow of state and input commands"))
		return;
	screen s;
	contacts_list(&s);
	amc_action a;
	amc_err e;
	memset(&a, 0, sizeof a);
	step(p, &s, 0, &a, &e);
	ok(a.decided && a.decided_ok && !strcmp(amc_json_str(a.decided_result, "text"), "Bob"), "copyTextFrom keeps Bob");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "type_text") && !strcmp(amc_json_str(a.args, "text"), "Bob"), "pasteText types it");
	step(p, &s, 0, &a, &e);
	step(p, &s, 0, &a, &e);
	is_str(amc_json_str(a.args, "text"), "Grace", "setClipboard with -e over env:, pasted");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(amc_json_str(a.args, "key"), "delete") && arg_int(&a, "times") == 3, "eraseText: delete x3");
	step(p, &s, 0, &a, &e);
	is_str(amc_json_str(a.args, "key"), "hide_keyboard", "hideKeyboard");
	step(p, &s, 0, &a, &e);
	const char *num = amc_json_str(a.args, "text");
	ok(num && strlen(num) == 5 && strspn(num, "0123456789") == 5 && num[0] != '0', "a random number of 5 digits");
	char first[16];
	snprintf(first, sizeof first, "%s", num ? num : "");
	step(p, &s, 0, &a, &e);
	like(amc_json_str(a.args, "text"), "@example.com", "a random email");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(a.tool, "manage_app") && !strcmp(amc_json_str(a.args, "op"), "stop") &&
	   !strcmp(amc_json_str(a.args, "app_id"), "com.a"), "stopApp: the flow's app");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(amc_json_str(a.args, "op"), "kill") && !strcmp(amc_json_str(a.args, "app_id"), "com.b"), "killApp");
	step(p, &s, 0, &a, &e);
	ok(!strcmp(amc_json_str(a.args, "op"), "open_link") && !strcmp(amc_json_str(a.args, "link"), "sim://notes"),
	   "openLink");
	step(p, &s, 0, &a, &e);
	ok(a.decided && a.decided_ok, "clearKeychain: nothing to do on Android");
	step(p, &s, 0, &a, &e);
	ok(a.decided && a.decided_ok, "assertTrue of a truthy text");
	step(p, &s, 0, &a, &e);
	ok(a.decided && !a.decided_ok, "assertTrue false fails");
	like(a.decided_error, "dir/main.yaml:17: assertTrue: false is false", "naming the line");
	amc_action_clear(&a);
	amc_planner_free(p);

	/* the same seed gives the same values: a run can be replayed */
	p = planner_opts("appId: com.a\n---\n- inputRandomNumber: {length: 5}\n", NULL, &o);
	step(p, &s, 0, &a, &e);
	is_str(amc_json_str(a.args, "text"), first, "seeded: the same number again");
	amc_action_clear(&a);
	amc_planner_free(p);

	/* inputText "" (memverse_project): Maestro's InputTextCommand("") types
	 * nothing; amc decides the step without typing. inputRandomCityName:
	 * Maestro 2.x's, a city name typed. */
	p = planner_opts("appId: com.a\n---\n- inputText: \"\"\n- inputRandomCityName\n- inputRandomColorName\n",
			 NULL, &o);
	step(p, &s, 0, &a, &e);
	ok(a.decided && a.decided_ok && !strcmp(a.tool, "type_text"), "inputText \"\": decided, nothing typed");
	step(p, &s, 0, &a, &e);
	const char *city = amc_json_str(a.args, "text");
	ok(!a.decided && !strcmp(a.tool, "type_text") && city && strstr("Lisbon Nairobi Osaka Lima Oslo Austin Lyon Pune",
	   city), "inputRandomCityName types a city (%s)", city ? city : "none");
	step(p, &s, 0, &a, &e);
	const char *color = amc_json_str(a.args, "text");
	ok(color && strstr("red green blue yellow purple orange teal black", color), "inputRandomColorName types a colour");
	amc_action_clear(&a);
	amc_planner_free(p);
	screen_free(&s);
}

int main(void)
{
	test_blocks();
	test_hooks_and_failures();
	test_state_and_input();
	test_tap_and_wait();
	test_tap_repeat_delay();
	test_asserts();
	test_other_commands();
	test_scroll_until_visible();
	test_previous_failure();
	test_bundled_on_screens();
	return done_testing();
}
