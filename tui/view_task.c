/* view_task.c - the Task view: the timeline (one row per step, "!" on an
 * action that changed nothing) and the selected step's detail in panes:
 * before and after screenshots (the action's target marked on the before
 * image, a swipe drawn as its path, the OCR word or Scene element selected in
 * the evidence pane outlined), the operation (what a person reads first: the
 * action, its target, the result or error, the reasoning; then the JSON
 * details) and the tabbed evidence pane (tui/evidence.h).
 * Any pane can be zoomed to the full screen. The step's text (the Operation
 * pane's lines, the error box, the flow source) is tui/step_text.c.
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "device/device.h"
#include "runtime/stepdiff.h"
#include "tui/app.h"
#include "tui/evidence.h"
#include "tui/pixels.h"
#include "tui/session.h"
#include "tui/step_text.h"
#include "tui/image.h"
#include "tui/text.h"
#include "util/fsutil.h"
#include "util/proc.h"
#include "util/sanitize.h"
#include "util/clock.h"
#include "util/strbuf.h"

enum { P_TIMELINE, P_BEFORE, P_AFTER, P_OPERATION, P_EVIDENCE, NPANES };
static const char *const PANE_NAMES[NPANES] = { "Timeline", "Before", "After", "Operation", "Evidence" };

typedef struct task_view {
	char id[32];
	amc_task_row task;
	int have_task;
	amc_step_row *steps;
	size_t nsteps;
	amc_decision_row *dec;  /* the planner's model calls (goals), in step order */
	size_t ndec;
	long sel, top;
	int focus;
	int zoom;
	long op_top;        /* scroll of the operation pane */
	int tl_page, op_page;
	int follow_tail;    /* keep the newest step selected while it runs */
	signed char *nothing; /* per step: 1 changed nothing, 0 not, -1 unknown (yet) */
	int crop;           /* x: 0 whole screenshots, 1 zoomed to the target, 2 closer */
	int pan_x, pan_y;   /* the zoom's offset from the target, in pixels */
	int pick;           /* p: picking elements on the After screenshot */
	amc_tui_evidence *ev;
	struct { int y, x, h, w; } at[NPANES]; /* where each pane was drawn, for clicks */
} task_view;

static void load(amc_tui_app *a, task_view *t)
{
	amc_err e;
	if (t->have_task)
		amc_task_row_free(&t->task);
	t->have_task = amc_store_get_task(a->store, t->id, &t->task, &e) == 0;
	amc_step_rows_free(t->steps, t->nsteps);
	t->steps = NULL;
	t->nsteps = 0;
	if (t->have_task && amc_store_get_steps(a->store, t->id, &t->steps, &t->nsteps, &e) != 0)
		amc_tui_message(a, 1, "%s", e.msg);
	/* The flag of each recorded diff; older records get theirs when the Diff
	 * tab computes it. */
	free(t->nothing);
	t->nothing = amc_xmalloc(t->nsteps ? t->nsteps : 1);
	for (size_t i = 0; i < t->nsteps; i++)
		t->nothing[i] = (signed char)amc_stepdiff_changed_nothing(t->steps[i].tree_diff);
	amc_decision_rows_free(t->dec, t->ndec);
	t->dec = NULL;
	t->ndec = 0;
	if (t->have_task && t->task.goal && amc_store_get_decisions(a->store, t->id, &t->dec, &t->ndec, &e) != 0) {
		t->dec = NULL;
		t->ndec = 0;
	}
	if (t->follow_tail && t->nsteps)
		t->sel = (long)t->nsteps - 1;
	if (t->sel >= (long)t->nsteps)
		t->sel = t->nsteps ? (long)t->nsteps - 1 : 0;
}

void *amc_tui_task_new(amc_tui_app *a, const char *id)
{
	task_view *t = amc_xcalloc(1, sizeof *t);
	snprintf(t->id, sizeof t->id, "%s", id);
	t->ev = amc_tui_evidence_new();
	amc_tui_evidence_set_policy(t->ev, a->cfg ? amc_config_str(a->cfg, "ocr", "policy") : NULL);
	load(a, t);
	t->follow_tail = t->have_task && !amc_status_is_terminal(t->task.status);
	if (t->follow_tail && t->nsteps)
		t->sel = (long)t->nsteps - 1;
	/* a failed task opens on the step that failed (its last not-ok step),
	 * as a trace viewer jumps to the error */
	if (t->have_task && !t->follow_tail && t->task.error && *t->task.error)
		for (size_t i = 0; i < t->nsteps; i++)
			if (t->steps[i].status && strcmp(t->steps[i].status, "ok") && t->steps[i].error && *t->steps[i].error)
				t->sel = (long)i;
	return t;
}

void amc_tui_task_select(void *data, int step)
{
	task_view *t = data;
	for (size_t i = 0; t && i < t->nsteps; i++)
		if (t->steps[i].step == step) {
			t->sel = (long)i;
			t->follow_tail = 0;
		}
}

static void reload(amc_tui_app *a, amc_tui_view *v)
{
	load(a, v->data);
}



/* The model calls that planned step `step`: model, tokens and cost summed
 * (unknown stays unknown). Nothing for flows. */
static void add_usage(const task_view *t, int step, amc_tui_lines *l)
{
	long long in = 0, out = 0;
	double cost = 0;
	int calls = 0, in_unknown = 0, cost_unknown = 0;
	const char *model = NULL;
	for (size_t i = 0; i < t->ndec; i++) {
		const amc_decision_row *d = &t->dec[i];
		if (d->step != step)
			continue;
		calls++;
		model = d->model;
		if (d->input_tokens < 0)
			in_unknown = 1;
		else
			in += d->input_tokens, out += d->output_tokens < 0 ? 0 : d->output_tokens;
		if (d->cost_usd < 0)
			cost_unknown = 1;
		else
			cost += d->cost_usd;
	}
	if (!calls)
		return;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "usage: %d model call%s", calls, calls == 1 ? "" : "s");
	if (model && *model)
		amc_sb_printf(&sb, " (%s)", model);
	if (in_unknown)
		amc_sb_puts(&sb, ", tokens unknown");
	else
		amc_sb_printf(&sb, ", %lld tokens in, %lld out", in, out);
	if (cost_unknown)
		amc_sb_puts(&sb, ", cost unknown");
	else
		amc_sb_printf(&sb, ", $%.4f", cost);
	amc_tui_steptext_add(l, amc_sb_str(&sb));
	amc_sb_free(&sb);
}


/* What a person reads first (the action, its target, the result or error, the
 * reasoning), then the details as JSON. */
static void build_op(amc_store *st, const task_view *t, const amc_step_row *s, int nothing, amc_tui_lines *l)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "step %d  %s  %s", s->step, s->tool, s->status);
	amc_tui_steptext_add(l, amc_sb_str(&sb));
	amc_sb_reset(&sb);
	/* the action as the planner or flow put it, unlabelled: the line people read first */
	amc_tui_steptext_add(l, s->description ? s->description : s->tool);
	amc_tui_steptext_add_target(s, l);
	if (s->error && *s->error) {
		/* the flow file by its name: its folder is on the "source:" line, and
		 * at 80x24 a deep one filled the pane before the reason */
		char *e = amc_tui_steptext_short_error(s->error, s);
		amc_tui_steptext_add_error(l, "error: ", e, "  ");
		free(e);
	}
	else
		amc_tui_steptext_add(l, s->status && !strcmp(s->status, "ok") ? "result: ok" : "result: not ok");
	if (nothing == 1)
		amc_tui_steptext_add(l, "! changed nothing: same UI tree, same pixels (a missed tap?) - 4: Diff");
	/* a file the step made: a recording, a named or cropped screenshot, a diff */
	char made[PATH_MAX];
	if (amc_store_step_file(s->result, "file", made, sizeof made) == 0 &&
	    (!s->after_screenshot || strcmp(made, s->after_screenshot))) {
		amc_sb_printf(&sb, "%s: %s", !strcmp(s->tool, "record") ? "recording" : "file", made);
		amc_tui_steptext_add(l, amc_sb_str(&sb));
		amc_sb_reset(&sb);
	}
	if (amc_store_step_file(s->result, "diff", made, sizeof made) == 0) {
		amc_sb_printf(&sb, "diff: %s", made);
		amc_tui_steptext_add(l, amc_sb_str(&sb));
		amc_sb_reset(&sb);
	}
	amc_tui_steptext_add_source(l, st, s);
	if (s->reasoning && *s->reasoning)
		amc_tui_steptext_add_multi(l, "reasoning", s->reasoning);
	amc_tui_steptext_add(l, "");
	amc_tui_steptext_add_json(l, "arguments", s->args);
	amc_tui_steptext_add_json(l, "result", s->result);
	add_usage(t, s->step, l);
	amc_device_calls dc = { 0 };
	if (amc_device_calls_add_json(&dc, s->timings) == 0) {
		char line[160];
		amc_device_calls_format(&dc, line, sizeof line);
		amc_sb_printf(&sb, "device: %s", line);
		amc_tui_steptext_add(l, amc_sb_str(&sb));
		amc_sb_reset(&sb);
	}
	amc_tui_steptext_add_json(l, "timings", s->timings);
	cJSON *ocr = s->ocr ? cJSON_Parse(s->ocr) : NULL;
	int n = cJSON_IsArray(ocr) ? cJSON_GetArraySize(ocr) : 0;
	cJSON_Delete(ocr);
	amc_sb_printf(&sb, "OCR: %d word%s (2: the OCR tab)", n, n == 1 ? "" : "s");
	amc_tui_steptext_add(l, amc_sb_str(&sb));
	if (s->ui_tree_path || s->ui_tree) {
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "UI tree: %s", s->ui_tree ? "in the record" : s->ui_tree_path);
		amc_tui_steptext_add(l, amc_sb_str(&sb));
	}
	amc_sb_free(&sb);
}


static void draw_timeline(amc_tui_app *a, task_view *t, int y, int x, int h, int w)
{
	amc_tui_box(y, x, h, w, "Timeline", t->focus == P_TIMELINE);
	t->tl_page = h - 2;
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + t->tl_page)
		t->top = t->sel - t->tl_page + 1;
	for (int i = 0; i < t->tl_page && t->top + i < (long)t->nsteps; i++) {
		amc_step_row *s = &t->steps[t->top + i];
		int sel = t->top + i == t->sel;
		attr_t base = sel ? amc_tui_attr(AMC_EL_SELECTED) : amc_tui_attr(AMC_EL_NORMAL);
		char dur[32], head[64];
		amc_format_duration(s->finished_ms > s->started_ms ? s->finished_ms - s->started_ms : 0, dur, sizeof dur);
		snprintf(head, sizeof head, "%s%3d %s", sel ? ">" : " ", s->step, amc_tui_status_symbol(s->status));
		int c = amc_tui_put(stdscr, y + 1 + i, x + 1, w - 2, head, sel ? base : amc_tui_attr(amc_tui_status_el(s->status)), 0);
		/* "!": the action changed nothing (a missed tap?) */
		int nothing = t->nothing[t->top + i] == 1;
		c += amc_tui_put(stdscr, y + 1 + i, x + 1 + c, w - 2 - c, nothing ? "!" : " ",
				 sel ? base : amc_tui_attr(nothing ? AMC_EL_WARN : AMC_EL_NORMAL), 0);
		int dw = (int)strlen(dur) + 1;
		amc_tui_put(stdscr, y + 1 + i, x + 1 + c, w - 2 - c - dw, s->description ? s->description : s->tool, base, 1);
		char d2[40];
		snprintf(d2, sizeof d2, " %s", dur);
		amc_tui_put(stdscr, y + 1 + i, x + w - 1 - dw, dw, d2, base, 1);
	}
	int row = (int)(t->nsteps - (size_t)t->top);
	if (t->have_task && !amc_status_is_terminal(t->task.status) && row < t->tl_page) {
		int step = 0;
		const char *ph = amc_tui_phase(a, t->id, &step);
		char s[96];
		amc_tui_steptext_phase_row(s, sizeof s, ph, step, t->nsteps ? t->steps[t->nsteps - 1].step : 0, t->task.status);
		amc_tui_put(stdscr, y + 1 + row, x + 1, w - 2, s, amc_tui_attr(AMC_EL_RUNNING), 0);
	}
}

/* Pixels of the screenshot a cell shows when zoomed to a target: at 8 a
 * 40-pixel line of text takes about 2.5 rows of symbols and its letters
 * 3 columns, which reads; closer (x again) halves it. */
static const int CROP_PX[3] = { 0, 8, 4 };

/* The part of the screenshot `abs` to show in a pane of rows x cols cells
 * when zoomed: around the picked or selected node while picking (or the tree
 * has focus), else the step's target, else that node, else the middle;
 * moved by the pan and kept inside the image. 0 when not zoomed. */
static int crop_rect(task_view *t, const char *abs, int rows, int cols, int out[4])
{
	int iw, ih;
	if (!t->crop || !t->nsteps || rows < 1 || cols < 1 || amc_tui_image_size(abs, &iw, &ih) != 0)
		return 0;
	const amc_step_row *s = &t->steps[t->sel];
	int box[4], cx = iw / 2, cy = ih / 2, node = amc_tui_evidence_tree_mark(t->ev, box);
	int node_first = node && (t->pick || t->focus == P_EVIDENCE);
	if (node_first) {
		cx = (box[0] + box[2]) / 2;
		cy = (box[1] + box[3]) / 2;
	} else if (!amc_tui_steptext_target(s, &cx, &cy) && node) {
		cx = (box[0] + box[2]) / 2;
		cy = (box[1] + box[3]) / 2;
	}
	int px = CROP_PX[t->crop];
	/* a symbol cell is about twice as tall as wide */
	int cw = cols * px, ch = rows * 2 * px;
	if (cw > iw)
		cw = iw;
	if (ch > ih)
		ch = ih;
	int x1 = cx + t->pan_x - cw / 2, y1 = cy + t->pan_y - ch / 2;
	x1 = x1 < 0 ? 0 : x1 + cw > iw ? iw - cw : x1;
	y1 = y1 < 0 ? 0 : y1 + ch > ih ? ih - ch : y1;
	/* the pan stops where the image ends */
	t->pan_x = x1 + cw / 2 - cx;
	t->pan_y = y1 + ch / 2 - cy;
	out[0] = x1;
	out[1] = y1;
	out[2] = x1 + cw;
	out[3] = y1 + ch;
	return 1;
}

static void draw_image(amc_tui_app *a, task_view *t, int pane, int y, int x, int h, int w)
{
	char title[64];
	const char *dot = amc_tui_utf8() ? " \xc2\xb7 " : " - ";
	snprintf(title, sizeof title, "%s%s%s%s%s", PANE_NAMES[pane], t->crop ? dot : "",
		 t->crop == 1 ? "zoom" : t->crop == 2 ? "zoom+" : "", pane == P_AFTER && t->pick ? dot : "",
		 pane == P_AFTER && t->pick ? "pick" : "");
	amc_tui_box(y, x, h, w, title, t->focus == pane);
	if (!t->nsteps)
		return;
	amc_step_row *s = &t->steps[t->sel];
	const char *rel = pane == P_BEFORE ? s->before_screenshot : s->after_screenshot;
	if (!rel) {
		amc_tui_put(stdscr, y + 1, x + 1, w - 2, "(no screenshot)", amc_tui_attr(AMC_EL_DIM), 0);
		return;
	}
	char abs[PATH_MAX]; /* a longer path could not be opened anyway */
	amc_err e;
	if (amc_store_artifact_abspath(a->store, rel, abs, sizeof abs, &e) != 0) {
		amc_tui_put(stdscr, y + 1, x + 1, w - 2, e.msg, amc_tui_attr(AMC_EL_ERROR), 0);
		return;
	}
	amc_tui_marks m = { -1, -1, NULL, 0, 0, 0, 0, 0, { 0, 0, 0, 0 } };
	int box[4], p[4];
	if (pane == P_BEFORE) {
		if (amc_tui_steptext_swipe(s, p)) {
			m.swipe = 1;
			m.sx1 = m.tx = p[0];
			m.sy1 = m.ty = p[1];
			m.sx2 = p[2];
			m.sy2 = p[3];
		} else if (!amc_tui_steptext_target(s, &m.tx, &m.ty)) {
			m.tx = m.ty = -1;
		}
		if (amc_tui_evidence_mark(t->ev, box))
			m.box = box;
	} else if (amc_tui_evidence_tree_mark(t->ev, box)) {
		/* the tree tab's node outlined where it is: on the screen after */
		m.tx = m.ty = -1;
		m.box = box;
	}
	if (crop_rect(t, abs, h - 2, w - 2, m.crop) && pane == P_AFTER && m.tx < 0) {
		/* zoomed: the step's target on the After image too, where it was */
		if (!amc_tui_steptext_target(s, &m.tx, &m.ty))
			m.tx = m.ty = -1;
	}
	amc_tui_image_draw_marked(abs, y + 1, x + 1, h - 2, w - 2, &m, t->zoom, a->graphics);
}

static void draw_operation(amc_store *st, task_view *t, int y, int x, int h, int w)
{
	amc_tui_box(y, x, h, w, "Operation", t->focus == P_OPERATION);
	t->op_page = h - 2;
	if (!t->nsteps)
		return;
	amc_tui_lines l = { NULL, 0 }, rows = { NULL, 0 };
	build_op(st, t, &t->steps[t->sel], t->nothing[t->sel], &l);
	int failed = t->steps[t->sel].status && strcmp(t->steps[t->sel].status, "ok") != 0;
	signed char *els = amc_tui_steptext_rows(&l, w - 2, failed, &rows);
	if (t->op_top > (long)rows.n - 1)
		t->op_top = rows.n ? (long)rows.n - 1 : 0;
	for (int i = 0; i < t->op_page && t->op_top + i < (long)rows.n; i++)
		amc_tui_put(stdscr, y + 1 + i, x + 1, w - 2, rows.v[t->op_top + i], amc_tui_attr(els[t->op_top + i]), 1);
	amc_tui_steptext_more(y + h - 1, x, w, t->op_top, t->op_page, rows.n, t->focus == P_OPERATION);
	free(els);
	amc_tui_steptext_free(&rows);
	amc_tui_steptext_free(&l);
}

static void draw_pane(amc_tui_app *a, task_view *t, int pane, int y, int x, int h, int w)
{
	t->at[pane].y = y;
	t->at[pane].x = x;
	t->at[pane].h = h;
	t->at[pane].w = w;
	if (pane == P_EVIDENCE) {
		amc_tui_evidence_draw(t->ev, y, x, h, w, t->focus == P_EVIDENCE);
		/* the Diff tab may have just computed the flag of an older record */
		int cn = amc_tui_evidence_changed_nothing(t->ev);
		if (t->nsteps && cn >= 0)
			t->nothing[t->sel] = (signed char)cn;
		return;
	}
	if (pane == P_TIMELINE)
		draw_timeline(a, t, y, x, h, w);
	else if (pane == P_OPERATION)
		draw_operation(a->store, t, y, x, h, w);
	else
		draw_image(a, t, pane, y, x, h, w);
}


static void draw(amc_tui_app *a, amc_tui_view *v, int y, int h, int w)
{
	task_view *t = v->data;
	if (!t->have_task) {
		amc_tui_put(stdscr, y + 1, 2, w - 4, "this task is gone (retention?); Esc goes back", amc_tui_attr(AMC_EL_ERROR), 0);
		return;
	}
	amc_task_row *r = &t->task;
	char dur[32] = "-";
	if (r->started_ms) {
		long long end = r->finished_ms ? r->finished_ms : amc_tui_now(a);
		amc_format_duration(end - r->started_ms, dur, sizeof dur);
	}
	amc_sb sb;
	amc_sb_init(&sb);
	char sid[AMC_ID_SIZE];
	amc_err se;
	if (amc_store_short_id(a->store, r->id, sid, &se) != 0)
		snprintf(sid, sizeof sid, "%s", r->id); /* unique for sure */
	amc_sb_printf(&sb, "%s %s  %s  %s  on %s  %d step%s  %s", amc_tui_status_symbol(r->status), r->status, sid,
		      r->goal ? r->goal : r->flow_name ? r->flow_name : "?", r->device, r->steps, r->steps == 1 ? "" : "s", dur);
	/* a task run for someone else (a fleet assignment and its attempt) */
	if (r->source_task_id) {
		amc_sb_printf(&sb, "  from %.24s", r->source_task_id);
		if (r->source_attempt >= 0)
			amc_sb_printf(&sb, " #%d", r->source_attempt);
	}
	/* a planned task's totals; flows have none, and unknown stays unknown */
	if (r->input_tokens >= 0 || r->output_tokens >= 0 || r->cost_usd >= 0) {
		if (r->input_tokens >= 0)
			amc_sb_printf(&sb, "  %lld tokens in", r->input_tokens);
		if (r->output_tokens >= 0)
			amc_sb_printf(&sb, ", %lld out", r->output_tokens);
		if (r->cost_usd >= 0)
			amc_sb_printf(&sb, ", $%.4f", r->cost_usd);
		else
			amc_sb_puts(&sb, ", cost unknown");
	}
	amc_tui_put(stdscr, y, 1, w - 2, amc_sb_str(&sb), amc_tui_attr(amc_tui_status_el(r->status)) | A_BOLD, 1);
	amc_sb_reset(&sb);
	if (r->error && *r->error && t->zoom) {
		/* a zoomed pane has the whole terminal: the error on one row (the
		 * zoomed Operation pane has all of it), not the box */
		char *e = amc_tui_steptext_short_error(r->error, t->nsteps ? &t->steps[t->nsteps - 1] : NULL);
		amc_sb_printf(&sb, "error: %s", e);
		amc_tui_put(stdscr, y + 1, 1, w - 2, amc_sb_str(&sb), amc_tui_attr(AMC_EL_ERROR), 1);
		free(e);
		amc_sb_free(&sb);
		y += 2;
		h -= 2;
	} else if (r->error && *r->error) {
		amc_sb_free(&sb);
		char *e = amc_tui_steptext_short_error(r->error, t->nsteps ? &t->steps[t->nsteps - 1] : NULL);
		int used = amc_tui_steptext_error_box(e, r->status, y + 1, w, h - 1);
		free(e);
		y += 1 + used;
		h -= 1 + used;
	} else {
		if (r->summary && *r->summary)
			amc_sb_puts(&sb, r->summary);
		amc_tui_put(stdscr, y + 1, 1, w - 2, amc_sb_str(&sb), amc_tui_attr(AMC_EL_DIM), 1);
		amc_sb_free(&sb);
		y += 2;
		h -= 2;
	}
	memset(t->at, 0, sizeof t->at);
	/* the evidence pane follows the selected step (the before image's mark comes from it) */
	amc_tui_evidence_step(t->ev, a->store, t->nsteps ? &t->steps[t->sel] : NULL);
	if (t->zoom && (t->focus == P_BEFORE || t->focus == P_AFTER)) {
		/* a zoomed screenshot shows before and after side by side on the
		 * whole terminal, as one compares them (issue 27) */
		draw_pane(a, t, P_BEFORE, y, 0, h, w / 2);
		draw_pane(a, t, P_AFTER, y, w / 2, h, w - w / 2);
		return;
	}
	if (t->zoom) {
		draw_pane(a, t, t->focus, y, 0, h, w);
		return;
	}
	/* the timeline as wide as its longest row (marker, number, status,
	 * description, duration), between 28 columns and 35% of the width */
	int tw = 28;
	for (size_t i = 0; i < t->nsteps; i++) {
		const char *d = t->steps[i].description ? t->steps[i].description : t->steps[i].tool;
		int need = amc_tui_width(d) + 17;
		tw = need > tw ? need : tw;
	}
	if (tw > w * 35 / 100)
		tw = w * 35 / 100;
	if (tw < 28)
		tw = 28;
	if (tw > w - 20)
		tw = w - 20;
	int rw = w - tw, ih = h * 3 / 5;
	draw_pane(a, t, P_TIMELINE, y, 0, h, tw);
	draw_pane(a, t, P_BEFORE, y, tw, ih, rw / 2);
	draw_pane(a, t, P_AFTER, y, tw + rw / 2, ih, rw - rw / 2);
	draw_pane(a, t, P_OPERATION, y + ih, tw, h - ih, rw / 2);
	draw_pane(a, t, P_EVIDENCE, y + ih, tw + rw / 2, h - ih, rw - rw / 2);
}

static void tree_search(amc_tui_app *a, const char *text, void *ud)
{
	(void)a;
	task_view *t = ud;
	amc_tui_evidence_tree_search(t->ev, text);
}

/* O: the step's screenshot in the desktop's viewer when there is a desktop
 * (xdg-open, detached: a grandchild nobody waits for), else its path in the
 * message line to copy. */
static void open_image(amc_tui_app *a, task_view *t)
{
	if (!t->nsteps)
		return;
	const amc_step_row *s = &t->steps[t->sel];
	const char *rel = t->focus == P_BEFORE ? s->before_screenshot : s->after_screenshot;
	char abs[PATH_MAX];
	amc_err e;
	if (!rel || amc_store_artifact_abspath(a->store, rel, abs, sizeof abs, &e) != 0) {
		amc_tui_message(a, 1, "this step has no %s screenshot", t->focus == P_BEFORE ? "before" : "after");
		return;
	}
	const char *d = getenv("DISPLAY"), *wd = getenv("WAYLAND_DISPLAY");
	if ((d && *d) || (wd && *wd)) {
		const char *argv[] = { "xdg-open", abs, NULL };
		if (amc_proc_detach(argv, NULL, NULL, &e) == 0) {
			amc_tui_message_link(a, abs, "opening %s with xdg-open", abs);
			return;
		}
	}
	amc_tui_message_link(a, abs, "screenshot: %s", abs);
}

/* The picked element on the status line: its selector first (what is
 * copied), then the element as the tree shows it. */
static void say_picked(amc_tui_app *a, task_view *t)
{
	amc_sb sel, what;
	amc_sb_init(&sel);
	amc_sb_init(&what);
	amc_tui_evidence_tree_selector(t->ev, &sel);
	amc_tui_evidence_tree_summary(t->ev, &what);
	amc_tui_message(a, 0, "%s  <- %s  (j/k, Y: copy, Esc)", amc_sb_str(&sel), amc_sb_str(&what));
	amc_sb_free(&sel);
	amc_sb_free(&what);
}

/* p: the tree tab shows the After screen's elements; the first one in
 * reading order (or the selected one) is picked on the After image. */
static void start_pick(amc_tui_app *a, task_view *t)
{
	if (!t->nsteps || !amc_tui_evidence_pick(t->ev, 0)) {
		amc_tui_message(a, 1, "nothing to pick: this step has no UI tree with elements");
		return;
	}
	t->pick = 1;
	t->focus = P_AFTER;
	t->pan_x = t->pan_y = 0;
	say_picked(a, t);
}

/* While picking, j/k move over the elements; zoomed on a screenshot pane,
 * h/j/k/l pan. 1 when the request was one of those. */
static int pick_or_pan(amc_tui_app *a, task_view *t, amc_tui_req req)
{
	int up = req == AMC_REQ_UP, down = req == AMC_REQ_DOWN;
	if (t->pick && (t->focus == P_AFTER || t->focus == P_BEFORE) && (up || down)) {
		if (!amc_tui_evidence_pick(t->ev, down ? 1 : -1))
			amc_tui_message(a, 0, "no more elements %s", down ? "below" : "above");
		else {
			t->pan_x = t->pan_y = 0; /* a zoom follows the picked element */
			say_picked(a, t);
		}
		return 1;
	}
	int left = req == AMC_REQ_PAN_LEFT, right = req == AMC_REQ_PAN_RIGHT;
	if (!(left || right || up || down) || !(t->focus == P_AFTER || t->focus == P_BEFORE))
		return left || right; /* h/l do nothing elsewhere in this view */
	if (!t->crop) {
		if (left || right)
			amc_tui_message(a, 0, "x zooms to the target first; then h/j/k/l pan");
		return left || right;
	}
	/* a quarter of the zoomed part a key */
	int step = CROP_PX[t->crop] * 10;
	t->pan_x += left ? -step : right ? step : 0;
	t->pan_y += up ? -2 * step : down ? 2 * step : 0;
	return 1;
}

static int request(amc_tui_app *a, amc_tui_view *v, amc_tui_req req)
{
	task_view *t = v->data;
	long n = (long)t->nsteps;
	const char *why = NULL;
	if (amc_tui_evidence_tab_request(t->ev, req, &why)) {
		if (why)
			amc_tui_message(a, 1, "%s", why);
		return 1;
	}
	int tree_keys = t->focus == P_EVIDENCE && amc_tui_evidence_tree_keys(t->ev);
	if (tree_keys && req == AMC_REQ_SEARCH) {
		amc_tui_open_dialog(a, amc_tui_input_new("Search the UI tree", "", tree_search, t));
		return 1;
	}
	if (t->focus == P_EVIDENCE && amc_tui_evidence_request(t->ev, req))
		return 1;
	if (pick_or_pan(a, t, req))
		return 1;
	int op = t->focus == P_OPERATION;
	long *pos = op ? &t->op_top : &t->sel;
	long page = op ? t->op_page : t->tl_page;
	switch (req) {
	case AMC_REQ_DOWN: (*pos)++; break;
	case AMC_REQ_UP: (*pos)--; break;
	case AMC_REQ_PAGE_DOWN: *pos += page > 1 ? page : 1; break;
	case AMC_REQ_PAGE_UP: *pos -= page > 1 ? page : 1; break;
	case AMC_REQ_TOP: *pos = 0; break;
	case AMC_REQ_BOTTOM: *pos = op ? 1L << 30 : n - 1; break;
	case AMC_REQ_NEXT_PANE: t->focus = (t->focus + 1) % NPANES; return 1;
	case AMC_REQ_PREV_PANE: t->focus = (t->focus + NPANES - 1) % NPANES; return 1;
	case AMC_REQ_ZOOM: t->zoom = !t->zoom; return 1;
	case AMC_REQ_OCR_MARK: {
		/* the OCR tab's next word; after the last, none */
		int k = t->nsteps ? amc_tui_evidence_next_word(t->ev) : 0;
		if (k)
			amc_tui_message(a, 0, "OCR word %d marked on the before image (o: next)", k);
		return 1;
	}
	case AMC_REQ_OPEN_IMAGE: open_image(a, t); return 1;
	case AMC_REQ_COPY_SELECTOR: {
		amc_sb sel;
		amc_sb_init(&sel);
		if (amc_tui_evidence_tree_selector(t->ev, &sel) != 0)
			amc_tui_message(a, 1, "%s", amc_sb_str(&sel));
		else
			amc_tui_message(a, 0, "%s%s", amc_sb_str(&sel),
					amc_tui_pixels_osc52(amc_sb_str(&sel)) == 0 ? "   (copied: OSC 52)" : "");
		amc_sb_free(&sel);
		return 1;
	}
	case AMC_REQ_CROP:
		t->crop = (t->crop + 1) % 3;
		t->pan_x = t->pan_y = 0;
		if (t->crop) {
			/* say what crop_rect centres on, in its order: a step without
			 * a target (an assertion) must not claim one */
			int box[4], cx, cy, node = t->nsteps && amc_tui_evidence_tree_mark(t->ev, box);
			int target = t->nsteps && amc_tui_steptext_target(&t->steps[t->sel], &cx, &cy);
			const char *what = t->pick ? "the picked element"
					   : node && t->focus == P_EVIDENCE ? "the selected node"
					   : target ? "the step's target"
					   : node ? "the selected node (the step has no target)"
						  : "the middle (no target: p picks one)";
			amc_tui_message(a, 0, "zoomed to %s; x: %s, h/j/k/l: pan", what,
					t->crop == 1 ? "closer" : "whole screen");
		}
		return 1;
	case AMC_REQ_PICK:
		if (t->pick) {
			t->pick = 0;
			return 1;
		}
		start_pick(a, t);
		return 1;
	case AMC_REQ_OCR_FULL: {
		amc_err e;
		if (!t->nsteps)
			return 1;
		if (amc_tui_evidence_ocr_full(t->ev, &e) != 0)
			amc_tui_message(a, 1, "%s", e.msg);
		else
			amc_tui_message(a, 0, "read the Before screenshot with full OCR (o marks each word)");
		return 1;
	}
	case AMC_REQ_BACK:
		if (t->pick) {
			t->pick = 0;
			return 1;
		}
		if (t->zoom) {
			t->zoom = 0;
			return 1;
		}
		return 0;
	default: return 0;
	}
	if (*pos < 0)
		*pos = 0;
	if (!op) {
		if (t->sel >= n)
			t->sel = n > 0 ? n - 1 : 0;
		t->op_top = 0;
		/* Moving away from the newest step stops following it. */
		t->follow_tail = t->sel == n - 1 && t->have_task && !amc_status_is_terminal(t->task.status);
	}
	return 1;
}

static int live(amc_tui_app *a, amc_tui_view *v)
{
	(void)a;
	task_view *t = v->data;
	return t->have_task && !amc_status_is_terminal(t->task.status);
}

static const char *task(amc_tui_app *a, amc_tui_view *v)
{
	return live(a, v) ? ((task_view *)v->data)->id : NULL;
}

static void vfree(amc_tui_view *v)
{
	task_view *t = v->data;
	if (t->have_task)
		amc_task_row_free(&t->task);
	amc_step_rows_free(t->steps, t->nsteps);
	amc_decision_rows_free(t->dec, t->ndec);
	amc_tui_evidence_free(t->ev);
	free(t->nothing);
	free(t);
}

/* A click focuses the pane under it; in the timeline it also selects the step. */
static void click(amc_tui_app *a, amc_tui_view *v, int y, int x, int twice)
{
	task_view *t = v->data;
	for (int p = 0; p < NPANES; p++) {
		if (!t->at[p].w || y < t->at[p].y || y >= t->at[p].y + t->at[p].h || x < t->at[p].x ||
		    x >= t->at[p].x + t->at[p].w)
			continue;
		t->focus = p;
		if (p == P_TIMELINE) {
			long row = t->top + (y - t->at[p].y - 1);
			if (row >= 0 && row < (long)t->nsteps && y > t->at[p].y) {
				t->sel = row;
				t->op_top = 0;
			}
		}
		/* In the evidence pane a click picks a tab (on the frame) or a row,
		 * and in the tree a double click opens or closes the node, as in any
		 * file tree; elsewhere a double click zooms the pane. */
		if (p == P_EVIDENCE) {
			int tree = amc_tui_evidence_tree_keys(t->ev);
			amc_tui_evidence_click(t->ev, y - t->at[p].y, x - t->at[p].x, twice);
			if (twice && !tree)
				t->zoom = !t->zoom;
			return;
		}
		/* a click on the After image picks the element under it */
		int px, py;
		if (p == P_AFTER && !twice && amc_tui_image_pixel_at(y, x, &px, &py)) {
			if (amc_tui_evidence_pick_at(t->ev, px, py)) {
				t->pick = 1;
				t->pan_x = t->pan_y = 0;
				say_picked(a, t);
			} else {
				amc_tui_message(a, 0, "no element to pick at %d,%d of the After screenshot", px, py);
			}
			return;
		}
		if (twice)
			t->zoom = !t->zoom;
		return;
	}
}

static unsigned keymask(amc_tui_app *a, amc_tui_view *v)
{
	(void)a;
	task_view *t = v->data;
	return t->focus == P_EVIDENCE && amc_tui_evidence_tree_keys(t->ev) ? AMC_VIEW_TREE : 0;
}

const amc_tui_view_ops amc_tui_view_task = {
	"Task", AMC_VIEW_TASK, draw, request, reload, live, task, vfree, keymask, click,
};
