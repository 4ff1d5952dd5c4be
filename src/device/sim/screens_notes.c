/* screens_notes.c - the Notes app: the list and the editor (whose body is
 * drawn, not dumped, like a canvas editor's). */
#include <string.h>

#include "device/sim/screens.h"

void sim_build_notes(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	int top = sim_app_bar(b, content, "Notes", 0);
	int shown = 0;
	for (int i = 0; i < s->st.nnotes; i++)
		shown += sim_search_match(s, s->st.notes[i].title) || sim_search_match(s, s->st.notes[i].body);
	if (s->st.nnotes)
		top = sim_search_box(b, content, top, "Search notes", "com.amc.notes:id/search", v->focus);
	if (shown == 0) {
		const char *t = s->st.nnotes ? "No matches" : "No notes yet";
		int w = sim_text_width(s->font, D(b, 16), 0, t, strlen(t));
		sim_label(b, content, (b->W - w) / 2, (top + b->bottom) / 2, w, t, 16, c->text2, 0, "com.amc.notes:id/empty");
	} else {
		int list = sim_list(b, content, top, "com.amc.notes:id/notes_list");
		int rh = D(b, 80), gap = D(b, 8);
		int content_h = shown * (rh + gap) + D(b, 112);
		int scroll = sim_clamp_scroll(v->e.scroll, content_h, b->bottom - top);
		int y = top + gap - scroll - (rh + gap);
		for (int i = 0; i < s->st.nnotes; i++) {
			if (!sim_search_match(s, s->st.notes[i].title) && !sim_search_match(s, s->st.notes[i].body))
				continue;
			y += rh + gap;
			if (y + rh <= top || y >= b->bottom)
				continue;
			int rw = sim_add(b, list, D(b, 16), y, b->W - D(b, 16), y + rh, "android.widget.LinearLayout");
			vnode *n = N(b, rw);
			n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_LONGCLICK;
			n->act = A_OPEN;
			n->a1 = SCR_NOTE_EDIT;
			n->a2 = i;
			n->paint = P_RECT;
			n->bg = c->card;
			n->radius = D(b, 12);
			int px = D(b, 18);
			sim_label(b, rw, D(b, 32), y + D(b, 12), b->W - D(b, 64), s->st.notes[i].title, 18, c->text, VF_BOLD,
			      "com.amc.notes:id/note_title");
			char d[32];
			sim_date(s, d, sizeof d, 0);
			sim_label(b, rw, D(b, 32), y + D(b, 12) + sim_line_height(px) + D(b, 4), b->W - D(b, 64), d, 13, c->text2, 0,
			      "com.amc.notes:id/note_date");
		}
		sim_list_end(b, list, content_h);
	}
	int f = sim_fab(b, content, NULL, "com.amc.notes:id/new_note", "New note");
	N(b, f)->a1 = SCR_NOTE_EDIT;
	N(b, f)->a2 = -1;
}

void sim_build_note_edit(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	int top = sim_app_bar(b, content, v->e.arg >= 0 ? "Edit note" : "New note", 1);
	if (v->e.arg >= 0 && v->e.arg < s->st.nnotes)
		sim_bar_action(b, content, "Delete", "com.amc.notes:id/delete", A_ASK_DELETE, DLG_DELETE_NOTE, v->e.arg);
	sim_field(b, content, top + D(b, 8), "Title", amc_sb_str(&s->st.f_title), "com.amc.notes:id/title", F_TITLE, v->focus);
	int y = top + D(b, 80);
	int body = sim_add(b, content, D(b, 16), y, b->W - D(b, 16), b->bottom - D(b, 16), "android.view.View");
	vnode *n = N(b, body);
	n->rid = "com.amc.notes:id/body";
	n->flags = VF_CLICKABLE | VF_FOCUSABLE | (v->focus == F_BODY ? VF_FOCUSED : 0);
	n->act = A_FOCUS;
	n->a1 = F_BODY;
	/* Canvas-drawn: the text exists only in pixels, like a drawing editor. */
	n->paint = P_BLOCK;
	n->font_px = D(b, 17);
	n->fg = c->text;
	n->accent = c->primary;
	if (s->st.f_body.len)
		n->ptext = amc_xstrdup(amc_sb_str(&s->st.f_body));
	else if (v->focus != F_BODY)
		sim_label(b, body, D(b, 32), y + D(b, 8), b->W, "Note", 17, c->text2, VF_NOTREE, NULL);
}
