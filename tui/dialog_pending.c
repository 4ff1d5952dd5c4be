/* dialog_pending.c - the confirmation another amc process waits for
 * (runtime/pending.h): an MCP client's act on an irreversible-looking element
 * in `amc mcp`, which has no terminal of its own, opens this dialog in the TUI
 * running on the same $AMC_HOME. It shows who asks, the action, its target,
 * the word that made it look irreversible and the client's stated reason; y
 * allows, n or Esc refuses (keymap rows of AMC_VIEW_DIALOG), and the answer
 * goes back through the pending files. The dialog goes away by itself when
 * the question is withdrawn (the asker timed out, was cancelled or died). */
#include <stdlib.h>
#include <string.h>

#include "runtime/pending.h"
#include "tui/app.h"
#include "tui/text.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* Lines of the body at most (the reason is the long part). */
#define PENDING_MAX_LINES 14

typedef struct pend_dialog {
	amc_tui_dialog d;
	char task[AMC_ID_SIZE];
	long long asked_ms;
	char action[300];    /* terminal-safe, for the status message */
	char *what;          /* who wants to do what on what: terminal-safe */
	char *why;           /* "Reason: ..." terminal-safe */
} pend_dialog;

static int pending_key(amc_tui_app *a, amc_tui_dialog *d, int key);

static void pending_draw(amc_tui_app *a, amc_tui_dialog *d)
{
	pend_dialog *p = (pend_dialog *)d;
	int w = a->cols * 3 / 4 < 50 ? 50 : a->cols * 3 / 4;
	if (w > 90)
		w = 90;
	if (w > a->cols - 2)
		w = a->cols - 2;
	int n1 = amc_tui_wrap(p->what, 0, 0, w - 4, PENDING_MAX_LINES / 2, 0, 0);
	int n2 = amc_tui_wrap(p->why, 0, 0, w - 4, PENDING_MAX_LINES / 2, 0, 0);
	int h = n1 + n2 + 5;
	if (h > a->rows - 2)
		h = a->rows - 2;
	int y = (a->rows - h) / 2, x = (a->cols - w) / 2;
	for (int i = 0; i < h; i++)
		amc_tui_put(stdscr, y + i, x, w, "", amc_tui_attr(AMC_EL_NORMAL), 1);
	char title[96];
	char sid[AMC_ID_SIZE];
	snprintf(title, sizeof title, "Task %s: allow this action?", amc_tui_short_id(a, p->task, sid));
	amc_tui_box(y, x, h, w, title, 1);
	amc_tui_wrap(p->what, y + 1, x + 2, w - 4, PENDING_MAX_LINES / 2, amc_tui_attr(AMC_EL_NORMAL), 1);
	amc_tui_wrap(p->why, y + 2 + n1, x + 2, w - 4, PENDING_MAX_LINES / 2, amc_tui_attr(AMC_EL_DIM), 1);
	amc_tui_put(stdscr, y + h - 2, x + 2, w - 4, "y: allow   n or Esc: refuse", amc_tui_attr(AMC_EL_KEY), 0);
}

static int pending_key(amc_tui_app *a, amc_tui_dialog *d, int key)
{
	pend_dialog *p = (pend_dialog *)d;
	amc_tui_req r = amc_tui_keymap_lookup(key, AMC_VIEW_DIALOG);
	if (r != AMC_REQ_YES && r != AMC_REQ_NO && r != AMC_REQ_BACK)
		return 0;
	int yes = r == AMC_REQ_YES;
	amc_err e;
	char sid[AMC_ID_SIZE];
	amc_tui_short_id(a, p->task, sid);
	if (amc_pending_answer(a->home, p->task, yes, &e) != 0)
		amc_tui_message(a, 1, "task %s: %s", sid, e.msg);
	else
		amc_tui_message(a, 0, "task %s: %s %s", sid, yes ? "allowed" : "refused", p->action);
	return 1;
}

static int pending_stale(amc_tui_app *a, amc_tui_dialog *d)
{
	pend_dialog *p = (pend_dialog *)d;
	return !amc_pending_waiting(a->home, p->task, p->asked_ms);
}

static void pending_free(amc_tui_dialog *d)
{
	pend_dialog *p = (pend_dialog *)d;
	free(p->what);
	free(p->why);
	free(p);
}

/* The sanitized form of s, cut to max bytes (at a character boundary). */
static void safe(amc_sb *out, const char *s, size_t max)
{
	amc_sb t;
	amc_sb_init(&t);
	amc_sanitize_line(s, strlen(s), &t);
	size_t n = t.len;
	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)amc_sb_str(&t)[n] & 0xC0) == 0x80)
			n--;
	}
	amc_sb_printf(out, "%.*s%s", (int)n, amc_sb_str(&t), n < t.len ? "..." : "");
	amc_sb_free(&t);
}

amc_tui_dialog *amc_tui_pending_new(const amc_pending *q)
{
	pend_dialog *p = amc_xcalloc(1, sizeof *p);
	p->d.draw = pending_draw;
	p->d.key = pending_key;
	p->d.free = pending_free;
	p->d.stale = pending_stale;
	snprintf(p->task, sizeof p->task, "%s", q->task);
	p->asked_ms = q->asked_ms;
	amc_sb sb;
	amc_sb_init(&sb);
	safe(&sb, q->action, 200);
	snprintf(p->action, sizeof p->action, "%s", amc_sb_str(&sb));
	amc_sb_free(&sb);
	amc_sb_init(&sb);
	safe(&sb, q->asker[0] ? q->asker : "Another amc process", 200);
	amc_sb_puts(&sb, " wants to ");
	safe(&sb, q->action, 200);
	if (q->target[0]) {
		amc_sb_puts(&sb, " on \"");
		safe(&sb, q->target, 200);
		amc_sb_puts(&sb, "\"");
	}
	amc_sb_puts(&sb, ", which looks irreversible");
	if (q->word[0]) {
		amc_sb_puts(&sb, " (\"");
		safe(&sb, q->word, 64);
		amc_sb_puts(&sb, "\")");
	}
	amc_sb_puts(&sb, ".");
	p->what = amc_sb_detach(&sb);
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "Reason: ");
	if (q->reason[0])
		safe(&sb, q->reason, 600);
	else
		amc_sb_puts(&sb, "(none given)");
	p->why = amc_sb_detach(&sb);
	return &p->d;
}

int amc_tui_pending_poll(amc_tui_app *a)
{
	amc_pending *qs;
	size_t n;
	amc_err e;
	if (amc_pending_list(a->home, &qs, &n, &e) != 0)
		return 0;
	int opened = 0;
	for (size_t i = 0; i < n; i++) {
		int shown = 0;
		for (amc_tui_dialog *d = a->dialog; d && !shown; d = d->next)
			if (d->key == pending_key) {
				const pend_dialog *p = (const pend_dialog *)d;
				shown = !strcmp(p->task, qs[i].task) && p->asked_ms == qs[i].asked_ms;
			}
		if (!shown) {
			amc_tui_open_dialog(a, amc_tui_pending_new(&qs[i]));
			opened++;
		}
	}
	free(qs);
	if (opened)
		a->dirty = 1;
	return opened;
}
