/* input_apps.h - what taps do in the newer apps (private to the sim;
 * input_apps.c): Clock, Messages, Files, favourites, search and pickers. */
#ifndef AMC_SIM_INPUT_APPS_H
#define AMC_SIM_INPUT_APPS_H

#include "device/sim/sim_int.h"

/* Run action n when it is one of the apps' (1), else 0. */
int sim_apps_act(sim *s, const vnode *n);
/* Confirm the open dialog when it is one of the apps' (1), else 0. */
int sim_apps_confirm(sim *s);
/* Enter in field f of the apps' forms: 1 when handled. */
int sim_apps_enter_key(sim *s, int f);

#endif
