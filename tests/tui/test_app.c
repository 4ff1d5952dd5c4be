/* test_app.c - what views may ask of the app, without a terminal: the clock,
 * the status-line message, the view stack, the dialog queue and frames. (The
 * runners are test_session.c's, the keys test_screen.c's, script mode
 * test_script.c's, amc_tui_main and the man page test_tui.c's.) */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tuitest.h"
#include "tui/app.h"
#include "util/clock.h"

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

int main(void)
{
	setenv("TERM", "xterm-256color", 1);
	unsetenv("NO_COLOR");
	test_core();
	test_box();
	return done_testing();
}
