/* ambient.h - what changes on the sim's screen by itself, with nobody acting
 * (private to the sim; ambient.c). Both are off unless configured, so the
 * default phone and every golden frame stay as they were.
 *
 * - A notification (sim.notify_ms = N > 0): N ms of sim time after an app is
 *   opened (launch_app, a launcher icon, a link), a heads-up banner from
 *   Messages slides over the top of the screen, "Ada Lovelace" / "Running late,
 *   start without me", for SIM_HEADS_UP_MS of sim time, in the UI tree
 *   (resource ids below) and in the pixels. A tap on it opens Messages; a
 *   swipe starting on it dismisses it. An app opened while one is pending or
 *   shown does not move it. State key `notification` {"due_ms"} (settable
 *   with `amc sim state --set`), written only while one is armed.
 * - A live clock (sim.clock = live): sim time also moves with the real time
 *   between device calls, as a phone's clock does while nobody touches it, so
 *   an observation taken after a pause sees what arrived meanwhile. The wall
 *   clock of the last call is kept in the state (`wall_ms`, live only), so
 *   every process driving the sim agrees. With sim.clock = calls (the
 *   default) time moves only with calls and a run is reproducible. */
#ifndef AMC_SIM_AMBIENT_H
#define AMC_SIM_AMBIENT_H

#include "device/sim/widgets.h"

#define SIM_HEADS_UP_MS 8000     /* how long the banner stays, in sim time */
#define SIM_NOTIFY_MAX_MS 3600000 /* sim.notify_ms at most */
#define SIM_LIVE_MAX_GAP_MS 3600000 /* real time one call may add (a sim left for a day moves an hour) */

#define SIM_NOTIFY_ROW_ID "com.android.systemui:id/expandableNotificationRow"
#define SIM_NOTIFY_FROM "Ada Lovelace"
#define SIM_NOTIFY_TEXT "Running late, start without me"

/* A call begins: with the live clock, the real time since the last call
 * passes on the sim. */
void sim_ambient_catch_up(sim *s);
/* A call has ended: with the live clock, note the wall clock. */
void sim_ambient_called(sim *s);
/* An app was opened: arm the notification (sim.notify_ms), unless one is
 * pending or shown. */
void sim_ambient_app_opened(sim *s);
/* 1 while the banner is on screen. */
int sim_ambient_banner_shown(const sim *s);
/* The banner went away (tapped or swiped). */
void sim_ambient_dismiss(sim *s);
/* Add the banner over the tree being built, when it is shown. */
void sim_ambient_build(sim_builder *b);
/* The state's keys: `notification` and `wall_ms`, each only when set. */
void sim_ambient_to_json(const sim_state *st, long long now_ms, cJSON *o);
/* Read them from o into st; 0, or -1 with e saying which key is wrong. */
int sim_ambient_from_json(sim_state *st, const cJSON *o, amc_err *e);

#endif
