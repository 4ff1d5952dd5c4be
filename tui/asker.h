/* asker.h - the TUI asks its user for the runners: an amc_operator
 * (runtime/operator.h) whose questions the UI thread shows as dialogs. The
 * name is not "operator" so that it is not taken for runtime/operator.h.
 *
 * A runner thread calling ask or confirm posts the question here, writes one
 * byte to the app's wake pipe and waits on a condition variable; the UI thread
 * takes the question (amc_tui_asker_take), shows a dialog and answers
 * (amc_tui_asker_answer). Cancelling the task or closing the operator
 * unblocks the runner thread with "no answer". */
#ifndef AMC_TUI_ASKER_H
#define AMC_TUI_ASKER_H

#include "runtime/operator.h"

typedef struct amc_tui_asker amc_tui_asker;

/* A question as the UI thread sees it: a copy, strings owned by the question
 * (amc_tui_question_free); already terminal-safe. */
typedef struct amc_tui_question {
	unsigned long seq;   /* names it for amc_tui_asker_answer */
	int confirm;         /* 0: ask_user, 1: confirm an irreversible action */
	char task[32];
	char *text;          /* the question, or the action ("tap at 540,1200") */
	char *element;       /* confirm: the element's text ("" none) */
	char *word;          /* confirm: the listed word it matched ("" none) */
} amc_tui_question;

/* wake_fd is written (one byte, nonblocking) when a question arrives; not owned. */
amc_tui_asker *amc_tui_asker_new(int wake_fd);
/* The amc_operator to hand to amc_runner_set_agent_opts; owned by o. */
amc_operator *amc_tui_asker_base(amc_tui_asker *o);
/* UI thread: the oldest question not yet taken; 1 with *q filled, 0 none. */
int amc_tui_asker_take(amc_tui_asker *o, amc_tui_question *q);
void amc_tui_question_free(amc_tui_question *q);
/* UI thread: 1 while question seq still waits for its answer. */
int amc_tui_asker_waiting(amc_tui_asker *o, unsigned long seq);
/* Answer question seq: ok 1 with `answer` (ask; copied) or yes (confirm);
 * ok 0: no answer (ask fails, the action is refused). Unknown seq: ignored. */
void amc_tui_asker_answer(amc_tui_asker *o, unsigned long seq, int ok, const char *answer);
/* Unblock the questions of task_id (NULL: of every task) with no answer. */
void amc_tui_asker_cancel(amc_tui_asker *o, const char *task_id);
/* From now on every question fails at once ("the terminal went away"); the
 * waiting ones are unblocked. Call before stopping the runners. */
void amc_tui_asker_shutdown(amc_tui_asker *o);
/* After the runners are stopped. NULL is fine. */
void amc_tui_asker_free(amc_tui_asker *o);

#endif
