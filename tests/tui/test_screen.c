/* test_screen.c - the screen around the views, on an ncurses screen on
 * /dev/null: the title and status lines, keys routed to a dialog, the view
 * or the requests common to every view (quit, back, help, pause, refresh,
 * cancel, Tasks), the mouse, a runner's question opened as a dialog and
 * answered by keys, a cancelled one dropped, and a task launched here
 * followed into its view. */
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "tuitest.h"
#include "tui/app.h"
#include "tui/screen.h"
#include "tui/session.h"

/* ---- a fake view: records what the screen asks of it ---- */

static int frees, reloads, draws, clicks, handle_quit;
static int reqs[AMC_REQ__COUNT];
static const char *fake_task;

static void fdraw(amc_tui_app *a, amc_tui_view *v, int y, int h, int w)
{
	(void)a; (void)v; (void)h; (void)w;
	draws++;
	mvaddstr(y, 0, "fake body");
}

static int freq(amc_tui_app *a, amc_tui_view *v, amc_tui_req r)
{
	(void)a; (void)v;
	reqs[r]++;
	return r == AMC_REQ_QUIT && handle_quit;
}

static void freload(amc_tui_app *a, amc_tui_view *v)
{
	(void)a; (void)v;
	reloads++;
}

static const char *ftask(amc_tui_app *a, amc_tui_view *v)
{
	(void)a; (void)v;
	return fake_task;
}

static void ffree(amc_tui_view *v)
{
	(void)v;
	frees++;
}

static void fclick(amc_tui_app *a, amc_tui_view *v, int y, int x, int twice)
{
	(void)a; (void)v; (void)y; (void)x; (void)twice;
	clicks++;
}

static const amc_tui_view_ops fake = { "Fake", AMC_VIEW_TASKS, fdraw, freq, freload, NULL, ftask, ffree, NULL, fclick };
static const amc_tui_view_ops fake_task_view = { "Fake", AMC_VIEW_TASK, fdraw, freq, freload, NULL, ftask, ffree, NULL, fclick };

static int depth(const amc_tui_app *a)
{
	int n = 0;
	for (const amc_tui_view *v = a->view; v; v = v->prev)
		n++;
	return n;
}

static void test_draw(amc_tui_app *a)
{
	amc_tui_screen_draw(a);
	is_str(tt_row(0), " amc  Fake", "the title line names the view");
	is_str(tt_row(1), "fake body", "the view draws below it");
	is_str(tt_row(LINES - 1), "?:help  n:launch  q:quit", "the status line shows the keys");
	ok(!a->dirty, "drawing clears dirty");
	amc_tui_message(a, 1, "something went wrong");
	amc_tui_screen_draw(a);
	is_str(tt_row(LINES - 1), "something went wrong", "a message replaces the keys");
	a->message[0] = 0;
	/* the Task view's status line names the keys a newcomer needs there */
	const amc_tui_view_ops *was = a->view->ops;
	a->view->ops = &fake_task_view;
	amc_tui_screen_draw(a);
	is_str(tt_row(LINES - 1), "Tab:pane  z:zoom  Esc:back  ?:help  q:quit", "the Task view's status line: panes, zoom, back");
	a->view->ops = was;
	a->paused = 1;
	amc_tui_screen_draw(a);
	is_str(tt_row(0), " amc  Fake  [live updates paused: Z]", "paused updates are shown in the title");
	a->paused = 0;
	resizeterm(5, 40);
	amc_tui_screen_draw(a);
	is_str(tt_row(0), "amc: the terminal is too small", "too small a screen says so");
	resizeterm(20, 60);
	amc_tui_screen_draw(a);
	is_str(tt_row(0), " amc  Fake", "and draws again once it is large enough");
}

static void test_keys(amc_tui_app *a)
{
	memset(reqs, 0, sizeof reqs);
	amc_tui_screen_key(a, 'j');
	is_int(reqs[AMC_REQ_DOWN], 1, "j goes to the view as a request");
	int r0 = reqs[AMC_REQ_NONE];
	a->message[0] = 0;
	amc_tui_message(a, 0, "kept");
	amc_tui_screen_key(a, 'x');
	is_int(reqs[AMC_REQ_NONE], r0, "an unbound key asks nothing");
	is_str(a->message, "kept", "and leaves the message");
	amc_tui_screen_key(a, 'j');
	is_str(a->message, "", "a bound key clears it");

	amc_tui_screen_key(a, '?');
	is_str(a->view->ops->name, "Help", "? opens the help view");
	is_int(depth(a), 2, "on top of the view");
	amc_tui_screen_key(a, 27);
	ok(a->view->ops == &fake && depth(a) == 1, "Esc goes back");

	int rl = reloads;
	amc_tui_screen_key(a, 'Z');
	ok(a->paused && reloads == rl, "Z pauses live updates");
	amc_tui_screen_key(a, 'Z');
	ok(!a->paused && reloads == rl + 1, "Z again resumes them and reloads");
	amc_tui_screen_key(a, 12);
	is_int(reloads, rl + 2, "C-l reloads");
	a->dirty = 0;
	amc_tui_screen_key(a, KEY_RESIZE);
	ok(a->dirty, "a resize redraws");

	fake_task = NULL;
	amc_tui_screen_key(a, 'c');
	is_str(a->message, "no running task selected", "c without a task says so");
	ok(a->message_error && !a->dialog, "as an error, asking nothing");
	fake_task = "0123456789abcdef";
	amc_tui_screen_key(a, 'c');
	ok(a->dialog != NULL, "c on a task asks first");
	amc_tui_screen_draw(a);
	ok(tt_screen_has("Cancel task 01234567?"), "naming it by its short id");
	memset(reqs, 0, sizeof reqs);
	amc_tui_screen_key(a, 'j');
	is_int(reqs[AMC_REQ_DOWN], 0, "keys go to the dialog, not the view");
	amc_tui_screen_mouse(a, 2, 2, BUTTON5_PRESSED);
	is_int(reqs[AMC_REQ_DOWN], 0, "so does the mouse (ignored)");
	amc_tui_screen_key(a, 'y');
	ok(a->dialog == NULL, "y closes the dialog");
	like(a->message, "not running in this amc", "a task not launched here is not cancelled");

	amc_tui_push(a, &fake, NULL);
	amc_tui_push(a, &fake, NULL);
	int f0 = frees;
	amc_tui_screen_key(a, 'T');
	ok(depth(a) == 1 && frees == f0 + 2, "T goes back to the bottom view");

	handle_quit = 1;
	amc_tui_screen_key(a, 'q');
	ok(!a->quit && reqs[AMC_REQ_QUIT] == 1, "a view may take q for itself");
	handle_quit = 0;
	amc_tui_screen_key(a, 'q');
	ok(a->quit, "otherwise q quits when nothing runs here");
	a->quit = 0;
}

static void test_mouse(amc_tui_app *a)
{
	memset(reqs, 0, sizeof reqs);
	amc_tui_screen_mouse(a, 3, 3, BUTTON5_PRESSED);
	is_int(reqs[AMC_REQ_DOWN], 3, "the wheel down scrolls three rows");
	amc_tui_screen_mouse(a, 3, 3, BUTTON4_PRESSED);
	is_int(reqs[AMC_REQ_UP], 3, "the wheel up too");
	amc_tui_screen_mouse(a, 3, 3, BUTTON1_CLICKED);
	is_int(clicks, 1, "a click goes to the view");
}

typedef struct asker {
	amc_tui_asker *op;
	int rc;
	char *answer;
	amc_err e;
	pthread_t th;
} asker;

static void *ask(void *arg)
{
	asker *k = arg;
	amc_operator *base = amc_tui_asker_base(k->op);
	k->rc = base->ops->ask(base, "feedface00000000", "What is the PIN?", &k->answer, &k->e);
	return NULL;
}

/* Wait (up to 30 s: a loaded machine must not fail the test) for a wake. */
static int woken(amc_tui_app *a)
{
	struct pollfd p = { a->wake[0], POLLIN, 0 };
	return poll(&p, 1, 30000) > 0;
}

static void test_questions(amc_tui_app *a)
{
	asker k = { a->op, 0, NULL, { 0 }, 0 };
	pthread_create(&k.th, NULL, ask, &k);
	ok(woken(a), "a runner's question wakes the screen");
	amc_tui_screen_take(a);
	is_int(amc_tui_screen_asking(a), 1, "and opens as a dialog");
	amc_tui_screen_draw(a);
	ok(tt_screen_has("What is the PIN?"), "the question is shown");
	amc_tui_screen_key(a, '4');
	amc_tui_screen_key(a, '2');
	amc_tui_screen_key(a, '\n');
	pthread_join(k.th, NULL);
	ok(k.rc == 0 && k.answer && !strcmp(k.answer, "42"), "keys answer it: '%s'", k.answer ? k.answer : "");
	ok(a->dialog == NULL && amc_tui_screen_asking(a) == 0, "and close it");
	free(k.answer);

	asker k2 = { a->op, 0, NULL, { 0 }, 0 };
	pthread_create(&k2.th, NULL, ask, &k2);
	ok(woken(a), "a second question");
	amc_tui_screen_take(a);
	is_int(amc_tui_screen_asking(a), 1, "is on screen");
	amc_tui_asker_cancel(a->op, "feedface00000000");
	pthread_join(k2.th, NULL);
	is_int(k2.rc, -1, "its task was cancelled: no answer");
	amc_tui_screen_take(a);
	ok(a->dialog == NULL && amc_tui_screen_asking(a) == 0, "and the screen drops its dialog");
}

static void test_follow(amc_tui_app *a)
{
	amc_tui_push(a, &fake, NULL);
	a->follow = 1;
	snprintf(a->follow_id, sizeof a->follow_id, "%s", "0123456789abcdef0123456789abcde");
	amc_event ev = { 0 };
	ev.type = AMC_EV_TASK_CREATED;
	ev.task_id = a->follow_id;
	amc_bus_publish(a->bus, &ev);
	is_int(amc_tui_screen_take(a), 1, "a created row changes rows");
	ok(a->view->ops == &amc_tui_view_task, "a task launched here opens in the Task view");
	is_int(depth(a), 2, "right above the bottom view");
	ok(!a->follow, "once");
}

int main(void)
{
	const char *home = test_home("tuiscreen");
	setenv("AMC_TUI_NOW", "1767229200000", 1);
	amc_tui_app a;
	memset(&a, 0, sizeof a);
	amc_config *cfg = amc_config_new();
	a.cfg = cfg;
	a.graphics = "symbols";
	a.fixed_now = 1767229200000LL;
	snprintf(a.home, sizeof a.home, "%s", home);
	amc_err e;
	if (tt_screen(60, 20) != 0 || amc_store_open(home, &a.store, &e) != 0 || amc_tui_session_start(&a, &e) != 0) {
		printf("Bail out! no screen, store or session\n");
		return 1;
	}
	amc_tui_push(&a, &fake, NULL);
	test_draw(&a);
	test_keys(&a);
	test_mouse(&a);
	test_questions(&a);
	test_follow(&a);
	amc_tui_open_dialog(&a, amc_tui_confirm_new("left open?", NULL, NULL, NULL));
	int f0 = frees;
	amc_tui_screen_free(&a);
	ok(!a.view && !a.dialog && frees == f0 + 1, "free: every view and dialog is gone");
	amc_tui_session_stop(&a);
	amc_tui_session_end(&a);
	amc_store_close(a.store);
	tt_screen_end();
	amc_config_free(cfg);
	return done_testing();
}
