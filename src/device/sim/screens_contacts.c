/* screens_contacts.c - the Contacts app: the list, the create/edit form and
 * one contact's page. */
#include <string.h>

#include "device/sim/screens.h"
#include "util/sanitize.h"

static uint32_t avatar_colour(const char *name)
{
	static const uint32_t cols[] = {0x1A73E8FF, 0xD93025FF, 0x188038FF, 0xE8710AFF, 0x9334E6FF, 0x12B5CBFF, 0xD01884FF};
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return cols[h % (sizeof cols / sizeof cols[0])];
}

static void initial(const char *name, char *out)
{
	/* First visible character (a whole UTF-8 sequence), upper-cased when ASCII. */
	const unsigned char *p = (const unsigned char *)name;
	while (*p && *p <= ' ')
		p++;
	if (!*p) {
		strcpy(out, "?");
		return;
	}
	unsigned cp;
	size_t n = amc_utf8_decode(p, strlen((const char *)p), &cp);
	memcpy(out, p, n);
	out[n] = '\0';
	if (n == 1 && out[0] >= 'a' && out[0] <= 'z')
		out[0] = (char)(out[0] - 32);
}

void sim_build_contacts(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	int top = sim_app_bar(b, content, "Contacts", 0);
	int shown = 0;
	for (int i = 0; i < s->st.ncontacts; i++)
		shown += sim_search_match(s, s->st.contacts[i].name);
	if (s->st.ncontacts)
		top = sim_search_box(b, content, top, "Search contacts", "com.android.contacts:id/search", v->focus);
	if (shown == 0) {
		const char *t = s->st.ncontacts ? "No matches" : "No contacts yet";
		int w = sim_text_width(s->font, D(b, 16), 0, t, strlen(t));
		sim_label(b, content, (b->W - w) / 2, (top + b->bottom) / 2, w, t, 16, b->c->text2, 0,
		      "com.android.contacts:id/empty");
	} else {
		int list = sim_list(b, content, top, "com.android.contacts:id/contact_list");
		int rh = D(b, 64);
		int content_h = shown * rh + D(b, 96);
		int scroll = sim_clamp_scroll(v->e.scroll, content_h, b->bottom - top);
		int y = top - scroll;
		for (int i = 0; i < s->st.ncontacts; i++) {
			const char *name = s->st.contacts[i].name;
			if (!sim_search_match(s, name))
				continue;
			if (y + rh <= top || y >= b->bottom) {
				y += rh;
				continue;
			}
			int rw = sim_add(b, list, 0, y, b->W, y + rh, "android.widget.LinearLayout");
			vnode *n = N(b, rw);
			n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_LONGCLICK;
			n->act = A_OPEN;
			n->a1 = SCR_CONTACT_DETAIL;
			n->a2 = i;
			char ini[8];
			initial(name, ini);
			sim_glyph_icon(b, rw, D(b, 36), y + rh / 2, 40, ini, avatar_colour(name), 0xFFFFFFFF, 18);
			int px = D(b, 16);
			sim_label(b, rw, D(b, 72), y + (rh - sim_line_height(px)) / 2, b->W - D(b, 136), name, 16, b->c->text, 0,
			      "com.android.contacts:id/name");
			if (s->st.contacts[i].favorite) {
				int st = sim_label(b, rw, b->W - D(b, 48), y + (rh - sim_line_height(D(b, 20))) / 2, D(b, 32),
						   "\xe2\x98\x85", 20, 0xF9AB00FF, 0, "com.android.contacts:id/favorite_icon");
				sim_set_desc(b, st, "Favourite");
			}
			y += rh;
		}
		sim_list_end(b, list, content_h);
	}
	int f = sim_fab(b, content, "Add contact", "com.android.contacts:id/fab_add", NULL);
	N(b, f)->a1 = SCR_CONTACT_EDIT;
	N(b, f)->a2 = -1;
}

void sim_build_contact_edit(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	int top = sim_app_bar(b, content, v->e.arg >= 0 ? "Edit contact" : "Create contact", 1);
	int cy = top + D(b, 56);
	const char *nm = s->st.f_name.len ? amc_sb_str(&s->st.f_name) : "";
	if (*nm) {
		char ini[8];
		initial(nm, ini);
		sim_glyph_icon(b, content, b->W / 2, cy, 88, ini, avatar_colour(nm), 0xFFFFFFFF, 40);
	} else {
		sim_shape_icon(b, content, b->W / 2, cy, 88, 1, c->container, c->on_container);
	}
	int y = cy + D(b, 64);
	sim_field(b, content, y, "Name", nm, "com.android.contacts:id/name", F_NAME, v->focus);
	y += D(b, 56);
	if (s->st.form_error) {
		sim_label(b, content, D(b, 32), y + D(b, 4), b->W - D(b, 64), "Name is required", 12, c->error, 0,
		      "com.android.contacts:id/error");
	}
	y += D(b, 24);
	sim_field(b, content, y, "Phone", amc_sb_str(&s->st.f_phone), "com.android.contacts:id/phone", F_PHONE, v->focus);
	y += D(b, 56) + D(b, 24);
	int bh = D(b, 40);
	int sw = sim_button_width(b, "Save"), cw = sim_button_width(b, "Cancel");
	int x2 = b->W - D(b, 16);
	sim_button(b, content, x2 - sw, y, x2, y + bh, "Save", 1, "com.android.contacts:id/save", A_SAVE_CONTACT, 0, 0);
	sim_button(b, content, x2 - sw - D(b, 8) - cw, y, x2 - sw - D(b, 8), y + bh, "Cancel", 0,
	       "com.android.contacts:id/cancel", A_BACK, 0, 0);
}

void sim_build_contact_detail(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	int top = sim_app_bar(b, content, "", 1);
	if (v->e.arg < 0 || v->e.arg >= s->st.ncontacts)
		return;
	const sim_contact *ct = &s->st.contacts[v->e.arg];
	int cy = top + D(b, 72);
	char ini[8];
	initial(ct->name, ini);
	sim_glyph_icon(b, content, b->W / 2, cy, 120, ini, avatar_colour(ct->name), 0xFFFFFFFF, 52);
	int px = D(b, 28);
	int nw = sim_text_width(s->font, px, 0, ct->name, strlen(ct->name));
	if (nw > b->W - D(b, 32))
		nw = b->W - D(b, 32);
	sim_label(b, content, (b->W - nw) / 2, cy + D(b, 76), nw, ct->name, 28, c->text, 0,
	      "com.android.contacts:id/large_title");
	int by = cy + D(b, 136), bh = D(b, 40);
	const char *fav = ct->favorite ? "Unfavourite" : "Favourite";
	int ew = sim_button_width(b, "Edit"), dw = sim_button_width(b, "Delete"), fw = sim_button_width(b, fav);
	int total = fw + D(b, 12) + ew + D(b, 12) + dw, x = (b->W - total) / 2;
	int fb = sim_button(b, content, x, by, x + fw, by + bh, fav, 2, "com.android.contacts:id/star", A_FAVORITE, v->e.arg, 0);
	sim_set_desc(b, fb, ct->favorite ? "Remove from favourites" : "Add to favourites");
	x += fw + D(b, 12);
	sim_button(b, content, x, by, x + ew, by + bh, "Edit", 2, "com.android.contacts:id/edit", A_EDIT_CONTACT, v->e.arg, 0);
	x += ew + D(b, 12);
	sim_button(b, content, x, by, x + dw, by + bh, "Delete", 2, "com.android.contacts:id/delete", A_ASK_DELETE,
	       DLG_DELETE_CONTACT, v->e.arg);
	int y = by + bh + D(b, 24);
	int card = sim_deco(b, content, D(b, 16), y, b->W - D(b, 16), y + D(b, 104), P_RECT, c->card, D(b, 16));
	sim_label(b, card, D(b, 32), y + D(b, 12), b->W, "Contact info", 14, c->text, VF_BOLD, NULL);
	N(b, card)->flags &= ~VF_NOTREE;
	N(b, card)->cls = "android.widget.LinearLayout";
	sim_glyph_icon(b, card, D(b, 48), y + D(b, 68), 32, "\xe2\x98\x8e", 0, c->text2, 20);
	const char *ph = *ct->phone ? ct->phone : "No phone number";
	sim_label(b, card, D(b, 80), y + D(b, 46), b->W - D(b, 112), ph, 16, c->text, 0, "com.android.contacts:id/phone");
	sim_label(b, card, D(b, 80), y + D(b, 70), b->W, "Mobile", 14, c->text2, 0, NULL);
}
