/* screen.c - the title and status lines, dialogs, and the keys and clicks
 * common to every view (see screen.h). */
#include <stdlib.h>
#include <string.h>

#include "tui/pixels.h"
#include "tui/screen.h"
#include "tui/session.h"
#include "tui/text.h"
#include "util/strbuf.h"

void amc_tui_screen_draw(amc_tui_app *a)
{
	getmaxyx(stdscr, a->rows, a->cols);
	if (a->dialog)
		amc_tui_pixels_hide(); /* images would cover the overlay */
	amc_tui_pixels_begin(a->dialog == NULL);
	erase();
	if (a->rows < 6 || a->cols < 30) {
		amc_tui_put(stdscr, 0, 0, a->cols, "amc: the terminal is too small", A_NORMAL, 0);
	} else {
		amc_tui_view *v = a->view;
		char title[256];
		snprintf(title, sizeof title, " amc  %s%s", v->ops->name, a->paused ? "  [live updates paused: Z]" : "");
		amc_tui_put(stdscr, 0, 0, a->cols, title, amc_tui_attr(AMC_EL_STATUS), 1);
		v->ops->draw(a, v, 1, a->rows - 2, a->cols);
		/* the Task view's own first keys: a newcomer there needs to know how
		 * to reach the other panes, see one whole and get back */
		const char *hint = v->ops->mask == AMC_VIEW_TASK ? "Tab:pane  z:zoom  Esc:back  ?:help  q:quit"
							       : "?:help  n:launch  q:quit";
		if (a->message[0]) {
			amc_tui_put(stdscr, a->rows - 1, 0, a->cols, a->message,
				    amc_tui_attr(a->message_error ? AMC_EL_ERROR : AMC_EL_NORMAL), 1);
		} else {
			char st[256];
			int own = amc_tui_own_running(a);
			if (own)
				snprintf(st, sizeof st, "%d task%s running here   %s", own, own == 1 ? "" : "s", hint);
			else
				snprintf(st, sizeof st, "%s", hint);
			amc_tui_put(stdscr, a->rows - 1, 0, a->cols, st, amc_tui_attr(AMC_EL_DIM), 1);
		}
		if (a->dialog)
			a->dialog->draw(a, a->dialog);
	}
	wnoutrefresh(stdscr);
	doupdate();
	amc_tui_pixels_flush();
	/* the message's file path as an OSC 8 link, written over the same cells
	 * (ncurses cannot hold a link); only when the whole message is shown */
	if (a->hyperlinks && a->message[0] && a->message_link[0] && !a->dialog && a->rows >= 6) {
		const char *at = strstr(a->message, a->message_link);
		if (at && amc_tui_width(a->message) <= a->cols) {
			char *head = amc_xstrndup(a->message, (size_t)(at - a->message));
			amc_tui_pixels_osc8(a->rows - 1, amc_tui_width(head), a->message_link);
			free(head);
		}
	}
	a->dirty = 0;
}

void amc_tui_screen_reload(amc_tui_app *a)
{
	if (a->view->ops->reload)
		a->view->ops->reload(a, a->view);
	a->dirty = 1;
}

/* Drop the dialogs whose question went away (its task was cancelled). */
static void sweep_dialogs(amc_tui_app *a)
{
	for (amc_tui_dialog **p = &a->dialog; *p;) {
		amc_tui_dialog *d = *p;
		if (d->stale && d->stale(a, d)) {
			*p = d->next;
			d->free(d);
			a->dirty = 1;
		} else {
			p = &d->next;
		}
	}
}

/* Questions from runner threads open as dialogs, and so do the
 * confirmations other processes wait for (amc mcp: runtime/pending.h). */
static void take_questions(amc_tui_app *a)
{
	amc_tui_question q;
	while (amc_tui_asker_take(a->op, &q))
		amc_tui_open_dialog(a, amc_tui_question_new(a->op, &q));
	amc_tui_pending_poll(a);
	sweep_dialogs(a);
}

void amc_tui_screen_questions(amc_tui_app *a)
{
	take_questions(a);
}

/* Operator questions on screen or queued. */
int amc_tui_screen_asking(const amc_tui_app *a)
{
	int n = 0;
	for (const amc_tui_dialog *d = a->dialog; d; d = d->next)
		n += d->stale != NULL;
	return n;
}

int amc_tui_screen_take(amc_tui_app *a)
{
	int followed;
	int changed = amc_tui_session_drain(a, &followed);
	take_questions(a);
	if (followed) {
		while (a->view->prev)
			amc_tui_pop(a);
		amc_tui_push(a, &amc_tui_view_task, amc_tui_task_new(a, a->follow_id));
	}
	return changed;
}

/* ---- requests common to all views ---- */

static void quit_yes(amc_tui_app *a, void *ud)
{
	(void)ud;
	amc_tui_session_cancel_all(a);
	amc_tui_asker_cancel(a->op, NULL);
	a->quit = 1;
}

static void cancel_yes(amc_tui_app *a, void *ud)
{
	amc_err e;
	if (amc_tui_cancel(a, ud, &e) != 0)
		amc_tui_message(a, 1, "%s", e.msg); /* on success it says "cancelling task" itself */
}

/* The wheel scrolls like j/k; a click selects or focuses (view ops). */
void amc_tui_screen_mouse(amc_tui_app *a, int y, int x, mmask_t b)
{
	amc_tui_view *v = a->view;
	if (a->dialog)
		return;
	if (b & BUTTON4_PRESSED)
		for (int i = 0; i < 3; i++)
			v->ops->request(a, v, AMC_REQ_UP);
	else if (b & BUTTON5_PRESSED)
		for (int i = 0; i < 3; i++)
			v->ops->request(a, v, AMC_REQ_DOWN);
	else if ((b & (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_PRESSED)) && v->ops->click)
		v->ops->click(a, v, y, x, (b & BUTTON1_DOUBLE_CLICKED) != 0);
	a->dirty = 1;
}

void amc_tui_screen_key(amc_tui_app *a, int key)
{
	if (key == KEY_RESIZE) {
		/* Forget images (their cells moved), lay out again, repaint all. */
		amc_tui_pixels_hide();
		clearok(curscr, TRUE);
		a->dirty = 1;
		return;
	}
	if (key == KEY_MOUSE) {
		MEVENT m;
		if (getmouse(&m) == OK)
			amc_tui_screen_mouse(a, m.y, m.x, m.bstate);
		return;
	}
	if (a->dialog) {
		if (a->dialog->key(a, a->dialog, key)) {
			amc_tui_dialog *d = a->dialog;
			a->dialog = d->next;
			d->free(d);
		}
		sweep_dialogs(a);
		a->dirty = 1;
		return;
	}
	amc_tui_view *v = a->view;
	unsigned mask = v->ops->mask | (v->ops->keymask ? v->ops->keymask(a, v) : 0);
	amc_tui_req req = amc_tui_keymap_lookup(key, mask);
	if (req == AMC_REQ_NONE)
		return;
	a->message[0] = 0;
	a->dirty = 1;
	if (v->ops->request(a, v, req))
		return;
	switch (req) {
	case AMC_REQ_QUIT:
		if (amc_tui_own_running(a)) {
			char q[128];
			int n = amc_tui_own_running(a);
			snprintf(q, sizeof q, "%d task%s launched here %s still running. Cancel and quit?", n,
				 n == 1 ? "" : "s", n == 1 ? "is" : "are");
			amc_tui_open_dialog(a, amc_tui_confirm_new(q, quit_yes, NULL, NULL));
		} else {
			a->quit = 1;
		}
		break;
	case AMC_REQ_BACK:
		amc_tui_pop(a);
		break;
	case AMC_REQ_HELP:
		amc_tui_push(a, &amc_tui_view_help, amc_tui_help_new(a, v->ops->mask));
		break;
	case AMC_REQ_LAUNCH:
		amc_tui_open_dialog(a, amc_tui_launch_new(a));
		break;
	case AMC_REQ_CANCEL: {
		const char *id = v->ops->task ? v->ops->task(a, v) : NULL;
		if (!id) {
			amc_tui_message(a, 1, "no running task selected");
			break;
		}
		char q[128];
		char sid[AMC_ID_SIZE];
		snprintf(q, sizeof q, "Cancel task %s?", amc_tui_short_id(a, id, sid));
		amc_tui_open_dialog(a, amc_tui_confirm_new(q, cancel_yes, amc_xstrdup(id), free));
		break;
	}
	case AMC_REQ_DEVICES:
	case AMC_REQ_TASKS:
		while (a->view->prev)
			amc_tui_pop(a);
		if (req == AMC_REQ_DEVICES)
			amc_tui_push(a, &amc_tui_view_devices, amc_tui_devices_new(a));
		break;
	case AMC_REQ_FLEET: {
		const char *url = amc_config_str(a->cfg, "fleet", "url");
		if (!url || !*url) {
			amc_tui_message(a, 1, "no fleet database: set url under [fleet] or AMC_FLEET_URL (docs/fleet.md)");
			break;
		}
		while (a->view->prev)
			amc_tui_pop(a);
		amc_tui_push(a, &amc_tui_view_fleet, amc_tui_fleet_new(a));
		break;
	}
	case AMC_REQ_PAUSE:
		a->paused = !a->paused;
		if (!a->paused)
			amc_tui_screen_reload(a);
		break;
	case AMC_REQ_REFRESH:
		clearok(curscr, TRUE);
		amc_tui_screen_reload(a);
		break;
	default:
		break;
	}
}

void amc_tui_screen_free(amc_tui_app *a)
{
	while (a->dialog) {
		amc_tui_dialog *d = a->dialog;
		a->dialog = d->next;
		d->free(d);
	}
	while (a->view) {
		amc_tui_view *v = a->view;
		a->view = v->prev;
		v->ops->free(v);
		free(v);
	}
}
