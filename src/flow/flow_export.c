/* flow_export.c - a succeeded task written back as a Maestro flow (flow_export.h). */
#include "flow/flow_export.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device/device.h"
#include "flow/selector.h"
#include "perception/uitree.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"
#include "storage/stored_tree.h"

#define MAX_INDEX 50 /* text with index: tried up to this many matches */

/* ---- writing YAML ---- */

/* s as a YAML double-quoted scalar: quotes, backslashes and control bytes escaped. */
static void q(amc_sb *sb, const char *s)
{
	amc_sb_putc(sb, '"');
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			amc_sb_printf(sb, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			amc_sb_printf(sb, "\\x%02x", *p);
		else
			amc_sb_putc(sb, (char)*p);
	}
	amc_sb_putc(sb, '"');
}

/* A comment line: one line, terminal-safe. */
static void comment(amc_sb *sb, const char *indent, const char *fmt, const char *arg)
{
	char *safe = amc_sanitize_dup(arg ? arg : "");
	for (char *p = safe; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	amc_sb_puts(sb, indent);
	amc_sb_puts(sb, "# ");
	amc_sb_printf(sb, fmt, safe);
	amc_sb_putc(sb, '\n');
	free(safe);
}

/* Maestro's text and id are full-match regular expressions: escape s. */
static char *regex_literal(const char *s)
{
	amc_sb sb;
	amc_sb_init(&sb);
	for (const char *p = s; *p; p++) {
		if (strchr("\\^$.|?*+()[]{}", *p))
			amc_sb_putc(&sb, '\\');
		amc_sb_putc(&sb, *p);
	}
	return amc_sb_detach(&sb);
}

/* "Type {{secret:PASSWORD}} now" -> "Type ${PASSWORD} now". */
static char *secrets_as_env(const char *s, int *had)
{
	amc_sb sb;
	amc_sb_init(&sb);
	const char *p = s;
	for (;;) {
		const char *o = strstr(p, "{{secret:");
		const char *c = o ? strstr(o, "}}") : NULL;
		if (!o || !c) {
			amc_sb_puts(&sb, p);
			break;
		}
		amc_sb_append(&sb, p, (size_t)(o - p));
		amc_sb_puts(&sb, "${");
		amc_sb_append(&sb, o + 9, (size_t)(c - (o + 9)));
		amc_sb_putc(&sb, '}');
		*had = 1;
		p = c + 2;
	}
	return amc_sb_detach(&sb);
}

/* ---- trees ---- */


/* The stored tree at `rel` into *t: 1, or 0 when it cannot be had. */
static int stored_tree(amc_store *s, const char *rel, amc_ui_tree *t)
{
	amc_err e;
	return amc_stored_tree_load(s, rel, t, &e) == 0;
}

/* The tree a step saw: beside its before screenshot (obs-N.png ->
 * obs-N-tree.json), else the previous step's after tree. */
static int before_tree(amc_store *s, const amc_step_row *r, const amc_step_row *prev, amc_ui_tree *t)
{
	const char *png = r->before_screenshot;
	size_t len = png ? strlen(png) : 0;
	if (len > 4 && len < PATH_MAX - 16 && !strcmp(png + len - 4, ".png")) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%.*s-tree.json", (int)(len - 4), png);
		if (stored_tree(s, path, t))
			return 1;
	}
	return prev && stored_tree(s, prev->ui_tree_path, t);
}

static void screen_size(const amc_ui_tree *t, int *w, int *h)
{
	*w = *h = 0;
	for (size_t i = 0; i < t->count; i++) {
		if (t->nodes[i].bounds.x2 > *w)
			*w = t->nodes[i].bounds.x2;
		if (t->nodes[i].bounds.y2 > *h)
			*h = t->nodes[i].bounds.y2;
	}
}

static int inside(const amc_bounds *b, int x, int y)
{
	return x >= b->x1 && x < b->x2 && y >= b->y1 && y < b->y2;
}

static long area(const amc_bounds *b)
{
	return (long)(b->x2 - b->x1) * (b->y2 - b->y1);
}

/* What the tap hit: the smallest clickable displayed node under the point,
 * else the smallest displayed one; -1 when none. */
static int target_of(const amc_ui_tree *t, int x, int y)
{
	int best = -1, best_click = -1;
	for (size_t i = 0; i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		if (!(n->flags & AMC_NODE_DISPLAYED) || !inside(&n->bounds, x, y))
			continue;
		if (best < 0 || area(&n->bounds) <= area(&t->nodes[best].bounds))
			best = (int)i;
		if ((n->flags & AMC_NODE_CLICKABLE) &&
		    (best_click < 0 || area(&n->bounds) <= area(&t->nodes[best_click].bounds)))
			best_click = (int)i;
	}
	return best_click >= 0 ? best_click : best;
}

/* Does tapping what `sel` finds hit the target (its centre inside it)? */
static int hits(const amc_selector *sel, const amc_ui_tree *t, const amc_bounds *target)
{
	int k = amc_selector_find(sel, t);
	if (k < 0)
		return 0;
	const amc_bounds *b = &t->nodes[k].bounds;
	return inside(target, (b->x1 + b->x2) / 2, (b->y1 + b->y2) / 2);
}

/* The selector lines of a tap at x,y on t (indented 4), with a comment
 * saying which kind was chosen. */
static void selector_for(amc_sb *sb, const amc_ui_tree *t, int have_tree, int x, int y)
{
	int w = 0, h = 0, tg = -1;
	if (have_tree) {
		screen_size(t, &w, &h);
		tg = target_of(t, x, y);
	}
	if (tg >= 0) {
		const amc_bounds *target = &t->nodes[tg].bounds;
		/* candidates: every displayed node under the point, smallest first */
		int cand[64];
		size_t nc = 0;
		for (size_t i = 0; i < t->count && nc < 64; i++)
			if ((t->nodes[i].flags & AMC_NODE_DISPLAYED) && inside(&t->nodes[i].bounds, x, y))
				cand[nc++] = (int)i;
		for (size_t a = 1; a < nc; a++)
			for (size_t b = a; b > 0 && area(&t->nodes[cand[b]].bounds) < area(&t->nodes[cand[b - 1]].bounds); b--) {
				int tmp = cand[b];
				cand[b] = cand[b - 1];
				cand[b - 1] = tmp;
			}
		/* a unique resource id, then a unique text */
		for (int pass = 0; pass < 2; pass++) {
			for (size_t c = 0; c < nc; c++) {
				const amc_ui_node *n = &t->nodes[cand[c]];
				const char *v = pass == 0 ? n->resource_id : (*n->text ? n->text : n->content_desc);
				if (!v || !*v)
					continue;
				amc_selector sel;
				memset(&sel, 0, sizeof sel);
				char *rx = regex_literal(v);
				if (pass == 0)
					sel.id = rx;
				else
					sel.text = rx;
				int found = amc_selector_count(&sel, t) == 1 && hits(&sel, t, target);
				if (found) {
					amc_sb_puts(sb, pass == 0 ? "    # a unique resource id\n    id: "
								  : "    # a unique text\n    text: ");
					q(sb, rx);
					amc_sb_putc(sb, '\n');
				}
				free(rx);
				if (found)
					return;
			}
		}
		/* text with index: the first match whose centre is on the target */
		for (size_t c = 0; c < nc; c++) {
			const amc_ui_node *n = &t->nodes[cand[c]];
			if (!*n->text)
				continue;
			amc_selector sel;
			memset(&sel, 0, sizeof sel);
			sel.text = regex_literal(n->text);
			sel.has_index = 1;
			int count = amc_selector_count(&sel, t);
			for (sel.index = 0; sel.index < count && sel.index < MAX_INDEX; sel.index++) {
				if (hits(&sel, t, target)) {
					amc_sb_printf(sb, "    # this text is on the screen %d times: match %d of %d, "
						      "top to bottom\n    text: ", count, sel.index + 1, count);
					q(sb, sel.text);
					amc_sb_printf(sb, "\n    index: %d\n", sel.index);
					free(sel.text);
					return;
				}
			}
			free(sel.text);
		}
	}
	if (w > 0 && h > 0) {
		amc_sb_printf(sb, "    # %s: a point, as a share of the screen\n    point: \"%d%%,%d%%\"\n",
			      tg >= 0 ? "no id or text tells this element apart" : "nothing in the UI tree is there",
			      (int)((x * 100L + w / 2) / w), (int)((y * 100L + h / 2) / h));
	} else {
		amc_sb_printf(sb, "    # no UI tree was recorded for this step: a point in pixels\n"
			      "    point: \"%d,%d\"\n", x, y);
	}
}

/* ---- the goal ---- */

static int word_in(const char *hay, const char *w, size_t n)
{
	for (const char *p = hay; *p; p++)
		if (!strncasecmp(p, w, n) && (p == hay || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return 1;
	return 0;
}

/* How many words of 3+ letters of `goal` text holds. */
static int shared_words(const char *goal, const char *text)
{
	int k = 0;
	for (const char *p = goal; *p;) {
		while (*p && !isalnum((unsigned char)*p))
			p++;
		const char *s = p;
		while (*p && isalnum((unsigned char)*p))
			p++;
		if (p - s >= 3 && word_in(text, s, (size_t)(p - s)))
			k++;
	}
	return k;
}

static void final_assert(amc_sb *sb, const char *goal, const amc_ui_tree *t)
{
	int best = -1, score = 0;
	for (size_t i = 0; goal && i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		if (!(n->flags & AMC_NODE_DISPLAYED) || !*n->text || strlen(n->text) > 200)
			continue;
		int k = shared_words(goal, n->text);
		if (k > score || (k == score && k > 0 && strlen(n->text) > strlen(t->nodes[best].text))) {
			best = (int)i;
			score = k;
		}
	}
	if (best < 0) {
		amc_sb_puts(sb, "# no text of the final screen names what the goal was about: nothing asserted\n");
		return;
	}
	char *rx = regex_literal(t->nodes[best].text);
	amc_sb_puts(sb, "# what the goal was about, on the final screen\n- assertVisible: ");
	q(sb, rx);
	amc_sb_putc(sb, '\n');
	free(rx);
}

/* ---- steps ---- */

static const char *key_name(const char *k)
{
	static const char *const K[][2] = { { "home", "Home" }, { "enter", "Enter" }, { "delete", "Backspace" } };
	for (size_t i = 0; i < sizeof K / sizeof K[0]; i++)
		if (!strcmp(k, K[i][0]))
			return K[i][1];
	return NULL;
}

static void swipe_point(amc_sb *sb, int x, int y, int w, int h)
{
	if (w > 0 && h > 0)
		amc_sb_printf(sb, "\"%d%%,%d%%\"", (int)((x * 100L + w / 2) / w), (int)((y * 100L + h / 2) / h));
	else
		amc_sb_printf(sb, "\"%d,%d\"", x, y);
}

/* One step as commands; 1 when it wrote one. Over 120 lines: one case per
 * recorded tool (tap, text, swipe, key, app, link, assertion), each writing
 * the Maestro command that replays it, kept together so the mapping reads as
 * one table. */
static int step_cmd(amc_sb *sb, amc_store *s, const amc_step_row *r, const amc_step_row *prev, int *secrets)
{
	if (!r->tool || !r->status || strcmp(r->status, "ok"))
		return 0;
	cJSON *a = r->args ? cJSON_Parse(r->args) : NULL;
	if (!a)
		a = cJSON_CreateObject();
	const char *tool = r->tool;
	int wrote = 1;
	if (!strcmp(tool, "tap") || !strcmp(tool, "long_press")) {
		amc_ui_tree t;
		int have = before_tree(s, r, prev, &t);
		amc_sb_puts(sb, strcmp(tool, "tap") ? "- longPressOn:\n"
				: amc_json_int(a, "count", 1) == 2 ? "- doubleTapOn:\n" : "- tapOn:\n");
		selector_for(sb, &t, have, amc_json_int(a, "x", 0), amc_json_int(a, "y", 0));
		if (have)
			amc_uitree_free(&t);
	} else if (!strcmp(tool, "type_text")) {
		char *v = secrets_as_env(amc_json_str(a, "text") ? amc_json_str(a, "text") : "", secrets);
		amc_sb_puts(sb, "- inputText: ");
		q(sb, v);
		amc_sb_putc(sb, '\n');
		free(v);
	} else if (!strcmp(tool, "press_key")) {
		const char *k = amc_json_str(a, "key") ? amc_json_str(a, "key") : "";
		amc_key key;
		int times = amc_json_int(a, "times", 1);
		if (!strcmp(k, "back")) {
			amc_sb_puts(sb, "- back\n");
		} else if (!strcmp(k, "hide_keyboard")) {
			amc_sb_puts(sb, "- hideKeyboard\n");
		} else if (!strcmp(k, "delete") && times > 1) {
			amc_sb_printf(sb, "- eraseText: %d\n", times);
		} else if (key_name(k)) {
			amc_sb_printf(sb, "- pressKey: %s\n", key_name(k));
		} else if (amc_key_parse(k, &key) == 0) {
			amc_sb_puts(sb, "- pressKey: ");
			q(sb, amc_key_name(key));
			amc_sb_putc(sb, '\n');
		} else {
			wrote = 0;
		}
	} else if (!strcmp(tool, "swipe")) {
		amc_ui_tree t;
		int have = before_tree(s, r, prev, &t), w = 0, h = 0;
		if (have) {
			screen_size(&t, &w, &h);
			amc_uitree_free(&t);
		}
		amc_sb_puts(sb, "- swipe:\n    start: ");
		swipe_point(sb, amc_json_int(a, "x1", 0), amc_json_int(a, "y1", 0), w, h);
		amc_sb_puts(sb, "\n    end: ");
		swipe_point(sb, amc_json_int(a, "x2", 0), amc_json_int(a, "y2", 0), w, h);
		amc_sb_printf(sb, "\n    duration: %d\n", amc_json_int(a, "ms", 400));
	} else if (!strcmp(tool, "launch_app")) {
		amc_sb_puts(sb, "- launchApp:\n    appId: ");
		q(sb, amc_json_str(a, "app_id"));
		amc_sb_putc(sb, '\n');
	} else if (!strcmp(tool, "stop_app") || !strcmp(tool, "clear_app") || !strcmp(tool, "open_link")) {
		/* the actions models and MCP clients get: the Maestro commands of manage_app's ops */
		const char *v = amc_json_str(a, tool[0] == 'o' ? "link" : "app_id");
		if (v) {
			amc_sb_printf(sb, "- %s: ", tool[0] == 's' ? "stopApp" : tool[0] == 'c' ? "clearState" : "openLink");
			q(sb, v);
			amc_sb_putc(sb, '\n');
		} else {
			wrote = 0;
		}
	} else if (!strcmp(tool, "rotate") && amc_orientation_parse(amc_json_str(a, "orientation")) >= 0) {
		static const char *const N[] = { "PORTRAIT", "LANDSCAPE_LEFT", "UPSIDE_DOWN", "LANDSCAPE_RIGHT" };
		amc_sb_printf(sb, "- setOrientation: %s\n", N[amc_orientation_parse(amc_json_str(a, "orientation"))]);
	} else if (!strcmp(tool, "manage_app")) {
		const char *op = amc_json_str(a, "op") ? amc_json_str(a, "op") : "";
		const char *cmd = !strcmp(op, "clear_state") ? "clearState" : !strcmp(op, "stop") ? "stopApp"
				  : !strcmp(op, "kill") ? "killApp" : !strcmp(op, "open_link") ? "openLink" : NULL;
		const char *v = !strcmp(op, "open_link") ? amc_json_str(a, "link") : amc_json_str(a, "app_id");
		if (cmd && v) {
			amc_sb_printf(sb, "- %s: ", cmd);
			q(sb, v);
			amc_sb_putc(sb, '\n');
		} else if (cmd && strcmp(op, "open_link")) {
			amc_sb_printf(sb, "- %s\n", cmd); /* the flow's appId */
		} else {
			wrote = 0;
		}
	} else if (!strcmp(tool, "set_device")) {
		/* back to the Maestro command that made it */
		const char *set = amc_json_str(a, "setting") ? amc_json_str(a, "setting") : "";
		const char *v = amc_json_str(a, "value") ? amc_json_str(a, "value") : "";
		double la, lo;
		if (!strcmp(set, "orientation") && amc_orientation_parse(v) >= 0) {
			static const char *const N[] = { "PORTRAIT", "LANDSCAPE_LEFT", "UPSIDE_DOWN", "LANDSCAPE_RIGHT" };
			amc_sb_printf(sb, "- setOrientation: %s\n", N[amc_orientation_parse(v)]);
		} else if (!strcmp(set, "airplane") && !strcmp(v, "toggle")) {
			amc_sb_puts(sb, "- toggleAirplaneMode\n");
		} else if (!strcmp(set, "airplane") && (!strcmp(v, "on") || !strcmp(v, "off"))) {
			amc_sb_printf(sb, "- setAirplaneMode: %s\n", !strcmp(v, "on") ? "enabled" : "disabled");
		} else if (!strcmp(set, "location") && amc_location_parse(v, &la, &lo) == 0) {
			amc_sb_printf(sb, "- setLocation:\n    latitude: %.6f\n    longitude: %.6f\n", la, lo);
		} else if (!strcmp(set, "dark_mode") && !strcmp(v, "toggle")) {
			amc_sb_puts(sb, "- toggleDarkMode\n");
		} else if (!strcmp(set, "dark_mode") && (!strcmp(v, "on") || !strcmp(v, "off"))) {
			amc_sb_printf(sb, "- setDarkMode: %s\n", !strcmp(v, "on") ? "enabled" : "disabled");
		} else if (!strcmp(set, "add_media") && *v) {
			amc_sb_puts(sb, "- addMedia:\n    - ");
			q(sb, v);
			amc_sb_putc(sb, '\n');
		} else {
			wrote = 0;
		}
	} else if (!strcmp(tool, "assert_visible")) {
		/* the element the assertion matched, so the replay asserts the same */
		cJSON *res = r->result ? cJSON_Parse(r->result) : NULL;
		cJSON *m = cJSON_GetObjectItemCaseSensitive(res, "matched");
		const char *id = amc_json_str(m, "resource_id"), *text = amc_json_str(m, "text");
		if (id && *id) {
			amc_sb_puts(sb, "- assertVisible:\n    id: ");
			q(sb, id);
			amc_sb_putc(sb, '\n');
		} else if (text && *text) {
			char *rx = regex_literal(text);
			amc_sb_puts(sb, "- assertVisible: ");
			q(sb, rx);
			amc_sb_putc(sb, '\n');
			free(rx);
		} else {
			wrote = 0;
		}
		cJSON_Delete(res);
	} else if (!strcmp(tool, "assert_not_visible")) {
		/* only a selector of one text or one id is rewritten; others are said */
		const char *d = amc_json_str(a, "selector");
		size_t dl = d ? strlen(d) : 0;
		int is_text = d && !strncmp(d, "text=\"", 6), is_id = d && !strncmp(d, "id=\"", 4);
		size_t off = is_text ? 6 : 4;
		if ((is_text || is_id) && dl > off && d[dl - 1] == '"' && !memchr(d + off, '"', dl - off - 1)) {
			char *v = amc_xstrdup(d + off);
			v[dl - off - 1] = '\0';
			amc_sb_printf(sb, "- assertNotVisible:\n    %s: ", is_text ? "text" : "id");
			q(sb, v);
			amc_sb_putc(sb, '\n');
			free(v);
		} else {
			comment(sb, "", "assertNotVisible %s: not exported", d ? d : "?");
		}
	} else if (!strcmp(tool, "record") && amc_json_str(a, "op")) {
		/* the recording's name back (startRecording's path) */
		const char *op = amc_json_str(a, "op"), *name = amc_json_str(a, "name");
		if (!strcmp(op, "start") && name) {
			amc_sb_puts(sb, "- startRecording: ");
			q(sb, name);
			amc_sb_putc(sb, '\n');
		} else if (!strcmp(op, "stop")) {
			amc_sb_puts(sb, "- stopRecording\n");
		} else {
			wrote = 0;
		}
	} else if (!strcmp(tool, "get_device") && amc_json_str(a, "expect") &&
		   !strcmp(amc_json_str(a, "setting") ? amc_json_str(a, "setting") : "", "dark_mode")) {
		amc_sb_printf(sb, "- %s\n", !strcmp(amc_json_str(a, "expect"), "on") ? "assertDarkMode" : "assertLightMode");
	} else {
		wrote = 0; /* looking (screenshots, trees), waiting, a flow's own decisions */
	}
	cJSON_Delete(a);
	return wrote;
}

/* The app: the first launch_app's, else the package of the first tree. */
static char *app_of(amc_store *s, const amc_step_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].tool || strcmp(rows[i].tool, "launch_app"))
			continue;
		cJSON *a = rows[i].args ? cJSON_Parse(rows[i].args) : NULL;
		const char *v = amc_json_str(a, "app_id");
		char *r = v && *v ? amc_xstrdup(v) : NULL;
		cJSON_Delete(a);
		if (r)
			return r;
	}
	for (size_t i = 0; i < n; i++) {
		amc_ui_tree t;
		if (!before_tree(s, &rows[i], i ? &rows[i - 1] : NULL, &t))
			continue;
		char *r = NULL;
		for (size_t k = 0; k < t.count && !r; k++)
			if (t.nodes[k].package && *t.nodes[k].package)
				r = amc_xstrdup(t.nodes[k].package);
		amc_uitree_free(&t);
		if (r)
			return r;
	}
	return NULL;
}

int amc_flow_export(amc_store *s, const char *task_id, char **yaml_out, amc_err *e)
{
	*yaml_out = NULL;
	amc_task_row t;
	memset(&t, 0, sizeof t);
	if (amc_store_get_task(s, task_id, &t, e) != 0)
		return -1;
	if (!t.status || strcmp(t.status, "succeeded")) {
		char *st = amc_sanitize_dup(t.status ? t.status : "unknown");
		amc_err_set(e, AMC_EUSAGE, "task %s %s: only a succeeded task is exported as a flow", t.id, st);
		free(st);
		amc_task_row_free(&t);
		return -1;
	}
	amc_step_row *rows = NULL;
	size_t n = 0;
	if (amc_store_get_steps(s, t.id, &rows, &n, e) != 0) {
		amc_task_row_free(&t);
		return -1;
	}
	amc_sb sb, body;
	amc_sb_init(&sb);
	amc_sb_init(&body);
	int cmds = 0, secrets = 0;
	for (size_t i = 0; i < n; i++)
		cmds += step_cmd(&body, s, &rows[i], i ? &rows[i - 1] : NULL, &secrets);
	int rc = 0;
	if (cmds == 0) {
		rc = amc_err_set(e, AMC_EUSAGE, "task %s has no step that acted on the device: nothing to export", t.id);
	} else {
		char *app = app_of(s, rows, n);
		const char *goal = t.goal ? t.goal : t.flow_name ? t.flow_name : t.flow_path;
		amc_sb_printf(&sb, "# Exported by amc from task %s (planner %s, %d steps).\n", t.id,
			      t.planner ? t.planner : "?", t.steps);
		if (goal)
			comment(&sb, "", "goal: %s", goal);
		if (secrets)
			amc_sb_puts(&sb, "# Secrets are ${NAME} references: give them with -e NAME=VALUE.\n");
		amc_sb_puts(&sb, "appId: ");
		q(&sb, app ? app : "unknown");
		amc_sb_puts(&sb, "\n---\n");
		amc_sb_append(&sb, body.buf, body.len);
		amc_ui_tree last;
		/* a flow's own assertions stand; a goal run asserts its final screen */
		if (t.goal && n && stored_tree(s, rows[n - 1].ui_tree_path, &last)) {
			final_assert(&sb, t.goal, &last);
			amc_uitree_free(&last);
		}
		free(app);
		*yaml_out = amc_sb_detach(&sb);
	}
	amc_sb_free(&sb);
	amc_sb_free(&body);
	amc_step_rows_free(rows, n);
	amc_task_row_free(&t);
	return rc;
}
