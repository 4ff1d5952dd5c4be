/* test_dialog_pending.c - tui/dialog_pending.c without a terminal: a question
 * another process asks through $AMC_HOME (runtime/pending.h, asked here on a
 * thread as `amc mcp` asks) opens one dialog however often the app polls; it
 * shows who asks, the action, its target, the word and the reason, all
 * terminal-safe; y allows and n or Esc refuses through the pending files (the
 * asker gets the answer); other keys keep it open; a withdrawn question's
 * dialog is stale; an answer to a withdrawn question says so on the status
 * line. */
#include <curses.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/pending.h"
#include "tap.h"
#include "testutil.h"
#include "tuitest.h"
#include "tui/app.h"
#include "tui/keymap.h"

static amc_tui_app app;

typedef struct asker {
	pthread_t th;
	const char *task;
	amc_pending_q q;
	long timeout_ms;
	atomic_int cancel;
	int rc;
	amc_err e;
} asker;

static void *ask_main(void *arg)
{
	asker *a = arg;
	a->rc = amc_pending_ask(app.home, a->task, &a->q, a->timeout_ms, &a->cancel, &a->e);
	return NULL;
}

static void ask(asker *a, const char *task, const char *reason, long timeout_ms)
{
	memset(a, 0, sizeof *a);
	a->task = task;
	a->timeout_ms = timeout_ms;
	a->q = (amc_pending_q){ "tap at 662,850", "Delete \x1b[2J", "delete", reason, "MCP client claude-code 2.1 on sim:0" };
	pthread_create(&a->th, NULL, ask_main, a);
}

static int count_dialogs(void)
{
	int n = 0;
	for (amc_tui_dialog *d = app.dialog; d; d = d->next)
		n++;
	return n;
}

/* Poll until a dialog is open (the asker's thread writes the file). */
static int poll_open(void)
{
	for (int i = 0; i < 500 && !app.dialog; i++) {
		amc_tui_pending_poll(&app);
		if (!app.dialog)
			usleep(10000);
	}
	return app.dialog != NULL;
}

static void show(void)
{
	erase();
	app.dialog->draw(&app, app.dialog);
}

/* 1 when no cell of the screen holds a control character. */
static int screen_clean(void)
{
	for (int y = 0; y < LINES; y++) {
		wchar_t line[512];
		int n = mvwinnwstr(stdscr, y, 0, line, COLS);
		for (int i = 0; i < n; i++)
			if (line[i] < 0x20 || line[i] == 0x7f || (line[i] >= 0x80 && line[i] < 0xa0))
				return 0;
	}
	return 1;
}

/* Close the top dialog as the app does when its key function returns 1. */
static int key(int k)
{
	amc_tui_dialog *d = app.dialog;
	int done = d->key(&app, d, k);
	if (done) {
		app.dialog = d->next;
		d->free(d);
	}
	return done;
}

static void test_allow(void)
{
	asker a;
	ask(&a, "mcptask00000001", "the user asked to remove the duplicate of Alan", 10000);
	ok(poll_open(), "allow: the question opens a dialog");
	is_int(amc_tui_pending_poll(&app), 0, "allow: polling again opens no second dialog");
	is_int(count_dialogs(), 1, "allow: one dialog");
	show();
	ok(tt_screen_has("Task mcptask0: allow this action?"), "allow: the title names the task (short id)");
	ok(tt_screen_has("MCP client claude-code 2.1 on sim:0 wants to tap at 662,850"), "allow: who asks and the action");
	ok(tt_screen_has("on \"Delete"), "allow: the target");
	ok(tt_screen_has("(\"delete\")"), "allow: the word it matched");
	ok(tt_screen_has("Reason: the user asked to remove the duplicate of Alan"), "allow: the client's reason");
	ok(tt_screen_has("y: allow   n or Esc: refuse"), "allow: the keys");
	ok(screen_clean(), "allow: the target's escape sequence is not drawn raw");
	ok(!app.dialog->stale(&app, app.dialog), "allow: not stale while the asker waits");
	is_int(key('j'), 0, "allow: j keeps it open");
	is_int(key('x'), 0, "allow: x keeps it open");
	is_int(key(0x18), 0, "allow: C-x keeps it open (the task is another process's)");
	is_int(key('y'), 1, "allow: y closes it");
	pthread_join(a.th, NULL);
	is_int(a.rc, 1, "allow: the asker gets yes");
	like(app.message, "task mcptask0: allowed tap at 662,850", "allow: the status line says what was allowed");
	is_int(amc_tui_pending_poll(&app), 0, "allow: nothing to open afterwards");
}

static void test_refuse(void)
{
	int keys[] = { 'n', 27 };
	const char *names[] = { "n", "Esc" };
	for (int i = 0; i < 2; i++) {
		asker a;
		ask(&a, "mcptask00000002", "", 10000);
		ok(poll_open(), "refuse %s: the dialog opens", names[i]);
		show();
		ok(tt_screen_has("Reason: (none given)"), "refuse %s: no reason given, and it says so", names[i]);
		is_int(key(keys[i]), 1, "refuse %s: closes it", names[i]);
		pthread_join(a.th, NULL);
		ok(a.rc == 0 && a.e.code == AMC_EFAIL, "refuse %s: the asker gets no from a person", names[i]);
		like(app.message, "refused tap", "refuse %s: the status line says so", names[i]);
	}
}

static void test_withdrawn(void)
{
	asker a;
	ask(&a, "mcptask00000003", "r", 400);
	ok(poll_open(), "withdrawn: the dialog opens");
	pthread_join(a.th, NULL); /* the asker gives up after 400 ms */
	ok(a.rc == 0 && a.e.code == AMC_EENV, "withdrawn: the asker timed out");
	ok(app.dialog->stale(&app, app.dialog), "withdrawn: the dialog is stale (the app drops it)");
	is_int(key('y'), 1, "withdrawn: y still closes it");
	like(app.message, "withdrawn", "withdrawn: and the status line says the question was withdrawn");
	app.message[0] = 0;

	/* two tasks asking at once: two dialogs, queued */
	asker b, c;
	ask(&b, "mcptask00000004", "b", 10000);
	ok(poll_open(), "two: the first opens");
	ask(&c, "mcptask00000005", "c", 10000);
	for (int i = 0; i < 500 && count_dialogs() < 2; i++) {
		amc_tui_pending_poll(&app);
		usleep(10000);
	}
	is_int(count_dialogs(), 2, "two: the second is queued behind it");
	key('n');
	key('y');
	pthread_join(b.th, NULL);
	pthread_join(c.th, NULL);
	ok(b.rc == 0 && c.rc == 1, "two: each gets its own answer");
}

int main(void)
{
	const char *home = test_home("tui-pending");
	if (tt_screen(100, 40) != 0) {
		tap_skip_all("ncurses cannot start an xterm-256color screen (no terminfo entry)");
		return 0;
	}
	snprintf(app.home, sizeof app.home, "%s", home);
	app.rows = LINES;
	app.cols = COLS;
	test_allow();
	test_refuse();
	test_withdrawn();
	while (app.dialog)
		key(27);
	tt_screen_end();
	return done_testing();
}
