/* test_selector.c - Maestro selector semantics over hand-built UI trees (so the
 * tests do not depend on the uiautomator parser). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flow/selector.h"
#include "tap.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* A tiny tree builder: nodes in pre-order, each with a parent index. */
typedef struct tb {
	amc_ui_tree t;
	size_t cap;
} tb;

static int node(tb *b, int parent, const char *text, const char *rid, const char *desc, const char *hint,
		int x1, int y1, int x2, int y2, int displayed)
{
	if (b->t.count == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 16;
		b->t.nodes = amc_xrealloc(b->t.nodes, b->cap * sizeof *b->t.nodes);
	}
	int i = (int)b->t.count++;
	amc_ui_node *n = &b->t.nodes[i];
	memset(n, 0, sizeof *n);
	n->parent = parent;
	n->first_child = -1;
	n->next_sibling = -1;
	n->depth = parent < 0 ? 0 : b->t.nodes[parent].depth + 1;
	n->text = amc_xstrdup(text ? text : "");
	n->resource_id = amc_xstrdup(rid ? rid : "");
	n->class_name = amc_xstrdup("android.widget.TextView");
	n->package = amc_xstrdup("com.example");
	n->content_desc = amc_xstrdup(desc ? desc : "");
	n->hint = amc_xstrdup(hint ? hint : "");
	n->bounds = (amc_bounds){ x1, y1, x2, y2 };
	n->flags = AMC_NODE_ENABLED | (displayed ? AMC_NODE_DISPLAYED : 0);
	if (parent >= 0) {
		amc_ui_node *p = &b->t.nodes[parent];
		p->child_count++;
		if (p->first_child < 0) {
			p->first_child = i;
		} else {
			int c = p->first_child;
			while (b->t.nodes[c].next_sibling >= 0)
				c = b->t.nodes[c].next_sibling;
			b->t.nodes[c].next_sibling = i;
		}
	}
	return i;
}

static void tb_free(tb *b)
{
	amc_uitree_free(&b->t);
	memset(b, 0, sizeof *b);
}

static amc_selector text_sel(const char *text)
{
	amc_selector s;
	memset(&s, 0, sizeof s);
	s.text = (char *)text;
	return s;
}

static amc_selector id_sel(const char *id)
{
	amc_selector s;
	memset(&s, 0, sizeof s);
	s.id = (char *)id;
	return s;
}

/* A contacts-like screen. */
static int R, TITLE, ROW_B, ROW_A, ROW_C, FAB, HIDDEN, FIELD, MULTI;
static void contacts(tb *b)
{
	memset(b, 0, sizeof *b);
	R = node(b, -1, NULL, NULL, NULL, NULL, 0, 0, 1080, 2400, 1);
	TITLE = node(b, R, "Contacts", "com.android.contacts:id/title", NULL, NULL, 40, 100, 600, 200, 1);
	/* rows deliberately out of document order relative to position */
	ROW_B = node(b, R, "Bob", "com.android.contacts:id/name", NULL, NULL, 40, 500, 1040, 600, 1);
	ROW_A = node(b, R, "Ada Lovelace", "com.android.contacts:id/name", NULL, NULL, 40, 300, 1040, 400, 1);
	ROW_C = node(b, R, "Carol", "com.android.contacts:id/name", NULL, NULL, 40, 700, 1040, 800, 1);
	FAB = node(b, R, "", "com.android.contacts:id/fab_add", "Add contact", NULL, 900, 2100, 1040, 2240, 1);
	HIDDEN = node(b, R, "Secret", "com.android.contacts:id/hidden", NULL, NULL, 0, 0, 0, 0, 0);
	FIELD = node(b, R, "", "com.android.contacts:id/phone", NULL, "Phone", 40, 900, 1040, 1000, 1);
	MULTI = node(b, R, "Line one\nLine two", "note", NULL, NULL, 40, 1100, 1040, 1200, 1);
}

static void test_text(void)
{
	tb b;
	contacts(&b);
	amc_selector s = text_sel("Contacts");
	is_int(amc_selector_find(&s, &b.t), TITLE, "exact text");
	s = text_sel("Contact");
	is_int(amc_selector_find(&s, &b.t), -1, "partial text does not match (full match)");
	s = text_sel("ontacts");
	is_int(amc_selector_find(&s, &b.t), -1, "suffix does not match");
	s = text_sel("Ada.*");
	is_int(amc_selector_find(&s, &b.t), ROW_A, "regex");
	s = text_sel("contacts");
	is_int(amc_selector_find(&s, &b.t), TITLE, "case-insensitive, as Maestro");
	s = text_sel("(Bob|Carol)");
	is_int(amc_selector_count(&s, &b.t), 2, "alternation counts two");
	s = text_sel("Add contact");
	is_int(amc_selector_find(&s, &b.t), FAB, "content-desc matches text");
	s = text_sel("Phone");
	is_int(amc_selector_find(&s, &b.t), FIELD, "hint matches text");
	s = text_sel("Secret");
	is_int(amc_selector_find(&s, &b.t), -1, "nodes not displayed are ignored");
	s = text_sel("Line one Line two");
	is_int(amc_selector_find(&s, &b.t), MULTI, "newlines match as spaces");
	s = text_sel("Line one.Line two");
	is_int(amc_selector_find(&s, &b.t), MULTI, "dot matches a newline");
	s = text_sel(".*");
	ok(amc_selector_count(&s, &b.t) >= 6, "'.*' matches every displayed node with text");
	ok(amc_selector_find(&s, &b.t) != R, "empty root text never matches");
	tb_free(&b);
}

static void test_literal_fallback(void)
{
	tb b;
	memset(&b, 0, sizeof b);
	int r = node(&b, -1, NULL, NULL, NULL, NULL, 0, 0, 1080, 2400, 1);
	int paren = node(&b, r, "Total (", NULL, NULL, NULL, 0, 100, 100, 200, 1);
	int price = node(&b, r, "$5.00 (tax)", NULL, NULL, NULL, 0, 300, 100, 400, 1);
	int plus = node(&b, r, "C++", NULL, NULL, NULL, 0, 500, 100, 600, 1);
	amc_selector s = text_sel("Total (");
	is_int(amc_selector_find(&s, &b.t), paren, "invalid regex falls back to literal equality");
	s = text_sel("$5.00 (tax)");
	is_int(amc_selector_find(&s, &b.t), price, "valid regex that does not match itself: literal equality");
	s = text_sel("C++");
	is_int(amc_selector_find(&s, &b.t), plus, "'C++' found literally");
	s = text_sel("Total");
	is_int(amc_selector_find(&s, &b.t), -1, "literal fallback is full, not partial");
	tb_free(&b);
}

static void test_id(void)
{
	tb b;
	contacts(&b);
	amc_selector s = id_sel("fab_add");
	is_int(amc_selector_find(&s, &b.t), FAB, "id without package prefix");
	s = id_sel("com.android.contacts:id/fab_add");
	is_int(amc_selector_find(&s, &b.t), FAB, "id with package prefix");
	s = id_sel("fab");
	is_int(amc_selector_find(&s, &b.t), -1, "partial id does not match");
	s = id_sel(".*:id/ph.*");
	is_int(amc_selector_find(&s, &b.t), FIELD, "id regex over the full string");
	s = id_sel("name");
	is_int(amc_selector_count(&s, &b.t), 3, "three rows share an id");
	s.has_index = 1;
	is_int(amc_selector_find(&s, &b.t), ROW_A, "index 0 is the topmost, not the first in the document");
	s.index = 1;
	is_int(amc_selector_find(&s, &b.t), ROW_B, "index 1");
	s.index = 2;
	is_int(amc_selector_find(&s, &b.t), ROW_C, "index 2");
	s.index = 3;
	is_int(amc_selector_find(&s, &b.t), -1, "index past the end");
	s = id_sel("name");
	s.text = "Bob";
	is_int(amc_selector_find(&s, &b.t), ROW_B, "text and id together");
	s.text = "Contacts";
	is_int(amc_selector_find(&s, &b.t), -1, "text and id must both match");
	s = id_sel("hidden");
	is_int(amc_selector_find(&s, &b.t), -1, "hidden id ignored");
	tb_free(&b);
}

static void test_order_and_depth(void)
{
	tb b;
	memset(&b, 0, sizeof b);
	int r = node(&b, -1, NULL, NULL, NULL, NULL, 0, 0, 1080, 2400, 1);
	int right = node(&b, r, "Item", NULL, NULL, NULL, 600, 100, 900, 200, 1);
	int left = node(&b, r, "Item", NULL, NULL, NULL, 100, 100, 400, 200, 1);
	int below = node(&b, r, "Item", NULL, NULL, NULL, 0, 150, 100, 250, 1);
	/* A container whose content-desc equals its child's text: the child wins. */
	int box = node(&b, r, "", NULL, "Wrapped", NULL, 0, 1000, 1080, 1400, 1);
	int inner = node(&b, box, "Wrapped", NULL, NULL, NULL, 100, 1100, 500, 1200, 1);
	amc_selector s = text_sel("Item");
	is_int(amc_selector_find(&s, &b.t), right, "no index: the first in the document (Maestro)");
	b.t.nodes[below].flags |= AMC_NODE_CLICKABLE;
	is_int(amc_selector_find(&s, &b.t), below, "no index: a clickable one first (Maestro's clickableFirst)");
	b.t.nodes[below].flags &= ~AMC_NODE_CLICKABLE;
	s.has_index = 1;
	is_int(amc_selector_find(&s, &b.t), left, "index 0, same row: left first");
	s.index = 1;
	is_int(amc_selector_find(&s, &b.t), right, "then right");
	s.index = 2;
	is_int(amc_selector_find(&s, &b.t), below, "then the lower one");
	s = text_sel("Wrapped");
	is_int(amc_selector_find(&s, &b.t), inner, "deepest match wins over its container");
	is_int(amc_selector_count(&s, &b.t), 1, "container not counted");
	(void)box;
	tb_free(&b);

	amc_ui_tree empty;
	memset(&empty, 0, sizeof empty);
	s = text_sel("x");
	is_int(amc_selector_find(&s, &empty), -1, "empty tree");
	amc_selector none;
	memset(&none, 0, sizeof none);
	contacts(&b);
	/* Orchestra.buildFilter with no filters keeps every node (Filters.intersect
	 * of none), then clickable first: some element, as in Maestro */
	ok(amc_selector_find(&none, &b.t) >= 0, "a selector with no criterion matches an element, as Maestro's does");
	tb_free(&b);
}

static void test_pathological(void)
{
	tb b;
	memset(&b, 0, sizeof b);
	int r = node(&b, -1, NULL, NULL, NULL, NULL, 0, 0, 1080, 2400, 1);
	char text[64];
	memset(text, 'a', 40);
	text[40] = '!';
	text[41] = '\0';
	for (int i = 0; i < 50; i++)
		node(&b, r, text, NULL, NULL, NULL, 0, i * 10, 100, i * 10 + 10, 1);
	amc_selector s = text_sel("(a|aa)+\\W\\W");
	clock_t t0 = clock();
	int found = amc_selector_find(&s, &b.t);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	is_int(found, -1, "catastrophic backtracking pattern: no match");
	ok(secs < 5.0, "and bounded in time (%.3f s for 50 nodes)", secs);
	diag("pathological pattern over 50 nodes: %.3f s", secs);
	/* Invalid UTF-8 in a node does not break matching of the others. */
	int bad = node(&b, r, "\xff\xfe", NULL, NULL, NULL, 0, 2000, 100, 2100, 1);
	int good = node(&b, r, "caf\xc3\xa9", NULL, NULL, NULL, 0, 2100, 100, 2200, 1);
	s = text_sel("CAF\xc3\x89");
	is_int(amc_selector_find(&s, &b.t), good, "non-ASCII case-insensitive match");
	s = text_sel(".*\xc3\xa9");
	is_int(amc_selector_find(&s, &b.t), good, "regex over UTF-8");
	(void)bad;
	tb_free(&b);
}

static void test_describe(void)
{
	amc_selector s;
	memset(&s, 0, sizeof s);
	s.text = "Add contact";
	s.id = "save";
	s.index = 1;
	char *d = amc_selector_describe(&s);
	is_str(d, "text=\"Add contact\" id=\"save\" index=1", "describe");
	free(d);
	s = text_sel("\x1b[31mred");
	d = amc_selector_describe(&s);
	ok(d && !strchr(d, 0x1b), "describe sanitizes");
	free(d);
	/* 79 ASCII bytes, then 3-byte characters: the 80-byte cut falls inside
	 * the first; it must end before it, not as U+FFFD */
	char longtext[128];
	memset(longtext, 'a', 79);
	strcpy(longtext + 79, "\xe5\xad\x98\xe5\x9c\xa8");
	s = text_sel(longtext);
	d = amc_selector_describe(&s);
	ok(d && amc_utf8_valid(d) && !strstr(d, "\xef\xbf\xbd") && strstr(d, "a...\""), "a long value is cut between characters: %s", d ? d : "");
	free(d);
}

/* A settings-like form: labels on the left, switches on the right, in rows
 * that hold both; Maestro's relative, state and size keys over it. */
static void test_relative(void)
{
	tb b;
	memset(&b, 0, sizeof b);
	int r = node(&b, -1, NULL, NULL, NULL, NULL, 0, 0, 1080, 2400, 1);
	int row1 = node(&b, r, "", "row", NULL, NULL, 0, 200, 1080, 300, 1);
	int wifi = node(&b, row1, "Wi-Fi", "label", NULL, NULL, 40, 220, 500, 280, 1);
	int sw1 = node(&b, row1, "", "switch", NULL, NULL, 900, 220, 1000, 280, 1);
	int row2 = node(&b, r, "", "row", NULL, NULL, 0, 300, 1080, 400, 1);
	(void)node(&b, row2, "Bluetooth", "label", NULL, NULL, 40, 320, 500, 380, 1);
	int sw2 = node(&b, row2, "", "switch", NULL, NULL, 900, 320, 1000, 380, 1);
	int row3 = node(&b, r, "", "row", NULL, NULL, 0, 400, 1080, 500, 1);
	int nfc = node(&b, row3, "NFC", "label", NULL, NULL, 40, 420, 500, 480, 1);
	int sw3 = node(&b, row3, "", "switch", NULL, NULL, 900, 420, 1000, 480, 1);
	b.t.nodes[sw2].flags |= AMC_NODE_CHECKED;
	b.t.nodes[sw3].flags &= ~AMC_NODE_ENABLED;

	amc_selector anchor = text_sel("Bluetooth"), s = id_sel("switch");
	s.below = &anchor;
	is_int(amc_selector_find(&s, &b.t), sw3, "below: the nearest switch under the anchor's top");
	is_int(amc_selector_count(&s, &b.t), 1, "below: only those whose top is lower");
	s.below = NULL;
	s.above = &anchor;
	is_int(amc_selector_find(&s, &b.t), sw1, "above");
	s.above = NULL;
	s.right_of = &anchor;
	/* Maestro intersects its filters keeping the first one's order: with an
	 * id, the first switch in the document that is right of the anchor. */
	is_int(amc_selector_find(&s, &b.t), sw1, "rightOf with an id: the id's order (Maestro), not the nearest");
	amc_selector lab = id_sel("label"), sw = id_sel("switch");
	sw.checked = AMC_SEL_YES;
	lab.left_of = &sw;
	is_int(amc_selector_find(&lab, &b.t), wifi, "leftOf a checked switch, with an id: the id's order");
	amc_selector near = { 0 };
	near.left_of = &sw;
	is_int(amc_selector_find(&near, &b.t), row2, "leftOf alone: the nearest element (by centres) first");
	near.height = 60;
	is_int(amc_selector_find(&near, &b.t), wifi, "a size key before it: the size filter's order (Maestro)");
	sw = id_sel("switch");
	sw.checked = AMC_SEL_YES;
	is_int(amc_selector_find(&sw, &b.t), sw2, "checked: true");
	sw.checked = AMC_SEL_NO;
	is_int(amc_selector_count(&sw, &b.t), 2, "checked: false");
	sw = id_sel("switch");
	sw.enabled = AMC_SEL_NO;
	is_int(amc_selector_find(&sw, &b.t), sw3, "enabled: false");
	/* relative alone, no text or id: every element in relation, nearest first */
	amc_selector only = { 0 };
	only.right_of = &anchor;
	is_int(amc_selector_find(&only, &b.t), sw2, "a relative key alone: the nearest element");

	amc_selector child = text_sel("NFC"), row = id_sel("row");
	row.contains_child = &child;
	is_int(amc_selector_find(&row, &b.t), row3, "containsChild");
	amc_selector par = id_sel("row");
	par.contains_child = &child;
	amc_selector in = id_sel("switch");
	in.child_of = &par;
	is_int(amc_selector_find(&in, &b.t), sw3, "childOf a row that contains NFC");
	amc_selector ds[2];
	ds[0] = text_sel("Wi-Fi");
	ds[1] = id_sel("switch");
	row = id_sel("row");
	row.descendants = ds;
	row.ndescendants = 2;
	is_int(amc_selector_find(&row, &b.t), row1, "containsDescendants: all of them inside");
	ds[0] = text_sel("Nope");
	is_int(amc_selector_find(&row, &b.t), -1, "containsDescendants: one missing, no match");

	amc_selector size = id_sel("switch");
	size.width = 105;
	is_int(amc_selector_count(&size, &b.t), 0, "width off by 5 without tolerance");
	size.tolerance = 5;
	is_int(amc_selector_count(&size, &b.t), 3, "width within tolerance");
	size.height = 10;
	is_int(amc_selector_count(&size, &b.t), 0, "height too");
	(void)wifi;
	(void)nfc;
	tb_free(&b);
}

/* Maestro's TraitFilters: hasText, isSquare (|1 - w/h| < 0.03), hasLongText (> 200) */
static void test_traits(void)
{
	tb b = { 0 };
	int root = node(&b, -1, NULL, NULL, NULL, NULL, 0, 0, 1000, 2000, 1);
	int icon = node(&b, root, NULL, "icon", NULL, NULL, 0, 0, 100, 101, 1);
	int label = node(&b, root, "Hello", "label", NULL, NULL, 0, 200, 500, 260, 1);
	char longtext[260];
	memset(longtext, 'x', sizeof longtext - 1);
	longtext[sizeof longtext - 1] = 0;
	int body = node(&b, root, longtext, "body", NULL, NULL, 0, 300, 1000, 900, 1);
	int square_text = node(&b, root, "OK", "ok", NULL, NULL, 0, 1000, 120, 1118, 1);
	amc_selector s = { 0 };
	s.traits = AMC_TRAIT_TEXT;
	is_int(amc_selector_count(&s, &b.t), 3, "traits text: the three nodes with a text");
	is_int(amc_selector_find(&s, &b.t), label, "traits text: the first in order");
	s.traits = AMC_TRAIT_LONG_TEXT;
	is_int(amc_selector_find(&s, &b.t), body, "traits long-text: over 200 characters");
	is_int(amc_selector_count(&s, &b.t), 1, "traits long-text: only that one");
	s.traits = AMC_TRAIT_SQUARE;
	is_int(amc_selector_count(&s, &b.t), 2, "traits square: within 3 %% (100x101, 120x118)");
	is_int(amc_selector_find(&s, &b.t), icon, "traits square: the icon first");
	s.traits = AMC_TRAIT_SQUARE | AMC_TRAIT_TEXT;
	is_int(amc_selector_find(&s, &b.t), square_text, "traits square and text: both must hold");
	s.traits = AMC_TRAIT_TEXT;
	s.id = amc_xstrdup("icon");
	is_int(amc_selector_find(&s, &b.t), -1, "traits with id: the icon has no text");
	free(s.id);
	tb_free(&b);
}

/* jjackson/commcare-ios writes `tapOn: {index: 0}`: Orchestra.buildFilter
 * intersects no filters (Filters.intersect of none keeps every node), then
 * Filters.index sorts by position (y, then x) and takes the index-th. A flow
 * of the same shape: a list of three rows, the second tapped by index. */
static void test_index_only(void)
{
	tb b;
	memset(&b, 0, sizeof b);
	int r = node(&b, -1, NULL, NULL, NULL, NULL, 0, 0, 1080, 2400, 1);
	int hidden = node(&b, r, "Off screen", NULL, NULL, NULL, 0, -500, 100, -400, 0);
	int third = node(&b, r, "Gamma", NULL, NULL, NULL, 0, 900, 1080, 1000, 1);
	int first = node(&b, r, "Alpha", NULL, NULL, NULL, 500, 100, 1080, 200, 1);
	int beside = node(&b, r, "Alpha left", NULL, NULL, NULL, 0, 100, 400, 200, 1);
	amc_selector s;
	memset(&s, 0, sizeof s);
	s.has_index = 1;
	is_int(amc_selector_find(&s, &b.t), r, "index 0 alone: the topmost node (the screen's root)");
	s.index = 1;
	is_int(amc_selector_find(&s, &b.t), beside, "index 1: then left to right on one row");
	s.index = 2;
	is_int(amc_selector_find(&s, &b.t), first, "index 2");
	s.index = 3;
	is_int(amc_selector_find(&s, &b.t), third, "index 3: the hidden node is not counted");
	s.index = 4;
	is_int(amc_selector_find(&s, &b.t), -1, "index past the end: nothing");
	(void)hidden;
	/* no criterion at all (assertVisible: {label: x}): every node, clickable
	 * ones first (Filters.clickableFirst), else in the document's order */
	memset(&s, 0, sizeof s);
	is_int(amc_selector_find(&s, &b.t), r, "no criterion: the first node (none is clickable here)");
	is_int(amc_selector_count(&s, &b.t), 4, "  every displayed node matches");
	tb_free(&b);
}

int main(void)
{
	test_index_only();
	test_traits();
	test_relative();
	test_text();
	test_literal_fallback();
	test_id();
	test_order_and_depth();
	test_pathological();
	test_describe();
	return done_testing();
}
