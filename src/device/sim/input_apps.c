/* input_apps.c - what taps do in the Clock, Messages and Files apps, the
 * contact favourite star, the search boxes and the settings pickers: their
 * forms (an alarm, a new message), their deletes (after the dialog) and
 * their fields. input.c calls in here for every action it does not know. */
#include <stdlib.h>
#include <string.h>

#include "device/sim/input_apps.h"
#include "device/sim/nav.h"

static void save_alarm(sim *s)
{
	sim_state *st = &s->st;
	sim_entry *e = &st->stack[st->depth - 1];
	amc_sb t, l;
	amc_sb_init(&t);
	amc_sb_init(&l);
	sim_trim(amc_sb_str(&st->f_time), &t);
	sim_trim(amc_sb_str(&st->f_label), &l);
	int h, m;
	if (sim_parse_time(amc_sb_str(&t), &h, &m) != 0) {
		st->form_error = 1;
	} else {
		if (e->arg >= 0 && e->arg < st->nalarms) {
			sim_alarm *a = &st->alarms[e->arg];
			free(a->label);
			a->label = amc_sb_detach(&l);
			a->hour = h;
			a->minute = m;
			a->enabled = 1; /* a changed alarm is on, as Clock does */
		} else if (st->nalarms < SIM_MAX_ALARMS) {
			st->alarms = amc_xrealloc(st->alarms, (size_t)(st->nalarms + 1) * sizeof *st->alarms);
			sim_alarm *a = &st->alarms[st->nalarms++];
			a->hour = h;
			a->minute = m;
			a->label = amc_sb_detach(&l);
			a->enabled = 1;
		}
		sim_alarms_sort(st);
		sim_pop(s);
	}
	amc_sb_free(&t);
	amc_sb_free(&l);
}

static void send_message(sim *s)
{
	sim_state *st = &s->st;
	sim_entry *e = &st->stack[st->depth - 1];
	amc_sb to, msg;
	amc_sb_init(&to);
	amc_sb_init(&msg);
	sim_trim(amc_sb_str(&st->f_message), &msg);
	if (e->screen == SCR_COMPOSE) {
		sim_trim(amc_sb_str(&st->f_to), &to);
		if (to.len == 0)
			st->form_error = 1;
		else if (msg.len) {
			sim_thread_touch(st, amc_sb_str(&to));
			sim_thread_add_msg(&st->threads[0], 1, amc_sb_str(&msg));
			sim_replace_top(s, SCR_THREAD, 0);
		}
	} else if (e->screen == SCR_THREAD && e->arg >= 0 && e->arg < st->nthreads && msg.len) {
		char *who = amc_xstrdup(st->threads[e->arg].contact);
		sim_thread_touch(st, who);
		free(who);
		sim_thread_add_msg(&st->threads[0], 1, amc_sb_str(&msg));
		e->arg = 0;
		amc_sb_reset(&st->f_message);
	}
	amc_sb_free(&to);
	amc_sb_free(&msg);
}

int sim_apps_act(sim *s, const vnode *n)
{
	sim_state *st = &s->st;
	switch (n->act) {
	case A_FAVORITE:
		if (n->a1 >= 0 && n->a1 < st->ncontacts)
			st->contacts[n->a1].favorite = !st->contacts[n->a1].favorite;
		return 1;
	case A_ALARM_TOGGLE:
		if (n->a1 >= 0 && n->a1 < st->nalarms)
			st->alarms[n->a1].enabled = !st->alarms[n->a1].enabled;
		return 1;
	case A_SAVE_ALARM:
		save_alarm(s);
		return 1;
	case A_SEND:
		send_message(s);
		return 1;
	case A_PICK_OPEN:
		sim_transition(s, TR_FADE);
		st->dialog = DLG_PICK;
		st->dialog_arg = n->a1;
		return 1;
	case A_PICK_SET:
		if (n->a1 >= 0 && n->a1 < PK_COUNT && n->a2 >= 0 && n->a2 < sim_pick_count(n->a1))
			st->picks[n->a1] = n->a2;
		sim_transition(s, TR_FADE);
		st->dialog = DLG_NONE;
		return 1;
	case A_FILE_STAR:
		if (n->a1 >= 0 && n->a1 < st->nfiles)
			st->files[n->a1].starred = !st->files[n->a1].starred;
		return 1;
	case A_FILL_TO:
		if (n->a1 >= 0 && n->a1 < st->ncontacts) {
			amc_sb_reset(&st->f_to);
			amc_sb_puts(&st->f_to, st->contacts[n->a1].name);
			st->form_error = 0;
			st->focus = F_MESSAGE;
			st->kb_hidden = 0;
		}
		return 1;
	}
	return 0;
}

/* After a delete, leave the page of what was deleted. */
static void leave_deleted(sim *s, int screen)
{
	sim_state *st = &s->st;
	st->dialog = DLG_NONE;
	if (st->depth > 1 && st->stack[st->depth - 1].screen == screen) {
		sim_pop(s);
		/* The page sliding away must not show whoever takes the deleted index. */
		st->tr_from.e.arg = -1;
		st->tr_from.dialog = DLG_NONE;
	} else {
		sim_transition(s, TR_FADE);
	}
}

int sim_apps_confirm(sim *s)
{
	sim_state *st = &s->st;
	int arg = st->dialog_arg;
	switch (st->dialog) {
	case DLG_DELETE_ALARM:
		if (arg < 0 || arg >= st->nalarms)
			return 0;
		free(st->alarms[arg].label);
		memmove(st->alarms + arg, st->alarms + arg + 1, (size_t)(st->nalarms - arg - 1) * sizeof *st->alarms);
		st->nalarms--;
		leave_deleted(s, SCR_ALARM_EDIT);
		return 1;
	case DLG_DELETE_THREAD: {
		if (arg < 0 || arg >= st->nthreads)
			return 0;
		sim_thread *t = &st->threads[arg];
		for (int k = 0; k < t->nmsgs; k++)
			free(t->msgs[k].text);
		free(t->msgs);
		free(t->contact);
		memmove(st->threads + arg, st->threads + arg + 1, (size_t)(st->nthreads - arg - 1) * sizeof *st->threads);
		st->nthreads--;
		leave_deleted(s, SCR_THREAD);
		return 1;
	}
	case DLG_DELETE_FILE:
		if (arg < 0 || arg >= st->nfiles)
			return 0;
		free(st->files[arg].name);
		free(st->files[arg].modified);
		free(st->files[arg].content);
		memmove(st->files + arg, st->files + arg + 1, (size_t)(st->nfiles - arg - 1) * sizeof *st->files);
		st->nfiles--;
		leave_deleted(s, SCR_FILE_DETAIL);
		return 1;
	}
	return 0;
}

int sim_apps_enter_key(sim *s, int f)
{
	sim_state *st = &s->st;
	switch (f) {
	case F_TIME:
		st->focus = F_LABEL;
		st->kb_hidden = 0;
		return 1;
	case F_TO:
		st->focus = F_MESSAGE;
		st->kb_hidden = 0;
		return 1;
	case F_LABEL:
	case F_SEARCH:
	case F_MESSAGE:
		st->kb_hidden = 1; /* the IME's "done" */
		return 1;
	}
	return 0;
}
