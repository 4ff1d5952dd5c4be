/* operator.h - the person watching a run, as the runner sees them.
 *
 * The runner calls these on its own thread and waits for the answer: a front end
 * (the terminal in `amc run`, the TUI) implements them by showing the question
 * and blocking until the operator replies or the task is cancelled. Strings
 * passed in came from a model or a device: show them only after making them
 * terminal-safe (util/sanitize.h). */
#ifndef AMC_OPERATOR_H
#define AMC_OPERATOR_H

#include "util/err.h"

typedef struct amc_operator amc_operator;

typedef struct amc_operator_ops {
	/* The agent's ask_user: put `question` to the operator. 0 with *answer
	 * (malloc'd, owned by the caller); -1 when nobody can answer (no terminal,
	 * cancelled), e->msg saying why. The task is `waiting_user` meanwhile. */
	int (*ask)(amc_operator *op, const char *task_id, const char *question, char **answer, amc_err *e);
	/* Confirm an irreversible-looking action: `action` is one line ("tap at
	 * 540,1200"), `element` the element's text, `word` the listed word it
	 * matched. 1 yes, 0 no, -1 cannot ask (treated as no). */
	int (*confirm)(amc_operator *op, const char *task_id, const char *action, const char *element,
		       const char *word, amc_err *e);
} amc_operator_ops;

struct amc_operator {
	const amc_operator_ops *ops;
	void *impl;
};

#endif
