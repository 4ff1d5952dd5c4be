/* decisions.c - the planner decisions table (store.h, docs/llm.md). */
#include <stdlib.h>
#include <string.h>

#include "storage/store.h"
#include "storage/store_int.h"
#include "util/clock.h"
#include "util/strbuf.h"

int amc_store_add_decision(amc_store *s, const amc_decision_row *d, amc_err *e)
{
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      "INSERT INTO planner_decisions (task_id, step, attempt, created_ms, planner, model,"
			      " system_prompt, user_prompt, tool, args, outcome, input_tokens, output_tokens,"
			      " cost_usd, detail) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, d->task_id, &rc);
	amc_store_bind_i64(st, 2, d->step, &rc);
	amc_store_bind_nonneg(st, 3, d->attempt, &rc);
	amc_store_bind_i64(st, 4, d->created_ms > 0 ? d->created_ms : amc_now_ms(), &rc);
	amc_store_bind_text(st, 5, d->planner, &rc);
	amc_store_bind_text(st, 6, d->model, &rc);
	amc_store_bind_text(st, 7, d->system_prompt, &rc);
	amc_store_bind_text(st, 8, d->user_prompt, &rc);
	amc_store_bind_text(st, 9, d->tool, &rc);
	amc_store_bind_text(st, 10, d->args, &rc);
	amc_store_bind_text(st, 11, d->outcome, &rc);
	amc_store_bind_nonneg(st, 12, d->input_tokens, &rc);
	amc_store_bind_nonneg(st, 13, d->output_tokens, &rc);
	if (rc == SQLITE_OK)
		rc = d->cost_usd >= 0 ? sqlite3_bind_double(st, 14, d->cost_usd) : sqlite3_bind_null(st, 14);
	amc_store_bind_text(st, 15, d->detail, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return amc_store_sql_error_rc(s, rc, e, "record a planner decision");
	return 0;
}

int amc_store_get_decisions(amc_store *s, const char *task_id, amc_decision_row **out, size_t *n, amc_err *e)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      "SELECT id, task_id, step, attempt, created_ms, planner, model, system_prompt,"
			      " user_prompt, tool, args, outcome, input_tokens, output_tokens, cost_usd, detail"
			      " FROM planner_decisions WHERE task_id = ? ORDER BY step, id", &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_text(st, 1, task_id, &rc);
	size_t cap = 0;
	while ((rc == SQLITE_OK || rc == SQLITE_ROW) && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*out = amc_xrealloc(*out, cap * sizeof **out);
		}
		amc_decision_row *d = &(*out)[(*n)++];
		memset(d, 0, sizeof *d);
		d->id = sqlite3_column_int64(st, 0);
		d->task_id = amc_store_col_dup(st, 1);
		d->step = (int)sqlite3_column_int64(st, 2);
		d->attempt = (int)amc_store_col_i64(st, 3, -1);
		d->created_ms = sqlite3_column_int64(st, 4);
		d->planner = amc_store_col_dup(st, 5);
		d->model = amc_store_col_dup(st, 6);
		d->system_prompt = amc_store_col_dup(st, 7);
		d->user_prompt = amc_store_col_dup(st, 8);
		d->tool = amc_store_col_dup(st, 9);
		d->args = amc_store_col_dup(st, 10);
		d->outcome = amc_store_col_dup(st, 11);
		d->input_tokens = amc_store_col_i64(st, 12, -1);
		d->output_tokens = amc_store_col_i64(st, 13, -1);
		d->cost_usd = sqlite3_column_type(st, 14) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 14);
		d->detail = amc_store_col_dup(st, 15);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		amc_decision_rows_free(*out, *n);
		*out = NULL;
		*n = 0;
		return amc_store_sql_error_rc(s, rc, e, "read planner decisions");
	}
	return 0;
}

void amc_decision_rows_free(amc_decision_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		amc_decision_row *d = &rows[i];
		free(d->task_id);
		free(d->planner);
		free(d->model);
		free(d->system_prompt);
		free(d->user_prompt);
		free(d->tool);
		free(d->args);
		free(d->outcome);
		free(d->detail);
	}
	free(rows);
}

long amc_store_prune_decisions(amc_store *s, long keep_tasks, amc_err *e)
{
	if (keep_tasks < 1)
		keep_tasks = 1;
	sqlite3_stmt *st;
	if (amc_store_prepare(s,
			      "DELETE FROM planner_decisions WHERE task_id NOT IN ("
			      " SELECT d.task_id FROM planner_decisions d JOIN tasks t ON t.id = d.task_id"
			      " GROUP BY d.task_id ORDER BY MAX(t.created_ms) DESC, d.task_id DESC LIMIT ?)", &st, e) != 0)
		return -1;
	int rc = SQLITE_OK;
	amc_store_bind_i64(st, 1, keep_tasks, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return amc_store_sql_error_rc(s, rc, e, "prune planner decisions");
	return (long)sqlite3_changes(amc_store_db(s));
}
