/* test_screens.c - the sim's apps as view trees (src/device/sim/screens*.c):
 * every screen builds a well-linked tree under a full-screen root of its app,
 * and each app shows what its state says (launcher icons, settings pages
 * from their table, the connected network first, contacts with their
 * initials, note bodies drawn but not dumped, dialogs and the keyboard). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtest.h"
#include "testutil.h"

static const char *home;

static void test_trees(sim *s)
{
	int good = 0;
	for (int scr = 0; scr < SCR_COUNT; scr++) {
		int arg = (scr == SCR_WIFI_NET || scr == SCR_CONTACT_DETAIL || scr == SCR_NOTE_EDIT) ? 0 : -1;
		show(s, scr, arg);
		vtree t;
		build(s, &t);
		int fine = t.count > 3 && t.n[0].parent == -1 && t.n[0].x1 == 0 && t.n[0].y1 == 0 && t.n[0].x2 == s->w &&
			   t.n[0].y2 == s->h && t.pkg && !strcmp(t.pkg, sim_screen_package(scr));
		/* Links: each node's parent comes before it and lists it among its children. */
		for (int i = 1; i < t.count && fine; i++) {
			int p = t.n[i].parent, listed = 0;
			if (p < 0 || p >= i) {
				fine = 0;
				break;
			}
			for (int c = t.n[p].first; c >= 0; c = t.n[c].next)
				listed |= c == i;
			fine = listed;
		}
		if (fine)
			good++;
		else
			diag("screen %s: bad tree", sim_screen_name(scr));
		vtree_free(&t);
	}
	is_int(good, SCR_COUNT, "every screen builds a well-linked tree under a full-screen root of its app");
}

static void test_apps(sim *s)
{
	vtree t;
	show(s, SCR_LAUNCHER, -1);
	build(s, &t);
	int icons = 0;
	for (int i = 0; i < t.count; i++)
		icons += !strcmp(t.n[i].rid, "com.android.launcher3:id/icon") && t.n[i].act == A_LAUNCH;
	is_int(icons, 6, "the launcher has six app icons");
	char date[32];
	sim_date(s, date, sizeof date, 0);
	ok(find(&t, "com.android.launcher3:id/date", date) >= 0, "and the date (%s)", date);
	vtree_free(&t);

	show(s, SCR_BATTERY, -1);
	build(s, &t);
	int saver = find(&t, "android:id/title", "Battery Saver");
	ok(saver >= 0 && t.n[t.n[saver].parent].act == A_TOGGLE && t.n[t.n[saver].parent].a1 == TG_BATTERY_SAVER,
	   "a settings page's row toggles its setting");
	ok(find(&t, "com.android.settings:id/switch_widget", NULL) >= 0, "with a switch");
	vtree_free(&t);

	show(s, SCR_WIFI, -1);
	s->st.toggles[TG_WIFI] = 1;
	s->st.wifi_connected = 3;
	build(s, &t);
	int first = -1;
	for (int i = 0; i < t.count && first < 0; i++)
		if (t.n[i].parent == t.scroll_node && t.n[i].act == A_OPEN)
			first = i;
	ok(first >= 0 && t.n[first].a2 == 3, "the connected network is listed first");
	ok(find(&t, "android:id/summary", "Connected") >= 0, "marked Connected");
	vtree_free(&t);
	s->st.wifi_connected = 0;

	show(s, SCR_CONTACTS, -1);
	build(s, &t);
	int name = s->st.ncontacts > 0 ? find(&t, "com.android.contacts:id/name", s->st.contacts[0].name) : -1;
	ok(name >= 0 && t.n[t.n[name].parent].act == A_OPEN && t.n[t.n[name].parent].a1 == SCR_CONTACT_DETAIL,
	   "a contact's row opens its page");
	ok(find(&t, "com.android.contacts:id/fab_add", "Add contact") >= 0, "an Add contact button");
	vtree_free(&t);

	show(s, SCR_NOTE_EDIT, 0);
	amc_sb_reset(&s->st.f_body);
	amc_sb_puts(&s->st.f_body, "secret body");
	s->st.focus = F_BODY;
	build(s, &t);
	int body = find(&t, "com.amc.notes:id/body", NULL);
	ok(body >= 0 && t.n[body].paint == P_BLOCK && !t.n[body].text && !strcmp(t.n[body].ptext, "secret body"),
	   "a note's body is painted, not in the tree");
	int keys = 0;
	for (int i = 0; i < t.count; i++)
		keys += t.n[i].act == A_KEY_CHAR;
	ok(keys >= 29, "a focused field brings the keyboard (%d keys)", keys);
	vtree_free(&t);
	s->st.focus = F_NONE;

	show(s, SCR_CONTACT_DETAIL, 0);
	s->st.dialog = DLG_DELETE_NOTE;
	build(s, &t);
	ok(t.dump_root > 0 && find(&t, "android:id/alertTitle", "Delete this note?") > t.dump_root,
	   "a dialog is the dump's root and asks its question");
	vtree_free(&t);
	s->st.dialog = DLG_NONE;
}

int main(void)
{
	home = test_home("screens");
	amc_device *d = NULL;
	amc_err e;
	if (amc_sim_open(home, 0, NULL, &d, &e) != 0) {
		ok(0, "open sim:0: %s", e.msg);
		return done_testing();
	}
	test_trees(S(d));
	test_apps(S(d));
	amc_device_close(d);
	return done_testing();
}
