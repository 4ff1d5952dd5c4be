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
#include "flow/flow_planner_int.h"
#include "flow/flow_js.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sanitize.h"
#include "util/strbuf.h"

fp_frame *fp_top(flow_planner *fp)
{
	return fp->depth > 0 ? &fp->st[fp->depth - 1] : NULL;
}

char *fp_where(const flow_planner *fp, const amc_flow_cmd *c)
{
	const amc_flow *file = fp->depth > 0 ? fp->st[fp->depth - 1].file : &fp->flow;
	const char *p = file && file->path ? file->path : "flow";
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_line(p, strlen(p), &sb);
	amc_sb_printf(&sb, ":%d", c->line);
	return amc_sb_detach(&sb);
}

void fp_advance(flow_planner *fp)
{
	fp_frame *f = fp_top(fp);
	if (f)
		f->pos++;
	fp->sub = 0;
	fp->have_sig = 0;
}

/* The commands a file frame runs in its phase. */
static void file_phase(fp_frame *f)
{
	for (;;) {
		const amc_flow *fl = f->file;
		if (f->phase == PH_START && fl->non_start) {
			f->cmds = fl->on_start, f->n = fl->non_start;
			return;
		}
		if (f->phase == PH_MAIN) {
			f->cmds = fl->cmds, f->n = fl->count;
			return;
		}
		if (f->phase == PH_COMPLETE && fl->non_complete) {
			f->cmds = fl->on_complete, f->n = fl->non_complete;
			return;
		}
		if (f->phase >= PH_COMPLETE) {
			f->phase = PH_DONE;
			f->cmds = NULL, f->n = 0;
			return;
		}
		f->phase++;
	}
}

/* A file's env: defaults for the names nobody set above it. */
static int push_defaults(flow_planner *fp, const amc_flow *file, amc_err *e)
{
	for (size_t i = 0; i < file->nenv; i++) {
		if (amc_flow_interp_get(&fp->in, file->env[i].name))
			continue;
		char *v = NULL, w[300];
		snprintf(w, sizeof w, "%s: env %s", file->path ? file->path : "flow", file->env[i].name);
		char *ws = amc_sanitize_dup(w);
		int rc = amc_flow_interp_str(&fp->in, file->env[i].value, ws, &v, e);
		free(ws);
		if (rc != 0)
			return -1;
		amc_flow_interp_push(&fp->in, file->env[i].name, v);
		free(v);
	}
	return 0;
}

/* env: of a command, interpolated where the command is, pushed for its block. */
static int push_env(flow_planner *fp, const amc_flow_cmd *c, amc_err *e)
{
	char *where = fp_where(fp, c);
	/* all values first, then push: one value does not see its sibling */
	char **vals = amc_xcalloc(c->nenv ? c->nenv : 1, sizeof *vals);
	int rc = 0;
	for (size_t i = 0; i < c->nenv && rc == 0; i++)
		rc = amc_flow_interp_str(&fp->in, c->env[i].value, where, &vals[i], e);
	for (size_t i = 0; i < c->nenv; i++) {
		if (rc == 0)
			amc_flow_interp_push(&fp->in, c->env[i].name, vals[i]);
		free(vals[i]);
	}
	free(vals);
	free(where);
	return rc;
}

static int push_frame(flow_planner *fp, const fp_frame *proto, amc_err *e)
{
	if (fp->depth >= FP_MAX_FRAMES) {
		char *w = proto->owner ? fp_where(fp, proto->owner) : amc_xstrdup("flow");
		amc_err_set(e, AMC_EUSAGE, "%s: blocks nested deeper than %d (runFlow calling itself?)", w,
			    FP_MAX_FRAMES);
		free(w);
		return -1;
	}
	fp->st[fp->depth++] = *proto;
	if (proto->kind == FR_FILE)
		file_phase(&fp->st[fp->depth - 1]);
	return 0;
}

static void pop_frame(flow_planner *fp)
{
	fp_frame *f = fp_top(fp);
	amc_flow_interp_pop(&fp->in, f->mark);
	fp->depth--;
	fp->sub = 0;
	fp->have_sig = 0;
}

/* A count written as ${...}: its value now. */
static int dyn_count(flow_planner *fp, const amc_flow_cmd *c, int *out, amc_err *e)
{
	if (!c->text)
		return 0;
	char *where = fp_where(fp, c), *v = NULL;
	int rc = amc_flow_interp_str(&fp->in, c->text, where, &v, e);
	if (rc == 0) {
		char *end;
		long n = strtol(v, &end, 10);
		if (!*v || *end || n < 0 || n > 100000)
			rc = amc_err_set(e, AMC_EUSAGE, "%s: %s: the count must be a whole number, got '%.40s'", where,
					 amc_flow_op_name(c->op), v);
		else
			*out = (int)n;
	}
	free(v);
	free(where);
	return rc;
}

/* A skipped runFlow/repeat is a step of its own, so the timeline shows why. */
static void skipped_step(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *why)
{
	fp_begin(fp, c, "flow", out);
	char *d = out->description;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s (skipped: %s)", d, why);
	free(d);
	out->description = amc_sb_detach(&sb);
	cJSON *r = cJSON_CreateObject();
	cJSON_AddBoolToObject(r, "skipped", 1);
	cJSON_AddStringToObject(r, "reason", why);
	fp_decide(out, 1, NULL, r);
}

int fp_enter_block(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	fp_frame *cur = fp_top(fp);
	if (c->op == AMC_FLOW_RUN_FLOW) {
		if (c->cond.visible || c->cond.not_visible || c->cond.is_true || c->cond.platform) {
			int h = fp_cond_holds(fp, c, &c->cond, ctx, e);
			if (h < 0)
				return -1;
			if (!h) {
				skipped_step(fp, c, out, "its when: condition is false");
				return FP_ACT;
			}
		}
		if (c->file && !c->sub) {
			char *w = fp_where(fp, c), *f = amc_sanitize_dup(c->file);
			amc_err_set(e, AMC_EUSAGE, "%s: runFlow: sub-flow '%s' was not loaded (resolve the flow first)", w, f);
			free(w);
			free(f);
			return -1;
		}
	}
	fp_frame nf;
	memset(&nf, 0, sizeof nf);
	nf.owner = c;
	nf.file = cur->file;
	nf.mark = amc_flow_interp_mark(&fp->in);
	if (c->op == AMC_FLOW_REPEAT) {
		nf.kind = FR_REPEAT;
		nf.times = c->number ? c->times : -1;
		if (dyn_count(fp, c, &nf.times, e) != 0)
			return -1;
		nf.cmds = c->body, nf.n = c->nbody;
		nf.iter = -1; /* the first round starts at the end of "round -1" */
		nf.pos = nf.n;
	} else if (c->op == AMC_FLOW_RETRY) {
		nf.kind = FR_RETRY;
		nf.times = c->times;
		if (dyn_count(fp, c, &nf.times, e) != 0)
			return -1;
		if (nf.times > 3)
			nf.times = 3;
		if (c->sub) {
			nf.file = c->sub;
			nf.cmds = c->sub->cmds, nf.n = c->sub->count;
		} else {
			nf.cmds = c->body, nf.n = c->nbody;
		}
	} else if (c->sub) {
		nf.kind = FR_FILE;
		nf.file = c->sub;
		nf.phase = PH_START;
	} else {
		nf.kind = FR_BLOCK;
		nf.cmds = c->body, nf.n = c->nbody;
	}
	if (push_env(fp, c, e) != 0)
		return -1;
	if (nf.file != cur->file && push_defaults(fp, nf.file, e) != 0) {
		amc_flow_interp_pop(&fp->in, nf.mark);
		return -1;
	}
	fp_advance(fp); /* the parent goes on after the block */
	return push_frame(fp, &nf, e) == 0 ? FP_NEXT : -1;
}

/* The top frame ran out of commands: a repeat starts its next round, a file
 * its next phase, anything else ends. */
static int frame_end(flow_planner *fp, const amc_plan_ctx *ctx, amc_err *e)
{
	fp_frame *f = fp_top(fp);
	if (f->kind == FR_FILE && f->phase < PH_DONE) {
		f->phase++;
		f->pos = 0;
		file_phase(f);
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
	pop_frame(fp);
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
			pop_frame(fp);
		f->iter++;
		f->pos = 0;
		fp->sub = 0;
		fp->have_sig = 0;
		return;
	}
	if (!fp->failed)
		fp->failed = amc_xstrdup(msg);
	while (fp->depth > 1)
		pop_frame(fp);
	fp_frame *top = fp_top(fp);
	if (top->phase < PH_COMPLETE) {
		top->phase = PH_COMPLETE;
		top->pos = 0;
		file_phase(top);
	} else {
		top->phase = PH_DONE;
		top->n = 0;
	}
	fp->sub = 0;
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
	push_frame(fp, &top, e);
	amc_planner *p = amc_xcalloc(1, sizeof *p);
	p->ops = &FLOW_OPS;
	p->impl = fp;
	if (push_defaults(fp, &fp->flow, e) != 0) {
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
