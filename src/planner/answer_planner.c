/* answer_planner.c - a planner that reads its inner planner's answer off the
 * last screen (answer_planner.h). */
#include "planner/answer_planner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow/selector.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

typedef struct answer_planner {
	amc_planner *inner;
	amc_selector sel;
	int ocr;
} answer_planner;

static int cy_of(const amc_element *el)
{
	return (el->bounds.y1 + el->bounds.y2) / 2;
}

/* a before b in reading order: the same line (centres within half a line
 * height) left to right, else top to bottom. */
static int before(const amc_element *a, const amc_element *b)
{
	int ha = a->bounds.y2 - a->bounds.y1, hb = b->bounds.y2 - b->bounds.y1;
	int tol = (ha < hb ? ha : hb) / 2;
	if (abs(cy_of(a) - cy_of(b)) <= tol)
		return a->bounds.x1 < b->bounds.x1;
	return cy_of(a) < cy_of(b);
}

/* The text OCR read (elements from "ocr" or "fused") whose centre lies inside
 * bounds b, in reading order. */
static char *ocr_inside(const amc_scene *sc, const amc_bounds *b)
{
	enum { MAX_WORDS = 256 };
	const amc_element *w[MAX_WORDS];
	int n = 0;
	for (size_t i = 0; i < sc->count && n < MAX_WORDS; i++) {
		const amc_element *el = &sc->elements[i];
		if (!el->text || !*el->text || !el->source || !strcmp(el->source, "uitree"))
			continue;
		int cx = (el->bounds.x1 + el->bounds.x2) / 2, cy = cy_of(el);
		if (cx < b->x1 || cx >= b->x2 || cy < b->y1 || cy >= b->y2)
			continue;
		int k = n++;
		while (k > 0 && before(el, w[k - 1])) {
			w[k] = w[k - 1];
			k--;
		}
		w[k] = el;
	}
	amc_sb sb;
	amc_sb_init(&sb);
	for (int i = 0; i < n; i++) {
		if (i)
			amc_sb_putc(&sb, ' ');
		amc_sb_puts(&sb, w[i]->text);
	}
	return amc_sb_detach(&sb);
}

static amc_plan_rc ap_next(amc_planner *p, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	answer_planner *ap = p->impl;
	ap->inner->cancel = p->cancel;
	amc_plan_rc rc = ap->inner->ops->next(ap->inner, ctx, out, e);
	if (rc != AMC_PLAN_DONE)
		return rc;
	const amc_ui_tree *t = ctx->obs ? &ctx->obs->tree : NULL;
	int i = t ? amc_selector_find(&ap->sel, t) : -1;
	if (i < 0) {
		char *d = amc_selector_describe(&ap->sel);
		amc_err_set(e, AMC_EFAIL, "the flow ended, but its answer (%s) is not on the last screen", d);
		free(d);
		return AMC_PLAN_FAIL;
	}
	const amc_ui_node *nd = &t->nodes[i];
	char *ans = ap->ocr ? ocr_inside(&ctx->obs->scene, &nd->bounds)
			    : amc_xstrdup(*nd->text ? nd->text : nd->content_desc ? nd->content_desc : "");
	if (!*ans) {
		free(ans);
		amc_err_set(e, AMC_EFAIL, "the flow ended, but its answer's element has no %s",
			    ap->ocr ? "text OCR could read (is OCR off?)" : "text");
		return AMC_PLAN_FAIL;
	}
	free(out->answer);
	out->answer = ans;
	return rc;
}

static void ap_destroy(amc_planner *p)
{
	answer_planner *ap = p->impl;
	amc_planner_free(ap->inner);
	free(ap->sel.text);
	free(ap->sel.id);
	free(ap);
	free(p); /* the wrapper too, as every planner's destroy does (found by LeakSanitizer) */
}

static const amc_planner_ops AP_OPS = {"flow", ap_next, ap_destroy};

static void ap_recorded(amc_planner *p, const amc_step_report *r)
{
	answer_planner *ap = p->impl;
	if (ap->inner->hooks && ap->inner->hooks->recorded)
		ap->inner->hooks->recorded(ap->inner, r);
}

static void ap_ended(amc_planner *p, const amc_task_outcome *o)
{
	answer_planner *ap = p->impl;
	amc_planner_ended(ap->inner, o);
}

static const amc_planner_hooks AP_HOOKS = {ap_recorded, ap_ended};

int amc_answer_planner_new(amc_planner *inner, const char *answer_id, const char *answer_text_re, int index, int ocr,
			   amc_planner **out, amc_err *e)
{
	*out = NULL;
	if (!answer_id && !answer_text_re) {
		amc_planner_free(inner);
		return amc_err_set(e, AMC_EUSAGE, "no selector (id or text) to read the answer with");
	}
	answer_planner *ap = calloc(1, sizeof *ap);
	amc_planner *p = calloc(1, sizeof *p);
	if (!ap || !p) {
		free(ap);
		free(p);
		amc_planner_free(inner);
		return amc_err_set(e, AMC_EENV, "out of memory");
	}
	ap->inner = inner;
	ap->sel.id = answer_id ? amc_xstrdup(answer_id) : NULL;
	ap->sel.text = answer_text_re ? amc_xstrdup(answer_text_re) : NULL;
	ap->sel.index = index;
	ap->ocr = ocr;
	p->ops = &AP_OPS;
	p->impl = ap;
	p->keep_going = inner->keep_going;
	p->gated = inner->gated;
	p->hooks = &AP_HOOKS;
	*out = p;
	return 0;
}
