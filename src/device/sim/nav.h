/* nav.h - the sim's navigation stack (private to the sim; nav.c). */
#ifndef AMC_SIM_NAV_H
#define AMC_SIM_NAV_H

#include "device/sim/sim_int.h"

/* Start app `screen` over the launcher (SCR_LAUNCHER: go home). Returns 0. */
int sim_launch(sim *s, int screen);
/* Start the transition animation of `kind` from the current view. */
void sim_transition(sim *s, int kind);
void sim_push(sim *s, int screen, int arg);
void sim_pop(sim *s);
/* Replace the top screen with (screen, arg), sliding forward (a saved form
 * becomes the page it saved, a new message its conversation). */
void sim_replace_top(sim *s, int screen, int arg);
/* Leaving the top screen (its form saves or clears) and entering the new
 * top (its form loads), for a caller that rearranges the stack itself. */
void sim_leave_top(sim *s);
void sim_enter_top(sim *s);
/* `in` without its leading and trailing blanks, into out. */
void sim_trim(const char *in, amc_sb *out);

#endif
