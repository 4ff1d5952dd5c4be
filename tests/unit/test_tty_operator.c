/* test_tty_operator.c - the operator on /dev/tty (cli/tty_operator.c): a
 * process without a controlling terminal gets a clear error; on a pseudo
 * terminal, questions and confirmations are shown terminal-safe and the typed
 * answers come back (y/yes allow, anything else refuses, end of input fails).
 * The operator runs in a child whose controlling terminal is the pty; it
 * reports each result on a pipe, and the parent plays the person typing. */
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "cli/tty_operator.h"
#include "util/clock.h"

static void report(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(int fd, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > 0 && write(fd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1) < 0)
		_exit(3);
}

/* Read everything the child reports until it exits. */
static char *collect(int fd)
{
	static char out[8192];
	size_t len = 0;
	ssize_t r;
	while (len + 1 < sizeof out && (r = read(fd, out + len, sizeof out - 1 - len)) > 0)
		len += (size_t)r;
	out[len] = 0;
	return out;
}

static void test_no_terminal(void)
{
	int p[2];
	if (pipe(p) != 0) {
		ok(0, "pipe: %s", strerror(errno));
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		setsid(); /* a new session has no controlling terminal */
		amc_operator *op = (amc_operator *)1;
		amc_err e;
		int rc = amc_tty_operator_open(&op, &e);
		report(p[1], "%d %d %d %s\n", rc, op == NULL, e.code, rc ? e.msg : "");
		_exit(0);
	}
	close(p[1]);
	char *out = collect(p[0]);
	close(p[0]);
	waitpid(pid, NULL, 0);
	int rc = 0, null = 0, code = 0;
	char msg[512] = "";
	sscanf(out, "%d %d %d %511[^\n]", &rc, &null, &code, msg);
	is_int(rc, -1, "without a controlling terminal opening fails");
	ok(null, "and gives no operator");
	is_int(code, AMC_EENV, "an environment error");
	like(msg, "no terminal", "the message says there is no terminal");
	amc_tty_operator_close(NULL); /* harmless */
}

#define TASK "0123456789abcdef"

static void child(int rep)
{
	amc_operator *op = NULL;
	amc_err e;
	if (amc_tty_operator_open(&op, &e) != 0) {
		report(rep, "open failed %s\n", e.msg);
		_exit(1);
	}
	report(rep, "open ok\n");
	char *a = NULL;
	int rc = op->ops->ask(op, TASK, "Which PIN?\033[31m (4 digits)", &a, &e);
	report(rep, "ask %d [%s]\n", rc, rc == 0 ? a : e.msg);
	free(a);
	static const char *const words[] = { "y", "Y", "yes", "YES", "yeah", "", "n" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		rc = op->ops->confirm(op, TASK, "tap at 540,1200", "Delete all\033]0;x\007", "delete", &e);
		report(rep, "confirm %d\n", rc);
	}
	a = NULL;
	rc = op->ops->ask(op, TASK, "Still there?", &a, &e);
	report(rep, "eof-ask %d [%s]\n", rc, rc == 0 ? a : e.msg);
	free(a);
	rc = op->ops->confirm(op, TASK, "tap", "OK", "ok", &e);
	report(rep, "eof-confirm %d [%s]\n", rc, e.msg);
	amc_tty_operator_close(op);
	_exit(0);
}

/* Read the terminal's output until `needle` shows up (2 s at most). */
static int expect(int fd, const char *needle, char *acc, size_t cap, size_t *len)
{
	long long end = amc_mono_ms() + 2000;
	while (!strstr(acc, needle)) {
		long long left = end - amc_mono_ms();
		if (left <= 0)
			return 0;
		struct pollfd pf = { fd, POLLIN, 0 };
		if (poll(&pf, 1, (int)left) <= 0)
			return 0;
		ssize_t r = read(fd, acc + *len, cap - 1 - *len);
		if (r <= 0)
			return 0;
		*len += (size_t)r;
		acc[*len] = 0;
		if (*len + 1 >= cap)
			return 0;
	}
	return 1;
}

static void type(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		diag("write to the pty: %s", strerror(errno));
}

static void test_pty(void)
{
	int p[2];
	if (pipe(p) != 0) {
		ok(0, "pipe: %s", strerror(errno));
		return;
	}
	int master = -1;
	pid_t pid = forkpty(&master, NULL, NULL, NULL);
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		printf("ok %d - # SKIP forkpty failed (%s): no pseudo terminals here\n", ++tap_n, strerror(errno));
		return;
	}
	if (pid == 0) {
		close(p[0]);
		child(p[1]);
	}
	close(p[1]);

	static char acc[65536];
	size_t len = 0;
	acc[0] = 0;
	ok(expect(master, "answer> ", acc, sizeof acc, &len), "the question is shown with an answer prompt");
	like(acc, "task 01234567 asks:", "naming the task (short id)");
	like(acc, "Which PIN?", "with the question");
	ok(!strstr(acc, "\033[31m"), "escape sequences from the model are not passed to the terminal");
	type(master, "1234 and more\n");

	static const char *const answers[] = { "y\n", "Y\n", "yes\n", "YES\n", "yeah\n", "\n", "n\n" };
	int shown = 0;
	for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
		len = 0;
		acc[0] = 0;
		if (expect(master, "Allow it? [y/N] ", acc, sizeof acc, &len))
			shown++;
		if (i == 0) {
			like(acc, "task 01234567 wants to tap at 540,1200 on 'Delete all", "the confirmation names the action and element");
			like(acc, "looks irreversible ('delete')", "and the word it matched");
			ok(!strstr(acc, "\033]0;"), "a title-setting sequence in the element text is not passed through");
		}
		type(master, answers[i]);
	}
	is_int(shown, 7, "every confirmation is asked");
	len = 0;
	acc[0] = 0;
	expect(master, "answer> ", acc, sizeof acc, &len);
	type(master, "\004"); /* ^D at the start of a line: end of input */
	len = 0;
	acc[0] = 0;
	expect(master, "[y/N] ", acc, sizeof acc, &len);
	type(master, "\004");

	/* wait for the child, at most 3 s */
	int st = -1;
	long long end = amc_mono_ms() + 3000;
	int drain = 1;
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (amc_mono_ms() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			break;
		}
		/* keep the pty drained so the child never blocks on output; once
		 * the child side is closed (EIO) just wait */
		struct pollfd pf = { master, POLLIN, 0 };
		if (drain && poll(&pf, 1, 20) > 0) {
			if (read(master, acc, sizeof acc - 1) <= 0)
				drain = 0;
		} else if (!drain) {
			poll(NULL, 0, 10);
		}
	}
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the operator process finished cleanly");
	char *out = collect(p[0]);
	close(p[0]);
	close(master);

	like(out, "open ok", "the operator opens on a controlling terminal");
	like(out, "ask 0 [1234 and more]", "ask returns the typed line without its newline");
	const char *c = out;
	int yes[7], k = 0;
	while (k < 7 && (c = strstr(c, "confirm ")) != NULL) {
		sscanf(c, "confirm %d", &yes[k++]);
		c += 8;
	}
	is_int(k, 7, "seven confirmations answered");
	if (k == 7) {
		ok(yes[0] == 1 && yes[1] == 1, "y and Y allow");
		ok(yes[2] == 1 && yes[3] == 1, "yes in any case allows");
		ok(yes[4] == 0, "yeah does not (only y or yes)");
		ok(yes[5] == 0, "an empty answer refuses (the default is No)");
		ok(yes[6] == 0, "n refuses");
	}
	like(out, "eof-ask -1 [the terminal closed before an answer was given]", "end of input fails ask clearly");
	like(out, "eof-confirm -1 [the terminal closed", "and confirm (cannot ask: treated as no)");
}

int main(void)
{
	test_no_terminal();
	test_pty();
	return done_testing();
}
