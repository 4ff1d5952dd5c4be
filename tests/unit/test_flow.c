/* test_flow.c - the flow parser: command forms, lines, bundled flows, errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow.h"
#include "tap.h"
#include "testutil.h"

static int parse(const char *yaml, amc_flow *f, amc_err *e)
{
	amc_err_clear(e);
	return amc_flow_parse(yaml, strlen(yaml), "t.yaml", f, e);
}

/* Parse text that must fail; check the code and that the message contains `needle`. */
static void fails(const char *yaml, const char *needle, const char *name)
{
	amc_flow f;
	amc_err e;
	int rc = parse(yaml, &f, &e);
	ok(rc == -1 && e.code == AMC_EUSAGE, "%s: refused as bad input", name);
	like(e.msg, needle, "%s: message", name);
	ok(f.cmds == NULL && f.count == 0, "%s: nothing left allocated", name);
}

static void test_all_commands(void)
{
	amc_flow f;
	amc_err e;
	int rc = amc_flow_load(test_src("tests/data/flows/all-commands.yaml"), &f, &e);
	ok(rc == 0, "all-commands.yaml parses");
	if (rc != 0) {
		diag("%s", e.msg);
		return;
	}
	is_str(f.name, "All commands", "name from the config");
	is_str(f.app_id, "com.example.app", "appId from the config");
	is_int(f.count, 23, "23 commands");
	const amc_flow_cmd *c = f.cmds;

	is_int(c[0].op, AMC_FLOW_LAUNCH_APP, "launchApp");
	is_int(c[0].line, 7, "launchApp line");
	ok(c[0].text == NULL && c[0].stop_app == 1, "bare launchApp uses the flow's appId");
	is_str(c[1].text, "com.other.app", "launchApp: ID");
	is_str(c[2].text, "com.third.app", "launchApp {appId}");
	ok(c[2].clear_state == 0 && c[2].stop_app == 1, "launchApp clearState/stopApp");
	is_int(c[2].line, 9, "launchApp mapping line");

	is_int(c[3].op, AMC_FLOW_TAP_ON, "tapOn text");
	is_str(c[3].sel.text, "Save", "tapOn text value");
	ok(c[3].sel.id == NULL && c[3].sel.index == 0, "tapOn text: no id, index 0");
	is_int(c[3].line, 13, "tapOn line");
	is_str(c[4].sel.id, "com.example:id/save", "tapOn id");
	is_int(c[4].sel.index, 2, "tapOn index");
	is_int(c[4].line, 14, "tapOn mapping line");
	ok(c[5].sel.has_point && c[5].sel.point_is_percent && c[5].sel.point_x == 50 &&
	   c[5].sel.point_y == 90, "tapOn point percent");
	ok(c[6].sel.optional == 1 && !strcmp(c[6].sel.text, "Maybe"), "tapOn optional");
	is_int(c[7].op, AMC_FLOW_LONG_PRESS_ON, "longPressOn");
	is_str(c[7].sel.text, "Item 1", "longPressOn text");
	is_int(c[8].op, AMC_FLOW_INPUT_TEXT, "inputText");
	is_str(c[8].text, "Ada Lovelace", "inputText text");
	is_str(c[9].text, "5550100", "inputText accepts a plain number as text");
	is_int(c[10].op, AMC_FLOW_PRESS_KEY, "pressKey");
	is_str(c[10].text, "enter", "pressKey Enter normalized");
	is_str(c[11].text, "home", "pressKey home");
	is_int(c[12].op, AMC_FLOW_BACK, "back");
	is_int(c[12].line, 27, "back line");
	is_int(c[13].op, AMC_FLOW_SCROLL, "scroll");
	is_int(c[14].op, AMC_FLOW_SWIPE, "swipe direction");
	is_str(c[14].direction, "UP", "swipe direction normalized");
	ok(c[15].direction == NULL && c[15].sx == 10 && c[15].sy == 20 && c[15].ex == 30 &&
	   c[15].ey == 40 && !c[15].percent && c[15].number == 250, "swipe start/end/duration");
	is_int(c[16].op, AMC_FLOW_SCROLL_UNTIL_VISIBLE, "scrollUntilVisible");
	is_str(c[16].sel.text, "About phone", "scrollUntilVisible element");
	is_str(c[16].direction, "DOWN", "scrollUntilVisible direction");
	is_int(c[16].number, 20000, "scrollUntilVisible default timeout");
	is_int(c[17].op, AMC_FLOW_ASSERT_VISIBLE, "assertVisible");
	is_str(c[17].sel.text, "Done", "assertVisible text");
	is_str(c[18].sel.id, "title", "assertVisible id");
	is_int(c[18].sel.index, 1, "assertVisible index");
	is_int(c[19].op, AMC_FLOW_ASSERT_NOT_VISIBLE, "assertNotVisible");
	is_int(c[20].op, AMC_FLOW_WAIT_FOR_ANIMATION, "waitForAnimationToEnd");
	is_int(c[21].number, 2000, "waitForAnimationToEnd timeout");
	is_int(c[22].op, AMC_FLOW_TAKE_SCREENSHOT, "takeScreenshot");
	is_str(c[22].text, "after-save", "takeScreenshot name");
	is_int(c[22].line, 47, "last line");

	char *d = amc_flow_cmd_describe(&c[3]);
	is_str(d, "tapOn \"Save\"", "describe tapOn");
	free(d);
	d = amc_flow_cmd_describe(&c[4]);
	is_str(d, "tapOn id=\"com.example:id/save\" index=2", "describe tapOn id");
	free(d);
	d = amc_flow_cmd_describe(&c[10]);
	is_str(d, "pressKey enter", "describe pressKey");
	free(d);
	d = amc_flow_cmd_describe(&c[15]);
	is_str(d, "swipe 10,20 -> 30,40", "describe swipe");
	free(d);
	is_str(amc_flow_op_name(AMC_FLOW_SCROLL_UNTIL_VISIBLE), "scrollUntilVisible", "op name");
	amc_flow_free(&f);
	ok(f.cmds == NULL && f.name == NULL, "free zeroes");
}

static void test_forms(void)
{
	amc_flow f;
	amc_err e;
	ok(amc_flow_load(test_src("tests/data/flows/commands-only.yaml"), &f, &e) == 0,
	   "a single document of commands is accepted");
	is_str(f.name, "commands-only", "default name is the file name without extension");
	ok(f.app_id == NULL && f.count == 2, "no config, two commands");
	is_int(f.cmds[1].line, 3, "line counts the comment");
	amc_flow_free(&f);

	ok(parse("- launchApp: a.b\n- back:\n- scroll: {label: down}\n", &f, &e) == 0,
	   "`back:` with a null value and a label-only mapping are accepted");
	amc_flow_free(&f);

	ok(parse("appId: x\n---\n- tapOn: {text: \"5\"}\n- tapOn: \"42\"\n", &f, &e) == 0,
	   "quoted numbers are text");
	is_str(f.cmds[1].sel.text, "42", "quoted number text");
	amc_flow_free(&f);

	ok(parse("- tapOn: {point: \"100, 200\"}\n", &f, &e) == 0 && f.cmds[0].sel.has_point &&
	   !f.cmds[0].sel.point_is_percent && f.cmds[0].sel.point_x == 100 && f.cmds[0].sel.point_y == 200,
	   "tapOn point in pixels");
	amc_flow_free(&f);

	ok(parse("appId: a\n---\n- scrollUntilVisible:\n    element: \"Storage\"\n    direction: up\n"
		 "    timeout: 5000\n", &f, &e) == 0, "scrollUntilVisible with a text element");
	ok(f.count == 1 && !strcmp(f.cmds[0].sel.text, "Storage") && !strcmp(f.cmds[0].direction, "UP") &&
	   f.cmds[0].number == 5000, "scrollUntilVisible fields");
	amc_flow_free(&f);

	ok(parse("- takeScreenshot\n- takeScreenshot: {path: shot}\n", &f, &e) == 0 &&
	   f.cmds[0].text == NULL && !strcmp(f.cmds[1].text, "shot"), "takeScreenshot forms");
	amc_flow_free(&f);
}

static void test_bundled(void)
{
	static const char *const FLOWS[] = { "data/flows/add-contact.yaml", "data/flows/wifi-off-on.yaml",
					     "data/flows/create-note.yaml" };
	static const char *const APPS[] = { "com.android.contacts", "com.android.settings", "com.amc.notes" };
	for (int i = 0; i < 3; i++) {
		amc_flow f;
		amc_err e;
		int rc = amc_flow_load(test_src(FLOWS[i]), &f, &e);
		ok(rc == 0, "%s parses", FLOWS[i]);
		if (rc != 0) {
			diag("%s", e.msg);
			continue;
		}
		ok(f.count >= 5, "%s has commands", FLOWS[i]);
		is_str(f.app_id, APPS[i], "%s appId", FLOWS[i]);
		ok(f.name && strcmp(f.name, "add-contact") != 0 && *f.name, "%s has a name", FLOWS[i]);
		is_int(f.cmds[0].op, AMC_FLOW_LAUNCH_APP, "%s starts with launchApp", FLOWS[i]);
		amc_flow_free(&f);
	}
}

static void test_errors(void)
{
	amc_flow f;
	amc_err e;

	ok(amc_flow_load("/nonexistent/flow.yaml", &f, &e) == -1 && e.code == AMC_EUSAGE,
	   "missing file: usage error");
	like(e.msg, "not found", "missing file message");
	like(e.msg, "/nonexistent/flow.yaml", "missing file message names the path");

	ok(amc_flow_load(test_src("tests/data/flows/empty.yaml"), &f, &e) == -1 && e.code == AMC_EUSAGE,
	   "comment-only file refused");
	like(e.msg, "empty", "empty file message");
	fails("", "empty", "zero bytes");

	ok(amc_flow_load(test_src("tests/data/flows/malformed.yaml"), &f, &e) == -1 && e.code == AMC_EUSAGE,
	   "malformed YAML refused");
	like(e.msg, "malformed.yaml:", "malformed: names the file");
	like(e.msg, "malformed YAML", "malformed: says so");
	like(e.msg, "malformed.yaml:6:1: malformed YAML: found unexpected end of stream",
	     "malformed: line:column of libyaml's problem");
	like(e.msg, "scanning a quoted scalar started at line 4", "malformed: where the scalar started");

	ok(amc_flow_load(test_src("tests/data/flows/unknown-command.yaml"), &f, &e) == -1 &&
	   e.code == AMC_EUSAGE, "unknown command refused");
	like(e.msg, "unknown-command.yaml:5: unknown command 'frobnicate'", "unknown: file, line and name");
	like(e.msg, "docs/flows.md lists the commands", "unknown: says where the commands are listed");

	ok(amc_flow_load(test_src("tests/data/flows/alias.yaml"), &f, &e) == -1, "alias refused");
	like(e.msg, "alias.yaml:5: anchors and aliases are not supported", "alias message with line");

	char *big = malloc(AMC_FLOW_MAX_BYTES + 2);
	memset(big, '#', AMC_FLOW_MAX_BYTES + 1);
	big[AMC_FLOW_MAX_BYTES + 1] = '\0';
	ok(amc_flow_parse(big, AMC_FLOW_MAX_BYTES + 1, "big.yaml", &f, &e) == -1 && e.code == AMC_EUSAGE,
	   "oversize refused");
	is_str(e.msg, "big.yaml: the flow is 1048577 bytes, over the limit of 1048576 bytes", "oversize message");
	free(big);

	fails("- launchApp\n", "t.yaml:1: launchApp needs an app id", "launchApp without any appId");
	fails("- stopApp\n", "t.yaml:1: stopApp needs an app id", "stopApp without any appId");
	/* FlourishHealth/terreno and pass-culture's web flows: YamlConfig reads url
	 * as the appId (@JsonAlias("url")), which only Maestro's desktop web driver
	 * opens; on a phone there is no such app, and amc says so. */
	fails("url: http://localhost:8082/login\n---\n- launchApp\n- tapOn: {id: email}\n",
	      "t.yaml:3: launchApp: this is a Maestro web flow (url: in the config, which Maestro reads as the appId",
	      "a web flow's launchApp");
	fails("url: http://localhost:8082/login\n---\n- launchApp\n", "amc drives Android and iOS devices and the sim",
	      "  saying what amc drives");
	fails("appId: a\n---\n- repeat: {times: 2, commands: [{clearState: [1]}]}\n",
	      "t.yaml:3: clearState takes nothing, an app id or {appId: ...}, got a list", "error inside a block");
	fails("appId: a\n", "followed by `---`", "config without commands");
	fails("appId: a\n---\n[]\n", "no commands", "empty command list");
	fails("appId: a\nenv: [X]\n---\n- back\n", "t.yaml:2: env must be a mapping of NAME: value", "env a list");
	/* YamlConfig's @JsonAnySetter: any other config key is kept in ext, unused
	 * (Rocket.Chat.ReactNative writes onFlowEnd); accepted, and the notes say so. */
	ok(parse("appId: a\nwhatever: 1\nonFlowEnd: [back]\n---\n- back\n", &f, &e) == 0, "an unknown config key is accepted");
	like(f.notes, "whatever ignored (not a Maestro key: Maestro keeps it in ext", "  and noted");
	like(f.notes, "onFlowEnd ignored (not a Maestro hook, kept in ext and never run; did you mean onFlowComplete?)",
	     "  onFlowEnd: the hook it is not");
	amc_flow_free(&f);
	fails("appId: a\ntags: {a: b}\n---\n- back\n", "t.yaml:2: tags must be a list of words", "tags mapping");
	fails("appId: 5\n---\n- back\n", "t.yaml:1: appId must be a text, got a number", "appId a number");
	fails("[1]\n---\n- back\n", "t.yaml:1: the first document must be a mapping", "config a list");
	fails("appId: a\n---\n5\n", "t.yaml:3: expected a list of commands (`- launchApp`), got a number",
	      "commands a number");
	fails("- tapOn: {text: a, text: b}\n", "'text' is given twice", "duplicate key");
	fails("- tapOn: \"a\\0b\"\n", "NUL", "NUL in a text");

	/* Hostile bytes in a command name come back sanitized. */
	fails("- \"\\e[31mred\\e[0m\": x\n", "unknown command '", "escape sequence in a name");
	parse("- \"\\e[31mred\\e[0m\": x\n", &f, &e);
	ok(strchr(e.msg, 0x1b) == NULL, "no ESC in the message");
	parse("- \"\\u009b31mred\": x\n", &f, &e);
	ok(strstr(e.msg, "\xc2\x9b") == NULL, "no C1 CSI in the message");
	parse("- tapOn: {\"\\e]0;title\\a\": x}\n", &f, &e);
	ok(strchr(e.msg, 0x1b) == NULL && strchr(e.msg, 0x07) == NULL, "option names sanitized too");
	amc_flow_parse("- back\n", 7, "evil\x1b[2Jname.yaml", &f, &e);
	ok(f.count == 1 && strchr(f.path, 0x1b) != NULL, "path kept as given");
	amc_flow_free(&f);
	amc_flow_parse("- bogus\n", 8, "evil\x1b[2J.yaml", &f, &e);
	ok(strchr(e.msg, 0x1b) == NULL, "path sanitized in messages");
}

int main(void)
{
	test_all_commands();
	test_forms();
	test_bundled();
	test_errors();
	return done_testing();
}
