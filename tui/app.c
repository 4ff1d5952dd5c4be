/* app.c - what views and dialogs may ask of the app (see app.h): the clock,
 * the status-line message, the view stack, the dialog queue and frames. It
 * calls views only through their ops, so every view can sit above it. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/text.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/strbuf.h"

long long amc_tui_now(const amc_tui_app *a)
{
	return a->fixed_now ? a->fixed_now : amc_now_ms();
}

void amc_tui_message(amc_tui_app *a, int error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->message, sizeof a->message, fmt, ap);
	va_end(ap);
	a->message_error = error;
	a->message_link[0] = 0;
	a->dirty = 1;
	if (error)
		amc_log_warn("tui: %s", a->message);
}

const char *amc_tui_short_id(amc_tui_app *a, const char *id, char out[AMC_ID_SIZE])
{
	amc_err e;
	if (!id)
		id = "";
	/* no store to ask: the shortest abbreviation, as before */
	if (!a || !a->store || amc_store_short_id(a->store, id, out, &e) != 0)
		snprintf(out, AMC_ID_SIZE, "%.*s", AMC_SHORT_ID_LEN, id);
	return out;
}

void amc_tui_message_link(amc_tui_app *a, const char *abspath, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->message, sizeof a->message, fmt, ap);
	va_end(ap);
	a->message_error = 0;
	snprintf(a->message_link, sizeof a->message_link, "%s", abspath);
	a->dirty = 1;
}

void amc_tui_push(amc_tui_app *a, const amc_tui_view_ops *ops, void *data)
{
	amc_tui_view *v = amc_xcalloc(1, sizeof *v);
	v->ops = ops;
	v->data = data;
	v->prev = a->view;
	a->view = v;
	a->dirty = 1;
}

void amc_tui_pop(amc_tui_app *a)
{
	amc_tui_view *v = a->view;
	if (!v || !v->prev)
		return;
	a->view = v->prev;
	v->ops->free(v);
	free(v);
	if (a->view->ops->reload)
		a->view->ops->reload(a, a->view);
	a->dirty = 1;
}

void amc_tui_open_dialog(amc_tui_app *a, amc_tui_dialog *d)
{
	if (a->dialog) {
		/* One at a time: the new one opens when the current one closes. */
		amc_tui_dialog **p = &a->dialog->next;
		while (*p)
			p = &(*p)->next;
		*p = d;
	} else {
		a->dialog = d;
	}
	a->dirty = 1;
}

void amc_tui_box(int y, int x, int h, int w, const char *title, int focused)
{
	if (h < 2 || w < 2)
		return;
	attr_t at = amc_tui_attr(focused ? AMC_EL_FOCUS : AMC_EL_BORDER);
	attron(at);
	/* Wide-character line drawing (U+2500...) where the locale is UTF-8, so a
	 * dumped screen reads as it looks; ACS otherwise. */
	cchar_t hl, vl, ul, ur, ll, lr;
	if (amc_tui_utf8()) {
		wchar_t c[2] = { 0, 0 };
		short pair = (short)PAIR_NUMBER(at);
		attr_t ab = at & ~A_COLOR;
		c[0] = 0x2500; setcchar(&hl, c, ab, pair, NULL);
		c[0] = 0x2502; setcchar(&vl, c, ab, pair, NULL);
		c[0] = 0x250C; setcchar(&ul, c, ab, pair, NULL);
		c[0] = 0x2510; setcchar(&ur, c, ab, pair, NULL);
		c[0] = 0x2514; setcchar(&ll, c, ab, pair, NULL);
		c[0] = 0x2518; setcchar(&lr, c, ab, pair, NULL);
		mvhline_set(y, x + 1, &hl, w - 2);
		mvhline_set(y + h - 1, x + 1, &hl, w - 2);
		mvvline_set(y + 1, x, &vl, h - 2);
		mvvline_set(y + 1, x + w - 1, &vl, h - 2);
		mvadd_wch(y, x, &ul);
		mvadd_wch(y, x + w - 1, &ur);
		mvadd_wch(y + h - 1, x, &ll);
		mvadd_wch(y + h - 1, x + w - 1, &lr);
	} else {
		mvhline(y, x + 1, ACS_HLINE, w - 2);
		mvhline(y + h - 1, x + 1, ACS_HLINE, w - 2);
		mvvline(y + 1, x, ACS_VLINE, h - 2);
		mvvline(y + 1, x + w - 1, ACS_VLINE, h - 2);
		mvaddch(y, x, ACS_ULCORNER);
		mvaddch(y, x + w - 1, ACS_URCORNER);
		mvaddch(y + h - 1, x, ACS_LLCORNER);
		mvaddch(y + h - 1, x + w - 1, ACS_LRCORNER);
	}
	attroff(at);
	if (title && w > 6) {
		char t[256];
		snprintf(t, sizeof t, " %s ", title);
		amc_tui_put(stdscr, y, x + 2, w - 4, t, at | (focused ? A_BOLD : 0), 0);
	}
}
