/* screen.h - the screen as the user meets it: the title and status lines
 * around the top view, dialogs over it, and each key or click routed to the
 * open dialog, the view, or the requests common to every view (quit, back,
 * help, launch, cancel, Devices, Tasks, pause, refresh). The interactive loop
 * (tui.c) and script mode (script.c) both drive the app through these. */
#ifndef AMC_TUI_SCREEN_H
#define AMC_TUI_SCREEN_H

#include "tui/app.h"

/* Paint the whole screen and clear a->dirty. */
void amc_tui_screen_draw(amc_tui_app *a);
/* One key (an ncurses code, a character or AMC_KEY_META). */
void amc_tui_screen_key(amc_tui_app *a, int key);
/* A mouse event at row y, column x: the wheel scrolls like j/k, a click
 * selects or focuses (the view's click op). Ignored under a dialog. */
void amc_tui_screen_mouse(amc_tui_app *a, int y, int x, mmask_t buttons);
/* Take in the runners' events (session.c) and questions: questions open as
 * dialogs, those whose task was cancelled are dropped, and a task launched
 * here is followed into its Task view. Returns 1 when rows changed. */
int amc_tui_screen_take(amc_tui_app *a);
/* The top view re-reads the database; the screen is redrawn. */
void amc_tui_screen_reload(amc_tui_app *a);
/* Open the questions waiting: the runners' and those other processes wait
 * for in $AMC_HOME (runtime/pending.h); drop the withdrawn ones. */
void amc_tui_screen_questions(amc_tui_app *a);
/* Operator questions on screen or queued (of runners and other processes). */
int amc_tui_screen_asking(const amc_tui_app *a);
/* Free every dialog and view (at the end). */
void amc_tui_screen_free(amc_tui_app *a);

#endif
