/* test_suite.c - the task suite (src/suite/suite.c, planner/answer_planner.c,
 * suite_report.c, src/storage/suite.c) over the bundled data/tasks:
 * - at least 30 templates, with the spread of kinds the suite promises;
 * - every check fails right after its set-up (nothing done yet), and a
 *   template that needs a confirmation fails when none was asked;
 * - the reference flows pass on every template for seed SUITE_SEED (two sims
 *   in parallel), and the state and answer each one left fail when judged
 *   with any parameter its checks name redrawn to a wrong value;
 * - every run is an ordinary task and a suite row with its version, commit,
 *   planner, seed, parameters and config; the report prints pass@1.
 * make check runs one seed (about 10 s); `make bench` runs more. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device/device.h"
#include "device/sim/sim.h"
#include "storage/store.h"
#include "suite/suite.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"

#define MIN_TEMPLATES 30

typedef struct seen {
	int runs, passed, wrong_tried, wrong_failed, broken;
	char first_bad[600];
} seen;

/* Judge a run's state again with each parameter its checks name redrawn. */
static void on_judged(void *ud, const amc_tpl *t, const amc_tpl_values *v, const char *state_json,
		      const char *answer, int asked, int passed)
{
	seen *s = ud;
	s->runs++;
	s->passed += passed;
	cJSON *st = state_json ? cJSON_Parse(state_json) : NULL;
	if (!st) {
		s->broken++;
		return;
	}
	for (int i = 0; i < t->nparams; i++) {
		/* A parameter only a lacks check names (the item to delete) is
		 * tested by test_setup_fails: right after the set-up it is there. */
		int named = 0;
		for (int k = 0; k < t->nchecks; k++) {
			char *x = cJSON_PrintUnformatted(t->checks[k].expect);
			named |= t->checks[k].op != AMC_CHECK_LACKS && (amc_tpl_mentions(t->checks[k].path, t->params[i].name) ||
									 amc_tpl_mentions(x, t->params[i].name));
			free(x);
		}
		if (!named || t->params[i].setup_only)
			continue;
		amc_tpl_values w = *v;
		if (amc_tpl_redraw(t, i, 1234 + i, &w) != 0)
			continue;
		char why[600];
		amc_err e = {0};
		s->wrong_tried++;
		int r = amc_suite_judge(t, &w, st, answer, asked, 1, why, sizeof why, &e);
		if (r == 0)
			s->wrong_failed++;
		else {
			diag("%s with %s=%s passed", t->name, w.names[i], w.values[i]);
			if (!s->first_bad[0])
				snprintf(s->first_bad, sizeof s->first_bad, "%s with %s=%s passed", t->name, w.names[i],
					 w.values[i]);
		}
	}
	cJSON_Delete(st);
}

static int has_tag(const amc_tpl *t, const char *tag)
{
	for (int i = 0; i < t->ntags; i++)
		if (!strcmp(t->tags[i], tag))
			return 1;
	return 0;
}

static void test_templates(amc_tpl *ts, int n)
{
	ok(n >= MIN_TEMPLATES, "at least %d templates (%d)", MIN_TEMPLATES, n);
	static const char *const KINDS[] = {"one-screen", "multi-app", "scroll", "pixels", "irreversible", "info", "deny"};
	for (size_t k = 0; k < sizeof KINDS / sizeof KINDS[0]; k++) {
		int c = 0;
		for (int i = 0; i < n; i++)
			c += has_tag(&ts[i], KINDS[k]);
		ok(c > 0, "templates tagged %s: %d", KINDS[k], c);
	}
	int bad = 0;
	for (int i = 0; i < n; i++) {
		const amc_tpl *t = &ts[i];
		int info = has_tag(t, "info"), answers = 0;
		for (int k = 0; k < t->nchecks; k++)
			answers += t->checks[k].op == AMC_CHECK_ANSWER;
		if (!t->summary || !t->ntags || !t->flow || (info && (!answers || (!t->answer_id && !t->answer_text))) ||
		    (has_tag(t, "irreversible") && t->confirm == AMC_CONFIRM_NONE) || (has_tag(t, "pixels") && info && !t->ocr)) {
			diag("template %s: summary, tags, reference, answers or confirm policy missing", t->name);
			bad++;
		}
	}
	is_int(bad, 0, "every template has a summary, tags and a reference; info ones an answer check and selector; "
		       "irreversible ones a confirm policy");
}

/* Right after the set-up nothing is done yet: every template's checks fail. */
static void test_setup_fails(const amc_config *cfg, const char *home, amc_tpl *ts, int n)
{
	amc_device *dev = NULL;
	amc_err e = {0};
	if (amc_device_open("sim:90", home, cfg, &dev, &e) != 0) {
		ok(0, "open sim:90: %s", e.msg);
		return;
	}
	int failed = 0, broken = 0;
	for (int i = 0; i < n; i++) {
		amc_tpl_values v;
		amc_tpl_draw(&ts[i], 1, &v);
		char *state = NULL;
		if (amc_suite_setup(dev, &ts[i], &v, 1, &e) != 0 || amc_sim_state_json(dev, &state, &e) != 0) {
			diag("%s: %s", ts[i].name, e.msg);
			broken++;
			continue;
		}
		cJSON *st = cJSON_Parse(state);
		char why[600];
		int r = amc_suite_judge(&ts[i], &v, st, NULL, 0, 1, why, sizeof why, &e);
		if (r == 0)
			failed++;
		else
			diag("%s passes (%d) right after its set-up", ts[i].name, r);
		cJSON_Delete(st);
		free(state);
	}
	is_int(broken, 0, "every set-up is written through the sim");
	is_int(failed, n, "every template's check fails right after its set-up");
	amc_device_close(dev);
}

static void test_run(const amc_config *cfg, const char *home, int ntpl)
{
	const char *sd = getenv("SUITE_SEED");
	seen s = {0};
	amc_suite_opts o;
	amc_suite_opts_init(&o);
	o.first_seed = sd && *sd ? atoll(sd) : 1;
	o.seeds = 1;
	o.sims = 2;
	o.first_sim = 91;
	o.on_judged = on_judged;
	o.on_judged_ud = &s;
	char id[AMC_SUITE_ID_SIZE];
	amc_err e = {0};
	ok(amc_suite_run(cfg, home, &o, id, &e) == 0, "the suite runs with the reference flows: %s", e.msg);
	is_int(s.runs, ntpl, "one run per template");
	is_int(s.passed, ntpl, "every reference flow passes (seed %lld)", o.first_seed);
	is_int(s.broken, 0, "every run's state could be read");
	ok(s.wrong_tried >= ntpl - 3, "a wrong parameter tried on nearly every template (%d)", s.wrong_tried);
	is_int(s.wrong_failed, s.wrong_tried, "and every one fails%s%s", s.first_bad[0] ? ": " : "", s.first_bad);

	amc_store *store = NULL;
	if (amc_store_open(home, &store, &e) != 0) {
		ok(0, "store: %s", e.msg);
		return;
	}
	amc_suite_row *rows;
	size_t n;
	ok(amc_store_get_suite_rows(store, id, &rows, &n, &e) == 0, "the suite's rows read back: %s", e.msg);
	is_int((int)n, ntpl, "one row per run");
	int complete = 0, tasks = 0;
	for (size_t i = 0; i < n; i++) {
		amc_suite_row *r = &rows[i];
		cJSON *pj = r->params ? cJSON_Parse(r->params) : NULL;
		cJSON *cj = r->config ? cJSON_Parse(r->config) : NULL;
		complete += r->amc_version && r->amc_commit && !strcmp(r->planner, "flow") && r->seed == o.first_seed &&
			    cJSON_IsObject(pj) && cJSON_GetObjectItemCaseSensitive(cj, "max_steps") && r->passed &&
			    r->steps > 0 && r->wall_ms > 0 && r->device && !strncmp(r->device, "sim:9", 5);
		cJSON_Delete(pj);
		cJSON_Delete(cj);
		amc_task_row t;
		if (r->task_id && amc_store_get_task(store, r->task_id, &t, &e) == 0) {
			tasks += !strcmp(t.status, "succeeded") || !strcmp(t.status, "failed");
			amc_task_row_free(&t);
		}
	}
	is_int(complete, ntpl, "each row has version, commit, planner, seed, parameters, config, steps and time");
	is_int(tasks, ntpl, "each run is an ordinary task in the store");
	amc_suite_rows_free(rows, n);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	amc_suite_summary sum;
	ok(amc_suite_report(store, id, 0, f, &sum, &e) == 0, "the report prints: %s", e.msg);
	fclose(f);
	like(buf, "overall", "a line for the whole suite");
	like(buf, "100%", "with pass@1");
	like(buf, "contact-add", "a line per template");
	is_int(sum.runs, ntpl, "the summary counts the runs");
	ok(sum.pass_at_1 == 1.0 && sum.median_steps >= 1, "pass@1 1.0, median steps %.1f", sum.median_steps);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ok(amc_suite_report(store, id, 1, f, &sum, &e) == 0, "the JSON report prints");
	fclose(f);
	cJSON *j = cJSON_Parse(buf);
	ok(j != NULL, "and parses");
	int nruns = 0;
	cJSON *tj;
	cJSON_ArrayForEach(tj, cJSON_GetObjectItemCaseSensitive(j, "templates"))
		nruns += cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(tj, "results"));
	is_int(nruns, ntpl, "with every run under its template");
	cJSON_Delete(j);
	free(buf);
	amc_store_close(store);
}

int main(void)
{
	const char *home = test_home("suite");
	amc_config *cfg = NULL;
	amc_err e = {0};
	if (amc_config_load(&cfg, &e) != 0) {
		printf("Bail out! config: %s\n", e.msg);
		return 1;
	}
	char dir[4096];
	amc_tpl *ts = NULL;
	int n = 0;
	ok(amc_suite_tasks_dir(dir, sizeof dir, &e) == 0 && amc_suite_templates(dir, NULL, &ts, &n, &e) == 0,
	   "the bundled templates load: %s", e.msg);
	test_templates(ts, n);
	test_setup_fails(cfg, home, ts, n);
	amc_tpl *one = NULL;
	int n1 = 0;
	ok(amc_suite_templates(dir, "settings-w*", &one, &n1, &e) == 0 && n1 == 1, "a glob picks templates by name");
	amc_suite_templates_free(one, n1);
	test_run(cfg, home, n);
	amc_suite_templates_free(ts, n);
	amc_config_free(cfg);
	return done_testing();
}
