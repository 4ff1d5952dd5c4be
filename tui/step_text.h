/* step_text.h - one step of a task as text, for the Task view: the action's
 * target and swipe read from the record, the Operation pane's lines (the
 * error with what was on screen one item a line, the flow's source around the
 * step's line, JSON pretty-printed), wrapping to a width, and the failure's
 * own box under the header. Split from view_task.c, which draws the panes.
 * Strings added are raw (from the device, the flow file, a model): they are
 * sanitized when wrapped or drawn. */
#ifndef AMC_TUI_STEP_TEXT_H
#define AMC_TUI_STEP_TEXT_H

#include "storage/store.h"

/* Lines of text; each v[i] is owned by the array (amc_tui_steptext_free). */
typedef struct amc_tui_lines {
	char **v;
	size_t n;
} amc_tui_lines;

/* A swipe's x1,y1 -> x2,y2 arguments; 1 when the step has them. */
int amc_tui_steptext_swipe(const amc_step_row *s, int p[4]);
/* The action's target in image pixels (the matched element's centre, or a
 * coordinate tap's x/y); 1 when there is one. */
int amc_tui_steptext_target(const amc_step_row *s, int *x, int *y);
/* The matched element's bounds {x1, y1, x2, y2}; 1 when the result has them. */
int amc_tui_steptext_target_box(const amc_step_row *s, int box[4]);
void amc_tui_steptext_add(amc_tui_lines *l, const char *s);
/* "label:" then each line of text indented by two. */
void amc_tui_steptext_add_multi(amc_tui_lines *l, const char *label, const char *text);
/* label + the error's message; its "on screen: 'a', 'b'" list one item a line. */
void amc_tui_steptext_add_error(amc_tui_lines *l, const char *label, const char *err, const char *indent);
/* "source: FILE:LINE" and up to three lines either side, the step's marked
 * ">": from the copy stored with the task in st (storage/sources.h), else
 * from the file (st NULL: the file). */
void amc_tui_steptext_add_source(amc_tui_lines *l, const amc_store *st, const amc_step_row *s);
void amc_tui_steptext_add_json(amc_tui_lines *l, const char *label, const char *json);
/* "target: "Battery" at 135,330" or a swipe's path. */
void amc_tui_steptext_add_target(const amc_step_row *s, amc_tui_lines *l);
void amc_tui_steptext_free(amc_tui_lines *l);
/* `s` (raw; sanitized here) as rows of at most w columns appended to out,
 * continuation rows indented as the first (plus two). */
void amc_tui_steptext_wrap(amc_tui_lines *out, const char *s, int w);
/* 1 when s is a numbered flow source line of amc_tui_steptext_add_source. */
int amc_tui_steptext_is_source(const char *s);
/* A source line (or any line: then as amc_tui_steptext_wrap) as rows of at
 * most w columns, the YAML never broken before its trailing comment: code
 * that fits stays one row (the comment cut where drawn); longer code wraps
 * under a number-less gutter "      | ". */
void amc_tui_steptext_wrap_source(amc_tui_lines *out, const char *s, int w);
/* A copy of err (caller frees) where the path of the flow file named by the
 * step's source ("flow command at PATH:LINE") is its base name. */
char *amc_tui_steptext_short_error(const char *err, const amc_step_row *s);
/* The task's error in its own box (titled Error, or Cancelled / Interrupted
 * for those statuses) at row y, full width w, at most a third of
 * h rows (at least 5); returns the rows used. */
int amc_tui_steptext_error_box(const char *err, const char *status, int y, int w, int h);
/* The running step's row under the timeline into buf: " 4 ▶ plan ...", or
 * "     STATUS" when there is no phase or it is of a step already recorded. */
void amc_tui_steptext_phase_row(char *buf, size_t n, const char *phase, int step, int last_recorded, const char *status);
/* The Operation pane's lines wrapped to w columns into rows (source lines
 * by amc_tui_steptext_wrap_source); returns each row's AMC_EL_* colour
 * (caller frees), the failing step's error and flow line in the error's. */
signed char *amc_tui_steptext_rows(const amc_tui_lines *l, int w, int failed, amc_tui_lines *rows);
/* On a pane's bottom edge (row y, box at x, w wide): " more ↓ " / " ↑ more "
 * when rows lie below or above the page of n rows shown from top. */
void amc_tui_steptext_more(int y, int x, int w, long top, int page, size_t n, int focused);

#endif
