/* test_input.c - what the sim's user does (src/device/sim/input.c): taps that
 * navigate (push, up, back, home, launch) and the back stack's limit, the soft
 * keyboard and typing with its limits, scrolling lists, toggles that persist,
 * and the contact and note apps' rules (forms, saving, deleting with a dialog). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtest.h"
#include "testutil.h"

static const char *home;

static void test_navigation(sim *s)
{
	show(s, SCR_LAUNCHER, -1);
	ok(tap(s, "com.android.launcher3:id/icon", "Settings"), "tap Settings on the launcher");
	ok(top_screen(s) == SCR_SETTINGS && s->st.depth == 2, "Settings opens over the launcher");
	is_int(s->st.tr_kind, TR_SLIDE_FWD, "with a forward slide");
	ok(tap(s, "android:id/title", "Wi-Fi"), "tap Wi-Fi");
	ok(top_screen(s) == SCR_WIFI && s->st.depth == 3, "Wi-Fi page pushed");
	ok(tap(s, NULL, "Navigate up"), "tap the up arrow");
	ok(top_screen(s) == SCR_SETTINGS && s->st.depth == 2, "back at the settings list");
	is_int(s->st.tr_kind, TR_SLIDE_BACK, "with a backward slide");
	ok(tap(s, "android:id/title", "Wi-Fi") && tap(s, "android:id/title", "Office-5G"), "open a network's page");
	ok(top_screen(s) == SCR_WIFI_NET && s->st.stack[s->st.depth - 1].arg == 1, "page of network 1 (Office-5G)");
	sim_key(s, AMC_KEY_BACK);
	is_int(top_screen(s), SCR_WIFI, "back key pops one page");
	sim_key(s, AMC_KEY_HOME);
	ok(top_screen(s) == SCR_LAUNCHER && s->st.depth == 1, "home returns to the launcher");
	s->st.tr_kind = TR_NONE;
	sim_key(s, AMC_KEY_HOME);
	ok(s->st.depth == 1 && s->st.tr_kind == TR_NONE, "home on the launcher does nothing");
	sim_key(s, AMC_KEY_BACK);
	ok(s->st.depth == 1 && top_screen(s) == SCR_LAUNCHER, "back on the launcher stays");
	ok(sim_launch(s, SCR_NOTES) == 0 && s->st.depth == 2 && top_screen(s) == SCR_NOTES, "launch puts the app over the launcher");
	ok(sim_launch(s, SCR_CONTACTS) == 0 && s->st.depth == 2 && top_screen(s) == SCR_CONTACTS, "launching another replaces it");

	/* The stack has a limit: the oldest app page goes, the launcher stays. */
	show(s, SCR_SETTINGS, -1);
	for (int i = 1; i < SIM_MAX_STACK; i++)
		s->st.stack[i] = (sim_entry){SCR_SETTINGS, -1, 0};
	s->st.depth = SIM_MAX_STACK;
	ok(tap(s, "android:id/title", "Wi-Fi"), "tap Wi-Fi with a full stack");
	ok(s->st.depth == SIM_MAX_STACK && s->st.stack[0].screen == SCR_LAUNCHER && top_screen(s) == SCR_WIFI,
	   "depth stays %d, launcher kept, Wi-Fi on top", SIM_MAX_STACK);
}

static void test_keyboard(sim *s)
{
	sim_launch(s, SCR_CONTACTS);
	ok(tap(s, "com.android.contacts:id/fab_add", NULL), "tap Add contact");
	ok(top_screen(s) == SCR_CONTACT_EDIT && s->st.focus == F_NAME && !s->st.kb_hidden, "form open, name focused");
	vtree t;
	build(s, &t);
	int keys = 0;
	for (int i = 0; i < t.count; i++)
		keys += t.n[i].act == A_KEY_CHAR;
	ok(keys >= 29, "a soft keyboard with letter keys is shown (%d keys)", keys);
	vtree_free(&t);
	/* Tap letter keys. */
	const char *word = "hi";
	int typed = 1;
	for (const char *c = word; *c; c++) {
		build(s, &t);
		int k = -1;
		for (int i = 0; i < t.count; i++)
			if (t.n[i].act == A_KEY_CHAR && t.n[i].a1 == *c)
				k = i;
		if (k < 0)
			typed = 0;
		else
			sim_tap_at(s, (t.n[k].x1 + t.n[k].x2) / 2, (t.n[k].y1 + t.n[k].y2) / 2, 0);
		vtree_free(&t);
	}
	ok(typed, "keys h and i found");
	is_str(amc_sb_str(&s->st.f_name), "hi", "key taps type into the focused field");
	ok(sim_type(s, "\xc3\xab") == 0, "type a two-byte character");
	build(s, &t);
	int bk = -1;
	for (int i = 0; i < t.count; i++)
		if (t.n[i].act == A_KEY_BKSP)
			bk = i;
	ok(bk >= 0, "backspace key");
	int bx = bk >= 0 ? (t.n[bk].x1 + t.n[bk].x2) / 2 : 0, by = bk >= 0 ? (t.n[bk].y1 + t.n[bk].y2) / 2 : 0;
	vtree_free(&t);
	sim_tap_at(s, bx, by, 0);
	is_str(amc_sb_str(&s->st.f_name), "hi", "backspace removes a whole UTF-8 character");
	sim_tap_at(s, bx, by, 0);
	sim_tap_at(s, bx, by, 0);
	sim_tap_at(s, bx, by, 0);
	is_str(amc_sb_str(&s->st.f_name), "", "and stops at empty");

	/* Enter moves name -> phone, then hides the keyboard. */
	sim_type(s, "Ada");
	sim_key(s, AMC_KEY_ENTER);
	ok(s->st.focus == F_PHONE && !s->st.kb_hidden, "enter moves to the phone field");
	sim_type(s, "123");
	sim_key(s, AMC_KEY_ENTER);
	ok(s->st.focus == F_PHONE && s->st.kb_hidden, "enter in the phone field hides the keyboard");
	sim_view v;
	sim_current_view(s, &v);
	is_int(v.kb, 0, "no keyboard in the view");
	ok(tap(s, "com.android.contacts:id/phone", NULL) && !s->st.kb_hidden, "tapping the field brings it back");
	sim_key(s, AMC_KEY_BACK);
	ok(top_screen(s) == SCR_CONTACT_EDIT && s->st.kb_hidden, "first back only hides the keyboard");
	sim_key(s, AMC_KEY_BACK);
	is_int(top_screen(s), SCR_CONTACTS, "second back leaves the form");
	int saved = 0;
	for (int i = 0; i < s->st.ncontacts; i++)
		saved |= !strcmp(s->st.contacts[i].name, "Ada");
	ok(!saved, "leaving by back saves nothing");

	/* Typing rules. */
	ok(tap(s, "com.android.contacts:id/fab_add", NULL), "form again");
	s->st.focus = F_NONE;
	is_int(sim_type(s, "x"), -1, "typing with no focus is refused");
	s->st.focus = F_NAME;
	char big[SIM_FIELD_MAX + 2];
	memset(big, 'a', SIM_FIELD_MAX);
	big[SIM_FIELD_MAX] = '\0';
	ok(sim_type(s, big) == 0 && s->st.f_name.len == SIM_FIELD_MAX, "a field takes %d bytes", SIM_FIELD_MAX);
	is_int(sim_type(s, "b"), -2, "one more is refused");
	is_int(s->st.f_name.len, SIM_FIELD_MAX, "and nothing was added");
	/* A tap on nothing in particular drops the focus. */
	vtree t2;
	build(s, &t2);
	int nothing_y = -1;
	for (int y = 400; y < s->h / 2 && nothing_y < 0; y += 10)
		if (vtree_hit(&t2, 5, y) < 0)
			nothing_y = y;
	vtree_free(&t2);
	ok(nothing_y > 0, "an empty spot on the form");
	sim_tap_at(s, 5, nothing_y, 0);
	is_int(s->st.focus, F_NONE, "a tap there takes the focus away");
	sim_key(s, AMC_KEY_BACK);
}

static void test_scrolling(sim *s)
{
	show(s, SCR_SETTINGS, -1);
	vtree t;
	build(s, &t);
	int max = t.scroll_max, list = t.scroll_node;
	int ly1 = t.n[list].y1, ly2 = t.n[list].y2;
	ok(vtree_scroll_hit(&t, 540, (ly1 + ly2) / 2) == list, "a swipe in the list hits the list");
	is_int(vtree_scroll_hit(&t, 540, ly1 - 10), -1, "a swipe above it does not");
	vtree_free(&t);
	sim_swipe(s, 540, 2000, 540, 1500);
	is_int(s->st.stack[1].scroll, 500, "swipe up 500 px scrolls 500 px");
	sim_swipe(s, 540, 1500, 540, 1700);
	is_int(s->st.stack[1].scroll, 300, "swipe down 200 px scrolls back 200 px");
	for (int i = 0; i < 10; i++)
		sim_swipe(s, 540, 2200, 540, 300);
	is_int(s->st.stack[1].scroll, max, "scrolling stops at the end (%d)", max);
	sim_swipe(s, 540, 300, 540, 2300);
	sim_swipe(s, 540, 300, 540, 2300);
	is_int(s->st.stack[1].scroll, 0, "and at the top");
	sim_swipe(s, 540, 150, 540, 10);
	is_int(s->st.stack[1].scroll, 0, "a swipe starting in the app bar scrolls nothing");
	/* Scrolled rows: the first rows leave, the last ones come. */
	s->st.stack[1].scroll = max;
	build(s, &t);
	ok(find(&t, "android:id/title", "About phone") >= 0, "About phone built at the end");
	ok(find(&t, "android:id/title", "Wi-Fi") < 0, "Wi-Fi row no longer built");
	vtree_free(&t);
	/* Back into a scrolled list keeps the position. */
	ok(tap(s, "android:id/title", "About phone"), "open About phone");
	sim_key(s, AMC_KEY_BACK);
	is_int(s->st.stack[1].scroll, max, "scroll kept on return");

	/* A dialog over a list takes the gesture. */
	show(s, SCR_CONTACTS, -1);
	for (int i = 0; i < 40; i++) {
		char name[32];
		snprintf(name, sizeof name, "Person %02d", i);
		s->st.contacts = amc_xrealloc(s->st.contacts, (size_t)(s->st.ncontacts + 1) * sizeof *s->st.contacts);
		s->st.contacts[s->st.ncontacts].name = amc_xstrdup(name);
		s->st.contacts[s->st.ncontacts].phone = amc_xstrdup("");
		s->st.ncontacts++;
	}
	sim_contacts_sort(&s->st);
	sim_swipe(s, 540, 2000, 540, 1000);
	is_int(s->st.stack[1].scroll, 1000, "a long contact list scrolls");
	s->st.dialog = DLG_DELETE_CONTACT;
	s->st.dialog_arg = 0;
	sim_swipe(s, 540, 2000, 540, 1000);
	is_int(s->st.stack[1].scroll, 1000, "not while a dialog is up");
	s->st.dialog = DLG_NONE;
	/* Short lists do not scroll and are not scrollable. */
	show(s, SCR_NOTES, -1);
	build(s, &t);
	ok(t.scroll_max == 0 && (t.scroll_node < 0 || !(t.n[t.scroll_node].flags & VF_SCROLLABLE)),
	   "a two-note list is not scrollable");
	vtree_free(&t);
	sim_swipe(s, 540, 2000, 540, 1000);
	is_int(s->st.stack[1].scroll, 0, "and a swipe leaves it");
}

static void test_toggles(amc_device **dp)
{
	sim *s = S(*dp);
	amc_err e;
	show(s, SCR_WIFI, -1);
	s->st.toggles[TG_WIFI] = 1;
	vtree t;
	build(s, &t);
	int sw = find(&t, "com.android.settings:id/switch_widget", NULL);
	ok(sw >= 0 && (t.n[sw].flags & VF_CHECKABLE) && (t.n[sw].flags & VF_CHECKED), "switch on and checkable");
	vtree_free(&t);
	ok(tap(s, "com.android.settings:id/switch_widget", NULL) && !s->st.toggles[TG_WIFI], "tap the switch: Wi-Fi off");
	build(s, &t);
	ok(find(&t, NULL, "Wi-Fi is off") >= 0 && t.scroll_node < 0, "off text, no network list");
	sw = find(&t, "com.android.settings:id/switch_widget", NULL);
	ok(sw >= 0 && !(t.n[sw].flags & VF_CHECKED), "switch unchecked");
	vtree_free(&t);
	ok(tap(s, "android:id/title", "Use Wi-Fi") && s->st.toggles[TG_WIFI], "tap the row: on again");
	ok(tap(s, "android:id/title", "CoffeeShop Guest") && top_screen(s) == SCR_WIFI_NET, "open a network");
	ok(tap(s, NULL, "Connect") && s->st.wifi_connected == 2, "connect to it (network 2)");
	/* Display: dark theme. */
	show(s, SCR_DISPLAY, -1);
	ok(tap(s, "android:id/title", "Dark theme") && s->st.toggles[TG_DARK], "dark theme on");
	build(s, &t);
	uint32_t dark_bg = t.n[0].bg;
	vtree_free(&t);
	show(s, SCR_BLUETOOTH, -1);
	ok(tap(s, "android:id/title", "Use Bluetooth") && s->st.toggles[TG_BLUETOOTH], "Bluetooth on");
	ok(sim_state_save(s, &e) == 0, "save");
	amc_device_close(*dp);
	*dp = NULL;
	ok(amc_sim_open(home, 0, NULL, dp, &e) == 0, "reopen");
	if (!*dp)
		return;
	s = S(*dp);
	ok(s->st.toggles[TG_WIFI] && s->st.toggles[TG_DARK] && s->st.toggles[TG_BLUETOOTH], "toggles persist");
	is_int(s->st.wifi_connected, 2, "the connected network persists");
	show(s, SCR_SETTINGS, -1);
	build(s, &t);
	ok(t.n[0].bg == dark_bg && (dark_bg >> 24) < 0x40, "pages use the dark palette (bg %08x)", (unsigned)dark_bg);
	vtree_free(&t);
	s->st.toggles[TG_DARK] = 0;
	show(s, SCR_LAUNCHER, -1);
	build(s, &t);
	uint32_t wall = t.n[0].bg;
	vtree_free(&t);
	s->st.toggles[TG_DARK] = 1;
	build(s, &t);
	ok(t.n[0].bg == wall, "the launcher ignores the theme");
	vtree_free(&t);
	s->st.toggles[TG_DARK] = 0;
}

static int has_contact(const sim *s, const char *name)
{
	for (int i = 0; i < s->st.ncontacts; i++)
		if (!strcmp(s->st.contacts[i].name, name))
			return i;
	return -1;
}

static void test_apps(sim *s)
{
	vtree t;
	/* Contacts: an empty name is refused with a visible error. */
	sim_launch(s, SCR_CONTACTS);
	int before = s->st.ncontacts;
	ok(tap(s, "com.android.contacts:id/fab_add", NULL) && tap(s, "com.android.contacts:id/save", NULL), "save an empty form");
	ok(s->st.form_error && top_screen(s) == SCR_CONTACT_EDIT && s->st.ncontacts == before, "refused, form stays");
	build(s, &t);
	ok(find(&t, "com.android.contacts:id/error", "Name is required") >= 0, "error text shown");
	vtree_free(&t);
	sim_type(s, "  Barbara Liskov  ");
	ok(!s->st.form_error, "typing a name clears the error");
	ok(tap(s, "com.android.contacts:id/save", NULL), "save");
	int k = has_contact(s, "Barbara Liskov");
	ok(k >= 0, "saved with the name trimmed");
	ok(top_screen(s) == SCR_CONTACT_DETAIL && s->st.stack[s->st.depth - 1].arg == k && s->st.depth == 3,
	   "the form is replaced by the contact's page");
	/* Edit from the detail page: saving does not stack a second detail page. */
	ok(tap(s, "com.android.contacts:id/edit", NULL) && top_screen(s) == SCR_CONTACT_EDIT, "edit");
	is_str(amc_sb_str(&s->st.f_name), "Barbara Liskov", "form loaded with the contact");
	ok(s->st.focus == F_NONE, "editing starts without focus");
	s->st.focus = F_NAME;
	sim_type(s, " II");
	ok(tap(s, "com.android.contacts:id/save", NULL), "save the edit");
	ok(has_contact(s, "Barbara Liskov II") >= 0 && has_contact(s, "Barbara Liskov") < 0, "renamed, not duplicated");
	ok(s->st.depth == 3 && top_screen(s) == SCR_CONTACT_DETAIL, "one detail page on the stack");
	/* Delete: cancel keeps, confirm removes and returns to the list. */
	ok(tap(s, "com.android.contacts:id/delete", NULL) && s->st.dialog == DLG_DELETE_CONTACT, "delete asks first");
	ok(tap(s, "android:id/button2", "Cancel") && s->st.dialog == DLG_NONE && has_contact(s, "Barbara Liskov II") >= 0,
	   "cancel keeps the contact");
	ok(tap(s, "com.android.contacts:id/delete", NULL), "delete again");
	sim_key(s, AMC_KEY_BACK);
	ok(s->st.dialog == DLG_NONE && has_contact(s, "Barbara Liskov II") >= 0, "back closes the dialog");
	int n0 = s->st.ncontacts;
	ok(tap(s, "com.android.contacts:id/delete", NULL) && tap(s, "android:id/button1", "Delete"), "confirm delete");
	ok(has_contact(s, "Barbara Liskov II") < 0 && s->st.ncontacts == n0 - 1, "contact removed");
	is_int(top_screen(s), SCR_CONTACTS, "back at the list");

	/* Notes: back saves, an empty new note is dropped, no title gets 'Untitled'. */
	sim_launch(s, SCR_NOTES);
	int notes = s->st.nnotes;
	ok(tap(s, "com.amc.notes:id/new_note", NULL) && s->st.focus == F_TITLE, "new note, title focused");
	sim_type(s, "Groceries");
	sim_key(s, AMC_KEY_ENTER);
	ok(s->st.focus == F_BODY, "enter moves to the body");
	sim_type(s, "milk");
	sim_key(s, AMC_KEY_ENTER);
	sim_type(s, "eggs");
	is_str(amc_sb_str(&s->st.f_body), "milk\neggs", "enter in the body is a newline");
	sim_key(s, AMC_KEY_BACK);
	sim_key(s, AMC_KEY_BACK);
	ok(s->st.nnotes == notes + 1 && !strcmp(s->st.notes[0].title, "Groceries") && !strcmp(s->st.notes[0].body, "milk\neggs"),
	   "back saved the note first in the list");
	ok(tap(s, "com.amc.notes:id/new_note", NULL), "another new note");
	sim_key(s, AMC_KEY_BACK);
	sim_key(s, AMC_KEY_BACK);
	is_int(s->st.nnotes, notes + 1, "an empty new note is not kept");
	ok(tap(s, "com.amc.notes:id/new_note", NULL), "and one with a body only");
	s->st.focus = F_BODY;
	sim_type(s, "just a body");
	sim_key(s, AMC_KEY_BACK);
	sim_key(s, AMC_KEY_BACK);
	is_str(s->st.notes[0].title, "Untitled", "a note with no title is 'Untitled'");
	/* Long press on a note asks to delete it. */
	build(s, &t);
	int row = find(&t, "com.amc.notes:id/note_title", "Untitled");
	int rx = row >= 0 ? (t.n[row].x1 + t.n[row].x2) / 2 : 0, ry = row >= 0 ? (t.n[row].y1 + t.n[row].y2) / 2 : 0;
	vtree_free(&t);
	sim_tap_at(s, rx, ry, 1);
	ok(s->st.dialog == DLG_DELETE_NOTE && s->st.dialog_arg == 0, "long press asks to delete the note");
	int nn = s->st.nnotes;
	ok(tap(s, "android:id/button1", "Delete") && s->st.nnotes == nn - 1 && strcmp(s->st.notes[0].title, "Untitled"),
	   "confirm deletes it");
}

int main(void)
{
	home = test_home("input");
	amc_device *d = NULL;
	amc_err e;
	if (amc_sim_open(home, 0, NULL, &d, &e) != 0) {
		ok(0, "open sim:0: %s", e.msg);
		return done_testing();
	}
	test_navigation(S(d));
	test_keyboard(S(d));
	test_scrolling(S(d));
	test_toggles(&d);
	if (d) {
		test_apps(S(d));
		amc_device_close(d);
	}
	return done_testing();
}
