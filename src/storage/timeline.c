/* timeline.c - one record per step: before/after screenshots,
 * action, result, OCR, UI tree, scene, reasoning, timings. */
#include "storage/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/store_int.h"
#include "util/clock.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

void amc_step_row_free(amc_step_row *r)
{
	if (!r)
		return;
	free(r->task_id);
	free(r->tool);
	free(r->args);
	free(r->description);
	free(r->status);
	free(r->result);
	free(r->error);
	free(r->before_screenshot);
	free(r->after_screenshot);
	free(r->screenshot_path);
	free(r->ocr);
	free(r->ui_tree);
	free(r->ui_tree_path);
	free(r->scene);
	free(r->semantic_scene);
	free(r->reasoning);
	free(r->timings);
	free(r->tree_diff);
	memset(r, 0, sizeof *r);
}

void amc_step_rows_free(amc_step_row *rows, size_t n)
{
	if (!rows)
		return;
	for (size_t i = 0; i < n; i++)
		amc_step_row_free(&rows[i]);
	free(rows);
}

/* Retention deletes files by the paths in rows, so a row may only name a
 * clean path inside artifacts/. */
static int check_path(const char *what, const char *rel, amc_err *e)
{
	if (!rel || amc_store_relpath_ok(rel))
		return 0;
	char *safe = amc_sanitize_dup(rel);
	amc_err_set(e, AMC_EUSAGE, "refusing %s path '%s': artifact paths are relative to the amc "
		    "home and stay inside artifacts/", what, safe);
	free(safe);
	return -1;
}

int amc_store_add_step(amc_store *s, const amc_step_row *r, amc_err *e)
{
	if (!r || !amc_store_id_ok(r->task_id)) {
		char *safe = amc_sanitize_dup(r && r->task_id ? r->task_id : "");
		amc_err_set(e, AMC_EUSAGE, "cannot record a step: '%s' is not a task id", safe);
		free(safe);
		return -1;
	}
	if (r->step < 1)
		return amc_err_set(e, AMC_EUSAGE, "cannot record step %d of task %s: steps count from 1",
				   r->step, r->task_id);
	/* New rows keep the legacy column equal to the after image, so an older
	 * reader of screenshot_path still sees the post-action screen. */
	const char *after = r->after_screenshot ? r->after_screenshot : r->screenshot_path;
	if (check_path("before screenshot", r->before_screenshot, e) != 0 ||
	    check_path("after screenshot", after, e) != 0 ||
	    check_path("UI tree", r->ui_tree_path, e) != 0)
		return -1;
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      "INSERT INTO timeline (task_id, step, tool, args, description, status, "
			      "result, error, screenshot_path, created_ms, before_screenshot, "
			      "after_screenshot, ocr, ui_tree, ui_tree_path, scene, semantic_scene, "
			      "reasoning, timings, started_ms, finished_ms, tree_diff) VALUES (?1, ?2, ?3, ?4, ?5, "
			      "?6, ?7, ?8, ?9, ?10, ?11, ?9, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)",
			      &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, r->task_id, &rc);
	amc_store_bind_i64(st, 2, r->step, &rc);
	amc_store_bind_text(st, 3, r->tool, &rc);
	amc_store_bind_text(st, 4, r->args, &rc);
	amc_store_bind_text(st, 5, r->description, &rc);
	amc_store_bind_text(st, 6, r->status, &rc);
	amc_store_bind_text(st, 7, r->result, &rc);
	amc_store_bind_text(st, 8, r->error, &rc);
	amc_store_bind_text(st, 9, after, &rc);
	amc_store_bind_i64(st, 10, amc_now_ms(), &rc);
	amc_store_bind_text(st, 11, r->before_screenshot, &rc);
	amc_store_bind_text(st, 12, r->ocr ? r->ocr : "[]", &rc);
	amc_store_bind_text(st, 13, r->ui_tree, &rc);
	amc_store_bind_text(st, 14, r->ui_tree_path, &rc);
	amc_store_bind_text(st, 15, r->scene, &rc);
	amc_store_bind_text(st, 16, r->semantic_scene, &rc);
	amc_store_bind_text(st, 17, r->reasoning, &rc);
	amc_store_bind_text(st, 18, r->timings, &rc);
	amc_store_bind_pos(st, 19, r->started_ms, &rc);
	amc_store_bind_pos(st, 20, r->finished_ms, &rc);
	amc_store_bind_text(st, 21, r->tree_diff, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
		return amc_err_set(e, AMC_EUSAGE, "step %d of task %s is already recorded", r->step,
				   r->task_id);
	if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
		return amc_err_set(e, AMC_EUSAGE, "no task %s: create the task before recording its steps",
				   r->task_id);
	char what[80];
	snprintf(what, sizeof what, "record step %d of task %s", r->step, r->task_id);
	return amc_store_sql_error_rc(s, rc, e, what);
}

int amc_store_get_steps(amc_store *s, const char *task_id, amc_step_row **out, size_t *n, amc_err *e)
{
	*out = NULL;
	*n = 0;
	if (!amc_store_id_ok(task_id)) {
		char *safe = amc_sanitize_dup(task_id ? task_id : "");
		amc_err_set(e, AMC_EUSAGE, "'%s' is not a task id (see `amc tasks`)", safe);
		free(safe);
		return -1;
	}
	/* Legacy (version 1) rows have only screenshot_path, which is the after
	 * image; their before image is unknown and stays NULL. */
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      "SELECT task_id, step, tool, args, description, status, result, error, "
			      "before_screenshot, COALESCE(after_screenshot, screenshot_path), "
			      "screenshot_path, COALESCE(ocr, '[]'), ui_tree, ui_tree_path, scene, "
			      "semantic_scene, reasoning, timings, started_ms, finished_ms, tree_diff "
			      "FROM timeline WHERE task_id = ?1 ORDER BY step",
			      &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, task_id, &rc);
	amc_step_row *rows = NULL;
	size_t cnt = 0, cap = 0;
	while (rc == SQLITE_OK || rc == SQLITE_ROW) {
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW)
			break;
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			rows = amc_xrealloc(rows, cap * sizeof *rows);
		}
		amc_step_row *r = &rows[cnt++];
		memset(r, 0, sizeof *r);
		r->task_id = amc_store_col_dup(st, 0);
		r->step = (int)amc_store_col_i64(st, 1, 0);
		r->tool = amc_store_col_dup(st, 2);
		r->args = amc_store_col_dup(st, 3);
		r->description = amc_store_col_dup(st, 4);
		r->status = amc_store_col_dup(st, 5);
		r->result = amc_store_col_dup(st, 6);
		r->error = amc_store_col_dup(st, 7);
		r->before_screenshot = amc_store_col_dup(st, 8);
		r->after_screenshot = amc_store_col_dup(st, 9);
		r->screenshot_path = amc_store_col_dup(st, 10);
		r->ocr = amc_store_col_dup(st, 11);
		r->ui_tree = amc_store_col_dup(st, 12);
		r->ui_tree_path = amc_store_col_dup(st, 13);
		r->scene = amc_store_col_dup(st, 14);
		r->semantic_scene = amc_store_col_dup(st, 15);
		r->reasoning = amc_store_col_dup(st, 16);
		r->timings = amc_store_col_dup(st, 17);
		r->started_ms = amc_store_col_i64(st, 18, 0);
		r->finished_ms = amc_store_col_i64(st, 19, 0);
		r->tree_diff = amc_store_col_dup(st, 20);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		amc_step_rows_free(rows, cnt);
		char what[64];
		snprintf(what, sizeof what, "read the steps of task %s", task_id);
		return amc_store_sql_error_rc(s, rc, e, what);
	}
	*out = rows;
	*n = cnt;
	return 0;
}
