/* search.h - full-text search over everything amc saw (docs/search.md).
 *
 * The index (storage/search_schema.h) holds, per task, its goal, summary and
 * error, and per step its description, error, planner reasoning and the
 * visible text of its screen (UI-tree text, content descriptions, hints, OCR
 * words), plus the screen the task's newest step left behind. It is written by
 * triggers in the transaction that writes the record and removed with it, and
 * it holds only what the timeline holds: text the runner has already masked.
 *
 * Hits come newest first (the order they were written), one per matching
 * text: a step that matches in its description and its screen is two hits. */
#ifndef AMC_SEARCH_H
#define AMC_SEARCH_H

#include <stddef.h>

#include "perception/uitree.h"
#include "storage/store.h"
#include "util/err.h"

/* Around each match in a hit's snippet. Control bytes, so they cannot be
 * confused with text: a reader splits on them, then makes each piece safe. */
#define AMC_SEARCH_MARK_ON '\x02'
#define AMC_SEARCH_MARK_OFF '\x03'

/* Longest query accepted (bytes), and the most hits one call returns. */
#define AMC_SEARCH_QUERY_MAX 1024
#define AMC_SEARCH_LIMIT_MAX 1000

typedef struct amc_search_query {
	const char *text;       /* the words, or an FTS5 expression when fts is set */
	int fts;                /* 0: every word is quoted (amc_search_quote); 1: FTS5 syntax */
	const char *task_id;    /* a full task id; NULL: every task */
	const char *status;     /* a task status; NULL: any */
	long long since_ms;     /* texts written at or after this time; 0: any */
	int limit;              /* <= 0: 20; at most AMC_SEARCH_LIMIT_MAX */
	long long before_id;    /* paging: hits older than this hit id; 0: from the newest */
} amc_search_query;

typedef struct amc_search_hit {
	long long id;           /* the hit's order: larger is newer (before_id for the next page) */
	char *task_id;
	int step;               /* 0: the task itself (goal, summary, task_error) */
	char *field;            /* goal, summary, task_error, description, error, reasoning, screen, after_screen */
	char *snippet;          /* untrusted text with AMC_SEARCH_MARK_ON/OFF around the matches */
	long long created_ms;   /* when the text was written (the step's record, the task's creation or end) */
	char *task_status;
	char *task_title;       /* the goal, else the flow's name, else its file; may be NULL */
	char *tool;             /* the step's tool, NULL for step 0 */
} amc_search_hit;

/* Search. *out is an array of *n hits (owned by the caller: amc_search_hits_free).
 * A bad FTS5 expression (fts = 1), an empty query, an unknown status or a
 * malformed task id is AMC_EUSAGE with a message that says what to change. */
int amc_store_search(amc_store *s, const amc_search_query *q, amc_search_hit **out, size_t *n, amc_err *e);
void amc_search_hits_free(amc_search_hit *hits, size_t n);

/* Plain words as an FTS5 expression: each whitespace-separated word becomes
 * one quoted string (inner quotes doubled), all of them required, so
 * "Wi-Fi" and "it's" mean themselves and AND, OR, NOT and a trailing * are ordinary text.
 * NULL when there is no word. Caller frees. */
char *amc_search_quote(const char *words);

/* The visible text of one observation for the index: each displayed node's
 * text, content description and hint (never a password field's), then the
 * OCR words (`ocr_json` as stored in timeline records; NULL or invalid: none),
 * one per line, each distinct text once, bounded to AMC_SEARCH_SCREEN_MAX
 * bytes. `tree` may be NULL. Caller frees; never NULL. */
#define AMC_SEARCH_SCREEN_MAX (64 * 1024)
char *amc_search_visible_text(const amc_ui_tree *tree, const char *ocr_json);

#endif
