/* session.h - what runs under this TUI: one runner per device for the tasks
 * launched here, the queue of their events, each running task's live phase,
 * and the database's change counter.
 *
 * Threads: runner threads only reach the event queue (through the bus
 * callback, which copies the event and writes a byte to the wake pipe);
 * everything else here runs on the main thread. */
#ifndef AMC_TUI_SESSION_H
#define AMC_TUI_SESSION_H

#include "launch/launch.h"
#include "tui/app.h"
#include "util/err.h"

/* The wake pipe, the event bus and the operator; 0, or -1 with e filled
 * (nothing is left open). */
int amc_tui_session_start(amc_tui_app *a, amc_err *e);
/* Stop what amc_tui_session_start started and free the goal settings (the
 * enrichers, the irreversible-action words); call after amc_tui_session_stop. */
void amc_tui_session_end(amc_tui_app *a);
/* Take in what runner threads queued: the live phases are updated, a wake
 * byte of 3 (a screenshot render is ready, image.c) marks the screen dirty.
 * Returns 1 when something that changes rows arrived (or events were lost).
 * *followed is set to 1 when the task being followed (a->follow) now has its
 * row; a->follow is then cleared. */
int amc_tui_session_drain(amc_tui_app *a, int *followed);
/* Queue a prepared launch (launch/launch.h) on the device's runner (started on
 * first use). Takes everything in l and frees it, also on failure. The task is
 * remembered as launched here. */
int amc_tui_launch(amc_tui_app *a, amc_launch *l, amc_err *e);
/* Cancel a running or queued task: through its runner when launched here,
 * else -1 with a message (another process owns it). On success the status
 * line says "cancelling task ID" until the task's status event says it
 * ended; then "task ID cancelled" (or whatever status it ended with). */
int amc_tui_cancel(amc_tui_app *a, const char *task_id, amc_err *e);
/* Cancel every task launched here (running or queued). */
void amc_tui_session_cancel_all(amc_tui_app *a);
/* Tasks launched here that are running now. */
int amc_tui_own_running(amc_tui_app *a);
/* Wait up to timeout_ms per runner for its queue to empty. */
void amc_tui_session_wait_idle(amc_tui_app *a, long timeout_ms);
/* Let every runner finish its tasks within their own budgets and stop it; a
 * question a task waits on is refused. */
void amc_tui_session_stop(amc_tui_app *a);
/* The live phase ("observe", "plan", ...) of a running task and its step;
 * NULL when none is known. */
const char *amc_tui_phase(const amc_tui_app *a, const char *task_id, int *step);
/* PRAGMA data_version of the main connection: it changes when another
 * connection (another amc process, a runner thread) commits; -1 on error. */
long long amc_tui_session_data_version(amc_tui_app *a);

#endif
