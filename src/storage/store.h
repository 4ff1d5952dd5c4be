/* store.h - amc's history: one SQLite file ($AMC_HOME/amc.db, WAL) plus
 * artifacts under $AMC_HOME/artifacts/<task-id>/.
 *
 * One amc_store is one connection: use it from one thread at a time (each runner
 * thread opens its own). Strings in rows are malloc'd and owned by the row; free
 * rows with the matching _free function.
 *
 * Invariants (tests/unit/test_store.c checks each):
 *  - create_task is idempotent: a second call with the same id is a no-op.
 *  - schema versions via PRAGMA user_version; older databases migrate on open and
 *    legacy timeline records (only screenshot_path, which is the after image) stay
 *    readable.
 *  - artifacts are written to a temp name and renamed; rows never point at
 *    incomplete files. Paths in rows are relative to $AMC_HOME.
 *  - retention removes tasks, their timeline records and artifacts together, by
 *    count and age, never a task that is running; a file is deleted only when no
 *    remaining record references it.
 *  - opening the store marks tasks whose owner died (their device lock is free)
 *    `interrupted`, keeping their finished steps. */
#ifndef AMC_STORE_H
#define AMC_STORE_H

#include <stddef.h>
#include "util/err.h"
#include "util/ids.h"

#define AMC_STORE_SCHEMA_VERSION 8

typedef struct amc_store amc_store;

typedef struct amc_task_row {
	char *id;
	char *kind;            /* "flow" or "goal" */
	char *goal;            /* free goal text, or NULL */
	char *flow_path;       /* flow file, or NULL */
	char *flow_name;       /* display name of the flow, or NULL */
	char *device;          /* "sim:0" */
	char *planner;         /* the planner's name: "flow", "llm", "external" */
	char *status;          /* a name of util/status.h's table */
	long long created_ms, started_ms, finished_ms; /* 0 = not yet */
	int steps;
	int max_steps;
	char *summary;
	char *error;
	long long input_tokens, output_tokens; /* -1 = unknown */
	double cost_usd;                       /* < 0 = unknown */
	char *source_task_id;  /* generic correlation, NULL when none */
	int source_attempt;    /* -1 when none */
	long owner_pid;        /* process running it */
	char *lock_name;       /* device lock held while running */
} amc_task_row;

typedef struct amc_step_row {
	char *task_id;
	int step;              /* 1-based */
	char *tool;
	char *args;            /* JSON text */
	char *description;
	char *status;          /* "ok", "failed" */
	char *result;          /* JSON text or NULL */
	char *error;
	char *before_screenshot;  /* relative artifact path or NULL */
	char *after_screenshot;
	char *screenshot_path;    /* legacy: = after */
	char *ocr;                /* JSON text, "[]" when none */
	char *ui_tree;            /* normalized tree JSON: only for get_ui_tree/ui_tree records */
	char *ui_tree_path;       /* artifact with the normalized tree of the after observation */
	char *scene;              /* JSON or NULL */
	char *semantic_scene;     /* JSON or NULL */
	char *reasoning;
	char *timings;            /* JSON {"observe_ms":..,"plan_ms":..,...} */
	long long started_ms, finished_ms;
	char *tree_diff;          /* JSON of runtime/stepdiff.h (tree diff, pixels, "changed nothing"), or
				     NULL: recorded before version 4 or by a writer that computed none */
	/* Search (storage/search.h): the visible text of the before and after
	 * observations, masked, one item a line (amc_search_visible_text). Written
	 * for the index only: amc_store_get_steps leaves them NULL. NULL
	 * screen_text: the index reads the scene, OCR and UI tree JSON instead. */
	char *screen_text;
	char *after_text;
} amc_step_row;

/* Orders of the task list; every one ends in id, so it is total. */
typedef enum amc_task_sort {
	AMC_SORT_NEWEST,       /* created_ms, id: newest first (the default) */
	AMC_SORT_OLDEST,       /* created_ms, id: oldest first */
	AMC_SORT_STATUS,       /* status A-Z, then newest first */
	AMC_SORT_DURATION,     /* finished - started, longest first; unfinished last; then newest */
	AMC_SORT_COUNT
} amc_task_sort;

typedef struct amc_task_filter {
	const char *status;    /* NULL = any */
	const char *search;    /* substring of goal/flow name/id (ASCII case-insensitive, % and _ literal), NULL = none */
	int limit;             /* <= 0: 50 */
	int offset;            /* amc_store_list_tasks only (deep offsets cost O(offset)) */
	amc_task_sort sort;    /* 0: newest first */
} amc_task_filter;

int amc_store_open(const char *home, amc_store **out, amc_err *e);
void amc_store_close(amc_store *s);
/* WAL checkpoints of this store's writes: run by the background thread, and
 * inline on a commit (only when the thread fell behind; storage/checkpoint.h).
 * `drain`: wait for a checkpoint under way first. */
void amc_store_checkpoint_counts(amc_store *s, int drain, long *background, long *inline_count);
const char *amc_store_home(const amc_store *s);
/* Tasks that were `running`/`waiting_user` and whose device lock is free now
 * (or held for another task: its note names a different task id) become
 * `interrupted`, as do `queued` rows whose owner pid is gone (ESRCH). Finished
 * steps are kept. Called by amc_store_open; returns how many. */
int amc_store_recover(amc_store *s, amc_err *e);

int amc_store_create_task(amc_store *s, const amc_task_row *t, amc_err *e);
/* Write the mutable fields (status, times, steps, summary, error, usage, owner). */
int amc_store_update_task(amc_store *s, const amc_task_row *t, amc_err *e);
/* Exact id or unique prefix; unknown -> AMC_EUSAGE "no task ...", ambiguous -> AMC_EUSAGE listing. */
int amc_store_get_task(amc_store *s, const char *id_or_prefix, amc_task_row *out, amc_err *e);
/* Git-style abbreviation: the shortest prefix of the full id `id`, at least
 * AMC_SHORT_ID_LEN characters, that no other task id in this database shares,
 * written to `out` (caller's buffer). Not a full id: copied as it is. */
int amc_store_short_id(amc_store *s, const char *id, char out[AMC_ID_SIZE], amc_err *e);
/* One length (>= AMC_SHORT_ID_LEN) at which every task id of the database is
 * unique, for tables whose ID column should line up; -1 on error. */
int amc_store_short_id_len(amc_store *s, amc_err *e);
/* Newest first. *out is an array of n rows; free with amc_task_rows_free. */
int amc_store_list_tasks(amc_store *s, const amc_task_filter *f, amc_task_row **out, size_t *n, amc_err *e);
long amc_store_count_tasks(amc_store *s, const amc_task_filter *f, amc_err *e);
/* Keyset paging: up to f->limit rows next to `anchor` (a row of the same
 * filter and sort, only its key fields are read) in f->sort's order, at a
 * cost of O(limit) however deep the anchor is. dir > 0: the rows after it;
 * dir < 0: the rows before it (still returned in list order); dir == 0: the
 * anchor's own row and those after it (gone: the next ones). A NULL anchor
 * means the start of the list (dir >= 0) or its end (dir < 0). f->offset is
 * ignored. */
int amc_store_list_tasks_at(amc_store *s, const amc_task_filter *f, const amc_task_row *anchor, int dir,
			    amc_task_row **out, size_t *n, amc_err *e);
/* How many rows of the filter come before `anchor` in f->sort's order. */
long amc_store_count_tasks_before(amc_store *s, const amc_task_filter *f, const amc_task_row *anchor, amc_err *e);
const char *amc_store_sort_name(amc_task_sort sort);
void amc_task_row_free(amc_task_row *t);
void amc_task_rows_free(amc_task_row *rows, size_t n);

int amc_store_add_step(amc_store *s, const amc_step_row *r, amc_err *e);
/* Steps of a task in order; legacy rows get after_screenshot filled from screenshot_path. */
int amc_store_get_steps(amc_store *s, const char *task_id, amc_step_row **out, size_t *n, amc_err *e);
void amc_step_row_free(amc_step_row *r);
void amc_step_rows_free(amc_step_row *rows, size_t n);

/* Write an artifact atomically as artifacts/<task_id>/<name> (0600, folders 0700).
 * `relpath` receives the path relative to $AMC_HOME. */
int amc_store_put_artifact(amc_store *s, const char *task_id, const char *name,
			   const void *data, size_t len, char *relpath, size_t relpath_n, amc_err *e);
/* The same for a screenshot ("*.png"), stored once when seen again: bytes
 * equal to one of the last AMC_STORE_SEEN_FRAMES screenshots this handle
 * stored (compared byte for byte with the file, which must still be there)
 * are not written again, `relpath` names that earlier file (perhaps another
 * task's: artifact_xrefs then keeps it through retention), and a thumbnail
 * already written for `name` is removed (the earlier file has its own). */
int amc_store_put_frame(amc_store *s, const char *task_id, const char *name, const void *data, size_t len,
			char *relpath, size_t relpath_n, amc_err *e);
/* A file a step made besides its screenshots (a recording, a named or
 * cropped screenshot, a comparison's diff): its result JSON's `key` ("file"
 * or "diff") when that is an artifact path ("artifacts/..."), into out.
 * 0 found; -1 none. */
int amc_store_step_file(const char *result_json, const char *key, char *out, size_t n);
/* Absolute path of a relative artifact path, refusing anything outside $AMC_HOME/artifacts. */
int amc_store_artifact_abspath(const amc_store *s, const char *relpath, char *out, size_t n, amc_err *e);
/* Screenshot thumbnails: "obs-0001.png" may have its thumbnail beside it as
 * "obs-0001.thumb.png" (longest side AMC_STORE_THUMB_SIDE px, never upscaled),
 * made by the first reader that needs it (amc_store_thumb_get). No row names
 * a thumbnail: readers derive its path.
 * thumb_path writes the thumbnail's path for a ".png" path; -1 when `path` does
 * not end in ".png", is a thumbnail already, or `out` is too small. */
#define AMC_STORE_THUMB_SIDE 480
int amc_store_thumb_path(const char *path, char *out, size_t n);
/* Scale `img` down and write it atomically as the thumbnail of artifact
 * artifacts/<task_id>/<name> (call it before any row names that artifact). */
/* Make room when the disk is full: remove the files in the task's artifacts
 * folder that no timeline row of the task names (nor is the thumbnail of one
 * that a row names), i.e. the evidence of a step that could not be recorded;
 * the task's stored source (source*, storage/sources.h) stays. Returns how many files went, or -1 with e when the rows cannot be read. */
int amc_store_free_unrecorded(amc_store *s, const char *task_id, amc_err *e);
/* A little disk kept back for the end of a task: a file ($AMC_HOME/reserve,
 * AMC_STORE_RESERVE_BYTES) that the runner makes sure of before a task's first
 * step and gives up when a full disk would otherwise keep the task's end from
 * being recorded. keep: 0 when the file is there (or the file system cannot
 * say: only a full disk counts), -1 with e (AMC_EENV) when the disk is too
 * full to keep it. release: 1 when the file was removed, 0 when there was
 * none. Tasks running at once share the one file. */
#define AMC_STORE_RESERVE_BYTES (256 * 1024)
int amc_store_reserve_keep(amc_store *s, amc_err *e);
int amc_store_reserve_release(amc_store *s);
struct amc_image;
int amc_store_put_thumbnail(amc_store *s, const char *task_id, const char *name,
			    const struct amc_image *img, amc_err *e);
/* The thumbnail of the screenshot at `png_abspath`, made when first needed
 * (the runner writes none: ~15 KB and a scale and an encode per step that
 * most steps never need): read from beside the screenshot when it is there,
 * else scaled from `full` (the screenshot's pixels; NULL: the file is
 * decoded) and written beside it (temp name + rename, 0600) for the next
 * reader. A thumbnail that cannot be written (a read-only home, a folder
 * retention removed) is still returned. *out is the caller's to free;
 * *made (may be NULL) says whether a file was written. */
/* 1 when the screenshot at `png_abspath` has a thumbnail no older than it
 * (a capture rewritten under one name, as the TUI's device view does, needs a
 * new one), its path written to `out`; else 0. */
int amc_store_thumb_current(const char *png_abspath, char *out, size_t n);
int amc_store_thumb_get(const char *png_abspath, const struct amc_image *full, struct amc_image *out, int *made,
			amc_err *e);

typedef struct amc_retention_opts {
	long keep;          /* newest N tasks kept; <= 0: no count limit */
	long max_age_days;  /* older removed; <= 0: no age limit */
	int dry_run;
} amc_retention_opts;

typedef struct amc_retention_report {
	long tasks, steps, files;
	long long bytes;
	/* time spent in the file system's unlinks and rmdirs (benches): the
	 * wall time of the pass that makes only those calls, from several
	 * threads at once (retention.c), never the sum over the threads */
	long long unlink_us;
} amc_retention_report;

int amc_store_retention(amc_store *s, const amc_retention_opts *o, amc_retention_report *r, amc_err *e);

/* Planner decisions (storage/decisions.c, docs/llm.md): one row per model call
 * of a planner. Strings owned by the row. */
typedef struct amc_decision_row {
	long long id;
	char *task_id;
	int step;               /* the task step being planned (1-based) */
	int attempt;            /* task source_attempt, -1 when none */
	long long created_ms;
	char *planner, *model;
	char *system_prompt;    /* the stable prefix as sent */
	char *user_prompt;      /* the step's user text as sent (images as artifact references) */
	char *tool;             /* tool called, or NULL */
	char *args;             /* JSON text, or NULL */
	char *outcome;          /* "act", "done", "fail" */
	long long input_tokens, output_tokens; /* -1 unknown */
	double cost_usd;        /* < 0 unknown */
	char *detail;           /* JSON: stop_reason, request_id, attempts, cache tokens, error */
} amc_decision_row;

int amc_store_add_decision(amc_store *s, const amc_decision_row *d, amc_err *e);
/* In step order. */
int amc_store_get_decisions(amc_store *s, const char *task_id, amc_decision_row **out, size_t *n, amc_err *e);
void amc_decision_rows_free(amc_decision_row *rows, size_t n);
/* Keep the decisions of the newest `keep_tasks` tasks that have any; delete the
 * rest (bounded retention, beside the task retention that removes them with
 * their task). Returns rows deleted, -1 on error. */
long amc_store_prune_decisions(amc_store *s, long keep_tasks, amc_err *e);

/* Raw handle for tests and the bench tool. */
struct sqlite3 *amc_store_db(amc_store *s);

/* ---- answers and the task suite (suite.c) ---- */

/* An information task's answer (a planner's finish answer, a flow's), at most
 * AMC_STORE_ANSWER_MAX bytes (longer is cut at a character boundary). */
#define AMC_STORE_ANSWER_MAX 4096
int amc_store_set_task_answer(amc_store *s, const char *task_id, const char *answer, amc_err *e);
/* *out: the answer (malloc'd) or NULL when the task has none. */
int amc_store_get_task_answer(amc_store *s, const char *task_id, char **out, amc_err *e);

/* One run of a task template by `amc bench tasks`: what ran, with which
 * parameters and configuration, and how its check judged the result. */
typedef struct amc_suite_row {
	char *suite_id;        /* one `amc bench tasks` invocation */
	char *task_id;         /* the ordinary task it ran as (NULL: it never started) */
	char *template_name;
	long long seed;
	char *params;          /* JSON object */
	char *planner;         /* "flow", "llm", "mcp" */
	char *model;           /* NULL for flows */
	char *device;
	char *amc_version, *amc_commit;
	char *config;          /* JSON: the relevant configuration (max steps, ocr, confirm policy, ...) */
	int passed;
	char *reason;          /* the check's "found X, expected Y", or why the run failed */
	char *answer;
	int confirm_asked;     /* confirmations the bench was asked */
	int steps;
	long long input_tokens, output_tokens; /* -1 unknown */
	double cost_usd;       /* < 0 unknown */
	long long wall_ms;
	long long created_ms;
} amc_suite_row;

int amc_store_add_suite_row(amc_store *s, const amc_suite_row *r, amc_err *e);
/* The rows of one suite run (suite_id) in the order they were added. */
int amc_store_get_suite_rows(amc_store *s, const char *suite_id, amc_suite_row **out, size_t *n, amc_err *e);
void amc_suite_rows_free(amc_suite_row *rows, size_t n);

#endif
