/* flow_cmds_sel.c - the parts several commands share: options walking,
 * selectors (with Maestro's relative, state and size keys), conditions
 * (when:/while:), NAME: value blocks, directions, and descriptions. */
#include "flow/flow_cmds.h"

#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/sanitize.h"

#define SEL_MAX_DEPTH 8 /* relative selectors inside relative selectors */

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
		amc_flow_yaml_err(y, it->key, "%s: unknown option '%s' (supported: %s); Maestro's parser refuses "
				  "it too (an unknown key is an UnrecognizedPropertyException there)%s", cmd, q, supported,
				  !strcmp(q, "timeout") && strncmp(cmd, "assert", 6) == 0
					  ? ": to wait, write extendedWaitUntil: {visible: ..., timeout: N}" : "");
	else
		amc_flow_yaml_err(y, it->key, "%s: option '%s' is not supported yet "
				  "(docs/flows.md lists the supported subset)", cmd, q);
	free(q);
	return -1;
}

int amc_flow_opts_read(amc_flow_yaml *y, const yaml_node_t *m, const char *cmd, const char *supported,
		       const char *const *later, amc_flow_opt_fn fn, void *ctx, char **label)
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
		if (!strcmp(it->name, "label")) {
			char *l = NULL;
			rc = amc_flow_yaml_str(y, it->val, what, 1, &l);
			if (rc == 0 && label && l) {
				free(*label);
				*label = l;
				l = NULL;
			}
			free(l);
		} else {
			rc = key_error(y, it, cmd, in_list(it->name, later) ? NULL : supported);
		}
	}
	free(items);
	return rc;
}

int amc_flow_shape(amc_flow_yaml *y, const yaml_node_t *v, const char *cmd, int accepts, const char *takes)
{
	int shape = !v || amc_flow_yaml_is_null(v)    ? AMC_FLOW_V_NONE
		    : v->type == YAML_SCALAR_NODE   ? AMC_FLOW_V_SCALAR
		    : v->type == YAML_MAPPING_NODE  ? AMC_FLOW_V_MAPPING
		    : v->type == YAML_SEQUENCE_NODE ? AMC_FLOW_V_LIST
						    : 0;
	if (shape & accepts)
		return shape;
	return amc_flow_yaml_err(y, v, "%s %s, got %s", cmd, takes, amc_flow_yaml_kind(v));
}

int amc_flow_direction(amc_flow_yaml *y, const yaml_node_t *n, const char *what, char **out)
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

/* traits: "text square long-text" (space-separated; ElementTrait.valueOf
 * after '-' -> '_' and upper case, so any case is read). */
static int traits(amc_flow_yaml *y, const yaml_node_t *v, const char *what, unsigned *out)
{
	char *t = NULL;
	if (amc_flow_yaml_str(y, v, what, 0, &t) != 0)
		return -1;
	*out = 0;
	int rc = 0;
	for (char *save = NULL, *w = strtok_r(t, " ", &save); w && rc == 0; w = strtok_r(NULL, " ", &save)) {
		for (char *c = w; *c; c++)
			*c = *c == '_' ? '-' : (char)tolower((unsigned char)*c);
		if (!strcmp(w, "text"))
			*out |= AMC_TRAIT_TEXT;
		else if (!strcmp(w, "square"))
			*out |= AMC_TRAIT_SQUARE;
		else if (!strcmp(w, "long-text"))
			*out |= AMC_TRAIT_LONG_TEXT;
		else
			rc = amc_flow_yaml_err(y, v, "%s: unknown trait '%.40s' (text, square, long-text)", what, w);
	}
	if (rc == 0 && !*out)
		rc = amc_flow_yaml_err(y, v, "%s names no trait (text, square, long-text)", what);
	free(t);
	return rc;
}



void amc_selector_clear(amc_selector *s)
{
	if (!s)
		return;
	free(s->text);
	free(s->id);
	free(s->point_text);
	free(s->index_text);
	amc_selector *rel[] = { s->below, s->above, s->left_of, s->right_of, s->contains_child, s->child_of };
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		amc_selector_clear(rel[i]);
		free(rel[i]);
	}
	for (size_t i = 0; i < s->ndescendants; i++)
		amc_selector_clear(&s->descendants[i]);
	free(s->descendants);
	memset(s, 0, sizeof *s);
}

typedef struct sel_ctx {
	amc_selector *s;
	unsigned flags;
	amc_flow_cmd *owner; /* tapOn and the like: their tap options live in the selector mapping */
	int depth;
} sel_ctx;

static int sel_parse(amc_flow_yaml *y, const yaml_node_t *n, const char *cmd, unsigned flags, amc_selector *s,
		     amc_flow_cmd *owner, int depth);

static int relative(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, sel_ctx *k,
		    amc_selector **slot)
{
	if (*slot)
		return amc_flow_yaml_err(y, it->key, "%s is given twice", what);
	*slot = amc_xcalloc(1, sizeof **slot);
	return sel_parse(y, it->val, what, AMC_FLOW_SEL_NESTED, *slot, NULL, k->depth + 1);
}

static int tri(amc_flow_yaml *y, const yaml_node_t *v, const char *what, int *out)
{
	int b;
	/* 'false' in quotes: Maestro's YAML reader takes a quoted boolean too */
	if (v && v->type == YAML_SCALAR_NODE && v->data.scalar.style != YAML_PLAIN_SCALAR_STYLE &&
	    (!strcmp((const char *)v->data.scalar.value, "true") || !strcmp((const char *)v->data.scalar.value, "false"))) {
		*out = v->data.scalar.value[0] == 't' ? AMC_SEL_YES : AMC_SEL_NO;
		return 0;
	}
	if (amc_flow_yaml_bool(y, v, what, &b) != 0)
		return -1;
	*out = b ? AMC_SEL_YES : AMC_SEL_NO;
	return 0;
}

static int selector_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	sel_ctx *k = ctx;
	amc_selector *s = k->s;
	const char *nm = it->name;
	if (!strcmp(nm, "text"))
		return amc_flow_yaml_str(y, it->val, what, 1, &s->text);
	if (!strcmp(nm, "id"))
		return amc_flow_yaml_str(y, it->val, what, 1, &s->id);
	if (!strcmp(nm, "index")) {
		s->has_index = 1;
		/* YamlElementSelector.index is a String: `index: ${i}` is filled when the command runs. */
		if (it->val && it->val->type == YAML_SCALAR_NODE && strstr((const char *)it->val->data.scalar.value, "${"))
			return amc_flow_yaml_str(y, it->val, what, 1, &s->index_text);
		return amc_flow_yaml_int(y, it->val, what, 0, 100000, &s->index);
	}
	if (!strcmp(nm, "point") && (k->flags & AMC_FLOW_SEL_POINT)) {
		if (it->val->type == YAML_SCALAR_NODE && strstr((const char *)it->val->data.scalar.value, "${")) {
			s->has_point = 1; /* "${output.x}": read when the command runs */
			return amc_flow_yaml_str(y, it->val, what, 1, &s->point_text);
		}
		int rc = amc_flow_yaml_point(y, it->val, what, &s->point_x, &s->point_y, &s->point_is_percent);
		s->has_point = rc == 0;
		return rc;
	}
	if (!strcmp(nm, "optional") && (k->flags & AMC_FLOW_SEL_OPTIONAL))
		return amc_flow_yaml_bool(y, it->val, what, &s->optional);
	if (!strcmp(nm, "enabled"))
		return tri(y, it->val, what, &s->enabled);
	if (!strcmp(nm, "checked"))
		return tri(y, it->val, what, &s->checked);
	if (!strcmp(nm, "focused"))
		return tri(y, it->val, what, &s->focused);
	if (!strcmp(nm, "selected"))
		return tri(y, it->val, what, &s->selected);
	if (!strcmp(nm, "traits"))
		return traits(y, it->val, what, &s->traits);
	if (!strcmp(nm, "css"))
		return amc_flow_yaml_err(y, it->key, "%s: css selects elements of a web page (Maestro's web driver); "
					 "phones' screens have no CSS: select by text or id", what);
	if (!strcmp(nm, "width"))
		return amc_flow_yaml_int(y, it->val, what, 1, 100000, &s->width);
	if (!strcmp(nm, "height"))
		return amc_flow_yaml_int(y, it->val, what, 1, 100000, &s->height);
	if (!strcmp(nm, "tolerance"))
		return amc_flow_yaml_int(y, it->val, what, 0, 100000, &s->tolerance);
	if (!strcmp(nm, "below"))
		return relative(y, it, what, k, &s->below);
	if (!strcmp(nm, "above"))
		return relative(y, it, what, k, &s->above);
	if (!strcmp(nm, "leftOf"))
		return relative(y, it, what, k, &s->left_of);
	if (!strcmp(nm, "rightOf"))
		return relative(y, it, what, k, &s->right_of);
	if (!strcmp(nm, "containsChild"))
		return relative(y, it, what, k, &s->contains_child);
	if (!strcmp(nm, "childOf"))
		return relative(y, it, what, k, &s->child_of);
	if (!strcmp(nm, "containsDescendants")) {
		const yaml_node_t *v = it->val;
		if (v->type != YAML_SEQUENCE_NODE)
			return amc_flow_yaml_err(y, v, "%s must be a list of selectors, got %s", what,
						 amc_flow_yaml_kind(v));
		size_t cnt = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
		if (cnt == 0 || cnt > 32)
			return amc_flow_yaml_err(y, v, "%s must list 1 to 32 selectors", what);
		if (s->descendants)
			return amc_flow_yaml_err(y, it->key, "%s is given twice", what);
		s->descendants = amc_xcalloc(cnt, sizeof *s->descendants);
		s->ndescendants = cnt;
		for (size_t i = 0; i < cnt; i++) {
			const yaml_node_t *d = amc_flow_yaml_node(y, v->data.sequence.items.start[i]);
			if (sel_parse(y, d, what, AMC_FLOW_SEL_NESTED, &s->descendants[i], NULL, k->depth + 1) != 0)
				return -1;
		}
		return 0;
	}
	amc_flow_cmd *c = k->owner;
	if (c && (k->flags & AMC_FLOW_SEL_POINT)) { /* tapOn, doubleTapOn, longPressOn */
		if (!strcmp(nm, "repeat"))
			return amc_flow_yaml_int(y, it->val, what, 1, 100, &c->times);
		if (!strcmp(nm, "delay"))
			return amc_flow_yaml_int(y, it->val, what, 0, 60000, &c->delay);
		if (!strcmp(nm, "retryTapIfNoChange"))
			return amc_flow_yaml_bool(y, it->val, what, &c->retry_tap);
		if (!strcmp(nm, "waitToSettleTimeoutMs"))
			return amc_flow_yaml_int(y, it->val, what, 0, 600000, &c->settle_ms);
		if (!strcmp(nm, "waitUntilVisible")) {
			int ignored;
			int rc = amc_flow_yaml_bool(y, it->val, what, &ignored);
			/* Maestro.tapOnElement waits for the element to stop moving;
			 * amc looks the element up once the screen is still anyway */
			if (rc == 0 && ignored)
				amc_flow_yaml_note(y, it->key, "%s ignored (amc taps once the screen has "
						   "settled, without a further wait)", what);
			return rc;
		}
	}
	if (!strcmp(nm, "label") && !c)
		return 0; /* a nested selector's label: cosmetic */
	return 1;
}

static int sel_nonempty(const amc_selector *s)
{
	return s->text || s->id || s->has_point || s->below || s->above || s->left_of || s->right_of ||
	       s->contains_child || s->child_of || s->ndescendants || s->enabled || s->checked || s->focused ||
	       s->selected || s->width || s->height || s->traits || s->has_index;
}

static int sel_parse(amc_flow_yaml *y, const yaml_node_t *n, const char *cmd, unsigned flags, amc_selector *s,
		     amc_flow_cmd *owner, int depth)
{
	if (depth > SEL_MAX_DEPTH)
		return amc_flow_yaml_err(y, n, "%s: relative selectors nested deeper than %d", cmd, SEL_MAX_DEPTH);
	if (n && n->type == YAML_SCALAR_NODE && !amc_flow_yaml_is_null(n))
		return amc_flow_yaml_str(y, n, cmd, 0, &s->text);
	if (!n || n->type != YAML_MAPPING_NODE)
		return amc_flow_yaml_err(y, n, "%s needs a selector: a text (tapOn: \"Save\") or a mapping "
					 "(tapOn: {id: \"save\"}), got %s", cmd, amc_flow_yaml_kind(n));
	static const char *const LATER[] = { NULL };
	const char *supported =
		(flags & AMC_FLOW_SEL_POINT)
			? "text, id, index, point, traits, enabled, checked, focused, selected, below, above, leftOf, "
			  "rightOf, containsChild, childOf, containsDescendants, width, height, tolerance, optional, "
			  "repeat, delay, retryTapIfNoChange, waitToSettleTimeoutMs, label"
			: "text, id, index, traits, enabled, checked, focused, selected, below, above, leftOf, rightOf, "
			  "containsChild, childOf, containsDescendants, width, height, tolerance, optional, label";
	sel_ctx k = { s, flags, owner, depth };
	int rc = amc_flow_opts_read(y, n, cmd, supported, LATER, selector_opt, &k, owner ? &owner->label : NULL);
	/* With point: Maestro taps the point and ignores the other keys
	 * (YamlFluentCommand.tapCommand builds TapOnPointV2Command whenever
	 * point is set); so does amc. A mapping with no criterion at all
	 * (`assertVisible: {label: x}`, Rocket.Chat.ReactNative) is accepted
	 * as YamlElementSelector accepts it: it selects any element (see
	 * selector.c), which the description says. */
	return rc;
}

int amc_flow_sel_parse(amc_flow_yaml *y, const yaml_node_t *n, const char *cmd, unsigned flags, amc_selector *s)
{
	return sel_parse(y, n, cmd, flags, s, NULL, 0);
}

/* tapOn and the commands whose value is a selector. */
int amc_flow_sel_parse_cmd(amc_flow_yaml *y, const yaml_node_t *n, const char *cmd, unsigned flags,
			   amc_flow_cmd *c)
{
	return sel_parse(y, n, cmd, flags, &c->sel, c, 0);
}

/* ---- conditions ---- */

void amc_flow_cond_clear(amc_flow_cond *c)
{
	if (!c)
		return;
	amc_selector_clear(c->visible);
	free(c->visible);
	amc_selector_clear(c->not_visible);
	free(c->not_visible);
	free(c->is_true);
	free(c->platform);
	memset(c, 0, sizeof *c);
}

typedef struct cond_ctx {
	amc_flow_cond *c;
	int allow_platform;
} cond_ctx;

static int cond_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	cond_ctx *k = ctx;
	amc_flow_cond *c = k->c;
	if (!strcmp(it->name, "visible") || !strcmp(it->name, "notVisible")) {
		amc_selector **slot = it->name[0] == 'v' ? &c->visible : &c->not_visible;
		if (*slot)
			return amc_flow_yaml_err(y, it->key, "%s is given twice", what);
		*slot = amc_xcalloc(1, sizeof **slot);
		return amc_flow_sel_parse(y, it->val, what, AMC_FLOW_SEL_NESTED, *slot);
	}
	if (!strcmp(it->name, "true"))
		return amc_flow_yaml_str(y, it->val, what, 1, &c->is_true);
	if (!strcmp(it->name, "platform") && k->allow_platform) {
		static const char *const P[] = { "Android", "iOS", "Web" };
		char *s = NULL;
		if (amc_flow_yaml_str(y, it->val, what, 0, &s) != 0)
			return -1;
		for (int i = 0; i < 3; i++) {
			if (!strcasecmp(s, P[i])) {
				free(s);
				free(c->platform);
				c->platform = amc_xstrdup(P[i]);
				return 0;
			}
		}
		free(s);
		char *q = amc_flow_yaml_quote(it->val);
		amc_flow_yaml_err(y, it->val, "%s must be Android, iOS or Web, got '%s'", what, q);
		free(q);
		return -1;
	}
	return 1;
}

int amc_flow_cond_parse(amc_flow_yaml *y, const yaml_node_t *n, const char *what, int allow_platform,
			amc_flow_cond *c)
{
	if (!n || n->type != YAML_MAPPING_NODE)
		return amc_flow_yaml_err(y, n, "%s must be a mapping (visible, notVisible, true%s), got %s", what,
					 allow_platform ? ", platform" : "", amc_flow_yaml_kind(n));
	cond_ctx k = { c, allow_platform };
	int rc = amc_flow_opts_read(y, n, what, allow_platform ? "visible, notVisible, true, platform"
							      : "visible, notVisible, true",
				    NULL, cond_opt, &k, NULL);
	if (rc == 0 && !c->visible && !c->not_visible && !c->is_true && !c->platform)
		rc = amc_flow_yaml_err(y, n, "%s is empty: give visible, notVisible, true%s", what,
				       allow_platform ? " or platform" : "");
	return rc;
}

/* ---- NAME: value ---- */

void amc_flow_kv_free(amc_flow_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].name);
		free(kv[i].value);
	}
	free(kv);
}

int amc_flow_kv_parse(amc_flow_yaml *y, const yaml_node_t *n, const char *what, amc_flow_kv **kv, size_t *nkv)
{
	if (!n || n->type != YAML_MAPPING_NODE)
		return amc_flow_yaml_err(y, n, "%s must be a mapping of NAME: value, got %s", what,
					 amc_flow_yaml_kind(n));
	amc_flow_yaml_kv *items;
	size_t cnt;
	if (amc_flow_yaml_items(y, n, &items, &cnt) != 0)
		return -1;
	int rc = 0;
	if (cnt > 256)
		rc = amc_flow_yaml_err(y, n, "%s has %zu names, over the limit of 256", what, cnt);
	for (size_t i = 0; i < cnt && rc == 0; i++) {
		char w[128];
		snprintf(w, sizeof w, "%s %s", what, items[i].name);
		if (!*items[i].name || strlen(items[i].name) > 128) {
			rc = amc_flow_yaml_err(y, items[i].key, "%s: a name of 1 to 128 characters", what);
			break;
		}
		char *v = NULL;
		if (amc_flow_yaml_is_null(items[i].val))
			v = amc_xstrdup("");
		else if (amc_flow_yaml_str(y, items[i].val, w, 1, &v) != 0) {
			rc = -1;
			break;
		}
		*kv = amc_xrealloc(*kv, (*nkv + 1) * sizeof **kv);
		(*kv)[*nkv].name = amc_xstrdup(items[i].name);
		(*kv)[*nkv].value = v;
		(*nkv)++;
	}
	free(items);
	return rc;
}

/* ---- descriptions ---- */

void amc_flow_put_quoted(amc_sb *sb, const char *s)
{
	amc_sb_putc(sb, '"');
	if (strlen(s) > 60) {
		char *cut = amc_xstrndup(s, amc_utf8_cut(s, 60));
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
	amc_flow_put_quoted(sb, s);
	*sep = 1;
}

void amc_flow_describe_selector(amc_sb *sb, const amc_flow_cmd *c)
{
	const amc_selector *s = &c->sel;
	int sep = 0;
	amc_sb_putc(sb, ' ');
	if (s->has_point) {
		amc_sb_printf(sb, "point=%d%s,%d%s", s->point_x, s->point_is_percent ? "%" : "",
			      s->point_y, s->point_is_percent ? "%" : "");
		sep = 1;
	}
	int plain = s->text && !s->id && !s->has_point && !s->below && !s->above && !s->left_of && !s->right_of &&
		    !s->child_of && !s->contains_child && !s->ndescendants;
	if (s->text)
		put_labelled(sb, &sep, plain ? "" : "text=", s->text);
	if (s->id)
		put_labelled(sb, &sep, "id=", s->id);
	int only_index = s->has_index && !s->text && !s->id && !s->has_point;
	if (s->index || only_index) {
		if (s->index_text) {
			amc_sb_printf(sb, "%sindex=", sep || s->text || s->id ? " " : "");
			amc_sanitize_line(s->index_text, strlen(s->index_text) > 40 ? 40 : strlen(s->index_text), sb);
		} else {
			amc_sb_printf(sb, "%sindex=%d", sep || s->text || s->id ? " " : "", s->index);
		}
		sep = 1;
	}
	int rel = s->below || s->above || s->left_of || s->right_of || s->child_of || s->contains_child ||
		  s->ndescendants;
	if (s->traits) {
		amc_sb_printf(sb, "%straits=", sep ? " " : "");
		const char *tn[] = { "text", "square", "long-text" };
		for (int i = 0, first = 1; i < 3; i++)
			if (s->traits & (1u << i)) {
				amc_sb_printf(sb, "%s%s", first ? "" : "+", tn[i]);
				first = 0;
			}
		sep = 1;
	}
	if (!sel_nonempty(s)) {
		amc_sb_puts(sb, sep ? " " : "");
		amc_sb_puts(sb, "(any element: no criterion, as Maestro reads it)");
	} else if (!plain && !s->id && !s->text && !s->has_point && !s->traits && (rel || !only_index)) {
		amc_sb_puts(sb, sep ? " " : "");
		amc_sb_puts(sb, "(relative)");
	}
	/* a tap's repeat (TapRepeat), shown so a reader sees it was read */
	if ((c->op == AMC_FLOW_TAP_ON || c->op == AMC_FLOW_LONG_PRESS_ON) && c->times > 1) {
		amc_sb_printf(sb, " repeat=%d", c->times);
		if (c->delay > 0)
			amc_sb_printf(sb, " delay=%dms", c->delay);
	}
	if (c->retry_tap)
		amc_sb_puts(sb, " retryTapIfNoChange");
	if (s->optional)
		amc_sb_puts(sb, " (optional)");
}

void amc_flow_describe_text(amc_sb *sb, const amc_flow_cmd *c)
{
	amc_sb_putc(sb, ' ');
	amc_flow_put_quoted(sb, c->text ? c->text : "");
}
