/* suite.c - `amc bench tasks`: templates times seeds as jobs, one worker
 * thread per simulated phone, each job an ordinary task plus a suite row. */
#include "suite/suite.h"

#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "device/device.h"
#include "device/sim/sim.h"
#include "launch/launch.h"
#include "planner/answer_planner.h"
#include "runtime/run.h"
#include "util/clock.h"
#include "util/ids.h"
#include "util/jsonutil.h"
#include "util/paths.h"
#include "util/proc.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#ifndef AMC_COMMIT
#define AMC_COMMIT "unknown"
#endif

void amc_suite_opts_init(amc_suite_opts *o)
{
	memset(o, 0, sizeof *o);
	o->planner = "flow";
	o->seeds = 1;
	o->first_seed = 1;
	o->sims = 1;
	o->first_sim = 100;
	o->mcp_timeout_s = 600;
}

int amc_suite_tasks_dir(char *out, size_t n, amc_err *e)
{
	char data[PATH_MAX];
	if (amc_paths_data_dir(data, sizeof data, e) != 0)
		return -1;
	int k = snprintf(out, n, "%s/tasks", data);
	if (k < 0 || (size_t)k >= n)
		return amc_err_set(e, AMC_EUSAGE, "the data folder's path is too long");
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const amc_tpl *)a)->name, ((const amc_tpl *)b)->name);
}

int amc_suite_templates(const char *dir, const char *glob, amc_tpl **out, int *n, amc_err *e)
{
	*out = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d) {
		char *s = amc_sanitize_dup(dir);
		amc_err_set(e, AMC_EUSAGE, "cannot read the task templates in %s", s);
		free(s);
		return -1;
	}
	amc_tpl *ts = NULL;
	int cnt = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".yaml") || de->d_name[0] == '.')
			continue;
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(l - 5), de->d_name);
		if (glob && fnmatch(glob, name, 0) != 0)
			continue;
		if (cnt == AMC_SUITE_MAX_TEMPLATES) {
			amc_err_set(e, AMC_EUSAGE, "more than %d templates in %s", AMC_SUITE_MAX_TEMPLATES, dir);
			goto fail;
		}
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		ts = amc_xrealloc(ts, (size_t)(cnt + 1) * sizeof *ts);
		if (amc_tpl_load(path, &ts[cnt], e) != 0)
			goto fail;
		cnt++;
	}
	closedir(d);
	if (cnt > 1) /* qsort wants a non-NULL array, even for none */
		qsort(ts, (size_t)cnt, sizeof *ts, by_name);
	*out = ts;
	*n = cnt;
	return 0;
fail:
	closedir(d);
	amc_suite_templates_free(ts, cnt);
	return -1;
}

void amc_suite_templates_free(amc_tpl *t, int n)
{
	for (int i = 0; i < n; i++)
		amc_tpl_free(&t[i]);
	free(t);
}

int amc_suite_setup(amc_device *dev, const amc_tpl *t, const amc_tpl_values *v, long long seed, amc_err *e)
{
	cJSON *st = amc_tpl_fill_json(t->setup, v, e);
	if (!st)
		return amc_err_prefix(e, "template %s: setup", t->name);
	/* Every run starts the same way for its seed: at the clock's start, on
	 * the home screen, unless the set-up says otherwise. */
	if (!cJSON_GetObjectItemCaseSensitive(st, "seed"))
		cJSON_AddNumberToObject(st, "seed", (double)(seed % 2147483647));
	if (!cJSON_GetObjectItemCaseSensitive(st, "sim_time_ms"))
		cJSON_AddNumberToObject(st, "sim_time_ms", 0);
	char *text = amc_json_print(st);
	cJSON_Delete(st);
	int rc = amc_sim_set_state(dev, text, strlen(text), e);
	free(text);
	return rc;
}

/* ---- one run ---- */

typedef struct suite {
	const amc_config *cfg;
	const char *home;
	const amc_suite_opts *o;
	amc_tpl *tpls;
	int ntpls;
	char id[AMC_SUITE_ID_SIZE];
	char dir[PATH_MAX];  /* the templates' folder: a reference flow's base */
	pthread_mutex_t mu;
	int next;            /* next job */
	int total;
	int done;
	int failed_setup;
	amc_err first_err;   /* the first error that stopped a worker */
} suite;

typedef struct result {
	char task_id[AMC_ID_SIZE];
	int passed;
	char reason[1024];
	char *answer;
	int asked;
	int steps;
	long long in_tok, out_tok;
	double cost;
} result;

int amc_suite_judge(const amc_tpl *t, const amc_tpl_values *v, const cJSON *state, const char *answer, int asked,
		    int confirms_known, char *reason, size_t n, amc_err *e)
{
	int ok = amc_tpl_check_run(t, v, state, answer, reason, n, e);
	/* approve: the action needed a confirmation; deny: doing nothing
	 * without asking is no refusal. Either way one must be asked. */
	if (ok == 1 && t->confirm != AMC_CONFIRM_NONE && confirms_known && asked == 0) {
		snprintf(reason, n, "confirmations: found 0 asked, expected at least 1 before the irreversible action");
		ok = 0;
	}
	return ok;
}

/* The finished task's row, its answer and the sim's state, judged. */
static void judge(suite *S, amc_store *store, amc_device *dev, const amc_tpl *t, const amc_tpl_values *v, result *r,
		  int confirms_known)
{
	amc_err e;
	amc_task_row row;
	memset(&row, 0, sizeof row);
	int have_row = r->task_id[0] && amc_store_get_task(store, r->task_id, &row, &e) == 0;
	if (have_row) {
		r->steps = row.steps;
		r->in_tok = row.input_tokens;
		r->out_tok = row.output_tokens;
		r->cost = row.cost_usd;
		amc_store_get_task_answer(store, r->task_id, &r->answer, &e);
	}
	char *state = NULL;
	if (amc_sim_state_json(dev, &state, &e) != 0) {
		snprintf(r->reason, sizeof r->reason, "cannot read the sim's state: %.900s", e.msg);
	} else {
		cJSON *sj = cJSON_Parse(state);
		int ok = sj ? amc_suite_judge(t, v, sj, r->answer, r->asked, confirms_known, r->reason, sizeof r->reason, &e)
			    : -1;
		cJSON_Delete(sj);
		if (ok < 0)
			snprintf(r->reason, sizeof r->reason, "the check is broken: %.900s", sj ? e.msg : "state is not JSON");
		r->passed = ok == 1;
		/* Say why the task itself ended when the state is wrong. */
		if (!r->passed && have_row && row.error && strcmp(row.status, "succeeded")) {
			size_t l = strlen(r->reason);
			snprintf(r->reason + l, sizeof r->reason - l, " (task %s: %.300s)", row.status, row.error);
		}
	}
	if (S->o->on_judged) {
		pthread_mutex_lock(&S->mu);
		S->o->on_judged(S->o->on_judged_ud, t, v, state, r->answer, r->asked, r->passed);
		pthread_mutex_unlock(&S->mu);
	}
	free(state);
	if (have_row)
		amc_task_row_free(&row);
}

/* Run t on the device through the launch module (flow or goal). */
static int run_launched(suite *S, amc_store *store, amc_device *dev, const amc_tpl *t, const amc_tpl_values *v,
			result *r, amc_err *e)
{
	const amc_suite_opts *o = S->o;
	int is_flow = !strcmp(o->planner, "flow");
	char *goal = NULL, *flow = NULL, *ans_re = NULL;
	if (amc_tpl_fill(t->goal, v, &goal, e) != 0)
		return -1;
	if (is_flow && (amc_tpl_fill(t->flow, v, &flow, e) != 0 ||
			(t->answer_text && amc_tpl_fill(t->answer_text, v, &ans_re, e) != 0))) {
		free(goal);
		free(flow);
		return -1;
	}
	amc_launch_req req;
	amc_launch_req_init(&req);
	req.device = dev->id;
	amc_launch_bundle b = {0};
	char fname[128];
	if (is_flow) {
		snprintf(fname, sizeof fname, "%s.yaml", t->name);
		b.flow = flow;
		b.flow_file = fname;
		b.base = S->dir;
		req.bundle = &b;
		req.confirm = t->confirm != AMC_CONFIRM_NONE;
	} else {
		req.goal = goal;
		/* --planner agent:claude is the goal with a coding agent's CLI as provider */
		req.provider = !strncmp(o->planner, "agent:", 6) ? o->planner : o->provider;
		req.model = o->model;
	}
	req.max_steps = t->max_steps;
	amc_launch ln;
	int rc = amc_launch_prepare(S->cfg, store, &req, &ln, e);
	free(flow);
	free(goal);
	if (rc != 0) {
		free(ans_re);
		return -1;
	}
	if (is_flow && (t->answer_id || ans_re)) {
		amc_planner *w;
		rc = amc_answer_planner_new(ln.planner, t->answer_id, ans_re, t->answer_index, t->ocr, &w, e);
		ln.planner = rc == 0 ? w : NULL;
	}
	free(ans_re);
	if (rc != 0) {
		amc_launch_free(&ln);
		return -1;
	}
	amc_suite_operator op;
	amc_suite_operator_init(&op, t->confirm);
	amc_runner_opts ro;
	amc_runner_opts_from_config(&ro, S->cfg);
	ro.op = &op.op;
	amc_launch_runner_opts(&ln, &ro);
	/* A flow reads the tree; it needs OCR only to read a pixel-only answer. */
	if (is_flow)
		ro.ocr_policy = t->ocr ? AMC_OCR_GAPS : AMC_OCR_OFF;
	snprintf(r->task_id, sizeof r->task_id, "%s", ln.task->id);
	/* the worker's phone stays open between tasks (kept, not reopened) */
	amc_launch_ctx c;
	amc_launch_ctx_init(&c, S->home, S->cfg);
	c.store = store;
	c.dev = dev;
	c.opts = &ro;
	amc_task_outcome out;
	rc = amc_launch_run(&ln, &c, &out, e);
	r->asked = op.asked;
	amc_launch_free(&ln);
	/* a task that could not start has its failed row (launch.h), unless the
	 * store refused it too */
	amc_task_row row;
	amc_err ge;
	if (rc != 0 && amc_store_get_task(store, r->task_id, &row, &ge) != 0)
		r->task_id[0] = '\0';
	else if (rc != 0)
		amc_task_row_free(&row);
	return rc;
}

/* --planner mcp: an outside agent performs the task through amc's MCP server;
 * wait for the task it makes on this phone (planner "mcp", created after the
 * set-up) to end. */
static int run_mcp(suite *S, amc_store *store, amc_device *dev, const amc_tpl *t, const amc_tpl_values *v, result *r,
		   amc_err *e)
{
	const amc_suite_opts *o = S->o;
	char *goal;
	if (amc_tpl_fill(t->goal, v, &goal, e) != 0)
		return -1;
	long long t0 = amc_now_ms();
	if (o->agent_cmd) {
		char script[8192];
		snprintf(script, sizeof script, "%s", o->agent_cmd);
		const char *argv[] = {"/bin/sh", "-c", script, "amc-agent", goal, dev->id, NULL};
		amc_proc_result pr;
		if (amc_proc_run(argv, (long)o->mcp_timeout_s * 1000, 64 * 1024, 64 * 1024, &pr, e) != 0) {
			free(goal);
			return -1;
		}
		amc_proc_result_free(&pr);
	} else if (o->progress) {
		pthread_mutex_lock(&S->mu);
		fprintf(o->progress, "amc: waiting for an MCP client on %s to: ", dev->id);
		char *g = amc_sanitize_dup(goal);
		fprintf(o->progress, "%s\n", g);
		free(g);
		pthread_mutex_unlock(&S->mu);
	}
	free(goal);
	long long deadline = amc_mono_ms() + (long long)o->mcp_timeout_s * 1000;
	for (;;) {
		amc_task_filter f = {0};
		f.limit = 20;
		amc_task_row *rows;
		size_t n;
		if (amc_store_list_tasks(store, &f, &rows, &n, e) != 0)
			return -1;
		int found = 0;
		for (size_t i = 0; i < n && !found; i++) {
			amc_task_row *row = &rows[i];
			if (row->created_ms < t0 || !row->device || strcmp(row->device, dev->id) || !row->planner ||
			    strcmp(row->planner, "mcp") || !amc_status_is_terminal(row->status))
				continue;
			snprintf(r->task_id, sizeof r->task_id, "%s", row->id);
			found = 1;
		}
		amc_task_rows_free(rows, n);
		if (found)
			return 0;
		if (amc_mono_ms() > deadline)
			return amc_err_set(e, AMC_EFAIL, "no MCP task on %s finished within %d s", dev->id, o->mcp_timeout_s);
		amc_sleep_ms(200);
	}
}

static void record(suite *S, amc_store *store, amc_device *dev, const amc_tpl *t, long long seed,
		   const amc_tpl_values *v, const result *r, long long wall)
{
	const amc_suite_opts *o = S->o;
	cJSON *pj = amc_tpl_values_json(v);
	char *params = amc_json_print(pj);
	cJSON_Delete(pj);
	cJSON *cj = cJSON_CreateObject();
	cJSON_AddNumberToObject(cj, "max_steps", t->max_steps);
	cJSON_AddStringToObject(cj, "confirm", amc_tpl_confirm_name(t->confirm));
	cJSON_AddStringToObject(cj, "ocr", !strcmp(o->planner, "flow") ? (t->ocr ? "gaps" : "off")
								: amc_config_str(S->cfg, "ocr", "policy") ? amc_config_str(S->cfg, "ocr", "policy") : "");
	cJSON_AddNumberToObject(cj, "sims", o->sims);
	cJSON_AddNumberToObject(cj, "settle_timeout_ms", (double)amc_config_int(S->cfg, "runner", "settle_timeout_ms"));
	const char *prov = !strncmp(o->planner, "agent:", 6) ? o->planner
			   : o->provider ? o->provider : amc_config_str(S->cfg, "planner", "provider");
	if (strcmp(o->planner, "flow") && prov)
		cJSON_AddStringToObject(cj, "provider", prov);
	char *config = amc_json_print(cj);
	cJSON_Delete(cj);
	const char *model = NULL;
	if (!strcmp(o->planner, "llm"))
		model = o->model ? o->model : amc_config_str(S->cfg, "planner", "model");
	else if (!strncmp(o->planner, "agent:", 6))
		model = o->model; /* NULL: the CLI's default */
	amc_suite_row row = {
		.suite_id = S->id,
		.task_id = r->task_id[0] ? (char *)r->task_id : NULL,
		.template_name = t->name,
		.seed = seed,
		.params = params,
		.planner = (char *)o->planner,
		.model = (char *)model,
		.device = dev->id,
		.amc_version = PACKAGE_VERSION,
		.amc_commit = AMC_COMMIT,
		.config = config,
		.passed = r->passed,
		.reason = r->passed ? NULL : (char *)r->reason,
		.answer = r->answer,
		.confirm_asked = r->asked,
		.steps = r->steps,
		.input_tokens = r->in_tok,
		.output_tokens = r->out_tok,
		.cost_usd = r->cost,
		.wall_ms = wall,
	};
	amc_err e;
	if (amc_store_add_suite_row(store, &row, &e) != 0 && o->progress)
		fprintf(o->progress, "amc: %s\n", e.msg);
	free(params);
	free(config);
	if (o->progress) {
		pthread_mutex_lock(&S->mu);
		S->done++;
		char *why = amc_sanitize_dup(r->reason);
		fprintf(o->progress, "[%3d/%d] %-8s %-34s seed %-4lld %s %3d steps %6.1fs%s%s\n", S->done, S->total, dev->id,
			t->name, seed, r->passed ? "PASS" : "FAIL", r->steps, wall / 1000.0, r->passed ? "" : "  ",
			r->passed ? "" : why);
		free(why);
		fflush(o->progress);
		pthread_mutex_unlock(&S->mu);
	}
}

static int run_job(suite *S, amc_store *store, amc_device *dev, int job, amc_err *e)
{
	const amc_suite_opts *o = S->o;
	const amc_tpl *t = &S->tpls[job / o->seeds];
	long long seed = o->first_seed + job % o->seeds;
	amc_tpl_values v;
	amc_tpl_draw(t, seed, &v);
	long long t0 = amc_mono_ms();
	amc_lock *lock = NULL;
	if (amc_device_lock(S->home, dev->id, NULL, &lock, e) != 0)
		return -1;
	int rc = amc_suite_setup(dev, t, &v, seed, e);
	amc_device_unlock(lock);
	if (rc != 0)
		return -1;
	result r;
	memset(&r, 0, sizeof r);
	r.in_tok = r.out_tok = -1;
	r.cost = -1;
	amc_err re;
	amc_err_clear(&re);
	if (!strcmp(o->planner, "mcp"))
		rc = run_mcp(S, store, dev, t, &v, &r, &re);
	else
		rc = run_launched(S, store, dev, t, &v, &r, &re);
	if (rc != 0 && re.code == AMC_EENV && strcmp(o->planner, "mcp")) {
		/* The environment (no API key, a busy device): stop, do not score. */
		*e = re;
		return -1;
	}
	if (rc != 0)
		snprintf(r.reason, sizeof r.reason, "the task did not run: %.900s", re.msg);
	else
		judge(S, store, dev, t, &v, &r, strcmp(o->planner, "mcp") != 0);
	if (rc != 0)
		r.passed = 0;
	record(S, store, dev, t, seed, &v, &r, amc_mono_ms() - t0);
	free(r.answer);
	return 0;
}

typedef struct worker {
	suite *S;
	int index;
} worker;

static void *work(void *arg)
{
	worker *w = arg;
	suite *S = w->S;
	amc_err e;
	amc_err_clear(&e);
	amc_store *store = NULL;
	amc_device *dev = NULL;
	char id[32];
	snprintf(id, sizeof id, "sim:%d", S->o->first_sim + w->index);
	if (amc_store_open(S->home, &store, &e) != 0 || amc_device_open(id, S->home, S->cfg, &dev, &e) != 0)
		goto out;
	for (;;) {
		pthread_mutex_lock(&S->mu);
		int job = S->first_err.code ? S->total : S->next++;
		pthread_mutex_unlock(&S->mu);
		if (job >= S->total)
			break;
		if (run_job(S, store, dev, job, &e) != 0)
			break;
	}
out:
	if (e.code) {
		pthread_mutex_lock(&S->mu);
		if (!S->first_err.code)
			S->first_err = e;
		pthread_mutex_unlock(&S->mu);
	}
	amc_device_close(dev);
	amc_store_close(store);
	return NULL;
}

int amc_suite_run(const amc_config *cfg, const char *home, const amc_suite_opts *o, char *suite_id, amc_err *e)
{
	if (strcmp(o->planner, "flow") && strcmp(o->planner, "llm") && strcmp(o->planner, "mcp") &&
	    strcmp(o->planner, "agent:claude") && strcmp(o->planner, "agent:codex"))
		return amc_err_set(e, AMC_EUSAGE, "unknown planner: use flow, llm, mcp, agent:claude or agent:codex");
	if (o->seeds < 1 || o->sims < 1 || o->sims > AMC_SUITE_MAX_SIMS || o->first_sim < 0 ||
	    o->first_sim + o->sims > 10000)
		return amc_err_set(e, AMC_EUSAGE, "seeds must be at least 1 and sims 1-%d (sim indexes up to 9999)",
				   AMC_SUITE_MAX_SIMS);
	char dir[PATH_MAX];
	if (o->tasks_dir)
		snprintf(dir, sizeof dir, "%s", o->tasks_dir);
	else if (amc_suite_tasks_dir(dir, sizeof dir, e) != 0)
		return -1;
	suite S;
	memset(&S, 0, sizeof S);
	S.cfg = cfg;
	S.home = home;
	S.o = o;
	snprintf(S.dir, sizeof S.dir, "%s", dir);
	if (amc_suite_templates(dir, o->glob, &S.tpls, &S.ntpls, e) != 0)
		return -1;
	if (S.ntpls == 0) {
		char *g = amc_sanitize_dup(o->glob ? o->glob : "*");
		amc_err_set(e, AMC_EUSAGE, "no task template matches '%s' in %s", g, dir);
		free(g);
		return -1;
	}
	char rid[AMC_ID_SIZE];
	amc_id_new(rid);
	snprintf(S.id, sizeof S.id, "s%s", rid);
	snprintf(suite_id, AMC_SUITE_ID_SIZE, "%s", S.id);
	S.total = S.ntpls * o->seeds;
	pthread_mutex_init(&S.mu, NULL);
	int nw = o->sims < S.total ? o->sims : S.total;
	pthread_t th[AMC_SUITE_MAX_SIMS];
	worker ws[AMC_SUITE_MAX_SIMS];
	int started = 0;
	for (int i = 0; i < nw; i++) {
		ws[i].S = &S;
		ws[i].index = i;
		if (pthread_create(&th[i], NULL, work, &ws[i]) == 0)
			started++;
		else
			break;
	}
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&S.mu);
	amc_suite_templates_free(S.tpls, S.ntpls);
	if (!started)
		return amc_err_set(e, AMC_EENV, "cannot start the suite's threads");
	if (S.first_err.code) {
		*e = S.first_err;
		return -1;
	}
	return 0;
}

/* ---- the bench's operator ---- */

static int op_ask(amc_operator *op, const char *task_id, const char *question, char **answer, amc_err *e)
{
	(void)task_id;
	(void)question;
	amc_suite_operator *o = op->impl;
	o->questions++;
	*answer = NULL;
	return amc_err_set(e, AMC_EFAIL, "nobody answers questions during a benchmark: finish the task alone");
}

static int op_confirm(amc_operator *op, const char *task_id, const char *action, const char *element, const char *word,
		      amc_err *e)
{
	(void)task_id;
	(void)action;
	(void)element;
	(void)word;
	amc_suite_operator *o = op->impl;
	o->asked++;
	if (o->policy == AMC_CONFIRM_APPROVE)
		return 1;
	amc_err_set(e, AMC_EFAIL, "the benchmark's policy for this task refuses irreversible actions");
	return 0;
}

static const amc_operator_ops SUITE_OP_OPS = {op_ask, op_confirm};

void amc_suite_operator_init(amc_suite_operator *o, amc_tpl_confirm policy)
{
	memset(o, 0, sizeof *o);
	o->op.ops = &SUITE_OP_OPS;
	o->op.impl = o;
	o->policy = policy;
}
