/* nav.c - the sim's navigation stack: push, back, replace and launch, with
 * their transitions, and what leaving and entering a screen does to its
 * form (the note editor saves on leaving, as Android apps save on pause;
 * forms load or clear their fields on entering). Below input.c and
 * input_apps.c, which both navigate. */
#include <stdlib.h>
#include <string.h>

#include "device/sim/ambient.h"
#include "device/sim/forms_apps.h"
#include "device/sim/nav.h"
#include "device/sim/screens.h"

void sim_transition(sim *s, int kind)
{
	sim_current_view(s, &s->st.tr_from);
	s->st.tr_kind = kind;
	s->st.tr_start = s->st.time_ms;
}

void sim_trim(const char *in, amc_sb *out)
{
	size_t n = strlen(in);
	while (n && (in[n - 1] == ' ' || in[n - 1] == '\t' || in[n - 1] == '\n'))
		n--;
	while (n && (*in == ' ' || *in == '\t' || *in == '\n')) {
		in++;
		n--;
	}
	amc_sb_reset(out);
	amc_sb_append(out, in, n);
}

/* Leaving the top screen: the note editor saves (as Android apps save on pause). */
void sim_leave_top(sim *s)
{
	sim_entry *e = &s->st.stack[s->st.depth - 1];
	if (e->screen == SCR_NOTE_EDIT) {
		amc_sb title;
		amc_sb_init(&title);
		sim_trim(amc_sb_str(&s->st.f_title), &title);
		const char *body = amc_sb_str(&s->st.f_body);
		int empty = title.len == 0 && body[0] == '\0';
		if (e->arg >= 0 && e->arg < s->st.nnotes) {
			sim_note *n = &s->st.notes[e->arg];
			free(n->title);
			free(n->body);
			n->title = amc_xstrdup(title.len ? title.buf : "Untitled");
			n->body = amc_xstrdup(body);
		} else if (!empty && s->st.nnotes < SIM_MAX_NOTES) {
			s->st.notes = amc_xrealloc(s->st.notes, (size_t)(s->st.nnotes + 1) * sizeof *s->st.notes);
			memmove(s->st.notes + 1, s->st.notes, (size_t)s->st.nnotes * sizeof *s->st.notes);
			s->st.notes[0].title = amc_xstrdup(title.len ? title.buf : "Untitled");
			s->st.notes[0].body = amc_xstrdup(body);
			s->st.nnotes++;
		}
		amc_sb_free(&title);
	}
	s->st.focus = F_NONE;
	s->st.kb_hidden = 0;
	s->st.form_error = 0;
	s->st.dialog = DLG_NONE;
}

/* Entering a screen: forms load their fields and focus the first one. */
void sim_enter_top(sim *s)
{
	sim_entry *e = &s->st.stack[s->st.depth - 1];
	s->st.focus = F_NONE;
	s->st.kb_hidden = 0;
	if (e->screen == SCR_CONTACT_EDIT) {
		amc_sb_reset(&s->st.f_name);
		amc_sb_reset(&s->st.f_phone);
		s->st.form_error = 0;
		if (e->arg >= 0 && e->arg < s->st.ncontacts) {
			amc_sb_puts(&s->st.f_name, s->st.contacts[e->arg].name);
			amc_sb_puts(&s->st.f_phone, s->st.contacts[e->arg].phone);
		} else {
			e->arg = -1;
			s->st.focus = F_NAME;
		}
	} else if (e->screen == SCR_NOTE_EDIT) {
		amc_sb_reset(&s->st.f_title);
		amc_sb_reset(&s->st.f_body);
		if (e->arg >= 0 && e->arg < s->st.nnotes) {
			amc_sb_puts(&s->st.f_title, s->st.notes[e->arg].title);
			amc_sb_puts(&s->st.f_body, s->st.notes[e->arg].body);
		} else {
			e->arg = -1;
			s->st.focus = F_TITLE;
		}
	} else {
		sim_apps_enter(s, e);
	}
}

void sim_push(sim *s, int screen, int arg)
{
	sim_transition(s, TR_SLIDE_FWD);
	sim_leave_top(s);
	if (s->st.depth == SIM_MAX_STACK) {
		/* Deep stacks drop their oldest app screen, keeping the launcher. */
		memmove(s->st.stack + 1, s->st.stack + 2, (SIM_MAX_STACK - 2) * sizeof *s->st.stack);
		s->st.depth--;
	}
	sim_entry *e = &s->st.stack[s->st.depth++];
	e->screen = screen;
	e->arg = arg;
	e->scroll = 0;
	sim_enter_top(s);
}

int sim_launch(sim *s, int screen)
{
	/* Apps slide in over the launcher; home slides the app away. */
	sim_transition(s, screen == SCR_LAUNCHER ? TR_SLIDE_BACK : TR_SLIDE_FWD);
	sim_leave_top(s);
	s->st.depth = 1;
	s->st.stack[0].screen = SCR_LAUNCHER;
	s->st.stack[0].arg = -1;
	s->st.stack[0].scroll = 0;
	if (screen != SCR_LAUNCHER) {
		s->st.stack[1].screen = screen;
		s->st.stack[1].arg = -1;
		s->st.stack[1].scroll = 0;
		s->st.depth = 2;
	}
	sim_enter_top(s);
	if (screen != SCR_LAUNCHER)
		sim_ambient_app_opened(s);
	return 0;
}

void sim_pop(sim *s)
{
	if (s->st.depth <= 1)
		return;
	sim_transition(s, TR_SLIDE_BACK);
	sim_leave_top(s);
	s->st.depth--;
	s->st.focus = F_NONE;
	s->st.kb_hidden = 0;
	/* Back into a list whose item went away: keep indexes valid. */
	sim_entry *e = &s->st.stack[s->st.depth - 1];
	if (e->screen == SCR_CONTACT_DETAIL && e->arg >= s->st.ncontacts)
		sim_pop(s);
}

void sim_replace_top(sim *s, int screen, int arg)
{
	sim_transition(s, TR_SLIDE_FWD);
	sim_leave_top(s);
	sim_entry *e = &s->st.stack[s->st.depth - 1];
	e->screen = screen;
	e->arg = arg;
	e->scroll = 0;
	sim_enter_top(s);
}

