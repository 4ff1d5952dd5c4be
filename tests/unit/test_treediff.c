/* test_treediff.c - the UI tree diff: each part of the matching rule
 * (treediff.h), the changes it reports, references, the JSON form's bounds
 * and the rendered lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/treediff.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"
#include "tap.h"
#include "testutil.h"
#include "uitree_test.h"

#define HEAD "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">" \
	"<node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" package=\"p\" " \
	"content-desc=\"\" enabled=\"true\" bounds=\"[0,0][1080,1920]\">"
#define TAIL "</node></hierarchy>"
/* A node with text, id, class, enabled/checked and bounds. */
#define N(text, id, cls, checked, y) "<node index=\"0\" text=\"" text "\" resource-id=\"" id "\" class=\"" cls \
	"\" package=\"p\" content-desc=\"\" checkable=\"true\" checked=\"" checked "\" enabled=\"true\" " \
	"bounds=\"[0," #y "][1080," #y "9]\" />"

static void parse(const char *xml, amc_ui_tree *t)
{
	amc_err e;
	if (amc_uitree_parse(xml, strlen(xml), t, &e) != 0) {
		printf("Bail out! test XML does not parse: %s\n", e.msg);
		exit(1);
	}
}

static void diff_of(const char *a, const char *b, amc_ui_tree *ta, amc_ui_tree *tb, amc_tree_diff *d)
{
	parse(a, ta);
	parse(b, tb);
	amc_treediff(ta, tb, d);
}

static void done(amc_ui_tree *ta, amc_ui_tree *tb, amc_tree_diff *d)
{
	amc_treediff_free(d);
	amc_uitree_free(ta);
	amc_uitree_free(tb);
}

static const amc_td_entry *entry(const amc_tree_diff *d, amc_td_op op, int k)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].op == op && k-- == 0)
			return &d->v[i];
	return NULL;
}

static void test_same_tree(void)
{
	amc_ui_tree a, b;
	amc_tree_diff d;
	const char *x = HEAD N("Wi-Fi", "p:id/title", "android.widget.TextView", "false", 100)
		N("Battery", "p:id/title", "android.widget.TextView", "false", 200) TAIL;
	diff_of(x, x, &a, &b, &d);
	is_int(d.n, 0, "a tree against itself: no entries");
	is_int(d.matched, 3, "every node paired");
	done(&a, &b, &d);
	amc_ui_tree e1 = { 0 }, e2 = { 0 };
	amc_treediff(&e1, &e2, &d);
	ok(d.n == 0 && d.matched == 0, "two empty trees: nothing");
	amc_treediff_free(&d);
}

/* Pass 1: a unique id pairs even when text and place change. */
static void test_unique_id(void)
{
	amc_ui_tree a, b;
	amc_tree_diff d;
	diff_of(HEAD N("0", "p:id/display", "android.widget.TextView", "false", 100) TAIL,
		HEAD N("42", "p:id/display", "android.widget.TextView", "false", 300) TAIL, &a, &b, &d);
	is_int(d.by_id, 1, "unique id: paired by pass 1");
	is_int(d.changed, 1, "one changed");
	is_int(d.added + d.removed, 0, "nothing added or removed");
	const amc_td_entry *c = entry(&d, AMC_TD_CHANGED, 0);
	ok(c && (c->what & AMC_TD_TEXT) && (c->what & AMC_TD_BOUNDS), "text and bounds changed");
	done(&a, &b, &d);
}

/* Ids shared by list rows are not used to pair (pass 1 skips them); equal
 * rows pair by key, so a new row is an addition, not a rename. */
static void test_shared_ids(void)
{
	amc_ui_tree a, b;
	amc_tree_diff d;
	diff_of(HEAD N("Wi-Fi", "p:id/title", "android.widget.TextView", "false", 100)
		N("Battery", "p:id/title", "android.widget.TextView", "false", 200) TAIL,
		HEAD N("Wi-Fi", "p:id/title", "android.widget.TextView", "false", 100)
		N("Bluetooth", "p:id/title", "android.widget.TextView", "false", 200)
		N("Battery", "p:id/title", "android.widget.TextView", "false", 300) TAIL, &a, &b, &d);
	is_int(d.by_id, 0, "ids shared by rows pair nothing in pass 1");
	is_int(d.added, 1, "one row added");
	const amc_td_entry *ad = entry(&d, AMC_TD_ADDED, 0);
	is_str(ad ? b.nodes[ad->after].text : NULL, "Bluetooth", "the added row is Bluetooth");
	is_int(d.changed, 1, "Battery moved down: changed bounds");
	const amc_td_entry *c = entry(&d, AMC_TD_CHANGED, 0);
	ok(c && c->what == AMC_TD_BOUNDS && !strcmp(b.nodes[c->after].text, "Battery"), "only Battery's bounds");
	is_int(d.removed, 0, "nothing removed");
	done(&a, &b, &d);
}

/* Pass 2: equal look-alikes pair at the same place first, then in order. */
static void test_same_place_first(void)
{
	amc_ui_tree a, b;
	amc_tree_diff d;
	/* three equal "Off" rows; after: the middle one gone */
	diff_of(HEAD N("Off", "", "android.widget.TextView", "false", 100)
		N("Off", "", "android.widget.TextView", "false", 200)
		N("Off", "", "android.widget.TextView", "false", 300) TAIL,
		HEAD N("Off", "", "android.widget.TextView", "false", 100)
		N("Off", "", "android.widget.TextView", "false", 300) TAIL, &a, &b, &d);
	is_int(d.removed, 1, "one removed");
	is_int(d.changed, 0, "the other two paired at their places (no bounds change)");
	const amc_td_entry *r = entry(&d, AMC_TD_REMOVED, 0);
	ok(r && a.nodes[r->before].bounds.y1 == 200, "the removed one is the middle one");
	done(&a, &b, &d);
	/* moved look-alikes: paired in document order */
	diff_of(HEAD N("Off", "", "android.widget.TextView", "false", 100)
		N("Off", "", "android.widget.TextView", "false", 200) TAIL,
		HEAD N("Off", "", "android.widget.TextView", "false", 500)
		N("Off", "", "android.widget.TextView", "false", 600) TAIL, &a, &b, &d);
	is_int(d.changed, 2, "scrolled look-alikes: both changed bounds");
	const amc_td_entry *c = entry(&d, AMC_TD_CHANGED, 0);
	ok(c && a.nodes[c->before].bounds.y1 == 100 && b.nodes[c->after].bounds.y1 == 500, "first with first");
	done(&a, &b, &d);
}

/* Pass 3: same class and id at the same place, text changed. */
static void test_same_place_text(void)
{
	amc_ui_tree a, b;
	amc_tree_diff d;
	diff_of(HEAD N("Loading", "", "android.widget.TextView", "false", 100) TAIL,
		HEAD N("Done", "", "android.widget.TextView", "false", 100) TAIL, &a, &b, &d);
	is_int(d.by_place, 1, "paired by pass 3");
	const amc_td_entry *c = entry(&d, AMC_TD_CHANGED, 0);
	ok(c && c->what == AMC_TD_TEXT, "text changed");
	done(&a, &b, &d);
	/* a different place: removed and added, not changed */
	diff_of(HEAD N("Loading", "", "android.widget.TextView", "false", 100) TAIL,
		HEAD N("Done", "", "android.widget.TextView", "false", 700) TAIL, &a, &b, &d);
	ok(d.removed == 1 && d.added == 1 && d.changed == 0, "moved and renamed: one removed, one added");
	done(&a, &b, &d);
	/* a different class at the same place: not the same widget */
	diff_of(HEAD N("x", "", "android.widget.TextView", "false", 100) TAIL,
		HEAD N("y", "", "android.widget.Button", "false", 100) TAIL, &a, &b, &d);
	ok(d.removed == 1 && d.added == 1, "another class: removed and added");
	done(&a, &b, &d);
}

static void test_flags_and_tolerance(void)
{
	amc_ui_tree a, b;
	amc_tree_diff d;
	diff_of(HEAD N("", "p:id/switch", "android.widget.Switch", "false", 100) TAIL,
		HEAD N("", "p:id/switch", "android.widget.Switch", "true", 100) TAIL, &a, &b, &d);
	const amc_td_entry *c = entry(&d, AMC_TD_CHANGED, 0);
	ok(c && c->what == AMC_TD_CHECKED, "checked changed, nothing else");
	done(&a, &b, &d);
	/* enabled, focused, selected through attributes */
	diff_of(HEAD "<node index=\"0\" text=\"OK\" resource-id=\"p:id/ok\" class=\"B\" enabled=\"false\" "
		"focused=\"false\" selected=\"false\" bounds=\"[0,0][100,100]\" />" TAIL,
		HEAD "<node index=\"0\" text=\"OK\" resource-id=\"p:id/ok\" class=\"B\" enabled=\"true\" "
		"focused=\"true\" selected=\"true\" bounds=\"[0,0][100,100]\" />" TAIL, &a, &b, &d);
	c = entry(&d, AMC_TD_CHANGED, 0);
	ok(c && c->what == (AMC_TD_ENABLED | AMC_TD_FOCUSED | AMC_TD_SELECTED), "enabled, focused, selected");
	done(&a, &b, &d);
	char x1[512], x2[512];
	snprintf(x1, sizeof x1, HEAD "<node text=\"t\" resource-id=\"p:id/t\" class=\"T\" enabled=\"true\" "
		 "bounds=\"[10,10][100,100]\" />" TAIL);
	snprintf(x2, sizeof x2, HEAD "<node text=\"t\" resource-id=\"p:id/t\" class=\"T\" enabled=\"true\" "
		 "bounds=\"[%d,10][100,100]\" />" TAIL, 10 + AMC_TREEDIFF_BOUNDS_TOL);
	diff_of(x1, x2, &a, &b, &d);
	is_int(d.n, 0, "an edge moving AMC_TREEDIFF_BOUNDS_TOL px is no change");
	done(&a, &b, &d);
	snprintf(x2, sizeof x2, HEAD "<node text=\"t\" resource-id=\"p:id/t\" class=\"T\" enabled=\"true\" "
		 "bounds=\"[%d,10][100,100]\" />" TAIL, 11 + AMC_TREEDIFF_BOUNDS_TOL);
	diff_of(x1, x2, &a, &b, &d);
	c = entry(&d, AMC_TD_CHANGED, 0);
	ok(c && c->what == AMC_TD_BOUNDS, "one pixel more is a bounds change");
	done(&a, &b, &d);
}

static void collect(char op, const char *line, void *ud)
{
	amc_sb *sb = ud;
	amc_sb_printf(sb, "%c|%s\n", op, line);
}

static void test_refs_json_render(void)
{
	amc_ui_tree a, b;
	amc_tree_diff d;
	diff_of(HEAD N("Wi-Fi", "p:id/title", "android.widget.TextView", "false", 100)
		N("", "p:id/switch", "android.widget.Switch", "false", 200) TAIL,
		HEAD N("Wi-Fi", "p:id/title", "android.widget.TextView", "false", 100)
		N("", "p:id/switch", "android.widget.Switch", "true", 200)
		N("Saved", "p:id/toast", "android.widget.Toast", "false", 900) TAIL, &a, &b, &d);
	char ref[64];
	amc_treediff_ref(&b, 3, ref, sizeof ref);
	is_str(ref, "0.2", "the root's third child is 0.2");
	amc_treediff_ref(&b, 0, ref, sizeof ref);
	is_str(ref, "0", "the root is 0");
	amc_treediff_ref(&b, 99, ref, sizeof ref);
	is_str(ref, "", "a bad index: empty");
	amc_treediff_ref(&b, 3, ref, 2);
	is_str(ref, "0", "cut to fit, never a half number");
	cJSON *j = amc_treediff_to_json(&d, &a, &b);
	char *s = amc_json_print(j);
	diag("%s", s);
	like(s, "\"added\":1", "JSON counts");
	like(s, "{\"op\":\"+\",\"ref\":\"0.2\",\"class\":\"android.widget.Toast\",\"id\":\"p:id/toast\",\"text\":\"Saved\"",
	     "the added entry");
	like(s, "\"changes\":{\"checked\":[false,true]}", "the change, old and new");
	like(s, "\"before_ref\":\"0.1\"", "a changed entry names both nodes");
	amc_sb sb;
	amc_sb_init(&sb);
	is_int(amc_treediff_render(j, 1, collect, &sb), 2, "two lines");
	like(amc_sb_str(&sb), "+|+ Toast \"Saved\" #toast [0,900][1080,9009]  @0.2", "added line");
	like(amc_sb_str(&sb), "~|~ Switch #switch  checked: false \xe2\x86\x92 true  @0.1", "changed line (UTF-8 arrow)");
	amc_sb_reset(&sb);
	amc_treediff_render(j, 0, collect, &sb);
	like(amc_sb_str(&sb), "checked: false -> true", "ASCII arrow");
	amc_sb_free(&sb);
	free(s);
	cJSON_Delete(j);
	cJSON *bad = cJSON_Parse("{\"entries\":[{\"op\":\"\\u001b\"},3,{\"op\":\"+\"}]}");
	amc_sb_init(&sb);
	is_int(amc_treediff_render(bad, 1, collect, &sb), 1, "a bad op or entry is skipped, a bare one renders");
	amc_sb_free(&sb);
	cJSON_Delete(bad);
	is_int(amc_treediff_render(NULL, 1, collect, NULL), 0, "no JSON: no lines");
	done(&a, &b, &d);
}

/* The JSON form stays small: entries capped, strings cut on a UTF-8 boundary. */
static void test_json_bounds(void)
{
	amc_sb x;
	amc_sb_init(&x);
	amc_sb_puts(&x, HEAD);
	for (int i = 0; i < 300; i++)
		amc_sb_printf(&x, "<node text=\"row %d \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\" "
			      "class=\"T\" bounds=\"[0,%d][10,%d]\" />", i, i * 10, i * 10 + 9);
	amc_sb_puts(&x, TAIL);
	amc_ui_tree a, b;
	amc_tree_diff d;
	diff_of(HEAD TAIL, amc_sb_str(&x), &a, &b, &d);
	is_int(d.added, 300, "300 added");
	cJSON *j = amc_treediff_to_json(&d, &a, &b);
	is_int(cJSON_GetArraySize(cJSON_GetObjectItem(j, "entries")), AMC_TREEDIFF_JSON_MAX_ENTRIES, "entries capped");
	is_int(amc_json_int(j, "omitted", -1), 300 - AMC_TREEDIFF_JSON_MAX_ENTRIES, "the rest counted");
	const char *t = amc_json_str(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "entries"), 0), "text");
	ok(t && strlen(t) <= AMC_TREEDIFF_JSON_MAX_TEXT + 3 && strstr(t, "..."), "text cut with a mark");
	int valid = t != NULL;
	for (const unsigned char *p = (const unsigned char *)(t ? t : ""); *p; p++)
		if (*p == 0xc3 && p[1] != 0xa9)
			valid = 0;
	ok(valid, "never half a UTF-8 sequence");
	char *s = amc_json_print(j);
	ok(strlen(s) < 16 * 1024, "the JSON of 300 additions is under 16 KiB (%zu bytes)", strlen(s));
	free(s);
	cJSON_Delete(j);
	done(&a, &b, &d);
	amc_sb_free(&x);
}

/* Thousands of identical containers: no quadratic blow-up, a sane diff. */
static void test_many_lookalikes(void)
{
	amc_sb x;
	amc_sb_init(&x);
	amc_sb_puts(&x, HEAD);
	for (int i = 0; i < 3000; i++)
		amc_sb_printf(&x, "<node class=\"android.view.View\" bounds=\"[0,%d][10,%d]\" />", i, i + 1);
	amc_sb_puts(&x, TAIL);
	amc_ui_tree a, b;
	amc_tree_diff d;
	diff_of(amc_sb_str(&x), amc_sb_str(&x), &a, &b, &d);
	ok(d.n == 0 && d.matched == 3001, "3000 look-alikes against themselves: all paired, nothing changed");
	done(&a, &b, &d);
	amc_sb_free(&x);
}

int main(void)
{
	test_same_tree();
	test_unique_id();
	test_shared_ids();
	test_same_place_first();
	test_same_place_text();
	test_flags_and_tolerance();
	test_refs_json_render();
	test_json_bounds();
	test_many_lookalikes();
	return done_testing();
}
