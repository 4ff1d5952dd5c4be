/* input.h - what the sim's user does (private to the sim): taps, long presses,
 * swipes, keys and typing act on the current view tree and change the state;
 * the navigation stack (push, back, launch) and the forms (fields, saving a
 * contact or a note, confirming a delete) live here. */
#ifndef AMC_SIM_INPUT_H
#define AMC_SIM_INPUT_H

#include "device/sim/sim_int.h"

/* Tap (or long-press) at (x, y): runs the action of the topmost node there.
 * Returns 1 when a node took it; 0 when the tap hit nothing (which drops focus). */
int sim_tap_at(sim *s, int x, int y, int long_press);
/* AMC_KEY_BACK, AMC_KEY_HOME or AMC_KEY_ENTER; other keys do nothing. */
void sim_key(sim *s, int key);
/* Type UTF-8 into the focused field: 0 done, -1 no field has focus, -2 the
 * field would exceed its limit (SIM_FIELD_MAX, SIM_BODY_MAX) and is unchanged. */
int sim_type(sim *s, const char *utf8);
/* Swipe from (x1, y1) to (x2, y2): scrolls the list under the start point. */
void sim_swipe(sim *s, int x1, int y1, int x2, int y2);
/* Start app `screen` over the launcher (SCR_LAUNCHER: go home). Returns 0. */
int sim_launch(sim *s, int screen);

/* The navigation the apps' actions use (input.c). */
void sim_transition(sim *s, int kind);
void sim_push(sim *s, int screen, int arg);
void sim_pop(sim *s);
/* Replace the top screen with (screen, arg), sliding forward (a saved form
 * becomes the page it saved, a new message its conversation). */
void sim_replace_top(sim *s, int screen, int arg);

/* input_apps.c: Clock, Messages, Files, favourites, search and pickers. */
/* The text buffer of field f of the newer forms, NULL for others. */
amc_sb *sim_apps_field(sim *s, int f);
/* The top screen (entry e) was just entered: load or clear its form. */
void sim_apps_enter(sim *s, sim_entry *e);
/* Run action n when it is one of the apps' (1), else 0. */
int sim_apps_act(sim *s, const vnode *n);
/* Confirm the open dialog when it is one of the apps' (1), else 0. */
int sim_apps_confirm(sim *s);
/* Enter in field f of the apps' forms: 1 when handled. */
int sim_apps_enter_key(sim *s, int f);

#endif
