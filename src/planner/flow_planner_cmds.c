/* flow_planner_cmds.c - what each flow command asks of the device.
 *
 * Each command looks at the latest observation. Device commands become a tool
 * call; selectors that match nothing ask the runner to re-observe until the
 * wait timeout, then fail the step with the selector and a sample of what was
 * on screen; assertions, conditions and scripts are decided here without
 * touching the device. Every action's args carry "flow_line" (and
 * "flow_file" inside a sub-flow) so a failure points at the file. Strings are
 * interpolated (${NAME}) when their command runs. */
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow_cmds.h"
#include "planner/flow_planner_int.h"
#include "flow/selector.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define SCREEN_SAMPLE_MAX 12      /* texts quoted in a "not found" message */
#define SCREEN_SAMPLE_CHARS 40
#define ANIMATION_WAIT_MS 500     /* waitForAnimationToEnd: the runner's settle does the rest */
#define SWIPE_MS 400

/* ---- screen helpers ---- */

const amc_ui_tree *fp_obs_tree(const amc_plan_ctx *ctx)
{
	return ctx && ctx->obs ? &ctx->obs->tree : NULL;
}

void fp_screen_size(const amc_plan_ctx *ctx, int *w, int *h)
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

const char *fp_node_label(const amc_ui_node *n)
{
	if (n->text && *n->text)
		return n->text;
	if (n->content_desc && *n->content_desc)
		return n->content_desc;
	if (n->hint && *n->hint)
		return n->hint;
	return NULL;
}

/* "'Contacts', 'Add contact', ..." - visible texts, deduplicated, bounded, sanitized. */
static void screen_sample(const amc_ui_tree *t, amc_sb *sb)
{
	int shown = 0, more = 0;
	size_t start = sb->len;
	for (size_t i = 0; t && t->nodes && i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		const char *l = (n->flags & AMC_NODE_DISPLAYED) ? fp_node_label(n) : NULL;
		if (!l)
			continue;
		int dup = 0;
		for (size_t j = 0; j < i && !dup; j++) {
			const amc_ui_node *m = &t->nodes[j];
			const char *ml = (m->flags & AMC_NODE_DISPLAYED) ? fp_node_label(m) : NULL;
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

/* A cheap fingerprint of what is on screen, to notice a swipe or tap that changed nothing. */
static unsigned long long fp_screen_sig(const amc_ui_tree *t)
{
	unsigned long long h = 1469598103934665603ull;
	for (size_t i = 0; t && t->nodes && i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		if (!(n->flags & AMC_NODE_DISPLAYED))
			continue;
		const char *l = fp_node_label(n);
		for (const char *c = l ? l : ""; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		int v[5] = { n->bounds.x1, n->bounds.y1, n->bounds.x2, n->bounds.y2, (int)n->flags };
		for (int k = 0; k < 5; k++)
			h = (h ^ (unsigned)v[k]) * 1099511628211ull;
	}
	return h;
}

static cJSON *matched_json(const amc_ui_node *n)
{
	cJSON *m = cJSON_CreateObject();
	const char *l = fp_node_label(n);
	cJSON_AddStringToObject(m, "text", l ? l : "");
	if (n->resource_id && *n->resource_id)
		cJSON_AddStringToObject(m, "resource_id", n->resource_id);
	int v[4] = { n->bounds.x1, n->bounds.y1, n->bounds.x2, n->bounds.y2 };
	cJSON_AddItemToObject(m, "bounds", cJSON_CreateIntArray(v, 4));
	return m;
}

/* ---- steps ---- */

void fp_begin(flow_planner *fp, const amc_flow_cmd *c, const char *tool, amc_action *out)
{
	snprintf(out->tool, sizeof out->tool, "%s", tool);
	if (!out->args)
		out->args = cJSON_CreateObject();
	free(out->description);
	if (c->label) {
		amc_sb sb;
		amc_sb_init(&sb);
		amc_sanitize_line(c->label, strlen(c->label) > 120 ? 120 : strlen(c->label), &sb);
		out->description = amc_sb_detach(&sb);
	} else {
		out->description = amc_flow_cmd_describe(c);
	}
	char *w = fp_where(fp, c);
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "flow command at %s", w);
	free(w);
	free(out->reasoning);
	out->reasoning = amc_sb_detach(&sb);
	cJSON_DeleteItemFromObjectCaseSensitive(out->args, "flow_line");
	cJSON_AddNumberToObject(out->args, "flow_line", c->line);
	const fp_frame *f = fp->depth > 0 ? &fp->st[fp->depth - 1] : NULL;
	if (f && f->file != &fp->flow && f->file->path && !cJSON_GetObjectItemCaseSensitive(out->args, "flow_file"))
		cJSON_AddStringToObject(out->args, "flow_file", f->file->path);
}

void fp_decide(amc_action *out, int ok, char *error, cJSON *result)
{
	out->decided = 1;
	out->decided_ok = ok;
	out->decided_error = error;
	out->decided_result = result;
}

void fp_add_selector(const amc_selector *s, amc_action *out)
{
	char *d = amc_selector_describe(s);
	cJSON_AddStringToObject(out->args, "selector", d);
	free(d);
}

/* "FILE:LINE: CMD: WHAT SELECTOR after N s; on screen: ..." */
char *fp_not_found(flow_planner *fp, const amc_flow_cmd *c, const amc_selector *s, const amc_plan_ctx *ctx,
			   const char *what)
{
	amc_sb sb;
	amc_sb_init(&sb);
	char *w = fp_where(fp, c), *d = amc_selector_describe(s);
	amc_sb_printf(&sb, "%s: %s: %s %s after %.1f s; on screen: ", w, amc_flow_cmd_name(c), what, d,
		      (double)(ctx ? ctx->waited_ms : 0) / 1000.0);
	free(w);
	free(d);
	screen_sample(fp_obs_tree(ctx), &sb);
	return amc_sb_detach(&sb);
}

void fp_skip_optional(flow_planner *fp, const amc_flow_cmd *c, const amc_selector *s, amc_action *out,
			  const char *tool, const char *why)
{
	fp_begin(fp, c, tool, out);
	if (s)
		fp_add_selector(s, out);
	char *d = out->description;
	size_t dl = strlen(d), ol = strlen(" (optional)");
	if (dl >= ol && !strcmp(d + dl - ol, " (optional)"))
		d[dl - ol] = '\0';
	fp_decide_skip(out, "optional, skipped", why);
	fp->emitted_skip = 1;
}

void fp_decide_skip(amc_action *out, const char *note, const char *why)
{
	char *d = out->description;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s (%s)", d ? d : "", note);
	free(d);
	out->description = amc_sb_detach(&sb);
	cJSON *r = cJSON_CreateObject();
	cJSON_AddBoolToObject(r, "skipped", 1);
	cJSON_AddStringToObject(r, "reason", why);
	fp_decide(out, 1, NULL, r);
}

int fp_to_px(int v, int percent, int size)
{
	long x = percent ? (long)size * v / 100 : v;
	if (x >= size)
		x = size - 1;
	if (x < 0)
		x = 0;
	return (int)x;
}

void fp_swipe_args(amc_action *out, int x1, int y1, int x2, int y2, int ms)
{
	cJSON_AddNumberToObject(out->args, "x1", x1);
	cJSON_AddNumberToObject(out->args, "y1", y1);
	cJSON_AddNumberToObject(out->args, "x2", x2);
	cJSON_AddNumberToObject(out->args, "y2", y2);
	cJSON_AddNumberToObject(out->args, "ms", ms);
}

/* Finger movement for a direction, as percentages of the screen. */
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

void fp_swipe_dir(const amc_plan_ctx *ctx, amc_action *out, const char *dir, int ms)
{
	int w, h, x1, y1, x2, y2;
	fp_screen_size(ctx, &w, &h);
	direction_points(dir, &x1, &y1, &x2, &y2);
	fp_swipe_args(out, fp_to_px(x1, 1, w), fp_to_px(y1, 1, h), fp_to_px(x2, 1, w), fp_to_px(y2, 1, h), ms);
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

/* ---- interpolated copies of a command's strings ---- */

int fp_interp(flow_planner *fp, const amc_flow_cmd *c, const char *s, char **out, amc_err *e)
{
	char *w = fp_where(fp, c);
	int rc = amc_flow_interp_str(&fp->in, s, w, out, e);
	free(w);
	return rc;
}

static int parse_point(const char *s, int *x, int *y, int *pct)
{
	char a[2] = { 0, 0 };
	int n = 0;
	if (sscanf(s, " %d %1[%] , %d %%%n", x, a, y, &n) == 3 && n > 0 && !s[n])
		return *pct = 1, 0;
	n = 0;
	if (sscanf(s, " %d , %d %n", x, y, &n) == 2 && n > 0 && !s[n])
		return *pct = 0, 0;
	return -1;
}

/* A deep copy of s with its texts interpolated; free with amc_selector_clear. */
static int sel_interp(flow_planner *fp, const amc_flow_cmd *c, const amc_selector *s, amc_selector *d, amc_err *e)
{
	*d = *s;
	d->text = d->id = d->point_text = d->index_text = NULL;
	d->below = d->above = d->left_of = d->right_of = d->contains_child = d->child_of = NULL;
	d->descendants = NULL;
	d->ndescendants = 0;
	if ((s->text && fp_interp(fp, c, s->text, &d->text, e) != 0) || (s->id && fp_interp(fp, c, s->id, &d->id, e) != 0))
		return -1;
	if (s->point_text) {
		char *p = NULL;
		if (fp_interp(fp, c, s->point_text, &p, e) != 0)
			return -1;
		int bad = parse_point(p, &d->point_x, &d->point_y, &d->point_is_percent) != 0;
		if (bad) {
			char *w = fp_where(fp, c), *q = amc_sanitize_dup(p);
			amc_err_set(e, AMC_EUSAGE, "%s: point '%.60s' is not \"X%%,Y%%\" or \"X,Y\"", w, q);
			free(w);
			free(q);
		}
		free(p);
		if (bad)
			return -1;
	}
	if (s->index_text) {
		char *p = NULL, *end = NULL;
		if (fp_interp(fp, c, s->index_text, &p, e) != 0)
			return -1;
		errno = 0;
		long v = strtol(p, &end, 10);
		int bad = !*p || *end || errno || v < 0 || v > 100000;
		if (bad) {
			char *w = fp_where(fp, c), *q = amc_sanitize_dup(p);
			amc_err_set(e, AMC_EUSAGE, "%s: index '%.60s' is not a whole number from 0 to 100000", w, q);
			free(w);
			free(q);
		} else {
			d->index = (int)v;
		}
		free(p);
		if (bad)
			return -1;
	}
	const amc_selector *rel[] = { s->below, s->above, s->left_of, s->right_of, s->contains_child, s->child_of };
	amc_selector **to[] = { &d->below, &d->above, &d->left_of, &d->right_of, &d->contains_child, &d->child_of };
	for (size_t i = 0; i < 6; i++) {
		if (!rel[i])
			continue;
		*to[i] = amc_xcalloc(1, sizeof **to[i]);
		if (sel_interp(fp, c, rel[i], *to[i], e) != 0)
			return -1;
	}
	if (s->ndescendants) {
		d->descendants = amc_xcalloc(s->ndescendants, sizeof *d->descendants);
		d->ndescendants = s->ndescendants;
		for (size_t i = 0; i < s->ndescendants; i++)
			if (sel_interp(fp, c, &s->descendants[i], &d->descendants[i], e) != 0)
				return -1;
	}
	return 0;
}

/* The element a selector picks now: its index in the tree, or -1. */
int fp_find_now(flow_planner *fp, const amc_flow_cmd *c, const amc_selector *s, const amc_plan_ctx *ctx,
		    amc_selector *copy, amc_err *e)
{
	memset(copy, 0, sizeof *copy);
	if (sel_interp(fp, c, s, copy, e) != 0)
		return -2;
	const amc_ui_tree *t = fp_obs_tree(ctx);
	return t ? amc_selector_find(copy, t) : -1;
}

int fp_cond_holds(flow_planner *fp, const amc_flow_cmd *c, const amc_flow_cond *cond, const amc_plan_ctx *ctx,
		  amc_err *e)
{
	if (cond->platform && strcasecmp(cond->platform, fp->in.platform) != 0)
		return 0;
	amc_selector copy;
	if (cond->visible) {
		int i = fp_find_now(fp, c, cond->visible, ctx, &copy, e);
		amc_selector_clear(&copy);
		if (i == -2)
			return -1;
		if (i < 0)
			return 0;
	}
	if (cond->not_visible) {
		int i = fp_find_now(fp, c, cond->not_visible, ctx, &copy, e);
		amc_selector_clear(&copy);
		if (i == -2)
			return -1;
		if (i >= 0)
			return 0;
	}
	if (cond->is_true) {
		char *v = NULL;
		if (fp_interp(fp, c, cond->is_true, &v, e) != 0)
			return -1;
		int t = amc_flow_interp_truthy(v);
		free(v);
		if (!t)
			return 0;
	}
	return 1;
}

/* ---- commands ---- */

int fp_plan_tap(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	const char *tool = c->op == AMC_FLOW_LONG_PRESS_ON ? "long_press" : "tap";
	/* doubleTapOn: one tap action of count 2, one gesture (tools.c) */
	int taps = c->op == AMC_FLOW_DOUBLE_TAP_ON ? 1 : c->times > 0 ? c->times : 1;
	/* repeat with delay: Maestro's TapRepeat (YamlFluentCommand.tapCommand)
	 * waits delay ms between the taps; a wait step before each tap after
	 * the first (a double tap is one gesture: its gap is the device's) */
	if (c->delay > 0 && c->op != AMC_FLOW_DOUBLE_TAP_ON && fp->sub > 0 && fp->sub < taps && !fp->tap_waited) {
		fp_begin(fp, c, "wait", out);
		cJSON_AddNumberToObject(out->args, "ms", c->delay);
		fp->tap_waited = 1;
		fp->emitted_final = 0;
		return FP_ACT;
	}
	amc_selector s;
	int x, y, i = -1;
	if (fp_find_now(fp, c, &c->sel, ctx, &s, e) == -2) {
		amc_selector_clear(&s);
		return FP_FAIL;
	}
	if (s.has_point) {
		int w, h;
		fp_screen_size(ctx, &w, &h);
		x = fp_to_px(s.point_x, s.point_is_percent, w);
		y = fp_to_px(s.point_y, s.point_is_percent, h);
	} else {
		const amc_ui_tree *t = fp_obs_tree(ctx);
		i = t ? amc_selector_find(&s, t) : -1;
		if (i < 0) {
			int rc = FP_ACT;
			if (ctx && ctx->waited_ms < fp->wait_ms && fp->sub == 0)
				rc = FP_REOBSERVE;
			else if (c->sel.optional)
				fp_skip_optional(fp, c, &s, out, tool, "no element matched");
			else if (fp->sub > 0) /* the screen changed under a repeat: the taps done count */
				rc = FP_NEXT, fp_advance(fp), fp->passed++;
			else {
				fp_begin(fp, c, tool, out);
				fp_add_selector(&s, out);
				fp_decide(out, 0, fp_not_found(fp, c, &s, ctx, "no element matches"), NULL);
			}
			amc_selector_clear(&s);
			return rc;
		}
		const amc_bounds *b = &t->nodes[i].bounds;
		x = b->x1 + (b->x2 - b->x1) / 2;
		y = b->y1 + (b->y2 - b->y1) / 2;
		if (x < 0)
			x = 0;
		if (y < 0)
			y = 0;
	}
	/* retryTapIfNoChange: a tap that changed nothing is tapped once more */
	unsigned long long sig = fp_screen_sig(fp_obs_tree(ctx));
	if (fp->sub >= taps) {
		int again = c->retry_tap && fp->sub == taps && fp->have_sig && sig == fp->sig;
		if (!again) {
			amc_selector_clear(&s);
			fp->passed++;
			fp_advance(fp);
			return FP_NEXT;
		}
	}
	fp_begin(fp, c, tool, out);
	cJSON_AddNumberToObject(out->args, "x", x);
	cJSON_AddNumberToObject(out->args, "y", y);
	if (c->op == AMC_FLOW_DOUBLE_TAP_ON)
		cJSON_AddNumberToObject(out->args, "count", 2);
	fp_add_selector(&s, out);
	amc_selector_clear(&s);
	fp->have_sig = 1;
	fp->sig = sig;
	fp->sub++;
	fp->tap_waited = 0;
	/* the last tap ends the command, unless a no-change retry may follow */
	fp->emitted_final = fp->sub > taps || (fp->sub == taps && !c->retry_tap);
	return FP_ACT;
}

int fp_plan_assert(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
		       amc_err *e)
{
	int want_visible = c->op == AMC_FLOW_ASSERT_VISIBLE;
	const char *tool = want_visible ? "assert_visible" : "assert_not_visible";
	amc_selector s;
	int i = fp_find_now(fp, c, &c->sel, ctx, &s, e);
	if (i == -2) {
		amc_selector_clear(&s);
		return FP_FAIL;
	}
	const amc_ui_tree *t = fp_obs_tree(ctx);
	int holds = want_visible ? i >= 0 : i < 0;
	if (!holds && ctx && ctx->waited_ms < fp->wait_ms) {
		amc_selector_clear(&s);
		return FP_REOBSERVE;
	}
	if (!holds && c->sel.optional) {
		fp_skip_optional(fp, c, &s, out, tool, want_visible ? "not visible" : "still visible");
		amc_selector_clear(&s);
		return FP_ACT;
	}
	fp_begin(fp, c, tool, out);
	fp_add_selector(&s, out);
	if (holds) {
		cJSON *r = cJSON_CreateObject();
		if (i >= 0)
			cJSON_AddItemToObject(r, "matched", matched_json(&t->nodes[i]));
		else
			cJSON_AddNullToObject(r, "matched");
		fp_decide(out, 1, NULL, r);
	} else if (want_visible) {
		fp_decide(out, 0, fp_not_found(fp, c, &s, ctx, "no element matches"), NULL);
	} else {
		amc_sb sb;
		amc_sb_init(&sb);
		char *w = fp_where(fp, c), *d = amc_selector_describe(&s);
		const amc_ui_node *n = &t->nodes[i];
		const char *l = fp_node_label(n);
		char *ls = amc_sanitize_dup(l ? l : "");
		amc_sb_printf(&sb, "%s: assertNotVisible: %s is still visible after %.1f s: '%s' at "
			      "[%d,%d][%d,%d]", w, d, (double)(ctx ? ctx->waited_ms : 0) / 1000.0, ls,
			      n->bounds.x1, n->bounds.y1, n->bounds.x2, n->bounds.y2);
		free(ls);
		free(w);
		free(d);
		cJSON *r = cJSON_CreateObject();
		cJSON_AddItemToObject(r, "matched", matched_json(n));
		fp_decide(out, 0, amc_sb_detach(&sb), r);
	}
	amc_selector_clear(&s);
	return FP_ACT;
}

/* extendedWaitUntil: the condition holds within its own timeout. */
int fp_plan_ext_wait(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			 amc_err *e)
{
	int h = fp_cond_holds(fp, c, &c->cond, ctx, e);
	if (h < 0)
		return FP_FAIL;
	if (!h && ctx && ctx->waited_ms < c->number)
		return FP_REOBSERVE;
	const amc_selector *s = c->cond.visible ? c->cond.visible : c->cond.not_visible;
	if (!h && c->sel.optional) {
		fp_skip_optional(fp, c, s, out, "wait_until", "timed out");
		return FP_ACT;
	}
	fp_begin(fp, c, "wait_until", out);
	fp_add_selector(s, out);
	if (h)
		fp_decide(out, 1, NULL, cJSON_CreateObject());
	else
		fp_decide(out, 0, fp_not_found(fp, c, s, ctx, c->cond.visible ? "no element matches" : "still visible:"),
			  NULL);
	return FP_ACT;
}

/* The part of an element inside the screen, in percent of the element. */
static int visible_pct(const amc_bounds *b, int w, int h)
{
	long bw = b->x2 - b->x1, bh = b->y2 - b->y1;
	if (bw <= 0 || bh <= 0)
		return 0;
	long iw = (b->x2 < w ? b->x2 : w) - (b->x1 > 0 ? b->x1 : 0);
	long ih = (b->y2 < h ? b->y2 : h) - (b->y1 > 0 ? b->y1 : 0);
	if (iw <= 0 || ih <= 0)
		return 0;
	return (int)(iw * ih * 100 / (bw * bh));
}

int fp_plan_scroll_until(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			     amc_err *e)
{
	amc_selector s;
	int i = fp_find_now(fp, c, &c->sel, ctx, &s, e);
	if (i == -2) {
		amc_selector_clear(&s);
		return FP_FAIL;
	}
	const amc_ui_tree *t = fp_obs_tree(ctx);
	int w, h;
	fp_screen_size(ctx, &w, &h);
	if (i >= 0 && visible_pct(&t->nodes[i].bounds, w, h) < (c->visibility > 0 ? c->visibility : 1))
		i = -1;
	/* One swipe per second of Maestro's timeout: sim time is not wall time. */
	int max_swipes = c->number / 1000 > 0 ? c->number / 1000 : 1;
	unsigned long long sig = fp_screen_sig(t);
	int stuck = i < 0 && fp->have_sig && sig == fp->sig;
	if (i >= 0 || stuck || fp->sub >= max_swipes) {
		if (i < 0 && c->sel.optional) {
			fp_skip_optional(fp, c, &s, out, "scroll_until_visible", "not found");
			amc_selector_clear(&s);
			return FP_ACT;
		}
		fp_begin(fp, c, "scroll_until_visible", out);
		fp_add_selector(&s, out);
		cJSON_AddNumberToObject(out->args, "swipes", fp->sub);
		if (i >= 0) {
			cJSON *r = cJSON_CreateObject();
			cJSON_AddItemToObject(r, "matched", matched_json(&t->nodes[i]));
			cJSON_AddNumberToObject(r, "swipes", fp->sub);
			fp_decide(out, 1, NULL, r);
		} else {
			amc_sb sb;
			amc_sb_init(&sb);
			char *wh = fp_where(fp, c), *d = amc_selector_describe(&s);
			amc_sb_printf(&sb, "%s: scrollUntilVisible: no element matches %s after %d swipe%s%s; "
				      "on screen: ", wh, d, fp->sub, fp->sub == 1 ? "" : "s",
				      stuck ? " (the screen stopped moving)" : "");
			free(wh);
			free(d);
			screen_sample(t, &sb);
			fp_decide(out, 0, amc_sb_detach(&sb), NULL);
		}
		amc_selector_clear(&s);
		return FP_ACT;
	}
	fp->have_sig = 1;
	fp->sig = sig;
	fp->sub++;
	fp_begin(fp, c, "swipe", out);
	/* Maestro's speed 0-100: faster swipes travel further */
	int ms = c->speed > 0 ? 1000 - c->speed * 9 : SWIPE_MS;
	fp_swipe_dir(ctx, out, reverse_dir(c->direction), ms < 100 ? 100 : ms);
	fp_add_selector(&s, out);
	amc_selector_clear(&s);
	char *d = out->description;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s (swipe %d)", d, fp->sub);
	free(d);
	out->description = amc_sb_detach(&sb);
	fp->emitted_final = 0; /* stays on this command until found */
	return FP_ACT;
}

