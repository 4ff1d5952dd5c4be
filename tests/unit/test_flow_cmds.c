/* test_flow_cmds.c - the Maestro command table: its rows, each command's
 * value forms and messages, and descriptions. */
#include <stdlib.h>
#include <string.h>

#include "flow/flow_cmds.h"
#include "tap.h"

#define SUPPORTED "launchApp, tapOn, longPressOn, inputText, pressKey, back, scroll, swipe, " \
	"scrollUntilVisible, assertVisible, assertNotVisible, waitForAnimationToEnd, takeScreenshot, " \
	"eraseText, runFlow, repeat, retry, extendedWaitUntil, stopApp, killApp, clearState, clearKeychain, " \
	"openLink, inputRandomText, inputRandomNumber, inputRandomEmail, inputRandomPersonName, hideKeyboard, " \
	"pasteText, copyTextFrom, setClipboard, doubleTapOn, evalScript, runScript, assertTrue, assertWithAI, " \
	"assertNoDefectsWithAI, extractTextWithAI, action, setLocation, travel, addMedia, startRecording, " \
	"stopRecording, setAirplaneMode, toggleAirplaneMode, setOrientation"

/* The commands of a one-document list, through the table. */
static int parse_cmds(const char *text, amc_flow_cmd **cmds, size_t *n, amc_err *e)
{
	amc_flow_yaml y;
	amc_err_clear(e);
	amc_flow_yaml_init(&y, "t.yaml", e);
	int rc = amc_flow_yaml_read(&y, text, strlen(text));
	if (rc == 0 && y.ndocs == 1)
		rc = amc_flow_cmds_parse_list(&y, amc_flow_yaml_use(&y, 0), cmds, n);
	amc_flow_yaml_close(&y);
	return rc;
}

/* Commands that must be refused: the code, the message, and nothing handed back. */
static void fails(const char *text, const char *needle, const char *name)
{
	amc_flow_cmd *cmds = NULL;
	size_t n = 0;
	amc_err e;
	int rc = parse_cmds(text, &cmds, &n, &e);
	ok(rc == -1 && e.code == AMC_EUSAGE, "%s: refused as bad input", name);
	like(e.msg, needle, "%s: message", name);
	ok(cmds == NULL && n == 0, "%s: nothing left allocated", name);
}

/* One command that must parse; its description is compared. */
static amc_flow_cmd *one(const char *text, const char *describe, const char *name)
{
	static amc_flow_cmd c;
	amc_flow_cmd *cmds = NULL;
	size_t n = 0;
	amc_err e;
	amc_flow_cmd_clear(&c);
	if (!ok(parse_cmds(text, &cmds, &n, &e) == 0 && n == 1, "%s parses", name)) {
		diag("%s", e.msg);
		return &c;
	}
	c = cmds[0];
	free(cmds);
	char *d = amc_flow_cmd_describe(&c);
	is_str(d, describe, "%s: description", name);
	free(d);
	return &c;
}

static void test_table(void)
{
	size_t n;
	const amc_flow_cmd_def *t = amc_flow_cmds_table(&n);
	int unique = 1, named = 1;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i; j++)
			unique &= strcmp(t[i].name, t[j].name) != 0;
		named &= amc_flow_cmds_find(t[i].name) == &t[i];
	}
	ok(n > 40 && unique && named, "%zu rows, one per name, each found by its name", n);
	int ops_ok = 1;
	for (int op = AMC_FLOW_LAUNCH_APP; op <= AMC_FLOW_TAKE_SCREENSHOT; op++) {
		const amc_flow_cmd_def *d = amc_flow_cmds_by_op((amc_flow_op)op);
		ops_ok &= d && d->op == op && !strcmp(amc_flow_op_name((amc_flow_op)op), d->name);
	}
	ok(ops_ok, "every op has its row, and its name is the row's");
	is_str(amc_flow_op_name((amc_flow_op)99), "?", "an unknown op is '?'");
	ok(amc_flow_cmds_find("tapon") == NULL && amc_flow_cmds_find("") == NULL, "names match exactly");

	char *s = amc_flow_cmds_supported();
	is_str(s, SUPPORTED, "the supported list comes from the rows");
	free(s);

	const amc_flow_cmd_def *d = amc_flow_cmds_find("runFlow");
	ok(d && d->parse && (d->flags & AMC_FLOW_CMDF_SUBFLOW) && (d->flags & AMC_FLOW_CMDF_BLOCK),
	   "runFlow: names a sub-flow, holds commands");
	d = amc_flow_cmds_find("repeat");
	ok(d && d->parse && (d->flags & AMC_FLOW_CMDF_BLOCK) && !(d->flags & AMC_FLOW_CMDF_SUBFLOW),
	   "repeat: a block of commands");
	d = amc_flow_cmds_find("runScript");
	ok(d && (d->flags & AMC_FLOW_CMDF_SCRIPT), "runScript names a script");
	ok((amc_flow_cmds_find("tapOn")->flags & AMC_FLOW_CMDF_POINT) &&
	   !(amc_flow_cmds_find("assertVisible")->flags & AMC_FLOW_CMDF_POINT), "only taps take a point");

	/* Every known command has its parse function: none is refused by name. */
	int later = 0;
	for (size_t i = 0; i < n; i++)
		later += !t[i].parse;
	ok(later == 0, "every row parses its command (%d without)", later);
	/* Every command that needs a value says so when written alone. */
	int bare = 0, bare_ok = 0;
	for (size_t i = 0; i < n; i++) {
		if (!t[i].parse || !t[i].bare)
			continue;
		bare++;
		char yaml[96], want[200];
		snprintf(yaml, sizeof yaml, "- %s\n", t[i].name);
		snprintf(want, sizeof want, "t.yaml:1: %s %s", t[i].name, t[i].bare);
		amc_flow_cmd *cmds = NULL;
		size_t cnt = 0;
		amc_err e;
		bare_ok += parse_cmds(yaml, &cmds, &cnt, &e) == -1 && !strcmp(e.msg, want);
	}
	ok(bare == 22 && bare_ok == bare, "all %d commands that need a value say so when bare", bare);
}

static void test_commands(void)
{
	amc_flow_cmd *c = one("- launchApp: {appId: com.x, clearState: false, stopApp: true, label: l}\n",
			      "launchApp com.x", "launchApp mapping");
	ok(c->op == AMC_FLOW_LAUNCH_APP && c->stop_app == 1 && c->clear_state == 0, "launchApp fields");
	c = one("- launchApp\n", "launchApp", "bare launchApp");
	ok(c->text == NULL && c->stop_app == 1, "bare launchApp: no id, stopApp");
	c = one("- tapOn: {point: \"50%,90%\"}\n", "tapOn point=50%,90%", "tapOn point");
	c = one("- tapOn: {text: \"a\", id: \"b\", index: 2, optional: true, label: x}\n",
		"tapOn text=\"a\" id=\"b\" index=2 (optional)", "tapOn everything");
	c = one("- longPressOn: {id: x, optional: yes}\n", "longPressOn id=\"x\" (optional)", "longPressOn");
	ok(c->op == AMC_FLOW_LONG_PRESS_ON && c->sel.optional == 1, "longPressOn optional");
	c = one("- assertVisible: {text: a, optional: true}\n", "assertVisible \"a\" (optional)", "assertVisible");
	c = one("- inputText: {text: 5, label: x}\n", "inputText \"5\"", "inputText mapping");
	c = one("- pressKey: HOME\n", "pressKey home", "pressKey");
	c = one("- back: {label: [any]}\n", "back", "back with a label of any shape");
	c = one("- scroll\n", "scroll", "scroll");
	c = one("- swipe: {start: \"10%,20%\", end: \"30%,40%\", duration: 100}\n", "swipe 10%,20% -> 30%,40%",
		"swipe percent");
	ok(c->percent == 1 && c->number == 100, "swipe percent fields");
	c = one("- swipe: {direction: left}\n", "swipe LEFT", "swipe direction");
	is_int(c->number, 400, "swipe default duration");
	c = one("- scrollUntilVisible: {element: {id: x}, optional: true, timeout: 1000, direction: left}\n",
		"scrollUntilVisible id=\"x\" (optional) LEFT", "scrollUntilVisible");
	c = one("- scrollUntilVisible: {element: x}\n", "scrollUntilVisible \"x\" DOWN", "scrollUntilVisible defaults");
	is_int(c->number, 20000, "scrollUntilVisible default timeout");
	c = one("- waitForAnimationToEnd\n", "waitForAnimationToEnd (timeout 15000 ms)", "waitForAnimationToEnd");
	c = one("- waitForAnimationToEnd: {timeout: 5}\n", "waitForAnimationToEnd (timeout 5 ms)", "wait timeout");
	c = one("- takeScreenshot: 5\n", "takeScreenshot \"5\"", "takeScreenshot number as a name");
	c = one("- takeScreenshot\n", "takeScreenshot", "bare takeScreenshot");
	amc_flow_cmd_clear(c);

	amc_flow_cmd hand;
	memset(&hand, 0, sizeof hand);
	hand.op = AMC_FLOW_ERASE_TEXT;
	hand.number = 3;
	char *d = amc_flow_cmd_describe(&hand);
	is_str(d, "eraseText 3", "eraseText keeps its description");
	free(d);
}

static void test_errors(void)
{
	fails("- eraseText: x\n", "t.yaml:1: eraseText must be a whole number", "eraseText not a count");
	fails("- back\n- runFlow: {env: {A: 1}}\n", "t.yaml:2: runFlow needs file or commands", "runFlow empty");
	fails("- bogus\n", "t.yaml:1: unknown command 'bogus' (supported: " SUPPORTED ")", "bare unknown command");
	fails("- tapOn: 123\n", "t.yaml:1: tapOn must be a text, got a number", "tapOn with a number");
	fails("- tapOn: [a, b]\n", "t.yaml:1: tapOn needs a selector", "tapOn with a list");
	fails("- tapOn\n", "t.yaml:1: tapOn needs a selector", "bare tapOn");
	fails("- tapOn:\n", "t.yaml:1: tapOn needs a selector", "tapOn with no value");
	fails("- tapOn: {index: 1}\n", "tapOn needs text, id, point or another selector key",
	      "selector without text or id");
	fails("- tapOn: {text: a, below: {bogus: b}}\n", "tapOn below: unknown option 'bogus'", "relative selector");
	fails("- tapOn: {txt: a}\n", "unknown option 'txt'", "misspelt selector key");
	fails("- tapOn: {text: a, index: -1}\n", "index must be between 0", "negative index");
	fails("- tapOn: {text: a, index: x}\n", "index must be a whole number", "index not a number");
	fails("- tapOn: {point: \"150%,3%\"}\n", "point must be", "point out of range");
	fails("- tapOn: {point: \"1,2\", text: a}\n", "t.yaml:1: tapOn: point cannot be combined with text or id",
	      "point and text");
	fails("- tapOn: {text: a, optional: maybe}\n", "optional must be true or false", "optional not bool");
	fails("- tapOn: {text: a, label: [1]}\n", "t.yaml:1: tapOn label must be a text, got a list", "label checked");
	fails("- assertVisible: {point: \"1,2\"}\n",
	      "assertVisible: unknown option 'point' (supported: text, id, index, enabled, checked, focused, "
	      "selected, below, above, leftOf, rightOf, containsChild, childOf, containsDescendants, width, height, "
	      "tolerance, optional, label)", "assert point");
	fails("- inputText: {}\n", "inputText needs text", "inputText without text");
	fails("- inputText: \"\"\n", "non-empty", "inputText empty");
	fails("- pressKey: Hyper\n", "t.yaml:1: pressKey: unknown key 'Hyper' (Enter, Backspace", "unknown key");
	fails("- back: 3\n", "back takes no value", "back with a value");
	fails("- back: {label: x, foo: 1}\n", "t.yaml:1: back: unknown option 'foo' (supported: optional, label)",
	      "back option");
	fails("- launchApp: {permissions: [1]}\n", "launchApp permissions must be a mapping of NAME: value",
	      "launchApp permissions");
	fails("- launchApp: [1]\n", "t.yaml:1: launchApp takes an app id or a mapping, got a list", "launchApp list");
	fails("- swipe: {direction: sideways}\n", "UP, DOWN, LEFT or RIGHT", "bad direction");
	fails("- swipe: {start: \"1,2\"}\n", "both start and end", "swipe start only");
	fails("- swipe: {start: \"1,2\", end: \"50%,50%\"}\n", "both be percentages or both pixels", "mixed swipe");
	fails("- swipe: {start: \"1,2\", end: \"3,4\", direction: UP}\n", "either direction or start and end",
	      "swipe both ways");
	fails("- swipe: 3\n", "t.yaml:1: swipe needs a mapping: {direction: UP} or "
	      "{start: \"50%,80%\", end: \"50%,20%\"}, got a number", "swipe scalar");
	fails("- scrollUntilVisible: {direction: DOWN}\n", "needs element", "scrollUntilVisible without element");
	fails("- scrollUntilVisible: {element: {id: x, point: \"1,2\"}}\n",
	      "scrollUntilVisible element: unknown option 'point'", "element takes no point");
	fails("- waitForAnimationToEnd: 5\n", "waitForAnimationToEnd takes nothing or {timeout: MS}, got a number",
	      "wait scalar");
	fails("- takeScreenshot: {cropOn: 1}\n", "takeScreenshot: option 'cropOn' is not supported yet", "cropOn");
	fails("- {tapOn: a, back: b}\n", "exactly one key", "two keys in a command");
	fails("- [back]\n", "got a list", "command as a list");
	fails("- {[a]: b}\n", "t.yaml:1: a command name must be a plain word, got a list", "name not a word");
}

int main(void)
{
	test_table();
	test_commands();
	test_errors();
	return done_testing();
}
