/* flow_planner.c - plays a flow's commands one by one as a planner.
 *
 * Each next() looks at the current command and the latest observation. Device
 * commands become one tool call; selectors that match nothing ask the runner to
 * re-observe until the wait timeout, then fail the step with the selector and a
 * sample of what was on screen; assertions are decided here without touching the
 * device. Every action's args carry "flow_line" so a failure points at the file. */
#include "flow/flow_planner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow/selector.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define SCREEN_SAMPLE_MAX 12      /* texts quoted in a "not found" message */
#define SCREEN_SAMPLE_CHARS 40
#define ANIMATION_WAIT_MS 500     /* waitForAnimationToEnd: the runner's settle does the rest */
#define SWIPE_MS 400

typedef struct flow_planner {
	amc_flow flow;
	long wait_ms;
	size_t pos;                 /* next command */
	int skipped;                /* optional commands skipped */
	/* scrollUntilVisible progress for the current command */
	int swipes;
	int have_sig;
	unsigned long long sig;
} flow_planner;

/* ---- screen helpers ---- */

static const amc_ui_tree *obs_tree(const amc_plan_ctx *ctx)
{
	return ctx && ctx->obs ? &ctx->obs->tree : NULL;
}

static void screen_size(const amc_plan_ctx *ctx, int *w, int *h)
{
	*w = 0;
	*h = 0;
	if (ctx && ctx->obs) {
		*w = ctx->obs->width;
		*h = ctx->obs->height;
		const amc_ui_tree *t = &ctx->obs->tree;
		for (size_t i = 0; (*w <= 0 || *h <= 0) && t->nodes && i < t->count; i++) {
			if (t->nodes[i].parent < 0) {
				if (*w <= 0)
					*w = t->nodes[i].bounds.x2;
				if (*h <= 0)
					*h = t->nodes[i].bounds.y2;
			}
		}
	}
	if (*w <= 0)
		*w = 1080;
	if (*h <= 0)
		*h = 2400;
}

static const char *node_label(const amc_ui_node *n)
{
	if (n->text && *n->text)
		return n->text;
	if (n->content_desc && *n->content_desc)
		return n->content_desc;
	return NULL;
}

/* "'Contacts', 'Add contact', ..." - visible texts, deduplicated, bounded, sanitized. */
static void screen_sample(const amc_ui_tree *t, amc_sb *sb)
{
	int shown = 0, more = 0;
	size_t start = sb->len;
	for (size_t i = 0; t && t->nodes && i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		const char *l = (n->flags & AMC_NODE_DISPLAYED) ? node_label(n) : NULL;
		if (!l)
			continue;
		int dup = 0;
		for (size_t j = 0; j < i && !dup; j++) {
			const amc_ui_node *m = &t->nodes[j];
			const char *ml = (m->flags & AMC_NODE_DISPLAYED) ? node_label(m) : NULL;
			dup = ml && !strcmp(ml, l);
		}
		if (dup)
			continue;
		if (shown == SCREEN_SAMPLE_MAX) {
			more = 1;
			break;
		}
		amc_sb_puts(sb, shown ? ", '" : "'");
		size_t len = strlen(l);
		amc_sanitize_line(l, len > SCREEN_SAMPLE_CHARS ? SCREEN_SAMPLE_CHARS : len, sb);
		if (len > SCREEN_SAMPLE_CHARS)
			amc_sb_puts(sb, "...");
		amc_sb_putc(sb, '\'');
		shown++;
	}
	if (more)
		amc_sb_puts(sb, ", ...");
	if (sb->len == start)
		amc_sb_puts(sb, "no text");
}

/* A cheap fingerprint of what is on screen, to notice a swipe that moved nothing. */
static unsigned long long screen_sig(const amc_ui_tree *t)
{
	unsigned long long h = 1469598103934665603ull;
	for (size_t i = 0; t && t->nodes && i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		if (!(n->flags & AMC_NODE_DISPLAYED))
			continue;
		const char *l = node_label(n);
		for (const char *c = l ? l : ""; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		int v[4] = { n->bounds.x1, n->bounds.y1, n->bounds.x2, n->bounds.y2 };
		for (int k = 0; k < 4; k++)
			h = (h ^ (unsigned)v[k]) * 1099511628211ull;
	}
	return h;
}

static cJSON *bounds_json(const amc_bounds *b)
{
	int v[4] = { b->x1, b->y1, b->x2, b->y2 };
	return cJSON_CreateIntArray(v, 4);
}

static cJSON *matched_json(const amc_ui_node *n)
{
	cJSON *m = cJSON_CreateObject();
	const char *l = node_label(n);
	cJSON_AddStringToObject(m, "text", l ? l : "");
	if (n->resource_id && *n->resource_id)
		cJSON_AddStringToObject(m, "resource_id", n->resource_id);
	cJSON_AddItemToObject(m, "bounds", bounds_json(&n->bounds));
	return m;
}

/* ---- action builders ---- */

static char *where(const flow_planner *fp, const amc_flow_cmd *c)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_line(fp->flow.path ? fp->flow.path : "flow",
			  strlen(fp->flow.path ? fp->flow.path : "flow"), &sb);
	amc_sb_printf(&sb, ":%d", c->line);
	return amc_sb_detach(&sb);
}

static void begin(flow_planner *fp, const amc_flow_cmd *c, const char *tool, amc_action *out)
{
	snprintf(out->tool, sizeof out->tool, "%s", tool);
	out->args = cJSON_CreateObject();
	out->description = amc_flow_cmd_describe(c);
	amc_sb sb;
	amc_sb_init(&sb);
	char *w = where(fp, c);
	amc_sb_printf(&sb, "flow command %zu of %zu (%s)", fp->pos + 1, fp->flow.count, w);
	free(w);
	out->reasoning = amc_sb_detach(&sb);
}

static void add_line(const amc_flow_cmd *c, amc_action *out)
{
	cJSON_AddNumberToObject(out->args, "flow_line", c->line);
}

static void add_selector(const amc_flow_cmd *c, amc_action *out)
{
	char *d = amc_selector_describe(&c->sel);
	cJSON_AddStringToObject(out->args, "selector", d);
	free(d);
}

/* Move on to the next command and forget per-command progress. */
static void advance(flow_planner *fp)
{
	fp->pos++;
	fp->swipes = 0;
	fp->have_sig = 0;
}

static void decide(amc_action *out, int ok, char *error, cJSON *result)
{
	out->decided = 1;
	out->decided_ok = ok;
	out->decided_error = error;
	out->decided_result = result;
}

/* "FILE:LINE: tapOn: no element matches text="Save" after 5.0 s; on screen: ..." */
static char *not_found_msg(const flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx,
			   const char *what)
{
	amc_sb sb;
	amc_sb_init(&sb);
	char *w = where(fp, c), *d = amc_selector_describe(&c->sel);
	amc_sb_printf(&sb, "%s: %s: %s %s after %.1f s; on screen: ", w, amc_flow_op_name(c->op), what, d,
		      (double)(ctx ? ctx->waited_ms : 0) / 1000.0);
	free(w);
	free(d);
	screen_sample(obs_tree(ctx), &sb);
	return amc_sb_detach(&sb);
}

static void skip_optional(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *tool,
			  const char *why)
{
	begin(fp, c, tool, out);
	add_selector(c, out);
	add_line(c, out);
	/* The description ends in " (optional)" for selectors; say it was skipped there. */
	char *d = out->description;
	size_t dl = strlen(d), ol = strlen(" (optional)");
	if (dl >= ol && !strcmp(d + dl - ol, " (optional)"))
		d[dl - ol] = '\0';
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s (optional, skipped)", d);
	free(d);
	out->description = amc_sb_detach(&sb);
	cJSON *r = cJSON_CreateObject();
	cJSON_AddBoolToObject(r, "skipped", 1);
	cJSON_AddStringToObject(r, "reason", why);
	decide(out, 1, NULL, r);
	fp->skipped++;
	advance(fp);
}

static int to_px(int v, int percent, int size)
{
	long x = percent ? (long)size * v / 100 : v;
	if (x >= size)
		x = size - 1;
	if (x < 0)
		x = 0;
	return (int)x;
}

static void swipe_args(amc_action *out, int x1, int y1, int x2, int y2, int ms)
{
	cJSON_AddNumberToObject(out->args, "x1", x1);
	cJSON_AddNumberToObject(out->args, "y1", y1);
	cJSON_AddNumberToObject(out->args, "x2", x2);
	cJSON_AddNumberToObject(out->args, "y2", y2);
	cJSON_AddNumberToObject(out->args, "ms", ms);
}

/* Finger movement for a direction, as fractions of the screen (percent). */
static void direction_points(const char *dir, int *x1, int *y1, int *x2, int *y2)
{
	if (dir && !strcmp(dir, "DOWN")) {
		*x1 = 50, *y1 = 30, *x2 = 50, *y2 = 70;
	} else if (dir && !strcmp(dir, "LEFT")) {
		*x1 = 80, *y1 = 50, *x2 = 20, *y2 = 50;
	} else if (dir && !strcmp(dir, "RIGHT")) {
		*x1 = 20, *y1 = 50, *x2 = 80, *y2 = 50;
	} else { /* UP */
		*x1 = 50, *y1 = 70, *x2 = 50, *y2 = 30;
	}
}

static void swipe_dir(const amc_plan_ctx *ctx, amc_action *out, const char *dir, int ms)
{
	int w, h, x1, y1, x2, y2;
	screen_size(ctx, &w, &h);
	direction_points(dir, &x1, &y1, &x2, &y2);
	swipe_args(out, to_px(x1, 1, w), to_px(y1, 1, h), to_px(x2, 1, w), to_px(y2, 1, h), ms);
}

/* scrollUntilVisible DOWN means "bring content further down into view": the finger moves up. */
static const char *reverse_dir(const char *dir)
{
	if (!dir || !strcmp(dir, "DOWN"))
		return "UP";
	if (!strcmp(dir, "UP"))
		return "DOWN";
	if (!strcmp(dir, "LEFT"))
		return "RIGHT";
	return "LEFT";
}

/* ---- commands ---- */

static amc_plan_rc plan_tap(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx,
			    amc_action *out)
{
	const char *tool = c->op == AMC_FLOW_LONG_PRESS_ON ? "long_press" : "tap";
	int x, y;
	if (c->sel.has_point) {
		int w, h;
		screen_size(ctx, &w, &h);
		x = to_px(c->sel.point_x, c->sel.point_is_percent, w);
		y = to_px(c->sel.point_y, c->sel.point_is_percent, h);
	} else {
		const amc_ui_tree *t = obs_tree(ctx);
		int i = t ? amc_selector_find(&c->sel, t) : -1;
		if (i < 0) {
			if (ctx && ctx->waited_ms < fp->wait_ms)
				return AMC_PLAN_REOBSERVE;
			if (c->sel.optional) {
				skip_optional(fp, c, out, tool, "no element matched");
				return AMC_PLAN_ACT;
			}
			begin(fp, c, tool, out);
			add_selector(c, out);
			add_line(c, out);
			decide(out, 0, not_found_msg(fp, c, ctx, "no element matches"), NULL);
			advance(fp);
			return AMC_PLAN_ACT;
		}
		const amc_bounds *b = &t->nodes[i].bounds;
		x = b->x1 + (b->x2 - b->x1) / 2;
		y = b->y1 + (b->y2 - b->y1) / 2;
		if (x < 0)
			x = 0;
		if (y < 0)
			y = 0;
	}
	begin(fp, c, tool, out);
	cJSON_AddNumberToObject(out->args, "x", x);
	cJSON_AddNumberToObject(out->args, "y", y);
	add_selector(c, out);
	add_line(c, out);
	advance(fp);
	return AMC_PLAN_ACT;
}

static amc_plan_rc plan_assert(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx,
			       amc_action *out)
{
	int want_visible = c->op == AMC_FLOW_ASSERT_VISIBLE;
	const char *tool = want_visible ? "assert_visible" : "assert_not_visible";
	const amc_ui_tree *t = obs_tree(ctx);
	int i = t ? amc_selector_find(&c->sel, t) : -1;
	int holds = want_visible ? i >= 0 : i < 0;
	if (!holds && ctx && ctx->waited_ms < fp->wait_ms)
		return AMC_PLAN_REOBSERVE;
	if (!holds && c->sel.optional) {
		skip_optional(fp, c, out, tool, want_visible ? "not visible" : "still visible");
		return AMC_PLAN_ACT;
	}
	begin(fp, c, tool, out);
	add_selector(c, out);
	add_line(c, out);
	if (holds) {
		cJSON *r = cJSON_CreateObject();
		if (i >= 0)
			cJSON_AddItemToObject(r, "matched", matched_json(&t->nodes[i]));
		else
			cJSON_AddNullToObject(r, "matched");
		decide(out, 1, NULL, r);
	} else if (want_visible) {
		decide(out, 0, not_found_msg(fp, c, ctx, "no element matches"), NULL);
	} else {
		amc_sb sb;
		amc_sb_init(&sb);
		char *w = where(fp, c), *d = amc_selector_describe(&c->sel);
		const amc_ui_node *n = &t->nodes[i];
		const char *l = node_label(n);
		char *ls = amc_sanitize_dup(l ? l : "");
		amc_sb_printf(&sb, "%s: assertNotVisible: %s is still visible after %.1f s: '%s' at "
			      "[%d,%d][%d,%d]", w, d, (double)(ctx ? ctx->waited_ms : 0) / 1000.0, ls,
			      n->bounds.x1, n->bounds.y1, n->bounds.x2, n->bounds.y2);
		free(ls);
		free(w);
		free(d);
		cJSON *r = cJSON_CreateObject();
		cJSON_AddItemToObject(r, "matched", matched_json(n));
		decide(out, 0, amc_sb_detach(&sb), r);
	}
	advance(fp);
	return AMC_PLAN_ACT;
}

static amc_plan_rc plan_scroll_until(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx,
				     amc_action *out)
{
	const amc_ui_tree *t = obs_tree(ctx);
	int i = t ? amc_selector_find(&c->sel, t) : -1;
	/* One swipe per second of Maestro's timeout: sim time is not wall time. */
	int max_swipes = c->number / 1000 > 0 ? c->number / 1000 : 1;
	unsigned long long sig = screen_sig(t);
	int stuck = i < 0 && fp->have_sig && sig == fp->sig;
	if (i >= 0 || stuck || fp->swipes >= max_swipes) {
		if (i < 0 && c->sel.optional) {
			skip_optional(fp, c, out, "scroll_until_visible", "not found");
			return AMC_PLAN_ACT;
		}
		begin(fp, c, "scroll_until_visible", out);
		add_selector(c, out);
		add_line(c, out);
		cJSON_AddNumberToObject(out->args, "swipes", fp->swipes);
		if (i >= 0) {
			cJSON *r = cJSON_CreateObject();
			cJSON_AddItemToObject(r, "matched", matched_json(&t->nodes[i]));
			cJSON_AddNumberToObject(r, "swipes", fp->swipes);
			decide(out, 1, NULL, r);
		} else {
			amc_sb sb;
			amc_sb_init(&sb);
			char *w = where(fp, c), *d = amc_selector_describe(&c->sel);
			amc_sb_printf(&sb, "%s: scrollUntilVisible: no element matches %s after %d swipe%s%s; "
				      "on screen: ", w, d, fp->swipes, fp->swipes == 1 ? "" : "s",
				      stuck ? " (the screen stopped moving)" : "");
			free(w);
			free(d);
			screen_sample(t, &sb);
			decide(out, 0, amc_sb_detach(&sb), NULL);
		}
		advance(fp);
		return AMC_PLAN_ACT;
	}
	fp->have_sig = 1;
	fp->sig = sig;
	fp->swipes++;
	begin(fp, c, "swipe", out);
	swipe_dir(ctx, out, reverse_dir(c->direction), SWIPE_MS);
	add_selector(c, out);
	add_line(c, out);
	char *d = out->description;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s (swipe %d)", d, fp->swipes);
	free(d);
	out->description = amc_sb_detach(&sb);
	return AMC_PLAN_ACT; /* stays on this command until found */
}

static amc_plan_rc flow_next(amc_planner *p, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	flow_planner *fp = p->impl;
	memset(out, 0, sizeof *out);
	if (ctx && ctx->last_tool && !ctx->last_ok) {
		char *le = amc_sanitize_dup(ctx->last_error ? ctx->last_error : "no details");
		amc_err_set(e, AMC_EFAIL, "the previous step (%s) failed: %s", ctx->last_tool, le);
		free(le);
		return AMC_PLAN_FAIL;
	}
	if (fp->pos >= fp->flow.count) {
		amc_sb sb;
		amc_sb_init(&sb);
		char *name = amc_sanitize_dup(fp->flow.name ? fp->flow.name : "flow");
		amc_sb_printf(&sb, "flow '%s': %zu command%s passed", name, fp->flow.count - (size_t)fp->skipped,
			      fp->flow.count - (size_t)fp->skipped == 1 ? "" : "s");
		if (fp->skipped)
			amc_sb_printf(&sb, ", %d optional skipped", fp->skipped);
		free(name);
		out->description = amc_sb_detach(&sb);
		return AMC_PLAN_DONE;
	}
	const amc_flow_cmd *c = &fp->flow.cmds[fp->pos];
	switch (c->op) {
	case AMC_FLOW_TAP_ON:
	case AMC_FLOW_LONG_PRESS_ON:
		return plan_tap(fp, c, ctx, out);
	case AMC_FLOW_ASSERT_VISIBLE:
	case AMC_FLOW_ASSERT_NOT_VISIBLE:
		return plan_assert(fp, c, ctx, out);
	case AMC_FLOW_SCROLL_UNTIL_VISIBLE:
		return plan_scroll_until(fp, c, ctx, out);
	case AMC_FLOW_LAUNCH_APP: {
		const char *app = c->text ? c->text : fp->flow.app_id;
		if (!app) { /* the parser refuses this; a hand-built flow might not */
			char *w = where(fp, c);
			amc_err_set(e, AMC_EUSAGE, "%s: launchApp needs an app id (set appId)", w);
			free(w);
			return AMC_PLAN_FAIL;
		}
		begin(fp, c, "launch_app", out);
		cJSON_AddStringToObject(out->args, "app_id", app);
		if (!c->text) { /* show which app in the step */
			free(out->description);
			amc_sb sb;
			amc_sb_init(&sb);
			amc_sb_puts(&sb, "launchApp ");
			amc_sanitize_line(app, strlen(app), &sb);
			out->description = amc_sb_detach(&sb);
		}
		break;
	}
	case AMC_FLOW_INPUT_TEXT:
		begin(fp, c, "type_text", out);
		cJSON_AddStringToObject(out->args, "text", c->text ? c->text : "");
		break;
	case AMC_FLOW_PRESS_KEY:
		begin(fp, c, "press_key", out);
		cJSON_AddStringToObject(out->args, "key", c->text ? c->text : "enter");
		break;
	case AMC_FLOW_BACK:
		begin(fp, c, "press_key", out);
		cJSON_AddStringToObject(out->args, "key", "back");
		break;
	case AMC_FLOW_SCROLL:
		begin(fp, c, "swipe", out);
		swipe_dir(ctx, out, "UP", SWIPE_MS);
		break;
	case AMC_FLOW_SWIPE:
		begin(fp, c, "swipe", out);
		if (c->direction) {
			swipe_dir(ctx, out, c->direction, c->number > 0 ? c->number : SWIPE_MS);
		} else {
			int w, h;
			screen_size(ctx, &w, &h);
			swipe_args(out, to_px(c->sx, c->percent, w), to_px(c->sy, c->percent, h),
				   to_px(c->ex, c->percent, w), to_px(c->ey, c->percent, h),
				   c->number > 0 ? c->number : SWIPE_MS);
		}
		break;
	case AMC_FLOW_WAIT_FOR_ANIMATION:
		begin(fp, c, "wait", out);
		cJSON_AddNumberToObject(out->args, "ms", c->number < ANIMATION_WAIT_MS ? c->number : ANIMATION_WAIT_MS);
		break;
	case AMC_FLOW_TAKE_SCREENSHOT:
		begin(fp, c, "screenshot", out);
		if (c->text)
			cJSON_AddStringToObject(out->args, "name", c->text);
		break;
	case AMC_FLOW_ERASE_TEXT:
	default: {
		char *w = where(fp, c);
		amc_err_set(e, AMC_EUSAGE, "%s: command '%s' is not supported yet", w, amc_flow_op_name(c->op));
		free(w);
		return AMC_PLAN_FAIL;
	}
	}
	add_line(c, out);
	advance(fp);
	return AMC_PLAN_ACT;
}

static void flow_destroy(amc_planner *p)
{
	if (!p)
		return;
	flow_planner *fp = p->impl;
	if (fp) {
		amc_flow_free(&fp->flow);
		free(fp);
	}
	free(p);
}

static const amc_planner_ops FLOW_OPS = { "flow", flow_next, flow_destroy };

int amc_flow_planner_new(amc_flow *flow, long wait_timeout_ms, amc_planner **out, amc_err *e)
{
	*out = NULL;
	if (!flow || !flow->cmds || flow->count == 0)
		return amc_err_set(e, AMC_EUSAGE, "the flow has no commands");
	flow_planner *fp = amc_xcalloc(1, sizeof *fp);
	fp->flow = *flow;
	memset(flow, 0, sizeof *flow);
	fp->wait_ms = wait_timeout_ms > 0 ? wait_timeout_ms : 0;
	amc_planner *p = amc_xcalloc(1, sizeof *p);
	p->ops = &FLOW_OPS;
	p->impl = fp;
	*out = p;
	return 0;
}
