/* screens_messages.c - the Messages app: the conversation list, one
 * conversation with its compose bar, and a new message (recipient suggested
 * from Contacts). */
#include <stdio.h>
#include <string.h>

#include "device/sim/screens.h"

void sim_build_messages(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	int top = sim_app_bar(b, content, "Messages", 0);
	if (s->st.nthreads == 0) {
		const char *t = "No conversations";
		int w = sim_text_width(s->font, D(b, 16), 0, t, strlen(t));
		sim_label(b, content, (b->W - w) / 2, (top + b->bottom) / 2, w, t, 16, c->text2, 0, "com.amc.messages:id/empty");
	} else {
		int list = sim_list(b, content, top, "com.amc.messages:id/conversation_list");
		int rh = D(b, 76);
		int content_h = s->st.nthreads * rh + D(b, 112);
		int scroll = sim_clamp_scroll(v->e.scroll, content_h, b->bottom - top);
		int y = top - scroll;
		for (int i = 0; i < s->st.nthreads; i++, y += rh) {
			if (y + rh <= top || y >= b->bottom)
				continue;
			const sim_thread *t = &s->st.threads[i];
			int rw = sim_add(b, list, 0, y, b->W, y + rh, "android.widget.LinearLayout");
			vnode *n = N(b, rw);
			n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_LONGCLICK;
			n->act = A_OPEN;
			n->a1 = SCR_THREAD;
			n->a2 = i;
			char ini[2] = {t->contact[0] >= 'a' && t->contact[0] <= 'z' ? (char)(t->contact[0] - 32) : t->contact[0], 0};
			if ((unsigned char)ini[0] >= 0x80 || !ini[0])
				ini[0] = '#';
			sim_glyph_icon(b, rw, D(b, 36), y + rh / 2, 44, ini, 0x188038FF, 0xFFFFFFFF, 18);
			sim_label(b, rw, D(b, 72), y + D(b, 12), b->W - D(b, 88), t->contact, 16, c->text, t->unread ? VF_BOLD : 0,
				  "com.amc.messages:id/conversation_name");
			char snip[160];
			const char *last = t->nmsgs ? t->msgs[t->nmsgs - 1].text : "";
			snprintf(snip, sizeof snip, "%s%.120s", t->nmsgs && t->msgs[t->nmsgs - 1].out ? "You: " : "", last);
			for (char *p = snip; *p; p++)
				if (*p == '\n')
					*p = ' ';
			sim_label(b, rw, D(b, 72), y + D(b, 40), b->W - D(b, 88), snip, 14, c->text2, 0,
				  "com.amc.messages:id/conversation_snippet");
		}
		sim_list_end(b, list, content_h);
	}
	int f = sim_fab(b, content, NULL, "com.amc.messages:id/start_chat", "Start chat");
	N(b, f)->a1 = SCR_COMPOSE;
	N(b, f)->a2 = -1;
}

/* The bar at the bottom: the message field and Send. */
static void compose_bar(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	int y = b->bottom - D(b, 72);
	int fld = sim_field(b, content, y + D(b, 8), "Text message", amc_sb_str(&s->st.f_message),
			    "com.amc.messages:id/compose_message_text", F_MESSAGE, v->focus);
	N(b, fld)->x2 = b->W - D(b, 96);
	int sw = sim_button_width(b, "Send");
	sim_button(b, content, b->W - D(b, 8) - sw + D(b, 8), y + D(b, 16), b->W - D(b, 8), y + D(b, 56), "Send", 1,
		   "com.amc.messages:id/send_message_button", A_SEND, 0, 0);
}

void sim_build_thread(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	if (v->e.arg < 0 || v->e.arg >= s->st.nthreads) {
		sim_app_bar(b, content, "", 1);
		return;
	}
	const sim_thread *t = &s->st.threads[v->e.arg];
	int top = sim_app_bar(b, content, t->contact, 1);
	sim_bar_action(b, content, "Delete", "com.amc.messages:id/delete_conversation", A_ASK_DELETE, DLG_DELETE_THREAD,
		       v->e.arg);
	int bottom = b->bottom - D(b, 72);
	int list = sim_add(b, content, 0, top, b->W, bottom, "androidx.recyclerview.widget.RecyclerView");
	N(b, list)->rid = "com.amc.messages:id/message_list";
	N(b, list)->flags = VF_FOCUSABLE;
	/* Newest at the bottom: lay out upwards from the compose bar. */
	int px = D(b, 16), lh = sim_line_height(px);
	int y = bottom - D(b, 8);
	for (int k = t->nmsgs - 1; k >= 0 && y > top; k--) {
		const char *text = t->msgs[k].text;
		int out = t->msgs[k].out;
		int maxw = b->W * 3 / 4;
		int w = sim_text_width(s->font, px, 0, text, strlen(text)) + D(b, 32);
		if (w > maxw)
			w = maxw;
		int h = lh + D(b, 20);
		int x1 = out ? b->W - D(b, 16) - w : D(b, 16);
		int bub = sim_add(b, list, x1, y - h, x1 + w, y, "android.widget.LinearLayout");
		vnode *n = N(b, bub);
		n->paint = P_RECT;
		n->bg = out ? c->primary : c->card;
		n->radius = D(b, 18);
		sim_label(b, bub, x1 + D(b, 16), y - h + D(b, 10), w - D(b, 32), text, 16, out ? c->on_primary : c->text, 0,
			  out ? "com.amc.messages:id/message_text_out" : "com.amc.messages:id/message_text");
		y -= h + D(b, 8);
	}
	compose_bar(b, content, v);
}

void sim_build_compose(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	int top = sim_app_bar(b, content, "New conversation", 1);
	const char *to = amc_sb_str(&s->st.f_to);
	int y = top + D(b, 8);
	sim_field(b, content, y, "To", to, "com.amc.messages:id/recipient_text", F_TO, v->focus);
	y += D(b, 56);
	if (s->st.form_error)
		sim_label(b, content, D(b, 32), y + D(b, 4), b->W - D(b, 64), "Add a recipient", 12, c->error, 0,
			  "com.amc.messages:id/error");
	y += D(b, 24);
	/* Suggestions from Contacts, filtered by what is typed in To. */
	int rh = D(b, 56), shown = 0;
	int bottom = b->bottom - D(b, 72);
	size_t tl = strlen(to);
	for (int i = 0; i < s->st.ncontacts && y + rh <= bottom && shown < 6; i++) {
		const char *name = s->st.contacts[i].name;
		int match = 1;
		if (tl) {
			match = 0;
			for (const char *h = name; *h && !match; h++) {
				size_t k = 0;
				while (k < tl && h[k] && ((h[k] | 32) == (to[k] | 32)))
					k++;
				match = k == tl;
			}
		}
		if (!match || !strcmp(name, to))
			continue;
		int rw = sim_add(b, content, 0, y, b->W, y + rh, "android.widget.LinearLayout");
		vnode *n = N(b, rw);
		n->flags = VF_CLICKABLE | VF_FOCUSABLE;
		n->act = A_FILL_TO;
		n->a1 = i;
		sim_label(b, rw, D(b, 32), y + (rh - sim_line_height(D(b, 16))) / 2, b->W - D(b, 64), name, 16, c->text, 0,
			  "com.amc.messages:id/contact_name");
		y += rh;
		shown++;
	}
	compose_bar(b, content, v);
}
