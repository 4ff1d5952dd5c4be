/* test_app.c - the TUI core without a terminal: the clock, the status-line
 * message, the view stack, the dialog queue, cancel of a task not run here,
 * frames, the man page entry point, and amc_tui_main itself in script mode
 * (a virtual screen: keys from a file, dumps to a folder, errors returned). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "tuitest.h"
#include "tui/app.h"
#include "tui/tui.h"
#include "util/clock.h"
#include "util/fsutil.h"

/* ---- a fake view: counts what the app asks of it ---- */

static int frees, reloads, draws, requests;
static amc_tui_req last_req;

static void fdraw(amc_tui_app *a, amc_tui_view *v, int y, int h, int w)
{
	(void)a; (void)v; (void)y; (void)h; (void)w;
	draws++;
}

static int freq(amc_tui_app *a, amc_tui_view *v, amc_tui_req r)
{
	(void)a; (void)v;
	requests++;
	last_req = r;
	return 0;
}

static void freload(amc_tui_app *a, amc_tui_view *v)
{
	(void)a; (void)v;
	reloads++;
}

static void ffree(amc_tui_view *v)
{
	frees++;
	free(v->data);
}

static const amc_tui_view_ops fake = { "Fake", AMC_VIEW_TASKS, fdraw, freq, freload, NULL, NULL, ffree, NULL, NULL };

static void test_core(void)
{
	amc_tui_app a;
	memset(&a, 0, sizeof a);
	a.fixed_now = 1767229200000LL;
	is_int(amc_tui_now(&a), 1767229200000LL, "a fixed clock (script mode) is used");
	a.fixed_now = 0;
	long long t = amc_tui_now(&a), real = amc_now_ms();
	ok(t > 0 && llabs(real - t) < 60000, "otherwise the real clock");

	amc_tui_message(&a, 0, "%d task%s", 2, "s");
	is_str(a.message, "2 tasks", "a message is formatted onto the status line");
	ok(a.dirty && !a.message_error, "it marks the screen dirty, not as an error");
	char big[2000];
	memset(big, 'm', sizeof big - 1);
	big[sizeof big - 1] = 0;
	amc_tui_message(&a, 1, "%s", big);
	is_int(strlen(a.message), sizeof a.message - 1, "a long message is cut to the line buffer");
	is_int(a.message_error, 1, "an error message is marked as one");

	/* The view stack. */
	amc_tui_push(&a, &fake, malloc(1));
	amc_tui_view *bottom = a.view;
	amc_tui_push(&a, &fake, malloc(1));
	ok(a.view != bottom && a.view->prev == bottom, "push puts a view on top of the stack");
	a.dirty = 0;
	amc_tui_pop(&a);
	ok(a.view == bottom, "pop returns to the view below");
	is_int(frees, 1, "pop frees the top view");
	is_int(reloads, 1, "and reloads the one below (the database may have changed)");
	ok(a.dirty, "and redraws");
	amc_tui_pop(&a);
	ok(a.view == bottom && frees == 1, "the last view is never popped");

	/* Dialogs open one at a time, in order. */
	amc_tui_dialog *d1 = amc_tui_confirm_new("one?", NULL, NULL, NULL);
	amc_tui_dialog *d2 = amc_tui_confirm_new("two?", NULL, NULL, NULL);
	amc_tui_dialog *d3 = amc_tui_confirm_new("three?", NULL, NULL, NULL);
	amc_tui_open_dialog(&a, d1);
	amc_tui_open_dialog(&a, d2);
	amc_tui_open_dialog(&a, d3);
	ok(a.dialog == d1 && d1->next == d2 && d2->next == d3 && !d3->next, "dialogs queue behind the open one");
	while (a.dialog) {
		amc_tui_dialog *d = a.dialog;
		a.dialog = d->next;
		d->free(d);
	}

	/* Nothing runs here. */
	is_int(amc_tui_own_running(&a), 0, "no runners: nothing running here");
	int step = -1;
	ok(amc_tui_phase(&a, "nosuchtask", &step) == NULL && step == -1, "no phase for an unknown task");
	amc_err e;
	is_int(amc_tui_cancel(&a, "0123456789abcdef", &e), -1, "cancelling a task not launched here fails");
	like(e.msg, "01234567", "naming the task by its short id");
	like(e.msg, "cancel it where it was started", "and saying where to cancel it");

	a.view = NULL;
	free(bottom->data);
	free(bottom);
}

static void test_box(void)
{
	if (tt_screen(40, 12) != 0) {
		ok(0, "ncurses screen");
		return;
	}
	amc_tui_box(1, 2, 5, 20, "Title", 1);
	is_str(tt_row(1), "  ┌─ Title ──────────┐", "a frame: corners, line and the title");
	is_str(tt_row(2), "  │                  │", "its sides");
	is_str(tt_row(5), "  └──────────────────┘", "its bottom");
	erase();
	amc_tui_box(0, 0, 4, 6, "Long title", 0);
	is_str(tt_row(0), "┌────┐", "a frame of 6 columns has no room for a title");
	erase();
	amc_tui_box(0, 0, 1, 10, "x", 0);
	amc_tui_box(0, 0, 5, 1, "x", 0);
	is_str(tt_row(0), "", "frames under 2x2 are not drawn");
	erase();
	amc_tui_box(0, 0, 3, 12, "\x1b[2Jevil title", 0);
	ok(!strchr(tt_row(0), 0x1b) && strstr(tt_row(0), "┌") && strstr(tt_row(0), "┐"),
	   "a hostile title is made safe and cut inside the frame: '%s'", tt_row(0));
	tt_screen_end();
}

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

static char dir[4200];

static int run(const char *script_text, int cols, int rows, amc_err *e)
{
	char script[4300];
	snprintf(script, sizeof script, "%s/script.keys", dir);
	amc_err we;
	amc_write_atomic(script, script_text, strlen(script_text), 0644, &we);
	amc_config *cfg = amc_config_new();
	amc_tui_opts o = { 0 };
	o.home = dir;
	o.cfg = cfg;
	o.theme = "monochrome";
	o.graphics = "symbols";
	o.script = script;
	o.dump_dir = dir;
	o.cols = cols;
	o.rows = rows;
	int rc = amc_tui_main(&o, e);
	amc_config_free(cfg);
	return rc;
}

static char *slurp(const char *name)
{
	char p[4300];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "r");
	if (!f)
		return NULL;
	char *b = calloc(1, 65536);
	size_t n = fread(b, 1, 65535, f);
	b[n] = 0;
	fclose(f);
	return b;
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

static void test_main_script(void)
{
	amc_err e;
	int rc = run("# a comment\n\n:dump first\n?\n:dump help\nEsc\n:resize 60x15\n:dump small\n:resize 20x5\n"
		     ":dump tiny\n:resize 80x24\nD\n:dump devices\nq\n:dump after-quit\n", 80, 24, &e);
	is_int(rc, 0, "script mode runs a script to its end");
	char *s = slurp("first.txt");
	ok(s && !strncmp(s, " amc  Tasks", 11), "the first view is Tasks");
	is_int(count_lines(s), 24, "a dump has a line per screen row");
	like(s, "?:help  n:launch  q:quit", "the status line shows the keys");
	free(s);
	s = slurp("help.txt");
	like(s, " amc  Help", "? opens the help view");
	like(s, "Keys of the Tasks view", "for the view it was opened from");
	free(s);
	s = slurp("small.txt");
	is_int(count_lines(s), 15, ":resize gives a smaller screen");
	like(s, " amc  Tasks", "Esc went back to Tasks");
	free(s);
	s = slurp("tiny.txt");
	like(s, "amc: the terminal i", "too small a screen says so (cut to its 20 columns)");
	free(s);
	s = slurp("devices.txt");
	like(s, " amc  Devices", "D opens the Devices view");
	free(s);
	s = slurp("after-quit.txt");
	ok(s == NULL, "q quits: the rest of the script is not run");
	free(s);

	rc = run("j\nNoSuchKey\n:dump never\n", 80, 24, &e);
	is_int(rc, -1, "an unknown key name fails the script");
	like(e.msg, "unknown key 'NoSuchKey'", "naming the key");
	s = slurp("never.txt");
	ok(s == NULL, "and stops there");
	free(s);

	amc_tui_opts o = { 0 };
	amc_config *cfg = amc_config_new();
	o.home = dir;
	o.cfg = cfg;
	o.script = "/nonexistent/script.keys";
	o.cols = 80;
	o.rows = 24;
	is_int(amc_tui_main(&o, &e), -1, "a missing script fails");
	like(e.msg, "cannot read script", "saying it cannot be read");
	amc_config_free(cfg);
}

int main(void)
{
	const char *home = test_home("tuiapp");
	snprintf(dir, sizeof dir, "%s", home);
	setenv("TERM", "xterm-256color", 1);
	setenv("AMC_TUI_NOW", "1767229200000", 1);
	setenv("AMC_ADB_PATH", "/nonexistent/adb", 1);
	unsetenv("NO_COLOR");
	test_core();
	test_box();
	test_man();
	test_main_script();
	return done_testing();
}
