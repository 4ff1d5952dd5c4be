/* amc show - one task and its timeline: every step's action, result, screenshots. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/report.h"
#include "device/device.h"
#include "runtime/stepdiff.h"
#include "storage/sources.h"
#include "util/clock.h"
#include "util/hyperlink.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* Stored JSON text as a JSON value (null when absent, a string when unparsable). */
static cJSON *json_field(const char *text)
{
	if (!text)
		return cJSON_CreateNull();
	cJSON *j = cJSON_Parse(text);
	return j ? j : cJSON_CreateString(text);
}

static void add_path(amc_store *store, cJSON *j, const char *key, const char *rel)
{
	char abs[PATH_MAX];
	if (rel && amc_store_artifact_abspath(store, rel, abs, sizeof abs, NULL) == 0)
		cJSON_AddStringToObject(j, key, abs);
	else
		cJSON_AddNullToObject(j, key);
}

static cJSON *step_usage_json(const amc_decision_row *d, size_t n, int step);

/* The step's before/after difference (stored, or computed from the stored
 * trees and screenshots): malloc'd JSON text, or NULL when the record cannot
 * be read (the message goes to stderr). */
static char *step_diff(amc_store *store, const amc_step_row *r)
{
	char *json = NULL;
	amc_err e;
	if (amc_stepdiff_of_row(store, r, &json, &e) != 0) {
		fprintf(stderr, "amc: step %d: %s\n", r->step, e.msg);
		return NULL;
	}
	return json;
}

/* Whether the step changed nothing, for the overview: only action steps can,
 * so the others are not read from disk. */
static int step_changed_nothing(amc_store *store, const amc_step_row *r)
{
	if (!amc_stepdiff_is_action(r->tool))
		return 0;
	char *json = step_diff(store, r);
	int v = amc_stepdiff_changed_nothing(json);
	free(json);
	return v;
}

static void print_diff_line(char op, const char *line, void *ud)
{
	(void)op;
	(void)ud;
	printf("  ");
	amc_cli_put_safe(stdout, line);
	printf("\n");
}

static void add_line(void *ud, long no, const char *text, size_t n)
{
	cJSON *l = cJSON_CreateObject();
	cJSON_AddNumberToObject(l, "line", (double)no);
	char *t = amc_xstrndup(text, n);
	amc_json_add_str(l, "text", t);
	free(t);
	cJSON_AddItemToArray(ud, l);
}

/* A flow step's source ("flow command at FILE:LINE"): {"file", "line",
 * "stored" (from the copy kept with the task, else the file as it is now),
 * "lines": [{"line", "text"}] up to three either side} or "error" in place
 * of the lines when the text cannot be read; NULL for a goal's step. */
static cJSON *source_json(amc_store *store, const amc_step_row *r)
{
	char *path, *buf = NULL;
	long line;
	if (!amc_store_step_source_place(r->reasoning, &path, &line))
		return NULL;
	size_t len = 0;
	int stored = 0;
	amc_err e;
	cJSON *j = cJSON_CreateObject();
	amc_json_add_str(j, "file", path);
	cJSON_AddNumberToObject(j, "line", (double)line);
	if (amc_store_source_read(store, r->task_id, path, &buf, &len, &stored, &e) != 0) {
		amc_json_add_str(j, "error", e.msg);
	} else {
		cJSON_AddBoolToObject(j, "stored", stored);
		amc_store_source_lines(buf, len, line - 3, line + 3, add_line, cJSON_AddArrayToObject(j, "lines"));
	}
	free(buf);
	free(path);
	return j;
}

/* "  source  FILE:LINE", then the lines as the TUI's Task view shows them:
 * numbered, the step's marked ">", terminal-safe. */
static void print_source(amc_store *store, const amc_step_row *r)
{
	cJSON *j = source_json(store, r);
	if (!j)
		return;
	long line = (long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "line"));
	printf("  source  ");
	amc_cli_put_safe(stdout, amc_json_str(j, "file"));
	printf(":%ld\n", line);
	const char *err = amc_json_str(j, "error");
	if (err) {
		printf("          (not readable here: ");
		amc_cli_put_safe(stdout, err);
		printf(")\n");
	}
	const cJSON *l;
	cJSON_ArrayForEach(l, cJSON_GetObjectItemCaseSensitive(j, "lines")) {
		long no = (long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(l, "line"));
		printf("  %s%4ld | ", no == line ? ">" : " ", no);
		amc_cli_put_safe(stdout, amc_json_str(l, "text"));
		printf("\n");
	}
	cJSON_Delete(j);
}

static cJSON *step_json(amc_store *store, const amc_step_row *r, const amc_decision_row *dec, size_t ndec)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "step", r->step);
	amc_json_add_str(j, "tool", r->tool);
	cJSON_AddItemToObject(j, "args", json_field(r->args));
	amc_json_add_str(j, "description", r->description);
	amc_json_add_str(j, "status", r->status);
	cJSON_AddItemToObject(j, "result", json_field(r->result));
	amc_json_add_str(j, "error", r->error);
	add_path(store, j, "before_screenshot", r->before_screenshot);
	add_path(store, j, "after_screenshot", r->after_screenshot);
	add_path(store, j, "screenshot_path", r->screenshot_path);
	char made[PATH_MAX];
	if (amc_store_step_file(r->result, "file", made, sizeof made) == 0)
		add_path(store, j, "file", made);
	if (amc_store_step_file(r->result, "diff", made, sizeof made) == 0)
		add_path(store, j, "diff", made);
	cJSON_AddItemToObject(j, "ocr", json_field(r->ocr ? r->ocr : "[]"));
	cJSON_AddItemToObject(j, "ui_tree", json_field(r->ui_tree));
	add_path(store, j, "ui_tree_path", r->ui_tree_path);
	cJSON_AddItemToObject(j, "scene", json_field(r->scene));
	cJSON_AddItemToObject(j, "semantic_scene", json_field(r->semantic_scene));
	amc_json_add_str(j, "reasoning", r->reasoning);
	cJSON_AddItemToObject(j, "usage", step_usage_json(dec, ndec, r->step));
	cJSON_AddItemToObject(j, "timings", json_field(r->timings));
	cJSON_AddNumberToObject(j, "started_ms", (double)r->started_ms);
	cJSON_AddNumberToObject(j, "finished_ms", (double)r->finished_ms);
	/* what the step changed (runtime/stepdiff.h), and its flag beside it */
	char *diff = step_diff(store, r);
	cJSON *dj = diff ? cJSON_Parse(diff) : NULL;
	free(diff);
	const cJSON *cn = cJSON_GetObjectItemCaseSensitive(dj, "changed_nothing");
	cJSON_AddItemToObject(j, "changed_nothing", cJSON_IsBool(cn) ? cJSON_CreateBool(cJSON_IsTrue(cn)) : cJSON_CreateNull());
	cJSON_AddItemToObject(j, "diff", dj ? dj : cJSON_CreateNull());
	return j;
}

static void print_path(amc_store *store, const char *label, const char *rel);

/* The files a step made besides its screenshots (a recording, a named or
 * cropped screenshot, a diff), each on a line of its own. */
static void print_step_files(amc_store *store, const amc_step_row *r)
{
	char rel[PATH_MAX];
	if (amc_store_step_file(r->result, "file", rel, sizeof rel) == 0 &&
	    (!r->after_screenshot || strcmp(rel, r->after_screenshot)))
		print_path(store, !strcmp(r->tool ? r->tool : "", "record") ? "video" : "file", rel);
	if (amc_store_step_file(r->result, "diff", rel, sizeof rel) == 0)
		print_path(store, "diff", rel);
}

static void print_path(amc_store *store, const char *label, const char *rel)
{
	char abs[PATH_MAX];
	printf("     %-7s ", label);
	if (!rel)
		printf("(not recorded)\n");
	else if (amc_store_artifact_abspath(store, rel, abs, sizeof abs, NULL) == 0) {
		/* a link to the file where the terminal supports OSC 8 (issue 27) */
		amc_hyperlink_put_path(stdout, abs, amc_hyperlink_supported(STDOUT_FILENO, NULL));
		printf("\n");
	} else {
		printf("(invalid path) ");
		amc_cli_put_safe(stdout, rel);
		printf("\n");
	}
}

/* Compact JSON, cut to `max` characters for the overview. */
static void print_json_short(const char *label, const char *text, size_t max)
{
	if (!text)
		return;
	cJSON *j = cJSON_Parse(text);
	char *s = j ? amc_json_print(j) : amc_xstrdup(text);
	cJSON_Delete(j);
	if (strlen(s) > max)
		strcpy(s + amc_utf8_cut(s, max - 3), "..."); /* never inside a character */
	printf("     %-7s ", label);
	amc_cli_put_safe(stdout, s);
	printf("\n");
	free(s);
}

static void print_json_full(const char *label, const char *text)
{
	if (!text)
		return;
	cJSON *j = cJSON_Parse(text);
	char *s = j ? cJSON_Print(j) : amc_xstrdup(text);
	cJSON_Delete(j);
	printf("%s:\n", label);
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_text(s, strlen(s), &sb);
	printf("%s\n", amc_sb_str(&sb));
	amc_sb_free(&sb);
	free(s);
}

static void print_scene(const char *text)
{
	cJSON *j = text ? cJSON_Parse(text) : NULL;
	const cJSON *els = cJSON_GetObjectItemCaseSensitive(j, "elements");
	if (!cJSON_IsArray(els)) {
		cJSON_Delete(j);
		return;
	}
	printf("scene (%d elements, what the planner saw before acting):\n", cJSON_GetArraySize(els));
	const cJSON *el;
	cJSON_ArrayForEach(el, els) {
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(el, "bounds");
		int x1 = 0, y1 = 0, x2 = 0, y2 = 0;
		if (cJSON_GetArraySize(b) == 4) {
			x1 = cJSON_GetArrayItem(b, 0)->valueint;
			y1 = cJSON_GetArrayItem(b, 1)->valueint;
			x2 = cJSON_GetArrayItem(b, 2)->valueint;
			y2 = cJSON_GetArrayItem(b, 3)->valueint;
		}
		const char *id = amc_json_str(el, "id"), *type = amc_json_str(el, "type"), *t = amc_json_str(el, "text");
		printf("  %-10s %-10s [%d,%d][%d,%d] ", id ? id : "?", type ? type : "?", x1, y1, x2, y2);
		if (t && *t) {
			printf("\"");
			amc_cli_put_safe(stdout, t);
			printf("\"");
		}
		printf("\n");
	}
	cJSON_Delete(j);
}

/* A coding agent's run: the CLI, its billing and what it reported
 * (report.h), each line indented as the header's. */
static void print_agent(const amc_task_row *t, const amc_decision_row *dec, size_t n)
{
	amc_sb sb;
	amc_sb_init(&sb);
	if (amc_report_agent_summary(t, dec, n, "\n", &sb)) {
		/* the CLI's words: terminal-safe, a line at a time */
		for (char *line = sb.buf, *nl; line; line = nl ? nl + 1 : NULL) {
			nl = strchr(line, '\n');
			if (nl)
				*nl = 0;
			printf("  ");
			amc_cli_put_safe(stdout, line);
			printf("\n");
		}
	}
	amc_sb_free(&sb);
}

static void print_task(const amc_task_row *t, amc_store *store)
{
	char when[32], dur[32];
	printf("%s task %s  %s\n", amc_cli_status_symbol(t->status), t->id, t->status);
	if (t->flow_path || t->flow_name) {
		printf("  flow      ");
		amc_cli_put_safe(stdout, t->flow_name ? t->flow_name : "");
		if (t->flow_path) {
			printf(" (");
			amc_cli_put_safe(stdout, t->flow_path);
			printf(")");
		}
		printf("\n");
	}
	if (t->goal) {
		printf("  goal      ");
		amc_cli_put_safe(stdout, t->goal);
		printf("\n");
	}
	printf("  device    %s   planner %s\n", t->device ? t->device : "-", t->planner ? t->planner : "-");
	amc_format_time(t->started_ms ? t->started_ms : t->created_ms, when, sizeof when);
	if (t->started_ms && t->finished_ms)
		amc_format_duration(t->finished_ms - t->started_ms, dur, sizeof dur);
	else
		snprintf(dur, sizeof dur, "-");
	printf("  started   %s   took %s   steps %d (limit %d)\n", when, dur, t->steps, t->max_steps);
	if (t->source_task_id) {
		printf("  source    ");
		amc_cli_put_safe(stdout, t->source_task_id);
		if (t->source_attempt >= 0)
			printf(" attempt %d", t->source_attempt);
		printf("\n");
	}
	if (t->summary) {
		printf("  summary   ");
		amc_cli_put_wrapped(stdout, t->summary, 12, 12);
		printf("\n");
	}
	if (t->error) {
		printf("  error     ");
		amc_cli_put_wrapped(stdout, t->error, 12, 12);
		printf("\n");
	}
	/* An information task's answer (a planner's finish, a flow's output.answer). */
	char *answer = NULL;
	amc_err ae;
	if (amc_store_get_task_answer(store, t->id, &answer, &ae) == 0 && answer) {
		printf("  answer    ");
		amc_cli_put_safe(stdout, answer);
		printf("\n");
	}
	free(answer);
	/* Model usage exists only for planned tasks; unknown stays unknown (not 0). */
	if (t->input_tokens >= 0 || t->output_tokens >= 0 || t->cost_usd >= 0) {
		printf("  usage     ");
		if (t->input_tokens >= 0)
			printf("%lld tokens in  ", t->input_tokens);
		if (t->output_tokens >= 0)
			printf("%lld tokens out  ", t->output_tokens);
		if (t->cost_usd >= 0)
			printf("$%.4f", t->cost_usd);
		printf("\n");
	}
	char dir[PATH_MAX], rel[64];
	snprintf(rel, sizeof rel, "artifacts/%s", t->id);
	if (amc_store_artifact_abspath(store, rel, dir, sizeof dir, NULL) == 0) {
		printf("  artifacts ");
		amc_cli_put_safe(stdout, dir);
		printf("/\n");
	}
}

/* The model calls that planned one step, summed from the decisions. A sum
 * with any unknown part is unknown (-1), never a guess or 0. */
typedef struct step_usage {
	int calls;
	long long in, out; /* -1 unknown */
	double cost;       /* < 0 unknown */
} step_usage;

static step_usage sum_step_usage(const amc_decision_row *d, size_t n, int step)
{
	step_usage u = { 0, 0, 0, 0 };
	int in_unknown = 0, out_unknown = 0, cost_unknown = 0;
	for (size_t i = 0; i < n; i++) {
		if (d[i].step != step)
			continue;
		u.calls++;
		if (d[i].input_tokens >= 0)
			u.in += d[i].input_tokens;
		else
			in_unknown = 1;
		if (d[i].output_tokens >= 0)
			u.out += d[i].output_tokens;
		else
			out_unknown = 1;
		if (d[i].cost_usd >= 0)
			u.cost += d[i].cost_usd;
		else
			cost_unknown = 1;
	}
	if (in_unknown || !u.calls)
		u.in = -1;
	if (out_unknown || !u.calls)
		u.out = -1;
	if (cost_unknown || !u.calls)
		u.cost = -1;
	return u;
}

/* "1 model call, 1000 tokens in, 100 tokens out, $0.0045" */
static void print_usage_text(const step_usage *u)
{
	printf("%d model call%s", u->calls, u->calls == 1 ? "" : "s");
	if (u->in >= 0)
		printf(", %lld tokens in", u->in);
	else
		printf(", tokens in unknown");
	if (u->out >= 0)
		printf(", %lld tokens out", u->out);
	else
		printf(", tokens out unknown");
	if (u->cost >= 0)
		printf(", $%.4f", u->cost);
	else
		printf(", cost unknown");
}

/* Tokens and cost of the model calls that planned step `step` (nothing for a
 * step no model planned). */
static void print_step_usage(const amc_decision_row *d, size_t n, int step)
{
	step_usage u = sum_step_usage(d, n, step);
	if (!u.calls)
		return;
	printf("     usage   ");
	print_usage_text(&u);
	printf("\n");
}

/* {"model_calls":N,"input_tokens":..,"output_tokens":..,"cost_usd":..}, unknown
 * parts null; null when no model call of this step is recorded (a flow step,
 * or decisions pruned by planner.decisions_keep). */
static cJSON *step_usage_json(const amc_decision_row *d, size_t n, int step)
{
	step_usage u = sum_step_usage(d, n, step);
	if (!u.calls)
		return cJSON_CreateNull();
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "model_calls", u.calls);
	if (u.in >= 0)
		cJSON_AddNumberToObject(j, "input_tokens", (double)u.in);
	else
		cJSON_AddNullToObject(j, "input_tokens");
	if (u.out >= 0)
		cJSON_AddNumberToObject(j, "output_tokens", (double)u.out);
	else
		cJSON_AddNullToObject(j, "output_tokens");
	if (u.cost >= 0)
		cJSON_AddNumberToObject(j, "cost_usd", u.cost);
	else
		cJSON_AddNullToObject(j, "cost_usd");
	return j;
}

static cJSON *decision_json(const amc_decision_row *d)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "step", d->step);
	if (d->attempt >= 0)
		cJSON_AddNumberToObject(j, "attempt", d->attempt);
	else
		cJSON_AddNullToObject(j, "attempt");
	cJSON_AddNumberToObject(j, "created_ms", (double)d->created_ms);
	amc_json_add_str(j, "planner", d->planner);
	amc_json_add_str(j, "model", d->model);
	amc_json_add_str(j, "outcome", d->outcome);
	amc_json_add_str(j, "tool", d->tool);
	cJSON *a = d->args ? cJSON_Parse(d->args) : NULL;
	cJSON_AddItemToObject(j, "args", a ? a : cJSON_CreateNull());
	if (d->input_tokens >= 0)
		cJSON_AddNumberToObject(j, "input_tokens", (double)d->input_tokens);
	else
		cJSON_AddNullToObject(j, "input_tokens");
	if (d->output_tokens >= 0)
		cJSON_AddNumberToObject(j, "output_tokens", (double)d->output_tokens);
	else
		cJSON_AddNullToObject(j, "output_tokens");
	if (d->cost_usd >= 0)
		cJSON_AddNumberToObject(j, "cost_usd", d->cost_usd);
	else
		cJSON_AddNullToObject(j, "cost_usd");
	amc_json_add_str(j, "system_prompt", d->system_prompt);
	amc_json_add_str(j, "user_prompt", d->user_prompt);
	cJSON *det = d->detail ? cJSON_Parse(d->detail) : NULL;
	cJSON_AddItemToObject(j, "detail", det ? det : cJSON_CreateNull());
	return j;
}

static void print_decisions(const amc_task_row *t, const char *sid, const amc_decision_row *d, size_t n, int json)
{
	if (json) {
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "task_id", t->id);
		cJSON *arr = cJSON_AddArrayToObject(j, "decisions");
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(arr, decision_json(&d[i]));
		amc_cli_print_json(j);
		return;
	}
	printf("planner decisions of task %s: %zu\n", t->id, n);
	if (!n)
		printf("  (none: a flow, or kept only for the newest planner.decisions_keep tasks)\n");
	for (size_t i = 0; i < n; i++) {
		printf("\nstep %d  %s  ", d[i].step, d[i].outcome ? d[i].outcome : "?");
		amc_cli_put_safe(stdout, d[i].model ? d[i].model : "");
		printf("\n");
		print_step_usage(&d[i], 1, d[i].step);
		if (d[i].tool) {
			printf("  call    ");
			amc_cli_put_safe(stdout, d[i].tool);
			printf(" ");
			amc_cli_put_safe(stdout, d[i].args ? d[i].args : "{}");
			printf("\n");
		}
		if (d[i].detail) {
			printf("  detail  ");
			amc_cli_put_safe(stdout, d[i].detail);
			printf("\n");
		}
		printf("  prompt\n");
		/* the step's user text, line by line; the system prefix is the same every step */
		const char *p = d[i].user_prompt ? d[i].user_prompt : "";
		while (*p) {
			size_t l = strcspn(p, "\n");
			char *line = amc_xstrndup(p, l);
			printf("    ");
			amc_cli_put_safe(stdout, line);
			printf("\n");
			free(line);
			p += l + (p[l] == '\n');
		}
	}
	if (n)
		printf("\n`amc show %s --decisions --json` includes the system prompt.\n", sid);
}

/* --json: the step's JSON, or the task's with its answer and every step. */
static void print_json(amc_store *store, const amc_task_row *t, const amc_step_row *one, const amc_step_row *steps,
		       size_t n, const amc_decision_row *dec, size_t ndec)
{
	if (one) {
		/* --step N only: the whole task's steps would read the source once each */
		cJSON *j = step_json(store, one, dec, ndec);
		cJSON *src = source_json(store, one);
		if (src)
			cJSON_AddItemToObject(j, "source", src);
		amc_cli_print_json(j);
	} else {
		cJSON *j = amc_cli_task_json(t);
		char *answer = NULL;
		amc_err ae;
		if (amc_store_get_task_answer(store, t->id, &answer, &ae) == 0)
			amc_json_add_str(j, "answer", answer);
		free(answer);
		cJSON *arr = cJSON_AddArrayToObject(j, "steps");
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(arr, step_json(store, &steps[i], dec, ndec));
		amc_cli_print_json(j);
	}
}

/* --step N: one step whole (action, error, reason, usage, device calls, the
 * diff, artifacts, JSON fields and the scene). */
static void print_one_step(amc_store *store, const amc_task_row *t, const amc_step_row *one,
			   const amc_decision_row *dec, size_t ndec)
{
	char dur[32];
	amc_format_duration(one->finished_ms - one->started_ms, dur, sizeof dur);
	printf("step %d of task %s: %s  %s  (%s)\n", one->step, t->id, one->tool, one->status, dur);
	if (one->description) {
		printf("  action  ");
		amc_cli_put_safe(stdout, one->description);
		printf("\n");
	}
	if (one->error) {
		printf("  error   ");
		amc_cli_put_wrapped(stdout, one->error, 10, 10);
		printf("\n");
	}
	if (one->reasoning) {
		printf("  reason  ");
		amc_cli_put_safe(stdout, one->reasoning);
		printf("\n");
	}
	print_source(store, one);
	step_usage u = sum_step_usage(dec, ndec, one->step);
	printf("  usage   ");
	if (u.calls)
		print_usage_text(&u);
	else if (ndec)
		printf("no model call");
	else
		printf("no model call recorded (a flow, or decisions kept only for planner.decisions_keep tasks)");
	printf("\n");
	amc_device_calls dc = { 0 };
	if (amc_device_calls_add_json(&dc, one->timings) == 0) {
		char line[160];
		amc_device_calls_format(&dc, line, sizeof line);
		printf("  device  %s\n", line);
	}
	char *diff = step_diff(store, one);
	if (diff) {
		printf("diff (before -> after):\n");
		amc_stepdiff_render(diff, 1, print_diff_line, NULL);
		free(diff);
	}
	print_path(store, "before", one->before_screenshot);
	print_path(store, "after", one->after_screenshot);
	print_step_files(store, one);
	print_path(store, "tree", one->ui_tree_path);
	print_json_full("args", one->args);
	print_json_full("result", one->result);
	print_json_full("timings", one->timings);
	print_json_full("ocr", one->ocr);
	if (one->ui_tree)
		print_json_full("ui tree", one->ui_tree);
	if (one->semantic_scene)
		print_json_full("semantic scene", one->semantic_scene);
	print_scene(one->scene);
}

/* The task and its steps in short, what the device calls cost, and the
 * model call that ended it. */
static void print_task_text(amc_store *store, const amc_task_row *t, const char *sid, const amc_step_row *steps, size_t n,
			    const amc_decision_row *dec, size_t ndec)
{
	print_task(t, store);
	print_agent(t, dec, ndec);
	printf("\nsteps:\n");
	if (n == 0)
		printf("  (none recorded)\n");
	for (size_t i = 0; i < n; i++) {
		const amc_step_row *r = &steps[i];
		char dur[32];
		amc_format_duration(r->finished_ms - r->started_ms, dur, sizeof dur);
		printf("  %3d %-14s %-6s %6s  ", r->step, r->tool ? r->tool : "?", r->status ? r->status : "?", dur);
		amc_cli_put_safe(stdout, r->description ? r->description : "");
		printf("\n");
		if (step_changed_nothing(store, r) == 1)
			printf("     ! changed nothing: same UI tree, same pixels (a missed tap?)\n");
		if (r->reasoning && *r->reasoning) {
			printf("     reason  ");
			amc_cli_put_safe(stdout, r->reasoning);
			printf("\n");
		}
		print_step_usage(dec, ndec, r->step);
		print_json_short("args", r->args, 100);
		print_json_short("result", r->result, 100);
		if (r->error) {
			printf("     error   ");
			amc_cli_put_wrapped(stdout, r->error, 13, 13);
			printf("\n");
		}
		print_path(store, "before", r->before_screenshot);
		print_path(store, "after", r->after_screenshot);
		print_step_files(store, r);
	}
	/* what the steps cost on the device, all together */
	amc_device_calls dc = { 0 };
	size_t counted = 0;
	for (size_t i = 0; i < n; i++)
		counted += amc_device_calls_add_json(&dc, steps[i].timings) == 0;
	if (counted) {
		char line[160];
		amc_device_calls_format(&dc, line, sizeof line);
		printf("  device  %s (%zu step%s)\n", line, counted, counted == 1 ? "" : "s");
	}
	/* the call that ended the task (finish, or a failed call) plans no step row */
	int last = n ? steps[n - 1].step : 0;
	for (size_t i = 0; i < ndec; i++)
		if (dec[i].step > last) {
			last = dec[i].step;
			step_usage u = sum_step_usage(dec, ndec, last);
			printf("  end (model call %d, no step of its own)\n     usage   ", last);
			print_usage_text(&u);
			printf("\n");
		}
	printf("\n`amc show %s --step N` shows a step's result, timings, scene and tree.\n", sid);
}

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "step", required_argument, 0, 's' },
		{ "json", no_argument, 0, 'j' },
		{ "decisions", no_argument, 0, 'D' },
		{ 0, 0, 0, 0 },
	};
	long step = 0;
	int json = 0, c, decisions = 0;
	amc_err e;
	while ((c = getopt_long(argc, argv, "s:jD", opts, NULL)) != -1) {
		switch (c) {
		case 'D': decisions = 1; break;
		case 's':
			if (amc_cli_int("--step", optarg, 1, 1000000, &step, &e) != 0)
				return amc_cli_usage(&amc_cmd_show, "%s", e.msg);
			break;
		case 'j': json = 1; break;
		default: return amc_cli_usage(&amc_cmd_show, "unknown option");
		}
	}
	if (optind >= argc)
		return amc_cli_usage(&amc_cmd_show, "which task? give its id or a unique prefix (see `amc tasks`)");
	if (optind + 1 < argc)
		return amc_cli_usage(&amc_cmd_show, "one task at a time");
	amc_store *store;
	if (amc_cli_store(cli, &store, &e) != 0)
		return amc_cli_fail(&e);
	amc_task_row t;
	if (amc_store_get_task(store, argv[optind], &t, &e) != 0)
		return amc_cli_fail(&e);
	char sid[AMC_ID_SIZE];
	amc_cli_short_id(store, t.id, sid);
	amc_step_row *steps = NULL;
	size_t n = 0;
	if (amc_store_get_steps(store, t.id, &steps, &n, &e) != 0) {
		amc_task_row_free(&t);
		return amc_cli_fail(&e);
	}
	int rc = 0;
	const amc_step_row *one = NULL;
	amc_decision_row *dec = NULL;
	size_t ndec = 0;
	if (amc_store_get_decisions(store, t.id, &dec, &ndec, &e) != 0) {
		rc = amc_cli_fail(&e);
		goto out;
	}
	if (decisions) {
		print_decisions(&t, sid, dec, ndec, json);
		goto out;
	}
	if (step) {
		for (size_t i = 0; i < n; i++)
			if (steps[i].step == step)
				one = &steps[i];
		if (!one) {
			amc_err_set(&e, AMC_EUSAGE, "task %s has no step %ld (it has %zu)", t.id, step, n);
			rc = amc_cli_fail(&e);
			goto out;
		}
	}
	if (json)
		print_json(store, &t, one, steps, n, dec, ndec);
	else if (one)
		print_one_step(store, &t, one, dec, ndec);
	else
		print_task_text(store, &t, sid, steps, n, dec, ndec);
out:
	amc_decision_rows_free(dec, ndec);
	amc_step_rows_free(steps, n);
	amc_task_row_free(&t);
	return rc;
}

const amc_cmd amc_cmd_show = {
	"show",
	"show TASK [--step N | --decisions] [--json]",
	"show a task's timeline: each step's action, result and before/after screenshots",
	"  TASK             a task id or a unique prefix of one (see `amc tasks`)\n"
	"  -s, --step N     everything recorded for step N (args, result, model usage and cost,\n"
	"                   what it changed in the UI tree, timings, scene, tree)\n"
	"  -D, --decisions  the planner's decisions: prompt text, tool call, arguments, usage\n"
	"                   and cost of each model call (kept for planner.decisions_keep tasks)\n"
	"  -j, --json       JSON on stdout (artifact paths are absolute)\n",
	run,
};
