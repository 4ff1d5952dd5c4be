/* screens.c - one frame of the sim as a view tree: picks the screen the view
 * shows (the app screens are in screens_settings.c, screens_contacts.c and
 * screens_notes.c, screens_clock.c, screens_messages.c, screens_files.c),
 * and builds the launcher, the dialogs (deletes, value pickers) and the soft
 * keyboard that go over any app. */
#include <stdlib.h>
#include <string.h>

#include "device/sim/ambient.h"
#include "device/sim/screens.h"

/* ---- launcher ---- */

static void build_launcher(sim_builder *b, int content)
{
	const sim *s = b->s;
	int wall = sim_deco(b, content, 0, 0, b->W, b->H, P_GRADIENT, 0x1E3A5FFF, 0);
	N(b, wall)->fg = 0x6B4E9BFF;
	char d[32];
	sim_date(s, d, sizeof d, 0);
	int dl = sim_label(b, content, D(b, 24), D(b, 56), b->W - D(b, 48), d, 22, 0xFFFFFFFF, 0,
		       "com.android.launcher3:id/date");
	sim_set_desc(b, dl, d);
	static const struct {
		const char *label;
		int screen, shape;
		const char *glyph;
		uint32_t col;
	} apps[] = {
		{"Settings", SCR_SETTINGS, 0, "\xe2\x9a\x99", 0x5F6368FF},
		{"Contacts", SCR_CONTACTS, 1, NULL, 0x1A73E8FF},
		{"Notes", SCR_NOTES, 4, NULL, 0xF9AB00FF},
		{"Clock", SCR_CLOCK, 0, "\xe2\x97\xb7", 0x3C4043FF},
		{"Messages", SCR_MESSAGES, 0, "\xe2\x9c\x89", 0x188038FF},
		{"Files", SCR_FILES, 0, "\xe2\x96\xa4", 0x9334E6FF},
	};
	int icon = D(b, 60), lpx = D(b, 13);
	/* Two rows of three: the first apps on the bottom row, the newer ones above. */
	for (int k = 0; k < 6; k++) {
		int top = b->H - D(b, 200) - (k / 3) * D(b, 120);
		int cx = b->W / 2 + (k % 3 - 1) * (b->W / 4);
		int x1 = cx - b->W / 8 + D(b, 4), x2 = cx + b->W / 8 - D(b, 4);
		int y2 = top + D(b, 8) + icon + D(b, 8) + sim_line_height(lpx) + D(b, 4);
		int ic = sim_add(b, content, x1, top, x2, y2, "android.widget.TextView");
		vnode *n = N(b, ic);
		n->rid = "com.android.launcher3:id/icon";
		n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_LONGCLICK;
		n->act = A_LAUNCH;
		n->a1 = apps[k].screen;
		sim_set_text(b, ic, apps[k].label);
		sim_set_desc(b, ic, apps[k].label);
		free(n->ptext);
		n->ptext = NULL;
		int cy = top + D(b, 8) + icon / 2;
		sim_deco(b, ic, cx - icon / 2 + D(b, 1), cy - icon / 2 + D(b, 3), cx + icon / 2 + D(b, 1), cy + icon / 2 + D(b, 3),
		     P_CIRCLE, 0x00000040, 0);
		if (apps[k].glyph)
			sim_glyph_icon(b, ic, cx, cy, 60, apps[k].glyph, apps[k].col, 0xFFFFFFFF, 34);
		else
			sim_shape_icon(b, ic, cx, cy, 60, apps[k].shape, apps[k].col, 0xFFFFFFFF);
		int lw = sim_text_width(s->font, lpx, 0, apps[k].label, strlen(apps[k].label));
		int l = sim_label(b, ic, cx - lw / 2, top + D(b, 16) + icon, lw, apps[k].label, 13, 0xFFFFFFFF,
			      VF_NOTREE | VF_PARENT_TEXT, NULL);
		(void)l;
	}
	/* Search pill (decoration, as the real one is a widget we do not model). */
	int sy = b->H - D(b, 84);
	int pill = sim_deco(b, content, D(b, 24), sy, b->W - D(b, 24), sy + D(b, 52), P_RECT, 0xFFFFFFE6, D(b, 26));
	sim_shape_icon(b, pill, D(b, 56), sy + D(b, 26), 32, 3, 0xFFFFFF00, 0x5F6368FF);
	sim_label(b, pill, D(b, 80), sy + (D(b, 52) - sim_line_height(D(b, 16))) / 2, b->W, "Search", 16, 0x5F6368FF,
	      VF_NOTREE, NULL);
}

/* ---- dialog and keyboard ---- */

static const char *dialog_title(int d)
{
	switch (d) {
	case DLG_DELETE_CONTACT: return "Delete this contact?";
	case DLG_DELETE_NOTE: return "Delete this note?";
	case DLG_DELETE_ALARM: return "Delete this alarm?";
	case DLG_DELETE_THREAD: return "Delete this conversation?";
	case DLG_DELETE_FILE: return "Delete this file?";
	}
	return "";
}

/* A settings value picker: the title, one radio row per value, Cancel. */
static void build_picker(sim_builder *b, int pick)
{
	const sim_pal *c = b->c;
	int n = sim_pick_count(pick), rh = D(b, 52);
	int w = D(b, 312);
	if (w > b->W - D(b, 48))
		w = b->W - D(b, 48);
	int h = D(b, 72) + n * rh + D(b, 72);
	int x1 = (b->W - w) / 2, y1 = (b->H - h) / 2;
	int dlg = sim_add(b, 0, x1, y1, x1 + w, y1 + h, "android.widget.FrameLayout");
	vnode *d = N(b, dlg);
	d->act = A_ABSORB;
	d->paint = P_RECT;
	d->bg = c->card;
	d->radius = D(b, 28);
	b->t->dump_root = dlg;
	int body = sim_add(b, dlg, x1, y1, x1 + w, y1 + h, "android.widget.LinearLayout");
	N(b, body)->rid = "android:id/parentPanel";
	sim_label(b, body, x1 + D(b, 24), y1 + D(b, 24), w - D(b, 48), sim_pick_title(pick), 22, c->text, 0,
		  "android:id/alertTitle");
	int y = y1 + D(b, 72);
	for (int k = 0; k < n; k++, y += rh) {
		int sel = b->s->st.picks[pick] == k;
		int r = sim_add(b, body, x1, y, x1 + w, y + rh, "android.widget.CheckedTextView");
		vnode *rn = N(b, r);
		rn->rid = "android:id/text1";
		rn->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_CHECKABLE | (sel ? VF_CHECKED : 0);
		rn->act = A_PICK_SET;
		rn->a1 = pick;
		rn->a2 = k;
		sim_set_text(b, r, sim_pick_value(pick, k));
		free(rn->ptext);
		rn->ptext = NULL;
		int cy = y + rh / 2, rad = D(b, 10);
		sim_deco(b, r, x1 + D(b, 24), cy - rad, x1 + D(b, 24) + 2 * rad, cy + rad, P_CIRCLE, sel ? c->primary : c->outline, 0);
		if (!sel)
			sim_deco(b, r, x1 + D(b, 26), cy - rad + D(b, 2), x1 + D(b, 22) + 2 * rad, cy + rad - D(b, 2), P_CIRCLE,
				 c->card, 0);
		sim_label(b, r, x1 + D(b, 64), cy - sim_line_height(D(b, 16)) / 2, w - D(b, 88), sim_pick_value(pick, k), 16,
			  c->text, VF_NOTREE | VF_PARENT_TEXT, NULL);
	}
	int bh = D(b, 40), by = y1 + h - D(b, 24) - bh;
	int cw = sim_button_width(b, "Cancel"), x2 = x1 + w - D(b, 12);
	sim_button(b, body, x2 - cw, by, x2, by + bh, "Cancel", 0, "android:id/button2", A_DLG_CANCEL, 0, 0);
}

static void build_dialog(sim_builder *b, const sim_view *v)
{
	const sim_pal *c = b->c;
	int scrim = sim_deco(b, 0, 0, 0, b->W, b->H, P_SCRIM, 0x00000099, 0);
	N(b, scrim)->act = A_DLG_CANCEL;
	if (v->dialog == DLG_PICK) {
		build_picker(b, v->dialog_arg);
		return;
	}
	const char *title = dialog_title(v->dialog);
	const char *msg = "This can't be undone.";
	int w = D(b, 312);
	if (w > b->W - D(b, 48))
		w = b->W - D(b, 48);
	int h = D(b, 200);
	int x1 = (b->W - w) / 2, y1 = (b->H - h) / 2;
	int dlg = sim_add(b, 0, x1, y1, x1 + w, y1 + h, "android.widget.FrameLayout");
	vnode *n = N(b, dlg);
	n->act = A_ABSORB;
	n->paint = P_RECT;
	n->bg = c->card;
	n->radius = D(b, 28);
	b->t->dump_root = dlg;
	int body = sim_add(b, dlg, x1, y1, x1 + w, y1 + h, "android.widget.LinearLayout");
	N(b, body)->rid = "android:id/parentPanel";
	sim_label(b, body, x1 + D(b, 24), y1 + D(b, 24), w - D(b, 48), title, 22, c->text, 0, "android:id/alertTitle");
	sim_label(b, body, x1 + D(b, 24), y1 + D(b, 72), w - D(b, 48), msg, 14, c->text2, 0, "android:id/message");
	int bh = D(b, 40), by = y1 + h - D(b, 24) - bh;
	int dw = sim_button_width(b, "Delete"), cw = sim_button_width(b, "Cancel");
	int x2 = x1 + w - D(b, 12);
	sim_button(b, body, x2 - dw, by, x2, by + bh, "Delete", 0, "android:id/button1", A_DLG_CONFIRM, 0, 0);
	sim_button(b, body, x2 - dw - cw, by, x2 - dw, by + bh, "Cancel", 0, "android:id/button2", A_DLG_CANCEL, 0, 0);
}

static int kb_height(const sim *s)
{
	int h = (int)(280 * s->dp + 0.5);
	return h > s->h / 2 ? s->h / 2 : h;
}

static void build_keyboard(sim_builder *b)
{
	const sim_pal *c = b->c;
	int top = b->H - kb_height(b->s);
	int kb = sim_deco(b, 0, 0, top, b->W, b->H, P_RECT, c->kb_panel, 0);
	N(b, kb)->act = A_ABSORB;
	static const char *rows[] = {"qwertyuiop", "asdfghjkl", "zxcvbnm"};
	int kh = (b->H - top - D(b, 48)) / 4, gap = D(b, 6);
	int kw = (b->W - D(b, 8)) / 10;
	int px = D(b, 22);
	for (int r = 0; r < 4; r++) {
		int y = top + D(b, 8) + r * kh;
		if (r < 3) {
			int nk = (int)strlen(rows[r]);
			int x = (b->W - nk * kw) / 2;
			if (r == 2) {
				int sh = sim_deco(b, kb, D(b, 4) + gap / 2, y + gap / 2, x - gap / 2, y + kh - gap / 2, P_RECT,
					      c->kb_special, D(b, 6));
				int g = sim_label(b, sh, N(b, sh)->x1, y + (kh - sim_line_height(px)) / 2, x - N(b, sh)->x1 - gap, "\xe2\x87\xa7",
					      22, c->kb_text, VF_NOTREE | VF_CENTER, NULL);
				N(b, g)->x1 = N(b, sh)->x1;
				N(b, g)->x2 = N(b, sh)->x2;
				int bk = sim_deco(b, kb, x + nk * kw + gap / 2, y + gap / 2, b->W - D(b, 4) - gap / 2, y + kh - gap / 2,
					      P_RECT, c->kb_special, D(b, 6));
				N(b, bk)->act = A_KEY_BKSP;
				int bg = sim_label(b, bk, N(b, bk)->x1, y + (kh - sim_line_height(px)) / 2, N(b, bk)->x2 - N(b, bk)->x1,
					       "\xe2\x8c\xab", 22, c->kb_text, VF_NOTREE | VF_CENTER, NULL);
				N(b, bg)->x1 = N(b, bk)->x1;
				N(b, bg)->x2 = N(b, bk)->x2;
			}
			for (int k = 0; k < nk; k++) {
				int x1 = x + k * kw + gap / 2, x2 = x + (k + 1) * kw - gap / 2;
				int key = sim_deco(b, kb, x1, y + gap / 2, x2, y + kh - gap / 2, P_RECT, c->kb_key, D(b, 6));
				N(b, key)->act = A_KEY_CHAR;
				N(b, key)->a1 = (unsigned char)rows[r][k];
				char t[2] = {rows[r][k], 0};
				int l = sim_label(b, key, x1, y + (kh - sim_line_height(px)) / 2, x2 - x1, t, 22, c->kb_text,
					      VF_NOTREE | VF_CENTER, NULL);
				N(b, l)->x1 = x1;
				N(b, l)->x2 = x2;
			}
		} else {
			/* ?123 , space . enter */
			struct {
				const char *t;
				int units, act, cp;
				int special;
			} keys[] = {{"?123", 15, A_ABSORB, 0, 1}, {",", 10, A_KEY_CHAR, ',', 0}, {"", 50, A_KEY_CHAR, ' ', 0},
				    {".", 10, A_KEY_CHAR, '.', 0}, {"\xe2\x86\xb5", 15, A_KEY_ENTER, 0, 2}};
			int x = D(b, 4);
			int unit = (b->W - D(b, 8)) / 100;
			for (int k = 0; k < 5; k++) {
				int w = keys[k].units * unit;
				if (k == 4)
					w = b->W - D(b, 4) - x;
				uint32_t bg = keys[k].special == 2 ? c->primary : keys[k].special ? c->kb_special : c->kb_key;
				int key = sim_deco(b, kb, x + gap / 2, y + gap / 2, x + w - gap / 2, y + kh - gap / 2, P_RECT, bg, D(b, 6));
				N(b, key)->act = keys[k].act;
				N(b, key)->a1 = keys[k].cp;
				if (*keys[k].t) {
					int l = sim_label(b, key, x, y + (kh - sim_line_height(D(b, 18))) / 2, w, keys[k].t, 18,
						      keys[k].special == 2 ? c->on_primary : c->kb_text, VF_NOTREE | VF_CENTER, NULL);
					N(b, l)->x1 = x;
					N(b, l)->x2 = x + w;
				}
				x += w;
			}
		}
	}
}

void sim_current_view(const sim *s, sim_view *v)
{
	memset(v, 0, sizeof *v);
	v->e = s->st.stack[s->st.depth - 1];
	v->dialog = s->st.dialog;
	v->dialog_arg = s->st.dialog_arg;
	v->focus = s->st.focus;
	v->kb = s->st.focus != F_NONE && !s->st.kb_hidden;
}

void sim_build(const sim *s, const sim_view *v, vtree *t)
{
	memset(t, 0, sizeof *t);
	t->scroll_node = -1;
	sim_builder b = {s, t, s->st.toggles[TG_DARK] ? &sim_dark : &sim_light, s->w, s->h, s->h};
	if (v->kb)
		b.bottom = s->h - kb_height(s);
	int scr = v->e.screen;
	if (scr == SCR_LAUNCHER)
		b.c = &sim_light;
	int content = sim_root(&b, sim_screen_package(scr), b.c->bg);
	switch (scr) {
	case SCR_LAUNCHER:
		build_launcher(&b, content);
		break;
	case SCR_SETTINGS:
		sim_build_settings_main(&b, content, v);
		break;
	case SCR_WIFI:
		sim_build_wifi(&b, content, v);
		break;
	case SCR_WIFI_NET:
		sim_build_wifi_net(&b, content, v);
		break;
	case SCR_BLUETOOTH:
		sim_build_bluetooth(&b, content, v);
		break;
	case SCR_CONTACTS:
		sim_build_contacts(&b, content, v);
		break;
	case SCR_CONTACT_EDIT:
		sim_build_contact_edit(&b, content, v);
		break;
	case SCR_CONTACT_DETAIL:
		sim_build_contact_detail(&b, content, v);
		break;
	case SCR_NOTES:
		sim_build_notes(&b, content, v);
		break;
	case SCR_NOTE_EDIT:
		sim_build_note_edit(&b, content, v);
		break;
	case SCR_CLOCK:
		sim_build_clock(&b, content, v);
		break;
	case SCR_ALARM_EDIT:
		sim_build_alarm_edit(&b, content, v);
		break;
	case SCR_MESSAGES:
		sim_build_messages(&b, content, v);
		break;
	case SCR_THREAD:
		sim_build_thread(&b, content, v);
		break;
	case SCR_COMPOSE:
		sim_build_compose(&b, content, v);
		break;
	case SCR_FILES:
		sim_build_files(&b, content, v);
		break;
	case SCR_FILE_DETAIL:
		sim_build_file_detail(&b, content, v);
		break;
	default: {
		sim_build_page(&b, content, v);
		break;
	}
	}
	if (v->kb)
		build_keyboard(&b);
	if (v->dialog != DLG_NONE)
		build_dialog(&b, v);
	/* the heads-up goes over the screen the phone shows now (not over the
	 * one a transition slides away) */
	const sim_entry *top = &s->st.stack[s->st.depth - 1];
	if (v->e.screen == top->screen && v->e.arg == top->arg)
		sim_ambient_build(&b);
}
