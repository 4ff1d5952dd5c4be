/* test_evidence.c - the Task view's evidence pane (tui/evidence.c): the tab
 * names on its frame (full and compact), the tab keys, the OCR and Scene
 * lists and the box they mark on the before image, o's word cycling, the Diff
 * tab's symbols from a stored diff, a missing SemanticScene, clicks on tab
 * names and rows, and device text drawn sanitized. Rows are read back from a
 * drawn ncurses screen. */
#include <cjson/cJSON.h>
#include <string.h>

#include "perception/uitree.h"
#include "runtime/stepdiff.h"
#include "tap.h"
#include "tuitest.h"
#include "tui/evidence.h"
#include "util/jsonutil.h"

#define XML(checked) "<hierarchy rotation=\"0\"><node index=\"0\" text=\"\" class=\"android.widget.FrameLayout\" " \
	"bounds=\"[0,0][100,200]\"><node index=\"0\" text=\"\" resource-id=\"p:id/sw\" class=\"android.widget.Switch\" " \
	"checkable=\"true\" checked=\"" checked "\" bounds=\"[0,40][100,80]\" /></node></hierarchy>"

static char *stored_diff(void)
{
	amc_ui_tree a, b;
	amc_err e;
	if (amc_uitree_parse(XML("false"), strlen(XML("false")), &a, &e) != 0 ||
	    amc_uitree_parse(XML("true"), strlen(XML("true")), &b, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		exit(1);
	}
	amc_stepdiff_in in = { "tap", &a, &b, NULL, NULL, 0, 0.001, 0, 0, 0 };
	cJSON *j = amc_stepdiff_compute(&in);
	char *s = amc_json_print(j);
	cJSON_Delete(j);
	amc_uitree_free(&a);
	amc_uitree_free(&b);
	return s;
}

static void draw(amc_tui_evidence *ev, int w)
{
	erase();
	amc_tui_evidence_draw(ev, 0, 0, 12, w, 1);
}

/* Over 120 lines: one evidence pane driven through its tabs in order, each
 * check reading the state the previous key left. */
int main(void)
{
	if (tt_screen(100, 30) != 0)
		tap_skip_all("ncurses cannot start an xterm-256color screen (no terminfo entry)");
	char *diff = stored_diff();
	amc_ui_tree tr;
	amc_err e;
	amc_uitree_parse(XML("true"), strlen(XML("true")), &tr, &e);
	cJSON *tj = amc_uitree_to_json(&tr);
	char *tree = amc_json_print(tj);
	cJSON_Delete(tj);
	amc_uitree_free(&tr);
	amc_step_row s = { 0 };
	s.task_id = "t1";
	s.step = 4;
	s.tool = "tap";
	s.ui_tree = tree;
	s.ocr = "[{\"text\":\"Hello\",\"confidence\":0.9,\"bounds\":[1,2,30,40]},"
		"{\"text\":\"evil\\u001b[2J\",\"confidence\":0.5,\"bounds\":[50,60,70,80]}]";
	s.scene = "{\"width\":100,\"height\":200,\"elements\":[{\"id\":\"e00000001\",\"type\":\"text\",\"bounds\":[1,2,30,40],"
		  "\"text\":\"Hello\",\"confidence\":0.9,\"source\":\"fused\"},{\"id\":\"e00000002\",\"type\":\"toggle\","
		  "\"bounds\":[0,40,100,80],\"text\":\"\",\"confidence\":1,\"source\":\"uitree\"}]}";
	s.tree_diff = diff;
	amc_tui_evidence *ev = amc_tui_evidence_new();
	amc_tui_evidence_step(ev, NULL, &s);

	draw(ev, 70);
	like(tt_row(0), "[1 Tree] 2 OCR 3 Scene 4 Diff ", "the frame names the tabs, the shown one in brackets");
	ok(!strstr(tt_row(0), "5 Sem"), "no SemanticScene: no tab 5");
	like(tt_row(1), "UI tree of After: 2 nodes", "the tree tab's summary names the screen after the action");
	like(tt_row(3), "Switch #sw [checked]", "the tree's rows");
	ok(amc_tui_evidence_tree_keys(ev), "the tree tab takes the tree's keys");
	int box[4];
	ok(!amc_tui_evidence_mark(ev, box), "the tree tab marks nothing on the image");
	draw(ev, 30);
	like(tt_row(0), "[1 Tree] 2 OCR 3 Scene ", "narrow: the names that fit on the top border, in full");
	like(tt_row(11), "\xe2\x94\x94\xe2\x94\x80 4 Diff \xe2\x94\x80", "the rest on the bottom border, in full");
	ok(!tt_screen_has("2O ") && !tt_screen_has(" 3S") && !tt_screen_has(" 4D"), "no digit-and-initial names a newcomer cannot read");
	/* the pane an 80-column terminal gives (26 columns) */
	draw(ev, 26);
	like(tt_row(0), "\xe2\x94\x80 [1 Tree] 2 OCR \xe2\x94\x80", "80 columns: the first two names on top");
	like(tt_row(11), "\xe2\x94\x80 3 Scene 4 Diff \xe2\x94\x80", "the other two at the bottom");
	{
		const char *b = tt_row(11), *d = strstr(b, "4 Diff");
		int c = 0;
		for (const char *p = b; d && p < d; p++)
			c += ((unsigned char)*p & 0xC0) != 0x80;
		amc_tui_evidence_click(ev, 11, c + 2, 0);
		is_int(amc_tui_evidence_tab(ev), AMC_TUI_TAB_DIFF, "a click on \"4 Diff\" on the bottom border shows it");
		amc_tui_evidence_click(ev, 0, c + 2, 0);
		is_int(amc_tui_evidence_tab(ev), AMC_TUI_TAB_OCR, "the same column on the top border is the tab there (2 OCR)");
		amc_tui_evidence_click(ev, 0, 5, 0);
		is_int(amc_tui_evidence_tab(ev), AMC_TUI_TAB_TREE, "and \"[1 Tree]\" there shows the tree");
	}

	const char *why;
	ok(amc_tui_evidence_tab_request(ev, AMC_REQ_TAB_OCR, &why) && !why, "2 shows OCR");
	draw(ev, 70);
	like(tt_row(0), "1 Tree [2 OCR] 3 Scene", "OCR in brackets");
	like(tt_row(1), "OCR of Before: 2 words (R: full), ocr.policy gaps:", "OCR summary: which screen, the key for full OCR, the policy");
	like(tt_row(2), "has no text", "what gaps means, on a second row rather than cut");
	like(tt_row(3), "> 1  90% \"Hello\" [1,2][30,40]", "word 1 selected, confidence and box");
	ok(!tt_screen_has("\x1b"), "no escape byte reaches the screen");
	like(tt_row(4), "evil", "the hostile word is drawn, made safe");
	amc_tui_evidence_set_policy(ev, "full");
	amc_tui_evidence_step(ev, NULL, NULL);
	amc_tui_evidence_step(ev, NULL, &s);
	amc_tui_evidence_tab_request(ev, AMC_REQ_TAB_OCR, &why);
	draw(ev, 70);
	like(tt_row(1), "OCR of Before: 2 words (R: full), ocr.policy full", "the configured policy is named");
	ok(!strstr(tt_row(1), "where"), "full: no gaps explained");
	draw(ev, 24);
	ok(strstr(tt_row(2), "\xe2\x80\xa6") != NULL, "a label that does not fit in two rows ends in a marker");
	ok(amc_tui_evidence_mark(ev, box) && box[0] == 1 && box[3] == 40, "the selected word's box is marked");
	ok(!amc_tui_evidence_tree_keys(ev), "OCR tab: not the tree's keys");
	ok(amc_tui_evidence_request(ev, AMC_REQ_DOWN), "j moves in the list");
	ok(amc_tui_evidence_mark(ev, box) && box[0] == 50, "the next word is marked");
	amc_tui_evidence_request(ev, AMC_REQ_DOWN);
	ok(amc_tui_evidence_mark(ev, box) && box[0] == 50, "past the last row: stays on it");

	ok(amc_tui_evidence_tab_request(ev, AMC_REQ_TAB_SCENE, &why), "3 shows the Scene");
	draw(ev, 70);
	like(tt_row(1), "Scene of Before: 2 elements (1 uitree, 0 ocr, 1 fused)", "the Scene's screen and sources counted");
	like(tt_row(2), ">text      \"Hello\" fused e00000001 [1,2][30,40]", "an element: type, text (first: narrow panes show them), source, id, box");
	amc_tui_evidence_click(ev, 3, 10, 0);
	ok(amc_tui_evidence_mark(ev, box) && box[1] == 40, "a click selects a row; its box is marked");

	ok(amc_tui_evidence_tab_request(ev, AMC_REQ_TAB_DIFF, &why), "4 shows the Diff");
	draw(ev, 70);
	like(tt_row(1), "(recorded)", "the stored diff is used");
	ok(tt_find_row("~ Switch #sw  checked: false") > 0, "the change, with ~ and old -> new");
	ok(tt_find_row("tree: 0 added, 0 removed, 1 changed") > 0, "the summary");
	is_int(amc_tui_evidence_changed_nothing(ev), 0, "a change: not flagged");

	ok(amc_tui_evidence_tab_request(ev, AMC_REQ_TAB_SEMANTIC, &why) && why, "5 without a SemanticScene: a reason");
	is_int(amc_tui_evidence_tab(ev), AMC_TUI_TAB_DIFF, "and the tab stays");
	like(why, "no SemanticScene", "saying so");
	amc_tui_evidence_tab_request(ev, AMC_REQ_TAB_NEXT, &why);
	is_int(amc_tui_evidence_tab(ev), AMC_TUI_TAB_TREE, "e from Diff, no SemanticScene: back to the tree");
	ok(!amc_tui_evidence_tab_request(ev, AMC_REQ_DOWN, &why), "other requests are not tab requests");

	/* a click on a tab's name */
	draw(ev, 70);
	const char *r0 = tt_row(0);
	const char *at = strstr(r0, "3 Scene");
	ok(at != NULL, "the Scene's name is on the frame");
	int col = 0;
	for (const char *p = r0; p < at; p++)
		col += ((unsigned char)*p & 0xC0) != 0x80; /* columns, not bytes (the frame is UTF-8) */
	amc_tui_evidence_click(ev, 0, col, 0);
	is_int(amc_tui_evidence_tab(ev), AMC_TUI_TAB_SCENE, "a click on \"3 Scene\" shows it");

	/* o: the OCR tab and its next word; after the last, none */
	is_int(amc_tui_evidence_next_word(ev), 1, "o: the OCR tab, word 1");
	is_int(amc_tui_evidence_tab(ev), AMC_TUI_TAB_OCR, "on the OCR tab");
	is_int(amc_tui_evidence_next_word(ev), 2, "o again: word 2");
	is_int(amc_tui_evidence_next_word(ev), 0, "after the last: none");
	ok(!amc_tui_evidence_mark(ev, box), "nothing marked");

	/* the same step again keeps the selection; another step resets it */
	amc_tui_evidence_request(ev, AMC_REQ_DOWN);
	amc_tui_evidence_step(ev, NULL, &s);
	ok(amc_tui_evidence_mark(ev, box), "the same step: the selection stays");
	s.step = 5;
	s.semantic_scene = "{\"page\":\"Home\",\"intents\":[],\"widgets\":[]}";
	amc_tui_evidence_step(ev, NULL, &s);
	ok(amc_tui_evidence_tab_request(ev, AMC_REQ_TAB_SEMANTIC, &why) && !why, "with a SemanticScene: 5 shows it");
	draw(ev, 70);
	like(tt_row(0), "[5 Sem]", "tab 5 on the frame");
	ok(tt_find_row("\"page\": \"Home\"") > 0, "its JSON");
	s.semantic_scene = NULL;
	s.step = 6;
	amc_tui_evidence_step(ev, NULL, &s);
	is_int(amc_tui_evidence_tab(ev), AMC_TUI_TAB_TREE, "a step without one leaves tab 5 for the tree");

	/* a keyboard: one element in the Scene, one row in the OCR tab */
	s.step = 7;
	s.ocr = "[{\"text\":\"Title\",\"confidence\":90,\"bounds\":[1,2,30,20]},"
		"{\"text\":\"q\",\"confidence\":90,\"bounds\":[2,150,8,160]},"
		"{\"text\":\"Oo\",\"confidence\":80,\"bounds\":[20,150,28,160]},"
		"{\"text\":\"kK\",\"confidence\":70,\"bounds\":[30,170,38,180]}]";
	s.scene = "{\"width\":100,\"height\":200,\"elements\":[{\"id\":\"e00000003\",\"type\":\"keyboard\","
		  "\"bounds\":[0,140,100,200],\"text\":\"keyboard (QWERTY)\",\"confidence\":0.8,\"source\":\"ocr\"}]}";
	amc_tui_evidence_step(ev, NULL, &s);
	amc_tui_evidence_tab_request(ev, AMC_REQ_TAB_OCR, &why);
	draw(ev, 70);
	like(tt_row(1), "OCR of Before: 4 words", "every word is counted");
	ok(tt_find_row("   keyboard (QWERTY): 3 words [0,140][100,200]") > 0, "the keyboard's words are one row");
	ok(!tt_screen_has("\"Oo\"") && !tt_screen_has("\"kK\""), "its keys are not listed");
	amc_tui_evidence_request(ev, AMC_REQ_DOWN);
	ok(amc_tui_evidence_mark(ev, box) && box[1] == 140 && box[3] == 200, "its row marks the keyboard");
	amc_tui_evidence_tab_request(ev, AMC_REQ_TAB_SCENE, &why);
	draw(ev, 70);
	ok(tt_find_row("keyboard  \"keyboard (QWERTY)\" ocr e00000003") > 0, "the Scene's keyboard element");
	s.ocr = NULL;
	s.scene = NULL;

	amc_tui_evidence_step(ev, NULL, NULL);
	draw(ev, 70);
	like(tt_row(1), "(no step)", "no step: says so");

	amc_tui_evidence_free(ev);
	free(diff);
	free(tree);
	tt_screen_end();
	return done_testing();
}
