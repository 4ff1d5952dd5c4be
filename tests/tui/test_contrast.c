/* test_contrast - the default theme reads on light and dark terminals alike.
 *
 * Every view (Tasks, a filtered list, the search and launch dialogs, Task with
 * each evidence tab and a step that changed nothing, Help, Devices) is drawn
 * by the real binary in script mode with the default theme; the bytes it
 * writes to the terminal are replayed into libvterm twice, once with a white
 * default background (black text, as xterm starts) and once with a black one
 * (light grey text), and every non-blank cell whose foreground colour equals
 * its background colour (after the palette and the default colours are
 * applied) is a failure: that text is invisible. In xterm's white window the
 * old default theme drew the Tasks view's column headers white on white.
 * Screenshots are drawn as placeholders (--graphics none): their colours are
 * the phone's pixels, not the theme's. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vterm.h>

#include "tests/unit/tap.h"
#include "tests/unit/testutil.h"

#define ROWS 30
#define COLS 100

static const struct view {
	const char *name;
	const char *keys;
} VIEWS[] = {
	{ "tasks", "" },
	{ "tasks-filtered", "f\nf\n" },
	{ "tasks-search", "/\n" },
	{ "launch", "n\n" },
	{ "task", "Enter\n" },
	{ "task-ocr", "Enter\n2\n" },
	{ "task-scene", "Enter\n3\n" },
	{ "task-diff", "Enter\n4\n" },
	{ "task-nothing", "Enter\nj\n4\n" },
	{ "task-semantic", "Enter\nj\n5\n" },
	{ "task-focus", "Enter\nTab Tab Tab Tab\nj\n" },
	{ "help", "Enter\n?\n" },
	{ "devices", "D\n" },
};

/* Runs `amc tui --script` on `keys` (and a final dump) into tty; 0 on exit 0. */
static int draw(const char *amc, const char *home, const char *dir, const struct view *v, char *tty, size_t n)
{
	char keys[4096], dump[4096];
	if (snprintf(keys, sizeof keys, "%s/%s.keys", dir, v->name) >= (int)sizeof keys ||
	    snprintf(dump, sizeof dump, "%s/dump", dir) >= (int)sizeof dump ||
	    snprintf(tty, n, "%s/%s.tty", dir, v->name) >= (int)n)
		return -1;
	FILE *f = fopen(keys, "w");
	if (!f)
		return -1;
	fprintf(f, "%s:dump %s\n", v->keys, v->name);
	fclose(f);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setenv("AMC_HOME", home, 1);
		setenv("TERM", "xterm-256color", 1);
		setenv("LC_ALL", "C.UTF-8", 1);
		setenv("TZ", "UTC", 1);
		setenv("AMC_TUI_NOW", "1767229200000", 1);
		setenv("AMC_ADB_PATH", "/nonexistent/adb", 1);
		unsetenv("NO_COLOR");
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		mkdir(dump, 0700);
		execl(amc, amc, "tui", "--theme", "default", "--graphics", "none", "--size", "100x30", "--script", keys,
		      "--dump-dir", dump, "--tty-output", tty, (char *)NULL);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static char *slurp_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0, r;
	do {
		if (n + 65536 > cap)
			buf = realloc(buf, cap = (cap + 65536) * 2);
		r = fread(buf + n, 1, 65536, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

/* The last screen drawn: the bytes up to where the program leaves the
 * alternate screen at exit (ESC [ ? 1049 l), which would show the empty
 * normal screen instead. */
static size_t last_screen(const char *b, size_t n)
{
	static const char leave[] = "\033[?1049l";
	size_t end = n;
	for (size_t i = 0; i + sizeof leave - 1 <= n; i++)
		if (!memcmp(b + i, leave, sizeof leave - 1))
			end = i;
	return end;
}

static int same(VTermColor a, VTermColor b)
{
	return a.rgb.red == b.rgb.red && a.rgb.green == b.rgb.green && a.rgb.blue == b.rgb.blue;
}

/* Replays the bytes on a terminal whose default colours are fg on bg; counts
 * the non-blank cells drawn in their own background colour, and describes
 * the first into `first`. */
static int invisible(const char *b, size_t n, VTermColor fg, VTermColor bg, char *first, size_t fn, int *nonblank)
{
	VTerm *vt = vterm_new(ROWS, COLS);
	vterm_set_utf8(vt, 1);
	VTermScreen *vs = vterm_obtain_screen(vt);
	vterm_state_set_default_colors(vterm_obtain_state(vt), &fg, &bg);
	vterm_screen_reset(vs, 1);
	vterm_input_write(vt, b, n);
	int bad = 0;
	*nonblank = 0;
	first[0] = 0;
	for (int r = 0; r < ROWS; r++)
		for (int c = 0; c < COLS; c++) {
			VTermScreenCell cell;
			VTermPos pos = { r, c };
			if (!vterm_screen_get_cell(vs, pos, &cell) || !cell.chars[0] || cell.chars[0] == ' ')
				continue;
			(*nonblank)++;
			VTermColor cf = cell.fg, cb = cell.bg;
			vterm_screen_convert_color_to_rgb(vs, &cf);
			vterm_screen_convert_color_to_rgb(vs, &cb);
			if (!same(cf, cb))
				continue;
			if (!bad++) {
				char row[COLS * 4 + 1];
				VTermRect rect = { r, r + 1, 0, COLS };
				size_t len = vterm_screen_get_text(vs, row, sizeof row - 1, rect);
				row[len] = 0;
				snprintf(first, fn, "row %d col %d (U+%04X, colour %d,%d,%d): %s", r, c, cell.chars[0],
					 cf.rgb.red, cf.rgb.green, cf.rgb.blue, row);
			}
		}
	vterm_free(vt);
	return bad;
}

int main(void)
{
	const char *amc = getenv("AMC_BIN"), *build = getenv("AMC_TEST_BUILDDIR");
	if (!amc || !build)
		tap_skip_all("AMC_BIN or AMC_TEST_BUILDDIR is not set (run it through make check)");
	const char *home = test_home("contrast");
	char fixture[4096], dir[4096], cmd[8192];
	if (snprintf(fixture, sizeof fixture, "%s/db", home) >= (int)sizeof fixture ||
	    snprintf(dir, sizeof dir, "%s/views", home) >= (int)sizeof dir ||
	    snprintf(cmd, sizeof cmd, "'%s/tests/tui/mkfixture' '%s' --evidence", build, fixture) >= (int)sizeof cmd) {
		printf("Bail out! paths too long\n");
		return 1;
	}
	if (system(cmd) != 0) {
		printf("Bail out! mkfixture failed\n");
		return 1;
	}
	mkdir(dir, 0700);
	VTermColor black, white, grey;
	vterm_color_rgb(&black, 0, 0, 0);
	vterm_color_rgb(&white, 255, 255, 255);
	vterm_color_rgb(&grey, 229, 229, 229);
	for (size_t i = 0; i < sizeof VIEWS / sizeof VIEWS[0]; i++) {
		const struct view *v = &VIEWS[i];
		char tty[4096];
		if (!ok(draw(amc, fixture, dir, v, tty, sizeof tty) == 0, "%s: drawn", v->name))
			continue;
		size_t n = 0;
		char *b = slurp_file(tty, &n);
		if (!ok(b && n > 0, "%s: the terminal's bytes were written", v->name)) {
			free(b);
			continue;
		}
		n = last_screen(b, n);
		char first[COLS * 4 + 128];
		int cells;
		int bad = invisible(b, n, black, white, first, sizeof first, &cells);
		if (!ok(bad == 0 && cells > 100, "%s on a white background: no text in its background colour (%d cells)",
			v->name, cells))
			diag("%d invisible; the first: %s", bad, first);
		bad = invisible(b, n, grey, black, first, sizeof first, &cells);
		if (!ok(bad == 0 && cells > 100, "%s on a black background: no text in its background colour (%d cells)",
			v->name, cells))
			diag("%d invisible; the first: %s", bad, first);
		free(b);
	}
	return done_testing();
}
