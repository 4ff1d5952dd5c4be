/* app.c - the TUI loop: one poll() on the keyboard, the wake pipe the event
 * bus writes to, and inotify on $AMC_HOME; no timer runs while idle.
 *
 * Live updates: runner threads publish events; the bus callback (on the runner
 * thread) only queues the fact and writes a byte to the pipe. Another amc
 * process is noticed by inotify on the database's folder, confirmed with
 * PRAGMA data_version; SQLite's last write may only touch the -shm (mmap, no
 * inotify event), so a wake that shows no change is re-checked once 50 ms
 * later, and a 1 s safety tick runs only while a running task is on screen. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>

#include "tui/app.h"
#include "tui/image.h"
#include "tui/pixels.h"
#include "tui/text.h"
#include "tui/tui.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static volatile sig_atomic_t got_hup, got_term, got_winch;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else if (sig == SIGWINCH)
		got_winch = 1;
	else
		got_term = 1;
}

/* ---- events from runner threads ---- */

static pthread_mutex_t ev_mu = PTHREAD_MUTEX_INITIALIZER;
static int ev_pipe[2] = { -1, -1 };
typedef struct ev_copy {
	amc_event_type type;
	char task[32];
	int step;
	char phase[16];
} ev_copy;
static ev_copy ev_queue[256];
static int ev_n, ev_lost;

static void on_event(const amc_event *ev, void *ud)
{
	(void)ud;
	pthread_mutex_lock(&ev_mu);
	if (ev_n < (int)(sizeof ev_queue / sizeof ev_queue[0])) {
		ev_copy *c = &ev_queue[ev_n++];
		c->type = ev->type;
		snprintf(c->task, sizeof c->task, "%s", ev->task_id ? ev->task_id : "");
		c->step = ev->step;
		snprintf(c->phase, sizeof c->phase, "%s", ev->phase ? ev->phase : "");
	} else {
		ev_lost = 1; /* a full queue only means "reload everything" */
	}
	pthread_mutex_unlock(&ev_mu);
	char b = 1;
	ssize_t w = write(ev_pipe[1], &b, 1); /* nonblocking: a full pipe already wakes */
	(void)w;
}

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
	a->dirty = 1;
	if (error)
		amc_log_warn("tui: %s", a->message);
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

static amc_runner *runner_for(amc_tui_app *a, const char *device, int create, amc_err *e)
{
	for (int i = 0; i < a->nrunners; i++)
		if (!strcmp(amc_runner_device(a->runners[i]), device))
			return a->runners[i];
	if (!create)
		return NULL;
	if (a->nrunners == AMC_TUI_MAX_RUNNERS) {
		amc_err_set(e, AMC_EENV, "too many devices in use from one TUI (%d)", AMC_TUI_MAX_RUNNERS);
		return NULL;
	}
	amc_runner *r;
	if (amc_runner_start(a->home, device, a->cfg, a->bus, &r, e) != 0)
		return NULL;
	/* Goals need the operator, the words and SemanticScenes; flows are not
	 * gated, so the same settings serve them too. */
	amc_enricher *en = NULL;
	amc_err ee;
	if (amc_enricher_from_config(a->cfg, &en, &ee) != 0) {
		amc_tui_message(a, 1, "%s; going on without SemanticScenes", ee.msg);
		en = NULL;
	}
	a->enrichers[a->nrunners] = en;
	amc_runner_set_agent_opts(r, amc_tui_operator_base(a->op), &a->words, 0, en);
	a->runners[a->nrunners++] = r;
	return r;
}

int amc_tui_launch(amc_tui_app *a, amc_task *task, amc_planner *planner, amc_err *e)
{
	amc_runner *r = runner_for(a, task->device, 1, e);
	if (!r) {
		amc_task_free(task);
		amc_planner_free(planner);
		return -1;
	}
	char id[32];
	snprintf(id, sizeof id, "%s", task->id);
	if (amc_runner_submit(r, task, planner, e) != 0)
		return -1;
	if (a->nown == AMC_TUI_MAX_OWN) {
		memmove(a->own[0], a->own[1], sizeof a->own[0] * (AMC_TUI_MAX_OWN - 1));
		a->nown--;
	}
	snprintf(a->own[a->nown++], sizeof a->own[0], "%s", id);
	snprintf(a->follow_id, sizeof a->follow_id, "%s", id);
	a->follow = 1;
	amc_log_info("tui: launched task %s on %s", id, amc_runner_device(r));
	return 0;
}

int amc_tui_cancel(amc_tui_app *a, const char *task_id, amc_err *e)
{
	for (int i = 0; i < a->nrunners; i++)
		if (amc_runner_cancel(a->runners[i], task_id) == 0) {
			amc_tui_operator_cancel(a->op, task_id); /* a question it waits on */
			return 0;
		}
	return amc_err_set(e, AMC_EUSAGE, "task %.8s is not running in this amc (cancel it where it was started)", task_id);
}

int amc_tui_own_running(amc_tui_app *a)
{
	int n = 0;
	for (int i = 0; i < a->nrunners; i++)
		n += amc_runner_busy(a->runners[i]);
	return n;
}

const char *amc_tui_phase(const amc_tui_app *a, const char *task_id, int *step)
{
	for (size_t i = 0; i < sizeof a->phase / sizeof a->phase[0]; i++)
		if (a->phase[i].task[0] && !strcmp(a->phase[i].task, task_id)) {
			*step = a->phase[i].step;
			return a->phase[i].phase;
		}
	return NULL;
}

static void set_phase(amc_tui_app *a, const ev_copy *c)
{
	size_t n = sizeof a->phase / sizeof a->phase[0], slot = n;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(a->phase[i].task, c->task))
			slot = i;
	for (size_t i = 0; slot == n && i < n; i++)
		if (!a->phase[i].task[0])
			slot = i;
	if (slot == n)
		slot = 0;
	if (c->type == AMC_EV_TASK_STATUS) {
		a->phase[slot].task[0] = 0; /* a status change ends the phase display */
		return;
	}
	snprintf(a->phase[slot].task, sizeof a->phase[slot].task, "%s", c->task);
	a->phase[slot].step = c->step;
	snprintf(a->phase[slot].phase, sizeof a->phase[slot].phase, "%s",
		 c->type == AMC_EV_STEP_STARTED ? "observe" : c->phase);
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

/* ---- drawing ---- */

static void draw(amc_tui_app *a)
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
		const char *hint = "?:help  n:launch  q:quit";
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
	a->dirty = 0;
}

/* ---- changes ---- */

static long long data_version(amc_tui_app *a)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(amc_store_db(a->store), "PRAGMA data_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return v;
}

static void reload(amc_tui_app *a)
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

/* Questions from runner threads open as dialogs. */
static void take_questions(amc_tui_app *a)
{
	amc_tui_question q;
	while (amc_tui_operator_take(a->op, &q))
		amc_tui_open_dialog(a, amc_tui_question_new(a->op, &q));
	sweep_dialogs(a);
}

/* Operator questions on screen or queued. */
static int asking(amc_tui_app *a)
{
	int n = 0;
	for (amc_tui_dialog *d = a->dialog; d; d = d->next)
		n += d->stale != NULL;
	return n;
}

/* Drain the event queue; returns 1 when something that changes rows arrived. */
static int drain_events(amc_tui_app *a)
{
	char buf[256];
	ssize_t got;
	while ((got = read(ev_pipe[0], buf, sizeof buf)) > 0)
		for (ssize_t i = 0; i < got; i++)
			if (buf[i] == 3)
				a->dirty = 1; /* a screenshot render is ready (image.c) */
	take_questions(a);
	ev_copy local[256];
	int n, lost;
	pthread_mutex_lock(&ev_mu);
	n = ev_n;
	lost = ev_lost;
	memcpy(local, ev_queue, sizeof local[0] * (size_t)n);
	ev_n = 0;
	ev_lost = 0;
	pthread_mutex_unlock(&ev_mu);
	int changed = lost;
	for (int i = 0; i < n; i++) {
		if (local[i].type == AMC_EV_STEP_PHASE || local[i].type == AMC_EV_STEP_STARTED ||
		    local[i].type == AMC_EV_TASK_STATUS)
			set_phase(a, &local[i]);
		if (local[i].type != AMC_EV_STEP_PHASE)
			changed = 1;
		a->dirty = 1;
	}
	/* Follow a task launched here into its Task view once its row exists. */
	if (a->follow) {
		for (int i = 0; i < n; i++)
			if (local[i].type == AMC_EV_TASK_CREATED && !strcmp(local[i].task, a->follow_id)) {
				a->follow = 0;
				while (a->view->prev)
					amc_tui_pop(a);
				amc_tui_push(a, &amc_tui_view_task, amc_tui_task_new(a, a->follow_id));
				break;
			}
	}
	return changed;
}

/* ---- requests common to all views ---- */

static void quit_yes(amc_tui_app *a, void *ud)
{
	(void)ud;
	for (int i = 0; i < a->nrunners; i++)
		amc_runner_cancel_all(a->runners[i]);
	amc_tui_operator_cancel(a->op, NULL);
	a->quit = 1;
}

static void cancel_yes(amc_tui_app *a, void *ud)
{
	amc_err e;
	if (amc_tui_cancel(a, ud, &e) != 0)
		amc_tui_message(a, 1, "%s", e.msg);
	else
		amc_tui_message(a, 0, "cancelling task %.8s", (char *)ud);
}

/* The wheel scrolls like j/k; a click selects or focuses (view ops). */
static void mouse(amc_tui_app *a, int y, int x, mmask_t b)
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

static void handle_key(amc_tui_app *a, int key)
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
			mouse(a, m.y, m.x, m.bstate);
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
		snprintf(q, sizeof q, "Cancel task %.8s?", id);
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
	case AMC_REQ_PAUSE:
		a->paused = !a->paused;
		if (!a->paused)
			reload(a);
		break;
	case AMC_REQ_REFRESH:
		clearok(curscr, TRUE);
		reload(a);
		break;
	default:
		break;
	}
}

/* ---- script mode ---- */

/* Timing for `make bench` (AMC_TUI_TIMING=FILE, script mode): the first
 * frame, then per key the time from handling it to the frame being out,
 * grouped by `:mark NAME` lines; image renders come from image.c. */
typedef struct timing {
	FILE *f;
	long long t0;
	char series[64];
	long long *v;
	size_t n;
} timing;
static timing tm;

static long long mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void timing_flush(void)
{
	if (!tm.f || !tm.n)
		return;
	fprintf(tm.f, "keys %s", tm.series);
	for (size_t i = 0; i < tm.n; i++)
		fprintf(tm.f, " %lld", tm.v[i]);
	fputc('\n', tm.f);
	tm.n = 0;
}

static void dump_screen(amc_tui_app *a, const char *dir, const char *name)
{
	char path[8400];
	snprintf(path, sizeof path, "%s/%s.txt", dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		amc_log_error("tui: cannot write %s", path);
		return;
	}
	for (int y = 0; y < a->rows; y++) {
		wchar_t line[1024];
		int n = mvwinnwstr(curscr, y, 0, line, a->cols < 1023 ? a->cols : 1023);
		if (n < 0)
			n = 0;
		line[n] = 0;
		while (n > 0 && line[n - 1] == L' ')
			line[--n] = 0;
		amc_sb sb;
		amc_sb_init(&sb);
		for (int i = 0; i < n; i++)
			amc_utf8_encode((unsigned)line[i], &sb);
		fprintf(f, "%s\n", amc_sb_str(&sb));
		amc_sb_free(&sb);
	}
	fclose(f);
}

/* Wait until every runner is idle, then take in its events and commits. */
static void script_wait(amc_tui_app *a, long long *dv)
{
	for (int i = 0; i < a->nrunners; i++)
		amc_runner_wait_idle(a->runners[i], 120000);
	drain_events(a);
	*dv = data_version(a);
	reload(a);
}

/* Draw, then wait for the screenshot renders that drawing asked for and draw
 * again until none is left (script mode: dumps are deterministic). */
static void settle_renders(amc_tui_app *a)
{
	draw(a);
	while (amc_tui_image_settle()) {
		drain_events(a);
		draw(a);
	}
}

static int run_script(amc_tui_app *a, const amc_tui_opts *o, amc_err *e)
{
	FILE *f = fopen(o->script, "r");
	if (!f)
		return amc_err_set(e, AMC_EUSAGE, "cannot read script %s", o->script);
	char line[1024];
	long long dv = data_version(a);
	int rc = 0;
	draw(a);
	if (tm.f)
		fprintf(tm.f, "first_frame_us %lld\n", mono_us() - tm.t0);
	while (!a->quit && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		if (!strncmp(line, ":mark ", 6)) {
			timing_flush();
			snprintf(tm.series, sizeof tm.series, "%.60s", line + 6);
		} else if (!strncmp(line, ":dump ", 6)) {
			/* A dump shows the screen once the renders it asked for are in. */
			settle_renders(a);
			dump_screen(a, o->dump_dir ? o->dump_dir : ".", line + 6);
		} else if (!strcmp(line, ":settle")) {
			settle_renders(a);
		} else if (!strncmp(line, ":resize ", 8)) {
			int c, r;
			if (sscanf(line + 8, "%dx%d", &c, &r) == 2) {
				resizeterm(r, c);
				amc_tui_image_forget();
				a->dirty = 1;
			}
		} else if (!strncmp(line, ":click ", 7) || !strncmp(line, ":dclick ", 8) || !strncmp(line, ":wheel ", 7)) {
			/* Mouse events at row,col: what getmouse() would report. */
			int y, x;
			char what[16];
			if (sscanf(line + 1, "%15s %d,%d", what, &y, &x) == 3)
				mouse(a, y, x, !strcmp(what, "click") ? BUTTON1_CLICKED :
					       !strcmp(what, "dclick") ? BUTTON1_DOUBLE_CLICKED :
					       y < 0 ? BUTTON4_PRESSED : BUTTON5_PRESSED);
		} else if (!strcmp(line, ":wait")) {
			script_wait(a, &dv);
		} else if (!strcmp(line, ":ask")) {
			/* wait up to 10 s for an operator question to be on screen */
			long long until = amc_mono_ms() + 10000;
			while (!asking(a) && amc_mono_ms() < until) {
				struct pollfd p = { ev_pipe[0], POLLIN, 0 };
				if (poll(&p, 1, 200) > 0 && drain_events(a))
					reload(a);
			}
		} else if (!strcmp(line, ":drain")) {
			struct pollfd p = { ev_pipe[0], POLLIN, 0 };
			if (poll(&p, 1, 10000) > 0 && drain_events(a))
				reload(a);
		} else if (!strcmp(line, ":changes")) {
			/* What the loop does after an inotify wake: compare data_version. */
			long long nv = data_version(a);
			if (nv != dv) {
				dv = nv;
				reload(a);
			}
		} else if (!strncmp(line, ":type ", 6)) {
			for (const char *p = line + 6; *p; p++)
				handle_key(a, (unsigned char)*p);
		} else {
			char *save = NULL;
			for (char *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
				int k = amc_tui_keymap_parse_key(tok);
				if (k < 0) {
					rc = amc_err_set(e, AMC_EUSAGE, "script %s: unknown key '%s'", o->script, tok);
					break;
				}
				long long k0 = tm.f ? mono_us() : 0;
				handle_key(a, k);
				if (drain_events(a))
					reload(a);
				if (a->quit)
					break;
				if (tm.f) {
					if (a->dirty)
						draw(a);
					tm.v = amc_xrealloc(tm.v, (tm.n + 1) * sizeof *tm.v);
					tm.v[tm.n++] = mono_us() - k0;
				}
			}
			if (rc)
				break;
		}
		if (a->dirty)
			draw(a);
	}
	fclose(f);
	return rc;
}

/* ---- the interactive loop ---- */

static int watch_home(amc_tui_app *a)
{
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fd < 0)
		return -1;
	if (inotify_add_watch(fd, a->home, IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* 1 when an inotify batch touched the database files (not the log, not sim state). */
static int db_touched(int fd)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int hit = 0;
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			if (ev->len && !strncmp(ev->name, "amc.db", 6))
				hit = 1;
			p += sizeof *ev + ev->len;
		}
	}
	return hit;
}

static int live_on_screen(amc_tui_app *a)
{
	return !a->paused && a->view->ops->live && a->view->ops->live(a, a->view);
}

static void finish_on_hup(amc_tui_app *a)
{
	/* The terminal is gone: do not draw, let tasks finish within their own
	 * budgets (max steps, timeouts), record their ends, then leave. */
	amc_log_info("tui: terminal hung up; waiting for %d running task(s) to finish", amc_tui_own_running(a));
	amc_tui_operator_shutdown(a->op); /* nobody is left to answer */
	for (int i = 0; i < a->nrunners; i++)
		amc_runner_stop(a->runners[i], 0);
	a->nrunners = 0;
}

static void loop(amc_tui_app *a)
{
	int ino = watch_home(a);
	long long dv = data_version(a);
	long long recheck_at = 0, tick_at = 0;
	if (ino < 0)
		amc_log_warn("tui: inotify unavailable; other processes' tasks show on C-l or while a task runs");
	while (!a->quit) {
		if (got_hup || got_term)
			return;
		if (got_winch) {
			got_winch = 0;
			/* ncurses' own SIGWINCH handler also queues KEY_RESIZE */
		}
		if (a->dirty)
			draw(a);
		long long now = amc_mono_ms();
		int timeout = -1;
		if (recheck_at)
			timeout = (int)(recheck_at > now ? recheck_at - now : 0);
		if (live_on_screen(a) || ino < 0) {
			if (!tick_at)
				tick_at = now + 1000;
			int t = (int)(tick_at > now ? tick_at - now : 0);
			if (timeout < 0 || t < timeout)
				timeout = t;
		} else {
			tick_at = 0;
		}
		struct pollfd p[3] = { { STDIN_FILENO, POLLIN, 0 }, { ev_pipe[0], POLLIN, 0 }, { ino, POLLIN, 0 } };
		int r = poll(p, ino >= 0 ? 3 : 2, timeout);
		if (r < 0 && errno != EINTR)
			return;
		now = amc_mono_ms();
		int check = 0;
		if (r > 0 && (p[0].revents & POLLIN)) {
			int k;
			while ((k = getch()) != ERR) {
				if (k == 27) {
					/* ESC with a key right behind it is Alt/Meta+key. */
					int k2 = getch();
					if (k2 == '[' || k2 == 'O') {
						/* A sequence ncurses does not know (e.g. a
						 * modified key): drop it, up to its final byte,
						 * rather than reading it as Esc plus letters. */
						int k3;
						while ((k3 = getch()) != ERR && !(k3 >= 0x40 && k3 <= 0x7e))
							;
						continue;
					}
					if (k2 != ERR && k2 < 0x100 && k2 != 27)
						k = AMC_KEY_META(k2);
					else if (k2 != ERR)
						ungetch(k2);
				}
				handle_key(a, k);
			}
		}
		if (r > 0 && (p[0].revents & (POLLHUP | POLLERR))) {
			got_hup = 1;
			return;
		}
		if (r > 0 && (p[1].revents & POLLIN)) {
			if (drain_events(a) && !a->paused)
				reload(a);
			dv = data_version(a); /* our own runners' commits are already shown */
		}
		if (ino >= 0 && r > 0 && (p[2].revents & POLLIN) && db_touched(ino))
			check = 1;
		if (recheck_at && now >= recheck_at) {
			recheck_at = 0;
			check = 2;
		}
		if (tick_at && now >= tick_at) {
			tick_at = 0;
			check = 2;
		}
		if (check) {
			long long nv = data_version(a);
			if (nv != dv) {
				dv = nv;
				if (!a->paused)
					reload(a);
			} else if (check == 1) {
				recheck_at = now + 50;
			}
		}
	}
	if (ino >= 0)
		close(ino);
}

void amc_tui_write_man(FILE *f)
{
	amc_tui_keymap_write_man(f);
}

int amc_tui_main(const amc_tui_opts *o, amc_err *e)
{
	amc_tui_app app;
	amc_tui_app *a = &app;
	memset(a, 0, sizeof *a);
	const char *tpath = o->script ? getenv("AMC_TUI_TIMING") : NULL;
	if (tpath) {
		tm.f = fopen(tpath, "w");
		tm.t0 = mono_us();
		amc_tui_image_timing(tm.f);
	}
	a->cfg = o->cfg;
	snprintf(a->home, sizeof a->home, "%s", o->home);
	a->script = o->script != NULL;
	const char *now = getenv("AMC_TUI_NOW");
	if (now)
		a->fixed_now = strtoll(now, NULL, 10);
	const char *gsetting = o->graphics ? o->graphics : amc_config_str(o->cfg, "tui", "graphics");
	/* Symbols are drawn wherever pixels are not (and under dialogs). */
	a->graphics = !strcmp(gsetting, "none") ? "none" : "symbols";
	if (amc_store_open(a->home, &a->store, e) != 0)
		return -1;
	if (pipe(ev_pipe) != 0) {
		amc_store_close(a->store);
		return amc_err_set(e, AMC_EENV, "pipe: %s", strerror(errno));
	}
	fcntl(ev_pipe[0], F_SETFL, O_NONBLOCK);
	fcntl(ev_pipe[1], F_SETFL, O_NONBLOCK);
	a->bus = amc_bus_new();
	int sub = amc_bus_subscribe(a->bus, on_event, NULL);
	a->op = amc_tui_operator_new(ev_pipe[1]);

	/* While the TUI runs, stderr (tesseract, libxml2, ...) goes to the log. */
	int saved_err = -1;
	FILE *vin = NULL, *vout = NULL;
	SCREEN *scr = NULL;
	if (a->script) {
		vin = fopen("/dev/null", "r");
		vout = fopen(o->tty_output ? o->tty_output : "/dev/null", "w");
		const char *term = getenv("TERM");
		if (o->cols > 0 && o->rows > 0) {
			char c[16], r[16];
			snprintf(c, sizeof c, "%d", o->cols);
			snprintf(r, sizeof r, "%d", o->rows);
			setenv("COLUMNS", c, 1);
			setenv("LINES", r, 1);
		}
		scr = vin && vout ? newterm(term && *term ? term : "xterm-256color", vout, vin) : NULL;
	} else {
		char logp[8192];
		snprintf(logp, sizeof logp, "%s/amc.log", a->home);
		int lfd = open(logp, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
		if (lfd >= 0) {
			saved_err = dup(STDERR_FILENO);
			dup2(lfd, STDERR_FILENO);
			close(lfd);
		}
		scr = newterm(NULL, stdout, stdin);
	}
	if (!scr) {
		if (saved_err >= 0) {
			dup2(saved_err, STDERR_FILENO);
			close(saved_err);
		}
		if (vin)
			fclose(vin);
		if (vout)
			fclose(vout);
		amc_bus_unsubscribe(a->bus, sub);
		amc_bus_free(a->bus);
		amc_tui_operator_free(a->op);
		amc_store_close(a->store);
		close(ev_pipe[0]);
		close(ev_pipe[1]);
		return amc_err_set(e, AMC_EENV, "cannot start the terminal interface (TERM=%s)",
				   getenv("TERM") ? getenv("TERM") : "unset");
	}
	set_term(scr);
	amc_tui_text_init();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	if (!a->script) {
		mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
		mouseinterval(200);
	}
	/* Pixel graphics: only on a real terminal, after newterm() put it in
	 * cbreak/noecho mode so a query's reply is not echoed. */
	amc_tui_pix pix = AMC_PIX_NONE;
	if (!a->script) {
		pix = amc_tui_pixels_detect(gsetting, STDIN_FILENO, STDOUT_FILENO, 200);
		amc_log_info("tui: graphics %s -> %s", gsetting, amc_tui_pixels_name(pix));
	}
	amc_tui_pixels_init(pix, STDOUT_FILENO);
	amc_tui_theme theme;
	amc_err te;
	const char *tname = o->theme ? o->theme : amc_config_str(o->cfg, "tui", "theme");
	int theme_bad = amc_tui_theme_load(&theme, tname, &te) != 0;
	amc_tui_theme_apply(&theme);

	struct sigaction sa = { 0 }, old_hup, old_term, old_int;
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, &old_hup);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGINT, &sa, &old_int);

	amc_tui_push(a, &amc_tui_view_tasks, amc_tui_tasks_new(a));
	if (theme_bad)
		amc_tui_message(a, 1, "theme: %s; using %s", te.msg, theme.name);
	int rc = 0;
	/* Screenshots decode and render off the key path; the worker wakes us. */
	if (amc_tui_image_start(ev_pipe[1]) != 0 || amc_tui_pixels_start(ev_pipe[1]) != 0)
		amc_log_info("tui: no render thread; images render on the key path");
	if (a->script)
		rc = run_script(a, o, e);
	else
		loop(a);
	amc_tui_image_stop(); /* before the timing file closes: the worker writes to it */
	amc_tui_pixels_stop();
	if (tm.f) {
		timing_flush();
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		fprintf(tm.f, "maxrss_kb %ld\n", ru.ru_maxrss);
		amc_tui_image_timing(NULL);
		fclose(tm.f);
		free(tm.v);
		memset(&tm, 0, sizeof tm);
	}

	if (got_hup) {
		finish_on_hup(a);
	} else {
		amc_tui_pixels_hide();
		if (!a->script || got_term)
			for (int i = 0; i < a->nrunners; i++)
				amc_runner_cancel_all(a->runners[i]);
		endwin();
	}
	amc_tui_operator_shutdown(a->op); /* no runner thread stays blocked on a question */
	for (int i = 0; i < a->nrunners; i++)
		amc_runner_stop(a->runners[i], 0);
	for (int i = 0; i < AMC_TUI_MAX_RUNNERS; i++)
		amc_enricher_free(a->enrichers[i]);
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
	amc_tui_image_forget();
	if (got_hup)
		endwin();
	delscreen(scr);
	if (vin)
		fclose(vin);
	if (vout)
		fclose(vout);
	sigaction(SIGHUP, &old_hup, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGINT, &old_int, NULL);
	if (saved_err >= 0) {
		dup2(saved_err, STDERR_FILENO);
		close(saved_err);
	}
	amc_bus_unsubscribe(a->bus, sub);
	amc_bus_free(a->bus);
	amc_tui_operator_free(a->op);
	if (a->words_loaded)
		amc_words_free(&a->words);
	amc_store_close(a->store);
	close(ev_pipe[0]);
	close(ev_pipe[1]);
	ev_pipe[0] = ev_pipe[1] = -1;
	return rc;
}
