/* pending.h - a question for a person, across processes: the confirmation of
 * an irreversible-looking action asked by a process that has no terminal of
 * its own (`amc mcp`, whose stdin and stdout belong to the MCP client) and
 * answered in amc's TUI, run by a person in another terminal on the same
 * $AMC_HOME.
 *
 * The rendezvous is two small files directly in $AMC_HOME (where the TUI
 * already watches for the database's writes with inotify, so a question
 * wakes it at once):
 *   confirm-TASKID.ask     {"task","text","asked_ms","pid"}, written by the asker
 *   confirm-TASKID.answer  "yes\n" or "no\n", written by the TUI
 * Both are written to a temporary name and renamed (never read half
 * written), mode 0600, and removed by the asker when it stops waiting
 * (answered, timed out, cancelled). One question per task at a time: a task
 * asks one step at a time. A question whose asker died (its pid is gone) is
 * not listed. Everything read from the files is untrusted and bounded. */
#ifndef AMC_PENDING_H
#define AMC_PENDING_H

#include <stdatomic.h>
#include <stddef.h>

#include "util/err.h"
#include "util/ids.h"

/* The question's text is cut to this many bytes. */
#define AMC_PENDING_TEXT_MAX 1024

/* Ask and wait at most timeout_ms for the answer, polling *cancel (may be
 * NULL). 1 yes, 0 no, timed out or cancelled (e says which: the reason the
 * action is refused), -1 the question could not be written (e says why). */
int amc_pending_ask(const char *home, const char *task_id, const char *text, long timeout_ms, atomic_int *cancel,
		    amc_err *e);

typedef struct amc_pending {
	char task[AMC_ID_SIZE];
	char text[AMC_PENDING_TEXT_MAX + 1]; /* as written: make it terminal-safe before showing it */
	long long asked_ms;
} amc_pending;

/* The questions waiting for an answer, oldest first. *out (caller frees) has
 * *n entries; 0 with *n = 0 when none. */
int amc_pending_list(const char *home, amc_pending **out, size_t *n, amc_err *e);

/* Answer the question of `task_id`: yes (1) or no (0). -1 when there is no
 * such question (it timed out meanwhile) or the answer cannot be written. */
int amc_pending_answer(const char *home, const char *task_id, int yes, amc_err *e);

#endif
