/* test_pty - the real binary in a real terminal: `amc` (no arguments) runs on
 * a pty whose screen this test emulates with libvterm. It launches a bundled
 * flow from the dialog, watches the view follow it to its end, opens a step,
 * checks that the screenshot panes are drawn, resizes the terminal (SIGWINCH)
 * and quits. Needs no controlling terminal of its own. */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vterm.h>

#include "tests/unit/tap.h"
#include "tests/unit/testutil.h"

static int master = -1;
static char *raw;            /* every byte the program wrote since raw_reset() */
static size_t rawlen;
static int answer_da1;       /* reply to a DA1 query as a sixel terminal would */
static int answered;
static VTerm *vt;
static VTermScreen *vs;
static int rows = 40, cols = 120;

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Feed what the program wrote into the emulator, for up to `ms`. */
static void pump(int ms)
{
	long long end = now_ms() + ms;
	for (;;) {
		long long left = end - now_ms();
		if (left < 0)
			left = 0;
		struct pollfd p = { master, POLLIN, 0 };
		if (poll(&p, 1, (int)left) <= 0)
			return;
		char buf[65536];
		ssize_t n = read(master, buf, sizeof buf);
		if (n <= 0)
			return;
		vterm_input_write(vt, buf, (size_t)n);
		raw = realloc(raw, rawlen + (size_t)n + 1);
		memcpy(raw + rawlen, buf, (size_t)n);
		rawlen += (size_t)n;
		raw[rawlen] = 0;
		if (answer_da1 && !answered && memmem(raw, rawlen, "\033[c", 3)) {
			static const char reply[] = "\033[?62;4;22c";
			ssize_t w = write(master, reply, sizeof reply - 1);
			(void)w;
			answered = 1;
		}
	}
}

/* Pump until the program has been quiet for 300 ms (at most 10 s). */
static void settle(void)
{
	for (int i = 0; i < 33; i++) {
		size_t before = rawlen;
		pump(300);
		if (rawlen == before)
			return;
	}
}

static void raw_reset(void)
{
	rawlen = 0;
	if (raw)
		raw[0] = 0;
}

static const char *raw_find(const char *needle)
{
	return raw ? memmem(raw, rawlen, needle, strlen(needle)) : NULL;
}

static void row_text(int r, char *out, size_t n)
{
	VTermRect rect = { .start_row = r, .end_row = r + 1, .start_col = 0, .end_col = cols };
	size_t len = vterm_screen_get_text(vs, out, n - 1, rect);
	out[len] = 0;
}

/* Row holding `text`, or -1. */
static int find_row(const char *text)
{
	char line[4096];
	for (int r = 0; r < rows; r++) {
		row_text(r, line, sizeof line);
		if (strstr(line, text))
			return r;
	}
	return -1;
}

static int wait_for(const char *text, int ms)
{
	long long end = now_ms() + ms;
	while (now_ms() < end) {
		if (find_row(text) >= 0)
			return 1;
		pump(100);
	}
	return find_row(text) >= 0;
}

static void send(const char *keys)
{
	ssize_t w = write(master, keys, strlen(keys));
	(void)w;
	pump(150);
}

static void dump(void)
{
	char line[4096];
	for (int r = 0; r < rows; r++) {
		row_text(r, line, sizeof line);
		diag("%2d|%s", r, line);
	}
}

/* Cells of an area that carry a picture: a non-space character or a
 * background that is not the default one. */
static int painted(int r0, int c0, int h, int w)
{
	int n = 0;
	for (int r = r0; r < r0 + h && r < rows; r++)
		for (int c = c0; c < c0 + w && c < cols; c++) {
			VTermScreenCell cell;
			VTermPos pos = { r, c };
			if (!vterm_screen_get_cell(vs, pos, &cell))
				continue;
			if ((cell.chars[0] && cell.chars[0] != ' ') || !VTERM_COLOR_IS_DEFAULT_BG(&cell.bg))
				n++;
		}
	return n;
}

/* Run amc (with `graphics`, NULL: plain `amc`) on a fresh 120x40 pty with
 * 10x20-pixel cells; `env`=`val` added to its environment. */
static pid_t start(const char *amc, const char *graphics, const char *envkv)
{
	rows = 40;
	cols = 120;
	struct winsize ws = { (unsigned short)rows, (unsigned short)cols, 1200, 800 };
	pid_t pid = forkpty(&master, NULL, NULL, &ws);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setenv("TERM", "xterm-256color", 1);
		setenv("LC_ALL", "C.UTF-8", 1);
		unsetenv("NO_COLOR");
		unsetenv("TMUX");
		unsetenv("TERM_PROGRAM");
		unsetenv("LC_TERMINAL");
		unsetenv("VTE_VERSION");
		unsetenv("KONSOLE_VERSION");
		unsetenv("AMC_HYPERLINKS");
		unsetenv("KITTY_WINDOW_ID");
		unsetenv("WT_SESSION");
		unsetenv("DISPLAY"); /* O shows the path rather than opening a viewer */
		unsetenv("WAYLAND_DISPLAY");
		if (envkv)
			putenv((char *)envkv);
		if (graphics) {
			char opt[64];
			snprintf(opt, sizeof opt, "--graphics=%s", graphics);
			execl(amc, "amc", "tui", opt, (char *)NULL);
		} else {
			execl(amc, "amc", (char *)NULL);
		}
		_exit(127);
	}
	if (vt)
		vterm_free(vt);
	vt = vterm_new(rows, cols);
	vterm_set_utf8(vt, 1);
	vs = vterm_obtain_screen(vt);
	vterm_screen_reset(vs, 1);
	raw_reset();
	answered = 0;
	return pid;
}

/* Send q and reap; 0 when it exited with status 0. */
static int quit(pid_t pid)
{
	send("q");
	int status = -1;
	for (int i = 0; i < 50; i++) {
		pump(100);
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		status = -1;
	}
	if (status == -1) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	close(master);
	master = -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Cell position (0-based) of the Before pane's top-left corner, or -1. */
static int before_origin(int *r0, int *c0)
{
	for (int r = 0; r < rows; r++)
		for (int c = 0; c + 9 < cols; c++) {
			VTermScreenCell cell;
			VTermPos pos = { r, c };
			vterm_screen_get_cell(vs, pos, &cell);
			if (cell.chars[0] != 0x250C) /* the corner of a box */
				continue;
			char s[8] = { 0 };
			for (int k = 0; k < 6; k++) {
				VTermPos q = { r, c + 3 + k };
				vterm_screen_get_cell(vs, q, &cell);
				s[k] = cell.chars[0] < 0x80 ? (char)cell.chars[0] : '?';
			}
			if (!strcmp(s, "Before")) {
				*r0 = r;
				*c0 = c;
				return 0;
			}
		}
	return -1;
}

static int origin_r = -1, origin_c = -1;

/* Open the newest task with pixel graphics and check, at the byte level,
 * where the image starts and that it is gone before the Launch dialog is
 * drawn. `begin` is the protocol's first bytes ("" = symbols expected). */
static void pixels_case(const char *amc, const char *graphics, const char *envkv, int da1, const char *begin,
			const char *name)
{
	answer_da1 = da1;
	pid_t pid = start(amc, graphics, envkv);
	ok(pid > 0 && wait_for("amc  Tasks", 10000), "%s: the TUI starts", name);
	send("\r");
	pump(300);
	settle();
	/* The screen is read through the raw bytes here: libvterm 0.1.4 does not
	 * swallow kitty's APC payload, so its screen is not the truth then. */
	ok(raw_find("Timeline") != NULL, "%s: the Task view opens", name);
	int r0 = 0, c0 = 0;
	int have;
	if (!begin[0]) {
		have = before_origin(&r0, &c0) == 0;
		if (have) {
			origin_r = r0;
			origin_c = c0;
		}
	} else {
		/* Same size, same task: the layout the symbols run saw. */
		have = origin_r >= 0;
		r0 = origin_r;
		c0 = origin_c;
	}
	ok(have, "%s: the Before pane is on screen", name);
	if (!begin[0]) {
		ok(!raw_find("\033_G") && !raw_find("\033P"), "%s: no image sequence is sent", name);
		ok(painted(r0 + 1, c0 + 1, 10, 20) > 20, "%s: the pane is drawn with symbols", name);
	} else {
		char want[64];
		snprintf(want, sizeof want, "\0337\033[%d;%dH%s", r0 + 2, c0 + 2, begin);
		ok(have && raw_find(want) != NULL, "%s: the image starts at the pane's origin (row %d, column %d)",
		   name, r0 + 2, c0 + 2);
		settle();
		raw_reset();
		send("n");
		settle();
		const char *dlg = raw_find("Launch a task");
		if (!strcmp(begin, "\033_G")) {
			const char *del = raw_find("\033_Ga=d,d=A\033\\");
			ok(del && dlg && del < dlg, "%s: the image is deleted before the dialog is drawn", name);
		} else {
			ok(dlg && !raw_find(begin), "%s: no image is drawn over the dialog", name);
		}
		send("\033");
		pump(300);
	}
	ok(quit(pid) == 0, "%s: quits cleanly", name);
	answer_da1 = 0;
}

/* O in the Task view shows the screenshot's path; with `envkv` the terminal
 * is one that supports OSC 8 links (or not): the bytes amc writes say whether
 * the path became a link to the file (issue 27). */
static void hyperlink_case(const char *amc, const char *envkv, int want, const char *name)
{
	pid_t pid = start(amc, NULL, envkv);
	ok(pid > 0 && wait_for("amc  Tasks", 10000), "%s: the TUI starts", name);
	send("\r");
	ok(wait_for("Timeline", 5000), "%s: the Task view opens", name);
	raw_reset();
	send("O");
	pump(600);
	ok(wait_for("screenshot: ", 2000), "%s: O shows the screenshot's path", name);
	const char *l = raw_find("\033]8;;file://");
	if (want) {
		ok(l != NULL && strstr(l, ".png\033\\") && strstr(l, "\033]8;;\033\\"),
		   "%s: the path is written as an OSC 8 link to the file, then closed", name);
	} else {
		ok(l == NULL, "%s: no OSC 8 link is written", name);
	}
	ok(quit(pid) == 0, "%s: quits cleanly", name);
}

int main(void)
{
	const char *amc = getenv("AMC_BIN");
	if (!amc) {
		tap_skip_all("AMC_BIN is not set");
		return 0;
	}
	test_home("pty");
	pid_t pid = start(amc, NULL, NULL);
	if (pid < 0) {
		tap_skip_all("forkpty failed (no ptys here)");
		return 0;
	}
	ok(wait_for("amc  Tasks", 10000), "`amc` opens the Tasks view in a terminal");
	ok(wait_for("no tasks yet", 2000), "an empty history says how to start");
	send("n");
	ok(wait_for("Launch a task", 3000), "n opens the Launch dialog");
	send("jj");
	ok(find_row("(*) wifi-off-on") >= 0, "j moves to the wifi-off-on flow");
	send("\r");
	ok(wait_for("amc  Task", 5000), "the view follows the launched task");
	ok(wait_for("succeeded", 60000), "the task finishes and the header says so");
	ok(wait_for("7 steps", 3000), "with its 7 steps");
	send("g");
	pump(500);
	int r = find_row("Before");
	ok(r > 0, "the Before pane is on screen");
	/* The image panes fill the middle third of the width (timeline left). */
	int p = r > 0 ? painted(r + 1, cols / 3, 10, cols / 3) : 0;
	ok(p > 40, "the screenshot panes are drawn (%d painted cells)", p);
	ok(find_row("After") == r, "the After pane is beside it");

	/* Resize: the kernel sends SIGWINCH; the TUI lays out again. */
	rows = 30;
	cols = 100;
	struct winsize ws2 = { (unsigned short)rows, (unsigned short)cols, 1000, 600 };
	ioctl(master, TIOCSWINSZ, &ws2);
	vterm_set_size(vt, rows, cols);
	pump(800);
	char last[4096];
	row_text(rows - 1, last, sizeof last);
	ok(strstr(last, "?:help") != NULL, "after a resize the status line is on the new last row");
	if (!strstr(last, "?:help"))
		dump();
	send("\033");
	pump(300);
	ok(wait_for("amc  Tasks", 3000), "Esc goes back to the Tasks view");
	ok(wait_for("Turn Wi-Fi off and on", 1000), "which lists the task");
	ok(quit(pid) == 0, "q quits with status 0");

	/* Pixels: auto with a terminal that does not answer (symbols once the
	 * query times out; this run also learns the pane's position); auto
	 * inside tmux (symbols); forced kitty and sixel; auto confirmed by a DA1
	 * reply (WezTerm suggests sixel). */
	pixels_case(amc, "auto", "TERM_PROGRAM=WezTerm", 0, "", "auto, no answer");
	pixels_case(amc, "auto", "TMUX=/tmp/tmux-0/default,1,0", 1, "", "auto inside tmux");
	pixels_case(amc, "kitty", NULL, 0, "\033_G", "kitty");
	pixels_case(amc, "sixel", NULL, 0, "\033P", "sixel");
	pixels_case(amc, "auto", "TERM_PROGRAM=WezTerm", 1, "\033P", "auto, sixel confirmed");
	/* iTerm2 answers no query amc trusts: the environment decides. */
	pixels_case(amc, "iterm", NULL, 0, "\033]1337;File=", "iterm");
	pixels_case(amc, "auto", "LC_TERMINAL=iTerm2", 0, "\033]1337;File=", "auto, iTerm2 from the environment");
	hyperlink_case(amc, "TERM_PROGRAM=WezTerm", 1, "links, WezTerm");
	hyperlink_case(amc, "AMC_HYPERLINKS=on", 1, "links, AMC_HYPERLINKS=on");
	hyperlink_case(amc, NULL, 0, "links, plain xterm");
	hyperlink_case(amc, "TMUX=/tmp/tmux-0/default,1,0", 0, "links, inside tmux");
	vterm_free(vt);
	free(raw);
	return done_testing();
}
