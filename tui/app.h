/* app.h - the TUI's core: the application state shared by views and dialogs,
 * the view ops table and the dialog contract, and what views may ask of the
 * app (app.c): the clock, the status-line message, the view stack, dialogs,
 * frames. What runs under the TUI is session.h; the screen's keys and
 * drawing are screen.h; the loop is tui.c, script mode script.c.
 *
 * Threads: everything here runs on the main thread. Runner threads only touch
 * the event queue (through the bus callback, session.c) and the wake pipe. */
#ifndef AMC_TUI_APP_H
#define AMC_TUI_APP_H

#include <limits.h>
#include <curses.h>
#include <pthread.h>
#include "launch/runner.h"
#include "storage/store.h"
#include "runtime/safety.h"
#include "semantic/enrich.h"
#include "tui/keymap.h"
#include "tui/asker.h"
#include "tui/theme.h"
#include "util/config.h"

typedef struct amc_tui_app amc_tui_app;
typedef struct amc_tui_view amc_tui_view;

/* One view (tig's view_ops): a file in tui/ fills one of these. */
typedef struct amc_tui_view_ops {
	const char *name;
	unsigned mask;   /* AMC_VIEW_* bit: which keymap rows apply */
	/* Paint the area rows y..y+h-1 of stdscr. */
	void (*draw)(amc_tui_app *a, amc_tui_view *v, int y, int h, int w);
	/* 1 when the request was handled. */
	int (*request)(amc_tui_app *a, amc_tui_view *v, amc_tui_req req);
	/* The database changed (or an event arrived): re-read what is shown. */
	void (*reload)(amc_tui_app *a, amc_tui_view *v);
	/* 1 while a running task is on screen (allows the slow safety tick). */
	int (*live)(amc_tui_app *a, amc_tui_view *v);
	/* The task the view is about (for `c`), or NULL. */
	const char *(*task)(amc_tui_app *a, amc_tui_view *v);
	void (*free)(amc_tui_view *v);
	/* Extra keymap bits for the current state (the Task view adds
	 * AMC_VIEW_TREE while its tree pane has focus); NULL: none. */
	unsigned (*keymask)(amc_tui_app *a, amc_tui_view *v);
	/* A mouse click at screen row y, column x (button 1); `twice` for a
	 * double click. NULL: clicks are ignored. */
	void (*click)(amc_tui_app *a, amc_tui_view *v, int y, int x, int twice);
} amc_tui_view_ops;

struct amc_tui_view {
	const amc_tui_view_ops *ops;
	void *data;
	amc_tui_view *prev;  /* the view below on the stack */
};

/* A modal dialog on top of the views; keys go to it raw. */
typedef struct amc_tui_dialog amc_tui_dialog;
struct amc_tui_dialog {
	void (*draw)(amc_tui_app *a, amc_tui_dialog *d);
	/* 1 when the dialog is finished (the app frees it). */
	int (*key)(amc_tui_app *a, amc_tui_dialog *d, int key);
	void (*free)(amc_tui_dialog *d);
	amc_tui_dialog *next;  /* a dialog may open another after it closes */
	/* 1 when the dialog has nothing left to ask (its task was cancelled):
	 * the app drops it. NULL: never. */
	int (*stale)(amc_tui_app *a, amc_tui_dialog *d);
};

#define AMC_TUI_MAX_RUNNERS 8
#define AMC_TUI_MAX_OWN 64

struct amc_tui_app {
	const amc_config *cfg;
	char home[PATH_MAX];
	amc_store *store;          /* main-thread connection */
	amc_bus *bus;
	int bus_sub;               /* our subscription to bus */
	int wake[2];               /* the wake pipe: runner events, questions, renders (session.c) */
	amc_runner *runners[AMC_TUI_MAX_RUNNERS];
	int nrunners;
	char own[AMC_TUI_MAX_OWN][32]; /* tasks launched from this TUI */
	int nown;
	/* live phase of running tasks, from STEP_PHASE events */
	struct { char task[32]; int step; char phase[16]; } phase[16];
	amc_tui_view *view;        /* top of the stack */
	amc_tui_dialog *dialog;
	int rows, cols;
	int quit;
	int dirty;
	int paused;                /* Z: live updates paused */
	int script;                /* script mode: fixed clock, no tty */
	long long fixed_now;       /* AMC_TUI_NOW, 0 = real clock */
	char message[512];         /* one-line message on the status bar */
	int message_error;
	char message_link[1024];   /* a file path inside message, linked with OSC 8 where the terminal allows */
	int hyperlinks;            /* util/hyperlink.h decided: the terminal shows OSC 8 links */
	char cancelling[32];       /* the task "cancelling task" is about, until it ends */
	int follow;                /* open the next task launched here */
	char follow_id[32];
	const char *graphics;      /* "symbols" or "none" */
	/* for goals launched here (every runner gets them) */
	amc_tui_asker *op;         /* ask_user and confirmations */
	amc_words words;           /* irreversible-action words, loaded on the first goal */
	int words_loaded;
	amc_enricher *enrichers[AMC_TUI_MAX_RUNNERS]; /* one per runner; NULL: off */
};

/* Now in ms: AMC_TUI_NOW in script mode (dumps do not age), else the clock. */
long long amc_tui_now(const amc_tui_app *a);
/* Put a view on top of the stack; the stack takes `data` (ops->free). */
void amc_tui_push(amc_tui_app *a, const amc_tui_view_ops *ops, void *data);
/* Free the top view and reload the one below; the last view stays. */
void amc_tui_pop(amc_tui_app *a);
/* Show a dialog, or queue it behind the open one; the app takes it. */
void amc_tui_open_dialog(amc_tui_app *a, amc_tui_dialog *d);
void amc_tui_message(amc_tui_app *a, int error, const char *fmt, ...) AMC_PRINTF(3, 4);
/* The task id `id` as short as this database allows (git-style, at least 8
 * characters: amc_store_short_id), in out; returns out. */
const char *amc_tui_short_id(amc_tui_app *a, const char *id, char out[AMC_ID_SIZE]);
/* A message that names the file `abspath` (its text must contain it): where
 * the terminal supports OSC 8 the path is a link to the file. */
void amc_tui_message_link(amc_tui_app *a, const char *abspath, const char *fmt, ...) AMC_PRINTF(3, 4);
/* Frame helpers */
void amc_tui_box(int y, int x, int h, int w, const char *title, int focused);

/* Views and dialogs (one file each). */
extern const amc_tui_view_ops amc_tui_view_tasks, amc_tui_view_task, amc_tui_view_help, amc_tui_view_devices;
extern const amc_tui_view_ops amc_tui_view_fleet;
/* The Search view (view_hits.c): the steps matching `query` (the store's
 * full-text search, words quoted); the state is read once, here. */
extern const amc_tui_view_ops amc_tui_view_hits;
void *amc_tui_hits_new(amc_tui_app *a, const char *query);
void *amc_tui_devices_new(amc_tui_app *a);
/* The Fleet view's state: starts its reader thread (view_fleet.c). */
void *amc_tui_fleet_new(amc_tui_app *a);
void *amc_tui_tasks_new(amc_tui_app *a);
void *amc_tui_task_new(amc_tui_app *a, const char *task_id);
/* Select step number `step` of a Task view's state (amc_tui_task_new's);
 * a step it does not have leaves the selection as it is. */
void amc_tui_task_select(void *task_view, int step);
void *amc_tui_help_new(amc_tui_app *a, unsigned view);
amc_tui_dialog *amc_tui_confirm_new(const char *question, void (*yes)(amc_tui_app *, void *), void *ud,
				    void (*ud_free)(void *));
amc_tui_dialog *amc_tui_input_new(const char *prompt, const char *initial,
				  void (*done)(amc_tui_app *, const char *text, void *), void *ud);
amc_tui_dialog *amc_tui_launch_new(amc_tui_app *a);
/* A question from a runner thread (tui/asker.h); takes q's strings. */
amc_tui_dialog *amc_tui_question_new(amc_tui_asker *op, amc_tui_question *q);
/* A confirmation another process waits for (runtime/pending.h, e.g. `amc mcp`):
 * dialog_pending.c. amc_tui_pending_poll opens a dialog for each question in
 * $AMC_HOME not already shown or queued; returns how many it opened. */
struct amc_pending;
amc_tui_dialog *amc_tui_pending_new(const struct amc_pending *q);
int amc_tui_pending_poll(amc_tui_app *a);

#endif
