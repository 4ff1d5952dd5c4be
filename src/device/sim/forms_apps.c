/* forms_apps.c - the fields of the newer apps' forms (Clock, Messages,
 * Files, the search boxes) and what entering one of their screens does to
 * them. Below nav.c, which calls it on entering a screen. */
#include "device/sim/forms_apps.h"

amc_sb *sim_apps_field(sim *s, int f)
{
	switch (f) {
	case F_SEARCH: return &s->st.f_search;
	case F_TIME: return &s->st.f_time;
	case F_LABEL: return &s->st.f_label;
	case F_TO: return &s->st.f_to;
	case F_MESSAGE: return &s->st.f_message;
	}
	return NULL;
}

void sim_apps_enter(sim *s, sim_entry *e)
{
	sim_state *st = &s->st;
	switch (e->screen) {
	case SCR_CONTACTS:
	case SCR_NOTES:
	case SCR_FILES:
		amc_sb_reset(&st->f_search);
		break;
	case SCR_ALARM_EDIT:
		amc_sb_reset(&st->f_time);
		amc_sb_reset(&st->f_label);
		st->form_error = 0;
		if (e->arg >= 0 && e->arg < st->nalarms) {
			amc_sb_printf(&st->f_time, "%02d:%02d", st->alarms[e->arg].hour, st->alarms[e->arg].minute);
			amc_sb_puts(&st->f_label, st->alarms[e->arg].label);
		} else {
			e->arg = -1;
			st->focus = F_TIME;
		}
		break;
	case SCR_COMPOSE:
		amc_sb_reset(&st->f_to);
		amc_sb_reset(&st->f_message);
		st->form_error = 0;
		st->focus = F_TO;
		break;
	case SCR_THREAD:
		amc_sb_reset(&st->f_message);
		if (e->arg >= 0 && e->arg < st->nthreads)
			st->threads[e->arg].unread = 0;
		break;
	}
}

