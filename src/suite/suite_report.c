/* suite_report.c - a suite run's scores from its suite_runs rows: pass@1
 * (the share of runs that passed: one attempt per seed) per template and
 * overall, median steps, total tokens and cost, as a table or JSON. */
#include "suite/suite.h"

#include <stdlib.h>
#include <string.h>

#include "util/jsonutil.h"
#include "util/sanitize.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static double median(int *v, int n)
{
	if (n == 0)
		return 0;
	qsort(v, (size_t)n, sizeof *v, cmp_int);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* Sum rows [from, to) (those of one template, or all of them). */
static void summarise(const amc_suite_row *rows, size_t from, size_t to, amc_suite_summary *s)
{
	memset(s, 0, sizeof *s);
	s->input_tokens = s->output_tokens = -1;
	s->cost_usd = -1;
	int *steps = malloc((to - from + 1) * sizeof *steps);
	for (size_t i = from; i < to; i++) {
		const amc_suite_row *r = &rows[i];
		steps[s->runs++] = r->steps;
		s->passed += r->passed;
		if (r->input_tokens >= 0)
			s->input_tokens = (s->input_tokens < 0 ? 0 : s->input_tokens) + r->input_tokens;
		if (r->output_tokens >= 0)
			s->output_tokens = (s->output_tokens < 0 ? 0 : s->output_tokens) + r->output_tokens;
		if (r->cost_usd >= 0)
			s->cost_usd = (s->cost_usd < 0 ? 0 : s->cost_usd) + r->cost_usd;
		s->wall_ms += r->wall_ms;
	}
	s->pass_at_1 = s->runs ? (double)s->passed / s->runs : 0;
	s->median_steps = median(steps, s->runs);
	free(steps);
}

static int by_template(const void *a, const void *b)
{
	const amc_suite_row *x = a, *y = b;
	int c = strcmp(x->template_name, y->template_name);
	return c ? c : (x->seed > y->seed) - (x->seed < y->seed);
}

static void put_tokens(FILE *out, long long in, long long o)
{
	if (in < 0)
		fprintf(out, " %10s", "-");
	else
		fprintf(out, " %10lld", in + (o > 0 ? o : 0));
}

static cJSON *summary_json(const amc_suite_summary *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "runs", s->runs);
	cJSON_AddNumberToObject(o, "passed", s->passed);
	cJSON_AddNumberToObject(o, "pass_at_1", s->pass_at_1);
	cJSON_AddNumberToObject(o, "median_steps", s->median_steps);
	if (s->input_tokens >= 0)
		cJSON_AddNumberToObject(o, "input_tokens", (double)s->input_tokens);
	else
		cJSON_AddNullToObject(o, "input_tokens");
	if (s->output_tokens >= 0)
		cJSON_AddNumberToObject(o, "output_tokens", (double)s->output_tokens);
	else
		cJSON_AddNullToObject(o, "output_tokens");
	if (s->cost_usd >= 0)
		cJSON_AddNumberToObject(o, "cost_usd", s->cost_usd);
	else
		cJSON_AddNullToObject(o, "cost_usd");
	cJSON_AddNumberToObject(o, "wall_ms", (double)s->wall_ms);
	return o;
}

static void add_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

int amc_suite_report(amc_store *store, const char *suite_id, int json, FILE *out, amc_suite_summary *overall,
		     amc_err *e)
{
	amc_suite_row *rows;
	size_t n;
	if (amc_store_get_suite_rows(store, suite_id, &rows, &n, e) != 0)
		return -1;
	if (n == 0) {
		amc_suite_rows_free(rows, n);
		return amc_err_set(e, AMC_EUSAGE, "no runs recorded for suite %s", suite_id);
	}
	qsort(rows, n, sizeof *rows, by_template);
	amc_suite_summary all;
	summarise(rows, 0, n, &all);
	if (overall)
		*overall = all;
	cJSON *doc = json ? cJSON_CreateObject() : NULL;
	cJSON *tj = NULL;
	if (json) {
		cJSON_AddStringToObject(doc, "suite", suite_id);
		add_str(doc, "planner", rows[0].planner);
		add_str(doc, "model", rows[0].model);
		add_str(doc, "amc_version", rows[0].amc_version);
		add_str(doc, "amc_commit", rows[0].amc_commit);
		cJSON_AddItemToObject(doc, "overall", summary_json(&all));
		tj = cJSON_AddArrayToObject(doc, "templates");
	} else {
		fprintf(out, "%-36s %4s %4s %7s %6s %10s %9s\n", "template", "runs", "pass", "pass@1", "steps", "tokens",
			"cost");
	}
	int ntpl = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && !strcmp(rows[j].template_name, rows[i].template_name))
			j++;
		amc_suite_summary s;
		summarise(rows, i, j, &s);
		ntpl++;
		if (json) {
			cJSON *o = summary_json(&s);
			cJSON_AddStringToObject(o, "template", rows[i].template_name);
			cJSON *runs = cJSON_AddArrayToObject(o, "results"); /* "runs" is the count */
			for (size_t k = i; k < j; k++) {
				const amc_suite_row *r = &rows[k];
				cJSON *rj = cJSON_CreateObject();
				cJSON_AddNumberToObject(rj, "seed", (double)r->seed);
				add_str(rj, "task_id", r->task_id);
				add_str(rj, "device", r->device);
				cJSON *pj = r->params ? cJSON_Parse(r->params) : NULL;
				cJSON_AddItemToObject(rj, "params", pj ? pj : cJSON_CreateNull());
				cJSON_AddBoolToObject(rj, "passed", r->passed);
				add_str(rj, "reason", r->reason);
				add_str(rj, "answer", r->answer);
				cJSON_AddNumberToObject(rj, "confirmations", r->confirm_asked);
				cJSON_AddNumberToObject(rj, "steps", r->steps);
				cJSON_AddNumberToObject(rj, "wall_ms", (double)r->wall_ms);
				cJSON *cj = r->config ? cJSON_Parse(r->config) : NULL;
				cJSON_AddItemToObject(rj, "config", cj ? cj : cJSON_CreateNull());
				cJSON_AddItemToArray(runs, rj);
			}
			cJSON_AddItemToArray(tj, o);
		} else {
			char *name = amc_sanitize_dup(rows[i].template_name);
			fprintf(out, "%-36.36s %4d %4d %6.0f%% %6.1f", name, s.runs, s.passed, 100 * s.pass_at_1, s.median_steps);
			free(name);
			put_tokens(out, s.input_tokens, s.output_tokens);
			if (s.cost_usd >= 0)
				fprintf(out, " %9.4f\n", s.cost_usd);
			else
				fprintf(out, " %9s\n", "-");
			for (size_t k = i; k < j; k++) {
				if (rows[k].passed)
					continue;
				char *why = amc_sanitize_dup(rows[k].reason ? rows[k].reason : "");
				fprintf(out, "    seed %lld FAIL (task %.8s): %s\n", rows[k].seed,
					rows[k].task_id ? rows[k].task_id : "none", why);
				free(why);
			}
		}
		i = j;
	}
	if (json) {
		cJSON_AddNumberToObject(doc, "template_count", ntpl);
		char *t = amc_json_print(doc);
		cJSON_Delete(doc);
		fprintf(out, "%s\n", t);
		free(t);
	} else {
		fprintf(out, "%-36s %4d %4d %6.0f%% %6.1f", "overall", all.runs, all.passed, 100 * all.pass_at_1,
			all.median_steps);
		put_tokens(out, all.input_tokens, all.output_tokens);
		if (all.cost_usd >= 0)
			fprintf(out, " %9.4f\n", all.cost_usd);
		else
			fprintf(out, " %9s\n", "-");
		char *pl = amc_sanitize_dup(rows[0].planner ? rows[0].planner : "");
		fprintf(out, "%d templates, %d runs, planner %s, amc %s (%s), suite %s, %.1f s of runs\n", ntpl, all.runs, pl,
			rows[0].amc_version ? rows[0].amc_version : "?", rows[0].amc_commit ? rows[0].amc_commit : "?",
			suite_id, all.wall_ms / 1000.0);
		free(pl);
	}
	amc_suite_rows_free(rows, n);
	return 0;
}
