/* flow_commands.c - the Maestro commands amc knows: one row each (name,
 * other spellings, parse, describe, plan, what each device kind cannot do,
 * docs line; flow_cmd_def.h), and the entry points that hand the table down.
 *
 * This file sits above both the parser (flow.c, flow_cmds*.c) and the flow
 * planner (flow_planner_*.c): it names their functions, and neither names
 * it. amc_flow_parse and amc_flow_load give the table to the parser, which
 * writes each command's row into the command (amc_flow_cmd.def); the planner
 * plays a command through its row's plan function and the checks before a
 * run read its row's refusals. Adding a command is an op in flow_types.h,
 * its parse and plan functions, and a row here; docs/flows.md's command
 * table is made from the rows (`amc flow commands --markdown`, compared by
 * test_flow_commands.sh). */
#include <stdlib.h>
#include <string.h>

#include "device/appium.h"
#include "device/device.h"
#include "flow/flow.h"
#include "flow/flow_cmds.h"
#include "planner/flow_commands.h"
#include "planner/flow_planner_int.h"

/* ---- refusals that depend on how the command is written ---- */

/* launchApp on Appium: only with permissions or arguments. */
static const char *sets_app(const amc_flow_cmd *c, const char *kind, const char *why)
{
	(void)kind;
	return c->nenv || c->nargs ? why : NULL;
}

/* pressKey on the sim: a key it lacks. */
static const char *key_not_on_sim(const amc_flow_cmd *c, const char *kind, const char *why)
{
	static const char *const SIM_KEYS[] = { "back", "home", "enter", "delete", "volume_up", "volume_down" };
	(void)kind;
	if (!c->text)
		return NULL;
	for (size_t i = 0; i < sizeof SIM_KEYS / sizeof SIM_KEYS[0]; i++)
		if (!strcmp(c->text, SIM_KEYS[i]))
			return NULL;
	return why;
}

/* setOrientation on Appium: /orientation has PORTRAIT and LANDSCAPE only
 * (op_set in appium.c); a ${...} is known only when it runs. */
static const char *turns_beyond_landscape(const amc_flow_cmd *c, const char *kind, const char *why)
{
	(void)kind;
	return c->text && !strstr(c->text, "${") && amc_orientation_parse(c->text) > 1 ? why : NULL;
}

/* Airplane mode, media and dark mode on Appium: `mobile:` scripts of one
 * platform's driver (appium_set.c), so the refusal is the platform's
 * ("appium-ios" has no airplane switch; plain "appium" names how to say
 * which platform). Other kinds: the row's text. */
static const char *by_platform(const char *kind, const char *why, amc_dev_setting what)
{
	return strncmp(kind, "appium", 6) ? why : amc_appium_kind_cannot(kind, what);
}
static const char *appium_airplane(const amc_flow_cmd *c, const char *kind, const char *why)
{
	(void)c;
	return by_platform(kind, why, AMC_SET_AIRPLANE);
}
static const char *appium_media(const amc_flow_cmd *c, const char *kind, const char *why)
{
	(void)c;
	return by_platform(kind, why, AMC_SET_ADD_MEDIA);
}
static const char *appium_dark(const amc_flow_cmd *c, const char *kind, const char *why)
{
	(void)c;
	return by_platform(kind, why, AMC_SET_DARK_MODE);
}

/* ---- the table ---- */

#define SELECTOR_BARE(n) "needs a selector: `- " n ": \"Save\"` or `- " n ": {id: \"save\"}`"

static const char *const HIDE_KEYBOARD_ALIASES[] = { "hide keyboard", NULL }; /* YamlFluentCommand's other spelling */

/* In the order of the supported list and of docs/flows.md's table. A row
 * whose doc is NULL shares the line of the row above it (its name joins that
 * line's command column); `action` is a form of the rows flagged
 * AMC_FLOW_CMDF_ACTION and has no line. */
static const amc_flow_cmd_def COMMANDS[] = {
	{ "launchApp", NULL, AMC_FLOW_LAUNCH_APP, amc_flow_parse_launch_app, amc_flow_describe_launch_app, fp_plan_launch,
	  { NULL, NULL, "amc's Appium driver does not set an app's permissions or launch arguments yet" }, sets_app,
	  AMC_FLOW_CMDF_APP, NULL,
	  "bare, `APP_ID`, `{appId, clearState, clearKeychain, stopApp, permissions, arguments, "
	  "optional}` | `manage_app clear_state` first with `clearState`; `launch_app`; `stopApp: false` "
	  "leaves an app already in front alone; `clearKeychain` (no keychain on Android) is noted in the "
	  "step. `permissions` (`{NAME: allow/deny/unset}`, Maestro's names `all`, `camera`, `location`, "
	  "... or an Android permission) are set before the launch: adb `pm grant`/`pm revoke` of the "
	  "Android permissions Maestro's AndroidDriver maps each name to (`all`: what `dumpsys package` "
	  "lists as requested; errors ignored, as Maestro does); the sim keeps them in its state "
	  "(`permissions`). `arguments` (`{KEY: VALUE}`, `${...}` filled) start the app with them: adb "
	  "`am start -n` its launcher activity (`cmd package resolve-activity`) with intent extras typed "
	  "from the text (`true`/`false` `--ez`, whole numbers `--ei`, else `--es`); the sim keeps them "
	  "(`launch_arguments`). Known difference: without `permissions`, Maestro grants all of them; amc "
	  "leaves the app's permissions as they are. Appium: refused before the run when either is given "
	  "| test_flow_cmds; test_flow_language (contacts.yaml onFlowStart); test_flow_device.sh" },
	{ "tapOn", NULL, AMC_FLOW_TAP_ON, amc_flow_parse_selector_cmd, amc_flow_describe_selector, fp_plan_tap,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_POINT, SELECTOR_BARE("tapOn"),
	  "selector, `point:`, `repeat:`, `delay:`, `retryTapIfNoChange:`, `waitToSettleTimeoutMs:`, "
	  "`optional:` | `tap` at the element's centre (repeat: that many taps, with a `wait` of `delay` ms "
	  "between each two, as Maestro's TapRepeat; retryTapIfNoChange: one more tap when the screen did not "
	  "change). `waitUntilVisible: true` is accepted with an `ignored` warning (amc taps once the screen has "
	  "settled) | test_flow_planner; settings.yaml (repeat: 3)" },
	{ "longPressOn", NULL, AMC_FLOW_LONG_PRESS_ON, amc_flow_parse_selector_cmd, amc_flow_describe_selector, fp_plan_tap,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_POINT, SELECTOR_BARE("longPressOn"),
	  "as `tapOn` | `long_press` | test_flow_planner" },
	{ "inputText", NULL, AMC_FLOW_INPUT_TEXT, amc_flow_parse_input_text, amc_flow_describe_text, fp_plan_input_text,
	  { NULL, NULL, NULL }, NULL,
	  0, "needs a text: `- inputText: \"hello\"`",
	  "`TEXT` or `{text}` | `type_text` | contacts.yaml" },
	{ "pressKey", NULL, AMC_FLOW_PRESS_KEY, amc_flow_parse_press_key, amc_flow_describe_press_key, fp_plan_press_key,
	  { "the sim has the back, home, enter, delete (Backspace) and volume keys only", NULL, NULL }, key_not_on_sim,
	  0, "needs a key: `- pressKey: Enter`",
	  "`Enter`, `Backspace`, `Back`, `Home`, `Lock`, `Power`, `Tab`, `Escape`, `Volume Up`, `Volume "
	  "Down`, `Remote Dpad Up/Down/Left/Right/Center`, `Remote Media Play "
	  "Pause/Stop/Next/Previous/Rewind/Fast Forward` | `press_key`; adb and Appium send the Android "
	  "key code; the sim has back, home, enter, delete and the volume keys (a level its state shows; "
	  "others are refused before the run) | test_flow_cmds, test_flow_resolve" },
	{ "back", NULL, AMC_FLOW_BACK, amc_flow_parse_bare, NULL, fp_plan_back,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_ACTION, NULL,
	  "bare | `press_key back` | contacts.yaml" },
	{ "scroll", NULL, AMC_FLOW_SCROLL, amc_flow_parse_bare, NULL, fp_plan_scroll,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_ACTION, NULL,
	  "bare | `swipe` up in the middle | settings.yaml" },
	{ "swipe", NULL, AMC_FLOW_SWIPE, amc_flow_parse_swipe, amc_flow_describe_swipe, fp_plan_swipe,
	  { NULL, NULL, NULL }, NULL,
	  0, "needs a mapping: `- swipe: {direction: UP}`",
	  "`{direction}`, `{start, end}` (percent or pixels), `{from: SELECTOR, direction}`, `duration`, "
	  "`waitToSettleTimeoutMs`; `from` with `start`/`end` is a coordinate swipe and `from` is "
	  "dropped, as YamlSwipeDeserializer drops it | `swipe` | test_flow_planner, test_flow_cmds" },
	{ "scrollUntilVisible", NULL, AMC_FLOW_SCROLL_UNTIL_VISIBLE, amc_flow_parse_scroll_until_visible, amc_flow_describe_scroll_until_visible, fp_plan_scroll_until,
	  { NULL, NULL, NULL }, NULL,
	  0, "needs a mapping: `- scrollUntilVisible: {element: \"X\"}`",
	  "`{element, direction, timeout, speed, visibilityPercentage, centerElement, "
	  "waitToSettleTimeoutMs, optional}` | `swipe` until the element shows (at least "
	  "`visibilityPercentage` of it on screen); speed sets the swipe's duration; `centerElement` is "
	  "accepted, the element is not re-centred (an `ignored` warning says so) | settings.yaml" },
	{ "assertVisible", NULL, AMC_FLOW_ASSERT_VISIBLE, amc_flow_parse_selector_cmd, amc_flow_describe_selector, fp_plan_assert,
	  { NULL, NULL, NULL }, NULL,
	  0, SELECTOR_BARE("assertVisible"),
	  "selector | decided from the UI tree, waiting | test_flow_planner; contacts.yaml" },
	{ "assertNotVisible", NULL, AMC_FLOW_ASSERT_NOT_VISIBLE, amc_flow_parse_selector_cmd, amc_flow_describe_selector, fp_plan_assert,
	  { NULL, NULL, NULL }, NULL,
	  0, SELECTOR_BARE("assertNotVisible"),
	  NULL },
	{ "waitForAnimationToEnd", NULL, AMC_FLOW_WAIT_FOR_ANIMATION, amc_flow_parse_wait_anim, amc_flow_describe_wait_anim, fp_plan_wait_anim,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  "bare or `{timeout}` | `wait` (the runner's settling does the rest) | test_flow_cmds" },
	{ "takeScreenshot", NULL, AMC_FLOW_TAKE_SCREENSHOT, amc_flow_parse_screenshot, amc_flow_describe_screenshot, fp_plan_take_screenshot,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  "`NAME` or `{path, cropOn, optional, label}` (YamlTakeScreenshot) | `screenshot`: with a name, "
	  "the screen is also kept as the task's file `shot-NAME.png` (Maestro writes `NAME.png`; "
	  "characters other than letters, digits, `.`, `_`, `-` become `_`); `cropOn` (a selector, waited "
	  "for as assertVisible waits) crops it to that element's bounds, as Orchestra's "
	  "`takeScreenshotCommand`; an element with no size fails the step | settings.yaml; "
	  "test_flow_media.sh" },
	{ "eraseText", NULL, AMC_FLOW_ERASE_TEXT, amc_flow_parse_erase_text, amc_flow_describe_number, fp_plan_erase,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  "bare (50), `N` or `{charactersToErase}` | `press_key delete` N times | contacts.yaml; "
	  "test_tools" },
	{ "runFlow", NULL, AMC_FLOW_RUN_FLOW, amc_flow_parse_run_flow, amc_flow_describe_block, fp_plan_block,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_SUBFLOW | AMC_FLOW_CMDF_BLOCK, "needs a file or commands: `- runFlow: login.yaml`",
	  "see *Sub-flows and flow control* | their commands | control.yaml, settings.yaml, "
	  "fail-nested.yaml; test_flow_resolve" },
	{ "repeat", NULL, AMC_FLOW_REPEAT, amc_flow_parse_repeat, amc_flow_describe_block, fp_plan_block,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_BLOCK, "needs a mapping: `- repeat: {times: 3, commands: [...]}`",
	  NULL },
	{ "retry", NULL, AMC_FLOW_RETRY, amc_flow_parse_retry, amc_flow_describe_block, fp_plan_block,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_SUBFLOW | AMC_FLOW_CMDF_BLOCK, "needs a mapping: `- retry: {maxRetries: 3, commands: [...]}`",
	  NULL },
	{ "extendedWaitUntil", NULL, AMC_FLOW_EXTENDED_WAIT, amc_flow_parse_ext_wait, amc_flow_describe_block, fp_plan_ext_wait,
	  { NULL, NULL, NULL }, NULL,
	  0, "needs a mapping: `- extendedWaitUntil: {visible: \"Done\", timeout: 10000}`",
	  "`{visible \\| notVisible, timeout}` | decided, re-observing up to the timeout | settings.yaml" },
	{ "stopApp", NULL, AMC_FLOW_STOP_APP, amc_flow_parse_app_cmd, amc_flow_describe_launch_app, fp_plan_stop_app,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_APP, NULL,
	  "bare or `APP_ID` | `manage_app stop`/`kill`: sim goes to the launcher when the app is in "
	  "front; adb `am force-stop` (`am kill` first for killApp); Appium `mobile: terminateApp` | "
	  "settings.yaml, control.yaml" },
	{ "killApp", NULL, AMC_FLOW_KILL_APP, amc_flow_parse_app_cmd, amc_flow_describe_launch_app, fp_plan_kill_app,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_APP, NULL,
	  NULL },
	{ "clearState", NULL, AMC_FLOW_CLEAR_STATE, amc_flow_parse_app_cmd, amc_flow_describe_launch_app, fp_plan_clear_state,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_APP, NULL,
	  "bare or `APP_ID` | `manage_app clear_state`: the sim puts that app's data back to factory "
	  "(Contacts: contacts; Notes: notes; Settings: toggles and Wi-Fi); adb `pm clear`; Appium "
	  "`mobile: clearApp` | settings.yaml; test_flow_language (airplane mode)" },
	{ "clearKeychain", NULL, AMC_FLOW_CLEAR_KEYCHAIN, amc_flow_parse_bare, NULL, fp_plan_clear_keychain,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_ACTION, NULL,
	  "bare | decided: nothing to clear on Android, said so | contacts.yaml" },
	{ "openLink", NULL, AMC_FLOW_OPEN_LINK, amc_flow_parse_open_link, amc_flow_describe_text, fp_plan_open_link,
	  { NULL, NULL, NULL }, NULL,
	  0, "needs a link: `- openLink: https://example.com`",
	  "`LINK` or `{link, autoVerify, browser}` | `manage_app open_link` (`autoVerify`, `browser`: "
	  "accepted with an `ignored` warning, the link opens as the system resolves it): adb `am start -a "
	  "VIEW -d LINK`; Appium `mobile: deepLink`; the sim opens `sim://contacts`, `sim://notes`, "
	  "`sim://settings` | control.yaml; test_tools" },
	{ "inputRandomText", NULL, AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, fp_plan_input_random,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  "bare or `{length}` (default 8) | `type_text` of a value from a generator seeded by the task "
	  "id; the value is in the step's args | test_flow_cmds" },
	{ "inputRandomNumber", NULL, AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, fp_plan_input_random,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  NULL },
	{ "inputRandomEmail", NULL, AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, fp_plan_input_random,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  "bare | as above | contacts.yaml (person name)" },
	{ "inputRandomPersonName", NULL, AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, fp_plan_input_random,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  NULL },
	{ "hideKeyboard", HIDE_KEYBOARD_ALIASES, AMC_FLOW_HIDE_KEYBOARD, amc_flow_parse_bare, NULL, fp_plan_hide_keyboard,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_ACTION, NULL,
	  "bare | `press_key hide_keyboard`: the sim hides its keyboard; adb presses back only when "
	  "`dumpsys input_method` shows the keyboard; Appium `hide_keyboard` | contacts.yaml" },
	{ "pasteText", NULL, AMC_FLOW_PASTE_TEXT, amc_flow_parse_bare, NULL, fp_plan_paste,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_ACTION, NULL,
	  "bare | `type_text` of `maestro.copiedText` | contacts.yaml" },
	{ "copyTextFrom", NULL, AMC_FLOW_COPY_TEXT_FROM, amc_flow_parse_selector_cmd, amc_flow_describe_selector, fp_plan_copy,
	  { NULL, NULL, NULL }, NULL,
	  0, SELECTOR_BARE("copyTextFrom"),
	  "selector | decided: keeps the element's text (text, else content description, else hint) | "
	  "contacts.yaml" },
	{ "setClipboard", NULL, AMC_FLOW_SET_CLIPBOARD, amc_flow_parse_text_cmd, amc_flow_describe_text, fp_plan_set_clipboard,
	  { NULL, NULL, NULL }, NULL,
	  0, "needs a text: `- setClipboard: \"hello\"`",
	  "`TEXT` | decided: keeps the text | contacts.yaml" },
	{ "doubleTapOn", NULL, AMC_FLOW_DOUBLE_TAP_ON, amc_flow_parse_selector_cmd, amc_flow_describe_selector, fp_plan_tap,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_POINT, SELECTOR_BARE("doubleTapOn"),
	  "as `tapOn` | one `tap` step with `count: 2`, one gesture: the sim taps twice in one call (no "
	  "frame between); adb runs `input tap X Y; input tap X Y` in one shell call (no adb round trip "
	  "between, but each `input` starts a process: on a slow phone the pair may exceed Android's 300 "
	  "ms double-tap window); Appium taps the element twice | settings.yaml; test_flow_device.sh" },
	{ "evalScript", NULL, AMC_FLOW_EVAL_SCRIPT, amc_flow_parse_text_cmd, amc_flow_describe_text, fp_plan_eval_script,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_JS, "needs a script: `- evalScript: ${output.n = 1}`",
	  "`${...}` / a file with `env:` and `when:` | decided by the JavaScript engine (amc-js) | "
	  "test_flow_js; scripts.yaml in test_flow_language.sh" },
	{ "runScript", NULL, AMC_FLOW_RUN_SCRIPT, amc_flow_parse_run_script, amc_flow_describe_block, fp_plan_run_script,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_SCRIPT | AMC_FLOW_CMDF_JS, "needs a file: `- runScript: setup.js`",
	  NULL },
	{ "assertTrue", NULL, AMC_FLOW_ASSERT_TRUE, amc_flow_parse_assert_true, amc_flow_describe_text, fp_plan_assert_true,
	  { NULL, NULL, NULL }, NULL,
	  0, "needs a condition: `- assertTrue: ${output.n == 1}`",
	  "`TEXT` or `{condition}` | decided: truthy once interpolated (an expression goes to amc-js) | "
	  "test_flow_interp, test_flow_js, scripts.yaml" },
	{ "assertWithAI", NULL, AMC_FLOW_ASSERT_WITH_AI, amc_flow_parse_ai, amc_flow_describe_text, fp_plan_ai,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_AI, "needs an assertion: `- assertWithAI: {assertion: \"...\"}`",
	  "`{assertion}`, bare, `{query, outputVariable}` (the assertions optional by default, as in "
	  "Maestro) | decided by the model a goal would use (`planner.provider`, `planner.model`): one "
	  "forced tool call on the step's Scene and screenshot (see *AI commands*); without a model, "
	  "refused before the run naming file and line; `amc flow check` reports it as `needs-model`, an "
	  "external input like Maestro's `MAESTRO_CLI_AI_KEY` (the file counts with those that only lack "
	  "inputs) | test_flow_ai.sh, test_ai_judge" },
	{ "assertNoDefectsWithAI", NULL, AMC_FLOW_ASSERT_NO_DEFECTS_WITH_AI, amc_flow_parse_ai, NULL, fp_plan_ai,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_AI, NULL,
	  NULL },
	{ "extractTextWithAI", NULL, AMC_FLOW_EXTRACT_TEXT_WITH_AI, amc_flow_parse_ai, amc_flow_describe_text, fp_plan_ai,
	  { NULL, NULL, NULL }, NULL,
	  AMC_FLOW_CMDF_AI, "needs a query: `- extractTextWithAI: {query: \"...\", outputVariable: X}`",
	  NULL },
	{ "action", NULL, -1, amc_flow_parse_action, NULL, NULL,
	  { NULL, NULL, NULL }, NULL,
	  0, "needs an action: `- action: back`",
	  NULL },
	{ "setLocation", NULL, AMC_FLOW_SET_LOCATION, amc_flow_parse_device_only, NULL, fp_plan_location,
	  { NULL, "adb cannot set a phone's location without a mock-location app on it", NULL }, NULL,
	  0, NULL,
	  "`{latitude, longitude}` (YamlSetLocation); `{points: [\"LAT,LON\", ...], speed}` "
	  "(YamlTravelCommand) | `set_device location`, once per point for travel: the sim keeps it in "
	  "its state (`amc sim state`: `location`); Appium `POST /location` (its geolocation: "
	  "UiAutomator2 through Appium Settings' mock location, XCUITest on simulators); refused on adb "
	  "before the run (a real phone needs a mock-location app) | test_flow_device.sh; test_appium" },
	{ "travel", NULL, AMC_FLOW_TRAVEL, amc_flow_parse_device_only, NULL, fp_plan_travel,
	  { NULL, "adb cannot set a phone's location without a mock-location app on it", NULL }, NULL,
	  0, NULL,
	  NULL },
	{ "addMedia", NULL, AMC_FLOW_ADD_MEDIA, amc_flow_parse_device_only, NULL, fp_plan_add_media,
	  { NULL, NULL, NULL }, appium_media,
	  0, NULL,
	  "`[files]` or `{files}` (YamlAddMedia), relative to the flow file | `set_device add_media`, once"
	  " per file: the sim's Files app lists it; adb `push FILE /sdcard/Pictures/NAME` and a "
	  "`MEDIA_SCANNER_SCAN_FILE` broadcast; Appium `appium/device/push_file` (base64, at most 64 MiB):"
	  " on Android to `/sdcard/Pictures/NAME` (UiAutomator2 scans it into the gallery), on iOS as a "
	  "bare name (XCUITest adds it to a simulator's Photos with `simctl addmedia`) | "
	  "test_flow_device.sh; test_appium (what is asked)" },
	{ "startRecording", NULL, AMC_FLOW_START_RECORDING, amc_flow_parse_device_only, amc_flow_describe_text, fp_plan_start_recording,
	  { NULL, NULL, NULL }, NULL,
	  0, "needs a path: `- startRecording: checkout` (the recording's name)",
	  "`PATH` or `{path, optional, label}` (YamlStartRecording; the path is required); "
	  "`stopRecording` bare or `{optional, label}` | `record start/stop`: the recording is the task's "
	  "file `rec-PATH.apng` or `rec-PATH.mp4`, listed by `amc show` (\"video\"), the TUI's step "
	  "(\"recording:\") and the HTML report (played in the page up to 16 MiB, linked above). The sim "
	  "keeps every distinct frame it renders between the two (settling frames included, an unchanged "
	  "screen once, each shown for the sim time until the next, at least 150 ms) as an animated PNG: "
	  "Firefox and Chromium play it, `ffplay` plays it, any PNG viewer shows its first frame (no "
	  "video encoder needed). adb: `screenrecord --time-limit 180 /sdcard/amc-recording.mp4` started "
	  "detached, stopped with `pkill -INT screenrecord`, then `adb pull` (MP4 as the phone encodes "
	  "it). Appium: `appium/start_recording_screen`, `stop_recording_screen` (its base64 MP4) | "
	  "test_flow_media.sh; test_apng" },
	{ "stopRecording", NULL, AMC_FLOW_STOP_RECORDING, amc_flow_parse_device_only, NULL, fp_plan_stop_recording,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  NULL },
	{ "setAirplaneMode", NULL, AMC_FLOW_SET_AIRPLANE_MODE, amc_flow_parse_device_only, NULL, fp_plan_airplane,
	  { NULL, NULL, NULL }, appium_airplane,
	  0, NULL,
	  "`enabled`/`disabled` or `{value}` (YamlSetAirplaneModeDeserializer); bare | `set_device "
	  "airplane on/off/toggle`: the sim's Settings toggle (and the status bar); adb `cmd connectivity "
	  "airplane-mode enable/disable` (Android 11 or later; toggle reads `settings get global "
	  "airplane_mode_on`); Appium on Android (UiAutomator2) `mobile: setConnectivity {airplaneMode}`, "
	  "toggle reading `mobile: getConnectivity {services: [airplaneMode]}`; refused before the run on "
	  "iOS (XCUITest has no command: iOS lets no test switch it) | test_flow_device.sh; "
	  "test_appium_set, test_appium (what is asked)" },
	{ "toggleAirplaneMode", NULL, AMC_FLOW_TOGGLE_AIRPLANE_MODE, amc_flow_parse_device_only, NULL, fp_plan_toggle_airplane,
	  { NULL, NULL, NULL }, appium_airplane,
	  0, NULL,
	  NULL },
	{ "setOrientation", NULL, AMC_FLOW_SET_ORIENTATION, amc_flow_parse_device_only, NULL, fp_plan_orientation,
	  { NULL, NULL, "Appium turns the screen to PORTRAIT or LANDSCAPE (LANDSCAPE_LEFT) only" }, turns_beyond_landscape,
	  0, NULL,
	  "`PORTRAIT`, `LANDSCAPE_LEFT`, `LANDSCAPE_RIGHT`, `UPSIDE_DOWN` (any case, camelCase too) or "
	  "`{orientation}` | `set_device orientation`: the sim turns (its screen size swaps: 1080x2400 "
	  "becomes 2400x1080 in screenshots, the tree and taps, and its screens lay out again); adb "
	  "`settings put system accelerometer_rotation 0` then `user_rotation N` (0-3, as Android's "
	  "ROTATION_*); Appium `POST /orientation` with `PORTRAIT` or `LANDSCAPE` (LANDSCAPE_LEFT), the "
	  "only two that endpoint has: `LANDSCAPE_RIGHT` and `UPSIDE_DOWN` are refused before the run on "
	  "Appium | test_flow_device.sh; test_appium" },
	{ "setPermissions", NULL, AMC_FLOW_SET_PERMISSIONS, amc_flow_parse_set_permissions, amc_flow_describe_set_permissions, fp_plan_set_permissions,
	  { NULL, NULL, "amc's Appium driver does not set an app's permissions yet" }, NULL,
	  AMC_FLOW_CMDF_APP, "needs a mapping: `- setPermissions: {permissions: {all: allow}}`",
	  "`{appId, permissions: {NAME: allow/deny/unset}}` (Maestro 2.1; `appId` defaults to the flow's) "
	  "| `manage_app` with the flow-only op `permissions`: what `launchApp`'s `permissions` do (adb "
	  "`pm grant`/`pm revoke`; the sim's state), without launching; refused before the run on Appium "
	  "| test_flow_cmds; test_flow_device.sh" },
	{ "inputRandomCityName", NULL, AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, fp_plan_input_random,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  "bare (Maestro 2.x, DataFaker-backed there) | as `inputRandomText`, from short lists of cities, countries "
	  "and colour names | test_flow_cmds" },
	{ "inputRandomCountryName", NULL, AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, fp_plan_input_random,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  NULL },
	{ "inputRandomColorName", NULL, AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, fp_plan_input_random,
	  { NULL, NULL, NULL }, NULL,
	  0, NULL,
	  NULL },
	{ "assertScreenshot", NULL, AMC_FLOW_ASSERT_SCREENSHOT, amc_flow_parse_screenshot, amc_flow_describe_screenshot, fp_plan_assert_screenshot,
	  { NULL, NULL, NULL }, NULL,
	  0, "needs a reference: `- assertScreenshot: home.png`",
	  "`PATH` or `{path, thresholdPercentage, cropOn, optional, label}` (YamlAssertScreenshot, "
	  "Maestro 2.2; threshold 95 by default, a number 0-100 or `${...}`) | `assert_screenshot`: the "
	  "screen (cropped to `cropOn`'s element) against a reference PNG, compared in amc on pixels as "
	  "Maestro's `ScreenshotMatch`: the sizes must be equal (\"size mismatch\"), a pixel differs when "
	  "its RGB distance is over 0.1 of the largest, and at least `thresholdPercentage` % of the "
	  "pixels must not differ. The reference is looked for as Orchestra does: beside the flow file "
	  "(`PATH`, `.png` added when it has no image extension), then this task's `takeScreenshot` files "
	  "(`shot-PATH.png`), then `PATH` from where amc runs. A failure keeps `diff-PATH.png` (the "
	  "screen, differing pixels red) and names it. Every device kind that takes screenshots | "
	  "test_flow_media.sh; test_image" },
	{ "setDarkMode", NULL, AMC_FLOW_SET_DARK_MODE, amc_flow_parse_device_only, amc_flow_describe_text, fp_plan_set_dark_mode,
	  { NULL, NULL, NULL }, appium_dark,
	  0, "needs a value: `- setDarkMode: enabled`",
	  "`enabled`/`disabled` or `{value, optional, label}` (YamlSetDarkMode); bare or `{optional, "
	  "label}` (MaestroFlowParser's string commands) | `set_device dark_mode on/off/toggle`; the "
	  "assertions `get_device dark_mode` expecting on/off. The sim: Settings' Dark theme toggle "
	  "(Display), every screen drawn with the dark palette; adb `cmd uimode night yes/no` (Android 10 "
	  "or later), read back from `cmd uimode night` (\"Night mode: yes\"; auto and custom are neither "
	  "and fail the assertion); Appium by platform: Android (UiAutomator2) `mobile: setUiMode {mode: "
	  "night, value: yes/no}`, read with `mobile: getUiMode`; iOS (XCUITest) `mobile: setAppearance "
	  "{style: dark/light}`, read with `mobile: getAppearance` | test_flow_media.sh; test_appium_set, "
	  "test_appium (what is asked)" },
	{ "toggleDarkMode", NULL, AMC_FLOW_TOGGLE_DARK_MODE, amc_flow_parse_device_only, NULL, fp_plan_toggle_dark_mode,
	  { NULL, NULL, NULL }, appium_dark,
	  0, NULL,
	  NULL },
	{ "assertDarkMode", NULL, AMC_FLOW_ASSERT_DARK_MODE, amc_flow_parse_device_only, NULL, fp_plan_assert_dark_mode,
	  { NULL, NULL, NULL }, appium_dark,
	  0, NULL,
	  NULL },
	{ "assertLightMode", NULL, AMC_FLOW_ASSERT_LIGHT_MODE, amc_flow_parse_device_only, NULL, fp_plan_assert_light_mode,
	  { NULL, NULL, NULL }, appium_dark,
	  0, NULL,
	  NULL },
};

static const amc_flow_cmd_table TABLE = { COMMANDS, sizeof COMMANDS / sizeof COMMANDS[0] };

const amc_flow_cmd_table *amc_flow_commands(void)
{
	return &TABLE;
}

/* ---- the entry points that hand the table down ---- */

int amc_flow_parse_sub(const char *buf, size_t len, const char *path, int check_top, amc_flow *out, amc_err *e)
{
	return amc_flow_parse_in(&TABLE, buf, len, path, check_top, out, e);
}

int amc_flow_parse(const char *buf, size_t len, const char *path, amc_flow *out, amc_err *e)
{
	return amc_flow_parse_in(&TABLE, buf, len, path, 1, out, e);
}

int amc_flow_load(const char *path, amc_flow *out, amc_err *e)
{
	char *buf = NULL;
	size_t len = 0;
	memset(out, 0, sizeof *out);
	if (amc_flow_read(path, &buf, &len, e) != 0)
		return -1;
	int rc = amc_flow_parse(buf, len, path, out, e);
	free(buf);
	return rc;
}

const char *amc_flow_op_name(amc_flow_op op)
{
	const amc_flow_cmd_def *def = amc_flow_cmds_by_op(&TABLE, op);
	return def ? def->name : "?";
}

/* ---- the table as text ---- */

char *amc_flow_commands_list(void)
{
	amc_sb sb;
	amc_sb_init(&sb);
	for (size_t i = 0; i < TABLE.n; i++) {
		const amc_flow_cmd_def *d = &COMMANDS[i];
		if (!d->parse)
			continue;
		amc_sb_printf(&sb, "%s\n", d->name);
		for (const char *const *a = d->aliases; a && *a; a++)
			amc_sb_printf(&sb, "%s\n", *a);
	}
	return amc_sb_detach(&sb);
}

char *amc_flow_commands_markdown(void)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "| Command | Forms and options | On the device | Tests |\n"
			 "|---------|-------------------|---------------|-------|\n");
	for (size_t i = 0; i < TABLE.n; i++) {
		if (!COMMANDS[i].doc)
			continue;
		/* its name and those of the rows below that share its line */
		amc_sb_puts(&sb, "| ");
		for (size_t k = i; k < TABLE.n && (k == i || !COMMANDS[k].doc) && COMMANDS[k].op >= 0; k++) {
			amc_sb_printf(&sb, "%s`%s`", k > i ? ", " : "", COMMANDS[k].name);
			if (COMMANDS[k].flags & AMC_FLOW_CMDF_ACTION)
				amc_sb_printf(&sb, " (also `action: %s`)", COMMANDS[k].name);
		}
		amc_sb_printf(&sb, " | %s |\n", COMMANDS[i].doc);
	}
	return amc_sb_detach(&sb);
}
