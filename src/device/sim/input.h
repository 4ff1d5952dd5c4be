/* input.h - what the sim's user does (private to the sim): taps, long presses,
 * swipes, keys and typing act on the current view tree and change the state;
 * the forms (fields, saving a contact or a note, confirming a delete) live
 * here, the navigation stack in nav.h. */
#ifndef AMC_SIM_INPUT_H
#define AMC_SIM_INPUT_H

#include "device/sim/sim_int.h"
#include "device/sim/nav.h"

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
#endif
