/* flow.c - Maestro-compatible YAML flows, parsed with libyaml's document API.
 *
 * The file is read in two passes over the same bytes: an event pass that refuses
 * aliases, too many documents and deep nesting before anything is built (libyaml
 * expands an alias into a shared node, so a few aliases can make a walk
 * exponential), then yaml_parser_load so every node carries its line. Every
 * message that quotes the file goes through amc_sanitize_dup. */
#include "flow/flow.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "util/fsutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define FLOW_MAX_DEPTH 64
#define FLOW_MAX_DOCS 2

static const char SUPPORTED[] =
	"launchApp, tapOn, longPressOn, inputText, pressKey, back, scroll, swipe, "
	"scrollUntilVisible, assertVisible, assertNotVisible, waitForAnimationToEnd, takeScreenshot";

typedef struct cmd_def {
	const char *name;
	int op;          /* amc_flow_op, or -1 for a known Maestro command amc lacks */
	const char *why; /* for unsupported ones: why, briefly */
} cmd_def;

static const cmd_def COMMANDS[] = {
	{ "launchApp", AMC_FLOW_LAUNCH_APP, NULL },
	{ "tapOn", AMC_FLOW_TAP_ON, NULL },
	{ "longPressOn", AMC_FLOW_LONG_PRESS_ON, NULL },
	{ "inputText", AMC_FLOW_INPUT_TEXT, NULL },
	{ "pressKey", AMC_FLOW_PRESS_KEY, NULL },
	{ "back", AMC_FLOW_BACK, NULL },
	{ "scroll", AMC_FLOW_SCROLL, NULL },
	{ "swipe", AMC_FLOW_SWIPE, NULL },
	{ "scrollUntilVisible", AMC_FLOW_SCROLL_UNTIL_VISIBLE, NULL },
	{ "assertVisible", AMC_FLOW_ASSERT_VISIBLE, NULL },
	{ "assertNotVisible", AMC_FLOW_ASSERT_NOT_VISIBLE, NULL },
	{ "waitForAnimationToEnd", AMC_FLOW_WAIT_FOR_ANIMATION, NULL },
	{ "takeScreenshot", AMC_FLOW_TAKE_SCREENSHOT, NULL },
	{ "eraseText", -1, "the device tools have no delete key yet" },
	{ "runFlow", -1, NULL }, { "repeat", -1, NULL }, { "retry", -1, NULL },
	{ "runScript", -1, NULL }, { "evalScript", -1, NULL }, { "assertTrue", -1, NULL },
	{ "extendedWaitUntil", -1, NULL }, { "doubleTapOn", -1, NULL },
	{ "hideKeyboard", -1, NULL }, { "openLink", -1, NULL }, { "clearState", -1, NULL },
	{ "clearKeychain", -1, NULL }, { "stopApp", -1, NULL }, { "killApp", -1, NULL },
	{ "copyTextFrom", -1, NULL }, { "pasteText", -1, NULL }, { "inputRandomText", -1, NULL },
	{ "inputRandomNumber", -1, NULL }, { "inputRandomEmail", -1, NULL },
	{ "inputRandomPersonName", -1, NULL }, { "setLocation", -1, NULL }, { "travel", -1, NULL },
	{ "addMedia", -1, NULL }, { "startRecording", -1, NULL }, { "stopRecording", -1, NULL },
	{ "setAirplaneMode", -1, NULL }, { "toggleAirplaneMode", -1, NULL },
	{ "setOrientation", -1, NULL }, { "assertWithAI", -1, NULL },
	{ "assertNoDefectsWithAI", -1, NULL }, { "extractTextWithAI", -1, NULL },
	{ "waitUntil", -1, NULL },
};

static const char *const OP_NAMES[] = {
	[AMC_FLOW_LAUNCH_APP] = "launchApp",
	[AMC_FLOW_TAP_ON] = "tapOn",
	[AMC_FLOW_LONG_PRESS_ON] = "longPressOn",
	[AMC_FLOW_INPUT_TEXT] = "inputText",
	[AMC_FLOW_ERASE_TEXT] = "eraseText",
	[AMC_FLOW_PRESS_KEY] = "pressKey",
	[AMC_FLOW_BACK] = "back",
	[AMC_FLOW_SCROLL] = "scroll",
	[AMC_FLOW_SWIPE] = "swipe",
	[AMC_FLOW_SCROLL_UNTIL_VISIBLE] = "scrollUntilVisible",
	[AMC_FLOW_ASSERT_VISIBLE] = "assertVisible",
	[AMC_FLOW_ASSERT_NOT_VISIBLE] = "assertNotVisible",
	[AMC_FLOW_WAIT_FOR_ANIMATION] = "waitForAnimationToEnd",
	[AMC_FLOW_TAKE_SCREENSHOT] = "takeScreenshot",
};

const char *amc_flow_op_name(amc_flow_op op)
{
	if ((unsigned)op < sizeof OP_NAMES / sizeof OP_NAMES[0] && OP_NAMES[op])
		return OP_NAMES[op];
	return "?";
}

/* ---- parse context and errors ---- */

typedef struct pctx {
	yaml_document_t *doc;
	char *where;   /* sanitized path for messages */
	amc_err *e;
} pctx;

static int line_of(const yaml_node_t *n)
{
	return n ? (int)n->start_mark.line + 1 : 0;
}

/* "FILE:LINE: message" as an AMC_EUSAGE error. */
static int perr(pctx *p, const yaml_node_t *n, const char *fmt, ...) AMC_PRINTF(3, 4);
static int perr(pctx *p, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[AMC_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (n)
		return amc_err_set(p->e, AMC_EUSAGE, "%s:%d: %s", p->where, line_of(n), msg);
	return amc_err_set(p->e, AMC_EUSAGE, "%s: %s", p->where, msg);
}

/* A sanitized, length-bounded copy of a scalar for quoting in messages. */
static char *quote(const yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return amc_xstrdup(n && n->type == YAML_MAPPING_NODE ? "(mapping)" : "(list)");
	size_t len = n->data.scalar.length;
	char *raw = amc_xstrndup((const char *)n->data.scalar.value, len > 80 ? 80 : len);
	char *s = amc_sanitize_dup(raw);
	free(raw);
	if (len > 80) {
		amc_sb sb;
		amc_sb_init(&sb);
		amc_sb_puts(&sb, s);
		amc_sb_puts(&sb, "...");
		free(s);
		s = amc_sb_detach(&sb);
	}
	return s;
}

/* ---- scalar helpers ---- */

static int is_plain(const yaml_node_t *n)
{
	return n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* Plain scalars YAML reads as null, booleans or numbers. */
static int plain_is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || !is_plain(n))
		return 0;
	const char *v = (const char *)n->data.scalar.value;
	return n->data.scalar.length == 0 || !strcmp(v, "~") || !strcasecmp(v, "null");
}

static int bool_word(const char *v, int *out)
{
	static const char *const T[] = { "true", "yes", "on" }, *const F[] = { "false", "no", "off" };
	for (int i = 0; i < 3; i++) {
		if (!strcasecmp(v, T[i])) {
			*out = 1;
			return 1;
		}
		if (!strcasecmp(v, F[i])) {
			*out = 0;
			return 1;
		}
	}
	return 0;
}

static int plain_is_number(const char *v)
{
	char *end;
	if (!*v)
		return 0;
	errno = 0;
	(void)strtod(v, &end);
	return *end == '\0' && !isspace((unsigned char)v[0]);
}

static const char *node_kind(const yaml_node_t *n)
{
	if (!n)
		return "nothing";
	if (n->type == YAML_MAPPING_NODE)
		return "a mapping";
	if (n->type == YAML_SEQUENCE_NODE)
		return "a list";
	if (plain_is_null(n))
		return "nothing (null)";
	int b;
	if (is_plain(n) && bool_word((const char *)n->data.scalar.value, &b))
		return "a boolean";
	if (is_plain(n) && plain_is_number((const char *)n->data.scalar.value))
		return "a number";
	return "a text";
}

static int check_nul(pctx *p, const yaml_node_t *n, const char *what)
{
	if (memchr(n->data.scalar.value, '\0', n->data.scalar.length))
		return perr(p, n, "%s contains a NUL character", what);
	return 0;
}

/* A text value. Plain numbers and booleans are refused unless `numbers_ok`
 * (inputText "555" is text; tapOn 5 is more likely a mistake). */
static int get_str(pctx *p, const yaml_node_t *n, const char *what, int numbers_ok, char **out)
{
	if (!n || n->type != YAML_SCALAR_NODE || plain_is_null(n))
		return perr(p, n, "%s must be a text, got %s", what, node_kind(n));
	if (is_plain(n) && !numbers_ok) {
		const char *k = node_kind(n);
		if (strcmp(k, "a text") != 0) {
			char *q = quote(n);
			perr(p, n, "%s must be a text, got %s (write it in quotes: \"%s\")", what, k, q);
			free(q);
			return -1;
		}
	}
	if (check_nul(p, n, what) != 0)
		return -1;
	free(*out);
	*out = amc_xstrndup((const char *)n->data.scalar.value, n->data.scalar.length);
	return 0;
}

static int get_int(pctx *p, const yaml_node_t *n, const char *what, long lo, long hi, int *out)
{
	if (!n || n->type != YAML_SCALAR_NODE || plain_is_null(n))
		return perr(p, n, "%s must be a whole number, got %s", what, node_kind(n));
	const char *v = (const char *)n->data.scalar.value;
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (!*v || isspace((unsigned char)*v) || *end || errno ||
	    strlen(v) != n->data.scalar.length) {
		char *q = quote(n);
		perr(p, n, "%s must be a whole number, got '%s'", what, q);
		free(q);
		return -1;
	}
	if (x < lo || x > hi)
		return perr(p, n, "%s must be between %ld and %ld, got %ld", what, lo, hi, x);
	*out = (int)x;
	return 0;
}

static int get_bool(pctx *p, const yaml_node_t *n, const char *what, int *out)
{
	if (n && n->type == YAML_SCALAR_NODE && is_plain(n) &&
	    bool_word((const char *)n->data.scalar.value, out))
		return 0;
	if (n && n->type == YAML_SCALAR_NODE) {
		char *q = quote(n);
		perr(p, n, "%s must be true or false, got '%s'", what, q);
		free(q);
		return -1;
	}
	return perr(p, n, "%s must be true or false, got %s", what, node_kind(n));
}

/* "50%,80%" (percent) or "100,200" (pixels). Both forms: no spaces needed, spaces allowed. */
static int parse_point_text(const char *s, int *x, int *y, int *percent)
{
	int pct[2] = { 0, 0 };
	long v[2];
	const char *c = s;
	for (int i = 0; i < 2; i++) {
		while (*c == ' ')
			c++;
		if (!isdigit((unsigned char)*c))
			return -1;
		char *end;
		errno = 0;
		v[i] = strtol(c, &end, 10);
		if (errno || v[i] > 100000)
			return -1;
		c = end;
		if (*c == '%') {
			pct[i] = 1;
			c++;
		}
		while (*c == ' ')
			c++;
		if (i == 0) {
			if (*c != ',')
				return -1;
			c++;
		}
	}
	if (*c || pct[0] != pct[1] || (pct[0] && (v[0] > 100 || v[1] > 100)))
		return -1;
	*x = (int)v[0];
	*y = (int)v[1];
	*percent = pct[0];
	return 0;
}

static int get_point(pctx *p, const yaml_node_t *n, const char *what, int *x, int *y, int *percent)
{
	char *s = NULL;
	if (get_str(p, n, what, 0, &s) != 0)
		return -1;
	int rc = parse_point_text(s, x, y, percent);
	free(s);
	if (rc != 0) {
		char *q = quote(n);
		perr(p, n, "%s must be \"X%%,Y%%\" (0-100) or \"X,Y\" in pixels, got '%s'", what, q);
		free(q);
		return -1;
	}
	return 0;
}

/* ---- mapping walking ---- */

typedef struct kv {
	const yaml_node_t *key, *val;
	const char *name;  /* key text (NUL-terminated by libyaml) */
} kv;

static int mapping_items(pctx *p, const yaml_node_t *m, kv **out, size_t *n)
{
	size_t cnt = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	kv *items = amc_xcalloc(cnt ? cnt : 1, sizeof *items);
	for (size_t i = 0; i < cnt; i++) {
		yaml_node_pair_t *pr = m->data.mapping.pairs.start + i;
		items[i].key = yaml_document_get_node(p->doc, pr->key);
		items[i].val = yaml_document_get_node(p->doc, pr->value);
		const yaml_node_t *k = items[i].key;
		if (!k || k->type != YAML_SCALAR_NODE || memchr(k->data.scalar.value, '\0', k->data.scalar.length)) {
			free(items);
			return perr(p, k ? k : m, "keys must be plain names, got %s", node_kind(k));
		}
		items[i].name = (const char *)k->data.scalar.value;
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(items[j].name, items[i].name)) {
				char *q = quote(items[i].key);
				perr(p, items[i].key, "'%s' is given twice", q);
				free(q);
				free(items);
				return -1;
			}
		}
	}
	*out = items;
	*n = cnt;
	return 0;
}

static int bad_key(pctx *p, const kv *it, const char *cmd, const char *supported)
{
	char *q = quote(it->key);
	perr(p, it->key, "%s: unknown option '%s' (supported: %s)", cmd, q, supported);
	free(q);
	return -1;
}

static int unsupported_key(pctx *p, const kv *it, const char *cmd)
{
	char *q = quote(it->key);
	perr(p, it->key, "%s: option '%s' is not supported yet (docs/flows.md lists the supported subset)",
	     cmd, q);
	free(q);
	return -1;
}

static int in_list(const char *name, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

/* Maestro selector options amc does not implement yet: refused by name, clearly. */
static const char *const SELECTOR_UNSUPPORTED[] = {
	"enabled", "checked", "focused", "selected", "below", "above", "leftOf", "rightOf",
	"containsChild", "childOf", "containsDescendants", "width", "height", "tolerance",
	"traits", "css", "retryTapIfNoChange", "repeat", "delay", "waitToSettleTimeoutMs",
	"waitUntilVisible", NULL
};

/* A selector: a text scalar (text regex) or a mapping of text/id/index/point/optional. */
static int parse_selector(pctx *p, const yaml_node_t *n, const char *cmd, int allow_point,
			  int allow_optional, amc_selector *s)
{
	if (n && n->type == YAML_SCALAR_NODE && !plain_is_null(n)) {
		char what[64];
		snprintf(what, sizeof what, "%s", cmd);
		return get_str(p, n, what, 0, &s->text);
	}
	if (!n || n->type != YAML_MAPPING_NODE)
		return perr(p, n, "%s needs a selector: a text (tapOn: \"Save\") or a mapping "
			    "(tapOn: {id: \"save\"}), got %s", cmd, node_kind(n));
	kv *items;
	size_t cnt;
	if (mapping_items(p, n, &items, &cnt) != 0)
		return -1;
	const char *supported = allow_point ? "text, id, index, point, optional, label"
					    : allow_optional ? "text, id, index, optional, label"
							     : "text, id, index, label";
	char what[64];
	int rc = 0;
	for (size_t i = 0; i < cnt && rc == 0; i++) {
		const kv *it = &items[i];
		snprintf(what, sizeof what, "%s %s", cmd, it->name);
		if (!strcmp(it->name, "text"))
			rc = get_str(p, it->val, what, 1, &s->text);
		else if (!strcmp(it->name, "id"))
			rc = get_str(p, it->val, what, 1, &s->id);
		else if (!strcmp(it->name, "index"))
			rc = get_int(p, it->val, what, 0, 100000, &s->index);
		else if (!strcmp(it->name, "point") && allow_point) {
			rc = get_point(p, it->val, what, &s->point_x, &s->point_y, &s->point_is_percent);
			s->has_point = rc == 0;
		} else if (!strcmp(it->name, "optional") && allow_optional)
			rc = get_bool(p, it->val, what, &s->optional);
		else if (!strcmp(it->name, "label")) {
			char *ignored = NULL; /* cosmetic in Maestro: a name for the step */
			rc = get_str(p, it->val, what, 1, &ignored);
			free(ignored);
		} else if (in_list(it->name, SELECTOR_UNSUPPORTED))
			rc = unsupported_key(p, it, cmd);
		else
			rc = bad_key(p, it, cmd, supported);
	}
	if (rc == 0 && s->has_point && (s->text || s->id))
		rc = perr(p, n, "%s: point cannot be combined with text or id", cmd);
	if (rc == 0 && !s->has_point && !s->text && !s->id)
		rc = perr(p, n, "%s needs text, id%s", cmd, allow_point ? " or point" : "");
	free(items);
	return rc;
}

static int parse_direction(pctx *p, const yaml_node_t *n, const char *what, char **out)
{
	static const char *const DIRS[] = { "UP", "DOWN", "LEFT", "RIGHT" };
	char *s = NULL;
	if (get_str(p, n, what, 0, &s) != 0)
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
	char *q = quote(n);
	perr(p, n, "%s must be UP, DOWN, LEFT or RIGHT, got '%s'", what, q);
	free(q);
	return -1;
}

/* A command whose value must be empty: `- back`, `- back:` or `- back: {label: x}`. */
static int parse_no_args(pctx *p, const yaml_node_t *v, const char *cmd)
{
	if (!v || plain_is_null(v))
		return 0;
	if (v->type == YAML_MAPPING_NODE) {
		kv *items;
		size_t cnt;
		if (mapping_items(p, v, &items, &cnt) != 0)
			return -1;
		int rc = 0;
		for (size_t i = 0; i < cnt && rc == 0; i++) {
			if (strcmp(items[i].name, "label") != 0)
				rc = bad_key(p, &items[i], cmd, "label");
		}
		free(items);
		return rc;
	}
	return perr(p, v, "%s takes no value, got %s", cmd, node_kind(v));
}

static int parse_launch_app(pctx *p, const yaml_node_t *v, amc_flow_cmd *c)
{
	c->stop_app = 1;
	if (!v || plain_is_null(v))
		return 0;
	if (v->type == YAML_SCALAR_NODE)
		return get_str(p, v, "launchApp", 0, &c->text);
	if (v->type != YAML_MAPPING_NODE)
		return perr(p, v, "launchApp takes an app id or a mapping, got %s", node_kind(v));
	kv *items;
	size_t cnt;
	if (mapping_items(p, v, &items, &cnt) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < cnt && rc == 0; i++) {
		const kv *it = &items[i];
		if (!strcmp(it->name, "appId"))
			rc = get_str(p, it->val, "launchApp appId", 0, &c->text);
		else if (!strcmp(it->name, "clearState")) {
			rc = get_bool(p, it->val, "launchApp clearState", &c->clear_state);
			if (rc == 0 && c->clear_state)
				rc = perr(p, it->val, "launchApp: clearState: true is not supported yet "
					  "(use `amc sim reset` before the run)");
		} else if (!strcmp(it->name, "stopApp")) {
			rc = get_bool(p, it->val, "launchApp stopApp", &c->stop_app);
			if (rc == 0 && !c->stop_app)
				rc = perr(p, it->val, "launchApp: stopApp: false is not supported yet "
					  "(launch_app always opens the app's first screen)");
		} else if (!strcmp(it->name, "label")) {
			char *ignored = NULL;
			rc = get_str(p, it->val, "launchApp label", 1, &ignored);
			free(ignored);
		} else if (!strcmp(it->name, "permissions") || !strcmp(it->name, "arguments") ||
			   !strcmp(it->name, "clearKeychain"))
			rc = unsupported_key(p, it, "launchApp");
		else
			rc = bad_key(p, it, "launchApp", "appId, clearState, stopApp, label");
	}
	free(items);
	return rc;
}

static int parse_input_text(pctx *p, const yaml_node_t *v, amc_flow_cmd *c)
{
	int rc;
	if (v && v->type == YAML_MAPPING_NODE) {
		kv *items;
		size_t cnt;
		if (mapping_items(p, v, &items, &cnt) != 0)
			return -1;
		rc = 0;
		for (size_t i = 0; i < cnt && rc == 0; i++) {
			if (!strcmp(items[i].name, "text"))
				rc = get_str(p, items[i].val, "inputText text", 1, &c->text);
			else if (!strcmp(items[i].name, "label")) {
				char *ignored = NULL;
				rc = get_str(p, items[i].val, "inputText label", 1, &ignored);
				free(ignored);
			} else
				rc = bad_key(p, &items[i], "inputText", "text, label");
		}
		free(items);
		if (rc == 0 && !c->text)
			rc = perr(p, v, "inputText needs text");
	} else {
		rc = get_str(p, v, "inputText", 1, &c->text);
	}
	if (rc == 0 && !*c->text)
		rc = perr(p, v, "inputText needs a non-empty text");
	return rc;
}

static int parse_press_key(pctx *p, const yaml_node_t *v, amc_flow_cmd *c)
{
	static const char *const KEYS[] = { "back", "home", "enter" };
	char *s = NULL;
	if (get_str(p, v, "pressKey", 0, &s) != 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		if (!strcasecmp(s, KEYS[i])) {
			free(s);
			c->text = amc_xstrdup(KEYS[i]);
			return 0;
		}
	}
	free(s);
	char *q = quote(v);
	perr(p, v, "pressKey: key '%s' is not supported (supported: back, home, enter)", q);
	free(q);
	return -1;
}

static int parse_swipe(pctx *p, const yaml_node_t *v, amc_flow_cmd *c)
{
	if (!v || v->type != YAML_MAPPING_NODE)
		return perr(p, v, "swipe needs a mapping: {direction: UP} or "
			    "{start: \"50%%,80%%\", end: \"50%%,20%%\"}, got %s", node_kind(v));
	kv *items;
	size_t cnt;
	if (mapping_items(p, v, &items, &cnt) != 0)
		return -1;
	int rc = 0, has_start = 0, has_end = 0, sp = 0, ep = 0;
	c->number = 400;
	for (size_t i = 0; i < cnt && rc == 0; i++) {
		const kv *it = &items[i];
		if (!strcmp(it->name, "direction"))
			rc = parse_direction(p, it->val, "swipe direction", &c->direction);
		else if (!strcmp(it->name, "start")) {
			rc = get_point(p, it->val, "swipe start", &c->sx, &c->sy, &sp);
			has_start = 1;
		} else if (!strcmp(it->name, "end")) {
			rc = get_point(p, it->val, "swipe end", &c->ex, &c->ey, &ep);
			has_end = 1;
		} else if (!strcmp(it->name, "duration"))
			rc = get_int(p, it->val, "swipe duration", 1, 60000, &c->number);
		else if (!strcmp(it->name, "label")) {
			char *ignored = NULL;
			rc = get_str(p, it->val, "swipe label", 1, &ignored);
			free(ignored);
		} else if (!strcmp(it->name, "from") || !strcmp(it->name, "waitToSettleTimeoutMs"))
			rc = unsupported_key(p, it, "swipe");
		else
			rc = bad_key(p, it, "swipe", "direction, start, end, duration, label");
	}
	if (rc == 0 && c->direction && (has_start || has_end))
		rc = perr(p, v, "swipe takes either direction or start and end, not both");
	if (rc == 0 && !c->direction && (has_start != has_end || !has_start))
		rc = perr(p, v, "swipe needs direction, or both start and end");
	if (rc == 0 && has_start && sp != ep)
		rc = perr(p, v, "swipe start and end must both be percentages or both pixels");
	c->percent = sp;
	free(items);
	return rc;
}

static int parse_scroll_until_visible(pctx *p, const yaml_node_t *v, amc_flow_cmd *c)
{
	if (!v || v->type != YAML_MAPPING_NODE)
		return perr(p, v, "scrollUntilVisible needs a mapping: {element: {text: \"About phone\"}, "
			    "direction: DOWN}, got %s", node_kind(v));
	kv *items;
	size_t cnt;
	if (mapping_items(p, v, &items, &cnt) != 0)
		return -1;
	int rc = 0, has_el = 0, center = 0;
	c->number = 20000;
	for (size_t i = 0; i < cnt && rc == 0; i++) {
		const kv *it = &items[i];
		if (!strcmp(it->name, "element")) {
			rc = parse_selector(p, it->val, "scrollUntilVisible element", 0, 0, &c->sel);
			has_el = 1;
		} else if (!strcmp(it->name, "direction"))
			rc = parse_direction(p, it->val, "scrollUntilVisible direction", &c->direction);
		else if (!strcmp(it->name, "timeout"))
			rc = get_int(p, it->val, "scrollUntilVisible timeout", 1000, 600000, &c->number);
		else if (!strcmp(it->name, "optional"))
			rc = get_bool(p, it->val, "scrollUntilVisible optional", &c->sel.optional);
		else if (!strcmp(it->name, "centerElement")) {
			rc = get_bool(p, it->val, "scrollUntilVisible centerElement", &center);
			if (rc == 0 && center)
				rc = perr(p, it->val, "scrollUntilVisible: centerElement: true is not supported yet");
		} else if (!strcmp(it->name, "label")) {
			char *ignored = NULL;
			rc = get_str(p, it->val, "scrollUntilVisible label", 1, &ignored);
			free(ignored);
		} else if (!strcmp(it->name, "speed") || !strcmp(it->name, "visibilityPercentage") ||
			   !strcmp(it->name, "waitToSettleTimeoutMs"))
			rc = unsupported_key(p, it, "scrollUntilVisible");
		else
			rc = bad_key(p, it, "scrollUntilVisible",
				     "element, direction, timeout, optional, centerElement, label");
	}
	if (rc == 0 && !has_el)
		rc = perr(p, v, "scrollUntilVisible needs element");
	if (rc == 0 && !c->direction)
		c->direction = amc_xstrdup("DOWN");
	free(items);
	return rc;
}

static int parse_wait_anim(pctx *p, const yaml_node_t *v, amc_flow_cmd *c)
{
	c->number = 15000;
	if (!v || plain_is_null(v))
		return 0;
	if (v->type != YAML_MAPPING_NODE)
		return perr(p, v, "waitForAnimationToEnd takes nothing or {timeout: MS}, got %s", node_kind(v));
	kv *items;
	size_t cnt;
	if (mapping_items(p, v, &items, &cnt) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < cnt && rc == 0; i++) {
		if (!strcmp(items[i].name, "timeout"))
			rc = get_int(p, items[i].val, "waitForAnimationToEnd timeout", 0, 600000, &c->number);
		else if (!strcmp(items[i].name, "label")) {
			char *ignored = NULL;
			rc = get_str(p, items[i].val, "waitForAnimationToEnd label", 1, &ignored);
			free(ignored);
		} else
			rc = bad_key(p, &items[i], "waitForAnimationToEnd", "timeout, label");
	}
	free(items);
	return rc;
}

static int parse_screenshot(pctx *p, const yaml_node_t *v, amc_flow_cmd *c)
{
	if (!v || plain_is_null(v))
		return 0;
	if (v->type == YAML_SCALAR_NODE)
		return get_str(p, v, "takeScreenshot", 1, &c->text);
	if (v->type != YAML_MAPPING_NODE)
		return perr(p, v, "takeScreenshot takes a name or {path: NAME}, got %s", node_kind(v));
	kv *items;
	size_t cnt;
	if (mapping_items(p, v, &items, &cnt) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < cnt && rc == 0; i++) {
		if (!strcmp(items[i].name, "path"))
			rc = get_str(p, items[i].val, "takeScreenshot path", 1, &c->text);
		else if (!strcmp(items[i].name, "label")) {
			char *ignored = NULL;
			rc = get_str(p, items[i].val, "takeScreenshot label", 1, &ignored);
			free(ignored);
		} else if (!strcmp(items[i].name, "cropOn"))
			rc = unsupported_key(p, &items[i], "takeScreenshot");
		else
			rc = bad_key(p, &items[i], "takeScreenshot", "path, label");
	}
	free(items);
	return rc;
}

static void cmd_free(amc_flow_cmd *c)
{
	free(c->sel.text);
	free(c->sel.id);
	free(c->text);
	free(c->direction);
	memset(c, 0, sizeof *c);
}

/* A bare command (`- tapOn`) for a command that needs a value: say what it needs.
 * (`- tapOn:` gives a null value node, reported by the command's parser.) */
static int bare_needs_value(pctx *p, const yaml_node_t *n, amc_flow_op op, const char *name)
{
	if (n->type != YAML_SCALAR_NODE)
		return 0;
	switch (op) {
	case AMC_FLOW_TAP_ON:
	case AMC_FLOW_LONG_PRESS_ON:
	case AMC_FLOW_ASSERT_VISIBLE:
	case AMC_FLOW_ASSERT_NOT_VISIBLE:
		return perr(p, n, "%s needs a selector: `- %s: \"Save\"` or `- %s: {id: \"save\"}`",
			    name, name, name);
	case AMC_FLOW_INPUT_TEXT:
		return perr(p, n, "inputText needs a text: `- inputText: \"hello\"`");
	case AMC_FLOW_PRESS_KEY:
		return perr(p, n, "pressKey needs a key: `- pressKey: Enter` (back, home, enter)");
	case AMC_FLOW_SWIPE:
		return perr(p, n, "swipe needs a mapping: `- swipe: {direction: UP}`");
	case AMC_FLOW_SCROLL_UNTIL_VISIBLE:
		return perr(p, n, "scrollUntilVisible needs a mapping: `- scrollUntilVisible: {element: \"X\"}`");
	default:
		return 0;
	}
}

static int parse_command(pctx *p, const yaml_node_t *n, amc_flow_cmd *c)
{
	const yaml_node_t *name_node, *val = NULL;
	memset(c, 0, sizeof *c);
	c->line = line_of(n);
	if (n->type == YAML_SCALAR_NODE) {
		name_node = n;
	} else if (n->type == YAML_MAPPING_NODE) {
		size_t cnt = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
		if (cnt != 1)
			return perr(p, n, "a command is a mapping with exactly one key "
				    "(like `- tapOn: \"Save\"`), this one has %zu", cnt);
		name_node = yaml_document_get_node(p->doc, n->data.mapping.pairs.start->key);
		val = yaml_document_get_node(p->doc, n->data.mapping.pairs.start->value);
		if (!name_node || name_node->type != YAML_SCALAR_NODE)
			return perr(p, n, "a command name must be a plain word, got %s", node_kind(name_node));
	} else {
		return perr(p, n, "a command is a name (`- back`) or a one-key mapping "
			    "(`- tapOn: \"Save\"`), got a list");
	}
	const char *name = (const char *)name_node->data.scalar.value;
	const cmd_def *def = NULL;
	if (!memchr(name, '\0', name_node->data.scalar.length)) {
		for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
			if (!strcmp(COMMANDS[i].name, name))
				def = &COMMANDS[i];
	}
	if (!def) {
		char *q = quote(name_node);
		perr(p, name_node, "unknown command '%s' (supported: %s)", q, SUPPORTED);
		free(q);
		return -1;
	}
	if (def->op < 0)
		return perr(p, name_node, "command '%s' is not supported yet%s%s (supported: %s)", def->name,
			    def->why ? ": " : "", def->why ? def->why : "", SUPPORTED);
	c->op = (amc_flow_op)def->op;
	if (!val && bare_needs_value(p, n, c->op, def->name) != 0)
		return -1;
	int rc;
	switch (c->op) {
	case AMC_FLOW_LAUNCH_APP:
		rc = parse_launch_app(p, val, c);
		break;
	case AMC_FLOW_TAP_ON:
	case AMC_FLOW_LONG_PRESS_ON:
		rc = parse_selector(p, val, def->name, 1, 1, &c->sel);
		break;
	case AMC_FLOW_ASSERT_VISIBLE:
	case AMC_FLOW_ASSERT_NOT_VISIBLE:
		rc = parse_selector(p, val, def->name, 0, 1, &c->sel);
		break;
	case AMC_FLOW_INPUT_TEXT:
		rc = parse_input_text(p, val, c);
		break;
	case AMC_FLOW_PRESS_KEY:
		rc = parse_press_key(p, val, c);
		break;
	case AMC_FLOW_BACK:
	case AMC_FLOW_SCROLL:
		rc = parse_no_args(p, val, def->name);
		break;
	case AMC_FLOW_SWIPE:
		rc = parse_swipe(p, val, c);
		break;
	case AMC_FLOW_SCROLL_UNTIL_VISIBLE:
		rc = parse_scroll_until_visible(p, val, c);
		break;
	case AMC_FLOW_WAIT_FOR_ANIMATION:
		rc = parse_wait_anim(p, val, c);
		break;
	case AMC_FLOW_TAKE_SCREENSHOT:
		rc = parse_screenshot(p, val, c);
		break;
	default:
		rc = perr(p, name_node, "command '%s' is not supported yet", def->name);
		break;
	}
	if (rc != 0)
		cmd_free(c);
	return rc;
}

/* ---- config document ---- */

static int parse_config(pctx *p, const yaml_node_t *root, amc_flow *f)
{
	if (root->type != YAML_MAPPING_NODE)
		return perr(p, root, "the first document must be a mapping (appId: ..., name: ...), got %s",
			    node_kind(root));
	kv *items;
	size_t cnt;
	if (mapping_items(p, root, &items, &cnt) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < cnt && rc == 0; i++) {
		const kv *it = &items[i];
		if (!strcmp(it->name, "appId"))
			rc = get_str(p, it->val, "appId", 0, &f->app_id);
		else if (!strcmp(it->name, "name"))
			rc = get_str(p, it->val, "name", 1, &f->name);
		else if (!strcmp(it->name, "tags")) {
			/* Used by Maestro to select flows; amc runs one file, so only check the shape. */
			if (it->val->type == YAML_MAPPING_NODE)
				rc = perr(p, it->val, "tags must be a list of words");
		} else if (!strcmp(it->name, "env") || !strcmp(it->name, "onFlowStart") ||
			   !strcmp(it->name, "onFlowComplete") || !strcmp(it->name, "jsEngine") ||
			   !strcmp(it->name, "properties")) {
			char *q = quote(it->key);
			rc = perr(p, it->key, "config key '%s' is not supported yet (supported: appId, name, tags)", q);
			free(q);
		} else {
			char *q = quote(it->key);
			rc = perr(p, it->key, "unknown config key '%s' (supported: appId, name, tags)", q);
			free(q);
		}
	}
	free(items);
	return rc;
}

static int parse_commands(pctx *p, const yaml_node_t *root, amc_flow *f)
{
	if (root->type != YAML_SEQUENCE_NODE) {
		if (root->type == YAML_MAPPING_NODE)
			return perr(p, root, "expected a list of commands; a config mapping (appId, name) "
				    "must be followed by `---` and the commands");
		return perr(p, root, "expected a list of commands (`- launchApp`), got %s", node_kind(root));
	}
	size_t cnt = (size_t)(root->data.sequence.items.top - root->data.sequence.items.start);
	if (cnt == 0)
		return perr(p, root, "the flow has no commands");
	if (cnt > AMC_FLOW_MAX_COMMANDS)
		return perr(p, root, "the flow has %zu commands, over the limit of %d", cnt,
			    AMC_FLOW_MAX_COMMANDS);
	f->cmds = amc_xcalloc(cnt, sizeof *f->cmds);
	for (size_t i = 0; i < cnt; i++) {
		const yaml_node_t *n = yaml_document_get_node(p->doc, root->data.sequence.items.start[i]);
		if (!n)
			return perr(p, root, "internal: missing node");
		if (parse_command(p, n, &f->cmds[i]) != 0)
			return -1;
		f->count = i + 1;
	}
	for (size_t i = 0; i < f->count; i++) {
		amc_flow_cmd *c = &f->cmds[i];
		if (c->op == AMC_FLOW_LAUNCH_APP && !c->text && !f->app_id)
			return amc_err_set(p->e, AMC_EUSAGE,
					   "%s:%d: launchApp needs an app id: set appId in the config "
					   "document or write `launchApp: com.example.app`", p->where, c->line);
	}
	return 0;
}

/* ---- libyaml driving ---- */

static int yaml_problem(pctx *p, const yaml_parser_t *ps)
{
	if (ps->error == YAML_MEMORY_ERROR)
		return amc_err_set(p->e, AMC_EUSAGE, "%s: out of memory reading YAML", p->where);
	const char *problem = ps->problem ? ps->problem : "unknown problem";
	if (ps->context)
		return amc_err_set(p->e, AMC_EUSAGE, "%s:%zu:%zu: malformed YAML: %s (%s started at line %zu)", p->where,
				   ps->problem_mark.line + 1, ps->problem_mark.column + 1, problem,
				   ps->context, ps->context_mark.line + 1);
	return amc_err_set(p->e, AMC_EUSAGE, "%s:%zu:%zu: malformed YAML: %s", p->where,
			   ps->problem_mark.line + 1, ps->problem_mark.column + 1, problem);
}

/* Event pass: refuse aliases, deep nesting and extra documents before building nodes. */
static int precheck(pctx *p, const char *buf, size_t len)
{
	yaml_parser_t ps;
	yaml_event_t ev;
	int depth = 0, docs = 0, rc = 0, done = 0;
	if (!yaml_parser_initialize(&ps))
		return amc_err_set(p->e, AMC_EUSAGE, "%s: cannot start the YAML parser", p->where);
	yaml_parser_set_input_string(&ps, (const unsigned char *)buf, len);
	while (!done && rc == 0) {
		if (!yaml_parser_parse(&ps, &ev)) {
			rc = yaml_problem(p, &ps);
			break;
		}
		int line = (int)ev.start_mark.line + 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > FLOW_MAX_DOCS)
				rc = amc_err_set(p->e, AMC_EUSAGE, "%s:%d: a flow has at most two documents "
						 "(config, `---`, commands)", p->where, line);
			break;
		case YAML_ALIAS_EVENT:
			rc = amc_err_set(p->e, AMC_EUSAGE, "%s:%d: anchors and aliases are not supported",
					 p->where, line);
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > FLOW_MAX_DEPTH)
				rc = amc_err_set(p->e, AMC_EUSAGE, "%s:%d: nested more than %d levels deep",
						 p->where, line, FLOW_MAX_DEPTH);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&ps);
	return rc;
}

static char *default_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	char *raw = amc_xstrndup(base, n);
	return raw;
}

void amc_flow_free(amc_flow *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->count; i++)
		cmd_free(&f->cmds[i]);
	free(f->cmds);
	free(f->path);
	free(f->name);
	free(f->app_id);
	memset(f, 0, sizeof *f);
}

int amc_flow_parse(const char *buf, size_t len, const char *path, amc_flow *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	if (!path)
		path = "(flow)";
	pctx p = { NULL, amc_sanitize_dup(path), e };
	int rc = -1;
	yaml_document_t docs[FLOW_MAX_DOCS];
	int ndocs = 0;
	yaml_parser_t ps;
	int ps_ok = 0;

	if (len > AMC_FLOW_MAX_BYTES) {
		amc_err_set(e, AMC_EUSAGE, "%s: the flow is %zu bytes, over the limit of %u bytes", p.where,
			    len, AMC_FLOW_MAX_BYTES);
		goto out;
	}
	if (!buf)
		buf = "";
	if (precheck(&p, buf, len) != 0)
		goto out;
	if (!yaml_parser_initialize(&ps)) {
		amc_err_set(e, AMC_EUSAGE, "%s: cannot start the YAML parser", p.where);
		goto out;
	}
	ps_ok = 1;
	yaml_parser_set_input_string(&ps, (const unsigned char *)buf, len);
	for (;;) {
		yaml_document_t d;
		if (!yaml_parser_load(&ps, &d)) {
			yaml_problem(&p, &ps);
			goto out;
		}
		if (!yaml_document_get_root_node(&d)) {
			yaml_document_delete(&d);
			break;
		}
		if (ndocs == FLOW_MAX_DOCS) { /* the event pass already refuses this */
			yaml_document_delete(&d);
			amc_err_set(e, AMC_EUSAGE, "%s: a flow has at most two documents", p.where);
			goto out;
		}
		docs[ndocs++] = d;
	}
	if (ndocs == 0) {
		amc_err_set(e, AMC_EUSAGE, "%s: the flow is empty (expected an optional config "
			    "(appId: ...), `---`, then a list of commands)", p.where);
		goto out;
	}
	out->path = amc_xstrdup(path);
	if (ndocs == 2) {
		p.doc = &docs[0];
		if (parse_config(&p, yaml_document_get_root_node(&docs[0]), out) != 0)
			goto out;
	}
	p.doc = &docs[ndocs - 1];
	if (parse_commands(&p, yaml_document_get_root_node(p.doc), out) != 0)
		goto out;
	if (!out->name || !*out->name) {
		free(out->name);
		out->name = default_name(path);
	}
	rc = 0;
out:
	for (int i = 0; i < ndocs; i++)
		yaml_document_delete(&docs[i]);
	if (ps_ok)
		yaml_parser_delete(&ps);
	free(p.where);
	if (rc != 0)
		amc_flow_free(out);
	return rc;
}

int amc_flow_load(const char *path, amc_flow *out, amc_err *e)
{
	char *buf = NULL;
	size_t len = 0;
	memset(out, 0, sizeof *out);
	if (!path || !*path)
		return amc_err_set(e, AMC_EUSAGE, "no flow file given");
	if (amc_read_file(path, AMC_FLOW_MAX_BYTES, &buf, &len, e) != 0) {
		/* amc_read_file quotes the path raw; rebuild the message with a safe one. */
		char *where = amc_sanitize_dup(path);
		if (!amc_file_exists(path))
			amc_err_set(e, AMC_EUSAGE, "flow file '%s' not found: check the path "
				    "(bundled flows are in data/flows/)", where);
		else if (e) {
			char *m = amc_sanitize_dup(e->msg);
			amc_err_set(e, AMC_EUSAGE, "cannot read flow file: %s", m);
			free(m);
		}
		free(where);
		return -1;
	}
	int rc = amc_flow_parse(buf, len, path, out, e);
	free(buf);
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

static void put_selector(amc_sb *sb, const amc_selector *s)
{
	int sep = 0;
	if (s->has_point) {
		amc_sb_printf(sb, "point=%d%s,%d%s", s->point_x, s->point_is_percent ? "%" : "",
			      s->point_y, s->point_is_percent ? "%" : "");
		sep = 1;
	}
	if (s->text && !s->id && !s->has_point) {
		put_quoted(sb, s->text);
		sep = 1;
	} else if (s->text) {
		amc_sb_puts(sb, sep ? " text=" : "text=");
		put_quoted(sb, s->text);
		sep = 1;
	}
	if (s->id) {
		amc_sb_puts(sb, sep ? " id=" : "id=");
		put_quoted(sb, s->id);
		sep = 1;
	}
	if (s->index)
		amc_sb_printf(sb, "%sindex=%d", sep ? " " : "", s->index);
	if (s->optional)
		amc_sb_puts(sb, " (optional)");
}

char *amc_flow_cmd_describe(const amc_flow_cmd *c)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, amc_flow_op_name(c->op));
	switch (c->op) {
	case AMC_FLOW_TAP_ON:
	case AMC_FLOW_LONG_PRESS_ON:
	case AMC_FLOW_ASSERT_VISIBLE:
	case AMC_FLOW_ASSERT_NOT_VISIBLE:
		amc_sb_putc(&sb, ' ');
		put_selector(&sb, &c->sel);
		break;
	case AMC_FLOW_SCROLL_UNTIL_VISIBLE:
		amc_sb_putc(&sb, ' ');
		put_selector(&sb, &c->sel);
		amc_sb_printf(&sb, " %s", c->direction ? c->direction : "DOWN");
		break;
	case AMC_FLOW_INPUT_TEXT:
		amc_sb_putc(&sb, ' ');
		put_quoted(&sb, c->text ? c->text : "");
		break;
	case AMC_FLOW_PRESS_KEY:
		amc_sb_printf(&sb, " %s", c->text ? c->text : "?");
		break;
	case AMC_FLOW_LAUNCH_APP:
		if (c->text) {
			amc_sb_putc(&sb, ' ');
			amc_sanitize_line(c->text, strlen(c->text), &sb);
		}
		break;
	case AMC_FLOW_SWIPE:
		if (c->direction)
			amc_sb_printf(&sb, " %s", c->direction);
		else
			amc_sb_printf(&sb, " %d%s,%d%s -> %d%s,%d%s", c->sx, c->percent ? "%" : "", c->sy,
				      c->percent ? "%" : "", c->ex, c->percent ? "%" : "", c->ey,
				      c->percent ? "%" : "");
		break;
	case AMC_FLOW_ERASE_TEXT:
		amc_sb_printf(&sb, " %d", c->number);
		break;
	case AMC_FLOW_WAIT_FOR_ANIMATION:
		amc_sb_printf(&sb, " (timeout %d ms)", c->number);
		break;
	case AMC_FLOW_TAKE_SCREENSHOT:
		if (c->text) {
			amc_sb_putc(&sb, ' ');
			put_quoted(&sb, c->text);
		}
		break;
	default:
		break;
	}
	return amc_sb_detach(&sb);
}
