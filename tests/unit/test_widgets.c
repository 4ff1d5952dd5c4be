/* test_widgets.c - the sim's view-tree parts (src/device/sim/widgets.c):
 * labels as wide as their text, scroll clamping, lists that are scrollable
 * only when they can scroll, text fields that report their hint, the UI
 * dump's choice of nodes, and hit-testing (topmost action, clipped by the
 * list, covered by a dialog's scrim). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtest.h"
#include "testutil.h"

static const char *home;

static void test_parts(sim *s)
{
	vtree t;
	memset(&t, 0, sizeof t);
	t.scroll_node = -1;
	sim_builder b = {s, &t, &sim_light, s->w, s->h, s->h};
	int content = sim_root(&b, "com.example", sim_light.bg);
	ok(content == 1 && t.n[0].parent == -1 && t.n[1].parent == 0 && !strcmp(t.pkg, "com.example"),
	   "a root window with a content frame");
	int l = sim_label(&b, content, 10, 20, 5000, "Wi-Fi", 16, sim_light.text, 0, "android:id/title");
	int px = D(&b, 16);
	is_int(t.n[l].x2 - t.n[l].x1, sim_text_width(s->font, px, 0, "Wi-Fi", 5), "a label is as wide as its text");
	is_int(t.n[l].y2 - t.n[l].y1, sim_line_height(px), "and one line high");
	ok(!strcmp(t.n[l].text, "Wi-Fi") && !strcmp(t.n[l].ptext, "Wi-Fi") && !strcmp(t.n[l].rid, "android:id/title"),
	   "it holds and paints its text under its id");
	int cut = sim_label(&b, content, 10, 20, 30, "A long label that does not fit", 16, sim_light.text, 0, NULL);
	is_int(t.n[cut].x2 - t.n[cut].x1, 30, "a label is capped at maxw");
	is_int(sim_clamp_scroll(500, 1000, 800), 200, "scroll clamps to content - view");
	is_int(sim_clamp_scroll(-5, 1000, 800), 0, "and to 0");
	is_int(sim_clamp_scroll(100, 500, 800), 0, "short content does not scroll");
	int list = sim_list(&b, content, 100, "list");
	ok(t.scroll_node == list && (t.n[list].flags & VF_SCROLLABLE), "a list is the tree's scroll node");
	sim_list_end(&b, list, 100);
	ok(t.scroll_max == 0 && !(t.n[list].flags & VF_SCROLLABLE), "a short list is not scrollable");
	sim_list_end(&b, list, s->h * 2);
	is_int(t.scroll_max, s->h * 2 - (s->h - 100), "a long one scrolls by what does not fit");
	int f = sim_field(&b, content, 300, "Name", "", "rid/name", F_NAME, F_NAME);
	ok(!strcmp(t.n[f].text, "Name") && !strcmp(t.n[f].ptext, "") && (t.n[f].flags & VF_FOCUSED),
	   "an empty focused field reports its hint as text and paints nothing");
	int d = sim_deco(&b, content, 0, 0, 10, 10, P_RECT, 0xFF0000FF, 0);
	int off = sim_add(&b, content, s->w + 10, 0, s->w + 20, 10, "android.view.View");
	unsigned char *dumped = calloc((size_t)t.count, 1);
	int *vis = calloc((size_t)t.count * 4, sizeof *vis);
	vtree_dumped(&t, s->w, s->h, dumped, vis);
	ok(dumped[0] && dumped[l] && dumped[f], "the window, labels and fields are dumped");
	ok(!dumped[d] && !dumped[off], "decoration and nodes off screen are not");
	is_int(vis[cut * 4 + 2] - vis[cut * 4], 30, "dumped bounds are the node's visible box");
	free(dumped);
	free(vis);
	vtree_free(&t);
	ok(t.count == 0 && t.n == NULL, "vtree_free empties the tree");
}

static void test_hit(sim *s)
{
	show(s, SCR_SETTINGS, -1);
	vtree t;
	build(s, &t);
	int title = find(&t, "android:id/title", "Bluetooth");
	ok(title >= 0, "Bluetooth row title");
	int h = title >= 0 ? vtree_hit(&t, (t.n[title].x1 + t.n[title].x2) / 2, (t.n[title].y1 + t.n[title].y2) / 2) : -1;
	ok(h >= 0 && t.n[h].act == A_OPEN && t.n[h].a1 == SCR_BLUETOOTH, "a tap on the title hits its row, which opens Bluetooth");
	ok(h >= 0 && t.n[title].parent == h, "the row is the title's parent");
	is_int(vtree_hit(&t, 540, 10), -1, "nothing to hit in the status bar");
	is_int(vtree_hit(&t, s->w, 1000), -1, "x = width is outside the screen");
	int list = t.scroll_node;
	ok(list >= 0 && t.scroll_max > 0, "settings has a scrollable list (max %d)", t.scroll_max);
	int list_top = list >= 0 ? t.n[list].y1 : 0;
	vtree_free(&t);

	/* Scroll a row halfway under the app bar: its hidden half is not tappable. */
	s->st.stack[1].scroll = (int)(72 * s->dp + 0.5) + 40; /* past the search bar, into the first row */
	build(s, &t);
	int first = -1;
	for (int i = 0; i < t.count && first < 0; i++)
		if (t.n[i].parent == t.scroll_node && t.n[i].act == A_OPEN && t.n[i].y1 < list_top && t.n[i].y2 > list_top)
			first = i;
	ok(first >= 0, "a row straddles the list's top edge");
	if (first >= 0) {
		int in = vtree_hit(&t, 540, list_top + 2), out = vtree_hit(&t, 540, list_top - 2);
		ok(in == first, "its visible part hits it");
		ok(out != first, "its part under the app bar does not (%d)", out);
	}
	vtree_free(&t);

	/* Later nodes win: with a dialog up, a tap on the page hits the scrim. */
	show(s, SCR_CONTACT_DETAIL, 0);
	s->st.dialog = DLG_DELETE_CONTACT;
	s->st.dialog_arg = 0;
	build(s, &t);
	int del = find(&t, "com.android.contacts:id/delete", NULL);
	int hd = del >= 0 ? vtree_hit(&t, (t.n[del].x1 + t.n[del].x2) / 2, (t.n[del].y1 + t.n[del].y2) / 2) : -1;
	ok(hd >= 0 && t.n[hd].act == A_DLG_CANCEL, "behind a dialog the page's buttons are covered by the scrim");
	ok(t.dump_root > 0, "the dialog is the dump's root");
	vtree_free(&t);
}

int main(void)
{
	home = test_home("widgets");
	amc_device *d = NULL;
	amc_err e;
	if (amc_sim_open(home, 0, NULL, &d, &e) != 0) {
		ok(0, "open sim:0: %s", e.msg);
		return done_testing();
	}
	test_parts(S(d));
	test_hit(S(d));
	amc_device_close(d);
	return done_testing();
}
