/* test_dialog.c - the modal dialogs without a terminal: yes/no confirmation,
 * one-line input (UTF-8 aware backspace, control keys ignored), the runner's
 * questions (ask_user answered, confirmations allowed or refused, C-x, stale
 * once cancelled) and the Launch dialog's validation. Keys go straight to
 * each dialog's key function; drawing goes to an ncurses screen on /dev/null. */
#include <curses.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "tuitest.h"
#include "tui/app.h"

static amc_tui_app app;
static int yes_calls, free_calls;
static void *yes_ud;
static char done_text[2048];
static int done_calls;

static void on_yes(amc_tui_app *a, void *ud)
{
	(void)a;
	yes_calls++;
	yes_ud = ud;
}

static void on_free(void *ud)
{
	(void)ud;
	free_calls++;
}

static void on_done(amc_tui_app *a, const char *text, void *ud)
{
	(void)a;
	(void)ud;
	done_calls++;
	snprintf(done_text, sizeof done_text, "%s", text);
}

static void show(amc_tui_dialog *d)
{
	erase();
	d->draw(&app, d);
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

static void test_confirm(void)
{
	int token = 7;
	amc_tui_dialog *d = amc_tui_confirm_new("Cancel task 0123abcd?", on_yes, &token, on_free);
	show(d);
	ok(tt_screen_has("Confirm") && tt_screen_has("Cancel task 0123abcd?"), "confirm: title and question drawn");
	ok(tt_screen_has("y: yes   n or Esc: no"), "confirm: the keys are shown");
	is_int(d->key(&app, d, 'x'), 0, "confirm: other keys keep it open");
	is_int(d->key(&app, d, 'j'), 0, "confirm: navigation keys keep it open");
	is_int(yes_calls, 0, "confirm: nothing done yet");
	is_int(d->key(&app, d, 'y'), 1, "confirm: y closes it");
	is_int(yes_calls, 1, "confirm: y runs the action once");
	ok(yes_ud == &token, "confirm: with its user data");
	d->free(d);
	is_int(free_calls, 1, "confirm: freeing it frees the user data");

	d = amc_tui_confirm_new("Quit?", on_yes, NULL, NULL);
	is_int(d->key(&app, d, 'n'), 1, "confirm: n closes it");
	d->free(d);
	d = amc_tui_confirm_new("Quit?", on_yes, NULL, NULL);
	is_int(d->key(&app, d, 27), 1, "confirm: Esc closes it");
	d->free(d);
	is_int(yes_calls, 1, "confirm: n and Esc do not run the action");
	is_int(free_calls, 1, "confirm: no user data, nothing freed");

	d = amc_tui_confirm_new("Delete \x1b[2J\x1b]0;pwned\x07 everything?", on_yes, NULL, NULL);
	show(d);
	ok(screen_clean(), "confirm: a hostile question draws no control character");
	ok(tt_screen_has("everything?"), "confirm: and stays readable");
	d->free(d);
}

static void test_input(void)
{
	amc_tui_dialog *d = amc_tui_input_new("Search", "ab", on_done, NULL);
	show(d);
	ok(tt_screen_has("Search") && tt_screen_has("> ab_"), "input: prompt and initial text");
	is_int(d->key(&app, d, 'c'), 0, "input: typing keeps it open");
	show(d);
	ok(tt_screen_has("> abc_"), "input: a typed character is appended");
	d->key(&app, d, KEY_BACKSPACE);
	d->key(&app, d, 127);
	show(d);
	ok(tt_screen_has("> a_"), "input: Backspace and DEL delete one character each");
	d->key(&app, d, 0xc3); /* "é", typed as its two bytes */
	d->key(&app, d, 0xa9);
	show(d);
	ok(tt_screen_has("> aé_"), "input: UTF-8 bytes make one character");
	d->key(&app, d, 8);
	show(d);
	ok(tt_screen_has("> a_"), "input: ^H deletes the whole UTF-8 character");
	d->free(d);

	d = amc_tui_input_new("Search", NULL, on_done, NULL);
	d->key(&app, d, 'x');
	d->key(&app, d, 0x01);
	d->key(&app, d, '\t');
	d->key(&app, d, KEY_UP);
	d->key(&app, d, 'y');
	is_int(d->key(&app, d, '\n'), 1, "input: Enter closes it");
	is_int(done_calls, 1, "input: Enter hands over the text");
	is_str(done_text, "xy", "input: control and function keys are not typed");
	d->free(d);

	d = amc_tui_input_new("Search", "kept", on_done, NULL);
	is_int(d->key(&app, d, 27), 1, "input: Esc closes it");
	is_int(done_calls, 1, "input: Esc does not hand over the text");
	d->free(d);

	/* A long entry: the end of it stays visible, inside the dialog. */
	d = amc_tui_input_new("Search", NULL, on_done, NULL);
	for (int i = 0; i < 200; i++)
		d->key(&app, d, 'a' + i % 26);
	d->key(&app, d, 'Z');
	show(d);
	int row = tt_find_row("Z_");
	ok(row >= 0, "input: a long entry shows its end");
	ok(row >= 0 && amc_tui_width(tt_row(row)) <= COLS, "input: within the screen");
	for (int i = 0; i < 2000; i++)
		d->key(&app, d, 'q');
	d->key(&app, d, '\r');
	ok(strlen(done_text) < 1024 && strlen(done_text) > 1000, "input: the entry is bounded (%zu bytes)", strlen(done_text));
	d->free(d);
}

/* ---- the runner's questions ---- */

typedef struct call {
	amc_tui_asker *op;
	int confirm;
	const char *text;
	int rc;
	char *answer;
	amc_err e;
	pthread_t th;
} call;

static void *runner(void *arg)
{
	call *c = arg;
	amc_operator *b = amc_tui_asker_base(c->op);
	if (c->confirm)
		c->rc = b->ops->confirm(b, "0123abcdtask", c->text, "Delete account", "delete", &c->e);
	else
		c->rc = b->ops->ask(b, "0123abcdtask", c->text, &c->answer, &c->e);
	return NULL;
}

static int wake[2];

/* Start a runner-side question and open its dialog (as screen.c does). */
static amc_tui_dialog *ask(call *c, int confirm, const char *text)
{
	memset(c, 0, sizeof *c);
	c->op = app.op;
	c->confirm = confirm;
	c->text = text;
	pthread_create(&c->th, NULL, runner, c);
	struct pollfd p = { wake[0], POLLIN, 0 };
	char b;
	if (poll(&p, 1, 30000) != 1 || read(wake[0], &b, 1) != 1)
		return NULL;
	amc_tui_question q;
	if (!amc_tui_asker_take(app.op, &q))
		return NULL;
	return amc_tui_question_new(app.op, &q);
}

static void test_questions(void)
{
	call c;
	amc_tui_dialog *d = ask(&c, 0, "Which account should I use?");
	ok(d != NULL, "ask: the question opens a dialog");
	if (!d)
		return;
	show(d);
	ok(tt_screen_has("Task 0123abcd asks"), "ask: the title names the task (short id)");
	ok(tt_screen_has("Which account should I use?"), "ask: the question is shown");
	ok(tt_screen_has("Enter: answer   Esc: no answer   C-x: cancel the task"), "ask: the keys are shown");
	is_int(d->stale(&app, d), 0, "ask: not stale while it waits");
	const char *ans = "work";
	for (const char *p = ans; *p; p++)
		is_int(d->key(&app, d, *p), 0, "ask: typing '%c' keeps it open", *p);
	show(d);
	ok(tt_screen_has("> work_"), "ask: the answer is shown as typed");
	is_int(d->key(&app, d, '\n'), 1, "ask: Enter answers and closes");
	pthread_join(c.th, NULL);
	is_int(c.rc, 0, "ask: the runner gets the answer");
	is_str(c.answer, "work", "ask: the typed text");
	free(c.answer);
	ok(d->stale(&app, d), "ask: answered, the dialog is stale");
	d->free(d);

	d = ask(&c, 0, "Yes or no?");
	d->key(&app, d, 'y');
	d->key(&app, d, 'n');
	is_int(d->key(&app, d, KEY_ENTER), 1, "ask: keypad Enter answers too");
	pthread_join(c.th, NULL);
	ok(c.rc == 0 && c.answer && !strcmp(c.answer, "yn"), "ask: y and n are typed into the answer");
	free(c.answer);
	d->free(d);

	d = ask(&c, 0, "PIN?");
	is_int(d->key(&app, d, 27), 1, "ask: Esc closes");
	pthread_join(c.th, NULL);
	is_int(c.rc, -1, "ask: Esc gives no answer");
	d->free(d);

	/* A long question wraps inside the dialog (at most 12 lines). */
	char longq[2000] = "";
	for (int i = 0; i < 150; i++)
		strcat(longq, i % 2 ? "lorem " : "ipsum ");
	d = ask(&c, 0, longq);
	show(d);
	int lines = 0;
	for (int y = 0; y < LINES; y++)
		lines += strstr(tt_row(y), "lorem") != NULL;
	ok(lines >= 2 && lines <= 12, "ask: a long question wraps to %d lines (at most 12)", lines);
	app.message[0] = 0;
	is_int(d->key(&app, d, 0x18), 1, "ask: C-x closes the dialog");
	pthread_join(c.th, NULL);
	is_int(c.rc, -1, "ask: C-x of a task not run here: no answer for the runner");
	like(app.message, "not running in this amc", "ask: and the status line says why it was not cancelled");
	d->free(d);

	d = ask(&c, 1, "tap at 540,1200");
	show(d);
	ok(tt_screen_has("allow this action?"), "confirm: the title asks to allow the action");
	ok(tt_find_row("It wants to tap at 540,1200 on \"Delete account\"") >= 0, "confirm: the action and the element");
	ok(tt_screen_has("(\"delete\")"), "confirm: the word it matched");
	is_int(d->key(&app, d, 'a'), 0, "confirm: other keys keep it open");
	is_int(d->key(&app, d, 'y'), 1, "confirm: y closes");
	pthread_join(c.th, NULL);
	is_int(c.rc, 1, "confirm: y allows the action");
	d->free(d);

	d = ask(&c, 1, "swipe");
	is_int(d->key(&app, d, 'n'), 1, "confirm: n closes");
	pthread_join(c.th, NULL);
	is_int(c.rc, 0, "confirm: n refuses");
	d->free(d);

	d = ask(&c, 1, "swipe");
	amc_tui_asker_cancel(app.op, "0123abcdtask");
	pthread_join(c.th, NULL);
	ok(d->stale(&app, d), "a question whose task was cancelled is stale (the app drops it)");
	d->free(d);
}

static void test_launch(void)
{
	amc_tui_dialog *d = amc_tui_launch_new(&app);
	show(d);
	ok(tt_screen_has("Launch a task"), "launch: the dialog opens");
	ok(tt_screen_has("Device") && tt_screen_has("Flow") && tt_screen_has("Max steps: "), "launch: its fields");
	ok(tt_screen_has("a goal in words (LLM planner)..."), "launch: a goal in words is offered");
	char want[64];
	snprintf(want, sizeof want, "Max steps: %ld", amc_config_int(app.cfg, "runner", "max_steps"));
	ok(tt_screen_has(want), "launch: max steps from the configuration");
	d->key(&app, d, '\t');
	show(d);
	strcat(want, "_");
	ok(tt_screen_has(want), "launch: Tab skips the file field for a bundled flow (max steps is edited)");
	for (int i = 0; i < 8; i++)
		d->key(&app, d, KEY_BACKSPACE);
	d->key(&app, d, 'x'); /* digits only */
	d->key(&app, d, '0');
	is_int(d->key(&app, d, '\n'), 0, "launch: max steps 0 keeps it open");
	show(d);
	ok(tt_screen_has("max steps: a whole number from 1 to 100000"), "launch: and says what is allowed");
	ok(tt_screen_has("Max steps: 0_"), "launch: letters are not typed into max steps");
	is_int(d->key(&app, d, 27), 1, "launch: Esc closes it without launching");
	is_int(app.nrunners, 0, "launch: no runner was started");
	d->free(d);

	/* The goal entry: an empty goal is refused. */
	d = amc_tui_launch_new(&app);
	for (int i = 0; i < 200; i++)
		d->key(&app, d, 'j');
	d->key(&app, d, '\t');
	show(d);
	ok(tt_screen_has("Goal: "), "launch: the last flow entry asks for a goal");
	is_int(d->key(&app, d, '\n'), 0, "launch: an empty goal keeps it open");
	show(d);
	ok(tt_screen_has("write the goal"), "launch: and asks for the goal");
	d->free(d);
}

/* Dialogs look their keys up in the keymap table: the keys each dialog's
 * hint names mean there what the dialog does, and letters in a text field
 * are typed rather than looked up. */
static void test_table_keys(void)
{
	static const struct {
		const char *key;
		amc_tui_req req;
	} hint[] = {
		{ "Tab", AMC_REQ_NEXT_PANE }, { "S-Tab", AMC_REQ_PREV_PANE }, { "j", AMC_REQ_DOWN },
		{ "k", AMC_REQ_UP }, { "Enter", AMC_REQ_ENTER }, { "Esc", AMC_REQ_BACK },
		{ "y", AMC_REQ_YES }, { "n", AMC_REQ_NO }, { "C-x", AMC_REQ_CANCEL },
	};
	for (size_t i = 0; i < sizeof hint / sizeof hint[0]; i++)
		is_int(amc_tui_keymap_lookup(amc_tui_keymap_parse_key(hint[i].key), AMC_VIEW_DIALOG), hint[i].req,
		       "table: %s in a dialog is what the hints say", hint[i].key);

	amc_tui_dialog *d = amc_tui_input_new("Search", NULL, on_done, NULL);
	int calls = done_calls;
	d->key(&app, d, 'j');
	d->key(&app, d, 'k');
	d->key(&app, d, 'y');
	d->key(&app, d, 'n');
	is_int(d->key(&app, d, KEY_ENTER), 1, "input: keypad Enter (a table row) accepts");
	ok(done_calls == calls + 1 && !strcmp(done_text, "jkyn"), "input: j, k, y and n are typed: '%s'", done_text);
	d->free(d);

	/* Launch: S-Tab from the flow list goes back to the device list; from
	 * the goal field, Down goes to max steps and letters are typed. */
	d = amc_tui_launch_new(&app);
	d->key(&app, d, KEY_BTAB);
	d->key(&app, d, 'j');
	show(d);
	int fr = tt_find_row("Flow");
	ok(fr > 0 && strstr(tt_row(fr + 1), "(*)"), "launch: after S-Tab, j moves in the device list, not the flows");
	d->key(&app, d, '\t');
	for (int i = 0; i < 200; i++)
		d->key(&app, d, 'j');
	d->key(&app, d, 'k');
	d->key(&app, d, 'j');
	d->key(&app, d, '\t');
	const char *typed = "jk yn";
	for (const char *p = typed; *p; p++)
		d->key(&app, d, *p);
	show(d);
	ok(tt_screen_has("Goal: jk yn_"), "launch: in the goal field j, k, y and n are typed");
	d->key(&app, d, KEY_DOWN);
	show(d);
	ok(tt_screen_has("Goal: jk yn") && !tt_screen_has("Goal: jk yn_"), "launch: Down leaves the goal field");
	char want[64];
	snprintf(want, sizeof want, "Max steps: %ld_", amc_config_int(app.cfg, "runner", "max_steps"));
	ok(tt_screen_has(want), "launch: for max steps");
	d->key(&app, d, KEY_UP);
	show(d);
	ok(tt_screen_has(want), "launch: Up in a text field does nothing");
	is_int(d->key(&app, d, 0x18), 0, "launch: C-x (a question's key) does nothing here");
	d->free(d);
}

int main(void)
{
	const char *home = test_home("tuidialog");
	setenv("AMC_ADB_PATH", "/nonexistent/adb", 1); /* no phones: the sims only */
	if (tt_screen(100, 40) != 0)
		tap_skip_all("ncurses cannot start an xterm-256color screen");
	if (pipe(wake) != 0)
		return 99;
	fcntl(wake[1], F_SETFL, O_NONBLOCK);
	app.cfg = amc_config_new();
	snprintf(app.home, sizeof app.home, "%s", home);
	app.rows = LINES;
	app.cols = COLS;
	app.op = amc_tui_asker_new(wake[1]);
	test_confirm();
	test_input();
	test_questions();
	test_launch();
	test_table_keys();
	amc_tui_asker_shutdown(app.op);
	amc_tui_asker_free(app.op);
	amc_config_free((amc_config *)app.cfg);
	tt_screen_end();
	return done_testing();
}
