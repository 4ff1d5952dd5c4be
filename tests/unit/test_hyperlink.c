/* test_hyperlink.c - util/hyperlink.c: when OSC 8 links are written (forced,
 * refused, and auto on a pty with each terminal's environment, never inside
 * tmux or screen, never to a pipe) and the file URI's encoding. */
/* posix_openpt and friends; ncurses' flags may define it already (600) */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "util/hyperlink.h"

/* A fake environment: NAME=VALUE pairs. */
static const char *envv[8];

static const char *fake_getenv(const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; envv[i]; i++)
		if (!strncmp(envv[i], name, n) && envv[i][n] == '=')
			return envv[i] + n + 1;
	return NULL;
}

static int with(int fd, const char *a, const char *b, const char *c)
{
	envv[0] = a;
	envv[1] = b;
	envv[2] = c;
	envv[3] = NULL;
	return amc_hyperlink_supported(fd, fake_getenv);
}

int main(void)
{
	int pipefd[2];
	if (pipe(pipefd) != 0) {
		tap_skip_all("pipe failed");
		return 0;
	}
	int tty = -1;
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0)
		tty = open(ptsname(m), O_RDWR | O_NOCTTY);

	ok(with(pipefd[1], "AMC_HYPERLINKS=on", "TERM=dumb", NULL) == 1, "on: links even to a pipe");
	ok(with(pipefd[1], "AMC_HYPERLINKS=off", "TERM_PROGRAM=WezTerm", NULL) == 0, "off: never");
	ok(with(pipefd[1], "AMC_HYPERLINKS=bogus", "TERM_PROGRAM=WezTerm", NULL) == 0, "an unknown value is off");
	ok(with(pipefd[1], "TERM=xterm-kitty", NULL, NULL) == 0, "auto: not to a pipe");
	if (tty < 0) {
		diag("no pty here: the auto cases on a terminal are not run");
	} else {
		ok(with(tty, "TERM=xterm-256color", NULL, NULL) == 0, "auto: plain xterm gets plain text");
		ok(with(tty, "TERM=xterm-256color", "TERM_PROGRAM=WezTerm", NULL) == 1, "auto: WezTerm");
		ok(with(tty, "TERM=xterm-256color", "VTE_VERSION=7200", NULL) == 1, "auto: a VTE terminal");
		ok(with(tty, "TERM=xterm-256color", "VTE_VERSION=4800", NULL) == 0, "auto: an old VTE");
		ok(with(tty, "TERM=xterm-kitty", NULL, NULL) == 1, "auto: kitty by TERM");
		ok(with(tty, "TERM=foot", NULL, NULL) == 1, "auto: foot");
		ok(with(tty, "TERM=tmux-256color", "TERM_PROGRAM=WezTerm", "TMUX=/tmp/t,1,0") == 0,
		   "auto: never inside tmux, even in WezTerm");
		ok(with(tty, "TERM=screen", "KITTY_WINDOW_ID=1", "STY=1.pts") == 0, "auto: never inside screen");
	}

	amc_sb sb;
	amc_sb_init(&sb);
	ok(amc_hyperlink_file_uri("rel/path.png", &sb) == -1 && sb.len == 0, "a relative path has no URI");
	ok(amc_hyperlink_file_uri("/home/a b/obs-1%.png", &sb) == 0, "an absolute path has one");
	const char *u = amc_sb_str(&sb);
	ok(!strncmp(u, "file://", 7), "file:// URI: %s", u);
	ok(strstr(u, "/home/a%20b/obs-1%25.png") != NULL, "space and %% percent-encoded, slashes kept");
	amc_sb_reset(&sb);
	amc_hyperlink_file_uri("/x\033]8;;evil\a", &sb);
	ok(!strchr(amc_sb_str(&sb), '\033') && !strchr(amc_sb_str(&sb), '\a'), "control bytes cannot end the sequence");
	amc_sb_reset(&sb);
	amc_hyperlink_wrap("/tmp/r.html", "/tmp/r.html", &sb);
	u = amc_sb_str(&sb);
	ok(!strncmp(u, "\033]8;;file://", 12), "wrap opens with OSC 8");
	ok(strstr(u, "\033\\/tmp/r.html\033]8;;\033\\") != NULL, "the text shown, then the closer");
	amc_sb_reset(&sb);
	amc_hyperlink_wrap("/tmp/x", "a\033[2Jb", &sb);
	ok(strstr(amc_sb_str(&sb), "\033[2J") == NULL, "the text shown is sanitized");
	amc_sb_free(&sb);
	return done_testing();
}
