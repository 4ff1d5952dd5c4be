/* tui.c - the terminal interface's entry point (see tui.h): the terminal set
 * up and given back, and the interactive loop: one poll() on the keyboard,
 * the wake pipe the event bus writes to (session.c), and inotify on
 * $AMC_HOME; no timer runs while idle.
 *
 * Another amc process is noticed by inotify on the database's folder,
 * confirmed with PRAGMA data_version; SQLite's last write may only touch the
 * -shm (mmap, no inotify event), so a wake that shows no change is re-checked
 * once 50 ms later, and a 1 s safety tick runs only while a running task is on
 * screen. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "tui/app.h"
#include "tui/image.h"
#include "tui/pixels.h"
#include "util/hyperlink.h"
#include "tui/screen.h"
#include "tui/script.h"
#include "tui/session.h"
#include "tui/text.h"
#include "tui/tui.h"
#include "util/clock.h"
#include "util/log.h"
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

static int watch_home(amc_tui_app *a)
{
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (fd < 0)
		return -1;
	if (inotify_add_watch(fd, a->home, IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* What an inotify batch touched: bit 1 the database files (not the log, not
 * sim state), bit 2 a confirmation another process asks or withdrew
 * (confirm-TASK.ask, runtime/pending.h). */
static int db_touched(int fd)
{
	/* Room for many events of at most sizeof(struct inotify_event) + NAME_MAX + 1 each. */
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int hit = 0;
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			if (ev->len && !strncmp(ev->name, "amc.db", 6))
				hit |= 1;
			else if (ev->len && !strncmp(ev->name, "confirm-", 8))
				hit |= 2;
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
	amc_tui_session_stop(a); /* nobody is left to answer a question */
}

static void loop(amc_tui_app *a)
{
	int ino = watch_home(a);
	long long dv = amc_tui_session_data_version(a);
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
			amc_tui_screen_draw(a);
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
		struct pollfd p[3] = { { STDIN_FILENO, POLLIN, 0 }, { a->wake[0], POLLIN, 0 }, { ino, POLLIN, 0 } };
		int r = poll(p, ino >= 0 ? 3 : 2, timeout);
		if (r < 0 && errno != EINTR)
			return;
		if (r < 0) {
			/* A signal woke poll: after a SIGWINCH, ncurses' handler has
			 * queued KEY_RESIZE, which getch only gives when called, so
			 * ask now rather than on the next key (issue 27). */
			int k = getch();
			if (k == KEY_RESIZE)
				amc_tui_screen_key(a, k);
			else if (k != ERR)
				ungetch(k);
		}
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
				amc_tui_screen_key(a, k);
			}
		}
		if (r > 0 && (p[0].revents & (POLLHUP | POLLERR))) {
			got_hup = 1;
			return;
		}
		if (r > 0 && (p[1].revents & POLLIN)) {
			if (amc_tui_screen_take(a) && !a->paused)
				amc_tui_screen_reload(a);
			dv = amc_tui_session_data_version(a); /* our own runners' commits are already shown */
		}
		if (ino >= 0 && r > 0 && (p[2].revents & POLLIN)) {
			int hit = db_touched(ino);
			if (hit & 2) {
				amc_tui_screen_questions(a);
				a->dirty = 1;
			}
			if (hit & 1)
				check = 1;
		}
		if (recheck_at && now >= recheck_at) {
			recheck_at = 0;
			check = 2;
		}
		if (tick_at && now >= tick_at) {
			tick_at = 0;
			check = 2;
		}
		if (check) {
			long long nv = amc_tui_session_data_version(a);
			if (nv != dv) {
				dv = nv;
				if (!a->paused)
					amc_tui_screen_reload(a);
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

void amc_tui_write_man_with(FILE *f, void (*middle)(FILE *f, void *ud), void *ud)
{
	amc_tui_keymap_write_man_with(f, middle, ud);
}

/* The terminal the TUI draws on: a real one, or /dev/null (or --tty-output)
 * for a script; while it runs, stderr (tesseract, libxml2, ...) goes to the log. */
typedef struct term_io {
	SCREEN *scr;
	FILE *vin, *vout;
	int saved_err;
} term_io;

static void term_close(term_io *t)
{
	if (t->scr)
		delscreen(t->scr);
	if (t->vin)
		fclose(t->vin);
	if (t->vout)
		fclose(t->vout);
	if (t->saved_err >= 0) {
		dup2(t->saved_err, STDERR_FILENO);
		close(t->saved_err);
	}
	memset(t, 0, sizeof *t);
	t->saved_err = -1;
}

static int term_open(amc_tui_app *a, const amc_tui_opts *o, term_io *t, amc_err *e)
{
	memset(t, 0, sizeof *t);
	t->saved_err = -1;
	if (a->script) {
		t->vin = fopen("/dev/null", "r");
		t->vout = fopen(o->tty_output ? o->tty_output : "/dev/null", "w");
		const char *term = getenv("TERM");
		if (o->cols > 0 && o->rows > 0) {
			char c[16], r[16];
			snprintf(c, sizeof c, "%d", o->cols);
			snprintf(r, sizeof r, "%d", o->rows);
			setenv("COLUMNS", c, 1);
			setenv("LINES", r, 1);
		}
		t->scr = t->vin && t->vout ? newterm(term && *term ? term : "xterm-256color", t->vout, t->vin) : NULL;
	} else {
		amc_sb logp;
		amc_sb_init(&logp);
		amc_sb_printf(&logp, "%s/amc.log", a->home);
		int lfd = open(amc_sb_str(&logp), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
		amc_sb_free(&logp);
		if (lfd >= 0) {
			t->saved_err = dup(STDERR_FILENO);
			dup2(lfd, STDERR_FILENO);
			close(lfd);
		}
		t->scr = newterm(NULL, stdout, stdin);
	}
	if (!t->scr) {
		term_close(t);
		return amc_err_set(e, AMC_EENV, "cannot start the terminal interface (TERM=%s)",
				   getenv("TERM") ? getenv("TERM") : "unset");
	}
	set_term(t->scr);
	return 0;
}

/* Curses modes, mouse, pixel graphics and the theme; 1 when the theme named
 * could not be loaded (te says why; a built-in one is applied). */
static int term_setup(amc_tui_app *a, const amc_tui_opts *o, const char *gsetting, amc_tui_theme *theme,
		      amc_err *te)
{
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
	/* OSC 8 links (the O key's path): never in script mode, whose dumps are text */
	a->hyperlinks = !a->script && amc_hyperlink_supported(STDOUT_FILENO, NULL);
	const char *tname = o->theme ? o->theme : amc_config_str(o->cfg, "tui", "theme");
	int theme_bad = amc_tui_theme_load(theme, tname, te) != 0;
	amc_tui_theme_apply(theme);
	return theme_bad;
}

int amc_tui_main(const amc_tui_opts *o, amc_err *e)
{
	amc_tui_app app;
	amc_tui_app *a = &app;
	memset(a, 0, sizeof *a);
	amc_tui_script_timing_begin(o->script ? getenv("AMC_TUI_TIMING") : NULL);
	a->cfg = o->cfg;
	snprintf(a->home, sizeof a->home, "%s", o->home);
	a->script = o->script != NULL;
	amc_tui_tree_set_selector(o->selector);
	const char *now = getenv("AMC_TUI_NOW");
	if (now)
		a->fixed_now = strtoll(now, NULL, 10);
	const char *gsetting = o->graphics ? o->graphics : amc_config_str(o->cfg, "tui", "graphics");
	/* Symbols are drawn wherever pixels are not (and under dialogs). */
	a->graphics = !strcmp(gsetting, "none") ? "none" : "symbols";
	a->wake[0] = a->wake[1] = -1;
	if (amc_store_open(a->home, &a->store, e) != 0)
		return -1;
	if (amc_tui_session_start(a, e) != 0) {
		amc_store_close(a->store);
		return -1;
	}
	term_io t;
	if (term_open(a, o, &t, e) != 0) {
		amc_tui_session_end(a);
		amc_store_close(a->store);
		return -1;
	}
	amc_tui_theme theme;
	amc_err te;
	int theme_bad = term_setup(a, o, gsetting, &theme, &te);

	struct sigaction sa = { 0 }, old_hup, old_term, old_int;
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, &old_hup);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGINT, &sa, &old_int);

	amc_tui_push(a, &amc_tui_view_tasks, amc_tui_tasks_new(a));
	amc_tui_pending_poll(a); /* a confirmation asked before we started */
	if (theme_bad)
		amc_tui_message(a, 1, "theme: %s; using %s", te.msg, theme.name);
	int rc = 0;
	/* Screenshots decode and render off the key path; the worker wakes us. */
	if (amc_tui_image_start(a->wake[1]) != 0 || amc_tui_pixels_start(a->wake[1]) != 0)
		amc_log_info("tui: no render thread; images render on the key path");
	if (a->script)
		rc = amc_tui_script_run(a, o, e);
	else
		loop(a);
	amc_tui_image_stop(); /* before the timing file closes: the worker writes to it */
	amc_tui_pixels_stop();
	amc_tui_script_timing_end();

	if (got_hup) {
		finish_on_hup(a);
	} else {
		amc_tui_pixels_hide();
		if (!a->script || got_term)
			amc_tui_session_cancel_all(a);
		endwin();
	}
	amc_tui_session_stop(a);
	amc_tui_screen_free(a);
	amc_tui_image_forget();
	if (got_hup)
		endwin();
	sigaction(SIGHUP, &old_hup, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGINT, &old_int, NULL);
	term_close(&t);
	amc_tui_session_end(a);
	amc_store_close(a->store);
	return rc;
}
