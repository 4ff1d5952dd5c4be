/* input.c - the sim's user: taps and long presses run the action of the node
 * they hit in the current view tree, swipes scroll its list, keys and typing
 * edit the focused field; the forms (saving a contact or a note, confirming a
 * delete) change the state, and the navigation stack (nav.c) the screen. */
#include <stdlib.h>
#include <string.h>

#include "device/sim/ambient.h"
#include "device/sim/input.h"
#include "device/sim/forms_apps.h"
#include "device/sim/input_apps.h"
#include "device/sim/nav.h"
#include "device/sim/screens.h"
#include "util/sanitize.h"

static amc_sb *field_buf(sim *s, int f)
{
	switch (f) {
	case F_NAME: return &s->st.f_name;
	case F_PHONE: return &s->st.f_phone;
	case F_TITLE: return &s->st.f_title;
	case F_BODY: return &s->st.f_body;
	}
	return sim_apps_field(s, f);
}

static void close_dialog(sim *s)
{
	sim_transition(s, TR_FADE);
	s->st.dialog = DLG_NONE;
}

static void save_contact(sim *s)
{
	amc_sb name, phone;
	amc_sb_init(&name);
	amc_sb_init(&phone);
	sim_trim(amc_sb_str(&s->st.f_name), &name);
	sim_trim(amc_sb_str(&s->st.f_phone), &phone);
	if (name.len == 0) {
		s->st.form_error = 1;
		amc_sb_free(&name);
		amc_sb_free(&phone);
		return;
	}
	sim_entry *e = &s->st.stack[s->st.depth - 1];
	char *keep = amc_xstrdup(name.buf);
	if (e->arg >= 0 && e->arg < s->st.ncontacts) {
		sim_contact *c = &s->st.contacts[e->arg];
		free(c->name);
		free(c->phone);
		c->name = keep;
		c->phone = amc_xstrdup(amc_sb_str(&phone));
	} else if (s->st.ncontacts < SIM_MAX_CONTACTS) {
		s->st.contacts = amc_xrealloc(s->st.contacts, (size_t)(s->st.ncontacts + 1) * sizeof *s->st.contacts);
		s->st.contacts[s->st.ncontacts].name = keep;
		s->st.contacts[s->st.ncontacts].phone = amc_xstrdup(amc_sb_str(&phone));
		s->st.contacts[s->st.ncontacts].favorite = 0; /* realloc'd: not zeroed */
		s->st.ncontacts++;
	} else {
		free(keep);
		keep = NULL;
	}
	sim_contacts_sort(&s->st);
	int idx = -1;
	for (int i = 0; i < s->st.ncontacts; i++)
		if (s->st.contacts[i].name == keep)
			idx = i;
	amc_sb_free(&name);
	amc_sb_free(&phone);
	/* The form is replaced by the saved contact's page, as Contacts does. */
	sim_transition(s, TR_SLIDE_FWD);
	sim_leave_top(s);
	s->st.depth--;
	/* An edit came from the contact's own page: drop that stale copy too. */
	if (s->st.depth > 1 && s->st.stack[s->st.depth - 1].screen == SCR_CONTACT_DETAIL)
		s->st.depth--;
	if (idx >= 0) {
		sim_entry *d = &s->st.stack[s->st.depth++];
		d->screen = SCR_CONTACT_DETAIL;
		d->arg = idx;
		d->scroll = 0;
	}
	sim_enter_top(s);
}

static void confirm_dialog(sim *s)
{
	int arg = s->st.dialog_arg;
	if (s->st.dialog == DLG_DELETE_CONTACT && arg >= 0 && arg < s->st.ncontacts) {
		sim_transition(s, TR_SLIDE_BACK);
		/* The page sliding away must not show whoever takes the deleted index. */
		s->st.tr_from.e.arg = -1;
		s->st.tr_from.dialog = DLG_NONE;
		free(s->st.contacts[arg].name);
		free(s->st.contacts[arg].phone);
		memmove(s->st.contacts + arg, s->st.contacts + arg + 1,
			(size_t)(s->st.ncontacts - arg - 1) * sizeof *s->st.contacts);
		s->st.ncontacts--;
		s->st.dialog = DLG_NONE;
		if (s->st.depth > 1 && s->st.stack[s->st.depth - 1].screen == SCR_CONTACT_DETAIL)
			s->st.depth--;
		s->st.focus = F_NONE;
		return;
	}
	if (s->st.dialog == DLG_DELETE_NOTE && arg >= 0 && arg < s->st.nnotes) {
		sim_entry *top = &s->st.stack[s->st.depth - 1];
		if (top->screen == SCR_NOTE_EDIT) {
			/* Deleted from its editor: leave it without saving it back. */
			amc_sb_reset(&s->st.f_title);
			amc_sb_reset(&s->st.f_body);
			top->arg = -1;
			s->st.dialog = DLG_NONE;
			sim_pop(s);
			s->st.tr_from.e.arg = -1;
			s->st.tr_from.dialog = DLG_NONE;
		} else {
			sim_transition(s, TR_FADE);
		}
		free(s->st.notes[arg].title);
		free(s->st.notes[arg].body);
		memmove(s->st.notes + arg, s->st.notes + arg + 1, (size_t)(s->st.nnotes - arg - 1) * sizeof *s->st.notes);
		s->st.nnotes--;
		s->st.dialog = DLG_NONE;
		return;
	}
	if (sim_apps_confirm(s))
		return;
	close_dialog(s);
}

static int put_text(sim *s, const char *utf8, size_t len)
{
	amc_sb *f = field_buf(s, s->st.focus);
	if (!f)
		return -1;
	size_t max = s->st.focus == F_BODY || s->st.focus == F_MESSAGE ? SIM_BODY_MAX : SIM_FIELD_MAX;
	if ((s->st.selected ? 0 : f->len) + len > max)
		return -2;
	/* Text typed over a selection replaces it. */
	if (s->st.selected) {
		f->len = 0;
		f->buf[0] = '\0';
		s->st.selected = 0;
	}
	amc_sb_append(f, utf8, len);
	if (s->st.focus == F_NAME)
		s->st.form_error = 0;
	return 0;
}

static void backspace(sim *s)
{
	amc_sb *f = field_buf(s, s->st.focus);
	if (!f || f->len == 0)
		return;
	if (s->st.selected) {
		f->len = 0;
		f->buf[0] = '\0';
		s->st.selected = 0;
		return;
	}
	size_t n = f->len - 1;
	while (n > 0 && ((unsigned char)f->buf[n] & 0xC0) == 0x80)
		n--;
	f->len = n;
	f->buf[n] = '\0';
}

void sim_key(sim *s, int key)
{
	s->st.selected = 0;
	switch (key) {
	case AMC_KEY_BACK:
		if (s->st.dialog != DLG_NONE)
			close_dialog(s);
		else if (s->st.focus != F_NONE && !s->st.kb_hidden)
			s->st.kb_hidden = 1;
		else
			sim_pop(s);
		break;
	case AMC_KEY_HOME:
		if (s->st.depth > 1 || s->st.dialog != DLG_NONE)
			sim_launch(s, SCR_LAUNCHER);
		break;
	case AMC_KEY_DELETE:
		backspace(s);
		break;
	case AMC_KEY_VOLUME_UP:
		if (s->st.volume < SIM_VOLUME_MAX)
			s->st.volume++;
		break;
	case AMC_KEY_VOLUME_DOWN:
		if (s->st.volume > 0)
			s->st.volume--;
		break;
	case AMC_KEY_HIDE_KEYBOARD:
		if (s->st.focus != F_NONE)
			s->st.kb_hidden = 1;
		break;
	case AMC_KEY_ENTER:
		switch (s->st.focus) {
		case F_NAME:
			s->st.focus = F_PHONE;
			s->st.kb_hidden = 0;
			break;
		case F_TITLE:
			s->st.focus = F_BODY;
			s->st.kb_hidden = 0;
			break;
		case F_BODY:
			put_text(s, "\n", 1);
			break;
		case F_PHONE:
			s->st.kb_hidden = 1; /* the IME's "done" */
			break;
		default:
			sim_apps_enter_key(s, s->st.focus);
			break;
		}
		break;
	}
}

int sim_type(sim *s, const char *utf8)
{
	if (s->st.focus == F_NONE)
		return -1;
	return put_text(s, utf8, strlen(utf8));
}

static void act(sim *s, const vnode *n, int long_press)
{
	/* A selection lasts until the next key or tap that is not typing over it. */
	if (n->act != A_KEY_CHAR && n->act != A_KEY_BKSP)
		s->st.selected = 0;
	/* A long press on a note or a conversation in its list asks to delete it. */
	if (long_press && n->act == A_OPEN && (n->a1 == SCR_NOTE_EDIT || n->a1 == SCR_THREAD) && n->a2 >= 0) {
		sim_transition(s, TR_FADE);
		s->st.dialog = n->a1 == SCR_NOTE_EDIT ? DLG_DELETE_NOTE : DLG_DELETE_THREAD;
		s->st.dialog_arg = n->a2;
		return;
	}
	switch (n->act) {
	case A_BACK: /* the up arrow and Cancel leave the screen even with a keyboard up */
		if (s->st.dialog != DLG_NONE)
			close_dialog(s);
		else
			sim_pop(s);
		break;
	case A_OPEN:
		sim_push(s, n->a1, n->a2);
		break;
	case A_LAUNCH:
		sim_launch(s, n->a1);
		break;
	case A_NOTIFY: /* the heads-up opens its app, and is gone */
		sim_ambient_dismiss(s);
		sim_launch(s, SCR_MESSAGES);
		break;
	case A_TOGGLE:
		s->st.toggles[n->a1] = !s->st.toggles[n->a1];
		break;
	case A_FOCUS: {
		/* A long press on a field selects all of its text, as Android's
		 * "Select all" does: what is typed next replaces it. */
		amc_sb *f = field_buf(s, n->a1);
		s->st.focus = n->a1;
		s->st.kb_hidden = 0;
		s->st.selected = long_press && f && f->len > 0;
		break;
	}
	case A_SAVE_CONTACT:
		save_contact(s);
		break;
	case A_EDIT_CONTACT:
		sim_push(s, SCR_CONTACT_EDIT, n->a1);
		break;
	case A_ASK_DELETE:
		sim_transition(s, TR_FADE);
		s->st.dialog = n->a1;
		s->st.dialog_arg = n->a2;
		break;
	case A_DLG_CANCEL:
		close_dialog(s);
		break;
	case A_DLG_CONFIRM:
		confirm_dialog(s);
		break;
	case A_WIFI_CONNECT:
		if (!s->st.toggles[TG_WIFI])
			s->st.toggles[TG_WIFI] = 1;
		s->st.wifi_connected = n->a1;
		break;
	case A_WIFI_FORGET:
		s->st.wifi_connected = -1;
		break;
	case A_KEY_CHAR: {
		amc_sb t;
		amc_sb_init(&t);
		amc_utf8_encode((unsigned)n->a1, &t);
		put_text(s, t.buf, t.len);
		amc_sb_free(&t);
		break;
	}
	case A_KEY_BKSP:
		backspace(s);
		break;
	case A_KEY_ENTER:
		sim_key(s, AMC_KEY_ENTER);
		break;
	default:
		sim_apps_act(s, n);
		break;
	}
}

int sim_tap_at(sim *s, int x, int y, int long_press)
{
	sim_view v;
	vtree t;
	sim_current_view(s, &v);
	sim_build(s, &v, &t);
	int i = vtree_hit(&t, x, y);
	if (i >= 0) {
		vnode n = t.n[i];
		act(s, &n, long_press);
	} else if (s->st.focus != F_NONE) {
		/* A tap on nothing in particular takes the focus away, keyboard too. */
		s->st.focus = F_NONE;
	}
	vtree_free(&t);
	return i >= 0;
}

void sim_swipe(sim *s, int x1, int y1, int x2, int y2)
{
	(void)x2;
	sim_view v;
	vtree t;
	sim_current_view(s, &v);
	sim_build(s, &v, &t);
	int h = vtree_hit(&t, x1, y1);
	if (h >= 0 && t.n[h].act == A_NOTIFY) {
		sim_ambient_dismiss(s); /* swiped away */
	} else if (vtree_scroll_hit(&t, x1, y1) >= 0) {
		sim_entry *e = &s->st.stack[s->st.depth - 1];
		int sc = e->scroll;
		if (sc > t.scroll_max)
			sc = t.scroll_max;
		sc += y1 - y2;
		e->scroll = sc < 0 ? 0 : sc > t.scroll_max ? t.scroll_max : sc;
	}
	vtree_free(&t);
}
