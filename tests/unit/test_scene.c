/* test_scene.c - the Scene built from a UI tree: which nodes become elements,
 * their types, texts and ids (stable across observations), and the JSON shape. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/scene.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"
#include "tap.h"
#include "testutil.h"
#include "uitree_test.h"

/* Parse `xml` and build its scene at 1080x1920; bails out on a parse error. */
static void scene_of(const char *xml, amc_ui_tree *t, amc_scene *s)
{
	amc_err e;
	if (amc_uitree_parse(xml, strlen(xml), t, &e) != 0) {
		printf("Bail out! test XML does not parse: %s\n", e.msg);
		exit(1);
	}
	if (amc_scene_from_tree(t, 1080, 1920, s, &e) != 0) {
		printf("Bail out! scene: %s\n", e.msg);
		exit(1);
	}
}

static const amc_element *by_text(const amc_scene *s, const char *text)
{
	for (size_t i = 0; i < s->count; i++)
		if (!strcmp(s->elements[i].text, text))
			return &s->elements[i];
	return NULL;
}

static const amc_element *by_node(const amc_scene *s, int node)
{
	for (size_t i = 0; i < s->count; i++)
		if (s->elements[i].node == node)
			return &s->elements[i];
	return NULL;
}

static int id_well_formed(const char *id)
{
	if (id[0] != 'e' || strlen(id) != 9)
		return 0;
	for (int i = 1; i < 9; i++)
		if (!isxdigit((unsigned char)id[i]) || isupper((unsigned char)id[i]))
			return 0;
	return 1;
}

static void test_sample(void)
{
	size_t len;
	char *xml = slurp(SAMPLE, &len);
	amc_ui_tree t;
	amc_scene s;
	amc_err e;
	is_int(amc_uitree_parse(xml, len, &t, &e), 0, "sample parses");
	is_int(amc_scene_from_tree(&t, 1080, 1794, &s, &e), 0, "scene builds");
	is_int(s.width, 1080, "width");
	is_int(s.height, 1794, "height");
	/* workspace, ViewPager, clickable card, clock, Home, Messages, Chrome,
	 * Search, Voice search; the plain layouts and the bare G icon are left out. */
	is_int(s.count, 9, "9 elements");
	int want_nodes[] = {6, 11, 12, 14, 15, 19, 20, 21, 24};
	int order_ok = s.count == 9;
	for (size_t i = 0; order_ok && i < 9; i++)
		order_ok = s.elements[i].node == want_nodes[i];
	ok(order_ok, "elements in document order from the expected nodes");
	for (int n = 0; n <= 5; n++)
		ok(!by_node(&s, n), "layout container node %d skipped", n);
	ok(!by_node(&s, 22), "text-less, non-clickable G icon skipped");
	ok(!by_node(&s, 23), "plain LinearLayout around the mic skipped");

	const amc_element *el;
	el = by_text(&s, "Fri, Apr 21");
	ok(el && !strcmp(el->type, "text"), "clock is text");
	ok(el && el->bounds.x1 == 77 && el->bounds.y1 == 123 && el->bounds.x2 == 1045 && el->bounds.y2 == 180,
	   "clock bounds");
	ok(el && !strcmp(el->resource_id, "com.google.android.apps.nexuslauncher:id/clock"), "clock resource id");
	ok(el && el->confidence == 1.0 && !strcmp(el->source, "uitree"), "confidence 1, source uitree");
	el = by_text(&s, "Messages");
	ok(el && !strcmp(el->type, "button"), "clickable Messages TextView is a button");
	el = by_text(&s, "Search");
	ok(el && !strcmp(el->type, "button"), "clickable FrameLayout with a description is a button");
	el = by_text(&s, "Voice search");
	ok(el && !strcmp(el->type, "button"), "clickable ImageView with a description is a button");
	el = by_text(&s, "Home");
	ok(el && !strcmp(el->type, "view"), "described View is a view");
	el = by_node(&s, 6);
	ok(el && !strcmp(el->type, "list") && !strcmp(el->text, ""), "scrollable workspace is a list");
	el = by_node(&s, 12);
	ok(el && !strcmp(el->type, "container"), "clickable LinearLayout without label is a container");

	int ids_ok = 1;
	for (size_t i = 0; i < s.count; i++) {
		ids_ok &= id_well_formed(s.elements[i].id);
		for (size_t k = 0; k < i; k++)
			ids_ok &= strcmp(s.elements[i].id, s.elements[k].id) != 0;
	}
	ok(ids_ok, "ids are e + 8 lower-case hex and unique");
	ok(s.count && amc_scene_find(&s, s.elements[3].id) == &s.elements[3], "find by id");
	ok(!amc_scene_find(&s, "e00000000x"), "find misses an unknown id");
	ok(!amc_scene_find(&s, NULL), "find(NULL)");

	/* A second observation of the same screen (the dump printed again, with its
	 * trailer) gives the same ids. */
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_append(&sb, xml, len);
	amc_sb_puts(&sb, "UI hierchary dumped to: /dev/tty\n");
	amc_ui_tree t2;
	amc_scene s2;
	amc_uitree_parse(sb.buf, sb.len, &t2, &e);
	amc_scene_from_tree(&t2, 1080, 1794, &s2, &e);
	int same = s.count == s2.count;
	for (size_t i = 0; same && i < s.count; i++)
		same = !strcmp(s.elements[i].id, s2.elements[i].id);
	ok(same, "ids stable across two observations");

	/* Ids survive the stored-tree round trip too. */
	cJSON *tj = amc_uitree_to_json(&t);
	amc_ui_tree t3;
	amc_scene s3;
	amc_uitree_from_json(tj, &t3, &e);
	cJSON_Delete(tj);
	amc_scene_from_tree(&t3, 1080, 1794, &s3, &e);
	same = s.count == s3.count;
	for (size_t i = 0; same && i < s.count; i++)
		same = !strcmp(s.elements[i].id, s3.elements[i].id);
	ok(same, "ids stable through the stored JSON tree");

	/* Any change to a hashed field changes that element's id, and only its. */
	free(t2.nodes[19].text);
	t2.nodes[19].text = amc_xstrdup("Messages (2)");
	amc_scene_free(&s2);
	amc_scene_from_tree(&t2, 1080, 1794, &s2, &e);
	int changed = 0;
	for (size_t i = 0; i < s.count && i < s2.count; i++)
		changed += strcmp(s.elements[i].id, s2.elements[i].id) != 0;
	is_int(changed, 1, "a new text changes exactly one id");

	/* Width/height 0: taken from the tree. */
	amc_scene s4;
	amc_scene_from_tree(&t, 0, 0, &s4, &e);
	ok(s4.width == 1080 && s4.height == 1794 && s4.count == 9, "screen size from the root bounds");
	amc_scene_free(&s4);

	/* JSON shape (docs/perception.md). */
	cJSON *j = amc_scene_to_json(&s);
	is_int(amc_json_int(j, "width", -1), 1080, "JSON width");
	is_int(amc_json_int(j, "height", -1), 1794, "JSON height");
	cJSON *els = cJSON_GetObjectItemCaseSensitive(j, "elements");
	is_int(cJSON_GetArraySize(els), 9, "JSON elements");
	cJSON *clock = cJSON_GetArrayItem(els, 3);
	is_str(amc_json_str(clock, "id"), s.elements[3].id, "JSON id");
	is_str(amc_json_str(clock, "type"), "text", "JSON type");
	is_str(amc_json_str(clock, "text"), "Fri, Apr 21", "JSON text");
	is_str(amc_json_str(clock, "source"), "uitree", "JSON source");
	is_str(amc_json_str(clock, "resource_id"), "com.google.android.apps.nexuslauncher:id/clock", "JSON resource_id");
	cJSON *conf = cJSON_GetObjectItemCaseSensitive(clock, "confidence");
	ok(cJSON_IsNumber(conf) && conf->valuedouble == 1.0, "JSON confidence 1");
	ok(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(clock, "clickable")), "JSON clickable false");
	cJSON *b = cJSON_GetObjectItemCaseSensitive(clock, "bounds");
	ok(cJSON_GetArraySize(b) == 4 && cJSON_GetArrayItem(b, 0)->valueint == 77 &&
	   cJSON_GetArrayItem(b, 3)->valueint == 180, "JSON bounds [x1,y1,x2,y2]");
	cJSON *msg = cJSON_GetArrayItem(els, 5);
	ok(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "clickable")), "Messages clickable in JSON");
	ok(!cJSON_GetObjectItemCaseSensitive(msg, "resource_id"), "empty resource_id omitted");
	char *txt = amc_json_print(j);
	diag("%.300s", txt);
	free(txt);
	cJSON_Delete(j);

	amc_scene_free(&s);
	amc_scene_free(&s2);
	amc_scene_free(&s3);
	ok(s.count == 0 && !s.elements, "free empties the scene");
	amc_uitree_free(&t);
	amc_uitree_free(&t2);
	amc_uitree_free(&t3);
	amc_sb_free(&sb);
	free(xml);
}

#define N(attrs) "<node enabled=\"true\" " attrs "/>"

static void test_types(void)
{
	const char *xml =
		"<hierarchy rotation=\"0\"><node class=\"android.widget.FrameLayout\" bounds=\"[0,0][1080,1920]\">"
		N("class=\"android.widget.EditText\" text=\"\" hint=\"Name\" focusable=\"true\" bounds=\"[0,0][500,100]\"")           /* 1 */
		N("class=\"androidx.appcompat.widget.AppCompatEditText\" bounds=\"[0,100][500,200]\" focusable=\"true\"")           /* 2 */
		N("class=\"android.view.View\" hint=\"Search\" focusable=\"true\" bounds=\"[0,200][500,300]\"")                      /* 3 */
		N("class=\"android.widget.Switch\" text=\"Wi-Fi\" checkable=\"true\" checked=\"true\" clickable=\"true\" bounds=\"[0,300][500,400]\"") /* 4 */
		N("class=\"android.widget.CheckBox\" text=\"\" clickable=\"true\" bounds=\"[0,400][50,450]\"")                         /* 5 */
		N("class=\"android.view.View\" checkable=\"true\" bounds=\"[0,450][50,500]\"")                                       /* 6 */
		N("class=\"android.widget.Button\" text=\"OK\" clickable=\"true\" bounds=\"[0,500][200,600]\"")                         /* 7 */
		N("class=\"android.widget.ImageButton\" content-desc=\"Back\" clickable=\"true\" bounds=\"[0,600][100,700]\"")         /* 8 */
		N("class=\"com.google.android.material.floatingactionbutton.FloatingActionButton\" clickable=\"true\" bounds=\"[900,1700][1000,1800]\"") /* 9 */
		N("class=\"android.widget.ImageView\" content-desc=\"Avatar\" bounds=\"[0,700][100,800]\"")                            /* 10 */
		N("class=\"android.widget.TextView\" text=\"Hello\" bounds=\"[0,800][500,850]\"")                                      /* 11 */
		"<node class=\"androidx.recyclerview.widget.RecyclerView\" scrollable=\"true\" bounds=\"[0,900][1080,1600]\">"          /* 12 */
		"<node class=\"android.widget.LinearLayout\" clickable=\"true\" bounds=\"[0,900][1080,1000]\">"                          /* 13 */
		N("class=\"android.widget.TextView\" text=\"Alice\" bounds=\"[10,910][500,990]\"")                                     /* 14 */
		"</node>"
		N("class=\"android.widget.TextView\" text=\"Bob\" clickable=\"true\" bounds=\"[0,1000][1080,1100]\"")                   /* 15 */
		N("class=\"android.widget.LinearLayout\" bounds=\"[0,1100][1080,1200]\"")                                              /* 16 */
		"</node>"
		N("class=\"android.widget.FrameLayout\" bounds=\"[0,1600][1080,1700]\"")                                                /* 17 */
		N("class=\"android.widget.TextView\" text=\"Hidden\" bounds=\"[0,0][0,0]\"")                                           /* 18 */
		N("class=\"android.widget.TextView\" text=\"Offscreen\" bounds=\"[2000,0][2100,50]\"")                                 /* 19 */
		N("class=\"android.widget.EditText\" password=\"true\" text=\"\" bounds=\"[0,1700][500,1800]\"")                       /* 20 */
		N("class=\"android.widget.ImageView\" bounds=\"[600,1700][700,1800]\"")                                                /* 21 */
		N("class=\"android.widget.ImageView\" clickable=\"true\" bounds=\"[700,1700][800,1800]\"")                              /* 22 */
		N("class=\"android.widget.ScrollView\" scrollable=\"true\" bounds=\"[0,0][10,10]\"")                                   /* 23 */
		"<node class=\"android.widget.TextView\" text=\"Off\" enabled=\"false\" bounds=\"[0,1800][100,1900]\"/>"       /* 24 */
		N("class=\"android.widget.TextView\" content-desc=\"Described\" hint=\"Hinted\" bounds=\"[100,1800][200,1900]\"")      /* 25 */
		"</node></hierarchy>";
	amc_ui_tree t;
	amc_scene s;
	scene_of(xml, &t, &s);
	static const struct {
		int node;
		const char *type;
		const char *text;
	} want[] = {
		{1, "input", "Name"},  {2, "input", ""},         {3, "input", "Search"}, {4, "toggle", "Wi-Fi"},
		{5, "toggle", ""},     {6, "toggle", ""},        {7, "button", "OK"},    {8, "button", "Back"},
		{9, "button", ""},     {10, "image", "Avatar"},  {11, "text", "Hello"},  {12, "list", ""},
		{13, "list_item", ""}, {14, "text", "Alice"},    {15, "list_item", "Bob"}, {20, "input", ""},
		{22, "image", ""},     {23, "list", ""},         {24, "text", "Off"},    {25, "text", "Described"},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const amc_element *el = by_node(&s, want[i].node);
		ok(el && !strcmp(el->type, want[i].type), "node %d is a %s (got %s)", want[i].node, want[i].type,
		   el ? el->type : "no element");
		ok(el && !strcmp(el->text, want[i].text), "node %d text '%s'", want[i].node, want[i].text);
	}
	is_int(s.count, sizeof want / sizeof want[0], "only the expected nodes are elements");
	ok(!by_node(&s, 0), "root FrameLayout skipped");
	ok(!by_node(&s, 16), "plain layout inside a list skipped");
	ok(!by_node(&s, 17), "plain FrameLayout skipped");
	ok(!by_node(&s, 18), "[0,0][0,0] node skipped");
	ok(!by_node(&s, 19), "off-screen node skipped");
	ok(!by_node(&s, 21), "bare ImageView skipped");

	cJSON *j = amc_scene_to_json(&s);
	cJSON *els = cJSON_GetObjectItemCaseSensitive(j, "elements");
	cJSON *sw = NULL, *off = NULL, *c;
	cJSON_ArrayForEach(c, els) {
		const char *tx = amc_json_str(c, "text");
		if (tx && !strcmp(tx, "Wi-Fi"))
			sw = c;
		if (tx && !strcmp(tx, "Off"))
			off = c;
	}
	ok(sw && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sw, "checked")), "toggle state in JSON");
	ok(off && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(off, "enabled")), "disabled shown in JSON");
	ok(sw && !cJSON_GetObjectItemCaseSensitive(sw, "enabled"), "enabled=true left out");
	cJSON_Delete(j);
	amc_scene_free(&s);
	amc_uitree_free(&t);
}

static void test_collisions(void)
{
	/* Twin nodes (same class, id, text, description and bounds) still get
	 * distinct ids, the same ones on every parse. */
	const char *xml =
		"<hierarchy><node class=\"android.widget.FrameLayout\" bounds=\"[0,0][100,100]\">"
		N("class=\"android.widget.TextView\" text=\"Same\" bounds=\"[0,0][50,50]\"")
		N("class=\"android.widget.TextView\" text=\"Same\" bounds=\"[0,0][50,50]\"")
		N("class=\"android.widget.TextView\" text=\"Same\" bounds=\"[0,0][50,50]\"")
		"</node></hierarchy>";
	amc_ui_tree t1, t2;
	amc_scene s1, s2;
	scene_of(xml, &t1, &s1);
	scene_of(xml, &t2, &s2);
	is_int(s1.count, 3, "three twins");
	if (s1.count == 3 && s2.count == 3) {
		ok(strcmp(s1.elements[0].id, s1.elements[1].id) && strcmp(s1.elements[1].id, s1.elements[2].id) &&
		   strcmp(s1.elements[0].id, s1.elements[2].id), "twins get distinct ids");
		ok(id_well_formed(s1.elements[1].id) && id_well_formed(s1.elements[2].id), "twin ids well formed");
		ok(!strcmp(s1.elements[0].id, s2.elements[0].id) && !strcmp(s1.elements[1].id, s2.elements[1].id) &&
		   !strcmp(s1.elements[2].id, s2.elements[2].id), "twin ids deterministic");
	}
	amc_scene_free(&s1);
	amc_scene_free(&s2);
	amc_uitree_free(&t1);
	amc_uitree_free(&t2);
}

static void test_edges(void)
{
	amc_ui_tree t;
	amc_scene s;
	amc_err e;
	scene_of("<hierarchy rotation=\"0\"/>", &t, &s);
	is_int(s.count, 0, "empty tree: no elements");
	cJSON *j = amc_scene_to_json(&s);
	char *txt = amc_json_print(j);
	is_str(txt, "{\"width\":1080,\"height\":1920,\"elements\":[]}", "empty scene JSON");
	free(txt);
	cJSON_Delete(j);
	amc_scene_free(&s);
	amc_uitree_free(&t);
	amc_err_clear(&e);
	is_int(amc_scene_from_tree(NULL, 1, 1, &s, &e), -1, "NULL tree refused");
	is_int(s.count, 0, "scene empty after an error");
}

/* ---- fusion ---------------------------------------------------------------- */

static const char FUSE_XML[] =
	"<hierarchy><node class=\"android.widget.FrameLayout\" bounds=\"[0,0][1080,1920]\">"
	"<node class=\"android.widget.TextView\" text=\"Hello world\" bounds=\"[100,100][500,160]\"/>"
	"<node class=\"android.widget.Button\" text=\"\" clickable=\"true\" bounds=\"[100,300][500,400]\"/>"
	"<node class=\"android.widget.TextView\" text=\"Other\" bounds=\"[100,600][300,660]\"/>"
	"</node></hierarchy>";

static amc_ocr_word W(const char *text, int x1, int y1, int x2, int y2, double conf)
{
	return (amc_ocr_word){ { x1, y1, x2, y2 }, (char *)text, conf, 0 };
}

/* Scene of FUSE_XML fused with the given words. */
static void fuse(amc_ocr_word *w, size_t n, amc_ui_tree *t, amc_scene *s)
{
	amc_err e;
	scene_of(FUSE_XML, t, s);
	amc_ocr_result r = { 0 };
	r.words = w;
	r.count = n;
	if (amc_scene_fuse(s, &r, &e) != 0) {
		printf("Bail out! fuse: %s\n", e.msg);
		exit(1);
	}
}

static size_t count_source(const amc_scene *s, const char *src)
{
	size_t n = 0;
	for (size_t i = 0; i < s->count; i++)
		n += !strcmp(s->elements[i].source, src);
	return n;
}

static void test_geometry(void)
{
	amc_bounds a = { 0, 0, 100, 100 }, b = { 50, 0, 150, 100 }, c = { 200, 200, 300, 300 }, z = { 5, 5, 5, 9 };
	ok(amc_bounds_iou(&a, &a) == 1.0, "IoU of a box with itself is 1");
	ok(amc_bounds_iou(&a, &b) > 0.333 && amc_bounds_iou(&a, &b) < 0.334, "IoU of half-overlapping boxes is 1/3");
	ok(amc_bounds_iou(&a, &c) == 0.0, "IoU of disjoint boxes is 0");
	ok(amc_bounds_iou(&z, &a) == 0.0, "IoU with an empty box is 0");
	ok(amc_bounds_containment(&b, &a) == 0.5, "containment: half of b lies in a");
	ok(amc_bounds_containment(&z, &a) == 0.0, "containment of an empty box is 0");
}

static void test_fusion(void)
{
	amc_ui_tree t;
	amc_scene s;

	/* AMC_FUSE_MIN_CONTAINMENT: "world" with 75 % of its box inside the text
	 * node confirms it; with 65 % inside it is a separate OCR element. */
	ok(AMC_FUSE_MIN_CONTAINMENT > 0.65 && AMC_FUSE_MIN_CONTAINMENT <= 0.75, "containment threshold between the cases");
	amc_ocr_word in75[] = { W("world", 425, 100, 525, 160, 90) };
	fuse(in75, 1, &t, &s);
	ok(!strcmp(by_text(&s, "Hello world")->source, "fused") && count_source(&s, "ocr") == 0,
	   "75 %% inside: the tree text is confirmed (fused)");
	amc_scene_free(&s);
	amc_uitree_free(&t);
	amc_ocr_word in65[] = { W("world", 435, 100, 535, 160, 90) };
	fuse(in65, 1, &t, &s);
	ok(!strcmp(by_text(&s, "Hello world")->source, "uitree") && by_text(&s, "world") &&
	   !strcmp(by_text(&s, "world")->source, "ocr"), "65 %% inside: not the node's word; an ocr element");
	amc_scene_free(&s);
	amc_uitree_free(&t);

	/* AMC_FUSE_MIN_IOU: a word box that spills around a tight node (containment
	 * 0.61) matches by IoU 0.61; a much larger one (IoU 0.31) does not. */
	ok(AMC_FUSE_MIN_IOU > 0.31 && AMC_FUSE_MIN_IOU <= 0.6, "IoU threshold between the cases");
	amc_ocr_word iou61[] = { W("Other", 90, 590, 310, 680, 90) };
	fuse(iou61, 1, &t, &s);
	ok(!strcmp(by_text(&s, "Other")->source, "fused") && count_source(&s, "ocr") == 0, "IoU 0.61: fused");
	amc_scene_free(&s);
	amc_uitree_free(&t);
	amc_ocr_word iou31[] = { W("Other", 60, 560, 340, 700, 90) };
	fuse(iou31, 1, &t, &s);
	ok(count_source(&s, "ocr") == 1 && count_source(&s, "fused") == 0, "IoU 0.31: an ocr element, the node stays uitree");
	amc_scene_free(&s);
	amc_uitree_free(&t);

	/* A text-less button gets the text OCR read in it; a misreading of a
	 * node's text is dropped (the tree wins); loose words on one line join
	 * while the gap is under AMC_FUSE_WORD_GAP word heights. */
	amc_ocr_word mix[] = {
		W("Send", 200, 320, 300, 380, 90), W("Helo", 110, 105, 200, 155, 60),
		W("Pixel", 100, 1000, 200, 1040, 80), W("only", 230, 1000, 300, 1040, 90),
		W("far", 500, 1000, 560, 1040, 70),
	};
	fuse(mix, 5, &t, &s);
	const amc_element *send = by_text(&s, "Send");
	ok(send && !strcmp(send->source, "fused") && !strcmp(send->type, "button") && send->node >= 0,
	   "text-less button: fused with the OCR text, still the tree's button");
	ok(send && send->confidence > 0.89 && send->confidence < 0.91, "its confidence is the OCR's (0.9)");
	ok(!by_text(&s, "Helo") && !strcmp(by_text(&s, "Hello world")->source, "uitree"), "a misreading of tree text is dropped");
	const amc_element *po = by_text(&s, "Pixel only");
	ok(po && !strcmp(po->source, "ocr") && !strcmp(po->type, "text") && po->node == -1, "gap 0.75 heights: one ocr element");
	ok(po && po->bounds.x1 == 100 && po->bounds.x2 == 300, "its box spans both words");
	ok(po && po->confidence > 0.84 && po->confidence < 0.86, "its confidence is the mean");
	ok(by_text(&s, "far") != NULL, "gap 5 heights: a separate element");
	is_int(s.count, 5, "three tree elements (the button among them) and two ocr elements");
	char ids[8][AMC_ELEMENT_ID_SIZE];
	size_t n = s.count < 8 ? s.count : 8;
	for (size_t i = 0; i < n; i++)
		memcpy(ids[i], s.elements[i].id, AMC_ELEMENT_ID_SIZE);
	int wf = 1;
	for (size_t i = 0; i < s.count; i++)
		wf &= id_well_formed(s.elements[i].id) && amc_scene_find(&s, s.elements[i].id) == &s.elements[i];
	ok(wf, "every id is well formed and unique");
	cJSON *j = amc_scene_to_json(&s);
	char *js = cJSON_PrintUnformatted(j);
	like(js, "\"source\":\"ocr\"", "JSON carries ocr sources");
	like(js, "\"source\":\"fused\"", "JSON carries fused sources");
	free(js);
	cJSON_Delete(j);
	amc_scene_free(&s);
	amc_uitree_free(&t);

	/* The same screen observed again, the engine's boxes a pixel off: same ids. */
	amc_ocr_word again[] = {
		W("Send", 201, 321, 300, 380, 88), W("Helo", 110, 105, 200, 155, 60),
		W("Pixel", 101, 1001, 200, 1040, 80), W("only", 230, 1000, 301, 1041, 90),
		W("far", 501, 1000, 560, 1040, 70),
	};
	fuse(again, 5, &t, &s);
	int same = s.count == n;
	for (size_t i = 0; same && i < n; i++)
		same = !strcmp(ids[i], s.elements[i].id);
	ok(same, "element ids are stable across two observations of the same screen");
	amc_scene_free(&s);
	amc_uitree_free(&t);
}

/* Elements of a type, and elements whose text is one short token (a key
 * listed as a word). */
static size_t count_type(const amc_scene *s, const char *type)
{
	size_t n = 0;
	for (size_t i = 0; i < s->count; i++)
		n += !strcmp(s->elements[i].type, type);
	return n;
}

static size_t count_keylike(const amc_scene *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->count; i++)
		n += s->elements[i].text[0] && strlen(s->elements[i].text) <= 2;
	return n;
}

/* Gboard's window in the dump (constructed: see tests/data/uitree/SOURCES.md):
 * one keyboard element in place of its 35 keys; the app's elements stay. */
static void test_keyboard_tree(void)
{
	size_t len;
	char *xml = slurp(GBOARD_SAMPLE, &len);
	amc_ui_tree t;
	amc_scene s;
	amc_err e;
	is_int(amc_uitree_parse(xml, len, &t, &e), 0, "the Gboard dump parses");
	is_int(amc_scene_from_tree(&t, 1080, 2400, &s, &e), 0, "its scene builds");
	is_int((int)count_type(&s, "keyboard"), 1, "one keyboard element");
	is_int((int)s.count, 5, "title, field, Cancel, OK and the keyboard: no key of its own");
	is_int((int)count_keylike(&s), 1, "no one-letter key elements (only the button OK is that short)");
	const amc_element *kb = by_text(&s, "keyboard (QWERTY)");
	ok(kb && !strcmp(kb->type, "keyboard") && !strcmp(kb->source, "uitree"), "named with its layout, from the tree");
	ok(kb && kb->bounds.x1 == 0 && kb->bounds.y1 == 1517 && kb->bounds.x2 == 1080 && kb->bounds.y2 == 2271,
	   "its box holds its keys");
	ok(kb && kb->node >= 0 && !strcmp(t.nodes[kb->node].package, "com.google.android.inputmethod.latin"),
	   "it points at the IME's node");
	const amc_element *f = by_text(&s, "Pixel 7");
	ok(f && !strcmp(f->type, "input") && (f->flags & AMC_NODE_FOCUSED), "the focused field stays: type_text types there");
	/* OCR of the keys adds nothing: the tree's keyboard holds them */
	amc_ocr_word w[] = { W("q", 40, 1700, 70, 1750, 90), W("w", 150, 1700, 180, 1750, 90) };
	amc_ocr_result r = { 0 };
	r.words = w;
	r.count = 2;
	is_int(amc_scene_fuse(&s, &r, &e), 0, "fuses");
	ok(s.count == 5 && !strcmp(kb->source, "uitree"), "words on the keyboard are its labels");
	cJSON *j = amc_scene_to_json(&s);
	char *js = cJSON_PrintUnformatted(j);
	like(js, "\"type\":\"keyboard\"", "the JSON says type keyboard");
	free(js);
	cJSON_Delete(j);
	amc_scene_free(&s);
	amc_uitree_free(&t);
	free(xml);
}

/* A real dump whose IME is not in it (Appium on MIUI, the name field
 * focused) with the keyboard's words as tesseract reads the sim's: one ocr
 * keyboard element, none of its words. */
static void test_keyboard_ocr(void)
{
	size_t len;
	char *xml = slurp(UIA2_SAMPLE, &len);
	amc_ui_tree t;
	amc_scene s;
	amc_err e;
	amc_uitree_parse(xml, len, &t, &e);
	amc_scene_from_tree(&t, 1080, 2029, &s, &e);
	size_t tree_n = s.count;
	/* the sim's read (tests/unit/test_keyboard.c) moved up by 371 px: a 2029 px screen */
	static const struct { const char *t; int b[4]; } kw[] = {
		{ "r", { 375, 1749, 394, 1782 } }, { "t", { 477, 1740, 497, 1782 } }, { "y", { 577, 1749, 607, 1794 } },
		{ "u", { 684, 1750, 711, 1783 } }, { "I", { 799, 1750, 805, 1782 } }, { "Oo", { 893, 1749, 922, 1783 } },
		{ "a", { 104, 1901, 131, 1935 } }, { "S", { 212, 1901, 236, 1935 } }, { "d", { 314, 1889, 343, 1934 } },
		{ "f", { 425, 1889, 446, 1934 } }, { "g", { 524, 1901, 553, 1946 } }, { "h", { 631, 1889, 658, 1934 } },
		{ "J", { 740, 1901, 752, 1946 } }, { "kK", { 842, 1889, 870, 1934 } }, { "t", { 76, 2042, 105, 2086 } },
		{ "Z", { 211, 2054, 237, 2086 } }, { "x", { 314, 2054, 341, 2086 } }, { "C", { 421, 2053, 446, 2087 } },
		{ "vb", { 524, 2041, 660, 2086 } }, { "nm", { 736, 2053, 878, 2086 } }, { "?123", { 30, 2199, 138, 2235 } },
	};
	size_t n = sizeof kw / sizeof kw[0];
	amc_ocr_word w[sizeof kw / sizeof kw[0] + 1];
	for (size_t i = 0; i < n; i++)
		w[i] = W(kw[i].t, kw[i].b[0], kw[i].b[1] - 371, kw[i].b[2], kw[i].b[3] - 371, 85);
	w[n] = W("Nearby", 400, 1000, 560, 1040, 90); /* a word that is not a key */
	amc_ocr_result r = { 0 };
	r.words = w;
	r.count = n + 1;
	is_int(amc_scene_fuse(&s, &r, &e), 0, "fuses");
	is_int((int)count_type(&s, "keyboard"), 1, "one keyboard element");
	is_int((int)s.count, (int)tree_n + 2, "the tree's elements, the keyboard and the one other word");
	const amc_element *kb = by_text(&s, "keyboard (QWERTY)");
	ok(kb && !strcmp(kb->source, "ocr") && kb->node == -1, "from OCR");
	ok(kb && kb->bounds.x1 == 0 && kb->bounds.x2 == 1080 && kb->bounds.y2 == 2029 && kb->bounds.y1 > 1250 &&
	   kb->bounds.y1 < 1330, "the keyboard's box: full width, its top row to the bottom");
	ok(kb && kb->confidence > 0.84 && kb->confidence < 0.86, "its confidence is its words'");
	ok(by_text(&s, "Nearby") && !by_text(&s, "Oo") && !by_text(&s, "a"), "other words stay, keys do not");
	char id[AMC_ELEMENT_ID_SIZE];
	snprintf(id, sizeof id, "%s", kb ? kb->id : "");
	amc_scene_free(&s);
	/* the same screen again, the words a pixel off: the same id */
	amc_scene_from_tree(&t, 1080, 2029, &s, &e);
	for (size_t i = 0; i < n; i++)
		w[i].box.y1 += 1, w[i].box.y2 += 1;
	amc_scene_fuse(&s, &r, &e);
	kb = by_text(&s, "keyboard (QWERTY)");
	ok(kb && !strcmp(kb->id, id), "its id is stable across two observations");
	amc_scene_free(&s);
	amc_uitree_free(&t);
	free(xml);
}

int main(void)
{
	test_sample();
	test_types();
	test_collisions();
	test_edges();
	test_geometry();
	test_fusion();
	test_keyboard_tree();
	test_keyboard_ocr();
	return done_testing();
}
