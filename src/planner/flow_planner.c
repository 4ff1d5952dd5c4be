/* flow_planner.c - plays a flow as a planner: a stack of frames.
 *
 * The bottom frame is the flow file (its onFlowStart, its commands, its
 * onFlowComplete); runFlow pushes the sub-flow file or its inline commands,
 * repeat and retry push their body. Each next() goes to the command at the
 * top of the stack; commands that need nothing from the device (entering a
 * block, a skipped condition) are handled in the same call.
 *
 * Every step goes back to the planner (the runner keeps going after a failed
 * step: keep_going), which judges it: an optional command's failure is a skip;
 * another failure restarts the innermost retry that has retries left, else
 * the top flow's onFlowComplete runs and the task fails with the failing
 * step's "FILE:LINE: command: what" (the file being the sub-flow's when it is
 * in one). Variables (env:) live on flow_interp's stack, popped with their frame. */
#include "planner/flow_planner_int.h"
#include "planner/flow_js.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sanitize.h"
#include "util/strbuf.h"

static int frame_end(flow_planner *fp, const amc_plan_ctx *ctx, amc_err *e)
{
	fp_frame *f = fp_top(fp);
	if (f->kind == FR_FILE && f->phase < PH_DONE) {
		f->phase++;
		f->pos = 0;
		fp_file_phase(f);
		if (f->phase != PH_DONE)
			return 0;
	}
	if (f->kind == FR_REPEAT) {
		f->iter++;
		int more = f->times < 0 || f->iter < f->times;
		const amc_flow_cmd *c = f->owner;
		if (more && (c->cond.visible || c->cond.not_visible || c->cond.is_true)) {
			int h = fp_cond_holds(fp, c, &c->cond, ctx, e);
			if (h < 0)
				return -1;
			more = h;
		}
		if (more) {
			f->pos = 0;
			return 0;
		}
	}
	if (f->kind == FR_FILE && f->owner == NULL)
		return 1; /* the whole flow is done */
	fp_pop_frame(fp);
	return 0;
}

/* A step failed (not optional): restart the innermost retry with retries
 * left; else run the top flow's onFlowComplete and fail after it. */
static void failed(flow_planner *fp, const char *msg)
{
	for (int i = fp->depth - 1; i > 0; i--) {
		fp_frame *f = &fp->st[i];
		if (f->kind != FR_RETRY || f->iter >= f->times)
			continue;
		while (fp->depth - 1 > i)
			fp_pop_frame(fp);
		f->iter++;
		f->pos = 0;
		fp->sub = 0, fp->tap_waited = 0;
		fp->have_sig = 0;
		return;
	}
	if (!fp->failed)
		fp->failed = amc_xstrdup(msg);
	while (fp->depth > 1)
		fp_pop_frame(fp);
	fp_frame *top = fp_top(fp);
	if (top->phase < PH_COMPLETE) {
		top->phase = PH_COMPLETE;
		top->pos = 0;
		fp_file_phase(top);
	} else {
		top->phase = PH_DONE;
		top->n = 0;
	}
	fp->sub = 0;
	fp->tap_waited = 0;
}

/* The outcome of the step handed out last. */
static void judge(flow_planner *fp, const amc_plan_ctx *ctx)
{
	if (!fp->emitted)
		return;
	fp->emitted = 0;
	int ok = !ctx || !ctx->last_tool || ctx->last_ok;
	if (ok) {
		if (fp->emitted_final) {
			if (fp->emitted_skip)
				fp->skipped++;
			else
				fp->passed++;
			fp_advance(fp);
		}
		return;
	}
	if (fp->emitted_optional) {
		fp->skipped++;
		fp_advance(fp);
		return;
	}
	amc_sb sb;
	amc_sb_init(&sb);
	const char *err = ctx->last_error ? ctx->last_error : "no details";
	char *es = amc_sanitize_dup(err);
	if (ctx->step > 1)
		amc_sb_printf(&sb, "step %d: ", ctx->step - 1);
	/* decided failures already start with FILE:LINE; device errors do not */
	const char *colon = fp->emitted_where ? strchr(fp->emitted_where, ':') : NULL;
	if (fp->emitted_where && colon && strncmp(es, fp->emitted_where, (size_t)(colon - fp->emitted_where)) != 0)
		amc_sb_printf(&sb, "%s: ", fp->emitted_where);
	amc_sb_puts(&sb, es);
	free(es);
	char *m = amc_sb_detach(&sb);
	failed(fp, m);
	free(m);
}

static amc_plan_rc flow_next(amc_planner *p, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	flow_planner *fp = p->impl;
	memset(out, 0, sizeof *out);
	judge(fp, ctx);
	for (int guard = 0; guard < 100000; guard++) {
		fp_frame *f = fp_top(fp);
		if (!f)
			break;
		if (f->pos >= f->n) {
			int rc = frame_end(fp, ctx, e);
			if (rc < 0) {
				failed(fp, e->msg);
				continue;
			}
			if (rc == 1)
				break;
			continue;
		}
		const amc_flow_cmd *c = &f->cmds[f->pos];
		int rc = fp_plan_cmd(fp, c, ctx, out, e);
		if (rc == FP_NEXT)
			continue;
		if (rc == FP_FAIL) {
			/* an error of the flow itself (a ${NAME} nobody set): a failure like any other */
			amc_action_clear(out);
			memset(out, 0, sizeof *out);
			failed(fp, e->msg);
			amc_err_clear(e);
			continue;
		}
		if (rc == FP_ACT) {
			fp->emitted = 1;
			fp->emitted_optional = c->sel.optional;
			free(fp->emitted_where);
			char *w = fp_where(fp, c), *d = amc_flow_cmd_describe(c);
			amc_sb sb;
			amc_sb_init(&sb);
			amc_sb_printf(&sb, "%s: %s", w, d);
			fp->emitted_where = amc_sb_detach(&sb);
			free(w);
			free(d);
		}
		return (amc_plan_rc)rc;
	}
	/* The flow ended with its recording running (a failure before its
	 * stopRecording, or none written): the recording is kept all the same,
	 * one last step - a failed flow's video is the one people want. Not
	 * judged: the flow's outcome is what it was. */
	if (fp->rec_name) {
		snprintf(out->tool, sizeof out->tool, "record");
		out->args = cJSON_CreateObject();
		cJSON_AddStringToObject(out->args, "op", "stop");
		cJSON_AddStringToObject(out->args, "name", fp->rec_name);
		amc_sb d;
		amc_sb_init(&d);
		amc_sb_puts(&d, "stopRecording ");
		amc_sanitize_line(fp->rec_name, strlen(fp->rec_name) > 120 ? 120 : strlen(fp->rec_name), &d);
		amc_sb_puts(&d, " (the flow ended while recording)");
		out->description = amc_sb_detach(&d);
		free(fp->rec_name);
		fp->rec_name = NULL;
		fp->emitted = 0;
		return AMC_PLAN_ACT;
	}
	if (fp->failed) {
		amc_err_set(e, AMC_EFAIL, "%s", fp->failed);
		return AMC_PLAN_FAIL;
	}
	amc_sb sb;
	amc_sb_init(&sb);
	char *name = amc_sanitize_dup(fp->flow.name ? fp->flow.name : "flow");
	amc_sb_printf(&sb, "flow '%s': %d command%s passed", name, fp->passed, fp->passed == 1 ? "" : "s");
	if (fp->skipped)
		amc_sb_printf(&sb, ", %d optional skipped", fp->skipped);
	free(name);
	out->description = amc_sb_detach(&sb);
	/* A question's answer, as the flow's scripts set it (output.answer). */
	if (fp->in.eval == amc_flow_js_eval)
		out->answer = amc_flow_js_answer(fp->in.eval_ud);
	return AMC_PLAN_DONE;
}

static void flow_destroy(amc_planner *p)
{
	if (!p)
		return;
	flow_planner *fp = p->impl;
	if (fp) {
		if (fp->eval_free)
			fp->eval_free(fp->in.eval_ud);
		if (fp->ai_free)
			fp->ai_free(fp->ai_ud);
		amc_flow_interp_free(&fp->in);
		amc_flow_free(&fp->flow);
		free(fp->failed);
		free(fp->emitted_where);
		free(fp->rec_name);
		free(fp);
	}
	free(p);
}

static const amc_planner_ops FLOW_OPS = { "flow", flow_next, flow_destroy };

void amc_flow_run_opts_init(amc_flow_run_opts *o)
{
	memset(o, 0, sizeof *o);
	o->seed = 0x9e3779b97f4a7c15ull;
}

int amc_flow_planner_new_opts(amc_flow *flow, const amc_flow_run_opts *o, amc_planner **out, amc_err *e)
{
	*out = NULL;
	if (!flow || !flow->cmds || flow->count == 0) {
		if (o->eval_free)
			o->eval_free(o->eval_ud);
		if (o->ai_free)
			o->ai_free(o->ai_ud);
		return amc_err_set(e, AMC_EUSAGE, "the flow has no commands");
	}
	flow_planner *fp = amc_xcalloc(1, sizeof *fp);
	fp->flow = *flow;
	memset(flow, 0, sizeof *flow);
	fp->wait_ms = o->wait_timeout_ms > 0 ? o->wait_timeout_ms : 0;
	fp->rng = o->seed ? o->seed : 1;
	amc_flow_interp_init(&fp->in);
	fp->in.eval = o->eval;
	fp->in.eval_ud = o->eval_ud;
	fp->in.set_copied = o->set_copied;
	fp->eval_free = o->eval_free;
	fp->ai = o->ai;
	fp->ai_ud = o->ai_ud;
	fp->ai_free = o->ai_free;
	if (o->platform)
		fp->in.platform = o->platform;
	amc_flow_interp_environ(&fp->in, o->environ);
	for (size_t i = 0; i < o->nenv; i++)
		amc_flow_interp_push(&fp->in, o->env[i].name, o->env[i].value);
	fp_frame top;
	memset(&top, 0, sizeof top);
	top.kind = FR_FILE;
	top.file = &fp->flow;
	top.phase = PH_START;
	top.mark = 0;
	fp->depth = 0;
	fp_push_frame(fp, &top, e);
	amc_planner *p = amc_xcalloc(1, sizeof *p);
	p->ops = &FLOW_OPS;
	p->impl = fp;
	if (fp_push_defaults(fp, &fp->flow, e) != 0) {
		flow_destroy(p);
		return -1;
	}
	p->keep_going = 1; /* failed steps come back here: optional, retry, onFlowComplete */
	*out = p;
	return 0;
}

int amc_flow_planner_new(amc_flow *flow, long wait_timeout_ms, amc_planner **out, amc_err *e)
{
	amc_flow_run_opts o;
	amc_flow_run_opts_init(&o);
	o.wait_timeout_ms = wait_timeout_ms;
	return amc_flow_planner_new_opts(flow, &o, out, e);
}
