#include "cli/tty_operator.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util/sanitize.h"
#include "util/strbuf.h"

#define ANSWER_MAX 2000

typedef struct tty_op {
	FILE *f;
} tty_op;

static int read_line(FILE *f, char **out)
{
	char buf[ANSWER_MAX + 2];
	if (!fgets(buf, sizeof buf, f))
		return -1;
	buf[strcspn(buf, "\r\n")] = 0;
	*out = amc_xstrdup(buf);
	return 0;
}

static void put_safe(FILE *f, const char *s)
{
	char *t = amc_sanitize_dup(s ? s : "");
	fputs(t, f);
	free(t);
}

static int tty_ask(amc_operator *op, const char *task_id, const char *question, char **answer, amc_err *e)
{
	tty_op *t = op->impl;
	fprintf(t->f, "\r\033[K\namc: task %.8s asks:\n  ", task_id);
	put_safe(t->f, question);
	fputs("\nanswer> ", t->f);
	fflush(t->f);
	if (read_line(t->f, answer) != 0)
		return amc_err_set(e, AMC_EFAIL, "the terminal closed before an answer was given");
	return 0;
}

static int tty_confirm(amc_operator *op, const char *task_id, const char *action, const char *element,
		       const char *word, amc_err *e)
{
	tty_op *t = op->impl;
	fprintf(t->f, "\r\033[K\namc: task %.8s wants to %s on '", task_id, action);
	put_safe(t->f, element);
	fputs("', which looks irreversible ('", t->f);
	put_safe(t->f, word);
	fputs("').\nAllow it? [y/N] ", t->f);
	fflush(t->f);
	char *a = NULL;
	if (read_line(t->f, &a) != 0) {
		amc_err_set(e, AMC_EFAIL, "the terminal closed before an answer was given");
		return -1;
	}
	int yes = (a[0] == 'y' || a[0] == 'Y') && (!a[1] || !strcasecmp(a, "yes"));
	free(a);
	return yes;
}

static const amc_operator_ops TTY_OPS = { tty_ask, tty_confirm };

int amc_tty_operator_open(amc_operator **out, amc_err *e)
{
	*out = NULL;
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return amc_err_set(e, AMC_EENV, "no terminal to ask the operator on");
	FILE *f = fdopen(fd, "r+");
	if (!f) {
		close(fd);
		return amc_err_set(e, AMC_EENV, "cannot use the terminal");
	}
	tty_op *t = amc_xcalloc(1, sizeof *t);
	t->f = f;
	amc_operator *op = amc_xcalloc(1, sizeof *op);
	op->ops = &TTY_OPS;
	op->impl = t;
	*out = op;
	return 0;
}

void amc_tty_operator_close(amc_operator *op)
{
	if (!op)
		return;
	tty_op *t = op->impl;
	if (t && t->f)
		fclose(t->f);
	free(t);
	free(op);
}
