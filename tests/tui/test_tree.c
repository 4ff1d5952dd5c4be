/* test_tree.c - the collapsible UI-tree model behind the Task view's tree pane:
 * loading, visible rows, collapse/expand (one and all), selection movement,
 * search with wrap-around, the JSON view and clicks. Rows are read back from
 * a drawn ncurses screen, as the user sees them. */
#include <cjson/cJSON.h>
#include <string.h>

#include "tap.h"
#include "tuitest.h"
#include "tui/tree.h"
#include "util/jsonutil.h"

#define PANE_W 70

static cJSON *node(const char *cls, const char *text, const char *rid, const char *desc, const char *flag)
{
	cJSON *n = cJSON_CreateObject();
	cJSON_AddNumberToObject(n, "index", 0);
	cJSON_AddStringToObject(n, "class", cls);
	cJSON_AddStringToObject(n, "text", text);
	cJSON_AddStringToObject(n, "resource_id", rid);
	cJSON_AddStringToObject(n, "package", "com.example");
	cJSON_AddStringToObject(n, "content_desc", desc);
	cJSON_AddStringToObject(n, "hint", "");
	int b[4] = { 0, 0, 100, 100 };
	cJSON_AddItemToObject(n, "bounds", cJSON_CreateIntArray(b, 4));
	cJSON *fl = cJSON_AddArrayToObject(n, "flags");
	cJSON_AddItemToArray(fl, cJSON_CreateString("enabled"));
	if (flag)
		cJSON_AddItemToArray(fl, cJSON_CreateString(flag));
	cJSON_AddArrayToObject(n, "children");
	return n;
}

static void add(cJSON *parent, cJSON *child)
{
	cJSON_AddItemToArray(cJSON_GetObjectItem(parent, "children"), child);
}

/* Two roots:
 *   0 FrameLayout
 *   1   LinearLayout #list
 *   2     TextView "Wi-Fi" [click]
 *   3     TextView "Battery" [click]
 *   4   Switch desc="Use Wi-Fi" #switch_widget [checked]
 *   5 Toast "Saved \e[2J" (hostile text) */
static char *sample(void)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "format", "uiautomator");
	cJSON_AddNumberToObject(root, "rotation", 0);
	cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
	cJSON *frame = node("android.widget.FrameLayout", "", "", "", NULL);
	cJSON *list = node("android.widget.LinearLayout", "", "com.example:id/list", "", NULL);
	add(list, node("android.widget.TextView", "Wi-Fi", "android:id/title", "", "clickable"));
	add(list, node("android.widget.TextView", "Battery", "android:id/title", "", "clickable"));
	add(frame, list);
	add(frame, node("android.widget.Switch", "", "com.example:id/switch_widget", "Use Wi-Fi", "checked"));
	cJSON_AddItemToArray(nodes, frame);
	cJSON_AddItemToArray(nodes, node("android.widget.Toast", "Saved \x1b[2J", "", "", NULL));
	char *s = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return s;
}

/* Draw the pane (h rows: frame plus h-2 rows) and read its rows: the text
 * inside the frame into rows[], the selected row (the '>' cursor) into *sel.
 * Returns the number of non-empty rows. */
static int rows_of(amc_tui_tree *t, int h, char rows[][256], int *sel)
{
	erase();
	amc_tui_tree_draw(t, 0, 0, h, PANE_W, 1);
	int n = 0;
	*sel = -1;
	for (int i = 0; i < h - 2; i++) {
		const char *r = tt_row(1 + i);
		const char *in = strncmp(r, "│", 3) ? r : r + 3; /* past the frame */
		snprintf(rows[i], 256, "%s", in);
		char *end = strstr(rows[i], "│");
		if (end)
			*end = 0;
		for (size_t k = strlen(rows[i]); k > 0 && rows[i][k - 1] == ' '; k--)
			rows[i][k - 1] = 0;
		if (rows[i][0]) {
			n++;
			if (rows[i][0] == '>')
				*sel = i;
		}
	}
	return n;
}

static void test_empty(void)
{
	amc_tui_tree *t = amc_tui_tree_new();
	amc_err e;
	char rows[30][256];
	int sel;
	is_int(amc_tui_tree_load(t, NULL, &e), 0, "no tree is not an error");
	is_int(amc_tui_tree_count(t), 0, "no tree: no nodes");
	rows_of(t, 10, rows, &sel);
	like(rows[0], "(no UI tree for this step)", "the pane says there is no tree");
	is_int(amc_tui_tree_request(t, AMC_REQ_COLLAPSE), 1, "tree keys are taken while empty (not passed to the view)");
	is_int(amc_tui_tree_request(t, AMC_REQ_SEARCH_NEXT), 1, "n is taken while empty");
	is_int(amc_tui_tree_request(t, AMC_REQ_DOWN), 0, "j is not taken while empty");
	amc_tui_tree_click(t, 0, 1); /* must not crash */
	amc_tui_tree_search(t, "x");
	is_int(amc_tui_tree_load(t, "{not json", &e), -1, "garbage is refused");
	is_int(e.code, AMC_EUSAGE, "with a usage error");
	rows_of(t, 10, rows, &sel);
	like(rows[0], "(the stored UI tree cannot be read)", "the pane says why it is empty");
	is_int(amc_tui_tree_load(t, "{\"nodes\":\"no\"}", &e), -1, "a tree of the wrong shape is refused");
	amc_tui_tree_free(t);
	amc_tui_tree_free(NULL); /* no effect to see: a crash here fails the plan */
}

static void test_rows_and_collapse(amc_tui_tree *t)
{
	char rows[30][256];
	int sel;
	is_int(amc_tui_tree_count(t), 6, "six nodes");
	int n = rows_of(t, 12, rows, &sel);
	is_int(n, 6, "everything is expanded at first");
	is_int(sel, 0, "the first row is selected");
	like(tt_row(0), "UI tree: 6 nodes", "the frame title counts the nodes");
	is_str(rows[0], ">- FrameLayout", "a parent shows '-' and its short class");
	is_str(rows[1], "  - LinearLayout #list", "depth indents; the resource id without its package");
	is_str(rows[2], "     TextView \"Wi-Fi\" #title [click]", "a leaf: text and flags");
	is_str(rows[4], "    Switch desc=\"Use Wi-Fi\" #switch_widget [checked]", "description and checked");
	ok(!strchr(rows[5], 0x1b) && strstr(rows[5], "Toast \"Saved"), "hostile node text is drawn safe: '%s'", rows[5]);

	amc_tui_tree_request(t, AMC_REQ_DOWN);
	is_int(amc_tui_tree_request(t, AMC_REQ_COLLAPSE), 1, "h is handled");
	n = rows_of(t, 12, rows, &sel);
	is_int(n, 4, "collapsing LinearLayout hides its two children");
	is_int(sel, 1, "the selection stays on it");
	is_str(rows[1], "> + LinearLayout #list", "a collapsed parent shows '+'");
	is_str(rows[2], "    Switch desc=\"Use Wi-Fi\" #switch_widget [checked]", "its sibling moves up");
	amc_tui_tree_request(t, AMC_REQ_EXPAND);
	n = rows_of(t, 12, rows, &sel);
	is_int(n, 6, "expanding shows them again");
	is_int(sel, 1, "still on LinearLayout");

	amc_tui_tree_request(t, AMC_REQ_DOWN);
	amc_tui_tree_request(t, AMC_REQ_DOWN);
	rows_of(t, 12, rows, &sel);
	is_int(sel, 3, "on Battery (a leaf)");
	amc_tui_tree_request(t, AMC_REQ_COLLAPSE);
	n = rows_of(t, 12, rows, &sel);
	is_int(sel, 1, "h on a leaf goes to its parent");
	is_int(n, 6, "without collapsing anything");
	amc_tui_tree_request(t, AMC_REQ_COLLAPSE);
	amc_tui_tree_request(t, AMC_REQ_COLLAPSE);
	n = rows_of(t, 12, rows, &sel);
	is_int(sel, 0, "h on a collapsed node goes to its parent too");
	is_int(n, 4, "and the collapsed node stays collapsed");
	amc_tui_tree_request(t, AMC_REQ_COLLAPSE);
	n = rows_of(t, 12, rows, &sel);
	is_int(n, 2, "collapsing a root leaves one row per root");
	amc_tui_tree_request(t, AMC_REQ_COLLAPSE);
	rows_of(t, 12, rows, &sel);
	is_int(sel, 0, "h on a collapsed root stays there");
	amc_tui_tree_request(t, AMC_REQ_EXPAND);
	n = rows_of(t, 12, rows, &sel);
	is_int(n, 4, "l expands one level; the inner collapse is remembered");

	is_int(amc_tui_tree_request(t, AMC_REQ_EXPAND_ALL), 1, "M-+ is handled");
	n = rows_of(t, 12, rows, &sel);
	is_int(n, 6, "M-+ expands every node");
	amc_tui_tree_request(t, AMC_REQ_BOTTOM);
	amc_tui_tree_request(t, AMC_REQ_UP);
	is_int(amc_tui_tree_request(t, AMC_REQ_COLLAPSE_ALL), 1, "M-- is handled");
	n = rows_of(t, 12, rows, &sel);
	is_int(n, 2, "M-- leaves the roots");
	is_str(rows[0], ">+ FrameLayout", "the selection moves to the visible ancestor");
	like(rows[1], "Toast", "a root leaf stays as it was");
	amc_tui_tree_request(t, AMC_REQ_EXPAND_ALL);
}

static void test_movement(amc_tui_tree *t)
{
	char rows[30][256];
	int sel;
	amc_tui_tree_request(t, AMC_REQ_TOP);
	amc_tui_tree_request(t, AMC_REQ_UP);
	rows_of(t, 12, rows, &sel);
	is_int(sel, 0, "k on the first row stays");
	amc_tui_tree_request(t, AMC_REQ_BOTTOM);
	rows_of(t, 12, rows, &sel);
	is_int(sel, 5, "G goes to the last row");
	amc_tui_tree_request(t, AMC_REQ_DOWN);
	rows_of(t, 12, rows, &sel);
	is_int(sel, 5, "j on the last row stays");
	amc_tui_tree_request(t, AMC_REQ_TOP);
	/* A pane of 3 rows: paging by 3, the view follows the selection. */
	rows_of(t, 5, rows, &sel);
	amc_tui_tree_request(t, AMC_REQ_PAGE_DOWN);
	int n = rows_of(t, 5, rows, &sel);
	is_int(n, 3, "a 3-row pane shows 3 rows");
	is_int(sel, 2, "PgDn moves a page; the selection is the last row shown");
	like(rows[2], "Battery", "the pane scrolled to show row 3");
	amc_tui_tree_request(t, AMC_REQ_PAGE_DOWN);
	rows_of(t, 5, rows, &sel);
	like(rows[sel], "Toast", "a second PgDn stops at the last row");
	amc_tui_tree_request(t, AMC_REQ_PAGE_UP);
	amc_tui_tree_request(t, AMC_REQ_PAGE_UP);
	rows_of(t, 5, rows, &sel);
	is_int(sel, 0, "PgUp twice is back on top");
	like(rows[0], "FrameLayout", "scrolled back");
	is_int(amc_tui_tree_request(t, AMC_REQ_LAUNCH), 0, "requests the tree does not know go to the view");
}

static void test_search(amc_tui_tree *t)
{
	char rows[30][256];
	int sel;
	amc_tui_tree_request(t, AMC_REQ_COLLAPSE_ALL);
	amc_tui_tree_search(t, "battery");
	int n = rows_of(t, 12, rows, &sel);
	is_int(n, 6, "a match inside collapsed nodes expands its ancestors");
	like(rows[sel], "Battery", "and is selected (case-insensitive)");
	like(tt_row(0), "/battery", "the search text is on the frame");
	amc_tui_tree_request(t, AMC_REQ_SEARCH_NEXT);
	rows_of(t, 12, rows, &sel);
	like(rows[sel], "Battery", "n with one match stays on it");

	amc_tui_tree_request(t, AMC_REQ_TOP);
	amc_tui_tree_search(t, "wi-fi");
	rows_of(t, 12, rows, &sel);
	like(rows[sel], "\"Wi-Fi\"", "the first match after the selection (text)");
	amc_tui_tree_request(t, AMC_REQ_SEARCH_NEXT);
	rows_of(t, 12, rows, &sel);
	like(rows[sel], "Use Wi-Fi", "n: the next match (description)");
	amc_tui_tree_request(t, AMC_REQ_SEARCH_NEXT);
	rows_of(t, 12, rows, &sel);
	like(rows[sel], "\"Wi-Fi\"", "n wraps around to the first match");
	amc_tui_tree_request(t, AMC_REQ_SEARCH_PREV);
	rows_of(t, 12, rows, &sel);
	like(rows[sel], "Use Wi-Fi", "N goes back, wrapping");
	amc_tui_tree_search(t, "Use");
	rows_of(t, 12, rows, &sel);
	like(rows[sel], "Use Wi-Fi", "a search that matches the selection stays on it");

	amc_tui_tree_search(t, "SWITCH_W");
	rows_of(t, 12, rows, &sel);
	like(rows[sel], "#switch_widget", "resource ids match too");
	amc_tui_tree_request(t, AMC_REQ_TOP);
	amc_tui_tree_search(t, "nothing-like-this");
	rows_of(t, 12, rows, &sel);
	is_int(sel, 0, "no match: the selection does not move");
	amc_tui_tree_search(t, "");
	rows_of(t, 12, rows, &sel);
	ok(!strchr(tt_row(0), '/'), "an empty search clears it");
	amc_tui_tree_request(t, AMC_REQ_SEARCH_NEXT);
	rows_of(t, 12, rows, &sel);
	is_int(sel, 0, "n without a search does nothing");
}

static void test_json_and_clicks(amc_tui_tree *t)
{
	char rows[30][256];
	int sel;
	amc_tui_tree_request(t, AMC_REQ_TOP);
	amc_tui_tree_request(t, AMC_REQ_DOWN);
	is_int(amc_tui_tree_request(t, AMC_REQ_JSON), 1, "J is handled");
	rows_of(t, 12, rows, &sel);
	like(tt_row(0), "(JSON)", "the frame says JSON");
	is_str(rows[0], "{", "the JSON view starts with the document");
	like(rows[1], "\"format\":", "pretty-printed, one member a line");
	is_int(sel, -1, "no tree cursor in the JSON view");
	amc_tui_tree_request(t, AMC_REQ_DOWN);
	rows_of(t, 12, rows, &sel);
	like(rows[0], "\"format\":", "j scrolls the JSON");
	amc_tui_tree_request(t, AMC_REQ_COLLAPSE);
	amc_tui_tree_click(t, 3, 1);
	amc_tui_tree_request(t, AMC_REQ_JSON);
	int n = rows_of(t, 12, rows, &sel);
	is_int(sel, 1, "back in the tree: the selection is where it was");
	is_int(n, 6, "h and clicks in the JSON view changed nothing");

	amc_tui_tree_click(t, 3, 0);
	n = rows_of(t, 12, rows, &sel);
	is_int(sel, 3, "a click selects the row");
	is_int(n, 6, "a single click does not collapse");
	amc_tui_tree_click(t, 1, 1);
	n = rows_of(t, 12, rows, &sel);
	is_int(sel, 1, "a double click selects");
	is_int(n, 4, "and collapses a parent");
	amc_tui_tree_click(t, 1, 1);
	n = rows_of(t, 12, rows, &sel);
	is_int(n, 6, "a second double click expands it");
	amc_tui_tree_click(t, 2, 1);
	n = rows_of(t, 12, rows, &sel);
	is_int(sel, 2, "a double click on a leaf selects it");
	is_int(n, 6, "and changes nothing else");
	amc_tui_tree_click(t, 9, 0);
	amc_tui_tree_click(t, -1, 0);
	rows_of(t, 12, rows, &sel);
	is_int(sel, 2, "clicks below the last row or above the first are ignored");
}

/* A screen: a full-screen content frame (id only: not picked), a title at
 * the top, two buttons side by side below it, a list row holding a label. */
#define PICK_XML "<hierarchy rotation=\"0\"><node text=\"\" class=\"android.widget.FrameLayout\" bounds=\"[0,0][1000,2000]\">" \
	"<node text=\"\" resource-id=\"android:id/content\" class=\"android.widget.FrameLayout\" bounds=\"[0,0][1000,2000]\">" \
	"<node text=\"Title\" class=\"android.widget.TextView\" bounds=\"[0,0][1000,100]\"/>" \
	"<node text=\"Right\" class=\"android.widget.Button\" clickable=\"true\" bounds=\"[500,200][900,300]\"/>" \
	"<node text=\"Left\" class=\"android.widget.Button\" clickable=\"true\" bounds=\"[100,200][400,300]\"/>" \
	"<node text=\"\" resource-id=\"p:id/row\" class=\"android.widget.LinearLayout\" clickable=\"true\" bounds=\"[0,400][1000,600]\">" \
	"<node text=\"Label\" class=\"android.widget.TextView\" bounds=\"[50,450][400,550]\"/></node></node></node></hierarchy>"

static int fake_selector(const amc_ui_tree *t, size_t i, amc_sb *out)
{
	if (!t->nodes[i].text[0])
		return -1;
	amc_sb_printf(out, "{text: \"%s\"}", t->nodes[i].text);
	return 0;
}

static const char *picked(amc_tui_tree *t)
{
	static char buf[256];
	amc_sb sb;
	amc_sb_init(&sb);
	if (amc_tui_tree_selected_summary(t, &sb) != 0)
		amc_sb_puts(&sb, "(none)");
	snprintf(buf, sizeof buf, "%s", amc_sb_str(&sb));
	amc_sb_free(&sb);
	return buf;
}

/* Picking on the screenshot: reading order, containers skipped, the smallest
 * element under a point, and the selector from the function wired in. */
static void test_pick(void)
{
	amc_ui_tree tr;
	amc_err e;
	if (amc_uitree_parse(PICK_XML, strlen(PICK_XML), &tr, &e) != 0) {
		ok(0, "the pick screen parses: %s", e.msg);
		return;
	}
	cJSON *j = amc_uitree_to_json(&tr);
	char *js = amc_json_print(j);
	cJSON_Delete(j);
	amc_uitree_free(&tr);
	amc_tui_tree *t = amc_tui_tree_new();
	amc_tui_tree_load(t, js, &e);
	ok(amc_tui_tree_pick_next(t, 0), "p picks");
	like(picked(t), "TextView \"Title\"", "the first element top to bottom (not the root or the full-screen frame)");
	amc_tui_tree_pick_next(t, 1);
	like(picked(t), "Button \"Left\"", "then left before right on one line");
	amc_tui_tree_pick_next(t, 1);
	like(picked(t), "Button \"Right\"", "then the right one");
	amc_tui_tree_pick_next(t, 1);
	like(picked(t), "LinearLayout #row [click]", "a clickable row with an id");
	amc_tui_tree_pick_next(t, 1);
	like(picked(t), "TextView \"Label\"", "then the label in it");
	ok(!amc_tui_tree_pick_next(t, 1), "nothing after the last");
	amc_tui_tree_pick_next(t, -1);
	like(picked(t), "LinearLayout #row", "k goes back");
	ok(amc_tui_tree_pick_at(t, 200, 500), "a point on the label");
	like(picked(t), "TextView \"Label\"", "picks the smallest element there");
	ok(amc_tui_tree_pick_at(t, 700, 500), "a point on the row beside the label");
	like(picked(t), "LinearLayout #row", "picks the row");
	ok(!amc_tui_tree_pick_at(t, 950, 1500), "a point on the bare frame picks nothing");
	int box[4];
	ok(amc_tui_tree_selected_bounds(t, box) && box[1] == 400 && box[3] == 600, "the picked element is outlined");
	amc_sb sb;
	amc_sb_init(&sb);
	amc_tui_tree_set_selector(NULL);
	ok(amc_tui_tree_selected_selector(t, &sb) == -1 && strstr(amc_sb_str(&sb), "no selector generator"),
	   "without a selector function wired in: says so");
	amc_tui_tree_set_selector(fake_selector);
	amc_tui_tree_pick_at(t, 200, 250);
	amc_sb_reset(&sb);
	ok(amc_tui_tree_selected_selector(t, &sb) == 0, "with one");
	is_str(amc_sb_str(&sb), "tapOn: {text: \"Left\"}", "the command from the function wired in");
	amc_tui_tree_pick_at(t, 700, 500);
	amc_sb_reset(&sb);
	ok(amc_tui_tree_selected_selector(t, &sb) == -1 && strstr(amc_sb_str(&sb), "no selector finds"),
	   "a node it has none for: the reason");
	amc_tui_tree_set_selector(NULL);
	amc_sb_free(&sb);
	amc_tui_tree_free(t);
	free(js);
}

int main(void)
{
	if (tt_screen(PANE_W + 10, 30) != 0)
		tap_skip_all("ncurses cannot start an xterm-256color screen");
	test_empty();
	amc_tui_tree *t = amc_tui_tree_new();
	char *js = sample();
	amc_err e;
	is_int(amc_tui_tree_load(t, js, &e), 0, "a normalized tree loads");
	test_rows_and_collapse(t);
	test_movement(t);
	test_search(t);
	test_json_and_clicks(t);
	test_pick();
	is_int(amc_tui_tree_load(t, NULL, &e), 0, "loading nothing over a tree empties it");
	is_int(amc_tui_tree_count(t), 0, "no nodes left");
	amc_tui_tree_free(t);
	free(js);
	tt_screen_end();
	return done_testing();
}
