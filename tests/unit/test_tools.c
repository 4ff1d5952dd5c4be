/* test_tools.c - the tool registry: names, schemas, argument validation, effects on the sim. */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "device/device.h"
#include "device/sim/sim.h"
#include "runtime/observe.h"
#include "runtime/tools.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"
#include "util/jsonutil.h"

/* A device that records what it is asked to type and press (type-and-submit,
 * the double tap as one gesture). */
static char typed[64], pressed[64];
static int taps, double_taps;
static int fake_type(amc_device *d, const char *t, amc_err *e)
{
	(void)d, (void)e;
	snprintf(typed + strlen(typed), sizeof typed - strlen(typed), "%s", t);
	return 0;
}
static int fake_key(amc_device *d, amc_key k, amc_err *e)
{
	(void)d, (void)e;
	snprintf(pressed + strlen(pressed), sizeof pressed - strlen(pressed), "%s;", k == AMC_KEY_ENTER ? "enter" : "other");
	return 0;
}
static int fake_tap(amc_device *d, int x, int y, amc_err *e)
{
	(void)d, (void)x, (void)y, (void)e;
	taps++;
	return 0;
}
static int fake_double_tap(amc_device *d, int x, int y, amc_err *e)
{
	(void)d, (void)x, (void)y, (void)e;
	double_taps++;
	return 0;
}

static void test_submit_and_double_tap(void)
{
	amc_device_ops ops;
	memset(&ops, 0, sizeof ops);
	ops.type_text = fake_type;
	ops.key = fake_key;
	ops.tap = fake_tap;
	ops.double_tap = fake_double_tap;
	amc_device d;
	memset(&d, 0, sizeof d);
	d.ops = &ops;
	amc_tool_ctx c = { .dev = &d };
	amc_err e = { 0 };
	cJSON *res = NULL, *args = cJSON_Parse("{\"text\":\"weather\",\"submit\":true}");
	ok(amc_tools_find("type_text")->run(&c, args, &res, &e) == 0, "type_text with submit");
	is_str(typed, "weather", "types the text");
	is_str(pressed, "enter;", "then presses Enter once");
	ok(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "submitted")), "and says it submitted");
	cJSON_Delete(res);
	cJSON_Delete(args);
	res = NULL;
	args = cJSON_Parse("{\"text\":\"x\"}");
	pressed[0] = 0;
	ok(amc_tools_find("type_text")->run(&c, args, &res, &e) == 0 && pressed[0] == 0, "without submit: no Enter");
	cJSON_Delete(res);
	cJSON_Delete(args);
	args = cJSON_Parse("{\"text\":\"x\",\"submit\":\"yes\"}");
	ok(amc_tools_find("type_text")->run(&c, args, &res, &e) == -1 && e.code == AMC_EUSAGE, "submit must be a boolean");
	cJSON_Delete(args);
	res = NULL;
	args = cJSON_Parse("{\"x\":10,\"y\":20,\"count\":2}");
	ok(amc_tools_find("tap")->run(&c, args, &res, &e) == 0 && double_taps == 1 && taps == 0,
	   "tap count 2: one double-tap gesture where the driver has one");
	cJSON_Delete(res);
	cJSON_Delete(args);
	cJSON *schema = amc_tools_schema(amc_tools_find("tap"));
	const cJSON *cnt = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(schema, "properties"), "count");
	ok(cnt && cJSON_GetObjectItemCaseSensitive(cnt, "maximum")->valueint == 2, "tap's schema offers count (1 or 2)");
	cJSON_Delete(schema);
	schema = amc_tools_schema(amc_tools_find("type_text"));
	ok(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(schema, "properties"), "submit") != NULL,
	   "type_text's schema offers submit");
	cJSON_Delete(schema);
}

/* Over 120 lines: one pass over the sim, each tool run against the state the
 * previous one left (a form filled, a key pressed, an app stopped), so the
 * order is the test. */
/* list_apps, install_app, stop_app, clear_app and the volume keys on the sim. */
static void test_apps(amc_device *d, amc_tool_ctx *c, const char *home)
{
	amc_err e = { 0 };
	cJSON *res = NULL, *args = cJSON_Parse("{}");
	const amc_tool *la = amc_tools_find("list_apps"), *ca = amc_tools_find("clear_app");
	ok(amc_tools_is_action(la) && !la->acts && la->reads, "list_apps: an action that reads, not settled");
	ok(ca->confirm && !amc_tools_find("stop_app")->confirm && !amc_tools_find("install_app")->confirm &&
	   !amc_tools_find("tap")->confirm, "only clear_app always asks a person");
	ok(amc_tools_is_action(ca) && amc_tools_is_action(amc_tools_find("stop_app")) &&
	   amc_tools_is_action(amc_tools_find("install_app")), "clear_app, stop_app and install_app are actions");
	ok(la->run(c, args, &res, &e) == 0, "list_apps on the sim: %s", e.msg);
	char *txt = cJSON_PrintUnformatted(res);
	like(txt, "\"com.android.contacts\"", "lists Contacts");
	like(txt, "\"com.android.settings\"", "and Settings");
	free(txt);
	cJSON_Delete(res);
	cJSON_Delete(args);
	res = NULL;
	args = cJSON_Parse("{\"app_id\":\"com.android.contacts\"}");
	ok(amc_tools_find("launch_app")->run(c, args, &res, &e) == 0, "Contacts opened");
	cJSON_Delete(res);
	res = NULL;
	ok(amc_tools_find("stop_app")->run(c, args, &res, &e) == 0, "stop_app");
	is_str(amc_json_str(res, "stopped"), "com.android.contacts", "says which app it stopped");
	cJSON_Delete(res);
	res = NULL;
	char *st = NULL;
	amc_sim_state_json(d, &st, &e);
	like(st, "\"app\":\"com.android.launcher3\"", "back on the launcher");
	free(st);
	ok(ca->run(c, args, &res, &e) == 0, "clear_app runs the driver's clear (the gate is the runner's)");
	is_str(amc_json_str(res, "cleared"), "com.android.contacts", "says which app it cleared");
	cJSON_Delete(res);
	cJSON_Delete(args);
	res = NULL;
	args = cJSON_Parse("{\"app_id\":\"com.nope\"}");
	ok(amc_tools_find("stop_app")->run(c, args, &res, &e) == -1 && e.code == AMC_EUSAGE, "an app the sim lacks");
	cJSON_Delete(args);
	/* install_app: the path is checked before any driver sees it */
	char dir[4200], apk[4300], txtf[4300];
	snprintf(dir, sizeof dir, "%s", home);
	snprintf(apk, sizeof apk, "%s/app.apk", home);
	snprintf(txtf, sizeof txtf, "%s/notes.txt", home);
	FILE *f = fopen(apk, "w");
	fputs("PK", f);
	fclose(f);
	f = fopen(txtf, "w");
	fputs("x", f);
	fclose(f);
	static const struct { const char *path, *why, *label; } bad[] = {
		{ "/nonexistent/x.apk", "no such file", "a missing file" },
		{ NULL, "not a regular file", "a folder" },
		{ "", "no such file", "an empty path" },
		{ "a\x1b[2Jb.apk", "control character", "an escape in the path" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cJSON *a = cJSON_CreateObject();
		cJSON_AddStringToObject(a, "path", bad[i].path ? bad[i].path : dir);
		res = NULL;
		ok(amc_tools_find("install_app")->run(c, a, &res, &e) == -1 && e.code == AMC_EUSAGE, "install_app: %s refused",
		   bad[i].label);
		like(e.msg, bad[i].why, "  saying so");
		cJSON_Delete(a);
	}
	args = cJSON_CreateObject();
	cJSON_AddStringToObject(args, "path", txtf);
	ok(amc_tools_find("install_app")->run(c, args, &res, &e) == -1, "install_app: a .txt is refused");
	like(e.msg, ".apk", "  naming the kinds it takes");
	cJSON_Delete(args);
	args = cJSON_CreateObject();
	cJSON_AddStringToObject(args, "path", apk);
	ok(amc_tools_find("install_app")->run(c, args, &res, &e) == -1 && e.code == AMC_EUSAGE,
	   "install_app of an .apk on the sim: refused by the driver");
	like(e.msg, "cannot install packages", "  the sim's apps are built in");
	cJSON_Delete(args);
	/* the volume keys: the sim keeps a level a check can read */
	args = cJSON_Parse("{\"key\":\"volume_up\",\"times\":2}");
	res = NULL;
	ok(amc_tools_find("press_key")->run(c, args, &res, &e) == 0, "volume_up twice on the sim: %s", e.msg);
	cJSON_Delete(res);
	cJSON_Delete(args);
	amc_sim_state_json(d, &st, &e);
	like(st, "\"volume\":10", "the volume went from 8 to 10");
	free(st);
	args = cJSON_Parse("{\"key\":\"volume_down\"}");
	res = NULL;
	ok(amc_tools_find("press_key")->run(c, args, &res, &e) == 0, "volume_down");
	cJSON_Delete(res);
	cJSON_Delete(args);
	amc_sim_state_json(d, &st, &e);
	like(st, "\"volume\":9", "and down to 9");
	free(st);
	amc_key k;
	ok(amc_key_parse("app_switch", &k) == 0 && amc_key_android_code(k) == 187, "app_switch is Android's KEYCODE_APP_SWITCH");
	args = cJSON_Parse("{\"key\":\"app_switch\"}");
	ok(amc_tools_find("press_key")->run(c, args, &res, &e) == -1 && e.code == AMC_EUSAGE, "the sim has no app switch");
	like(e.msg, "volume_up", "  and names the keys it has");
	cJSON_Delete(args);
}

/* Over 120 lines: one case per registry tool on one fake device, in the
 * registry's order, so a new row's missing test stands out. */
int main(void)
{
	const char *home = test_home("tools");
	size_t n;
	const amc_tool *all = amc_tools_all(&n);
	is_int(n, 22, "twenty-two tools");
	static const char *names[] = { "describe_screen", "describe_screen_semantic", "get_ui_tree", "screenshot", "tap",
				       "long_press", "swipe", "type_text", "press_key", "launch_app", "wait",
				       "manage_app", "set_device", "open_link", "rotate", "get_device", "record",
				       "assert_screenshot", "list_apps", "install_app", "stop_app", "clear_app" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		ok(amc_tools_find(names[i]) != NULL, "tool %s registered", names[i]);
	ok(amc_tools_find("teleport") == NULL, "unknown tool not found");
	for (size_t i = 0; i < n; i++) {
		cJSON *s = cJSON_Parse(all[i].args_schema);
		ok(s && cJSON_IsFalse(cJSON_GetObjectItem(s, "additionalProperties")), "%s schema is strict JSON", all[i].name);
		cJSON_Delete(s);
	}

	amc_err e;
	amc_config *cfg = amc_config_new();
	amc_device *d;
	if (amc_device_open("sim", home, cfg, &d, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	amc_observation obs;
	amc_observe_opts oo = { 0, AMC_OCR_OFF };
	ok(amc_observe(d, &oo, &obs, &e) == 0, "observe");
	amc_tool_ctx c = { .dev = d, .obs = &obs };
	cJSON *res = NULL;
	cJSON *args = cJSON_Parse("{\"x\":\"left\",\"y\":3}");
	ok(amc_tools_find("tap")->run(&c, args, &res, &e) == -1 && e.code == AMC_EUSAGE, "tap with a string x is refused");
	like(e.msg, "'x' must be a whole number", "message names the argument");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"y\":3}");
	ok(amc_tools_find("tap")->run(&c, args, &res, &e) == -1, "tap without x is refused");
	like(e.msg, "missing argument 'x'", "missing argument named");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"key\":\"sideways\"}");
	ok(amc_tools_find("press_key")->run(&c, args, &res, &e) == -1, "unknown key refused");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"app_id\":\"com.android.contacts\"}");
	ok(amc_tools_find("launch_app")->run(&c, args, &res, &e) == 0, "launch_app works");
	cJSON_Delete(res);
	res = NULL;
	cJSON_Delete(args);
	args = cJSON_Parse("{}");
	ok(amc_tools_find("describe_screen")->run(&c, args, &res, &e) == 0 &&
	   cJSON_GetObjectItem(res, "elements") != NULL, "describe_screen returns the scene");
	cJSON_Delete(res);
	res = NULL;
	ok(amc_tools_find("get_ui_tree")->run(&c, args, &res, &e) == 0 &&
	   cJSON_GetObjectItem(res, "nodes") != NULL, "get_ui_tree returns nodes");
	cJSON_Delete(res);
	res = NULL;
	ok(amc_tools_find("screenshot")->run(&c, args, &res, &e) == 0 &&
	   cJSON_GetObjectItem(res, "width")->valueint == obs.width, "screenshot result has the size");
	cJSON_Delete(res);
	cJSON_Delete(args);
	ok(amc_tools_find("manage_app")->flows_only && !amc_tools_find("tap")->flows_only,
	   "manage_app is for flows, not offered to model planners");

	/* the delete key, several times; the sim's name field */
	char *st = NULL;
	args = cJSON_Parse("{\"key\":\"delete\",\"times\":3}");
	d->ops->launch_app(d, "com.android.contacts", &e);
	d->ops->tap(d, 980, 2180, &e); /* the Add contact button */
	ok(d->ops->type_text(d, "Adaxyz", &e) == 0, "typed into the name field");
	res = NULL;
	ok(amc_tools_find("press_key")->run(&c, args, &res, &e) == 0, "press_key delete times 3");
	cJSON_Delete(res);
	cJSON_Delete(args);
	amc_sim_state_json(d, &st, &e);
	like(st, "\"name\":\"Ada\"", "three characters erased");
	free(st);
	args = cJSON_Parse("{\"key\":\"delete\",\"times\":0}");
	ok(amc_tools_find("press_key")->run(&c, args, &res, &e) == -1, "times 0 refused");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"key\":\"dpad_up\"}");
	ok(amc_tools_find("press_key")->run(&c, args, &res, &e) == -1 && e.code == AMC_EUSAGE, "the sim has no D-pad");
	like(e.msg, "the sim has no dpad_up key", "said so");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"key\":\"back\"}");
	res = NULL;
	amc_tools_find("press_key")->run(&c, args, &res, &e); /* keyboard */
	cJSON_Delete(res);
	res = NULL;
	amc_tools_find("press_key")->run(&c, args, &res, &e); /* leave the form */
	cJSON_Delete(res);
	cJSON_Delete(args);
	/* manage_app on the sim: clear_state, stop, open_link */
	args = cJSON_Parse("{\"op\":\"open_link\",\"link\":\"sim://notes\"}");
	res = NULL;
	ok(amc_tools_find("manage_app")->run(&c, args, &res, &e) == 0, "open_link sim://notes");
	cJSON_Delete(res);
	cJSON_Delete(args);
	amc_sim_state_json(d, &st, &e);
	like(st, "\"app\":\"com.amc.notes\"", "the Notes app is in front");
	free(st);
	args = cJSON_Parse("{\"op\":\"stop\",\"app_id\":\"com.amc.notes\"}");
	res = NULL;
	ok(amc_tools_find("manage_app")->run(&c, args, &res, &e) == 0, "stop");
	cJSON_Delete(res);
	cJSON_Delete(args);
	amc_sim_state_json(d, &st, &e);
	like(st, "\"app\":\"com.android.launcher3\"", "back on the launcher");
	free(st);
	args = cJSON_Parse("{\"op\":\"open_link\",\"link\":\"https://example.com\"}");
	ok(amc_tools_find("manage_app")->run(&c, args, &res, &e) == -1, "the sim opens sim:// links only");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"op\":\"clear_state\"}");
	ok(amc_tools_find("manage_app")->run(&c, args, &res, &e) == -1, "clear_state needs app_id");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"op\":\"clear_state\",\"app_id\":\"com.android.contacts\"}");
	res = NULL;
	ok(amc_tools_find("manage_app")->run(&c, args, &res, &e) == 0, "clear_state of Contacts");
	cJSON_Delete(res);
	cJSON_Delete(args);
	amc_sim_state_json(d, &st, &e);
	like(st, "Grace Hopper", "factory contacts back");
	free(st);
	/* set_device (flows only): the sim turns, and says why it refuses */
	ok(amc_tools_find("set_device")->flows_only, "set_device is for flows");
	args = cJSON_Parse("{\"setting\":\"orientation\",\"value\":\"LANDSCAPE_RIGHT\"}");
	res = NULL;
	ok(amc_tools_find("set_device")->run(&c, args, &res, &e) == 0, "set_device orientation");
	cJSON_Delete(res);
	cJSON_Delete(args);
	amc_device_info info;
	ok(d->ops->info(d, &info, &e) == 0 && info.width > info.height, "the sim is wider than tall now (%dx%d)",
	   info.width, info.height);
	args = cJSON_Parse("{\"setting\":\"location\",\"value\":\"100,0\"}");
	ok(amc_tools_find("set_device")->run(&c, args, &res, &e) == -1, "a latitude over 90 is refused");
	like(e.msg, "LATITUDE,LONGITUDE", "saying the form");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"setting\":\"gps\",\"value\":\"1\"}");
	ok(amc_tools_find("set_device")->run(&c, args, &res, &e) == -1, "an unknown setting");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"setting\":\"orientation\",\"value\":\"portrait\"}");
	res = NULL;
	ok(amc_tools_find("set_device")->run(&c, args, &res, &e) == 0, "back to portrait");
	cJSON_Delete(res);
	cJSON_Delete(args);
	/* what models and MCP clients get of manage_app and set_device */
	ok(amc_tools_is_action(amc_tools_find("open_link")) && amc_tools_is_action(amc_tools_find("rotate")),
	   "open_link and rotate are offered to planners and MCP clients");
	args = cJSON_Parse("{\"orientation\":\"landscape_left\"}");
	res = NULL;
	ok(amc_tools_find("rotate")->run(&c, args, &res, &e) == 0, "rotate: %s", e.msg);
	cJSON_Delete(res);
	cJSON_Delete(args);
	ok(d->ops->info(d, &info, &e) == 0 && info.width > info.height, "the sim turned");
	args = cJSON_Parse("{\"orientation\":\"portrait\"}");
	res = NULL;
	amc_tools_find("rotate")->run(&c, args, &res, &e);
	cJSON_Delete(res);
	cJSON_Delete(args);
	args = cJSON_Parse("{\"link\":\"sim://notes\"}");
	res = NULL;
	ok(amc_tools_find("open_link")->run(&c, args, &res, &e) == 0, "open_link sim://notes: %s", e.msg);
	cJSON_Delete(res);
	cJSON_Delete(args);
	amc_sim_state_json(d, &st, &e);
	like(st, "\"app\":\"com.amc.notes\"", "the link opened Notes");
	free(st);
	args = cJSON_Parse("{\"link\":\"https://example.com\"}");
	ok(amc_tools_find("open_link")->run(&c, args, &res, &e) == -1, "a link the sim cannot open is refused");
	cJSON_Delete(args);
	test_apps(d, &c, home);
	amc_observation_free(&obs);
	amc_device_close(d);
	amc_config_free(cfg);
	test_submit_and_double_tap();
	return done_testing();
}
