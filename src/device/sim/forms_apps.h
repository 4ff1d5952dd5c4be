/* forms_apps.h - the newer apps' form fields (private to the sim;
 * forms_apps.c): Clock, Messages, Files and the search boxes. */
#ifndef AMC_SIM_FORMS_APPS_H
#define AMC_SIM_FORMS_APPS_H

#include "device/sim/sim_int.h"

/* The text buffer of field f of the newer forms, NULL for others. */
amc_sb *sim_apps_field(sim *s, int f);
/* The top screen (entry e) was just entered: load or clear its form. */
void sim_apps_enter(sim *s, sim_entry *e);

#endif
