/* flow_cmds.c - the Maestro command table and one parse function per command.
 * The YAML underneath (getters, FILE:LINE errors) is flow_yaml.c; the file
 * around the commands (config document, limits) is flow.c. */
#include "flow/flow_cmds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/sanitize.h"

/* ---- options of a command's mapping ---- */

/* Reads one option of a command's own: 0 read, -1 error, 1 not one of its options.
 * `what` is "COMMAND OPTION", the name messages give the value. */
typedef int (*opt_fn)(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx);

static int in_list(const char *name, const char *const *list)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

static int key_error(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *cmd, const char *supported)
{
	char *q = amc_flow_yaml_quote(it->key);
	if (supported)
		amc_flow_yaml_err(y, it->key, "%s: unknown option '%s' (supported: %s)", cmd, q, supported);
	else
		amc_flow_yaml_err(y, it->key, "%s: option '%s' is not supported yet "
				  "(docs/flows.md lists the supported subset)", cmd, q);
	free(q);
	return -1;
}

/* Walks the options of mapping m in order: `fn` reads the command's own,
 * `label` (a name for the step, cosmetic in Maestro) is checked and dropped,
 * keys in `later` (Maestro options amc lacks) are refused as not supported
 * yet, and any other as unknown, listing `supported`. */
static int read_options(amc_flow_yaml *y, const yaml_node_t *m, const char *cmd, const char *supported,
			const char *const *later, opt_fn fn, void *ctx)
{
	amc_flow_yaml_kv *items;
	size_t cnt;
	if (amc_flow_yaml_items(y, m, &items, &cnt) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < cnt && rc == 0; i++) {
		const amc_flow_yaml_kv *it = &items[i];
		char what[96];
		snprintf(what, sizeof what, "%s %s", cmd, it->name);
		if (fn && (rc = fn(y, it, what, ctx)) != 1)
			continue;
		rc = 0;
		if (!strcmp(it->name, "label")) {
			char *ignored = NULL;
			rc = amc_flow_yaml_str(y, it->val, what, 1, &ignored);
			free(ignored);
		} else {
			rc = key_error(y, it, cmd, in_list(it->name, later) ? NULL : supported);
		}
	}
	free(items);
	return rc;
}

enum { V_NONE = 1, V_SCALAR = 2, V_MAPPING = 4 };

/* Which of the shapes in `accepts` the value has (V_NONE for absent or null);
 * anything else is "CMD TAKES, got KIND" and -1. */
static int shape_of(amc_flow_yaml *y, const yaml_node_t *v, const char *cmd, int accepts, const char *takes)
{
	int shape = !v || amc_flow_yaml_is_null(v) ? V_NONE
		    : v->type == YAML_SCALAR_NODE  ? V_SCALAR
		    : v->type == YAML_MAPPING_NODE ? V_MAPPING
						   : 0;
	if (shape & accepts)
		return shape;
	return amc_flow_yaml_err(y, v, "%s %s, got %s", cmd, takes, amc_flow_yaml_kind(v));
}

static int get_direction(amc_flow_yaml *y, const yaml_node_t *n, const char *what, char **out)
{
	static const char *const DIRS[] = { "UP", "DOWN", "LEFT", "RIGHT" };
	char *s = NULL;
	if (amc_flow_yaml_str(y, n, what, 0, &s) != 0)
		return -1;
	for (int i = 0; i < 4; i++) {
		if (!strcasecmp(s, DIRS[i])) {
			free(s);
			free(*out);
			*out = amc_xstrdup(DIRS[i]);
			return 0;
		}
	}
	free(s);
	char *q = amc_flow_yaml_quote(n);
	amc_flow_yaml_err(y, n, "%s must be UP, DOWN, LEFT or RIGHT, got '%s'", what, q);
	free(q);
	return -1;
}

/* ---- selectors ---- */

/* Maestro selector options amc does not implement yet: refused by name, clearly. */
static const char *const SELECTOR_LATER[] = {
	"enabled", "checked", "focused", "selected", "below", "above", "leftOf", "rightOf",
	"containsChild", "childOf", "containsDescendants", "width", "height", "tolerance",
	"traits", "css", "retryTapIfNoChange", "repeat", "delay", "waitToSettleTimeoutMs",
	"waitUntilVisible", NULL
};

typedef struct sel_ctx {
	amc_selector *s;
	int allow_point, allow_optional;
} sel_ctx;

static int selector_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	sel_ctx *k = ctx;
	amc_selector *s = k->s;
	if (!strcmp(it->name, "text"))
		return amc_flow_yaml_str(y, it->val, what, 1, &s->text);
	if (!strcmp(it->name, "id"))
		return amc_flow_yaml_str(y, it->val, what, 1, &s->id);
	if (!strcmp(it->name, "index"))
		return amc_flow_yaml_int(y, it->val, what, 0, 100000, &s->index);
	if (!strcmp(it->name, "point") && k->allow_point) {
		int rc = amc_flow_yaml_point(y, it->val, what, &s->point_x, &s->point_y, &s->point_is_percent);
		s->has_point = rc == 0;
		return rc;
	}
	if (!strcmp(it->name, "optional") && k->allow_optional)
		return amc_flow_yaml_bool(y, it->val, what, &s->optional);
	return 1;
}

/* A selector: a text scalar (text regex) or a mapping of text/id/index/point/optional. */
static int parse_selector(amc_flow_yaml *y, const yaml_node_t *n, const char *cmd, int allow_point,
			  int allow_optional, amc_selector *s)
{
	if (n && n->type == YAML_SCALAR_NODE && !amc_flow_yaml_is_null(n))
		return amc_flow_yaml_str(y, n, cmd, 0, &s->text);
	if (!n || n->type != YAML_MAPPING_NODE)
		return amc_flow_yaml_err(y, n, "%s needs a selector: a text (tapOn: \"Save\") or a mapping "
					 "(tapOn: {id: \"save\"}), got %s", cmd, amc_flow_yaml_kind(n));
	const char *supported = allow_point ? "text, id, index, point, optional, label"
				: allow_optional ? "text, id, index, optional, label"
						 : "text, id, index, label";
	sel_ctx k = { s, allow_point, allow_optional };
	int rc = read_options(y, n, cmd, supported, SELECTOR_LATER, selector_opt, &k);
	if (rc == 0 && s->has_point && (s->text || s->id))
		rc = amc_flow_yaml_err(y, n, "%s: point cannot be combined with text or id", cmd);
	if (rc == 0 && !s->has_point && !s->text && !s->id)
		rc = amc_flow_yaml_err(y, n, "%s needs text, id%s", cmd, allow_point ? " or point" : "");
	return rc;
}

/* ---- descriptions ---- */

static void put_quoted(amc_sb *sb, const char *s)
{
	amc_sb_putc(sb, '"');
	if (strlen(s) > 60) {
		char *cut = amc_xstrndup(s, 60);
		amc_sanitize_line(cut, strlen(cut), sb);
		free(cut);
		amc_sb_puts(sb, "...");
	} else {
		amc_sanitize_line(s, strlen(s), sb);
	}
	amc_sb_putc(sb, '"');
}

static void put_labelled(amc_sb *sb, int *sep, const char *label, const char *s)
{
	amc_sb_puts(sb, *sep ? " " : "");
	amc_sb_puts(sb, label);
	put_quoted(sb, s);
	*sep = 1;
}

static void describe_selector(amc_sb *sb, const amc_flow_cmd *c)
{
	const amc_selector *s = &c->sel;
	int sep = 0;
	amc_sb_putc(sb, ' ');
	if (s->has_point) {
		amc_sb_printf(sb, "point=%d%s,%d%s", s->point_x, s->point_is_percent ? "%" : "",
			      s->point_y, s->point_is_percent ? "%" : "");
		sep = 1;
	}
	if (s->text)
		put_labelled(sb, &sep, !s->id && !s->has_point ? "" : "text=", s->text);
	if (s->id)
		put_labelled(sb, &sep, "id=", s->id);
	if (s->index)
		amc_sb_printf(sb, "%sindex=%d", sep ? " " : "", s->index);
	if (s->optional)
		amc_sb_puts(sb, " (optional)");
}

/* ---- the commands, in the order of the table ---- */

static int launch_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	int rc;
	if (!strcmp(it->name, "appId"))
		return amc_flow_yaml_str(y, it->val, what, 0, &c->text);
	if (!strcmp(it->name, "clearState")) {
		rc = amc_flow_yaml_bool(y, it->val, what, &c->clear_state);
		if (rc == 0 && c->clear_state)
			rc = amc_flow_yaml_err(y, it->val, "launchApp: clearState: true is not supported yet "
					       "(use `amc sim reset` before the run)");
		return rc;
	}
	if (!strcmp(it->name, "stopApp")) {
		rc = amc_flow_yaml_bool(y, it->val, what, &c->stop_app);
		if (rc == 0 && !c->stop_app)
			rc = amc_flow_yaml_err(y, it->val, "launchApp: stopApp: false is not supported yet "
					       "(launch_app always opens the app's first screen)");
		return rc;
	}
	return 1;
}

static int parse_launch_app(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			    amc_flow_cmd *c)
{
	static const char *const LATER[] = { "permissions", "arguments", "clearKeychain", NULL };
	c->stop_app = 1;
	int shape = shape_of(y, v, def->name, V_NONE | V_SCALAR | V_MAPPING, "takes an app id or a mapping");
	if (shape == V_SCALAR)
		return amc_flow_yaml_str(y, v, def->name, 0, &c->text);
	if (shape != V_MAPPING)
		return shape == V_NONE ? 0 : -1;
	return read_options(y, v, def->name, "appId, clearState, stopApp, label", LATER, launch_opt, c);
}

static void describe_launch_app(amc_sb *sb, const amc_flow_cmd *c)
{
	if (c->text) {
		amc_sb_putc(sb, ' ');
		amc_sanitize_line(c->text, strlen(c->text), sb);
	}
}

/* tapOn, longPressOn, assertVisible, assertNotVisible: a selector. */
static int parse_selector_cmd(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			      amc_flow_cmd *c)
{
	return parse_selector(y, v, def->name, (def->flags & AMC_FLOW_CMDF_POINT) != 0, 1, &c->sel);
}

static int input_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	return strcmp(it->name, "text") ? 1 : amc_flow_yaml_str(y, it->val, what, 1, &c->text);
}

static int parse_input_text(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			    amc_flow_cmd *c)
{
	int rc;
	if (v && v->type == YAML_MAPPING_NODE) {
		rc = read_options(y, v, def->name, "text, label", NULL, input_opt, c);
		if (rc == 0 && !c->text)
			rc = amc_flow_yaml_err(y, v, "inputText needs text");
	} else {
		rc = amc_flow_yaml_str(y, v, def->name, 1, &c->text);
	}
	if (rc == 0 && !*c->text)
		rc = amc_flow_yaml_err(y, v, "inputText needs a non-empty text");
	return rc;
}

static void describe_text(amc_sb *sb, const amc_flow_cmd *c)
{
	amc_sb_putc(sb, ' ');
	put_quoted(sb, c->text ? c->text : "");
}

static int parse_press_key(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			   amc_flow_cmd *c)
{
	static const char *const KEYS[] = { "back", "home", "enter" };
	char *s = NULL;
	if (amc_flow_yaml_str(y, v, def->name, 0, &s) != 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		if (!strcasecmp(s, KEYS[i])) {
			free(s);
			c->text = amc_xstrdup(KEYS[i]);
			return 0;
		}
	}
	free(s);
	char *q = amc_flow_yaml_quote(v);
	amc_flow_yaml_err(y, v, "pressKey: key '%s' is not supported (supported: back, home, enter)", q);
	free(q);
	return -1;
}

static void describe_press_key(amc_sb *sb, const amc_flow_cmd *c)
{
	amc_sb_printf(sb, " %s", c->text ? c->text : "?");
}

/* back, scroll: nothing, or a mapping with a label only. Their label is taken
 * whatever its shape, as it always was, so that no flow that loads stops loading. */
static int label_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	(void)y;
	(void)what;
	(void)ctx;
	return strcmp(it->name, "label") ? 1 : 0;
}

static int parse_no_args(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			 amc_flow_cmd *c)
{
	(void)c;
	int shape = shape_of(y, v, def->name, V_NONE | V_MAPPING, "takes no value");
	if (shape != V_MAPPING)
		return shape == V_NONE ? 0 : -1;
	return read_options(y, v, def->name, "label", NULL, label_opt, NULL);
}

typedef struct swipe_ctx {
	amc_flow_cmd *c;
	int has_start, has_end, sp, ep;
} swipe_ctx;

static int swipe_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	swipe_ctx *k = ctx;
	amc_flow_cmd *c = k->c;
	if (!strcmp(it->name, "direction"))
		return get_direction(y, it->val, what, &c->direction);
	if (!strcmp(it->name, "start")) {
		k->has_start = 1;
		return amc_flow_yaml_point(y, it->val, what, &c->sx, &c->sy, &k->sp);
	}
	if (!strcmp(it->name, "end")) {
		k->has_end = 1;
		return amc_flow_yaml_point(y, it->val, what, &c->ex, &c->ey, &k->ep);
	}
	if (!strcmp(it->name, "duration"))
		return amc_flow_yaml_int(y, it->val, what, 1, 60000, &c->number);
	return 1;
}

static int parse_swipe(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	static const char *const LATER[] = { "from", "waitToSettleTimeoutMs", NULL };
	if (shape_of(y, v, def->name, V_MAPPING, "needs a mapping: {direction: UP} or "
		     "{start: \"50%,80%\", end: \"50%,20%\"}") < 0)
		return -1;
	swipe_ctx k = { c, 0, 0, 0, 0 };
	c->number = 400;
	int rc = read_options(y, v, def->name, "direction, start, end, duration, label", LATER, swipe_opt, &k);
	if (rc == 0 && c->direction && (k.has_start || k.has_end))
		rc = amc_flow_yaml_err(y, v, "swipe takes either direction or start and end, not both");
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
		return parse_selector(y, it->val, what, 0, 0, &c->sel);
	}
	if (!strcmp(it->name, "direction"))
		return get_direction(y, it->val, what, &c->direction);
	if (!strcmp(it->name, "timeout"))
		return amc_flow_yaml_int(y, it->val, what, 1000, 600000, &c->number);
	if (!strcmp(it->name, "optional"))
		return amc_flow_yaml_bool(y, it->val, what, &c->sel.optional);
	if (!strcmp(it->name, "centerElement")) {
		int center = 0;
		int rc = amc_flow_yaml_bool(y, it->val, what, &center);
		if (rc == 0 && center)
			rc = amc_flow_yaml_err(y, it->val, "scrollUntilVisible: centerElement: true is not supported yet");
		return rc;
	}
	return 1;
}

static int parse_scroll_until_visible(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
				      amc_flow_cmd *c)
{
	static const char *const LATER[] = { "speed", "visibilityPercentage", "waitToSettleTimeoutMs", NULL };
	if (shape_of(y, v, def->name, V_MAPPING, "needs a mapping: {element: {text: \"About phone\"}, "
		     "direction: DOWN}") < 0)
		return -1;
	scroll_ctx k = { c, 0 };
	c->number = 20000;
	int rc = read_options(y, v, def->name, "element, direction, timeout, optional, centerElement, label",
			      LATER, scroll_opt, &k);
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
	return strcmp(it->name, "timeout") ? 1 : amc_flow_yaml_int(y, it->val, what, 0, 600000, &c->number);
}

static int parse_wait_anim(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			   amc_flow_cmd *c)
{
	c->number = 15000;
	int shape = shape_of(y, v, def->name, V_NONE | V_MAPPING, "takes nothing or {timeout: MS}");
	if (shape != V_MAPPING)
		return shape == V_NONE ? 0 : -1;
	return read_options(y, v, def->name, "timeout, label", NULL, wait_opt, c);
}

static void describe_wait_anim(amc_sb *sb, const amc_flow_cmd *c)
{
	amc_sb_printf(sb, " (timeout %d ms)", c->number);
}

static int shot_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	return strcmp(it->name, "path") ? 1 : amc_flow_yaml_str(y, it->val, what, 1, &c->text);
}

static int parse_screenshot(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			    amc_flow_cmd *c)
{
	static const char *const LATER[] = { "cropOn", NULL };
	int shape = shape_of(y, v, def->name, V_NONE | V_SCALAR | V_MAPPING, "takes a name or {path: NAME}");
	if (shape == V_SCALAR)
		return amc_flow_yaml_str(y, v, def->name, 1, &c->text);
	if (shape != V_MAPPING)
		return shape == V_NONE ? 0 : -1;
	return read_options(y, v, def->name, "path, label", LATER, shot_opt, c);
}

static void describe_screenshot(amc_sb *sb, const amc_flow_cmd *c)
{
	if (c->text)
		describe_text(sb, c);
}

static void describe_number(amc_sb *sb, const amc_flow_cmd *c)
{
	amc_sb_printf(sb, " %d", c->number);
}

/* ---- the table ---- */

#define SELECTOR_BARE(n) "needs a selector: `- " n ": \"Save\"` or `- " n ": {id: \"save\"}`"
#define LATER(n, flags) { n, -1, NULL, NULL, flags, NULL, NULL }

static const amc_flow_cmd_def COMMANDS[] = {
	{ "launchApp", AMC_FLOW_LAUNCH_APP, parse_launch_app, describe_launch_app, 0, NULL, NULL },
	{ "tapOn", AMC_FLOW_TAP_ON, parse_selector_cmd, describe_selector, AMC_FLOW_CMDF_POINT,
	  SELECTOR_BARE("tapOn"), NULL },
	{ "longPressOn", AMC_FLOW_LONG_PRESS_ON, parse_selector_cmd, describe_selector, AMC_FLOW_CMDF_POINT,
	  SELECTOR_BARE("longPressOn"), NULL },
	{ "inputText", AMC_FLOW_INPUT_TEXT, parse_input_text, describe_text, 0,
	  "needs a text: `- inputText: \"hello\"`", NULL },
	{ "pressKey", AMC_FLOW_PRESS_KEY, parse_press_key, describe_press_key, 0,
	  "needs a key: `- pressKey: Enter` (back, home, enter)", NULL },
	{ "back", AMC_FLOW_BACK, parse_no_args, NULL, 0, NULL, NULL },
	{ "scroll", AMC_FLOW_SCROLL, parse_no_args, NULL, 0, NULL, NULL },
	{ "swipe", AMC_FLOW_SWIPE, parse_swipe, describe_swipe, 0,
	  "needs a mapping: `- swipe: {direction: UP}`", NULL },
	{ "scrollUntilVisible", AMC_FLOW_SCROLL_UNTIL_VISIBLE, parse_scroll_until_visible,
	  describe_scroll_until_visible, 0, "needs a mapping: `- scrollUntilVisible: {element: \"X\"}`", NULL },
	{ "assertVisible", AMC_FLOW_ASSERT_VISIBLE, parse_selector_cmd, describe_selector, 0,
	  SELECTOR_BARE("assertVisible"), NULL },
	{ "assertNotVisible", AMC_FLOW_ASSERT_NOT_VISIBLE, parse_selector_cmd, describe_selector, 0,
	  SELECTOR_BARE("assertNotVisible"), NULL },
	{ "waitForAnimationToEnd", AMC_FLOW_WAIT_FOR_ANIMATION, parse_wait_anim, describe_wait_anim, 0, NULL,
	  NULL },
	{ "takeScreenshot", AMC_FLOW_TAKE_SCREENSHOT, parse_screenshot, describe_screenshot, 0, NULL, NULL },
	/* Known to Maestro, not run by amc yet. */
	{ "eraseText", AMC_FLOW_ERASE_TEXT, NULL, describe_number, 0, NULL,
	  "the device tools have no delete key yet" },
	LATER("runFlow", AMC_FLOW_CMDF_SUBFLOW | AMC_FLOW_CMDF_BLOCK),
	LATER("repeat", AMC_FLOW_CMDF_BLOCK),
	LATER("retry", AMC_FLOW_CMDF_SUBFLOW | AMC_FLOW_CMDF_BLOCK),
	LATER("runScript", AMC_FLOW_CMDF_SCRIPT),
	LATER("evalScript", 0), LATER("assertTrue", 0), LATER("extendedWaitUntil", 0),
	LATER("doubleTapOn", 0), LATER("hideKeyboard", 0), LATER("openLink", 0), LATER("clearState", 0),
	LATER("clearKeychain", 0), LATER("stopApp", 0), LATER("killApp", 0), LATER("copyTextFrom", 0),
	LATER("pasteText", 0), LATER("inputRandomText", 0), LATER("inputRandomNumber", 0),
	LATER("inputRandomEmail", 0), LATER("inputRandomPersonName", 0), LATER("setLocation", 0),
	LATER("travel", 0), LATER("addMedia", 0), LATER("startRecording", 0), LATER("stopRecording", 0),
	LATER("setAirplaneMode", 0), LATER("toggleAirplaneMode", 0), LATER("setOrientation", 0),
	LATER("assertWithAI", 0), LATER("assertNoDefectsWithAI", 0), LATER("extractTextWithAI", 0),
	LATER("waitUntil", 0),
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

void amc_flow_cmd_clear(amc_flow_cmd *c)
{
	free(c->sel.text);
	free(c->sel.id);
	free(c->text);
	free(c->direction);
	memset(c, 0, sizeof *c);
}

/* "unknown command 'X'" or "command 'X' is not supported yet", with the list. */
static int refuse(amc_flow_yaml *y, const yaml_node_t *name_node, const amc_flow_cmd_def *def)
{
	char *supported = amc_flow_cmds_supported();
	if (def) {
		amc_flow_yaml_err(y, name_node, "command '%s' is not supported yet%s%s (supported: %s)", def->name,
				  def->why ? ": " : "", def->why ? def->why : "", supported);
	} else {
		char *q = amc_flow_yaml_quote(name_node);
		amc_flow_yaml_err(y, name_node, "unknown command '%s' (supported: %s)", q, supported);
		free(q);
	}
	free(supported);
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
		if (cnt != 1)
			return amc_flow_yaml_err(y, n, "a command is a mapping with exactly one key "
						 "(like `- tapOn: \"Save\"`), this one has %zu", cnt);
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
