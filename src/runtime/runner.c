#include "runtime/runner.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "image/png.h"
#include "runtime/observe.h"
#include "runtime/tools.h"
#include "util/clock.h"
#include "util/fsutil.h"
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
}

/* ---- one task ---------------------------------------------------------- */

typedef struct run_state {
	amc_store *store;
	amc_bus *bus;
	amc_device *dev;
	amc_task *task;
	amc_task_row row;
	int obs_seq; /* observations stored so far, names obs-NNNN.* */
	const amc_secrets *secrets;             /* opts->secrets */
	amc_enricher *enricher;                 /* opts->enricher */
	amc_bounds secret_fields[16];           /* fields a secret was typed into */
	size_t nsecret_fields;
} run_state;

/* Secrets never leave the device: mask every observation before anyone sees it. */
static void mask_obs(run_state *rs, amc_observation *o)
{
	if (rs->secrets)
		amc_secrets_mask_observation(rs->secrets, o, rs->secret_fields, rs->nsecret_fields);
	/* Seed 002: with enrichment on, the observe phase is describe_screen_semantic,
	 * once per observation; a failure leaves NULL and the raw Scene. */
	if (rs->enricher && !o->semantic)
		o->semantic = amc_enrich_scene(rs->enricher, &o->scene, rs->task->goal);
}

/* type_text with {{secret:NAME}}: the device gets the value, the record keeps
 * the placeholder, and the focused field's bounds are blacked out from now on.
 * Returns the args to run (owned) or NULL to run act->args as they are. */
static cJSON *expand_secrets(run_state *rs, const amc_observation *obs, const amc_action *act, amc_err *e, int *failed)
{
	*failed = 0;
	const char *text = amc_json_str(act->args, "text");
	if (strcmp(act->tool, "type_text") || !text || !strstr(text, "{{secret:"))
		return NULL;
	char *v = amc_secrets_expand(rs->secrets, text, e);
	if (!v) {
		*failed = 1;
		return NULL;
	}
	cJSON *a = cJSON_Duplicate(act->args, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(a, "text", cJSON_CreateString(v));
	memset(v, 0, strlen(v));
	free(v);
	for (size_t i = 0; i < obs->tree.count; i++)
		if ((obs->tree.nodes[i].flags & AMC_NODE_FOCUSED) &&
		    rs->nsecret_fields < sizeof rs->secret_fields / sizeof rs->secret_fields[0])
			rs->secret_fields[rs->nsecret_fields++] = obs->tree.nodes[i].bounds;
	return a;
}

static void publish(run_state *rs, amc_event_type type, int step, const char *status,
		    const char *phase, const char *tool, const char *text, long long dur)
{
	amc_event ev = { type, rs->task->id, rs->task->device, step, status, phase, tool, text, dur };
	amc_bus_publish(rs->bus, &ev);
}

static void set_status(run_state *rs, const char *status)
{
	rs->row.status = (char *)status;
	amc_err e;
	if (amc_store_update_task(rs->store, &rs->row, &e) != 0)
		amc_log_error("task %s: cannot record status %s: %s", rs->task->id, status, e.msg);
	publish(rs, AMC_EV_TASK_STATUS, 0, status, NULL, NULL,
		rs->row.error ? rs->row.error : rs->row.summary, 0);
}

/* Store an observation's screenshot and normalized tree once; later records that
 * reuse the observation point at the same files. */
static int store_observation(run_state *rs, amc_observation *o, amc_err *e)
{
	if (o->png_path)
		return 0;
	char name[64], rel[512];
	int seq = ++rs->obs_seq;
	snprintf(name, sizeof name, "obs-%04d.png", seq);
	/* The thumbnail first, so no row ever names a screenshot whose thumbnail
	 * is still being written; the TUI's panes read it instead of the full
	 * capture. Losing it costs only speed (readers fall back), so a failure
	 * here is not the task's. */
	amc_image dec = { 0 };
	const amc_image *src = o->img.px ? &o->img : NULL;
	amc_err te;
	if (!src && amc_png_decode(o->png, o->png_len, &dec, &te) == 0)
		src = &dec;
	if (src)
		(void)amc_store_put_thumbnail(rs->store, rs->task->id, name, src, &te);
	amc_image_free(&dec);
	if (amc_store_put_artifact(rs->store, rs->task->id, name, o->png, o->png_len, rel, sizeof rel, e) != 0)
		return -1;
	o->png_path = amc_xstrdup(rel);
	cJSON *tj = amc_uitree_to_json(&o->tree);
	char *ts = amc_json_print(tj);
	cJSON_Delete(tj);
	snprintf(name, sizeof name, "obs-%04d-tree.json", seq);
	int rc = amc_store_put_artifact(rs->store, rs->task->id, name, ts, strlen(ts), rel, sizeof rel, e);
	free(ts);
	if (rc != 0)
		return -1;
	o->tree_path = amc_xstrdup(rel);
	return 0;
}

static void finish_task(run_state *rs, const char *status, const char *error, const char *summary)
{
	free(rs->row.error);
	free(rs->row.summary);
	rs->row.error = error ? amc_xstrdup(error) : NULL;
	rs->row.summary = summary ? amc_xstrdup(summary) : NULL;
	rs->row.finished_ms = amc_now_ms();
	set_status(rs, status);
}

static void outcome_from(amc_task_outcome *out, const run_state *rs)
{
	snprintf(out->status, sizeof out->status, "%s", rs->row.status);
	out->steps = rs->row.steps;
	snprintf(out->error, sizeof out->error, "%s", rs->row.error ? rs->row.error : "");
	snprintf(out->summary, sizeof out->summary, "%s", rs->row.summary ? rs->row.summary : "");
}

static int cancelled(atomic_int *cancel)
{
	return cancel && atomic_load(cancel);
}

static char *timings_json(long long observe, long long plan, long long act, long long settle,
			  int frames, int settled, long long record, int reobserved)
{
	cJSON *t = cJSON_CreateObject();
	cJSON_AddNumberToObject(t, "observe_ms", (double)observe);
	cJSON_AddNumberToObject(t, "plan_ms", (double)plan);
	cJSON_AddNumberToObject(t, "act_ms", (double)act);
	cJSON_AddNumberToObject(t, "settle_ms", (double)settle);
	cJSON_AddNumberToObject(t, "settle_frames", frames);
	cJSON_AddBoolToObject(t, "settled", settled);
	cJSON_AddNumberToObject(t, "record_ms", (double)record);
	cJSON_AddNumberToObject(t, "reobserved", reobserved);
	char *s = amc_json_print(t);
	cJSON_Delete(t);
	return s;
}

/* Seed 000 D7: store what an LLM planner sent and got for this step, and add
 * its usage to the task's (unknown stays unknown: -1 / NULL). */
static void record_decision(run_state *rs, amc_planner *planner, int step, amc_action *act, const char *outcome)
{
	if (!act->decision)
		return;
	amc_task_row *r = &rs->row;
	if (act->input_tokens >= 0)
		r->input_tokens = (r->input_tokens < 0 ? 0 : r->input_tokens) + act->input_tokens;
	if (act->output_tokens >= 0)
		r->output_tokens = (r->output_tokens < 0 ? 0 : r->output_tokens) + act->output_tokens;
	if (act->cost_usd >= 0)
		r->cost_usd = (r->cost_usd < 0 ? 0 : r->cost_usd) + act->cost_usd;
	const cJSON *d = act->decision;
	amc_decision_row dr = { 0 };
	dr.task_id = rs->task->id;
	dr.step = step;
	dr.attempt = rs->task->source_attempt;
	dr.created_ms = amc_now_ms();
	dr.planner = (char *)planner->ops->name;
	dr.model = (char *)amc_json_str(d, "model");
	dr.system_prompt = (char *)amc_json_str(d, "system");
	dr.user_prompt = (char *)amc_json_str(d, "user");
	dr.tool = (char *)amc_json_str(d, "tool");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(d, "args");
	char *args_s = args ? amc_json_print(args) : NULL;
	const cJSON *detail = cJSON_GetObjectItemCaseSensitive(d, "detail");
	char *detail_s = detail ? amc_json_print(detail) : NULL;
	dr.args = args_s;
	dr.outcome = (char *)outcome;
	dr.input_tokens = act->input_tokens;
	dr.output_tokens = act->output_tokens;
	dr.cost_usd = act->cost_usd;
	dr.detail = detail_s;
	amc_err e;
	if (amc_store_add_decision(rs->store, &dr, &e) != 0)
		amc_log_warn("task %s: cannot record the planner decision of step %d: %s", rs->task->id, step, e.msg);
	free(args_s);
	free(detail_s);
}

/* ask_user: the task waits for the operator; the answer is the step's result. */
static int run_ask_user(run_state *rs, const amc_runner_opts *opts, const amc_action *act, cJSON **result,
			char *err, size_t errn)
{
	const char *q = amc_json_str(act->args, "question");
	if (!q || !*q) {
		snprintf(err, errn, "ask_user needs a question");
		return -1;
	}
	if (!opts->op || !opts->op->ops->ask) {
		snprintf(err, errn, "the agent asked the operator a question, but nobody can answer here "
			 "(no terminal; run it from a terminal or the TUI)");
		return -1;
	}
	set_status(rs, AMC_ST_WAITING_USER);
	char *answer = NULL;
	amc_err ae;
	amc_err_clear(&ae);
	int rc = opts->op->ops->ask(opts->op, rs->task->id, q, &answer, &ae);
	set_status(rs, AMC_ST_RUNNING);
	if (rc != 0) {
		snprintf(err, errn, "no answer from the operator: %.400s", ae.msg[0] ? ae.msg : "none given");
		free(answer);
		return -1;
	}
	*result = cJSON_CreateObject();
	cJSON_AddStringToObject(*result, "answer", answer ? answer : "");
	free(answer);
	return 0;
}

/* The irreversible-action gate: 1 when the action may run, 0 when the operator
 * refused (or nobody could be asked); *result then says so for the planner. */
static int confirm_gate(run_state *rs, const amc_runner_opts *opts, amc_planner *planner,
			const amc_observation *obs, const amc_action *act, cJSON **result, char *err, size_t errn)
{
	if (!planner->gated || !opts->confirm_words || opts->assume_yes)
		return 1;
	if (strcmp(act->tool, "tap") && strcmp(act->tool, "long_press"))
		return 1;
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(act->args, "x");
	const cJSON *y = cJSON_GetObjectItemCaseSensitive(act->args, "y");
	if (!cJSON_IsNumber(x) || !cJSON_IsNumber(y))
		return 1;
	const amc_element *el = amc_scene_element_at(&obs->scene, x->valueint, y->valueint);
	const char *word = el ? amc_words_match(opts->confirm_words, el->text) : NULL;
	if (!word && el && el->resource_id)
		word = amc_words_match(opts->confirm_words, el->resource_id);
	if (!word)
		return 1;
	char what[96];
	snprintf(what, sizeof what, "%s at %d,%d", act->tool, x->valueint, y->valueint);
	int yes = -1;
	amc_err ce;
	amc_err_clear(&ce);
	if (opts->op && opts->op->ops->confirm)
		yes = opts->op->ops->confirm(opts->op, rs->task->id, what, el->text, word, &ce);
	if (yes == 1)
		return 1;
	*result = cJSON_CreateObject();
	cJSON_AddBoolToObject(*result, "refused", 1);
	cJSON_AddStringToObject(*result, "matched", word);
	if (yes == 0)
		snprintf(err, errn, "the operator refused this irreversible action ('%s'); do not retry it, "
			 "finish or ask_user instead", word);
	else
		snprintf(err, errn, "irreversible action ('%s') not confirmed: nobody could be asked%s%.300s "
			 "(rerun with --yes to allow it)", word, ce.msg[0] ? ": " : "", ce.msg);
	return 0;
}

int amc_task_run(amc_store *store, amc_bus *bus, amc_device *dev, amc_planner *planner,
		 amc_task *task, const amc_runner_opts *opts, atomic_int *cancel,
		 amc_task_outcome *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	amc_device_info info;
	if (dev->ops->info(dev, &info, e) != 0)
		return -1;

	/* The device lock is the task's ownership: the kernel releases it if this
	 * process dies, and the next amc command then marks the task interrupted. */
	amc_lock *lock = NULL;
	if (amc_device_lock(amc_store_home(store), task->device, task->id, &lock, e) != 0)
		return -1;

	run_state rs = { 0 };
	rs.store = store;
	rs.bus = bus;
	rs.dev = dev;
	rs.task = task;
	rs.secrets = opts->secrets;
	rs.enricher = opts->enricher;
	char lock_name[200];
	amc_device_lock_name(task->device, lock_name, sizeof lock_name);
	amc_task_row *r = &rs.row;
	r->id = task->id;
	r->kind = (char *)task->kind;
	r->goal = task->goal;
	r->flow_path = task->flow_path;
	r->flow_name = task->flow_name;
	r->device = task->device;
	r->planner = (char *)planner->ops->name;
	r->status = AMC_ST_QUEUED;
	r->created_ms = amc_now_ms();
	r->max_steps = task->max_steps > 0 ? task->max_steps : opts->max_steps;
	r->input_tokens = r->output_tokens = -1;
	r->cost_usd = -1;
	r->source_task_id = task->source_task_id;
	r->source_attempt = task->source_attempt;
	r->owner_pid = (long)getpid();
	r->lock_name = lock_name;

	/* Seed 000 D1: the row exists before the first running update, whoever called. */
	if (amc_store_create_task(store, r, e) != 0) {
		amc_device_unlock(lock);
		return -1;
	}
	publish(&rs, AMC_EV_TASK_CREATED, 0, AMC_ST_QUEUED, NULL, NULL, task->goal ? task->goal : task->flow_name, 0);
	r->started_ms = amc_now_ms();
	set_status(&rs, AMC_ST_RUNNING);

	amc_settle_opts so = { opts->settle_timeout_ms, opts->settle_interval_ms, opts->settle_tolerance,
			       info.status_bar_px, opts->capture_retries };
	amc_observation obs = { 0 };
	amc_err le;
	amc_observe_set_ocr(opts->ocr_policy);
	long long t0 = amc_mono_ms();
	if (amc_observe(dev, opts->capture_retries, &obs, &le) != 0) {
		finish_task(&rs, AMC_ST_FAILED, le.msg, NULL);
		goto done;
	}
	mask_obs(&rs, &obs);
	long long observe_ms = amc_mono_ms() - t0;
	const char *last_tool = NULL;
	char last_tool_buf[32] = "";
	int last_ok = 1;
	char last_error[AMC_ERR_MSG_MAX] = "";
	cJSON *last_result = NULL;

	for (int step = 1;; step++) {
		if (cancelled(cancel)) {
			finish_task(&rs, AMC_ST_CANCELLED, "cancelled by the operator", NULL);
			break;
		}
		if (step > r->max_steps) {
			char msg[160];
			snprintf(msg, sizeof msg, "reached the step limit (%d) before the task finished; raise --max-steps", r->max_steps);
			finish_task(&rs, AMC_ST_FAILED, msg, NULL);
			break;
		}

		/* plan, looking again while the planner waits for the screen */
		amc_action act = { 0 };
		amc_plan_rc prc;
		long long plan_ms = 0, waited = 0;
		int reobserved = 0, stop = 0;
		for (;;) {
			amc_plan_ctx ctx = { task, step, &obs, last_tool, last_ok,
					     last_error[0] ? last_error : NULL, waited, last_result };
			amc_err pe;
			amc_err_clear(&pe);
			long long p0 = amc_mono_ms();
			prc = planner->ops->next(planner, &ctx, &act, &pe);
			plan_ms += amc_mono_ms() - p0;
			record_decision(&rs, planner, step, &act,
					prc == AMC_PLAN_FAIL ? "fail" : prc == AMC_PLAN_DONE ? "done" : "act");
			if (prc == AMC_PLAN_FAIL) {
				finish_task(&rs, AMC_ST_FAILED, pe.msg[0] ? pe.msg : "the planner failed", NULL);
				stop = 1;
			} else if (prc == AMC_PLAN_DONE) {
				finish_task(&rs, AMC_ST_SUCCEEDED, NULL, act.description);
				stop = 1;
			} else if (prc == AMC_PLAN_REOBSERVE) {
				amc_action_clear(&act);
				if (cancelled(cancel)) {
					finish_task(&rs, AMC_ST_CANCELLED, "cancelled by the operator", NULL);
					stop = 1;
				} else if (waited >= AMC_REOBSERVE_LIMIT_MS) {
					finish_task(&rs, AMC_ST_FAILED, "the planner waited too long for the screen", NULL);
					stop = 1;
				} else {
					long long o0 = amc_mono_ms();
					amc_observation next;
					if (dev->ops->wait(dev, AMC_REOBSERVE_INTERVAL_MS, &le) != 0 ||
					    amc_observe(dev, opts->capture_retries, &next, &le) != 0) {
						finish_task(&rs, AMC_ST_FAILED, le.msg, NULL);
						stop = 1;
					} else {
						amc_observation_free(&obs);
						obs = next;
						mask_obs(&rs, &obs);
						waited += AMC_REOBSERVE_INTERVAL_MS;
						reobserved++;
						observe_ms += amc_mono_ms() - o0;
						continue;
					}
				}
			}
			break;
		}
		if (stop) {
			amc_action_clear(&act);
			break;
		}

		/* act */
		publish(&rs, AMC_EV_STEP_STARTED, step, NULL, NULL, act.tool, act.description, 0);
		/* the planner's reasoning, for live views (untrusted model text) */
		if (act.reasoning && *act.reasoning)
			publish(&rs, AMC_EV_STEP_PHASE, step, NULL, "reason", act.tool, act.reasoning, 0);
		amc_step_row rec = { 0 };
		char *result_s = NULL, *args_s = NULL, *scene_s = NULL, *tree_s = NULL, *timings_s = NULL;
		const char *step_status = "ok";
		char step_error[AMC_ERR_MSG_MAX] = "";
		long long act_ms = 0, settle_ms = 0;
		int frames = 0, settled = 1;
		amc_observation after = { 0 };
		int have_after = 0;
		long long step_started = amc_now_ms() - observe_ms - plan_ms;

		if (store_observation(&rs, &obs, &le) != 0) {
			finish_task(&rs, AMC_ST_FAILED, le.msg, NULL);
			amc_action_clear(&act);
			break;
		}
		cJSON *result = NULL;
		if (act.decided) {
			if (!act.decided_ok) {
				step_status = "failed";
				snprintf(step_error, sizeof step_error, "%s", act.decided_error ? act.decided_error : "check failed");
			}
			result = act.decided_result;
			act.decided_result = NULL;
		} else if (!strcmp(act.tool, "ask_user")) {
			long long a0 = amc_mono_ms();
			if (run_ask_user(&rs, opts, &act, &result, step_error, sizeof step_error) != 0)
				step_status = "failed";
			act_ms = amc_mono_ms() - a0;
		} else if (!confirm_gate(&rs, opts, planner, &obs, &act, &result, step_error, sizeof step_error)) {
			step_status = "refused";
		} else {
			const amc_tool *tool = amc_tools_find(act.tool);
			publish(&rs, AMC_EV_STEP_PHASE, step, NULL, "act", act.tool, NULL, 0);
			long long a0 = amc_mono_ms();
			amc_err te;
			amc_err_clear(&te);
			if (!tool) {
				amc_err_set(&te, AMC_EUSAGE, "unknown tool '%s'", act.tool);
			} else {
				amc_tool_ctx tc = { dev, &obs };
				int sfail = 0;
				cJSON *dev_args = rs.secrets ? expand_secrets(&rs, &obs, &act, &te, &sfail) : NULL;
				if (sfail)
					; /* te says which secret */
				else if (tool->run(&tc, dev_args ? dev_args : act.args, &result, &te) == 0)
					te.code = AMC_OK;
				else if (te.code == AMC_OK)
					te.code = AMC_EFAIL;
				int secret_typed = dev_args != NULL;
				cJSON_Delete(dev_args);
				if (result && secret_typed) {
					/* the tool's result may echo what was typed */
					cJSON_Delete(result);
					result = cJSON_CreateObject();
					cJSON_AddBoolToObject(result, "secret", 1);
				}
			}
			act_ms = amc_mono_ms() - a0;
			if (te.code != AMC_OK) {
				step_status = "failed";
				snprintf(step_error, sizeof step_error, "%s", te.msg);
			}
			/* Look at the screen after every action that can change it, even a
			 * failed one: what the device shows then is evidence too. */
			if (tool && tool->acts && !cancelled(cancel)) {
				publish(&rs, AMC_EV_STEP_PHASE, step, NULL, "settle", act.tool, NULL, 0);
				long long s0 = amc_mono_ms();
				amc_err se;
				if (amc_settle(dev, &so, &after, &frames, &settled, &se) == 0) {
					have_after = 1;
					mask_obs(&rs, &after);
				} else if (!strcmp(step_status, "ok")) {
					step_status = "failed";
					snprintf(step_error, sizeof step_error, "%s", se.msg);
				}
				settle_ms = amc_mono_ms() - s0;
			}
		}

		publish(&rs, AMC_EV_STEP_PHASE, step, NULL, "record", act.tool, NULL, 0);
		long long r0 = amc_mono_ms();
		amc_err re;
		if (have_after && store_observation(&rs, &after, &re) != 0) {
			finish_task(&rs, AMC_ST_FAILED, re.msg, NULL);
			amc_observation_free(&after);
			cJSON_Delete(result);
			amc_action_clear(&act);
			break;
		}
		const amc_observation *post = have_after ? &after : &obs;
		args_s = act.args ? amc_json_print(act.args) : amc_xstrdup("{}");
		result_s = result ? amc_json_print(result) : NULL;
		cJSON *sj = amc_scene_to_json(&obs.scene);
		scene_s = amc_json_print(sj);
		cJSON_Delete(sj);
		/* Seed 000 D4: a get_ui_tree record carries the normalized tree itself. */
		if (!strcmp(act.tool, "get_ui_tree") && result)
			tree_s = amc_json_print(result);
		rec.task_id = task->id;
		rec.step = step;
		rec.tool = act.tool;
		rec.args = args_s;
		rec.description = act.description;
		rec.status = (char *)step_status;
		rec.result = result_s;
		rec.error = step_error[0] ? step_error : NULL;
		rec.before_screenshot = obs.png_path;
		rec.after_screenshot = post->png_path;
		rec.screenshot_path = post->png_path;
		rec.ocr = obs.ocr_json ? obs.ocr_json : "[]"; /* the words behind the recorded scene */
		rec.ui_tree = tree_s;
		rec.ui_tree_path = post->tree_path;
		rec.scene = scene_s;
		char *sem_s = obs.semantic ? amc_json_print(obs.semantic) : NULL;
		rec.semantic_scene = sem_s; /* the SemanticScene the planner saw, or NULL */
		rec.reasoning = act.reasoning;
		rec.started_ms = step_started;
		rec.finished_ms = amc_now_ms();
		long long record_ms = amc_mono_ms() - r0;
		timings_s = timings_json(observe_ms, plan_ms, act_ms, settle_ms, frames, settled, record_ms, reobserved);
		rec.timings = timings_s;
		int rec_rc = amc_store_add_step(store, &rec, &re);
		if (rec_rc == 0) {
			r->steps = step;
			amc_err ue;
			if (amc_store_update_task(store, r, &ue) != 0)
				amc_log_warn("task %s: cannot update step count: %s", task->id, ue.msg);
		}
		publish(&rs, AMC_EV_STEP_FINISHED, step, step_status, NULL, act.tool,
			step_error[0] ? step_error : act.description, rec.finished_ms - rec.started_ms);
		snprintf(last_tool_buf, sizeof last_tool_buf, "%s", act.tool);
		last_tool = last_tool_buf;
		last_ok = !strcmp(step_status, "ok");
		snprintf(last_error, sizeof last_error, "%s", step_error);
		/* An unanswered ask_user ends the task whatever the planner's policy. */
		int must_stop = !last_ok && !strcmp(act.tool, "ask_user");
		free(args_s);
		free(result_s);
		free(scene_s);
		free(sem_s);
		free(tree_s);
		free(timings_s);
		cJSON_Delete(last_result);
		last_result = result;
		amc_action_clear(&act);

		if (rec_rc != 0) {
			amc_observation_free(&after);
			finish_task(&rs, AMC_ST_FAILED, re.msg, NULL);
			break;
		}
		/* The post-action observation is the next step's pre-action observation. */
		if (have_after) {
			amc_observation_free(&obs);
			obs = after;
		}
		observe_ms = 0;
		if (!last_ok && (!planner->keep_going || must_stop || cancelled(cancel))) {
			if (cancelled(cancel))
				finish_task(&rs, AMC_ST_CANCELLED, "cancelled by the operator", NULL);
			else {
				char msg[AMC_ERR_MSG_MAX + 32];
				snprintf(msg, sizeof msg, "step %d: %s", step, step_error);
				finish_task(&rs, AMC_ST_FAILED, msg, NULL);
			}
			break;
		}
	}
	amc_observation_free(&obs);
	cJSON_Delete(last_result);
done:
	outcome_from(out, &rs);
	free(rs.row.error);
	free(rs.row.summary);
	amc_device_unlock(lock);
	return 0;
}

/* ---- the per-device thread -------------------------------------------- */

typedef struct job {
	amc_task *task;
	amc_planner *planner;
	amc_secrets *secrets; /* this task's secrets and the mask-only ones; NULL: none */
	atomic_int cancel;
	struct job *next;
} job;

struct amc_runner {
	char home[4096];
	char device[128];
	amc_runner_opts opts;
	amc_bus *bus;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	job *head, *tail;
	job *current;
	int stopping;
	int stop_cancel;
	const amc_config *cfg;
	int online; /* -1 unknown (nothing run yet), 0 offline, 1 online; under mu */
	char offline_reason[AMC_ERR_MSG_MAX];
};

static void set_online(amc_runner *r, int online, const char *reason)
{
	pthread_mutex_lock(&r->mu);
	r->online = online;
	snprintf(r->offline_reason, sizeof r->offline_reason, "%s", online ? "" : reason);
	pthread_mutex_unlock(&r->mu);
	if (!online)
		amc_log_warn("runner %s: device offline: %s", r->device, reason);
}

/* A task that never ran (cancelled while queued, or its device could not be
 * opened) still gets its row, so every submitted task is in the history. */
static void record_unrun(amc_runner *r, amc_store *store, job *j, const char *status, const char *error)
{
	if (!store)
		return;
	char lock_name[200];
	amc_device_lock_name(j->task->device, lock_name, sizeof lock_name);
	amc_task_row row = { 0 };
	row.id = j->task->id;
	row.kind = (char *)j->task->kind;
	row.goal = j->task->goal;
	row.flow_path = j->task->flow_path;
	row.flow_name = j->task->flow_name;
	row.device = j->task->device;
	row.planner = (char *)j->planner->ops->name;
	row.status = (char *)status;
	row.created_ms = row.finished_ms = amc_now_ms();
	row.max_steps = j->task->max_steps > 0 ? j->task->max_steps : r->opts.max_steps;
	row.error = (char *)error;
	row.input_tokens = row.output_tokens = -1;
	row.cost_usd = -1;
	row.source_task_id = j->task->source_task_id;
	row.source_attempt = j->task->source_attempt;
	row.owner_pid = (long)getpid();
	row.lock_name = lock_name;
	amc_err e;
	if (amc_store_create_task(store, &row, &e) != 0 || amc_store_update_task(store, &row, &e) != 0)
		amc_log_error("task %s: cannot record: %s", j->task->id, e.msg);
	amc_event ev = { AMC_EV_TASK_STATUS, j->task->id, j->task->device, 0, status, NULL, NULL, error, 0 };
	amc_bus_publish(r->bus, &ev);
}

static void free_job(job *j)
{
	amc_task_free(j->task);
	amc_planner_free(j->planner);
	amc_secrets_free(j->secrets);
	free(j);
}

static void *runner_main(void *arg)
{
	amc_runner *r = arg;
	amc_store *store = NULL;
	amc_device *dev = NULL;
	amc_err e;
	char store_error[AMC_ERR_MSG_MAX] = "";
	if (amc_store_open(r->home, &store, &e) != 0) {
		snprintf(store_error, sizeof store_error, "%s", e.msg);
		amc_log_error("runner %s: %s", r->device, e.msg);
	}
	for (;;) {
		pthread_mutex_lock(&r->mu);
		while (!r->head && !r->stopping)
			pthread_cond_wait(&r->cv, &r->mu);
		job *j = r->head;
		if (!j) {
			pthread_mutex_unlock(&r->mu);
			break;
		}
		r->head = j->next;
		if (!r->head)
			r->tail = NULL;
		r->current = j;
		pthread_mutex_unlock(&r->mu);

		/* A store that could not be opened (busy, full disk) is tried again for
		 * each task rather than once: a transient failure must not lose tasks. */
		if (!store && amc_store_open(r->home, &store, &e) != 0) {
			store = NULL;
			snprintf(store_error, sizeof store_error, "%s", e.msg);
			amc_log_error("runner %s: %s", r->device, e.msg);
		}
		if (atomic_load(&j->cancel)) {
			record_unrun(r, store, j, AMC_ST_CANCELLED, "cancelled before it started");
		} else if (!store) {
			amc_log_error("task %s not run: %s", j->task->id, store_error);
		} else {
			if (!dev && amc_device_open(r->device, r->home, r->cfg, &dev, &e) != 0) {
				dev = NULL;
				record_unrun(r, store, j, AMC_ST_FAILED, e.msg);
				if (e.code == AMC_EENV)
					set_online(r, 0, e.msg);
			} else if (dev) {
				set_online(r, 1, NULL);
			}
			if (dev) {
				amc_task_outcome out;
				/* this task's secrets; the rest as amc_runner_set_agent_opts left them */
				pthread_mutex_lock(&r->mu);
				amc_runner_opts opts = r->opts;
				pthread_mutex_unlock(&r->mu);
				opts.secrets = j->secrets;
				if (amc_task_run(store, r->bus, dev, j->planner, j->task, &opts, &j->cancel, &out, &e) != 0)
					record_unrun(r, store, j, AMC_ST_FAILED, e.msg);
				/* A device that went away mid-task: the task has ended (failed);
				 * this thread stays, reports the device offline and opens it
				 * afresh for the next task. */
				else if (strcmp(out.status, AMC_ST_SUCCEEDED) && dev->ops->health(dev, &e) != 0) {
					set_online(r, 0, e.msg);
					amc_device_close(dev);
					dev = NULL;
				}
			}
		}
		pthread_mutex_lock(&r->mu);
		r->current = NULL;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		free_job(j);
	}
	amc_device_close(dev);
	amc_store_close(store);
	return NULL;
}

int amc_runner_start(const char *home, const char *device_id, const amc_config *cfg,
		     amc_bus *bus, amc_runner **out, amc_err *e)
{
	amc_runner *r = amc_xcalloc(1, sizeof *r);
	snprintf(r->home, sizeof r->home, "%s", home);
	if (amc_device_id_normalize(device_id, r->device, sizeof r->device, e) != 0) {
		free(r);
		return -1;
	}
	r->cfg = cfg;
	r->online = -1;
	amc_runner_opts_from_config(&r->opts, cfg);
	r->bus = bus;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	if (pthread_create(&r->thread, NULL, runner_main, r) != 0) {
		pthread_mutex_destroy(&r->mu);
		pthread_cond_destroy(&r->cv);
		free(r);
		return amc_err_set(e, AMC_EENV, "cannot start the runner thread for %s", device_id);
	}
	*out = r;
	return 0;
}

void amc_runner_set_agent_opts(amc_runner *r, amc_operator *op, const amc_words *confirm_words,
			       int assume_yes, amc_enricher *enricher)
{
	pthread_mutex_lock(&r->mu);
	r->opts.op = op;
	r->opts.confirm_words = confirm_words;
	r->opts.assume_yes = assume_yes;
	r->opts.enricher = enricher;
	pthread_mutex_unlock(&r->mu);
}

/* {{secret:NAME}} in the goal or the flow file, resolved as amc run does: from
 * the environment or the 0600 file named by secrets.file. */
static int resolve_secrets(amc_runner *r, const amc_task *task, amc_secrets **out, amc_err *e)
{
	char *src = NULL;
	size_t srclen = 0;
	amc_err re;
	if (!task->goal && task->flow_path && amc_read_file(task->flow_path, 4u << 20, &src, &srclen, &re) != 0)
		src = NULL; /* the flow planner reports an unreadable file */
	int rc = amc_secrets_resolve(task->goal ? task->goal : src, amc_config_str(r->cfg, "secrets", "file"), out, e);
	free(src);
	return rc;
}

int amc_runner_submit(amc_runner *r, amc_task *task, amc_planner *planner, amc_err *e)
{
	job *j = amc_xcalloc(1, sizeof *j);
	j->task = task;
	j->planner = planner;
	atomic_init(&j->cancel, 0);
	if (resolve_secrets(r, task, &j->secrets, e) != 0) {
		free_job(j);
		return -1;
	}
	snprintf(task->device, sizeof task->device, "%s", r->device);
	pthread_mutex_lock(&r->mu);
	if (r->stopping) {
		pthread_mutex_unlock(&r->mu);
		free_job(j);
		return amc_err_set(e, AMC_EENV, "the runner for %s is stopping", r->device);
	}
	if (r->tail)
		r->tail->next = j;
	else
		r->head = j;
	r->tail = j;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return 0;
}

int amc_runner_cancel(amc_runner *r, const char *task_id)
{
	int found = -1;
	pthread_mutex_lock(&r->mu);
	if (r->current && !strcmp(r->current->task->id, task_id)) {
		atomic_store(&r->current->cancel, 1);
		found = 0;
	}
	for (job *j = r->head; j; j = j->next)
		if (!strcmp(j->task->id, task_id)) {
			atomic_store(&j->cancel, 1);
			found = 0;
		}
	pthread_mutex_unlock(&r->mu);
	return found;
}

void amc_runner_cancel_all(amc_runner *r)
{
	pthread_mutex_lock(&r->mu);
	if (r->current)
		atomic_store(&r->current->cancel, 1);
	for (job *j = r->head; j; j = j->next)
		atomic_store(&j->cancel, 1);
	pthread_mutex_unlock(&r->mu);
}

int amc_runner_busy(amc_runner *r)
{
	pthread_mutex_lock(&r->mu);
	int n = r->current ? 1 : 0;
	for (job *j = r->head; j; j = j->next)
		n++;
	pthread_mutex_unlock(&r->mu);
	return n;
}

int amc_runner_wait_idle(amc_runner *r, long ms)
{
	long long deadline = ms >= 0 ? amc_mono_ms() + ms : 0;
	pthread_mutex_lock(&r->mu);
	while (r->current || r->head) {
		if (ms < 0) {
			pthread_cond_wait(&r->cv, &r->mu);
		} else {
			long long left = deadline - amc_mono_ms();
			if (left <= 0)
				break;
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			long long ns = ts.tv_nsec + (left % 1000) * 1000000LL;
			ts.tv_sec += left / 1000 + ns / 1000000000LL;
			ts.tv_nsec = ns % 1000000000LL;
			pthread_cond_timedwait(&r->cv, &r->mu, &ts);
		}
	}
	int idle = !r->current && !r->head;
	pthread_mutex_unlock(&r->mu);
	return idle ? 0 : -1;
}

void amc_runner_stop(amc_runner *r, int cancel)
{
	if (!r)
		return;
	if (cancel)
		amc_runner_cancel_all(r);
	pthread_mutex_lock(&r->mu);
	r->stopping = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->thread, NULL);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free(r);
}

int amc_runner_online(amc_runner *r, char *reason, size_t n)
{
	pthread_mutex_lock(&r->mu);
	int online = r->online;
	if (reason && n)
		snprintf(reason, n, "%s", r->offline_reason);
	pthread_mutex_unlock(&r->mu);
	return online;
}

const char *amc_runner_device(const amc_runner *r)
{
	return r->device;
}
