/* tty_operator.h - the operator on the controlling terminal (/dev/tty), for
 * headless `amc run`: ask_user questions and irreversible-action confirmations
 * are asked there even when stdin/stdout are redirected. */
#ifndef AMC_TTY_OPERATOR_H
#define AMC_TTY_OPERATOR_H

#include "runtime/operator.h"
#include "util/err.h"

/* Open /dev/tty. -1 (AMC_EENV) when the process has no terminal: then pass no
 * operator to the runner, which fails ask_user clearly and refuses gated actions. */
int amc_tty_operator_open(amc_operator **out, amc_err *e);
void amc_tty_operator_close(amc_operator *op);

#endif
