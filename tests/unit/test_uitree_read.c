/* test_uitree_read.c - the format readers (uitree_read.c): the real samples
 * of each format, the shapes devices print, the same screen in three formats
 * giving the same nodes, and the one walker with its per-format table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/uitree.h"
#include "perception/uitree_read.h"
#include "perception/uitree_xml.h"
#include "util/strbuf.h"
#include "tap.h"
#include "testutil.h"
#include "uitree_test.h"

static char *flags_of(const amc_ui_node *n)
{
	static char buf[256];
	amc_uitree_flag_names(n->flags, buf, sizeof buf);
	return buf;
}

static void test_sample(void)
{
	size_t len;
	char *xml = slurp(SAMPLE, &len);
	amc_ui_tree t;
	amc_err e;
	amc_err_clear(&e);
	is_int(amc_uitree_parse(xml, len, &t, &e), 0, "real adb sample parses");
	is_int(t.count, 25, "sample: 25 nodes");
	is_str(t.format, "uiautomator", "sample: format");
	is_int(t.rotation, 0, "sample: rotation");
	if (t.count == 25) {
		const amc_ui_node *n = t.nodes;
		is_int(n[0].parent, -1, "root has no parent");
		is_int(n[0].next_sibling, -1, "one root");
		is_str(n[0].class_name, "android.widget.FrameLayout", "root class");
		is_str(n[0].package, "com.google.android.apps.nexuslauncher", "root package");
		ok(bounds_are(&n[0], 0, 0, 1080, 1794), "root bounds [0,0][1080,1794]");
		is_str(n[14].text, "Fri, Apr 21", "clock text");
		is_str(n[14].content_desc, "Fri, Apr 21", "clock content-desc");
		is_str(n[14].resource_id, "com.google.android.apps.nexuslauncher:id/clock", "clock resource-id");
		ok(bounds_are(&n[14], 77, 123, 1045, 180), "clock bounds");
		is_int(n[14].depth, 13, "clock depth");
		is_int(n[14].parent, 13, "clock parent");
		is_str(flags_of(&n[14]), "enabled,displayed", "clock flags");
		is_str(n[19].text, "Messages", "Messages icon");
		is_str(flags_of(&n[19]), "clickable,enabled,focusable,long_clickable,displayed",
		       "Messages flags");
		ok(bounds_are(&n[19], 237, 1382, 439, 1548), "Messages bounds");
		is_int(n[20].index, 1, "Chrome index attribute");
		is_int(n[19].next_sibling, 20, "Messages -> Chrome sibling");
		is_int(n[4].child_count, 5, "drag_layer has 5 children");
		is_int(n[4].first_child, 5, "drag_layer first child");
		int sib[5], k = 0;
		for (int c = n[4].first_child; c >= 0 && k < 5; c = n[c].next_sibling)
			sib[k++] = c;
		ok(k == 5 && sib[0] == 5 && sib[1] == 6 && sib[2] == 15 && sib[3] == 16 && sib[4] == 17,
		   "drag_layer children 5,6,15,16,17 in order");
		ok(n[6].flags & AMC_NODE_SCROLLABLE, "workspace is scrollable");
		is_str(n[6].resource_id, "com.google.android.apps.nexuslauncher:id/workspace", "workspace id");
		is_str(n[24].content_desc, "Voice search", "mic content-desc");
		is_str(n[24].text, "", "mic has empty text, not NULL");
		is_str(n[24].hint, "", "no hint attribute: empty");
		is_int(n[24].parent, 23, "mic parent");
		is_int(n[24].first_child, -1, "mic is a leaf");
		ok(n[11].flags & AMC_NODE_LONG_CLICKABLE, "ViewPager long-clickable");
	}
	amc_uitree_free(&t);
	is_int(t.count, 0, "free empties the tree");

	/* What `adb exec-out uiautomator dump /dev/tty` prints: junk, the XML, and
	 * the misspelled trailer. */
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "WARNING: linker: something\r\n");
	amc_sb_append(&sb, xml, len);
	amc_sb_puts(&sb, "UI hierchary dumped to: /dev/tty\n");
	is_int(amc_uitree_parse(sb.buf, sb.len, &t, &e), 0, "sample with junk and trailer parses");
	is_int(t.count, 25, "trailer: 25 nodes");
	amc_uitree_free(&t);
	amc_sb_free(&sb);
	free(xml);
}

static void test_shapes(void)
{
	amc_ui_tree t;
	amc_err e;

	is_int(parse_str("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
			 "<hierarchy rotation=\"0\"><node text=\"a&#10;b &amp; &lt;c&gt; &quot;q&quot; &#x263A; &#233;\" "
			 "bounds=\"[1,2][3,4]\"/></hierarchy>UI hierchary dumped to: /dev/tty", &t, &e),
	       0, "entities parse");
	if (t.count == 1)
		is_str(t.nodes[0].text, "a\nb & <c> \"q\" \xe2\x98\xba \xc3\xa9", "entities decoded");
	amc_uitree_free(&t);

	is_int(parse_str("<hierarchy rotation=\"3\"><node zzz=\"1\" bounds=\"[10,20][30,40]\" "
			 "selected=\"true\" class=\"X\" future-thing=\"yes\" drawing-order=\"7\" "
			 "text=\"t\" checked=\"true\" checkable=\"true\" password=\"true\" focused=\"true\" "
			 "enabled=\"false\" hint=\"Type here\" NAF=\"true\" index=\"4\"/></hierarchy>", &t, &e),
	       0, "unknown attributes, any order");
	if (t.count == 1) {
		const amc_ui_node *n = &t.nodes[0];
		is_str(n->class_name, "X", "class read out of order");
		is_str(n->hint, "Type here", "hint read");
		is_int(n->index, 4, "index read");
		is_int(t.rotation, 3, "rotation read");
		ok(bounds_are(n, 10, 20, 30, 40), "bounds read");
		is_str(flags_of(n), "checkable,checked,focused,password,selected,displayed,naf",
		       "flags incl. NAF, enabled=false honoured");
	}
	amc_uitree_free(&t);

	is_int(parse_str("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
			 "<hierarchy rotation=\"1\"><displays><display id=\"0\">"
			 "<window index=\"0\" title=\"StatusBar\" bounds=\"[0,0][1080,63]\" layer=\"5\">"
			 "<node index=\"0\" class=\"A\" bounds=\"[0,0][1080,63]\"><node class=\"A1\" bounds=\"[0,0][5,5]\"/></node></window>"
			 "<window index=\"1\" title=\"App\"><node index=\"0\" class=\"B\" bounds=\"[0,63][1080,1794]\"/>"
			 "</window></display><display id=\"2\"><window><node class=\"C\" bounds=\"[0,0][9,9]\"/>"
			 "</window></display></displays></hierarchy>", &t, &e),
	       0, "multi-window <displays><display><window> parses");
	is_int(t.count, 4, "multi-window: window wrappers are not nodes");
	if (t.count == 4) {
		is_str(t.nodes[0].class_name, "A", "first window root");
		is_int(t.nodes[1].parent, 0, "child attaches to its node");
		is_int(t.nodes[0].next_sibling, 2, "roots are linked as siblings");
		is_int(t.nodes[2].parent, -1, "second window root");
		is_int(t.nodes[2].next_sibling, 3, "third root");
		is_int(t.nodes[3].depth, 0, "window root depth 0");
		is_int(t.rotation, 1, "multi-window rotation");
	}
	amc_uitree_free(&t);

	is_int(parse_str("<hierarchy><display id=\"0\"><window><node class=\"A\" bounds=\"[0,0][1,1]\"/>"
			 "</window></display></hierarchy>", &t, &e), 0, "<display><window> without <displays>");
	is_int(t.count, 1, "one node");
	amc_uitree_free(&t);

	is_int(parse_str("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\" />\n"
			 "UI hierchary dumped to: /dev/tty\n", &t, &e), 0, "self-closing empty hierarchy");
	is_int(t.count, 0, "empty hierarchy: no nodes");
	is_str(t.format, "uiautomator", "empty hierarchy: format");
	amc_uitree_free(&t);
	is_int(parse_str("<hierarchy rotation=\"0\"></hierarchy>", &t, &e), 0, "empty hierarchy pair");
	amc_uitree_free(&t);

	/* Not displayed: [0,0][0,0], empty boxes, malformed bounds, no bounds. */
	static const char *const hidden[] = {
		"[0,0][0,0]", "[5,5][5,9]", "[9,9][1,1]", "[1,2][3", "garbage", "[a,b][c,d]",
		"[0,0][99999999999,1]", "[1,2][3,4]x", "", "[1,2,3,4]", "[-,0][1,1]",
	};
	for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++) {
		char buf[256];
		snprintf(buf, sizeof buf, "<hierarchy><node bounds=\"%s\" text=\"x\"/></hierarchy>", hidden[i]);
		is_int(parse_str(buf, &t, &e), 0, "bounds '%s' is not an error", hidden[i]);
		ok(t.count == 1 && !(t.nodes[0].flags & AMC_NODE_DISPLAYED), "bounds '%s': not displayed", hidden[i]);
		amc_uitree_free(&t);
	}
	is_int(parse_str("<hierarchy><node text=\"x\"/></hierarchy>", &t, &e), 0, "no bounds attribute");
	ok(t.count == 1 && !(t.nodes[0].flags & AMC_NODE_DISPLAYED), "no bounds: not displayed");
	amc_uitree_free(&t);
	is_int(parse_str("<hierarchy><node bounds=\"[-10,0][ 20 , 5 ]\"/></hierarchy>", &t, &e), 0,
	       "negative and spaced bounds");
	ok(t.count == 1 && bounds_are(&t.nodes[0], -10, 0, 20, 5) && (t.nodes[0].flags & AMC_NODE_DISPLAYED),
	   "negative bounds kept, displayed");
	amc_uitree_free(&t);

	/* Non-node elements inside a dump are looked through, not dropped. */
	is_int(parse_str("<hierarchy><node class=\"P\" bounds=\"[0,0][5,5]\"><extra><node class=\"K\" bounds=\"[0,0][1,1]\"/>"
			 "</extra></node></hierarchy>", &t, &e), 0, "unknown element inside a node");
	ok(t.count == 2 && t.nodes[1].parent == 0, "its <node> attaches to the node above");
	amc_uitree_free(&t);
}

static void test_uiautomator2(void)
{
	size_t len;
	char *x = slurp(UIA2_SAMPLE, &len);
	amc_ui_tree t;
	amc_err e;
	amc_err_clear(&e);
	is_int(amc_uitree_parse(x, len, &t, &e), 0, "public UiAutomator2 sample parses");
	is_str(t.format, "uiautomator2", "UiAutomator2: format detected from the content");
	is_int(t.count, 21, "UiAutomator2: one node per element");
	if (t.count == 21) {
		is_str(t.nodes[0].class_name, "android.widget.FrameLayout", "UiAutomator2: root class");
		ok(bounds_are(&t.nodes[0], 0, 0, 1080, 2029), "UiAutomator2: root bounds");
		const amc_ui_node *n = find_text(&t, "Rename phone");
		ok(n && !strcmp(n->resource_id, "miui:id/action_bar_title"), "UiAutomator2: title text and id");
		ok(n && bounds_are(n, 74, 252, 698, 369), "UiAutomator2: title bounds");
		n = find_text(&t, "\xe5\xb0\x8f\xe9\xa3\x8e\xe7\x9a\x84MI 8 SE");
		ok(n && !strcmp(n->hint, "Enter name") && (n->flags & AMC_NODE_FOCUSED), "UiAutomator2: UTF-8 text, hint, focused");
		int cancel = 0;
		for (size_t i = 0; i < t.count; i++)
			if (!strcmp(t.nodes[i].content_desc, "Cancel") && (t.nodes[i].flags & AMC_NODE_CLICKABLE) &&
			    (t.nodes[i].flags & AMC_NODE_DISPLAYED) && !strcmp(t.nodes[i].class_name, "android.widget.Button"))
				cancel = 1;
		ok(cancel, "UiAutomator2: Cancel button desc, clickable, displayed");
	}
	amc_uitree_free(&t);
	free(x);
	/* Omitted attributes: the class comes from the tag; displayed="false" hides. */
	const char *min = "<hierarchy rotation=\"1\"><android.widget.TextView text=\"Hi\" bounds=\"[1,2][30,40]\"/>"
			  "<android.widget.Button text=\"Go\" displayed=\"false\" bounds=\"[1,50][30,90]\"/></hierarchy>";
	is_int(parse_str(min, &t, &e), 0, "minimal UiAutomator2 parses");
	ok(t.count == 2 && !strcmp(t.nodes[0].class_name, "android.widget.TextView") && (t.nodes[0].flags & AMC_NODE_DISPLAYED),
	   "class from the tag when the attribute is omitted");
	ok(t.count == 2 && !(t.nodes[1].flags & AMC_NODE_DISPLAYED), "displayed=false is not displayed");
	is_int(t.rotation, 1, "rotation read");
	amc_uitree_free(&t);
}

static void test_xcuitest(void)
{
	size_t len;
	char *x = slurp(XCUI_SAMPLE, &len);
	amc_ui_tree t;
	amc_err e;
	amc_err_clear(&e);
	is_int(amc_uitree_parse(x, len, &t, &e), 0, "real XCUITest sample parses");
	is_str(t.format, "xcuitest", "XCUITest: format detected");
	is_int(t.count, 93, "XCUITest: one node per XCUIElementType element");
	const amc_ui_node *n = find_text(&t, "General");
	ok(n && !strcmp(n->class_name, "XCUIElementTypeCell") && (n->flags & AMC_NODE_CLICKABLE), "XCUITest: cell is clickable");
	ok(n && bounds_are(n, 0, 248, 390, 293), "XCUITest: points kept without a screenshot");
	amc_uitree_free(&t);
	/* With the screenshot width (3x: 1170 px for 390 points). */
	is_int(amc_uitree_parse_scaled(x, len, 1170, &t, &e), 0, "XCUITest sample parses scaled");
	n = find_text(&t, "General");
	ok(n && bounds_are(n, 0, 744, 1170, 879), "XCUITest: points x scale (screenshot width / root width)");
	int hidden = 0;
	for (size_t i = 0; i < t.count; i++)
		if (!strcmp(t.nodes[i].class_name, "XCUIElementTypeImage") && !(t.nodes[i].flags & AMC_NODE_DISPLAYED))
			hidden = 1;
	ok(hidden, "XCUITest: visible=false is not displayed");
	amc_uitree_free(&t);
	free(x);
}

/* One screen (a title, a switch that is on, a field with a hint) written in the
 * three formats must give the same nodes. */
static void test_same_model(void)
{
	const char *adb =
		"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
		"<node index=\"0\" text=\"\" class=\"android.widget.FrameLayout\" checkable=\"false\" checked=\"false\" "
		"clickable=\"false\" enabled=\"true\" bounds=\"[0,0][1080,2400]\">"
		"<node index=\"0\" text=\"Wi-Fi\" resource-id=\"title\" class=\"android.widget.TextView\" enabled=\"true\" bounds=\"[30,90][330,150]\"/>"
		"<node index=\"1\" text=\"\" resource-id=\"sw\" class=\"android.widget.Switch\" checkable=\"true\" checked=\"true\" "
		"clickable=\"true\" enabled=\"true\" bounds=\"[900,90][1050,150]\"/>"
		"<node index=\"2\" text=\"\" hint=\"Name\" resource-id=\"name\" class=\"android.widget.EditText\" clickable=\"true\" "
		"focusable=\"true\" enabled=\"true\" bounds=\"[30,300][1050,420]\"/>"
		"</node></hierarchy>\nUI hierchary dumped to: /dev/tty\n";
	const char *uia2 =
		"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n"
		"<hierarchy index=\"0\" class=\"hierarchy\" rotation=\"0\" width=\"1080\" height=\"2400\">\n"
		"  <android.widget.FrameLayout index=\"0\" class=\"android.widget.FrameLayout\" enabled=\"true\" displayed=\"true\" bounds=\"[0,0][1080,2400]\">\n"
		"    <android.widget.TextView index=\"0\" text=\"Wi-Fi\" resource-id=\"title\" enabled=\"true\" displayed=\"true\" bounds=\"[30,90][330,150]\"/>\n"
		"    <android.widget.Switch index=\"1\" resource-id=\"sw\" checkable=\"true\" checked=\"true\" clickable=\"true\" enabled=\"true\" displayed=\"true\" bounds=\"[900,90][1050,150]\"/>\n"
		"    <android.widget.EditText index=\"2\" hint=\"Name\" resource-id=\"name\" clickable=\"true\" focusable=\"true\" enabled=\"true\" displayed=\"true\" bounds=\"[30,300][1050,420]\"/>\n"
		"  </android.widget.FrameLayout>\n</hierarchy>\n";
	const char *xcui =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n"
		"<XCUIElementTypeApplication type=\"XCUIElementTypeApplication\" enabled=\"true\" visible=\"true\" x=\"0\" y=\"0\" width=\"360\" height=\"800\">\n"
		"  <XCUIElementTypeStaticText type=\"XCUIElementTypeStaticText\" name=\"title\" label=\"Wi-Fi\" enabled=\"true\" visible=\"true\" x=\"10\" y=\"30\" width=\"100\" height=\"20\"/>\n"
		"  <XCUIElementTypeSwitch type=\"XCUIElementTypeSwitch\" name=\"sw\" value=\"1\" enabled=\"true\" visible=\"true\" x=\"300\" y=\"30\" width=\"50\" height=\"20\"/>\n"
		"  <XCUIElementTypeTextField type=\"XCUIElementTypeTextField\" name=\"name\" placeholderValue=\"Name\" value=\"Name\" enabled=\"true\" visible=\"true\" x=\"10\" y=\"100\" width=\"340\" height=\"40\"/>\n"
		"</XCUIElementTypeApplication>\n</AppiumAUT>\n";
	amc_ui_tree a, b, c;
	amc_err e;
	amc_err_clear(&e);
	ok(amc_uitree_parse_scaled(adb, strlen(adb), 1080, &a, &e) == 0 &&
	   amc_uitree_parse_scaled(uia2, strlen(uia2), 1080, &b, &e) == 0 &&
	   amc_uitree_parse_scaled(xcui, strlen(xcui), 1080, &c, &e) == 0, "the same screen in three formats parses");
	is_str(a.format, "uiautomator", "format 1");
	is_str(b.format, "uiautomator2", "format 2");
	is_str(c.format, "xcuitest", "format 3");
	ok(a.count == 4 && b.count == 4 && c.count == 4, "four nodes each");
	const amc_ui_tree *all[3] = { &a, &b, &c };
	static const unsigned mask = AMC_NODE_DISPLAYED | AMC_NODE_CHECKABLE | AMC_NODE_CHECKED | AMC_NODE_CLICKABLE |
				     AMC_NODE_ENABLED;
	for (int k = 1; k < 3 && a.count == 4 && all[k]->count == 4; k++) {
		for (size_t i = 0; i < 4; i++) {
			const amc_ui_node *x = &a.nodes[i], *y = &all[k]->nodes[i];
			char what[160];
			snprintf(what, sizeof what, "%s node %zu: text, hint, id, bounds, flags, parent as in the adb dump",
				 all[k]->format, i);
			ok(!strcmp(x->text, y->text) && !strcmp(x->hint, y->hint) && !strcmp(x->resource_id, y->resource_id) &&
			   bounds_are(y, x->bounds.x1, x->bounds.y1, x->bounds.x2, x->bounds.y2) &&
			   (x->flags & mask) == (y->flags & mask) && x->parent == y->parent, what);
		}
	}
	amc_uitree_free(&a);
	amc_uitree_free(&b);
	amc_uitree_free(&c);
}


/* Reads one document under a given format (detection bypassed). */
static int read_as(const char *xml, amc_uitree_fmt fmt, int width, amc_ui_tree *t, amc_err *e)
{
	xmlDocPtr doc;
	amc_err_clear(e);
	memset(t, 0, sizeof *t);
	if (amc_uitree_xml_read(xml, strlen(xml), &doc, e) != 0)
		return -1;
	int rc = amc_uitree_read_doc(doc, fmt, width, t, e);
	xmlFreeDoc(doc);
	return rc;
}

/* One walker; the format's table row decides which elements are nodes, how
 * they are read and what the root says. */
static void test_walker(void)
{
	is_str(amc_uitree_read_format_name(AMC_UITREE_UIAUTOMATOR), "uiautomator", "format name 1");
	is_str(amc_uitree_read_format_name(AMC_UITREE_UIAUTOMATOR2), "uiautomator2", "format name 2");
	is_str(amc_uitree_read_format_name(AMC_UITREE_XCUITEST), "xcuitest", "format name 3");
	is_str(amc_uitree_read_format_name(AMC_UITREE_APPIUM_FAKE), "appium-fake", "format name 4");

	const char *x = "<hierarchy rotation=\"2\"><window><node class=\"A\" bounds=\"[0,0][5,5]\"/></window></hierarchy>";
	amc_ui_tree t;
	amc_err e;
	ok(read_as(x, AMC_UITREE_UIAUTOMATOR, 0, &t, &e) == 0 && t.count == 1 && !strcmp(t.nodes[0].class_name, "A") &&
	   t.rotation == 2 && !strcmp(t.format, "uiautomator"), "as uiautomator: <window> looked through, rotation read");
	amc_uitree_free(&t);
	ok(read_as(x, AMC_UITREE_UIAUTOMATOR2, 0, &t, &e) == 0 && t.count == 2 &&
	   !strcmp(t.nodes[0].class_name, "window") && t.nodes[1].parent == 0 && t.rotation == 2,
	   "as UiAutomator2: every element a node, class from the tag");
	amc_uitree_free(&t);
	ok(read_as(x, AMC_UITREE_APPIUM_FAKE, 0, &t, &e) == 0 && t.count == 2 && t.rotation == 0 &&
	   !strcmp(t.format, "appium-fake"), "as the fake driver: every element a node, no rotation");
	amc_uitree_free(&t);
	ok(read_as(x, AMC_UITREE_XCUITEST, 0, &t, &e) == 0 && t.count == 0, "as XCUITest: no XCUIElementType, no node");
	amc_uitree_free(&t);
	amc_err_clear(&e);
	ok(amc_uitree_read_doc(NULL, AMC_UITREE_UIAUTOMATOR, 0, &t, &e) == -1 && t.count == 0 && t.nodes == NULL,
	   "no document: an error, an empty tree");

	/* A bare XCUITest root is a node itself; wrappers inside are looked through. */
	const char *bare = "<XCUIElementTypeApplication name=\"A\" x=\"0\" y=\"0\" width=\"100\" height=\"200\">"
			   "<Other><XCUIElementTypeButton label=\"OK\" x=\"10\" y=\"10\" width=\"20\" height=\"10.5\"/>"
			   "</Other></XCUIElementTypeApplication>";
	ok(amc_uitree_parse_scaled(bare, strlen(bare), 300, &t, &e) == 0 && t.count == 2, "bare XCUITest root parses");
	if (t.count == 2) {
		ok(t.nodes[0].parent == -1 && !strcmp(t.nodes[0].resource_id, "A") && bounds_are(&t.nodes[0], 0, 0, 300, 600),
		   "the root is a node, scaled x3");
		ok(t.nodes[1].parent == 0 && t.nodes[1].depth == 1 && bounds_are(&t.nodes[1], 30, 30, 90, 62) &&
		   (t.nodes[1].flags & AMC_NODE_CLICKABLE) && !strcmp(t.nodes[1].text, "OK"),
		   "the button under a wrapper attaches to the root; 31.5 px rounds to 32");
	}
	amc_uitree_free(&t);

	const char *fields = "<AppiumAUT><XCUIElementTypeApplication x=\"0\" y=\"0\" width=\"10\" height=\"10\">"
			     "<XCUIElementTypeSecureTextField name=\"pw\" label=\"Password\" placeholderValue=\"Secret\" "
			     "value=\"Secret\" x=\"0\" y=\"0\" width=\"5\" height=\"5\"/>"
			     "<XCUIElementTypeSwitch name=\"s\" value=\"true\" x=\"0\" y=\"0\" width=\"5\" height=\"5\" "
			     "visible=\"false\"/></XCUIElementTypeApplication></AppiumAUT>";
	ok(parse_str(fields, &t, &e) == 0 && t.count == 3, "XCUITest fields parse");
	if (t.count == 3) {
		const amc_ui_node *pw = &t.nodes[1], *sw = &t.nodes[2];
		ok(!strcmp(pw->text, "") && !strcmp(pw->hint, "Secret") && !strcmp(pw->content_desc, "pw") &&
		   (pw->flags & AMC_NODE_PASSWORD) && (pw->flags & AMC_NODE_FOCUSABLE),
		   "secure field: value equal to the placeholder is no text; password, focusable");
		ok((sw->flags & AMC_NODE_CHECKED) && (sw->flags & AMC_NODE_CHECKABLE) && !(sw->flags & AMC_NODE_DISPLAYED) &&
		   !strcmp(sw->text, ""), "switch: value true is checked, never text; visible=false hides it");
	}
	amc_uitree_free(&t);
}

/* The Appium fake driver's source (amc's tests, not a device): text from the
 * element's own characters when it has no text or value attribute. */
static void test_fake(void)
{
	const char *x = "<AppiumAUT><app width=\"100\" height=\"100\"><Text left=\"1\" top=\"2\" width=\"10\" height=\"5\">"
			"  hello <![CDATA[world]]>\n </Text><Button enabled=\"false\" width=\"3\" height=\"3\">B</Button>"
			"</app></AppiumAUT>";
	amc_ui_tree t;
	amc_err e;
	ok(parse_str(x, &t, &e) == 0 && t.count == 3 && !strcmp(t.format, "appium-fake"), "fake source parses");
	if (t.count == 3) {
		const amc_ui_node *app = &t.nodes[0], *txt = &t.nodes[1], *btn = &t.nodes[2];
		ok(!(app->flags & AMC_NODE_CLICKABLE) && (app->flags & AMC_NODE_ENABLED) && bounds_are(app, 0, 0, 100, 100) &&
		   (app->flags & AMC_NODE_DISPLAYED), "<app>: not clickable, enabled, left/top default to 0");
		ok(!strcmp(txt->text, "hello world") && bounds_are(txt, 1, 2, 11, 7), "character data and CDATA, trimmed");
		ok(!strcmp(btn->text, "B") && !(btn->flags & AMC_NODE_ENABLED) && (btn->flags & AMC_NODE_CLICKABLE),
		   "enabled=false honoured; other elements clickable");
	}
	amc_uitree_free(&t);
}

int main(void)
{
	test_sample();
	test_shapes();
	test_uiautomator2();
	test_xcuitest();
	test_same_model();
	test_walker();
	test_fake();
	return done_testing();
}
