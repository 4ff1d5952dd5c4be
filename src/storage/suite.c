/* suite.c - task answers and the rows of `amc bench tasks` (suite_runs). */
#include "storage/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/store_int.h"
#include "util/clock.h"
#include "util/sanitize.h"

int amc_store_set_task_answer(amc_store *s, const char *task_id, const char *answer, amc_err *e)
{
	if (!amc_store_id_ok(task_id))
		return amc_err_set(e, AMC_EUSAGE, "not a task id");
	/* Cut an over-long answer at a character boundary. */
	size_t n = answer ? strlen(answer) : 0;
	if (n > AMC_STORE_ANSWER_MAX) {
		n = AMC_STORE_ANSWER_MAX;
		while (n > 0 && ((unsigned char)answer[n] & 0xC0) == 0x80)
			n--;
	}
	char *cut = answer ? amc_xstrndup(answer, n) : NULL;
	sqlite3_stmt *st;
	if (amc_store_prepare(s, "UPDATE tasks SET answer = ?2 WHERE id = ?1", &st, e) != 0) {
		free(cut);
		return -1;
	}
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, task_id, &rc);
	amc_store_bind_text(st, 2, cut, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	free(cut);
	if (rc != SQLITE_DONE)
		return amc_store_sql_error_rc(s, rc, e, "record a task's answer");
	if (sqlite3_changes(s->db) == 0)
		return amc_err_set(e, AMC_EUSAGE, "no task %s to record an answer for", task_id);
	return 0;
}

int amc_store_get_task_answer(amc_store *s, const char *task_id, char **out, amc_err *e)
{
	*out = NULL;
	sqlite3_stmt *st;
	if (amc_store_prepare(s, "SELECT answer FROM tasks WHERE id = ?1", &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, task_id, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = amc_store_col_dup(st, 0);
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return amc_store_sql_error_rc(s, rc, e, "read a task's answer");
	return 0;
}

#define SUITE_COLS                                                                          \
	"suite_id, task_id, template, seed, params, planner, model, device, amc_version, "  \
	"amc_commit, config, passed, reason, answer, confirm_asked, steps, input_tokens, "  \
	"output_tokens, cost_usd, wall_ms, created_ms"

int amc_store_add_suite_row(amc_store *s, const amc_suite_row *r, amc_err *e)
{
	if (!r->suite_id || !r->template_name || !r->planner)
		return amc_err_set(e, AMC_EUSAGE, "a suite row needs its suite id, template and planner");
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      "INSERT INTO suite_runs (" SUITE_COLS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
			      "?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)",
			      &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, r->suite_id, &rc);
	amc_store_bind_text(st, 2, r->task_id, &rc);
	amc_store_bind_text(st, 3, r->template_name, &rc);
	amc_store_bind_i64(st, 4, r->seed, &rc);
	amc_store_bind_text(st, 5, r->params, &rc);
	amc_store_bind_text(st, 6, r->planner, &rc);
	amc_store_bind_text(st, 7, r->model, &rc);
	amc_store_bind_text(st, 8, r->device, &rc);
	amc_store_bind_text(st, 9, r->amc_version, &rc);
	amc_store_bind_text(st, 10, r->amc_commit, &rc);
	amc_store_bind_text(st, 11, r->config, &rc);
	amc_store_bind_i64(st, 12, r->passed ? 1 : 0, &rc);
	amc_store_bind_text(st, 13, r->reason, &rc);
	amc_store_bind_text(st, 14, r->answer, &rc);
	amc_store_bind_i64(st, 15, r->confirm_asked, &rc);
	amc_store_bind_i64(st, 16, r->steps, &rc);
	amc_store_bind_nonneg(st, 17, r->input_tokens, &rc);
	amc_store_bind_nonneg(st, 18, r->output_tokens, &rc);
	if (rc == SQLITE_OK)
		rc = r->cost_usd >= 0 ? sqlite3_bind_double(st, 19, r->cost_usd) : sqlite3_bind_null(st, 19);
	amc_store_bind_i64(st, 20, r->wall_ms, &rc);
	amc_store_bind_i64(st, 21, r->created_ms > 0 ? r->created_ms : amc_now_ms(), &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return amc_store_sql_error_rc(s, rc, e, "record a suite run");
	return 0;
}

int amc_store_get_suite_rows(amc_store *s, const char *suite_id, amc_suite_row **out, size_t *n, amc_err *e)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	if (amc_store_prepare(s, "SELECT " SUITE_COLS " FROM suite_runs WHERE suite_id = ?1 ORDER BY id", &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, suite_id, &rc);
	size_t cap = 0;
	amc_suite_row *rows = NULL;
	while ((rc == SQLITE_OK || rc == SQLITE_ROW) && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			rows = amc_xrealloc(rows, cap * sizeof *rows);
		}
		amc_suite_row *r = &rows[(*n)++];
		memset(r, 0, sizeof *r);
		r->suite_id = amc_store_col_dup(st, 0);
		r->task_id = amc_store_col_dup(st, 1);
		r->template_name = amc_store_col_dup(st, 2);
		r->seed = amc_store_col_i64(st, 3, 0);
		r->params = amc_store_col_dup(st, 4);
		r->planner = amc_store_col_dup(st, 5);
		r->model = amc_store_col_dup(st, 6);
		r->device = amc_store_col_dup(st, 7);
		r->amc_version = amc_store_col_dup(st, 8);
		r->amc_commit = amc_store_col_dup(st, 9);
		r->config = amc_store_col_dup(st, 10);
		r->passed = (int)amc_store_col_i64(st, 11, 0);
		r->reason = amc_store_col_dup(st, 12);
		r->answer = amc_store_col_dup(st, 13);
		r->confirm_asked = (int)amc_store_col_i64(st, 14, 0);
		r->steps = (int)amc_store_col_i64(st, 15, 0);
		r->input_tokens = amc_store_col_i64(st, 16, -1);
		r->output_tokens = amc_store_col_i64(st, 17, -1);
		r->cost_usd = sqlite3_column_type(st, 18) == SQLITE_NULL ? -1.0 : sqlite3_column_double(st, 18);
		r->wall_ms = amc_store_col_i64(st, 19, 0);
		r->created_ms = amc_store_col_i64(st, 20, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		amc_suite_rows_free(rows, *n);
		*out = NULL;
		*n = 0;
		return amc_store_sql_error_rc(s, rc, e, "read suite runs");
	}
	*out = rows;
	return 0;
}

void amc_suite_rows_free(amc_suite_row *rows, size_t n)
{
	if (!rows)
		return;
	for (size_t i = 0; i < n; i++) {
		amc_suite_row *r = &rows[i];
		free(r->suite_id);
		free(r->task_id);
		free(r->template_name);
		free(r->params);
		free(r->planner);
		free(r->model);
		free(r->device);
		free(r->amc_version);
		free(r->amc_commit);
		free(r->config);
		free(r->reason);
		free(r->answer);
	}
	free(rows);
}
