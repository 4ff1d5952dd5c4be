/* flow_cmds.c - the Maestro command table and one parse function per command.
 * The YAML underneath (getters, FILE:LINE errors) is flow_yaml.c; the file
 * around the commands (config document, limits) is flow.c. Over 800 lines:
 * the table and the parsers of the commands not yet in flow_cmds_sel.c
 * (selectors) or flow_cmds_ctl.c (control flow); device and media commands
 * are the next family to move out. */
#include "flow/flow_cmds.h"

#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "device/device.h"
#include "util/sanitize.h"

#define read_options(y, m, cmd, supported, later, fn, ctx) \
	amc_flow_opts_read(y, m, cmd, supported, later, fn, ctx, &c->label)
#define shape_of amc_flow_shape
#define V_NONE AMC_FLOW_V_NONE
#define V_SCALAR AMC_FLOW_V_SCALAR
#define V_MAPPING AMC_FLOW_V_MAPPING
#define describe_selector amc_flow_describe_selector
#define describe_text amc_flow_describe_text

/* ---- the commands, in the order of the table ---- */

static int launch_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "appId"))
		return amc_flow_yaml_str(y, it->val, what, 0, &c->text);
	if (!strcmp(it->name, "clearState"))
		return amc_flow_yaml_bool(y, it->val, what, &c->clear_state);
	if (!strcmp(it->name, "clearKeychain"))
		return amc_flow_yaml_bool(y, it->val, what, &c->clear_keychain);
	if (!strcmp(it->name, "stopApp"))
		return amc_flow_yaml_bool(y, it->val, what, &c->stop_app);
	if (!strcmp(it->name, "optional"))
		return amc_flow_yaml_bool(y, it->val, what, &c->sel.optional);
	if (!strcmp(it->name, "permissions"))
		return amc_flow_kv_parse(y, it->val, what, &c->env, &c->nenv);
	if (!strcmp(it->name, "arguments")) {
		/* passed to the app: adb intent extras, the sim's state */
		if (amc_flow_yaml_is_null(it->val))
			return 0;
		return amc_flow_kv_parse(y, it->val, what, &c->args, &c->nargs);
	}
	return 1;
}

static int parse_launch_app(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			    amc_flow_cmd *c)
{
	c->stop_app = 1;
	int shape = shape_of(y, v, def->name, V_NONE | V_SCALAR | V_MAPPING, "takes an app id or a mapping");
	if (shape == V_SCALAR)
		return amc_flow_yaml_str(y, v, def->name, 0, &c->text);
	if (shape != V_MAPPING)
		return shape == V_NONE ? 0 : -1;
	return read_options(y, v, def->name,
			    "appId, clearState, clearKeychain, stopApp, permissions, arguments, optional, label", NULL,
			    launch_opt, c);
}

static int perm_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "appId"))
		return amc_flow_yaml_str(y, it->val, what, 0, &c->text);
	if (!strcmp(it->name, "permissions"))
		return amc_flow_kv_parse(y, it->val, what, &c->env, &c->nenv);
	if (!strcmp(it->name, "optional"))
		return amc_flow_yaml_bool(y, it->val, what, &c->sel.optional);
	return 1;
}

/* setPermissions (Maestro 2.1): {appId?, permissions: {NAME: allow|deny|unset}},
 * launchApp's permissions without the launch (seen in Rocket.Chat.ReactNative). */
static int parse_set_permissions(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
				 amc_flow_cmd *c)
{
	if (shape_of(y, v, def->name, V_MAPPING, "needs a mapping: {permissions: {all: allow}}") < 0)
		return -1;
	int rc = read_options(y, v, def->name, "appId, permissions, optional, label", NULL, perm_opt, c);
	if (rc == 0 && !c->nenv)
		rc = amc_flow_yaml_err(y, v, "setPermissions needs permissions: {NAME: allow|deny|unset}");
	return rc;
}

static void describe_set_permissions(amc_sb *sb, const amc_flow_cmd *c)
{
	if (c->text) {
		amc_sb_putc(sb, ' ');
		amc_sanitize_line(c->text, strlen(c->text), sb);
	}
	for (size_t i = 0; i < c->nenv && i < 4; i++) {
		amc_sb_printf(sb, "%s", i ? ", " : " ");
		amc_sanitize_line(c->env[i].name, strlen(c->env[i].name) > 40 ? 40 : strlen(c->env[i].name), sb);
		amc_sb_putc(sb, '=');
		amc_sanitize_line(c->env[i].value, strlen(c->env[i].value) > 40 ? 40 : strlen(c->env[i].value), sb);
	}
	if (c->nenv > 4)
		amc_sb_puts(sb, ", ...");
}

static void describe_launch_app(amc_sb *sb, const amc_flow_cmd *c)
{
	if (c->text) {
		amc_sb_putc(sb, ' ');
		amc_sanitize_line(c->text, strlen(c->text), sb);
	}
	if (c->clear_state)
		amc_sb_puts(sb, " (clear state)");
	if (!c->stop_app)
		amc_sb_puts(sb, " (no stop)");
}

/* tapOn, longPressOn, assertVisible, assertNotVisible: a selector. */
static int parse_selector_cmd(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			      amc_flow_cmd *c)
{
	unsigned f = AMC_FLOW_SEL_OPTIONAL | ((def->flags & AMC_FLOW_CMDF_POINT) ? AMC_FLOW_SEL_POINT : 0);
	return amc_flow_sel_parse_cmd(y, v, def->name, f, c);
}

static int input_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "optional"))
		return amc_flow_yaml_bool(y, it->val, what, &c->sel.optional);
	if (!strcmp(it->name, "text"))
		return amc_flow_yaml_str(y, it->val, what, 1, &c->text);
	/* YamlInputText.parse reads text and label from a mapping and ignores
	 * every other key (`inputText: {text: x, id: field}` types into the
	 * focused field); a mapping without text types "" there (below). */
	return 0;
}

static int parse_input_text(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			    amc_flow_cmd *c)
{
	int rc;
	/* An empty text, or a mapping without text: YamlInputText.parse gives
	 * InputTextCommand("") (getOrDefault("text", "")), which Maestro accepts
	 * and which types nothing; so does amc (seen in memverse_project). */
	if (v && v->type == YAML_MAPPING_NODE) {
		rc = read_options(y, v, def->name, "text, optional, label", NULL, input_opt, c);
		if (rc == 0 && !c->text)
			c->text = amc_xstrdup("");
	} else if (v && v->type == YAML_SCALAR_NODE && v->data.scalar.length == 0 &&
		   v->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
		c->text = amc_xstrdup(""); /* a quoted "": a bare `inputText:` is still refused */
		rc = 0;
	} else {
		rc = amc_flow_yaml_str(y, v, def->name, 1, &c->text);
	}
	return rc;
}

static int key_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "optional"))
		return amc_flow_yaml_bool(y, it->val, what, &c->sel.optional);
	return strcmp(it->name, "key") ? 1 : amc_flow_yaml_str(y, it->val, what, 0, &c->text);
}

static int parse_press_key(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			   amc_flow_cmd *c)
{
	const yaml_node_t *at = v;
	if (v && v->type == YAML_MAPPING_NODE) {
		if (read_options(y, v, def->name, "key, optional, label", NULL, key_opt, c) != 0)
			return -1;
		if (!c->text)
			return amc_flow_yaml_err(y, v, "pressKey needs key");
	} else if (amc_flow_yaml_str(y, v, def->name, 0, &c->text) != 0) {
		return -1;
	}
	amc_key k;
	if (amc_key_parse(c->text, &k) == 0) {
		free(c->text);
		c->text = amc_xstrdup(amc_key_name(k));
		return 0;
	}
	char *q = amc_sanitize_dup(c->text);
	amc_flow_yaml_err(y, at, "pressKey: unknown key '%s' (Enter, Backspace, Back, Home, Lock, Power, Tab, "
			  "Escape, Volume Up, Volume Down, Remote Dpad Up/Down/Left/Right/Center, Remote Media "
			  "Play Pause/Stop/Next/Previous/Rewind/Fast Forward)", q);
	free(q);
	return -1;
}

static void describe_press_key(amc_sb *sb, const amc_flow_cmd *c)
{
	amc_sb_printf(sb, " %s", c->text ? c->text : "?");
}

/* back, scroll, hideKeyboard, pasteText, ...: nothing, or a mapping of label
 * and optional. A label is taken whatever its shape, as it always was. */
static int label_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "optional"))
		return amc_flow_yaml_bool(y, it->val, what, &c->sel.optional);
	return strcmp(it->name, "label") ? 1 : 0;
}

int amc_flow_parse_bare(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	int shape = shape_of(y, v, def->name, V_NONE | V_MAPPING, "takes no value");
	if (shape != V_MAPPING)
		return shape == V_NONE ? 0 : -1;
	return read_options(y, v, def->name, "optional, label", NULL, label_opt, c);
}

static int erase_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "optional"))
		return amc_flow_yaml_bool(y, it->val, what, &c->sel.optional);
	return strcmp(it->name, "charactersToErase") ? 1 : amc_flow_yaml_int(y, it->val, what, 0, 10000, &c->number);
}

/* eraseText, eraseText: N, eraseText: {charactersToErase: N}; Maestro's default is 50. */
static int parse_erase_text(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			    amc_flow_cmd *c)
{
	c->number = 50;
	int shape = shape_of(y, v, def->name, V_NONE | V_SCALAR | V_MAPPING, "takes a count or {charactersToErase: N}");
	if (shape == V_SCALAR)
		return amc_flow_yaml_int(y, v, def->name, 0, 10000, &c->number);
	if (shape != V_MAPPING)
		return shape == V_NONE ? 0 : -1;
	return read_options(y, v, def->name, "charactersToErase, optional, label", NULL, erase_opt, c);
}

static void describe_number(amc_sb *sb, const amc_flow_cmd *c)
{
	amc_sb_printf(sb, " %d", c->number);
}

typedef struct swipe_ctx {
	amc_flow_cmd *c;
	int has_start, has_end, has_from, sp, ep;
} swipe_ctx;

static int swipe_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	swipe_ctx *k = ctx;
	amc_flow_cmd *c = k->c;
	if (!strcmp(it->name, "direction"))
		return amc_flow_direction(y, it->val, what, &c->direction);
	if (!strcmp(it->name, "start")) {
		k->has_start = 1;
		return amc_flow_yaml_point(y, it->val, what, &c->sx, &c->sy, &k->sp);
	}
	if (!strcmp(it->name, "end")) {
		k->has_end = 1;
		return amc_flow_yaml_point(y, it->val, what, &c->ex, &c->ey, &k->ep);
	}
	if (!strcmp(it->name, "from")) {
		k->has_from = 1;
		return amc_flow_sel_parse(y, it->val, what, AMC_FLOW_SEL_NESTED, &c->sel);
	}
	if (!strcmp(it->name, "duration"))
		return amc_flow_yaml_int(y, it->val, what, 1, 60000, &c->number);
	if (!strcmp(it->name, "waitToSettleTimeoutMs"))
		return amc_flow_yaml_int(y, it->val, what, 0, 600000, &c->settle_ms);
	if (!strcmp(it->name, "optional"))
		return amc_flow_yaml_bool(y, it->val, what, &c->sel.optional);
	/* Seen in the wild (imboy-flutter) but not a Maestro swipe key: say what to write instead. */
	if (!strcmp(it->name, "startPoint") || !strcmp(it->name, "endPoint"))
		return amc_flow_yaml_err(y, it->key, "swipe: '%s' is not a Maestro swipe option; write "
					 "start: \"X%%,Y%%\" and end: \"X%%,Y%%\" (or pixels \"X,Y\") without direction",
					 it->name);
	return 1;
}

static int parse_swipe(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	if (shape_of(y, v, def->name, V_MAPPING, "needs a mapping: {direction: UP} or "
		     "{start: \"50%,80%\", end: \"50%,20%\"}") < 0)
		return -1;
	swipe_ctx k = { c, 0, 0, 0, 0, 0 };
	c->number = 400;
	int rc = read_options(y, v, def->name, "direction, start, end, from, duration, waitToSettleTimeoutMs, "
			      "optional, label", NULL, swipe_opt, &k);
	if (rc == 0 && c->direction && (k.has_start || k.has_end))
		rc = amc_flow_yaml_err(y, v, "swipe takes either direction or start and end, not both");
	/* from with start and end: YamlSwipeDeserializer takes start/end first
	 * and builds a coordinate swipe, never reading from; so does amc. */
	if (rc == 0 && k.has_from && !c->direction && (k.has_start || k.has_end)) {
		int opt = c->sel.optional;
		amc_selector_clear(&c->sel);
		c->sel.optional = opt;
		k.has_from = 0;
	}
	if (rc == 0 && k.has_from && !c->direction)
		rc = amc_flow_yaml_err(y, v, "swipe from: an element needs a direction (Maestro refuses it too: "
				       "YamlSwipeDeserializer takes direction, or start and end)");
	if (rc == 0 && !c->direction && (k.has_start != k.has_end || !k.has_start))
		rc = amc_flow_yaml_err(y, v, "swipe needs direction, or both start and end");
	if (rc == 0 && k.has_start && k.sp != k.ep)
		rc = amc_flow_yaml_err(y, v, "swipe start and end must both be percentages or both pixels");
	c->percent = k.sp;
	return rc;
}

static void describe_swipe(amc_sb *sb, const amc_flow_cmd *c)
{
	const char *u = c->percent ? "%" : "";
	if (c->direction)
		amc_sb_printf(sb, " %s", c->direction);
	else
		amc_sb_printf(sb, " %d%s,%d%s -> %d%s,%d%s", c->sx, u, c->sy, u, c->ex, u, c->ey, u);
	if (c->sel.text || c->sel.id) {
		amc_sb_puts(sb, " from");
		amc_flow_describe_selector(sb, c);
	}
}

typedef struct scroll_ctx {
	amc_flow_cmd *c;
	int has_el;
} scroll_ctx;

static int scroll_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	scroll_ctx *k = ctx;
	amc_flow_cmd *c = k->c;
	if (!strcmp(it->name, "element")) {
		k->has_el = 1;
		int opt = c->sel.optional;
		int rc = amc_flow_sel_parse(y, it->val, what, AMC_FLOW_SEL_OPTIONAL, &c->sel);
		c->sel.optional |= opt;
		return rc;
	}
	if (!strcmp(it->name, "direction"))
		return amc_flow_direction(y, it->val, what, &c->direction);
	if (!strcmp(it->name, "timeout"))
		return amc_flow_yaml_int(y, it->val, what, 0, 3600000, &c->number);
	if (!strcmp(it->name, "optional")) {
		int o = 0;
		int rc = amc_flow_yaml_bool(y, it->val, what, &o);
		c->sel.optional |= o;
		return rc;
	}
	if (!strcmp(it->name, "centerElement"))
		return amc_flow_yaml_bool(y, it->val, what, &c->center);
	if (!strcmp(it->name, "speed")) {
		/* ScrollUntilVisibleCommand.speedToDuration: a speed over 100 gives a
		 * negative duration, which Maestro replaces by its shortest (40 ms);
		 * amc takes it as the fastest speed, 100. */
		int rc = amc_flow_yaml_int(y, it->val, what, 0, 1000000, &c->speed);
		if (rc == 0 && c->speed > 100)
			c->speed = 100;
		return rc;
	}
	if (!strcmp(it->name, "visibilityPercentage"))
		return amc_flow_yaml_int(y, it->val, what, 0, 100, &c->visibility);
	if (!strcmp(it->name, "waitToSettleTimeoutMs"))
		return amc_flow_yaml_int(y, it->val, what, 0, 600000, &c->settle_ms);
	return 1;
}

static int parse_scroll_until_visible(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
				      amc_flow_cmd *c)
{
	if (shape_of(y, v, def->name, V_MAPPING, "needs a mapping: {element: {text: \"About phone\"}, "
		     "direction: DOWN}") < 0)
		return -1;
	scroll_ctx k = { c, 0 };
	c->number = 20000;
	c->speed = 40;
	c->visibility = 100;
	int rc = read_options(y, v, def->name, "element, direction, timeout, speed, visibilityPercentage, "
			      "centerElement, waitToSettleTimeoutMs, optional, label", NULL, scroll_opt, &k);
	if (rc == 0 && !k.has_el)
		rc = amc_flow_yaml_err(y, v, "scrollUntilVisible needs element");
	if (rc == 0 && !c->direction)
		c->direction = amc_xstrdup("DOWN");
	return rc;
}

static void describe_scroll_until_visible(amc_sb *sb, const amc_flow_cmd *c)
{
	describe_selector(sb, c);
	amc_sb_printf(sb, " %s", c->direction ? c->direction : "DOWN");
}

static int wait_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	return strcmp(it->name, "timeout") ? 1 : amc_flow_yaml_int(y, it->val, what, 0, 3600000, &c->number);
}

static int parse_wait_anim(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			   amc_flow_cmd *c)
{
	c->number = 15000;
	/* YamlWaitForAnimationToEndCommand has no number form: Maestro refuses
	 * `waitForAnimationToEnd: 5000` too (seen in memverse_project). */
	int shape = shape_of(y, v, def->name, V_NONE | V_MAPPING, "takes nothing or {timeout: MS}; Maestro refuses "
			     "other forms too (YamlWaitForAnimationToEndCommand has no number form)");
	if (shape != V_MAPPING)
		return shape == V_NONE ? 0 : -1;
	return read_options(y, v, def->name, "timeout, label", NULL, wait_opt, c);
}

static void describe_wait_anim(amc_sb *sb, const amc_flow_cmd *c)
{
	amc_sb_printf(sb, " (timeout %d ms)", c->number);
}

static void describe_screenshot(amc_sb *sb, const amc_flow_cmd *c)
{
	if (c->text)
		describe_text(sb, c);
	if (c->direction)
		amc_sb_printf(sb, " (threshold %s %%)", c->direction);
	if (c->crop) {
		amc_sb_puts(sb, " cropped on");
		describe_selector(sb, c);
	}
}

/* `action: back` - a form Maestro's parser takes (its YAML command has an
 * `action` field) though its docs do not show it; the corpus uses it. */
static int parse_action(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	static const struct {
		const char *name;
		amc_flow_op op;
	} ACTIONS[] = { { "back", AMC_FLOW_BACK }, { "hideKeyboard", AMC_FLOW_HIDE_KEYBOARD },
			{ "scroll", AMC_FLOW_SCROLL }, { "clearKeychain", AMC_FLOW_CLEAR_KEYCHAIN },
			{ "pasteText", AMC_FLOW_PASTE_TEXT } };
	char *s = NULL;
	if (amc_flow_yaml_str(y, v, def->name, 0, &s) != 0)
		return -1;
	for (size_t i = 0; i < sizeof ACTIONS / sizeof ACTIONS[0]; i++) {
		if (!strcmp(s, ACTIONS[i].name)) {
			free(s);
			c->op = ACTIONS[i].op;
			return 0;
		}
	}
	free(s);
	char *q = amc_flow_yaml_quote(v);
	amc_flow_yaml_err(y, v, "action: unknown action '%s' (back, hideKeyboard, scroll, clearKeychain, pasteText)", q);
	free(q);
	return -1;
}

/* ---- the table ---- */

#define SELECTOR_BARE(n) "needs a selector: `- " n ": \"Save\"` or `- " n ": {id: \"save\"}`"
#define SEL_ROW(n, op, flags) { n, op, parse_selector_cmd, describe_selector, flags, SELECTOR_BARE(n), NULL }
#define BARE_ROW(n, op) { n, op, amc_flow_parse_bare, NULL, 0, NULL, NULL }
#define DEV_ROW(n, op) { n, op, amc_flow_parse_device_only, NULL, 0, NULL, NULL }
#define BLOCK AMC_FLOW_CMDF_BLOCK

static const amc_flow_cmd_def COMMANDS[] = {
	{ "launchApp", AMC_FLOW_LAUNCH_APP, parse_launch_app, describe_launch_app, 0, NULL, NULL },
	SEL_ROW("tapOn", AMC_FLOW_TAP_ON, AMC_FLOW_CMDF_POINT),
	SEL_ROW("longPressOn", AMC_FLOW_LONG_PRESS_ON, AMC_FLOW_CMDF_POINT),
	{ "inputText", AMC_FLOW_INPUT_TEXT, parse_input_text, describe_text, 0,
	  "needs a text: `- inputText: \"hello\"`", NULL },
	{ "pressKey", AMC_FLOW_PRESS_KEY, parse_press_key, describe_press_key, 0,
	  "needs a key: `- pressKey: Enter`", NULL },
	BARE_ROW("back", AMC_FLOW_BACK),
	BARE_ROW("scroll", AMC_FLOW_SCROLL),
	{ "swipe", AMC_FLOW_SWIPE, parse_swipe, describe_swipe, 0,
	  "needs a mapping: `- swipe: {direction: UP}`", NULL },
	{ "scrollUntilVisible", AMC_FLOW_SCROLL_UNTIL_VISIBLE, parse_scroll_until_visible,
	  describe_scroll_until_visible, 0, "needs a mapping: `- scrollUntilVisible: {element: \"X\"}`", NULL },
	SEL_ROW("assertVisible", AMC_FLOW_ASSERT_VISIBLE, 0),
	SEL_ROW("assertNotVisible", AMC_FLOW_ASSERT_NOT_VISIBLE, 0),
	{ "waitForAnimationToEnd", AMC_FLOW_WAIT_FOR_ANIMATION, parse_wait_anim, describe_wait_anim, 0, NULL,
	  NULL },
	{ "takeScreenshot", AMC_FLOW_TAKE_SCREENSHOT, amc_flow_parse_screenshot, describe_screenshot, 0, NULL, NULL },
	{ "eraseText", AMC_FLOW_ERASE_TEXT, parse_erase_text, describe_number, 0, NULL, NULL },
	{ "runFlow", AMC_FLOW_RUN_FLOW, amc_flow_parse_run_flow, amc_flow_describe_block,
	  AMC_FLOW_CMDF_SUBFLOW | BLOCK, "needs a file or commands: `- runFlow: login.yaml`", NULL },
	{ "repeat", AMC_FLOW_REPEAT, amc_flow_parse_repeat, amc_flow_describe_block, BLOCK,
	  "needs a mapping: `- repeat: {times: 3, commands: [...]}`", NULL },
	{ "retry", AMC_FLOW_RETRY, amc_flow_parse_retry, amc_flow_describe_block, AMC_FLOW_CMDF_SUBFLOW | BLOCK,
	  "needs a mapping: `- retry: {maxRetries: 3, commands: [...]}`", NULL },
	{ "extendedWaitUntil", AMC_FLOW_EXTENDED_WAIT, amc_flow_parse_ext_wait, amc_flow_describe_block, 0,
	  "needs a mapping: `- extendedWaitUntil: {visible: \"Done\", timeout: 10000}`", NULL },
	{ "stopApp", AMC_FLOW_STOP_APP, amc_flow_parse_app_cmd, describe_launch_app, 0, NULL, NULL },
	{ "killApp", AMC_FLOW_KILL_APP, amc_flow_parse_app_cmd, describe_launch_app, 0, NULL, NULL },
	{ "clearState", AMC_FLOW_CLEAR_STATE, amc_flow_parse_app_cmd, describe_launch_app, 0, NULL, NULL },
	BARE_ROW("clearKeychain", AMC_FLOW_CLEAR_KEYCHAIN),
	{ "openLink", AMC_FLOW_OPEN_LINK, amc_flow_parse_open_link, describe_text, 0,
	  "needs a link: `- openLink: https://example.com`", NULL },
	{ "inputRandomText", AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, 0, NULL, NULL },
	{ "inputRandomNumber", AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, 0, NULL, NULL },
	{ "inputRandomEmail", AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, 0, NULL, NULL },
	{ "inputRandomPersonName", AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, 0, NULL, NULL },
	BARE_ROW("hideKeyboard", AMC_FLOW_HIDE_KEYBOARD),
	BARE_ROW("hide keyboard", AMC_FLOW_HIDE_KEYBOARD), /* YamlFluentCommand's other spelling */
	BARE_ROW("pasteText", AMC_FLOW_PASTE_TEXT),
	SEL_ROW("copyTextFrom", AMC_FLOW_COPY_TEXT_FROM, 0),
	{ "setClipboard", AMC_FLOW_SET_CLIPBOARD, amc_flow_parse_text_cmd, describe_text, 0,
	  "needs a text: `- setClipboard: \"hello\"`", NULL },
	SEL_ROW("doubleTapOn", AMC_FLOW_DOUBLE_TAP_ON, AMC_FLOW_CMDF_POINT),
	{ "evalScript", AMC_FLOW_EVAL_SCRIPT, amc_flow_parse_text_cmd, describe_text, 0,
	  "needs a script: `- evalScript: ${output.n = 1}`", NULL },
	{ "runScript", AMC_FLOW_RUN_SCRIPT, amc_flow_parse_run_script, amc_flow_describe_block, AMC_FLOW_CMDF_SCRIPT,
	  "needs a file: `- runScript: setup.js`", NULL },
	{ "assertTrue", AMC_FLOW_ASSERT_TRUE, amc_flow_parse_assert_true, describe_text, 0,
	  "needs a condition: `- assertTrue: ${output.n == 1}`", NULL },
	{ "assertWithAI", AMC_FLOW_ASSERT_WITH_AI, amc_flow_parse_ai, describe_text, 0,
	  "needs an assertion: `- assertWithAI: {assertion: \"...\"}`", NULL },
	{ "assertNoDefectsWithAI", AMC_FLOW_ASSERT_NO_DEFECTS_WITH_AI, amc_flow_parse_ai, NULL, 0, NULL, NULL },
	{ "extractTextWithAI", AMC_FLOW_EXTRACT_TEXT_WITH_AI, amc_flow_parse_ai, describe_text, 0,
	  "needs a query: `- extractTextWithAI: {query: \"...\", outputVariable: X}`", NULL },
	{ "action", AMC_FLOW_BACK, parse_action, NULL, 0, "needs an action: `- action: back`", NULL },
	DEV_ROW("setLocation", AMC_FLOW_SET_LOCATION),
	DEV_ROW("travel", AMC_FLOW_TRAVEL),
	DEV_ROW("addMedia", AMC_FLOW_ADD_MEDIA),
	{ "startRecording", AMC_FLOW_START_RECORDING, amc_flow_parse_device_only, describe_text, 0,
	  "needs a path: `- startRecording: checkout` (the recording's name)", NULL },
	DEV_ROW("stopRecording", AMC_FLOW_STOP_RECORDING),
	DEV_ROW("setAirplaneMode", AMC_FLOW_SET_AIRPLANE_MODE),
	DEV_ROW("toggleAirplaneMode", AMC_FLOW_TOGGLE_AIRPLANE_MODE),
	DEV_ROW("setOrientation", AMC_FLOW_SET_ORIENTATION),
	{ "setPermissions", AMC_FLOW_SET_PERMISSIONS, parse_set_permissions, describe_set_permissions, 0,
	  "needs a mapping: `- setPermissions: {permissions: {all: allow}}`", NULL },
	/* Maestro 2.x's DataFaker-backed random inputs (Maestro pull request 2341). */
	{ "inputRandomCityName", AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, 0, NULL, NULL },
	{ "inputRandomCountryName", AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, 0, NULL, NULL },
	{ "inputRandomColorName", AMC_FLOW_INPUT_RANDOM, amc_flow_parse_random, NULL, 0, NULL, NULL },
	/* Maestro 2.2's visual comparison (YamlAssertScreenshot, Orchestra's
	 * assertScreenshotCommand) and Maestro 2.x's appearance commands
	 * (MaestroFlowParser's stringCommands: toggleDarkMode, assertDarkMode,
	 * assertLightMode; YamlSetDarkMode). */
	{ "assertScreenshot", AMC_FLOW_ASSERT_SCREENSHOT, amc_flow_parse_screenshot, describe_screenshot, 0,
	  "needs a reference: `- assertScreenshot: home.png`", NULL },
	{ "setDarkMode", AMC_FLOW_SET_DARK_MODE, amc_flow_parse_device_only, describe_text, 0,
	  "needs a value: `- setDarkMode: enabled`", NULL },
	DEV_ROW("toggleDarkMode", AMC_FLOW_TOGGLE_DARK_MODE),
	DEV_ROW("assertDarkMode", AMC_FLOW_ASSERT_DARK_MODE),
	DEV_ROW("assertLightMode", AMC_FLOW_ASSERT_LIGHT_MODE),
};

#define NCOMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

const amc_flow_cmd_def *amc_flow_cmds_table(size_t *n)
{
	*n = NCOMMANDS;
	return COMMANDS;
}

const amc_flow_cmd_def *amc_flow_cmds_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(COMMANDS[i].name, name))
			return &COMMANDS[i];
	return NULL;
}

const amc_flow_cmd_def *amc_flow_cmds_by_op(amc_flow_op op)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (COMMANDS[i].op >= 0 && COMMANDS[i].op == (int)op)
			return &COMMANDS[i];
	return NULL;
}

char *amc_flow_cmds_supported(void)
{
	amc_sb sb;
	amc_sb_init(&sb);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (!COMMANDS[i].parse)
			continue;
		if (sb.len)
			amc_sb_puts(&sb, ", ");
		amc_sb_puts(&sb, COMMANDS[i].name);
	}
	return amc_sb_detach(&sb);
}

/* A flow and its commands (a command owns its sub-flow: the two free
 * each other, so both live here). */
static void free_cmds(amc_flow_cmd *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		amc_flow_cmd_clear(&c[i]);
	free(c);
}

void amc_flow_free(amc_flow *f)
{
	if (!f)
		return;
	free_cmds(f->cmds, f->count);
	free_cmds(f->on_start, f->non_start);
	free_cmds(f->on_complete, f->non_complete);
	amc_flow_kv_free(f->env, f->nenv);
	for (size_t i = 0; i < f->ntags; i++)
		free(f->tags[i]);
	free(f->tags);
	free(f->notes);
	free(f->path);
	free(f->name);
	free(f->app_id);
	memset(f, 0, sizeof *f);
}

void amc_flow_cmd_clear(amc_flow_cmd *c)
{
	amc_selector_clear(&c->sel);
	free(c->text);
	free(c->direction);
	free(c->label);
	free(c->file);
	if (c->sub) {
		amc_flow_free(c->sub);
		free(c->sub);
	}
	free(c->script);
	for (size_t i = 0; i < c->nbody; i++)
		amc_flow_cmd_clear(&c->body[i]);
	free(c->body);
	amc_flow_kv_free(c->env, c->nenv);
	amc_flow_kv_free(c->args, c->nargs);
	amc_flow_cond_clear(&c->cond);
	memset(c, 0, sizeof *c);
}

/* Case-insensitive edit distance, capped: typos like tapon, assertVisable. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The known command nearest to name, or NULL when none is near. */
static const char *nearest(const char *name)
{
	const char *best = NULL;
	size_t bd = strlen(name) / 3 + 1; /* at most a third of the letters wrong */
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (!COMMANDS[i].parse)
			continue;
		size_t d = edit_distance(name, COMMANDS[i].name);
		if (d < bd || (d == bd && !best && d <= 2)) {
			bd = d;
			best = COMMANDS[i].name;
		}
	}
	/* a shortened name ("waitUntil" for extendedWaitUntil): a known command
	 * that ends with it, in any case, when it is at least 5 letters */
	size_t n = strlen(name);
	for (size_t i = 0; !best && n >= 5 && i < NCOMMANDS; i++) {
		size_t m = strlen(COMMANDS[i].name);
		if (COMMANDS[i].parse && m > n && !strcasecmp(COMMANDS[i].name + m - n, name))
			best = COMMANDS[i].name;
	}
	return best;
}

/* "unknown command 'X'" (with the nearest known one) or "command 'X' is not
 * supported yet"; the whole list is docs/flows.md's, not every message's. */
static int refuse(amc_flow_yaml *y, const yaml_node_t *name_node, const amc_flow_cmd_def *def)
{
	if (def) {
		char *supported = amc_flow_cmds_supported();
		amc_flow_yaml_err(y, name_node, "command '%s' is not supported yet%s%s (supported: %s)", def->name,
				  def->why ? ": " : "", def->why ? def->why : "", supported);
		free(supported);
		return -1;
	}
	char *q = amc_flow_yaml_quote(name_node);
	const char *near = name_node->type == YAML_SCALAR_NODE ? nearest(q) : NULL;
	if (near)
		amc_flow_yaml_err(y, name_node, "unknown command '%s' (did you mean '%s'?); not a Maestro command "
				  "either: Maestro's parser refuses it too", q, near);
	else
		amc_flow_yaml_err(y, name_node, "unknown command '%s': not a Maestro command either, Maestro's parser "
				  "refuses it too (docs/flows.md lists the commands amc reads)", q);
	free(q);
	return -1;
}

int amc_flow_cmds_parse(amc_flow_yaml *y, const yaml_node_t *n, amc_flow_cmd *c)
{
	const yaml_node_t *name_node, *val = NULL;
	memset(c, 0, sizeof *c);
	c->line = amc_flow_yaml_line(n);
	if (n->type == YAML_SCALAR_NODE) {
		name_node = n;
	} else if (n->type == YAML_MAPPING_NODE) {
		size_t cnt = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
		/* YamlFluentCommand has one field per command and no label or
		 * optional of its own: Jackson refuses such a sibling key too. */
		if (cnt != 1)
			return amc_flow_yaml_err(y, n, "a command is a mapping with exactly one key "
						 "(like `- tapOn: \"Save\"`), this one has %zu; Maestro refuses it too "
						 "(an option such as label or optional goes inside the command's "
						 "mapping: `- tapOn: {text: \"Save\", optional: true}`)", cnt);
		name_node = amc_flow_yaml_node(y, n->data.mapping.pairs.start->key);
		val = amc_flow_yaml_node(y, n->data.mapping.pairs.start->value);
		if (!name_node || name_node->type != YAML_SCALAR_NODE)
			return amc_flow_yaml_err(y, n, "a command name must be a plain word, got %s",
						 amc_flow_yaml_kind(name_node));
	} else {
		return amc_flow_yaml_err(y, n, "a command is a name (`- back`) or a one-key mapping "
					 "(`- tapOn: \"Save\"`), got a list");
	}
	const char *name = (const char *)name_node->data.scalar.value;
	const amc_flow_cmd_def *def = NULL;
	if (!memchr(name, '\0', name_node->data.scalar.length))
		def = amc_flow_cmds_find(name);
	if (!def || !def->parse)
		return refuse(y, name_node, def);
	/* `- tapOn` alone; `- tapOn:` gives a null value, which the parse function reports. */
	if (!val && n->type == YAML_SCALAR_NODE && def->bare)
		return amc_flow_yaml_err(y, n, "%s %s", def->name, def->bare);
	c->op = (amc_flow_op)def->op;
	int rc = def->parse(y, val, def, c);
	if (rc != 0)
		amc_flow_cmd_clear(c);
	return rc;
}

int amc_flow_cmds_parse_list(amc_flow_yaml *y, const yaml_node_t *seq, amc_flow_cmd **out, size_t *n)
{
	size_t cnt = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
	amc_flow_cmd *cmds = amc_xcalloc(cnt ? cnt : 1, sizeof *cmds);
	size_t done = 0;
	int rc = 0;
	for (; done < cnt && rc == 0; done++) {
		const yaml_node_t *item = amc_flow_yaml_node(y, seq->data.sequence.items.start[done]);
		rc = item ? amc_flow_cmds_parse(y, item, &cmds[done]) : amc_flow_yaml_err(y, seq, "internal: missing node");
	}
	if (rc != 0) {
		for (size_t i = 0; i < done; i++)
			amc_flow_cmd_clear(&cmds[i]);
		free(cmds);
		return -1;
	}
	*out = cmds;
	*n = cnt;
	return 0;
}
