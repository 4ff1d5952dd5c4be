/* screens_clock.c - the Clock app: the alarm list under a clock face whose
 * digits are drawn only (a canvas, like the note body), and the alarm form. */
#include <stdio.h>
#include <string.h>

#include "device/sim/screens.h"

void sim_build_clock(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	int top = sim_app_bar(b, content, "Clock", 0);
	/* The face: the time in large digits, painted only; the date is in the tree. */
	char now[16], date[32];
	sim_clock(s, now, sizeof now);
	sim_date(s, date, sizeof date, 0);
	int face = sim_add(b, content, D(b, 16), top + D(b, 8), b->W - D(b, 16), top + D(b, 128), "android.view.View");
	N(b, face)->rid = "com.android.deskclock:id/analog_appwidget";
	N(b, face)->paint = P_RECT;
	N(b, face)->bg = c->card;
	N(b, face)->radius = D(b, 24);
	int px = D(b, 56);
	int w = sim_text_width(s->font, px, 0, now, strlen(now));
	sim_label(b, face, (b->W - w) / 2, top + D(b, 16), w, now, 56, c->text, VF_NOTREE, NULL);
	int dw = sim_text_width(s->font, D(b, 14), 0, date, strlen(date));
	sim_label(b, face, (b->W - dw) / 2, top + D(b, 96), dw, date, 14, c->text2, 0, "com.android.deskclock:id/date");
	int y0 = top + D(b, 136);
	if (s->st.nalarms == 0) {
		const char *t = "No alarms";
		int tw = sim_text_width(s->font, D(b, 16), 0, t, strlen(t));
		sim_label(b, content, (b->W - tw) / 2, (y0 + b->bottom) / 2, tw, t, 16, c->text2, 0,
			  "com.android.deskclock:id/alarms_empty_view");
	} else {
		int list = sim_list(b, content, y0, "com.android.deskclock:id/alarm_recycler_view");
		int rh = D(b, 96), gap = D(b, 8);
		int content_h = s->st.nalarms * (rh + gap) + D(b, 112);
		int scroll = sim_clamp_scroll(v->e.scroll, content_h, b->bottom - y0);
		int y = y0 + gap - scroll;
		for (int i = 0; i < s->st.nalarms; i++, y += rh + gap) {
			if (y + rh <= y0 || y >= b->bottom)
				continue;
			const sim_alarm *a = &s->st.alarms[i];
			int rw = sim_add(b, list, D(b, 16), y, b->W - D(b, 16), y + rh, "android.widget.LinearLayout");
			vnode *n = N(b, rw);
			n->flags = VF_CLICKABLE | VF_FOCUSABLE;
			n->act = A_OPEN;
			n->a1 = SCR_ALARM_EDIT;
			n->a2 = i;
			n->paint = P_RECT;
			n->bg = a->enabled ? c->container : c->card;
			n->radius = D(b, 20);
			char t[8];
			snprintf(t, sizeof t, "%02d:%02d", a->hour, a->minute);
			uint32_t col = a->enabled ? c->on_container : c->text2;
			sim_label(b, rw, D(b, 32), y + D(b, 12), D(b, 200), t, 40, col, 0, "com.android.deskclock:id/digital_clock");
			if (*a->label)
				sim_label(b, rw, D(b, 32), y + D(b, 64), b->W - D(b, 160), a->label, 14, col, 0,
					  "com.android.deskclock:id/label");
			int sw0 = b->t->count;
			sim_switch(b, rw, b->W - D(b, 32), y + rh / 2, a->enabled);
			vnode *sw = N(b, sw0);
			sw->rid = "com.android.deskclock:id/onoff";
			sw->flags |= VF_CLICKABLE | VF_FOCUSABLE;
			sw->act = A_ALARM_TOGGLE;
			sw->a1 = i;
			sim_set_desc(b, sw0, t);
		}
		sim_list_end(b, list, content_h);
	}
	int f = sim_fab(b, content, "Add alarm", "com.android.deskclock:id/fab", NULL);
	N(b, f)->a1 = SCR_ALARM_EDIT;
	N(b, f)->a2 = -1;
}

void sim_build_alarm_edit(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	int editing = v->e.arg >= 0 && v->e.arg < s->st.nalarms;
	int top = sim_app_bar(b, content, editing ? "Edit alarm" : "Add alarm", 1);
	if (editing)
		sim_bar_action(b, content, "Delete", "com.android.deskclock:id/delete", A_ASK_DELETE,
			       DLG_DELETE_ALARM, v->e.arg);
	int y = top + D(b, 16);
	sim_field(b, content, y, "Time (HH:MM)", amc_sb_str(&s->st.f_time), "com.android.deskclock:id/time", F_TIME, v->focus);
	y += D(b, 56);
	if (s->st.form_error)
		sim_label(b, content, D(b, 32), y + D(b, 4), b->W - D(b, 64), "Enter a time as HH:MM", 12, c->error, 0,
			  "com.android.deskclock:id/error");
	y += D(b, 24);
	sim_field(b, content, y, "Label", amc_sb_str(&s->st.f_label), "com.android.deskclock:id/label_input", F_LABEL,
		  v->focus);
	y += D(b, 56) + D(b, 24);
	int bh = D(b, 40);
	int sw = sim_button_width(b, "Save"), cw = sim_button_width(b, "Cancel");
	int x2 = b->W - D(b, 16);
	sim_button(b, content, x2 - sw, y, x2, y + bh, "Save", 1, "com.android.deskclock:id/save", A_SAVE_ALARM, 0, 0);
	sim_button(b, content, x2 - sw - D(b, 8) - cw, y, x2 - sw - D(b, 8), y + bh, "Cancel", 0,
		   "com.android.deskclock:id/cancel", A_BACK, 0, 0);
}
