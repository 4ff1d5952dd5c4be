/* test_flow_cmds.c - the Maestro command table: its rows, each command's
 * value forms and messages, and descriptions. */
#include <stdlib.h>
#include <string.h>

#include "flow/flow.h"
#include "flow/flow_cmds.h"
#include "planner/flow_commands.h"
#include "tap.h"

#define SUPPORTED "launchApp, tapOn, longPressOn, inputText, pressKey, back, scroll, swipe, " \
	"scrollUntilVisible, assertVisible, assertNotVisible, waitForAnimationToEnd, takeScreenshot, " \
	"eraseText, runFlow, repeat, retry, extendedWaitUntil, stopApp, killApp, clearState, clearKeychain, " \
	"openLink, inputRandomText, inputRandomNumber, inputRandomEmail, inputRandomPersonName, hideKeyboard, " \
	"hide keyboard, pasteText, copyTextFrom, setClipboard, doubleTapOn, evalScript, runScript, assertTrue, assertWithAI, " \
	"assertNoDefectsWithAI, extractTextWithAI, action, setLocation, travel, addMedia, startRecording, " \
	"stopRecording, setAirplaneMode, toggleAirplaneMode, setOrientation, " \
	"setPermissions, inputRandomCityName, inputRandomCountryName, inputRandomColorName, assertScreenshot, " \
	"setDarkMode, toggleDarkMode, assertDarkMode, assertLightMode"

/* The commands of a one-document list, through the table. */
static int parse_cmds(const char *text, amc_flow_cmd **cmds, size_t *n, amc_err *e)
{
	amc_flow_yaml y;
	amc_err_clear(e);
	amc_flow_yaml_init(&y, "t.yaml", e);
	y.cmds = amc_flow_commands();
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
	if (describe) /* NULL: only that it parses */
		is_str(d, describe, "%s: description", name);
	free(d);
	return &c;
}

static char *notes_of(const char *text, int *rc);

static void test_table(void)
{
	const amc_flow_cmd_table *T = amc_flow_commands();
	size_t n = T->n;
	const amc_flow_cmd_def *t = T->rows;
	int unique = 1, named = 1;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i; j++)
			unique &= strcmp(t[i].name, t[j].name) != 0;
		named &= amc_flow_cmds_find(T, t[i].name) == &t[i];
	}
	ok(n > 40 && unique && named, "%zu rows, one per name, each found by its name", n);
	int ops_ok = 1;
	for (int op = AMC_FLOW_LAUNCH_APP; op <= AMC_FLOW_TAKE_SCREENSHOT; op++) {
		const amc_flow_cmd_def *d = amc_flow_cmds_by_op(T, (amc_flow_op)op);
		ops_ok &= d && d->op == op && !strcmp(amc_flow_op_name((amc_flow_op)op), d->name);
	}
	ok(ops_ok, "every op has its row, and its name is the row's");
	is_str(amc_flow_op_name((amc_flow_op)99), "?", "an unknown op is '?'");
	ok(amc_flow_cmds_find(T, "tapon") == NULL && amc_flow_cmds_find(T, "") == NULL, "names match exactly");

	char *s = amc_flow_cmds_supported(T);
	is_str(s, SUPPORTED, "the supported list comes from the rows");
	free(s);

	const amc_flow_cmd_def *d = amc_flow_cmds_find(T, "runFlow");
	ok(d && d->parse && (d->flags & AMC_FLOW_CMDF_SUBFLOW) && (d->flags & AMC_FLOW_CMDF_BLOCK),
	   "runFlow: names a sub-flow, holds commands");
	d = amc_flow_cmds_find(T, "repeat");
	ok(d && d->parse && (d->flags & AMC_FLOW_CMDF_BLOCK) && !(d->flags & AMC_FLOW_CMDF_SUBFLOW),
	   "repeat: a block of commands");
	d = amc_flow_cmds_find(T, "runScript");
	ok(d && (d->flags & AMC_FLOW_CMDF_SCRIPT), "runScript names a script");
	ok((amc_flow_cmds_find(T, "tapOn")->flags & AMC_FLOW_CMDF_POINT) &&
	   !(amc_flow_cmds_find(T, "assertVisible")->flags & AMC_FLOW_CMDF_POINT), "only taps take a point");

	/* Every row parses its command: Maestro 2.x's assertScreenshot and
	 * appearance commands (MaestroFlowParser, YamlSetDarkMode) too. */
	int later = 0;
	for (size_t i = 0; i < n; i++)
		later += !t[i].parse;
	ok(later == 0, "every row parses its command (%d do not)", later);
	fails("- setDarkMode: maybe\n", "setDarkMode takes enabled or disabled", "setDarkMode's values");
	fails("- assertDarkMode: {value: x}\n", "assertDarkMode: unknown option 'value'", "assertDarkMode takes no value");
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
	ok(bare == 26 && bare_ok == bare, "all %d commands that need a value say so when bare", bare);
}

/* One row per command: every op has a row that plans it, a name is one
 * row's (aliases too), rows that share an op share what it does, and what a
 * device kind cannot do names the kind. */
static void test_rows(void)
{
	const amc_flow_cmd_table *T = amc_flow_commands();
	int ops_ok = 1;
	for (int op = 0; op < AMC_FLOW_OP_COUNT; op++) {
		const amc_flow_cmd_def *d = amc_flow_cmds_by_op(T, (amc_flow_op)op);
		ops_ok &= d && d->parse && d->plan;
	}
	ok(ops_ok, "every op (%d) has a row with a parse and a plan function", AMC_FLOW_OP_COUNT);
	int same = 1, names = 0, forms = 0, cannot_ok = 1;
	for (size_t i = 0; i < T->n; i++) {
		const amc_flow_cmd_def *d = &T->rows[i];
		if (d->op < 0) { /* a form of other rows: action */
			forms += !d->plan && !d->doc;
			continue;
		}
		const amc_flow_cmd_def *first = amc_flow_cmds_by_op(T, (amc_flow_op)d->op);
		same &= first->plan == d->plan && first->cannot_fn == d->cannot_fn && first->flags == d->flags;
		for (int k = 0; k < AMC_FLOW_NKINDS; k++)
			same &= (first->cannot[k] == NULL) == (d->cannot[k] == NULL);
		for (const char *const *a = d->aliases; a && *a; a++)
			names += amc_flow_cmds_find(T, *a) == d;
		static const char *const KIND[] = { "sim", "adb", "Appium" };
		for (int k = 0; k < AMC_FLOW_NKINDS; k++)
			cannot_ok &= !d->cannot[k] || strstr(d->cannot[k], KIND[k]) != NULL;
	}
	ok(same, "rows that share an op share its plan, refusals and flags (inputRandom*)");
	ok(names == 1 && amc_flow_cmds_find(T, "hide keyboard") == amc_flow_cmds_find(T, "hideKeyboard"),
	   "an alias finds its command's row");
	ok(forms == 1, "one form (action:) with no plan and no docs line of its own");
	ok(cannot_ok, "each refusal names its device kind");
	ok(amc_flow_cmds_find(T, "setLocation")->cannot[AMC_FLOW_KIND_ADB] &&
	   !amc_flow_cmds_find(T, "setLocation")->cannot[AMC_FLOW_KIND_SIM], "setLocation: refused on adb, not the sim");
	ok((amc_flow_cmds_find(T, "stopApp")->flags & AMC_FLOW_CMDF_APP) &&
	   !(amc_flow_cmds_find(T, "tapOn")->flags & AMC_FLOW_CMDF_APP), "stopApp acts on the flow's app, tapOn not");

	/* a parsed command carries its row; `action: back` the back row */
	amc_flow_cmd *c = one("- action: back\n", "back", "action: back");
	ok(c->def == amc_flow_cmds_find(T, "back") && c->op == AMC_FLOW_BACK, "action: back is the back row");
	amc_flow_cmd_clear(c);
	c = one("- hide keyboard\n", "hideKeyboard", "the alias");
	ok(c->def == amc_flow_cmds_find(T, "hideKeyboard"), "'hide keyboard' is the hideKeyboard row");
	amc_flow_cmd_clear(c);
	c = one("- inputRandomEmail\n", "inputRandomEmail", "inputRandomEmail");
	is_str(amc_flow_cmd_name(c), "inputRandomEmail", "a shared op keeps its command's name");
	amc_flow_cmd_clear(c);
	fails("- action: fly\n", "(back, scroll, clearKeychain, hideKeyboard, pasteText)",
	      "action: the forms come from the rows");

	/* the list messages and `amc flow commands` give is the table's */
	char *sup = amc_flow_cmds_supported(T), *list = amc_flow_commands_list();
	for (char *p = list; (p = strchr(p, '\n')) != NULL;)
		*p = p[1] ? ',' : '\0';
	amc_sb want;
	amc_sb_init(&want);
	for (const char *p = sup; *p; p++)
		if (!(*p == ' ' && p > sup && p[-1] == ','))
			amc_sb_putc(&want, *p);
	is_str(list, amc_sb_str(&want), "amc flow commands lists the supported names, in order");
	amc_sb_free(&want);
	free(sup);
	free(list);
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
	/* SnakeYAML (YAML 1.1), which Maestro reads flows with, takes 10_000 as 10000 */
	c = one("- waitForAnimationToEnd: {timeout: 10_000}\n", "waitForAnimationToEnd (timeout 10000 ms)",
		"a number with underscores");
	fails("- waitForAnimationToEnd: {timeout: _10}\n", "timeout must be a whole number", "a leading underscore");
	c = one("- waitForAnimationToEnd: {timeout: 1_0_}\n", "waitForAnimationToEnd (timeout 10 ms)",
		"YAML 1.1 allows any underscores after the first digit");
	fails("- waitForAnimationToEnd: {timeout: \"10_000\"}\n", "timeout must be a whole number",
	      "quoted: a text, not a YAML number (Jackson cannot read it as a Long either)");
	/* ScrollUntilVisibleCommand.speedToDuration: over 100 is Maestro's shortest duration */
	c = one("- scrollUntilVisible: {element: x, speed: 150}\n", "scrollUntilVisible \"x\" DOWN", "speed over 100");
	is_int(c->speed, 100, "speed over 100: the fastest");
	/* YamlElementSelector.index is a String: ${...} is filled when the command runs */
	c = one("- tapOn: {text: a, index: \"${i}\"}\n", "tapOn \"a\"", "index with ${...}");
	is_str(c->sel.index_text, "${i}", "index with ${...}: kept for the run");
	/* YamlFluentCommand.tapCommand: with point, Maestro taps the point (TapOnPointV2Command) */
	c = one("- tapOn: {point: \"1,2\", id: a}\n", NULL, "point beside id");
	ok(c->sel.has_point && c->sel.point_x == 1 && c->sel.point_y == 2, "point beside id: the point is tapped");

	c = one("- takeScreenshot\n", "takeScreenshot", "bare takeScreenshot");
	amc_flow_cmd_clear(c);

	amc_flow_cmd hand;
	memset(&hand, 0, sizeof hand);
	hand.op = AMC_FLOW_ERASE_TEXT;
	hand.def = amc_flow_cmds_by_op(amc_flow_commands(), AMC_FLOW_ERASE_TEXT);
	hand.number = 3;
	char *d = amc_flow_cmd_describe(&hand);
	is_str(d, "eraseText 3", "eraseText keeps its description");
	free(d);
}

/* The commands of the whole language: each form parses into what the
 * planner reads, with its description. */
static void test_language(void)
{
	amc_flow_cmd *c;
	c = one("- runFlow: sub/login.yaml\n", "runFlow sub/login.yaml", "runFlow file");
	ok(c->op == AMC_FLOW_RUN_FLOW && !strcmp(c->file, "sub/login.yaml"), "runFlow file kept as written");
	c = one("- runFlow:\n    when: {visible: {id: x}, platform: android, true: \"${A}\"}\n    env: {A: 1, B: ~}\n"
		"    commands: [back, {tapOn: a}]\n", "runFlow (2 commands)", "runFlow inline");
	ok(c->nbody == 2 && c->nenv == 2 && !strcmp(c->env[1].value, "") && c->cond.visible &&
	   !strcmp(c->cond.platform, "Android") && !strcmp(c->cond.is_true, "${A}"), "runFlow's body, env and when");
	c = one("- repeat: {times: 3, commands: [back]}\n", "repeat 3 times (1 command)", "repeat times");
	c = one("- repeat: {while: {notVisible: X}, commands: [back]}\n", "repeat while ... (1 command)", "repeat while");
	ok(c->cond.not_visible && !strcmp(c->cond.not_visible->text, "X"), "while notVisible");
	c = one("- repeat: {times: \"${N}\", commands: [back]}\n", "repeat (1 command)", "repeat times ${N}");
	is_str(c->text, "${N}", "a count with ${...} is read when it runs");
	c = one("- retry: {maxRetries: 7, commands: [back]}\n", "retry (max 3) (1 command)", "retry clamps to 3");
	c = one("- retry: {file: r.yaml, env: {X: y}}\n", "retry (max 1) r.yaml", "retry file");
	c = one("- extendedWaitUntil: {visible: Done, timeout: 30000}\n",
		"extendedWaitUntil visible \"Done\" (timeout 30000 ms)", "extendedWaitUntil");
	c = one("- eraseText\n", "eraseText 50", "eraseText default 50");
	c = one("- eraseText: {charactersToErase: 4}\n", "eraseText 4", "eraseText mapping");
	c = one("- pressKey: Backspace\n", "pressKey delete", "pressKey Backspace is delete");
	c = one("- pressKey: Remote Dpad Up\n", "pressKey dpad_up", "pressKey Remote Dpad Up");
	c = one("- hideKeyboard\n", "hideKeyboard", "hideKeyboard");
	c = one("- action: back\n", "back", "action: back (Maestro's parser takes it)");
	ok(c->op == AMC_FLOW_BACK, "is back");
	c = one("- action: pasteText\n", "pasteText", "action: pasteText");
	c = one("- stopApp\n", "stopApp", "stopApp bare");
	c = one("- killApp: com.x\n", "killApp com.x", "killApp id");
	c = one("- clearState: {appId: com.y}\n", "clearState com.y", "clearState mapping");
	c = one("- clearKeychain\n", "clearKeychain", "clearKeychain");
	c = one("- openLink: https://example.com/a?b=1\n", "openLink \"https://example.com/a?b=1\"", "openLink");
	c = one("- openLink: {link: \"sim://notes\", autoVerify: true}\n", "openLink \"sim://notes\"", "openLink mapping");
	c = one("- inputRandomText: {length: 12}\n", "inputRandomText", "inputRandomText");
	ok(c->number == 12 && !strcmp(c->direction, "TEXT"), "its length");
	c = one("- inputRandomNumber\n", "inputRandomNumber", "inputRandomNumber");
	c = one("- inputRandomEmail\n", "inputRandomEmail", "inputRandomEmail");
	c = one("- inputRandomPersonName\n", "inputRandomPersonName", "inputRandomPersonName");
	c = one("- copyTextFrom: {id: total}\n", "copyTextFrom id=\"total\"", "copyTextFrom");
	c = one("- setClipboard: hello\n", "setClipboard \"hello\"", "setClipboard");
	c = one("- pasteText\n", "pasteText", "pasteText");
	c = one("- doubleTapOn: {text: a, optional: true}\n", "doubleTapOn \"a\" (optional)", "doubleTapOn");
	c = one("- evalScript: ${output.n = 1}\n", "evalScript \"${output.n = 1}\"", "evalScript");
	c = one("- runScript: {file: s.js, env: {A: b}}\n", "runScript s.js", "runScript");
	c = one("- assertTrue: {condition: \"${A}\", optional: true}\n", "assertTrue \"${A}\"", "assertTrue");
	ok(c->sel.optional, "assertTrue optional");
	c = one("- assertWithAI: {assertion: a form}\n", "assertWithAI \"a form\"", "assertWithAI");
	c = one("- assertNoDefectsWithAI\n", "assertNoDefectsWithAI", "assertNoDefectsWithAI");
	c = one("- extractTextWithAI: {query: q, outputVariable: v}\n", "extractTextWithAI \"q\"", "extractTextWithAI");
	is_str(c->direction, "v", "its output variable");
	c = one("- setLocation: {latitude: 1, longitude: 2}\n", "setLocation", "setLocation (refused by device check)");
	c = one("- tapOn: {id: x, repeat: 2, delay: 50, retryTapIfNoChange: true, waitToSettleTimeoutMs: 100, "
		"label: Tap x}\n", "tapOn id=\"x\" repeat=2 delay=50ms retryTapIfNoChange", "tap options");
	ok(c->times == 2 && c->delay == 50 && c->retry_tap && c->settle_ms == 100 && !strcmp(c->label, "Tap x"),
	   "repeat, delay, retryTapIfNoChange, waitToSettleTimeoutMs, label");
	c = one("- tapOn: {below: {text: A}, rightOf: {id: b, above: C}, childOf: {containsChild: D}, "
		"containsDescendants: [E, {id: f}], enabled: false, checked: 'true', focused: yes, selected: no, "
		"width: 10, height: 20, tolerance: 3}\n", "tapOn (relative)", "every selector key");
	ok(c->sel.below && c->sel.right_of && c->sel.right_of->above && c->sel.child_of &&
	   c->sel.child_of->contains_child && c->sel.ndescendants == 2 && c->sel.enabled == AMC_SEL_NO &&
	   c->sel.checked == AMC_SEL_YES && c->sel.focused == AMC_SEL_YES && c->sel.selected == AMC_SEL_NO &&
	   c->sel.width == 10 && c->sel.height == 20 && c->sel.tolerance == 3, "nested and state keys");
	c = one("- tapOn: {point: \"${output.p}\"}\n", "tapOn point=0,0", "a point with ${...}");
	is_str(c->sel.point_text, "${output.p}", "read when it runs");
	c = one("- swipe: {from: {id: list}, direction: UP}\n", "swipe UP from id=\"list\"", "swipe from an element");
	/* pass-culture-app-native: from with start and end. YamlSwipeDeserializer
	 * takes start/end first (resolveCoordinateSwipe) and never reads from. */
	c = one("- swipe:\n    from:\n      id: 'android:id/numberpicker_input'\n      index: 1\n"
		"    start: 47%, 61%\n    end: 47%, 68%\n", "swipe 47%,61% -> 47%,68%", "swipe from + start/end");
	ok(!c->direction && c->percent && !c->sel.id && !c->sel.has_index && c->sx == 47 && c->ey == 68,
	   "  a coordinate swipe; from is dropped, as Maestro drops it");
	fails("- swipe: {from: {id: list}}\n", "swipe from: an element needs a direction (Maestro refuses it too",
	      "swipe from alone");
	/* jjackson/commcare-ios: tapOn with only an index. YamlElementSelector
	 * takes it; Orchestra.buildFilter intersects no filters (every node), then
	 * Filters.index picks the index-th in reading order. */
	c = one("- tapOn:\n    index: 2\n", "tapOn index=2", "tapOn with only an index");
	ok(c->sel.has_index && c->sel.index == 2 && !c->sel.text && !c->sel.id, "  only the index");
	c = one("- tapOn: {index: \"${i}\"}\n", NULL, "an index-only selector filled when it runs");
	is_str(c->sel.index_text, "${i}", "  its index text kept");
	/* setPermissions (Maestro 2.1; Rocket.Chat.ReactNative's helpers): the
	 * permissions of launchApp, without the launch */
	c = one("- setPermissions:\n    permissions:\n      all: allow\n", "setPermissions all=allow", "setPermissions");
	ok(c->op == AMC_FLOW_SET_PERMISSIONS && c->nenv == 1 && !c->text, "  the flow's app, one permission");
	c = one("- setPermissions: {appId: com.x, permissions: {camera: allow, notifications: deny}}\n",
		"setPermissions com.x camera=allow, notifications=deny", "setPermissions of another app");
	fails("- setPermissions: {appId: com.x}\n", "setPermissions needs permissions", "setPermissions without any");
	fails("- setPermissions: allow\n", "setPermissions needs a mapping", "setPermissions scalar");
	/* Maestro 2.x's DataFaker inputs (Maestro pull request 2341) */
	c = one("- inputRandomCityName\n", "inputRandomCityName", "inputRandomCityName");
	is_str(c->direction, "CITY_NAME", "  its kind");
	c = one("- inputRandomCountryName: {optional: true}\n", "inputRandomCountryName", "inputRandomCountryName");
	c = one("- inputRandomColorName\n", "inputRandomColorName", "inputRandomColorName");
	fails("- inputRandomColorName: {length: 3}\n", "unknown option 'length'", "a color name has no length");
	c = one("- scrollUntilVisible: {element: {id: x, optional: true}, speed: 80, visibilityPercentage: 50, "
		"centerElement: true}\n", "scrollUntilVisible id=\"x\" (optional) DOWN", "scrollUntilVisible options");
	ok(c->speed == 80 && c->visibility == 50 && c->center, "speed, visibilityPercentage, centerElement");
	c = one("- launchApp: {clearState: true, clearKeychain: true, stopApp: false, permissions: {all: deny}, "
		"arguments: {a: b}}\n", "launchApp (clear state) (no stop)", "launchApp options");
	ok(c->clear_state && c->clear_keychain && !c->stop_app && c->nenv == 1, "launchApp fields");
	ok(c->nargs == 1 && !strcmp(c->args[0].name, "a") && !strcmp(c->args[0].value, "b"),
	   "launchApp arguments kept (passed to the app)");
	amc_flow_cmd_clear(c);
	fails("- launchApp: {arguments: [a]}\n", "launchApp arguments must be a mapping", "arguments: a mapping");
	fails("- retry: {commands: [back], file: x.yaml}\n", "retry takes file or commands, not both", "retry both");
	fails("- repeat: {commands: [back]}\n", "repeat needs times or while", "repeat without times");
	fails("- repeat: {times: 2, commands: []}\n", "repeat commands is empty", "repeat empty");
	fails("- runFlow: {when: {platform: Symbian}, file: x}\n", "must be Android, iOS or Web", "bad platform");
	fails("- runFlow: {when: {}, file: x}\n", "runFlow when is empty", "empty when");
	fails("- extendedWaitUntil: {timeout: 5}\n", "needs visible or notVisible", "extendedWaitUntil empty");
	fails("- action: fly\n", "action: unknown action 'fly'", "unknown action");
	fails("- inputRandomEmail: {length: 3}\n", "unknown option 'length'", "email has no length");
	/* ElementTrait / TraitFilters: text, square, long-text */
	fails("- tapOn: {text: a, traits: [x]}\n", "traits must be a text", "traits: a list");
	fails("- tapOn: {traits: round}\n", "unknown trait 'round' (text, square, long-text)", "traits: unknown");
	fails("- tapOn: {css: \"#login\"}\n", "css selects elements of a web page", "css on a phone");
	fails("- tapOn: {below: {below: {below: {below: {below: {below: {below: {below: {below: {below: a}}}}}}}}}}\n",
	      "relative selectors nested deeper than 8", "relative nesting bounded");
}

/* The device commands, as Maestro's Yaml* classes read them
 * (YamlSetAirplaneModeDeserializer, YamlSetLocation, YamlTravelCommand,
 * YamlAddMedia; setOrientation takes DeviceOrientation's names). */
static void test_device_cmds(void)
{
	amc_flow_cmd *c = one("- setOrientation: LANDSCAPE_LEFT\n", NULL, "setOrientation NAME");
	is_str(c->text, "LANDSCAPE_LEFT", "the orientation, as written");
	c = one("- setOrientation: {orientation: upsideDown, label: turn}\n", NULL, "setOrientation {orientation}");
	is_str(c->text, "upsideDown", "camelCase too");
	c = one("- setAirplaneMode: enabled\n", NULL, "setAirplaneMode enabled");
	is_str(c->text, "enabled", "enabled");
	c = one("- setAirplaneMode: {value: disabled, optional: true}\n", NULL, "setAirplaneMode {value}");
	ok(c->text && !strcmp(c->text, "disabled") && c->sel.optional, "disabled, optional");
	c = one("- toggleAirplaneMode\n", NULL, "toggleAirplaneMode");
	c = one("- setLocation: {latitude: 52.52, longitude: \"13.40\"}\n", NULL, "setLocation");
	ok(c->text && c->direction && !strcmp(c->text, "52.52") && !strcmp(c->direction, "13.40"),
	   "latitude and longitude as written");
	c = one("- travel: {points: [\"1,2\", \"3,4\", \"5,6\"], speed: 40}\n", NULL, "travel");
	ok(c->nenv == 3 && !strcmp(c->env[2].value, "5,6") && c->number == 40, "three points, speed 40");
	c = one("- addMedia: [a.jpg, \"../b.mp4\"]\n", NULL, "addMedia [files]");
	ok(c->nenv == 2 && !strcmp(c->env[1].value, "../b.mp4"), "two files, as written");
	c = one("- addMedia: {files: [a.jpg]}\n", NULL, "addMedia {files}");
	ok(c->nenv == 1, "one file");
	fails("- setOrientation: SIDEWAYS\n", "setOrientation takes PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN",
	      "an unknown orientation");
	fails("- setAirplaneMode: maybe\n", "setAirplaneMode takes enabled or disabled", "airplane: enabled or disabled only");
	/* YamlSetAirplaneModeDeserializer (maestro-orchestra yaml/YamlSetAirplaneMode.kt)
	 * reads value and label off the tree: no value is its IllegalArgumentException,
	 * another key beside value is ignored */
	fails("- setAirplaneMode: {enabled: true}\n", "setAirplaneMode takes enabled, disabled or {value: "
	      "enabled|disabled}, not 'enabled'; Maestro refuses it too (YamlSetAirplaneModeDeserializer",
	      "airplane {enabled: true}: Maestro's reason");
	int arc;
	char *an = notes_of("- setAirplaneMode: {value: enabled, foo: 1}\n", &arc);
	ok(arc == 0, "airplane: a key beside value is accepted");
	like(an, "1: setAirplaneMode foo ignored (YamlSetAirplaneModeDeserializer reads value and label only)",
	     "  and noted");
	free(an);
	fails("- setLocation: {latitude: 1}\n", "setLocation needs latitude and longitude", "a latitude alone");
	fails("- travel: {speed: 3}\n", "travel needs points", "travel without points");
	fails("- addMedia: []\n", "addMedia needs at least one file", "addMedia empty");
	fails("- addMedia: {file: a.jpg}\n", "unknown option 'file'", "addMedia: a key Maestro lacks");
	fails("- swipe: {startPoint: {x: 5, y: 50}, endPoint: {x: 95, y: 50}}\n",
	      "'startPoint' is not a Maestro swipe option; write start:", "swipe startPoint names the key to use");
}

/* The notes a one-document list leaves (amc_flow_yaml_note); caller frees. */
static char *notes_of(const char *text, int *rc)
{
	amc_flow_yaml y;
	amc_err e;
	amc_flow_cmd *cmds = NULL;
	size_t n = 0;
	amc_err_clear(&e);
	amc_flow_yaml_init(&y, "t.yaml", &e);
	y.cmds = amc_flow_commands();
	*rc = amc_flow_yaml_read(&y, text, strlen(text));
	if (*rc == 0)
		*rc = amc_flow_cmds_parse_list(&y, amc_flow_yaml_use(&y, 0), &cmds, &n);
	for (size_t i = 0; i < n; i++)
		amc_flow_cmd_clear(&cmds[i]);
	free(cmds);
	char *notes = y.notes;
	y.notes = NULL;
	amc_flow_yaml_close(&y);
	return notes;
}

/* YamlSwipeDeserializer (maestro-orchestra yaml/YamlSwipe.kt) reads the keys
 * it knows off the tree: beside direction (no from) or start/end any other key
 * is ignored, so Maestro accepts `percentage: 50` (Andersonfrfilho/cawme);
 * direction with from goes through convertValue to YamlSwipeElement, where an
 * unknown key is an UnrecognizedPropertyException; neither direction nor
 * start/end is its IllegalArgumentException. */
static void test_swipe_other_keys(void)
{
	int rc;
	one("- swipe: {direction: DOWN, percentage: 50}\n", "swipe DOWN", "swipe direction + percentage");
	char *n = notes_of("- swipe:\n    direction: DOWN\n    percentage: 50\n", &rc);
	ok(rc == 0, "swipe percentage accepted");
	like(n, "3: swipe percentage ignored (not a swipe option: Maestro's YamlSwipeDeserializer",
	     "  and noted with its line");
	free(n);
	one("- swipe: {start: \"10%,50%\", end: \"90%,50%\", speed: 3}\n", "swipe 10%,50% -> 90%,50%",
	    "a coordinate swipe ignores other keys too");
	one("- swipe: {direction: RIGHT, startPoint: {x: 5, y: 50}}\n", "swipe RIGHT",
	    "startPoint beside direction: ignored as Maestro ignores it");
	n = notes_of("- swipe: {direction: LEFT}\n", &rc);
	ok(rc == 0 && n == NULL, "a plain swipe leaves no note");
	free(n);
	fails("- swipe: {direction: UP, from: {id: list}, percentage: 50}\n",
	      "swipe: unknown option 'percentage' (a swipe from an element takes direction, from",
	      "from + an unknown key: YamlSwipeElement refuses it");
	fails("- swipe: {percentage: 50}\n", "swipe needs direction, or both start and end", "neither form");
}

static void test_errors(void)
{
	fails("- eraseText: x\n", "t.yaml:1: eraseText must be a whole number", "eraseText not a count");
	fails("- back\n- runFlow: {env: {A: 1}}\n", "t.yaml:2: runFlow needs file or commands", "runFlow empty");
	fails("- bogus\n", "t.yaml:1: unknown command 'bogus': not a Maestro command either, Maestro's parser refuses "
	      "it too (docs/flows.md lists the commands amc reads)", "bare unknown command");
	/* intrale/platform writes clearText; YamlFluentCommand has no such field
	 * (Jackson: UnrecognizedPropertyException), so Maestro refuses it too */
	fails("- clearText\n", "unknown command 'clearText': not a Maestro command either", "clearText");
	fails("- tapon: x\n", "unknown command 'tapon' (did you mean 'tapOn'?)", "a typo: the nearest command");
	fails("- asertVisble: x\n", "did you mean 'assertVisible'?", "two letters off");
	fails("- waitUntil:\n    visible: x\n", "unknown command 'waitUntil' (did you mean 'extendedWaitUntil'?)",
	      "a shortened name: the command it ends (Maestro refuses waitUntil too)");
	amc_flow_cmd *c = one("- tapOn: {traits: \"square LONG_TEXT\"}\n", "tapOn traits=square+long-text",
			      "traits in any case, - or _");
	is_int((int)c->sel.traits, AMC_TRAIT_SQUARE | AMC_TRAIT_LONG_TEXT, "traits: both read");
	c = one("- hide keyboard\n", NULL, "'hide keyboard', YamlFluentCommand's other spelling");
	is_int(c->op, AMC_FLOW_HIDE_KEYBOARD, "'hide keyboard' is hideKeyboard");
	/* YamlInputText.parse: a mapping's text (and label) are read, other keys ignored */
	c = one("- inputText: {text: hi, id: field}\n", NULL, "inputText with an id");
	is_str(c->text, "hi", "inputText with an id: the text is typed");
	/* YamlInputText.parse: getOrDefault("text", ""): a mapping without text types "" */
	c = one("- inputText: {id: field}\n", NULL, "inputText mapping without text");
	is_str(c->text, "", "  an empty text, as Maestro reads it");
	fails("- tapOn: 123\n", "t.yaml:1: tapOn must be a text, got a number", "tapOn with a number");
	fails("- tapOn: [a, b]\n", "t.yaml:1: tapOn needs a selector", "tapOn with a list");
	fails("- tapOn\n", "t.yaml:1: tapOn needs a selector", "bare tapOn");
	fails("- tapOn:\n", "t.yaml:1: tapOn needs a selector", "tapOn with no value");
	/* Rocket.Chat.ReactNative: assertVisible: {label: ...} alone. YamlElementSelector
	 * takes it; with no filter Orchestra.buildFilter keeps every node. */
	c = one("- assertVisible:\n    label: 'This room is read only'\n",
		"assertVisible (any element: no criterion, as Maestro reads it)", "a selector with only a label");
	c = one("- tapOn: {optional: true}\n", "tapOn (any element: no criterion, as Maestro reads it) (optional)",
		"a selector with only optional");
	fails("- tapOn: {text: a, below: {bogus: b}}\n", "tapOn below: unknown option 'bogus'", "relative selector");
	fails("- tapOn: {txt: a}\n", "unknown option 'txt'", "misspelt selector key");
	fails("- tapOn: {text: a, index: -1}\n", "index must be between 0", "negative index");
	fails("- tapOn: {text: a, index: x}\n", "index must be a whole number", "index not a number");
	fails("- tapOn: {point: \"150%,3%\"}\n", "point must be", "point out of range");
	fails("- tapOn: {text: a, optional: maybe}\n", "optional must be true or false", "optional not bool");
	fails("- tapOn: {text: a, label: [1]}\n", "t.yaml:1: tapOn label must be a text, got a list", "label checked");
	fails("- assertVisible: {point: \"1,2\"}\n",
	      "assertVisible: unknown option 'point' (supported: text, id, index, traits, enabled, checked, focused, "
	      "selected, below, above, leftOf, rightOf, containsChild, childOf, containsDescendants, width, height, "
	      "tolerance, optional, label); Maestro's parser refuses it too", "assert point");
	/* YamlElementSelector has no timeout (seen in TriciGo and mattermost-mobile) */
	fails("- assertVisible: {id: a, timeout: 5000}\n", "unknown option 'timeout' (supported: text, id, index, "
	      "traits", "assertVisible timeout");
	fails("- assertVisible: {id: a, timeout: 5000}\n", "Maestro's parser refuses it too (an unknown key is an "
	      "UnrecognizedPropertyException there): to wait, write extendedWaitUntil", "  saying what to write");
	/* YamlRunFlow has no name, YamlExtendedWaitUntil no anyOf, YamlActionScroll
	 * no direction (seen in shelfcontrol and intrale/platform): Maestro refuses them */
	fails("- runFlow: {file: a.yaml, name: x}\n", "runFlow: unknown option 'name'", "runFlow name");
	fails("- extendedWaitUntil: {anyOf: [{visible: a}], timeout: 5}\n", "extendedWaitUntil: unknown option 'anyOf'",
	      "extendedWaitUntil anyOf");
	fails("- scroll: {direction: DOWN}\n", "scroll: unknown option 'direction' (supported: optional, label); "
	      "Maestro's parser refuses it too", "scroll direction");
	c = one("- inputText: {}\n", NULL, "inputText: {}");
	is_str(c->text, "", "  an empty text");
	/* memverse_project clears a field with inputText: "" (InputTextCommand(""), types nothing) */
	c = one("- inputText: \"\"\n", NULL, "inputText: \"\"");
	is_str(c->text, "", "  an empty text");
	fails("- inputText:\n", "inputText", "a bare inputText: is still refused");
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
	fails("- waitForAnimationToEnd: 5\n", "waitForAnimationToEnd takes nothing or {timeout: MS}; Maestro refuses other forms too (YamlWaitForAnimationToEndCommand has no number form), got a number",
	      "wait scalar");
	fails("- takeScreenshot: {cropOn: {bogus: 1}}\n", "bogus", "cropOn is a selector");
	fails("- assertScreenshot: {thresholdPercentage: 90}\n", "assertScreenshot needs path", "assertScreenshot needs its reference");
	fails("- {tapOn: a, back: b}\n", "exactly one key", "two keys in a command");
	fails("- [back]\n", "got a list", "command as a list");
	fails("- {[a]: b}\n", "t.yaml:1: a command name must be a plain word, got a list", "name not a word");
}

int main(void)
{
	test_table();
	test_rows();
	test_commands();
	test_language();
	test_errors();
	test_device_cmds();
	test_swipe_other_keys();
	return done_testing();
}
