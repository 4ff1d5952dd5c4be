/* flow_cmds.c - reading one command: the name looked up in the table handed
 * down (amc_flow_yaml.cmds), its row written into the command, its value
 * read by the row's parse function; the parse and describe functions of the
 * commands not in flow_cmds_sel.c (selectors) or flow_cmds_ctl.c (control
 * flow); a command's name and description from its row; freeing. The rows
 * are flow_commands.c's; the YAML underneath is flow_yaml.c, the file around
 * the commands (config document, limits) flow.c. Over 800 lines: forty
 * short parse functions of Maestro's simple commands, each beside the
 * others it shares helpers with; the device-settings family would move
 * out first, as it did for selectors and control flow. */
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

int amc_flow_parse_launch_app(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
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
int amc_flow_parse_set_permissions(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
				 amc_flow_cmd *c)
{
	if (shape_of(y, v, def->name, V_MAPPING, "needs a mapping: {permissions: {all: allow}}") < 0)
		return -1;
	int rc = read_options(y, v, def->name, "appId, permissions, optional, label", NULL, perm_opt, c);
	if (rc == 0 && !c->nenv)
		rc = amc_flow_yaml_err(y, v, "setPermissions needs permissions: {NAME: allow|deny|unset}");
	return rc;
}

void amc_flow_describe_set_permissions(amc_sb *sb, const amc_flow_cmd *c)
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

void amc_flow_describe_launch_app(amc_sb *sb, const amc_flow_cmd *c)
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
int amc_flow_parse_selector_cmd(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
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
	if (!strcmp(it->name, "label"))
		return 1; /* the step's description, as for every command */
	/* YamlInputText.parse reads text and label from a mapping and ignores
	 * every other key (`inputText: {text: x, id: field}` types into the
	 * focused field); a mapping without text types "" there (below). */
	char *q = amc_flow_yaml_quote(it->key);
	amc_flow_yaml_note(y, it->key, "inputText %s ignored (YamlInputText reads text and label only: "
			   "the text goes to the focused field)", q);
	free(q);
	return 0;
}

int amc_flow_parse_input_text(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
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

int amc_flow_parse_press_key(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
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

void amc_flow_describe_press_key(amc_sb *sb, const amc_flow_cmd *c)
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
int amc_flow_parse_erase_text(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
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

void amc_flow_describe_number(amc_sb *sb, const amc_flow_cmd *c)
{
	amc_sb_printf(sb, " %d", c->number);
}

#define SWIPE_MAX_OTHER 8

typedef struct swipe_ctx {
	amc_flow_cmd *c;
	int has_start, has_end, has_from, sp, ep;
	amc_flow_yaml_kv other[SWIPE_MAX_OTHER]; /* keys no swipe reads, settled after the walk (copies:
						  * the walk's array is freed, its nodes are the document's) */
	size_t nother;
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
	if (!strcmp(it->name, "label"))
		return 1;
	/* Any other key: whether Maestro refuses or ignores it depends on the
	 * swipe's form, known only after the walk (amc_flow_parse_swipe). */
	if (k->nother == SWIPE_MAX_OTHER)
		return amc_flow_yaml_err(y, it->key, "swipe: more than %d options no swipe reads", SWIPE_MAX_OTHER);
	k->other[k->nother++] = *it;
	return 0;
}

/* Keys no swipe reads. YamlSwipeDeserializer reads the keys it knows off the
 * tree and builds a directional or a coordinate swipe from them alone, so any
 * other key is ignored there (`percentage: 50` beside `direction`, seen in
 * Andersonfrfilho/cawme); only `direction` with `from` goes through Jackson's
 * convertValue to YamlSwipeElement, where an unknown key is an
 * UnrecognizedPropertyException. amc does the same, and notes what it ignores. */
static int swipe_other(amc_flow_yaml *y, const swipe_ctx *k, int element)
{
	for (size_t i = 0; i < k->nother; i++) {
		const amc_flow_yaml_kv *it = &k->other[i];
		char *q = amc_flow_yaml_quote(it->key);
		int rc = 0;
		if (element)
			rc = amc_flow_yaml_err(y, it->key, "swipe: unknown option '%s' (a swipe from an element takes "
					       "direction, from, duration, waitToSettleTimeoutMs, optional, label); "
					       "Maestro's parser refuses it too (an unknown key of YamlSwipeElement is "
					       "an UnrecognizedPropertyException)", q);
		else
			amc_flow_yaml_note(y, it->key, "swipe %s ignored (not a swipe option: Maestro's "
					   "YamlSwipeDeserializer reads direction or start/end, duration, label, "
					   "optional, waitToSettleTimeoutMs and ignores the rest)", q);
		free(q);
		if (rc)
			return rc;
	}
	return 0;
}

/* Neither direction nor start and end: Maestro refuses the swipe
 * (YamlSwipeDeserializer's IllegalArgumentException); startPoint/endPoint
 * (imboy-flutter) get a hint at what to write instead. */
static int swipe_neither(amc_flow_yaml *y, const yaml_node_t *v, const swipe_ctx *k)
{
	for (size_t i = 0; i < k->nother; i++)
		if (!strcmp(k->other[i].name, "startPoint") || !strcmp(k->other[i].name, "endPoint"))
			return amc_flow_yaml_err(y, k->other[i].key, "swipe: '%s' is not a Maestro swipe option; "
						 "write start: \"X%%,Y%%\" and end: \"X%%,Y%%\" (or pixels \"X,Y\") "
						 "without direction", k->other[i].name);
	return amc_flow_yaml_err(y, v, "swipe needs direction, or both start and end");
}

int amc_flow_parse_swipe(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	if (shape_of(y, v, def->name, V_MAPPING, "needs a mapping: {direction: UP} or "
		     "{start: \"50%,80%\", end: \"50%,20%\"}") < 0)
		return -1;
	swipe_ctx k = { .c = c };
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
	if (rc == 0 && !c->direction && !k.has_start && !k.has_end)
		rc = swipe_neither(y, v, &k);
	if (rc == 0 && !c->direction && k.has_start != k.has_end)
		rc = amc_flow_yaml_err(y, v, "swipe needs direction, or both start and end");
	if (rc == 0 && k.has_start && k.sp != k.ep)
		rc = amc_flow_yaml_err(y, v, "swipe start and end must both be percentages or both pixels");
	if (rc == 0)
		rc = swipe_other(y, &k, c->direction && k.has_from);
	c->percent = k.sp;
	return rc;
}

void amc_flow_describe_swipe(amc_sb *sb, const amc_flow_cmd *c)
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
	if (!strcmp(it->name, "centerElement")) {
		int rc = amc_flow_yaml_bool(y, it->val, what, &c->center);
		/* Orchestra scrolls on until the element is near the middle; amc
		 * stops once it shows: said, not silent */
		if (rc == 0 && c->center)
			amc_flow_yaml_note(y, it->key, "scrollUntilVisible centerElement ignored (amc stops "
					   "scrolling once the element shows; it is not brought to the middle)");
		return rc;
	}
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

int amc_flow_parse_scroll_until_visible(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
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

void amc_flow_describe_scroll_until_visible(amc_sb *sb, const amc_flow_cmd *c)
{
	describe_selector(sb, c);
	amc_sb_printf(sb, " %s", c->direction ? c->direction : "DOWN");
}

static int wait_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	return strcmp(it->name, "timeout") ? 1 : amc_flow_yaml_int(y, it->val, what, 0, 3600000, &c->number);
}

int amc_flow_parse_wait_anim(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
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

void amc_flow_describe_wait_anim(amc_sb *sb, const amc_flow_cmd *c)
{
	amc_sb_printf(sb, " (timeout %d ms)", c->number);
}

void amc_flow_describe_screenshot(amc_sb *sb, const amc_flow_cmd *c)
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
int amc_flow_parse_action(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	char *s = NULL;
	if (amc_flow_yaml_str(y, v, def->name, 0, &s) != 0)
		return -1;
	/* the rows that say they are also written so (AMC_FLOW_CMDF_ACTION) */
	const amc_flow_cmd_table *t = y->cmds;
	amc_sb names;
	amc_sb_init(&names);
	for (size_t i = 0; t && i < t->n; i++) {
		if (!(t->rows[i].flags & AMC_FLOW_CMDF_ACTION))
			continue;
		if (!strcmp(s, t->rows[i].name)) {
			free(s);
			amc_sb_free(&names);
			c->op = (amc_flow_op)t->rows[i].op;
			c->def = &t->rows[i];
			return 0;
		}
		amc_sb_printf(&names, "%s%s", names.len ? ", " : "", t->rows[i].name);
	}
	free(s);
	char *q = amc_flow_yaml_quote(v);
	amc_flow_yaml_err(y, v, "action: unknown action '%s' (%s)", q, amc_sb_str(&names));
	free(q);
	amc_sb_free(&names);
	return -1;
}

/* ---- looking rows up in the table handed down ---- */

/* name is the row's name or one of its aliases. */
static int row_named(const amc_flow_cmd_def *d, const char *name)
{
	if (!strcmp(d->name, name))
		return 1;
	for (const char *const *a = d->aliases; a && *a; a++)
		if (!strcmp(*a, name))
			return 1;
	return 0;
}

const amc_flow_cmd_def *amc_flow_cmds_find(const amc_flow_cmd_table *t, const char *name)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (row_named(&t->rows[i], name))
			return &t->rows[i];
	return NULL;
}

const amc_flow_cmd_def *amc_flow_cmds_by_op(const amc_flow_cmd_table *t, amc_flow_op op)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (t->rows[i].op >= 0 && t->rows[i].op == (int)op)
			return &t->rows[i];
	return NULL;
}

char *amc_flow_cmds_supported(const amc_flow_cmd_table *t)
{
	amc_sb sb;
	amc_sb_init(&sb);
	for (size_t i = 0; t && i < t->n; i++) {
		if (!t->rows[i].parse)
			continue;
		amc_sb_printf(&sb, "%s%s", sb.len ? ", " : "", t->rows[i].name);
		for (const char *const *a = t->rows[i].aliases; a && *a; a++)
			amc_sb_printf(&sb, ", %s", *a);
	}
	return amc_sb_detach(&sb);
}

const char *amc_flow_cmd_name(const amc_flow_cmd *c)
{
	return c && c->def ? c->def->name : "?";
}

char *amc_flow_cmd_describe(const amc_flow_cmd *c)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, amc_flow_cmd_name(c));
	if (c->def && c->def->describe)
		c->def->describe(&sb, c);
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

/* The k-th name (row names and aliases, in table order) of the rows amc
 * runs; NULL past the last. */
static const char *known_name(const amc_flow_cmd_table *t, size_t k)
{
	for (size_t i = 0; t && i < t->n; i++) {
		if (!t->rows[i].parse)
			continue;
		if (k-- == 0)
			return t->rows[i].name;
		for (const char *const *a = t->rows[i].aliases; a && *a; a++)
			if (k-- == 0)
				return *a;
	}
	return NULL;
}

/* The known command nearest to name, or NULL when none is near. */
static const char *nearest(const amc_flow_cmd_table *t, const char *name)
{
	const char *best = NULL, *kn;
	size_t bd = strlen(name) / 3 + 1; /* at most a third of the letters wrong */
	for (size_t i = 0; (kn = known_name(t, i)) != NULL; i++) {
		size_t d = edit_distance(name, kn);
		if (d < bd || (d == bd && !best && d <= 2)) {
			bd = d;
			best = kn;
		}
	}
	/* a shortened name ("waitUntil" for extendedWaitUntil): a known command
	 * that ends with it, in any case, when it is at least 5 letters */
	size_t n = strlen(name);
	for (size_t i = 0; !best && n >= 5 && (kn = known_name(t, i)) != NULL; i++) {
		size_t m = strlen(kn);
		if (m > n && !strcasecmp(kn + m - n, name))
			best = kn;
	}
	return best;
}

/* "unknown command 'X'" (with the nearest known one) or "command 'X' is not
 * supported yet"; the whole list is docs/flows.md's, not every message's. */
static int refuse(amc_flow_yaml *y, const yaml_node_t *name_node, const amc_flow_cmd_def *def)
{
	if (def) {
		char *supported = amc_flow_cmds_supported(y->cmds);
		amc_flow_yaml_err(y, name_node, "command '%s' is not supported yet (supported: %s)", def->name,
				  supported);
		free(supported);
		return -1;
	}
	char *q = amc_flow_yaml_quote(name_node);
	const char *near = name_node->type == YAML_SCALAR_NODE ? nearest(y->cmds, q) : NULL;
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
	if (!y->cmds)
		return amc_flow_yaml_err(y, n, "internal: no command table handed to the parser");
	if (!memchr(name, '\0', name_node->data.scalar.length))
		def = amc_flow_cmds_find(y->cmds, name);
	if (!def || !def->parse)
		return refuse(y, name_node, def);
	/* The parse function reads the name as written in def->name (an alias
	 * is its own spelling in messages: "hide keyboard takes no value"). */
	amc_flow_cmd_def as = *def;
	as.name = name;
	/* `- tapOn` alone; `- tapOn:` gives a null value, which the parse function reports. */
	if (!val && n->type == YAML_SCALAR_NODE && def->bare)
		return amc_flow_yaml_err(y, n, "%s %s", as.name, def->bare);
	c->op = (amc_flow_op)def->op;
	c->def = def;
	int rc = def->parse(y, val, &as, c);
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
