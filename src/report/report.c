/* report.c - loading a task for export, the JSON document and the --dir layout. */
#include "report/report.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime/stepdiff.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"

int amc_report_load(amc_store *s, const char *id_or_prefix, amc_report_task *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	if (amc_store_get_task(s, id_or_prefix, &out->task, e) != 0)
		return -1;
	if (amc_store_get_steps(s, out->task.id, &out->steps, &out->nsteps, e) != 0 ||
	    amc_store_get_decisions(s, out->task.id, &out->decisions, &out->ndecisions, e) != 0) {
		amc_report_free(out);
		return -1;
	}
	return 0;
}

void amc_report_free(amc_report_task *t)
{
	if (!t)
		return;
	amc_task_row_free(&t->task);
	amc_step_rows_free(t->steps, t->nsteps);
	amc_decision_rows_free(t->decisions, t->ndecisions);
	memset(t, 0, sizeof *t);
}

/* ---- JSON ---------------------------------------------------------------- */

/* Stored JSON text as JSON (a value that does not parse is kept as a string:
 * the document still says what was stored). */
static cJSON *json_field(const char *text)
{
	if (!text)
		return cJSON_CreateNull();
	cJSON *j = cJSON_Parse(text);
	return j ? j : cJSON_CreateString(text);
}

static void add_num_or_null(cJSON *j, const char *key, double v, int known)
{
	if (known)
		cJSON_AddNumberToObject(j, key, v);
	else
		cJSON_AddNullToObject(j, key);
}

static void add_path(amc_store *s, cJSON *j, const char *key, const char *rel, const char *artifact_dir)
{
	char abs[PATH_MAX];
	if (!rel) {
		cJSON_AddNullToObject(j, key);
	} else if (artifact_dir) {
		/* relative to the export folder; null when it could not be copied
		 * (removed by retention, or never written) */
		if (amc_path_join(abs, sizeof abs, artifact_dir, rel) == 0 && amc_file_exists(abs))
			cJSON_AddStringToObject(j, key, rel);
		else
			cJSON_AddNullToObject(j, key);
	} else if (amc_store_artifact_abspath(s, rel, abs, sizeof abs, NULL) == 0) {
		cJSON_AddStringToObject(j, key, abs);
	} else {
		cJSON_AddStringToObject(j, key, rel);
	}
}

cJSON *amc_report_task_json(const amc_task_row *t)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "id", t->id);
	cJSON_AddStringToObject(j, "status", t->status);
	amc_json_add_str(j, "kind", t->kind);
	amc_json_add_str(j, "goal", t->goal);
	amc_json_add_str(j, "flow", t->flow_path);
	amc_json_add_str(j, "flow_name", t->flow_name);
	amc_json_add_str(j, "device", t->device);
	amc_json_add_str(j, "planner", t->planner);
	cJSON_AddNumberToObject(j, "steps", t->steps);
	cJSON_AddNumberToObject(j, "max_steps", t->max_steps);
	cJSON_AddNumberToObject(j, "created_ms", (double)t->created_ms);
	add_num_or_null(j, "started_ms", (double)t->started_ms, t->started_ms > 0);
	add_num_or_null(j, "finished_ms", (double)t->finished_ms, t->finished_ms > 0);
	amc_json_add_str(j, "summary", t->summary);
	amc_json_add_str(j, "error", t->error);
	add_num_or_null(j, "input_tokens", (double)t->input_tokens, t->input_tokens >= 0);
	add_num_or_null(j, "output_tokens", (double)t->output_tokens, t->output_tokens >= 0);
	add_num_or_null(j, "cost_usd", t->cost_usd, t->cost_usd >= 0);
	amc_json_add_str(j, "source_task_id", t->source_task_id);
	add_num_or_null(j, "source_attempt", t->source_attempt, t->source_attempt >= 0);
	/* how long it ran; null until it has started and finished */
	add_num_or_null(j, "duration_ms", (double)(t->finished_ms - t->started_ms), t->started_ms && t->finished_ms);
	return j;
}

static cJSON *step_json(amc_store *s, const amc_step_row *r, const char *artifact_dir)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "step", r->step);
	amc_json_add_str(j, "tool", r->tool);
	cJSON_AddItemToObject(j, "args", json_field(r->args));
	amc_json_add_str(j, "description", r->description);
	amc_json_add_str(j, "status", r->status);
	cJSON_AddItemToObject(j, "result", json_field(r->result));
	amc_json_add_str(j, "error", r->error);
	add_path(s, j, "before_screenshot", r->before_screenshot, artifact_dir);
	add_path(s, j, "after_screenshot", r->after_screenshot, artifact_dir);
	add_path(s, j, "ui_tree_path", r->ui_tree_path, artifact_dir);
	cJSON_AddItemToObject(j, "ocr", json_field(r->ocr ? r->ocr : "[]"));
	cJSON_AddItemToObject(j, "ui_tree", json_field(r->ui_tree));
	cJSON_AddItemToObject(j, "scene", json_field(r->scene));
	cJSON_AddItemToObject(j, "semantic_scene", json_field(r->semantic_scene));
	amc_json_add_str(j, "reasoning", r->reasoning);
	cJSON_AddItemToObject(j, "timings", json_field(r->timings));
	/* what the step changed (runtime/stepdiff.h): stored, or computed now
	 * from the artifacts for an older record */
	char *diff = NULL;
	amc_err de;
	if (amc_stepdiff_of_row(s, r, &diff, &de) == 0 && diff)
		cJSON_AddItemToObject(j, "tree_diff", json_field(diff));
	else
		cJSON_AddNullToObject(j, "tree_diff");
	free(diff);
	add_num_or_null(j, "started_ms", (double)r->started_ms, r->started_ms > 0);
	add_num_or_null(j, "finished_ms", (double)r->finished_ms, r->finished_ms > 0);
	return j;
}

static cJSON *decision_json(const amc_decision_row *d)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "id", (double)d->id);
	cJSON_AddNumberToObject(j, "step", d->step);
	add_num_or_null(j, "attempt", d->attempt, d->attempt >= 0);
	cJSON_AddNumberToObject(j, "created_ms", (double)d->created_ms);
	amc_json_add_str(j, "planner", d->planner);
	amc_json_add_str(j, "model", d->model);
	amc_json_add_str(j, "system_prompt", d->system_prompt);
	amc_json_add_str(j, "user_prompt", d->user_prompt);
	amc_json_add_str(j, "tool", d->tool);
	cJSON_AddItemToObject(j, "args", json_field(d->args));
	amc_json_add_str(j, "outcome", d->outcome);
	add_num_or_null(j, "input_tokens", (double)d->input_tokens, d->input_tokens >= 0);
	add_num_or_null(j, "output_tokens", (double)d->output_tokens, d->output_tokens >= 0);
	add_num_or_null(j, "cost_usd", d->cost_usd, d->cost_usd >= 0);
	cJSON_AddItemToObject(j, "detail", json_field(d->detail));
	return j;
}

cJSON *amc_report_json(amc_store *s, const amc_report_task *t, const char *artifact_dir)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "format", "amc-task");
	cJSON_AddNumberToObject(j, "version", 1);
	cJSON_AddItemToObject(j, "task", amc_report_task_json(&t->task));
	cJSON *steps = cJSON_AddArrayToObject(j, "steps");
	for (size_t i = 0; i < t->nsteps; i++)
		cJSON_AddItemToArray(steps, step_json(s, &t->steps[i], artifact_dir));
	cJSON *dec = cJSON_AddArrayToObject(j, "decisions");
	for (size_t i = 0; i < t->ndecisions; i++)
		cJSON_AddItemToArray(dec, decision_json(&t->decisions[i]));
	return j;
}

/* ---- --dir --------------------------------------------------------------- */

/* Largest artifact copied (a screenshot or a tree is far smaller). */
#define MAX_ARTIFACT_BYTES (256u * 1024u * 1024u)

static int dir_usable(const char *dir, amc_err *e)
{
	struct stat st;
	if (stat(dir, &st) != 0) {
		if (errno != ENOENT)
			return amc_err_set(e, AMC_EENV, "cannot use %s: %s", dir, strerror(errno));
		return amc_mkdir_p(dir, 0700, e);
	}
	if (!S_ISDIR(st.st_mode))
		return amc_err_set(e, AMC_EUSAGE, "%s exists and is not a folder: give a new or empty folder", dir);
	DIR *d = opendir(dir);
	if (!d)
		return amc_err_set(e, AMC_EENV, "cannot read %s: %s", dir, strerror(errno));
	struct dirent *de;
	int empty = 1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	closedir(d);
	if (!empty)
		return amc_err_set(e, AMC_EUSAGE, "%s is not empty: give a new or empty folder", dir);
	return 0;
}

/* Copy one artifact to DIR/REL (REL is a clean store path, so it stays inside
 * DIR). One that no longer exists (retention, a step that failed before its
 * after-observation was written) is skipped: task.json names it as null. */
static int copy_artifact(amc_store *s, const char *rel, const char *dir, amc_err *e)
{
	char src[PATH_MAX], dst[PATH_MAX], parent[PATH_MAX];
	if (!rel)
		return 0;
	if (amc_store_artifact_abspath(s, rel, src, sizeof src, e) != 0)
		return -1;
	if (amc_path_join(dst, sizeof dst, dir, rel) != 0)
		return amc_err_set(e, AMC_EUSAGE, "the export path for %s is too long", rel);
	if (amc_file_exists(dst) || !amc_file_exists(src))
		return 0; /* a reused observation (copied for the step before), or a missing one */
	snprintf(parent, sizeof parent, "%s", dst);
	char *slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	char *data;
	size_t len;
	if (amc_mkdir_p(parent, 0700, e) != 0 || amc_read_file(src, MAX_ARTIFACT_BYTES, &data, &len, e) != 0)
		return -1;
	int rc = amc_write_atomic(dst, data, len, 0600, e);
	free(data);
	return rc;
}

int amc_report_dir(amc_store *s, const amc_report_task *t, const char *dir, amc_err *e)
{
	if (dir_usable(dir, e) != 0)
		return -1;
	for (size_t i = 0; i < t->nsteps; i++) {
		const amc_step_row *r = &t->steps[i];
		char made[PATH_MAX], diff[PATH_MAX];
		if (copy_artifact(s, r->before_screenshot, dir, e) != 0 ||
		    copy_artifact(s, r->after_screenshot, dir, e) != 0 ||
		    copy_artifact(s, r->ui_tree_path, dir, e) != 0 ||
		    /* a recording, a named screenshot, a diff */
		    copy_artifact(s, amc_store_step_file(r->result, "file", made, sizeof made) ? NULL : made, dir, e) != 0 ||
		    copy_artifact(s, amc_store_step_file(r->result, "diff", diff, sizeof diff) ? NULL : diff, dir, e) != 0)
			return amc_err_prefix(e, "step %d", r->step);
	}
	cJSON *j = amc_report_json(s, t, dir);
	char *text = amc_json_print(j);
	cJSON_Delete(j);
	char path[PATH_MAX];
	int rc = amc_path_join(path, sizeof path, dir, "task.json") != 0
			 ? amc_err_set(e, AMC_EUSAGE, "the folder name %s is too long", dir)
			 : amc_write_atomic(path, text, strlen(text), 0600, e);
	free(text);
	return rc;
}

int amc_report_agent_summary(const amc_task_row *t, const amc_decision_row *d, size_t n, const char *sep,
			     amc_sb *out)
{
	if (!t->planner || strncmp(t->planner, "agent:", 6))
		return 0;
	const amc_decision_row *last = NULL;
	for (size_t i = 0; i < n; i++)
		if (d[i].tool && !strcmp(d[i].tool, t->planner))
			last = &d[i];
	cJSON *j = last && last->detail ? cJSON_Parse(last->detail) : NULL;
	if (!j) {
		amc_sb_printf(out, "agent     %s (no report from the CLI)", t->planner);
		return 1;
	}
	const char *cli = amc_json_str(j, "cli"), *ver = amc_json_str(j, "version"), *bill = amc_json_str(j, "billing"),
		   *sid = amc_json_str(j, "session_id");
	amc_sb_printf(out, "agent     %s%s%s", cli ? cli : t->planner, ver ? " " : "", ver ? ver : "");
	amc_sb_printf(out, "%sbilling   %s", sep, bill ? bill : "unknown");
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "cost_usd"),
		    *nc = cJSON_GetObjectItemCaseSensitive(j, "cost_usd_notional"),
		    *turns = cJSON_GetObjectItemCaseSensitive(j, "turns");
	if (cJSON_IsNumber(nc))
		amc_sb_printf(out, "   cost $%.4f notional (included in the plan, not charged to the task)", nc->valuedouble);
	else if (cJSON_IsNumber(c))
		amc_sb_printf(out, "   cost $%.4f", c->valuedouble);
	else
		amc_sb_puts(out, "   cost unknown (the CLI reported none)");
	amc_sb_printf(out, "%ssession   %s", sep, sid ? sid : "unknown");
	if (cJSON_IsNumber(turns))
		amc_sb_printf(out, "   turns %d", turns->valueint);
	cJSON_Delete(j);
	return 1;
}
