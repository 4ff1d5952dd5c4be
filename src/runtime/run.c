/* run.c - one task's run: observe, plan, act, settle, record (run.h).
 * Just over 800 lines: the step recorder (store_observation and its
 * helpers) is the seam to move into its own file; it shares the run's
 * private state today. */
#include "runtime/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/observe.h"
#include "runtime/stepdiff.h"
#include "runtime/tools.h"
#include "storage/search.h"
#include "util/clock.h"
#include "util/jsonutil.h"
#include "util/log.h"
#include "util/strbuf.h"

/* How long a planner may keep asking to look again (REOBSERVE) before the runner
 * ends the step itself; planners normally give up much earlier. */
#define AMC_REOBSERVE_LIMIT_MS 600000
/* Device time between two looks when the planner asked to look again. */
#define AMC_REOBSERVE_INTERVAL_MS 250

void amc_runner_opts_from_config(amc_runner_opts *o, const amc_config *c)
{
	o->max_steps = (int)amc_config_int(c, "runner", "max_steps");
	o->settle_timeout_ms = (int)amc_config_int(c, "runner", "settle_timeout_ms");
	o->settle_interval_ms = (int)amc_config_int(c, "runner", "settle_interval_ms");
	o->settle_tolerance = amc_config_double(c, "runner", "settle_tolerance");
	o->capture_retries = (int)amc_config_int(c, "runner", "capture_retries");
	amc_ocr_policy_parse(amc_config_str(c, "ocr", "policy"), &o->ocr_policy, NULL);
	o->op = NULL;
	o->confirm_words = NULL;
	o->assume_yes = 0;
	o->secrets = NULL;
	o->enricher = NULL;
	o->decision_sink = NULL;
	o->interrupt_why = NULL;
	o->cancel_why = NULL;
}

/* The strings a task row holds beside the task's own: copies, so the row (whose
 * fields are not const) never points at const or static data. */
typedef struct row_names {
	char kind[16];
	char planner[32];
	char status[16];
	char lock_name[200];
} row_names;

static void row_init(amc_task_row *row, row_names *nm, amc_task *task, const amc_planner *planner,
		     int default_max_steps, const char *status)
{
	memset(row, 0, sizeof *row);
	snprintf(nm->kind, sizeof nm->kind, "%s", task->kind);
	snprintf(nm->planner, sizeof nm->planner, "%s", planner->ops->name);
	snprintf(nm->status, sizeof nm->status, "%s", status);
	amc_device_lock_name(task->device, nm->lock_name, sizeof nm->lock_name);
	row->id = task->id;
	row->kind = nm->kind;
	row->goal = task->goal;
	row->flow_path = task->flow_path;
	row->flow_name = task->flow_name;
	row->device = task->device;
	row->planner = nm->planner;
	row->status = nm->status;
	row->created_ms = amc_now_ms();
	row->max_steps = task->max_steps > 0 ? task->max_steps : default_max_steps;
	row->input_tokens = row->output_tokens = -1;
	row->cost_usd = -1;
	row->source_task_id = task->source_task_id;
	row->source_attempt = task->source_attempt;
	row->owner_pid = (long)getpid();
	row->lock_name = nm->lock_name;
}

static void outcome_from(amc_task_outcome *out, const amc_task_row *row)
{
	memset(out, 0, sizeof *out);
	snprintf(out->status, sizeof out->status, "%s", row->status);
	out->steps = row->steps;
	snprintf(out->error, sizeof out->error, "%s", row->error ? row->error : "");
	snprintf(out->summary, sizeof out->summary, "%s", row->summary ? row->summary : "");
}

int amc_task_record_unrun(amc_store *store, amc_bus *bus, amc_task *task, amc_planner *planner,
			  int default_max_steps, const char *status, const char *error)
{
	int rc = -1;
	amc_task_row row;
	row_names nm;
	row_init(&row, &nm, task, planner, default_max_steps, status);
	row.finished_ms = row.created_ms;
	char *err = amc_xstrdup(error);
	row.error = err;
	amc_task_outcome out;
	outcome_from(&out, &row);
	if (store) {
		amc_err e;
		if (amc_store_create_task(store, &row, &e) != 0 || amc_store_update_task(store, &row, &e) != 0)
			amc_log_error("task %s: cannot record: %s", task->id, e.msg);
		else
			rc = 0;
		amc_event ev = { AMC_EV_TASK_STATUS, task->id, task->device, 0, status, NULL, NULL, error, 0 };
		amc_bus_publish(bus, &ev);
	}
	free(err);
	amc_planner_ended(planner, &out);
	return rc;
}

/* ---- one task ---------------------------------------------------------- */

/* Everything one task carries from start to finish. */
typedef struct run {
	amc_store *store;
	amc_bus *bus;
	amc_device *dev;
	amc_planner *planner;
	amc_task *task;
	const amc_runner_opts *opts;
	atomic_int *cancel;
	amc_observe_opts observe;       /* this task's captures; its OCR goes off if tesseract's data is missing */
	amc_settle_opts settle;
	amc_lock *lock;
	const amc_run_env *env;
	int own_lock;                   /* taken here (not handed in): released here */
	amc_task_row row;
	row_names names;
	int obs_seq;                    /* observations stored so far, names obs-NNNN.* */
	amc_bounds secret_fields[16];   /* fields a secret was typed into */
	size_t nsecret_fields;
	amc_observation obs;            /* the current screen: the next step's "before" */
	long long observe_ms;           /* spent observing for the next step so far */
	amc_device_calls calls_mark;    /* the device's call tallies when the next step began */
	/* the previous step, for the planner */
	char last_tool[32];             /* "" before the first */
	int last_ok;
	char last_error[AMC_ERR_MSG_MAX];
	cJSON *last_result;
} run;

/* One step on its way from plan to record. */
typedef struct step {
	int n;
	amc_action act;
	const amc_tool *tool;           /* the registry tool run, NULL when none ran */
	long long started_ms, plan_ms, act_ms, settle_ms;
	int reobserved, frames, settled;
	char status[16];                /* "ok", "failed" or "refused" */
	char error[AMC_ERR_MSG_MAX];    /* "" when ok */
	cJSON *result;
	amc_observation after;
	int have_after;
} step;

static int cancelled(const run *r)
{
	return r->cancel && atomic_load(r->cancel);
}

static void publish(run *r, amc_event_type type, int n, const char *status,
		    const char *phase, const char *tool, const char *text, long long dur)
{
	amc_event ev = { type, r->task->id, r->task->device, n, status, phase, tool, text, dur };
	amc_bus_publish(r->bus, &ev);
}

static void set_status(run *r, const char *status)
{
	snprintf(r->names.status, sizeof r->names.status, "%s", status);
	amc_err e;
	int rc = amc_store_update_task(r->store, &r->row, &e);
	/* A task that ends because the disk is full must still record its end:
	 * the files of the step it could not record are nobody's evidence, so
	 * they make the room (found by make check-hardening's disk-full fault). */
	if (rc != 0 && r->row.finished_ms > 0) {
		amc_err fe;
		int gone = amc_store_free_unrecorded(r->store, r->task->id, &fe);
		if (gone > 0)
			rc = amc_store_update_task(r->store, &r->row, &e);
		/* Frames stored once free little: the disk kept back at the
		 * start is for this write. */
		if (rc != 0 && amc_store_reserve_release(r->store))
			rc = amc_store_update_task(r->store, &r->row, &e);
	}
	if (rc != 0)
		amc_log_error("task %s: cannot record status %s: %s", r->task->id, status, e.msg);
	publish(r, AMC_EV_TASK_STATUS, 0, status, NULL, NULL,
		r->row.error ? r->row.error : r->row.summary, 0);
}

static void finish_task(run *r, const char *status, const char *error, const char *summary)
{
	free(r->row.error);
	free(r->row.summary);
	r->row.error = amc_xstrdup(error);
	r->row.summary = amc_xstrdup(summary);
	amc_secrets_mask_field(r->opts->secrets, &r->row.error);
	amc_secrets_mask_field(r->opts->secrets, &r->row.summary);
	r->row.finished_ms = amc_now_ms();
	set_status(r, status);
}

static void finish_cancelled(run *r)
{
	if (r->cancel && atomic_load(r->cancel) == AMC_RUN_INTERRUPT)
		finish_task(r, AMC_ST_INTERRUPTED,
			    r->opts->interrupt_why && *r->opts->interrupt_why ? r->opts->interrupt_why : "interrupted", NULL);
	else
		finish_task(r, AMC_ST_CANCELLED,
			    r->opts->cancel_why && *r->opts->cancel_why ? r->opts->cancel_why : "cancelled by the operator", NULL);
}

/* Secrets never leave the device: mask every observation before anyone sees it. */
static void mask_obs(run *r, amc_observation *o)
{
	if (r->opts->secrets)
		amc_secrets_mask_observation(r->opts->secrets, o, r->secret_fields, r->nsecret_fields);
	/* With enrichment on, every observation gets its SemanticScene once, here,
	 * so the planner and the record see the same one; a failure leaves NULL
	 * and the raw Scene. */
	if (r->opts->enricher && !o->semantic)
		o->semantic = amc_enrich_scene(r->opts->enricher, &o->scene, r->task->goal);
}

static int observe(run *r, amc_observation *o, amc_err *e)
{
	if (amc_observe(r->dev, &r->observe, o, e) != 0)
		return -1;
	mask_obs(r, o);
	return 0;
}

/* Store an observation's screenshot and normalized tree once; later records that
 * reuse the observation point at the same files. */
static int store_observation(run *r, amc_observation *o, amc_err *e)
{
	if (o->png_path)
		return 0;
	char name[64], rel[512];
	int seq = ++r->obs_seq;
	snprintf(name, sizeof name, "obs-%04d.png", seq);
	/* No thumbnail here: the TUI makes one when a pane first shows the
	 * step (amc_store_thumb_get), which most steps never need. */
	if (amc_store_put_frame(r->store, r->task->id, name, o->png, o->png_len, rel, sizeof rel, e) != 0)
		return -1;
	o->png_path = amc_xstrdup(rel);
	cJSON *tj = amc_uitree_to_json(&o->tree);
	char *ts = amc_json_print(tj);
	cJSON_Delete(tj);
	snprintf(name, sizeof name, "obs-%04d-tree.json", seq);
	int rc = amc_store_put_artifact(r->store, r->task->id, name, ts, strlen(ts), rel, sizeof rel, e);
	free(ts);
	if (rc != 0)
		return -1;
	o->tree_path = amc_xstrdup(rel);
	return 0;
}

/* Store what an LLM planner sent and got for this step, so its choices can be
 * audited, and add its usage to the task's (unknown stays unknown: -1). */
static void record_decision(run *r, int n, const amc_action *act, const char *outcome)
{
	if (!act->decision)
		return;
	amc_task_row *t = &r->row;
	if (act->input_tokens >= 0)
		t->input_tokens = (t->input_tokens < 0 ? 0 : t->input_tokens) + act->input_tokens;
	if (act->output_tokens >= 0)
		t->output_tokens = (t->output_tokens < 0 ? 0 : t->output_tokens) + act->output_tokens;
	if (act->cost_usd >= 0)
		t->cost_usd = (t->cost_usd < 0 ? 0 : t->cost_usd) + act->cost_usd;
	const cJSON *d = act->decision;
	char out_s[8];
	snprintf(out_s, sizeof out_s, "%s", outcome);
	amc_decision_row dr = { 0 };
	dr.task_id = r->task->id;
	dr.step = n;
	dr.attempt = r->task->source_attempt;
	dr.created_ms = amc_now_ms();
	dr.planner = r->names.planner;
	dr.model = amc_xstrdup(amc_json_str(d, "model"));
	dr.system_prompt = amc_xstrdup(amc_json_str(d, "system"));
	dr.user_prompt = amc_xstrdup(amc_json_str(d, "user"));
	dr.tool = amc_xstrdup(amc_json_str(d, "tool"));
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(d, "args");
	dr.args = args ? amc_json_print(args) : NULL;
	const cJSON *detail = cJSON_GetObjectItemCaseSensitive(d, "detail");
	dr.detail = detail ? amc_json_print(detail) : NULL;
	dr.outcome = out_s;
	dr.input_tokens = act->input_tokens;
	dr.output_tokens = act->output_tokens;
	dr.cost_usd = act->cost_usd;
	amc_err e;
	if (amc_store_add_decision(r->store, &dr, &e) != 0)
		amc_log_warn("task %s: cannot record the planner decision of step %d: %s", r->task->id, n, e.msg);
	else if (r->opts->decision_sink && r->opts->decision_sink->decided)
		r->opts->decision_sink->decided(r->opts->decision_sink->ud, &dr);
	free(dr.model);
	free(dr.system_prompt);
	free(dr.user_prompt);
	free(dr.tool);
	free(dr.args);
	free(dr.detail);
}

/* ---- start ------------------------------------------------------------- */

/* The row, the lock and the first look at the screen. -1: the task could not
 * start (no row, nothing held); 1: it started and has already ended (the first
 * observation failed); 0: ready for its first step. */
static int run_start(run *r, amc_err *e)
{
	amc_device_info info;
	if (r->dev->ops->info(r->dev, &info, e) != 0)
		return -1;
	/* The device lock is the task's ownership: the kernel releases it if this
	 * process dies, and the next amc command then marks the task interrupted. */
	if (!r->lock) {
		if (amc_device_lock(amc_store_home(r->store), r->task->device, r->task->id, &r->lock, e) != 0)
			return -1;
		r->own_lock = 1;
	}
	row_init(&r->row, &r->names, r->task, r->planner, r->opts->max_steps, AMC_ST_QUEUED);
	/* The row exists before the first "running" update, whoever called: a task
	 * that ran is always in the history (create is idempotent for a caller
	 * that made the row already). */
	if (amc_store_create_task(r->store, &r->row, e) != 0) {
		if (r->own_lock)
			amc_device_unlock(r->lock);
		r->lock = NULL;
		return -1;
	}
	if (r->env->created)
		r->env->created(r->env->created_ud, r->store, r->task);
	publish(r, AMC_EV_TASK_CREATED, 0, AMC_ST_QUEUED, NULL, NULL,
		r->task->goal ? r->task->goal : r->task->flow_name, 0);
	r->row.started_ms = amc_now_ms();
	set_status(r, AMC_ST_RUNNING);
	/* Keep room for the task's end before its first step: a task whose end
	 * cannot be written would stay 'running'. */
	amc_err re;
	if (amc_store_reserve_keep(r->store, &re) != 0) {
		finish_task(r, AMC_ST_FAILED, re.msg, NULL);
		return 1;
	}

	const amc_runner_opts *o = r->opts;
	r->observe = (amc_observe_opts){ o->capture_retries, o->ocr_policy };
	r->settle = (amc_settle_opts){ o->settle_timeout_ms, o->settle_interval_ms, o->settle_tolerance,
				       info.status_bar_px };
	r->last_ok = 1;
	amc_err le;
	long long t0 = amc_mono_ms();
	/* the first step's calls include the first look at the screen */
	r->calls_mark = amc_device_calls_now(r->dev);
	if (observe(r, &r->obs, &le) != 0) {
		finish_task(r, AMC_ST_FAILED, le.msg, NULL);
		return 1;
	}
	r->observe_ms = amc_mono_ms() - t0;
	return 0;
}

/* ---- one step ------------------------------------------------------------ */


/* Ask the planner, looking again while it waits for the screen. 0: s->act is
 * the step to run; 1: the task has ended. */
static int step_plan(run *r, step *s)
{
	long long waited = 0;
	for (;;) {
		amc_plan_ctx ctx = { r->task, s->n, &r->obs, r->last_tool[0] ? r->last_tool : NULL, r->last_ok,
				     r->last_error[0] ? r->last_error : NULL, waited, r->last_result };
		amc_err pe;
		amc_err_clear(&pe);
		long long p0 = amc_mono_ms();
		amc_plan_rc prc = r->planner->ops->next(r->planner, &ctx, &s->act, &pe);
		s->plan_ms += amc_mono_ms() - p0;
		amc_secrets_mask_action(r->opts->secrets, &s->act);
		amc_secrets_mask_buf(r->opts->secrets, pe.msg, sizeof pe.msg);
		record_decision(r, s->n, &s->act,
				prc == AMC_PLAN_FAIL ? "fail" : prc == AMC_PLAN_DONE ? "done" : "act");
		if (prc == AMC_PLAN_ACT)
			return 0;
		if (prc == AMC_PLAN_FAIL) {
			finish_task(r, AMC_ST_FAILED, pe.msg[0] ? pe.msg : "the planner failed", NULL);
			return 1;
		}
		if (prc == AMC_PLAN_DONE) {
			amc_err ae;
			if (s->act.answer && amc_store_set_task_answer(r->store, r->task->id, s->act.answer, &ae) != 0)
				amc_log_error("task %s: cannot record its answer: %s", r->task->id, ae.msg);
			finish_task(r, AMC_ST_SUCCEEDED, NULL, s->act.description);
			return 1;
		}
		/* AMC_PLAN_REOBSERVE, AMC_PLAN_LOOK */
		amc_action_clear(&s->act);
		if (cancelled(r)) {
			finish_cancelled(r);
			return 1;
		}
		int look = prc == AMC_PLAN_LOOK; /* asked from outside: now, and not a wait */
		if (!look && waited >= AMC_REOBSERVE_LIMIT_MS) {
			finish_task(r, AMC_ST_FAILED, "the planner waited too long for the screen", NULL);
			return 1;
		}
		long long o0 = amc_mono_ms();
		amc_observation next;
		amc_err le;
		if ((!look && r->dev->ops->wait(r->dev, AMC_REOBSERVE_INTERVAL_MS, &le) != 0) ||
		    observe(r, &next, &le) != 0) {
			finish_task(r, AMC_ST_FAILED, le.msg, NULL);
			return 1;
		}
		amc_observation_free(&r->obs);
		r->obs = next;
		if (!look)
			waited += AMC_REOBSERVE_INTERVAL_MS;
		s->reobserved++;
		r->observe_ms += amc_mono_ms() - o0;
	}
}

static void step_fail(step *s, const char *status, const char *error)
{
	snprintf(s->status, sizeof s->status, "%s", status);
	snprintf(s->error, sizeof s->error, "%s", error);
}

/* ask_user: the task waits for the operator; the answer is the step's result. */
static void act_ask_user(run *r, step *s)
{
	amc_operator *op = r->opts->op;
	const char *q = amc_json_str(s->act.args, "question");
	if (!q || !*q) {
		step_fail(s, "failed", "ask_user needs a question");
		return;
	}
	if (!op || !op->ops->ask) {
		step_fail(s, "failed", "the agent asked the operator a question, but nobody can answer here "
			  "(no terminal; run it from a terminal or the TUI)");
		return;
	}
	set_status(r, AMC_ST_WAITING_USER);
	char *answer = NULL;
	amc_err ae;
	amc_err_clear(&ae);
	int rc = op->ops->ask(op, r->task->id, q, &answer, &ae);
	set_status(r, AMC_ST_RUNNING);
	if (rc != 0) {
		snprintf(s->status, sizeof s->status, "failed");
		snprintf(s->error, sizeof s->error, "no answer from the operator: %.400s", ae.msg[0] ? ae.msg : "none given");
		free(answer);
		return;
	}
	s->result = cJSON_CreateObject();
	cJSON_AddStringToObject(s->result, "answer", answer ? answer : "");
	free(answer);
}

/* The irreversible-action gate: 1 when the action may run, 0 when the operator
 * refused (or nobody could be asked); the step then says so for the planner. */
static int confirm_gate(run *r, step *s)
{
	const amc_runner_opts *o = r->opts;
	const amc_action *act = &s->act;
	const amc_tool *tool = amc_tools_find(act->tool);
	char what[96];
	const char *word, *text;
	/* a flow's clearState (manage_app clear_state) erases data like
	 * clear_app: asked when the flow is gated (an MCP client's flow, or
	 * --confirm); a person's own `amc run --flow` is their yes */
	int clears = !strcmp(act->tool, "manage_app") && amc_json_str(act->args, "op") &&
		     !strcmp(amc_json_str(act->args, "op"), "clear_state") && r->planner->gated;
	if ((tool && tool->confirm) || clears) {
		/* irreversible whatever the screen shows (clearing an app's data):
		 * asked for every planner, gated or not; only --yes skips it */
		if (o->assume_yes)
			return 1;
		const char *app = amc_json_str(act->args, "app_id");
		snprintf(what, sizeof what, "%s (erases all its data)", clears ? "clearState" : act->tool);
		text = app ? app : "";
		word = clears ? "clearState" : act->tool;
	} else {
		if (!r->planner->gated || !o->confirm_words || o->assume_yes)
			return 1;
		if (strcmp(act->tool, "tap") && strcmp(act->tool, "long_press"))
			return 1;
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(act->args, "x");
		const cJSON *y = cJSON_GetObjectItemCaseSensitive(act->args, "y");
		if (!cJSON_IsNumber(x) || !cJSON_IsNumber(y))
			return 1;
		const amc_element *el = amc_scene_element_at(&r->obs.scene, x->valueint, y->valueint);
		word = el ? amc_words_match(o->confirm_words, el->text) : NULL;
		if (!word && el && el->resource_id)
			word = amc_words_match(o->confirm_words, el->resource_id);
		if (!word)
			return 1;
		snprintf(what, sizeof what, "%s at %d,%d", act->tool, x->valueint, y->valueint);
		text = el->text;
	}
	int yes = -1;
	amc_err ce;
	amc_err_clear(&ce);
	if (o->op && o->op->ops->confirm)
		yes = o->op->ops->confirm(o->op, r->task->id, what, text, word, &ce);
	if (yes == 1)
		return 1;
	s->result = cJSON_CreateObject();
	cJSON_AddBoolToObject(s->result, "refused", 1);
	cJSON_AddStringToObject(s->result, "matched", word);
	/* the operator's own words on why (who refused, or that nobody answered
	 * in time): a front end passes them on (amc mcp to its client) */
	if (ce.msg[0])
		cJSON_AddStringToObject(s->result, "why", ce.msg);
	snprintf(s->status, sizeof s->status, "refused");
	if (yes == 0)
		snprintf(s->error, sizeof s->error, "the operator refused this irreversible action ('%s'); do not retry it, "
			 "finish or ask_user instead", word);
	else
		snprintf(s->error, sizeof s->error, "irreversible action ('%s') not confirmed: nobody could be asked%s%.300s "
			 "(--yes allows it: `amc run --yes`, or for an MCP client's runs `amc mcp --yes`)", word, ce.msg[0] ? ": " : "", ce.msg);
	return 0;
}

/* type_text with {{secret:NAME}}: the device gets the value, the record keeps
 * the placeholder, and the focused field's bounds are blacked out from now on.
 * Returns the args to run (owned) or NULL to run act->args as they are. */
static cJSON *expand_secrets(run *r, const amc_action *act, amc_err *e, int *failed)
{
	*failed = 0;
	const char *text = amc_json_str(act->args, "text");
	if (!r->opts->secrets || strcmp(act->tool, "type_text") || !text || !strstr(text, "{{secret:"))
		return NULL;
	char *v = amc_secrets_expand(r->opts->secrets, text, e);
	if (!v) {
		*failed = 1;
		return NULL;
	}
	cJSON *a = cJSON_Duplicate(act->args, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(a, "text", cJSON_CreateString(v));
	memset(v, 0, strlen(v));
	free(v);
	const amc_ui_tree *t = &r->obs.tree;
	for (size_t i = 0; i < t->count; i++)
		if ((t->nodes[i].flags & AMC_NODE_FOCUSED) &&
		    r->nsecret_fields < sizeof r->secret_fields / sizeof r->secret_fields[0])
			r->secret_fields[r->nsecret_fields++] = t->nodes[i].bounds;
	return a;
}

/* A file a tool made (a recording, a cropped screenshot): the task's artifact. */
static int put_for_tool(void *ud, const char *name, const void *data, size_t len, char *rel, size_t reln, amc_err *e)
{
	run *r = ud;
	return amc_store_put_artifact(r->store, r->task->id, name, data, len, rel, reln, e);
}

/* A registry tool on the device. */
static void act_tool(run *r, step *s)
{
	amc_action *act = &s->act;
	s->tool = amc_tools_find(act->tool);
	publish(r, AMC_EV_STEP_PHASE, s->n, NULL, "act", act->tool, NULL, 0);
	amc_err te;
	amc_err_clear(&te);
	if (!s->tool) {
		amc_err_set(&te, AMC_EUSAGE, "unknown tool '%s'", act->tool);
	} else {
		amc_tool_ctx tc = { r->dev, &r->obs, put_for_tool, r, amc_store_home(r->store), r->task->id };
		int sfail = 0;
		cJSON *dev_args = expand_secrets(r, act, &te, &sfail);
		if (sfail)
			; /* te says which secret */
		else if (s->tool->run(&tc, dev_args ? dev_args : act->args, &s->result, &te) == 0)
			te.code = AMC_OK;
		else if (te.code == AMC_OK)
			te.code = AMC_EFAIL;
		if (s->result && dev_args) {
			/* the tool's result may echo what was typed */
			cJSON_Delete(s->result);
			s->result = cJSON_CreateObject();
			cJSON_AddBoolToObject(s->result, "secret", 1);
		}
		cJSON_Delete(dev_args);
	}
	if (te.code != AMC_OK)
		step_fail(s, "failed", te.msg);
}

/* Run the action: a decision the planner made itself, a question for the
 * operator, or a tool behind the irreversible-action gate. */
static void step_act(run *r, step *s)
{
	amc_action *act = &s->act;
	long long a0 = amc_mono_ms();
	if (act->decided) {
		if (!act->decided_ok)
			step_fail(s, "failed", act->decided_error ? act->decided_error : "check failed");
		s->result = act->decided_result;
		act->decided_result = NULL;
	} else if (!strcmp(act->tool, "ask_user")) {
		act_ask_user(r, s);
		s->act_ms = amc_mono_ms() - a0;
	} else if (confirm_gate(r, s)) {
		act_tool(r, s);
		s->act_ms = amc_mono_ms() - a0;
	}
}

/* Look at the screen after every tool that can change it, even a failed one:
 * what the device shows then is evidence too. */
static void step_settle(run *r, step *s)
{
	if (!s->tool || !s->tool->acts || cancelled(r))
		return;
	publish(r, AMC_EV_STEP_PHASE, s->n, NULL, "settle", s->act.tool, NULL, 0);
	long long s0 = amc_mono_ms();
	amc_err se;
	if (amc_settle(r->dev, &r->settle, &r->observe, &s->after, &s->frames, &s->settled, &se) == 0) {
		s->have_after = 1;
		mask_obs(r, &s->after);
	} else if (!strcmp(s->status, "ok")) {
		step_fail(s, "failed", se.msg);
	}
	s->settle_ms = amc_mono_ms() - s0;
}

static void add_tally(cJSON *to, const char *name, const amc_call_tally *t)
{
	cJSON *j = cJSON_AddObjectToObject(to, name);
	cJSON_AddNumberToObject(j, "count", (double)t->count);
	/* 0.1 ms is finer than any device call needs */
	cJSON_AddNumberToObject(j, "ms", (double)(long long)(t->ms * 10 + 0.5) / 10);
}

static char *timings_json(const run *r, const step *s, long long record_ms)
{
	cJSON *t = cJSON_CreateObject();
	/* the device calls since the step began: its observations, action and settling */
	amc_device_calls now = amc_device_calls_now(r->dev);
	amc_device_calls c = amc_device_calls_since(&now, &r->calls_mark);
	cJSON *dev = cJSON_AddObjectToObject(t, "device");
	add_tally(dev, "screenshots", &c.screenshots);
	add_tally(dev, "trees", &c.trees);
	add_tally(dev, "inputs", &c.inputs);
	add_tally(dev, "waits", &c.waits);
	cJSON_AddNumberToObject(t, "observe_ms", (double)r->observe_ms);
	cJSON_AddNumberToObject(t, "plan_ms", (double)s->plan_ms);
	cJSON_AddNumberToObject(t, "act_ms", (double)s->act_ms);
	cJSON_AddNumberToObject(t, "settle_ms", (double)s->settle_ms);
	cJSON_AddNumberToObject(t, "settle_frames", s->frames);
	cJSON_AddBoolToObject(t, "settled", s->settled);
	cJSON_AddNumberToObject(t, "record_ms", (double)record_ms);
	cJSON_AddNumberToObject(t, "reobserved", s->reobserved);
	char *js = amc_json_print(t);
	cJSON_Delete(t);
	return js;
}

/* Write the step's row and tell the bus and the planner. -1: it could not be
 * written (e says why). */
static int step_record(run *r, step *s, amc_err *e)
{
	publish(r, AMC_EV_STEP_PHASE, s->n, NULL, "record", s->act.tool, NULL, 0);
	long long r0 = amc_mono_ms();
	if (s->have_after && store_observation(r, &s->after, e) != 0)
		return -1;
	const amc_observation *post = s->have_after ? &s->after : &r->obs;
	amc_action *act = &s->act;
	amc_step_row rec = { 0 };
	rec.task_id = r->task->id;
	rec.step = s->n;
	rec.tool = act->tool;
	rec.args = act->args ? amc_json_print(act->args) : amc_xstrdup("{}");
	rec.description = act->description;
	rec.status = s->status;
	rec.result = s->result ? amc_json_print(s->result) : NULL;
	amc_secrets_mask_buf(r->opts->secrets, s->error, sizeof s->error);
	rec.error = s->error[0] ? s->error : NULL;
	rec.before_screenshot = r->obs.png_path;
	rec.after_screenshot = post->png_path;
	rec.screenshot_path = post->png_path;
	char no_words[] = "[]";
	rec.ocr = r->obs.ocr_json ? r->obs.ocr_json : no_words; /* the words behind the recorded scene */
	/* A get_ui_tree record carries the normalized tree itself, so the answer
	 * the planner got is in the timeline, not only the tree artifact. */
	if (!strcmp(act->tool, "get_ui_tree") && s->result)
		rec.ui_tree = amc_json_print(s->result);
	rec.ui_tree_path = post->tree_path;
	cJSON *sj = amc_scene_to_json(&r->obs.scene);
	rec.scene = amc_json_print(sj);
	cJSON_Delete(sj);
	/* the SemanticScene the planner saw, or NULL */
	rec.semantic_scene = r->obs.semantic ? amc_json_print(r->obs.semantic) : NULL;
	rec.reasoning = act->reasoning;
	rec.started_ms = s->started_ms;
	rec.finished_ms = amc_now_ms();
	/* What the action changed, stored with the record (a step that looked at
	 * the screen again changed nothing by design: its diff is made on demand). */
	if (s->have_after) {
		amc_stepdiff_in din = { act->tool, &r->obs.tree, &s->after.tree, &r->obs.img, &s->after.img,
					r->settle.status_bar_px, r->settle.tolerance, 0, 0, 0 };
		din.have_tap = amc_stepdiff_tap_point(act->args, s->result, &din.tap_x, &din.tap_y);
		cJSON *dj = amc_stepdiff_compute(&din);
		rec.tree_diff = amc_json_print(dj);
		cJSON_Delete(dj);
	}
	/* for the search index: what was on the screen the step acted on and,
	 * when it looked again, the screen it left (both masked already) */
	rec.screen_text = amc_search_visible_text(&r->obs.tree, r->obs.ocr_json);
	rec.after_text = s->have_after ? amc_search_visible_text(&post->tree, post->ocr_json) : NULL;
	if (rec.after_text && !strcmp(rec.after_text, rec.screen_text)) {
		free(rec.after_text); /* nothing changed on screen: one copy is enough */
		rec.after_text = NULL;
	}
	rec.timings = timings_json(r, s, amc_mono_ms() - r0);
	int rc = amc_store_add_step(r->store, &rec, e);
	if (rc == 0) {
		r->row.steps = s->n;
		amc_err ue;
		if (amc_store_update_task(r->store, &r->row, &ue) != 0)
			amc_log_warn("task %s: cannot update step count: %s", r->task->id, ue.msg);
	}
	publish(r, AMC_EV_STEP_FINISHED, s->n, s->status, NULL, act->tool,
		s->error[0] ? s->error : act->description, rec.finished_ms - rec.started_ms);
	if (rc == 0 && r->planner->hooks && r->planner->hooks->recorded) {
		amc_step_report rep = { s->n, act->tool, s->status, s->error[0] ? s->error : NULL, s->result, post };
		r->planner->hooks->recorded(r->planner, &rep);
	}
	free(rec.args);
	free(rec.result);
	free(rec.ui_tree);
	free(rec.scene);
	free(rec.semantic_scene);
	free(rec.timings);
	free(rec.tree_diff);
	free(rec.screen_text);
	free(rec.after_text);
	return rc;
}

/* Plan, act, settle and record step n. 0: go on; 1: the task has ended. */
static int run_step(run *r, int n)
{
	if (cancelled(r)) {
		finish_cancelled(r);
		return 1;
	}
	if (n > r->row.max_steps) {
		char msg[160];
		snprintf(msg, sizeof msg, "reached the step limit (%d) before the task finished; raise --max-steps",
			 r->row.max_steps);
		finish_task(r, AMC_ST_FAILED, msg, NULL);
		return 1;
	}
	step s = { .n = n, .settled = 1, .status = "ok" };
	if (step_plan(r, &s) != 0) {
		amc_action_clear(&s.act);
		return 1;
	}
	publish(r, AMC_EV_STEP_STARTED, n, NULL, NULL, s.act.tool, s.act.description, 0);
	/* the planner's reasoning, for live views (untrusted model text) */
	if (s.act.reasoning && *s.act.reasoning)
		publish(r, AMC_EV_STEP_PHASE, n, NULL, "reason", s.act.tool, s.act.reasoning, 0);
	s.started_ms = amc_now_ms() - r->observe_ms - s.plan_ms;
	amc_err e;
	int ended = 0;
	if (store_observation(r, &r->obs, &e) != 0) {
		finish_task(r, AMC_ST_FAILED, e.msg, NULL);
		amc_action_clear(&s.act);
		return 1;
	}
	step_act(r, &s);
	step_settle(r, &s);
	if (step_record(r, &s, &e) != 0) {
		finish_task(r, AMC_ST_FAILED, e.msg, NULL);
		ended = 1;
	}
	snprintf(r->last_tool, sizeof r->last_tool, "%s", s.act.tool);
	r->last_ok = !strcmp(s.status, "ok");
	snprintf(r->last_error, sizeof r->last_error, "%s", s.error);
	cJSON_Delete(r->last_result);
	r->last_result = s.result;
	/* An unanswered ask_user ends the task whatever the planner's policy. */
	int must_stop = !r->last_ok && !strcmp(s.act.tool, "ask_user");
	amc_action_clear(&s.act);
	if (ended) {
		amc_observation_free(&s.after);
		return 1;
	}
	/* The post-action observation is the next step's pre-action observation. */
	if (s.have_after) {
		amc_observation_free(&r->obs);
		r->obs = s.after;
	}
	r->observe_ms = 0;
	r->calls_mark = amc_device_calls_now(r->dev);
	if (!r->last_ok && (!r->planner->keep_going || must_stop || cancelled(r))) {
		if (cancelled(r)) {
			finish_cancelled(r);
		} else {
			char msg[AMC_ERR_MSG_MAX + 32];
			snprintf(msg, sizeof msg, "step %d: %s", n, s.error);
			finish_task(r, AMC_ST_FAILED, msg, NULL);
		}
		return 1;
	}
	return 0;
}

/* ---- finish ------------------------------------------------------------- */

static void run_finish(run *r, amc_task_outcome *out)
{
	outcome_from(out, &r->row);
	amc_observation_free(&r->obs);
	cJSON_Delete(r->last_result);
	free(r->row.error);
	free(r->row.summary);
	if (r->own_lock)
		amc_device_unlock(r->lock);
	r->planner->cancel = NULL;
	amc_planner_ended(r->planner, out);
}

int amc_task_run(const amc_run_env *env, amc_planner *planner, amc_task *task,
		 const amc_runner_opts *opts, amc_task_outcome *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	atomic_int *cancel = env->cancel;
	run r = { .store = env->store, .bus = env->bus, .dev = env->dev, .planner = planner, .task = task,
		  .opts = opts, .cancel = cancel, .lock = env->lock, .env = env };
	int rc = run_start(&r, e);
	if (rc < 0)
		return -1;
	planner->cancel = cancel;
	for (int n = 1; rc == 0; n++)
		rc = run_step(&r, n);
	run_finish(&r, out);
	return 0;
}
