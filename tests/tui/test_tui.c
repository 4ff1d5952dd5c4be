/* test_tui.c - the entry points src/cli/ calls: the man page, and
 * amc_tui_main's failures (no database, no terminal), which return an error
 * a user can act on and leave no descriptor open. */
#include <dirent.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"
#include "tui/keymap.h"
#include "tui/tui.h"
#include "util/fsutil.h"

static void test_man(void)
{
	FILE *f1 = tmpfile(), *f2 = tmpfile();
	amc_tui_write_man(f1);
	amc_tui_keymap_write_man(f2);
	long n1 = ftell(f1), n2 = ftell(f2);
	ok(n1 > 1000 && n1 == n2, "amc_tui_write_man writes the keymap's man page (%ld bytes)", n1);
	char *b1 = calloc(1, (size_t)n1 + 1), *b2 = calloc(1, (size_t)n2 + 1);
	rewind(f1);
	rewind(f2);
	ok(fread(b1, 1, (size_t)n1, f1) == (size_t)n1 && fread(b2, 1, (size_t)n2, f2) == (size_t)n2 && !strcmp(b1, b2),
	   "byte for byte");
	free(b1);
	free(b2);
	fclose(f1);
	fclose(f2);
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void test_main_fails(const char *home)
{
	amc_config *cfg = amc_config_new();
	amc_err e;
	char script[4300], notdir[4300];
	snprintf(script, sizeof script, "%s/q.keys", home);
	amc_write_atomic(script, "q\n", 2, 0644, &e);
	amc_tui_opts o = { 0 };
	o.cfg = cfg;
	o.script = script;
	o.cols = 80;
	o.rows = 24;

	/* $AMC_HOME is a file: the database cannot be opened. */
	snprintf(notdir, sizeof notdir, "%s/afile", home);
	amc_write_atomic(notdir, "x", 1, 0644, &e);
	o.home = notdir;
	int fds = open_fds();
	is_int(amc_tui_main(&o, &e), -1, "no database: amc_tui_main fails");
	ok(e.msg[0] != 0, "saying why: %s", e.msg);
	is_int(open_fds(), fds, "and leaves no descriptor open");

	/* An unknown terminal: the interface cannot start. ncurses keeps its
	 * half-built screen when newterm fails (its allocation, not amc's), so
	 * this runs in a child that leaves with _exit: LeakSanitizer
	 * (--enable-sanitizers) then does not count it. */
	o.home = home;
	int pp[2];
	if (pipe(pp) != 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		close(pp[0]);
		setenv("TERM", "no-such-terminal-amc", 1);
		int before = open_fds();
		int rc = amc_tui_main(&o, &e);
		char msg[sizeof e.msg + 32];
		int n = snprintf(msg, sizeof msg, "%d %d %s", rc, open_fds() == before, e.msg);
		if (write(pp[1], msg, n > 0 ? (size_t)n : 0) < 0)
			_exit(2);
		_exit(0);
	}
	close(pp[1]);
	char got[sizeof e.msg + 32] = "";
	size_t have = 0;
	ssize_t r;
	while (have < sizeof got - 1 && (r = read(pp[0], got + have, sizeof got - 1 - have)) > 0)
		have += (size_t)r;
	got[have] = '\0';
	close(pp[0]);
	int status = -1;
	waitpid(pid, &status, 0);
	int rc = 0, same = 0, off = 0;
	ok(sscanf(got, "%d %d %n", &rc, &same, &off) == 2 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "the child reported");
	is_int(rc, -1, "an unknown TERM: amc_tui_main fails");
	like(got + off, "cannot start the terminal interface (TERM=no-such-terminal-amc)", "naming TERM");
	ok(same, "and closes what it opened (pipe, database, bus)");
	setenv("TERM", "xterm-256color", 1);

	fds = open_fds();
	is_int(amc_tui_main(&o, &e), 0, "with a terminal it runs (q quits)");
	is_int(open_fds(), fds, "and gives back every descriptor it opened");
	amc_config_free(cfg);
}

int main(void)
{
	const char *home = test_home("tuimain");
	setenv("TERM", "xterm-256color", 1);
	setenv("AMC_TUI_NOW", "1767229200000", 1);
	setenv("AMC_ADB_PATH", "/nonexistent/adb", 1);
	unsetenv("NO_COLOR");
	test_man();
	test_main_fails(home);
	return done_testing();
}
