/* flow_planner_frames.c - where a flow planner is: its stack of frames
 * (flow_planner_int.h), the command's FILE:LINE, moving on, and pushing and
 * popping a frame with its variables. Below the planner's commands and ops,
 * which use it; it uses neither. */
#include "planner/flow_planner_int.h"

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
	fp->tap_waited = 0;
}

/* The commands a file frame runs in its phase. */
void fp_file_phase(fp_frame *f)
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
int fp_push_defaults(flow_planner *fp, const amc_flow *file, amc_err *e)
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

int fp_push_frame(flow_planner *fp, const fp_frame *proto, amc_err *e)
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
		fp_file_phase(&fp->st[fp->depth - 1]);
	return 0;
}

void fp_pop_frame(flow_planner *fp)
{
	fp_frame *f = fp_top(fp);
	amc_flow_interp_pop(&fp->in, f->mark);
	fp->depth--;
	fp->sub = 0;
	fp->tap_waited = 0;
	fp->have_sig = 0;
}
