/* report.h - a recorded task as something to hand on (docs/reports.md):
 * `amc export TASK --html FILE` (report/html.c: one self-contained page),
 * `--json` (every record as one JSON document) and `--dir DIR` (that JSON
 * beside copies of the task's artifacts).
 *
 * Sits beside cli/ on top of storage: it reads a task through the store and
 * never changes it. Every string from a device, OCR, a model or a file is
 * escaped for where it goes (HTML, JSON); secrets were masked before the
 * records were written, so what is exported is what is stored. */
#ifndef AMC_REPORT_H
#define AMC_REPORT_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "storage/store.h"
#include "util/err.h"
#include "util/strbuf.h"

/* A task with everything recorded for it. Owned; free with amc_report_free. */
typedef struct amc_report_task {
	amc_task_row task;
	amc_step_row *steps;
	size_t nsteps;
	amc_decision_row *decisions;
	size_t ndecisions;
} amc_report_task;

/* Load a task by id or unique prefix (the store's messages for unknown or
 * ambiguous ids). */
int amc_report_load(amc_store *s, const char *id_or_prefix, amc_report_task *out, amc_err *e);
void amc_report_free(amc_report_task *t);

/* A coding agent's run (planner "agent:claude" / "agent:codex") in words,
 * from its last decision: the CLI and version, the billing, the cost
 * (notional on a subscription), the session and turns. Appended to out; 0
 * when t is no agent run (out untouched). The text holds what the CLI
 * reported: untrusted, so the caller makes it terminal-safe or escapes it.
 * `sep` goes between the parts ("\n" for amc show, "; " for one line). */
int amc_report_agent_summary(const amc_task_row *t, const amc_decision_row *d, size_t n, const char *sep,
			     amc_sb *out);

/* A task row as JSON, in the one shape `amc tasks --json`, `amc show --json`,
 * `amc run --json` and the export's "task" share (unknown values are null).
 * Caller owns the result. */
cJSON *amc_report_task_json(const amc_task_row *t);

/* ---- HTML (report/html.c) ---- */

/* Screenshots are scaled to fit this box (never up) and embedded as JPEG or
 * PNG, whichever is smaller; a 20-step task stays well under 2 MB. */
#define AMC_REPORT_SHOT_MAX_W 270
#define AMC_REPORT_SHOT_MAX_H 600
#define AMC_REPORT_JPEG_QUALITY 70
/* The step index at the top of the page: one thumbnail per step, small
 * enough that 13 steps sit in one row at 1400 px (tests/integration/
 * test_report_browser.sh measures it). */
#define AMC_REPORT_THUMB_W 56
#define AMC_REPORT_THUMB_H 124
/* UI-tree nodes listed per step at most (the rest are counted). */
#define AMC_REPORT_TREE_MAX_NODES 1500

/* The Content-Security-Policy the page carries: nothing is fetched, no script
 * runs; images only from data: URLs, styles only from the page itself. */
#define AMC_REPORT_CSP                                                                \
	"default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; " \
	"form-action 'none'"

/* The whole page into `out`. A screenshot or tree artifact that cannot be
 * read is said so in the page rather than failing the report. */
int amc_report_html(amc_store *s, const amc_report_task *t, amc_sb *out, amc_err *e);

/* Draw step `r`'s target on `img`, a screenshot scaled by `f` from the
 * device's pixels: a tap's element boxed just outside its edges with four
 * ticks outside the box pointing at the point (nothing over the label; a
 * hollow ring when the point is on no scene element), a swipe's path, or
 * the element an assertion matched (result.matched.bounds) boxed in green. */
struct amc_image;
void amc_report_mark_target(struct amc_image *img, double f, const amc_step_row *r);

/* Append `s` HTML-escaped (& < > " ' as entities) after making it
 * terminal-and-page safe (amc_sanitize_text: control, bidi and invalid bytes
 * become visible stand-ins). NULL appends nothing. */
void amc_report_html_escape(amc_sb *out, const char *s);

/* ---- JSON (report/report.c) ---- */

/* The task, its steps (every field of every record, the UI tree of each
 * step's after observation read in from its artifact, usage per step) and its
 * planner decisions as one document:
 * {"format":"amc-task","version":1,"task":{..},"steps":[..],"decisions":[..]}.
 * Artifact paths are absolute when `artifact_dir` is NULL, else relative to
 * it ("artifacts/NAME"), as --dir lays them out. Caller owns the result. */
cJSON *amc_report_json(amc_store *s, const amc_report_task *t, const char *artifact_dir);

/* --dir: DIR/task.json and DIR/artifacts/ with a copy of every screenshot,
 * and tree artifact the records name (one that no longer exists is null in
 * task.json). DIR is created (0700) if missing; an existing DIR must be empty. */
int amc_report_dir(amc_store *s, const amc_report_task *t, const char *dir, amc_err *e);

#endif
