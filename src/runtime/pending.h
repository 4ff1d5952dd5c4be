/* pending.h - a question for a person, across processes: the confirmation of
 * an irreversible-looking action asked by a process that has no terminal of
 * its own (`amc mcp`, whose stdin and stdout belong to the MCP client) and
 * answered in amc's TUI, run by a person in another terminal on the same
 * $AMC_HOME.
 *
 * The rendezvous is two small files directly in $AMC_HOME (where the TUI
 * already watches for the database's writes with inotify, so a question
 * wakes it at once):
 *   confirm-TASKID.ask     {"task","action","target","word","reason","asker",
 *                           "asked_ms","until_ms","pid"}, written by the asker
 *   confirm-TASKID.answer  "yes SECRET\n" or "no\n", written by the TUI
 *   confirm-TASKID.secret  the question's random secret (hex), by the asker
 * Both are written to a temporary name and renamed (never read half
 * written), mode 0600, and removed by the asker when it stops waiting
 * (answered, timed out, cancelled). One question per task at a time: a task
 * asks one step at a time. A question is not listed once answered, when its
 * asker died (its pid is gone) or when its time is up (a stale file whose pid
 * was reused). Everything read from the files is untrusted and bounded. */
#ifndef AMC_PENDING_H
#define AMC_PENDING_H

#include <stdatomic.h>
#include <stddef.h>

#include "util/err.h"
#include "util/ids.h"

/* The answer file must read "yes SECRET" where SECRET is the question's
 * random secret, kept in confirm-TASKID.secret (0600), not in the .ask file:
 * a bare "yes" written by anyone else is a refusal. This holds against an
 * agent limited to amc's tools; an agent with a shell as the same user can
 * read the secret as the user can (docs/mcp.md, threat model). */
#define AMC_PENDING_SECRET_BYTES 16

/* Each field is cut to this many bytes; an .ask file over 8 KiB is ignored. */
#define AMC_PENDING_TEXT_MAX 1024

/* What is asked: the action and why. Strings may be NULL (""). */
typedef struct amc_pending_q {
	const char *action;  /* one line: "tap at 540,1200", "tap element 12" */
	const char *target;  /* the element's text */
	const char *word;    /* the irreversible-action word it matched */
	const char *reason;  /* the asker's stated reason (an MCP client's `reason`) */
	const char *asker;   /* who asks: "MCP client NAME on DEVICE" */
} amc_pending_q;

/* Ask and wait at most timeout_ms for the answer, polling *cancel (may be
 * NULL). 1 yes; 0 no, timed out or cancelled, e->code saying which
 * (AMC_EUSAGE an answer without the question's secret, AMC_EFAIL the person refused, AMC_EENV nobody answered in time,
 * AMC_ECANCEL cancelled) and e->msg in words; -1 the question could not be
 * written (e says why). */
int amc_pending_ask(const char *home, const char *task_id, const amc_pending_q *q, long timeout_ms,
		    atomic_int *cancel, amc_err *e);

/* A question as read back: as written, untrusted (make every string
 * terminal-safe before showing it). */
typedef struct amc_pending {
	char task[AMC_ID_SIZE];
	char action[AMC_PENDING_TEXT_MAX + 1];
	char target[AMC_PENDING_TEXT_MAX + 1];
	char word[AMC_PENDING_TEXT_MAX + 1];
	char reason[AMC_PENDING_TEXT_MAX + 1];
	char asker[AMC_PENDING_TEXT_MAX + 1];
	long long asked_ms;  /* wall clock (util/clock.h amc_now_ms) */
	long long until_ms;  /* when the asker stops waiting (refuses) */
} amc_pending;

/* The questions waiting for an answer, oldest first. *out (caller frees) has
 * *n entries; 0 with *n = 0 when none. */
int amc_pending_list(const char *home, amc_pending **out, size_t *n, amc_err *e);

/* 1 while the question of task_id asked at asked_ms still waits for its
 * answer (not answered, withdrawn, replaced by a newer one or out of time). */
int amc_pending_waiting(const char *home, const char *task_id, long long asked_ms);

/* Answer the question of `task_id`: yes (1) or no (0). -1 when there is no
 * such question (it timed out meanwhile) or the answer cannot be written. */
int amc_pending_answer(const char *home, const char *task_id, int yes, amc_err *e);

#endif
