/* test_uitree.c - the uiautomator dump parser on the real sample, on the shapes
 * devices print, and on malformed, oversized and hostile XML. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlerror.h>

#include "perception/uitree.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"
#include "tap.h"
#include "testutil.h"

#define SAMPLE "tests/data/uitree/adb-uiautomator-dump_nexuslauncher.xml"
#define XCUI_SAMPLE "tests/data/uitree/appium-xcuitest-source_ios-settings.xml"

static char *slurp(const char *rel, size_t *len)
{
	char *buf = NULL;
	amc_err e;
	if (amc_read_file(test_src(rel), 1u << 20, &buf, len, &e) != 0) {
		printf("Bail out! cannot read %s: %s\n", rel, e.msg);
		exit(1);
	}
	return buf;
}

static int parse_str(const char *xml, amc_ui_tree *t, amc_err *e)
{
	amc_err_clear(e);
	return amc_uitree_parse(xml, strlen(xml), t, e);
}

static int bounds_are(const amc_ui_node *n, int x1, int y1, int x2, int y2)
{
	return n->bounds.x1 == x1 && n->bounds.y1 == y1 && n->bounds.x2 == x2 && n->bounds.y2 == y2;
}

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

static void expect_refused(const char *xml, size_t len, const char *needle, const char *what)
{
	amc_ui_tree t;
	amc_err e;
	amc_err_clear(&e);
	int rc = amc_uitree_parse(xml, len, &t, &e);
	is_int(rc, -1, "%s: refused", what);
	is_int(e.code, AMC_EUSAGE, "%s: code AMC_EUSAGE", what);
	like(e.msg, needle, "%s: message", what);
	diag("%s", e.msg);
	ok(t.count == 0 && t.nodes == NULL, "%s: tree left empty", what);
	amc_uitree_free(&t);
}

#define REFUSE(xml, needle, what) expect_refused((xml), strlen(xml), (needle), (what))

static void test_malformed(void)
{
	REFUSE("<hierarchy><node></hierarchy>", "malformed UI tree XML at line 1", "mismatched tag");
	/* Lines count from the start of the input, junk before the XML included. */
	REFUSE("WARNING: junk\n<hierarchy>\n<node>\n</nodex></hierarchy>", "at line 4", "error line counts the junk");
	REFUSE("<hierarchy><node text=\"\xff\xfe\"/></hierarchy>", "malformed", "invalid UTF-8");
	REFUSE("<hierarchy><node text=\"&bogus;\"/></hierarchy>", "malformed", "undefined entity");
	REFUSE("<hierarchy><node text=\"&#0;\"/></hierarchy>", "malformed", "NUL character reference");
	REFUSE("<hierarchy><node text=\"a\" text=\"b\"/></hierarchy>", "malformed", "duplicate attribute");
	REFUSE("<hierarchy><node", "malformed", "truncated dump");
	REFUSE("", "empty", "empty input");
	REFUSE("   \n", "empty", "blank input");
	REFUSE("ERROR: could not get idle state.\nUI hierchary dumped to: /dev/tty\n",
	       "could not get idle state", "uiautomator error text");
	REFUSE("junk \x1b[31mred\n", "no UI hierarchy", "escape sequences in junk");
	{
		/* The error text is sanitized: no raw escape reaches the terminal. */
		amc_ui_tree t;
		amc_err e;
		parse_str("\x1b]0;title\x07 oops", &t, &e);
		ok(!strchr(e.msg, 0x1b) && !strchr(e.msg, 0x07), "junk quoted without control characters");
	}
	REFUSE("<html><body/></html>", "unsupported UI tree format: root element <html>", "other XML");
}

#define UIA2_SAMPLE "tests/data/uitree/appium-uiautomator2-source_miui-settings.xml"

static const amc_ui_node *find_text(const amc_ui_tree *t, const char *text)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->nodes[i].text, text))
			return &t->nodes[i];
	return NULL;
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

static void test_hostile(void)
{
	const char *laughs =
		"<?xml version=\"1.0\"?>\n"
		"<!DOCTYPE lolz [\n"
		" <!ENTITY lol \"lol\">\n"
		" <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
		" <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\n"
		" <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n"
		" <!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">\n"
		" <!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">\n"
		" <!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">\n"
		" <!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">\n"
		" <!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">\n"
		" <!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">\n"
		"]>\n"
		"<hierarchy><node text=\"&lol9;\" bounds=\"[0,0][1,1]\"/></hierarchy>";
	REFUSE(laughs, "DOCTYPE", "billion laughs");
	REFUSE("<?xml version=\"1.0\"?><!DOCTYPE h [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
	       "<hierarchy><node text=\"&x;\" bounds=\"[0,0][1,1]\"/></hierarchy>", "DOCTYPE", "external entity");
	REFUSE("<?xml version=\"1.0\"?><!DOCTYPE hierarchy SYSTEM \"http://example.invalid/x.dtd\">"
	       "<hierarchy/>", "DOCTYPE", "external DTD");
	REFUSE("<?xml version=\"1.0\"?><!doctype hierarchy><hierarchy/>", "DOCTYPE", "lower-case doctype");
	/* A DOCTYPE dropped by the cut (before <hierarchy>, no <?xml) leaves its
	 * entities undefined: still refused, never expanded. */
	REFUSE("<!DOCTYPE h [<!ENTITY x \"boom\">]><hierarchy><node text=\"&x;\"/></hierarchy>",
	       "", "DOCTYPE ahead of <hierarchy>");

	/* An encoding can hide "<!DOCTYPE" from the byte check (UTF-7 spells '<' as
	 * "+ADw-"); the parser hook still stops it before any entity is declared. */
	{
		amc_sb u7;
		amc_sb_init(&u7);
		amc_sb_puts(&u7, "<?xml version=\"1.0\" encoding=\"UTF-7\"?>+ADw-!DOCTYPE h [+ADw-!ENTITY l0 \"lol\">");
		for (int i = 1; i < 10; i++) {
			amc_sb_printf(&u7, "+ADw-!ENTITY l%d \"", i);
			for (int k = 0; k < 10; k++)
				amc_sb_printf(&u7, "&l%d;", i - 1);
			amc_sb_puts(&u7, "\">");
		}
		amc_sb_puts(&u7, "]><hierarchy><node text=\"&l9;\" bounds=\"[0,0][1,1]\"/></hierarchy>");
		REFUSE(u7.buf, "DOCTYPE", "billion laughs hidden by UTF-7");
		amc_sb_free(&u7);
	}
	{
		/* UTF-16: refused for its NUL bytes. */
		static const char u16[] = "\xff\xfe<\0h\0i\0e\0r\0a\0r\0c\0h\0y\0/\0>\0";
		expect_refused(u16, sizeof u16 - 1, "NUL bytes", "UTF-16 input");
	}

	/* Size: refused before parsing. */
	size_t big = (size_t)AMC_UITREE_MAX_BYTES + 1;
	char *buf = malloc(big);
	memset(buf, ' ', big);
	memcpy(buf, "<hierarchy>", 11);
	memcpy(buf + big - 12, "</hierarchy>", 12);
	expect_refused(buf, big, "byte limit", "over the byte limit");
	free(buf);

	/* Depth: nested nodes. */
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "<hierarchy>");
	for (int i = 0; i < 300; i++)
		amc_sb_puts(&sb, "<node bounds=\"[0,0][1,1]\">");
	for (int i = 0; i < 300; i++)
		amc_sb_puts(&sb, "</node>");
	amc_sb_puts(&sb, "</hierarchy>");
	expect_refused(sb.buf, sb.len, "deeper than 256 levels", "over the depth limit");
	amc_sb_reset(&sb);
	amc_sb_puts(&sb, "<hierarchy>");
	for (int i = 0; i < 200; i++)
		amc_sb_puts(&sb, "<node>");
	for (int i = 0; i < 200; i++)
		amc_sb_puts(&sb, "</node>");
	amc_sb_puts(&sb, "</hierarchy>");
	amc_ui_tree t;
	amc_err e;
	is_int(amc_uitree_parse(sb.buf, sb.len, &t, &e), 0, "200 levels deep is fine");
	ok(t.count == 200 && t.nodes[199].depth == 199, "deepest node depth 199");
	amc_uitree_free(&t);

	/* Node count. */
	amc_sb_reset(&sb);
	amc_sb_puts(&sb, "<hierarchy>");
	for (int i = 0; i < AMC_UITREE_MAX_NODES; i++)
		amc_sb_puts(&sb, "<node/>");
	size_t at_limit = sb.len;
	amc_sb_puts(&sb, "</hierarchy>");
	is_int(amc_uitree_parse(sb.buf, sb.len, &t, &e), 0, "exactly the node limit parses");
	is_int(t.count, AMC_UITREE_MAX_NODES, "all nodes kept");
	ok(t.count && t.nodes[t.count - 1].next_sibling == -1 && t.nodes[0].next_sibling == 1,
	   "wide sibling chain linked");
	amc_uitree_free(&t);
	sb.len = at_limit;
	amc_sb_puts(&sb, "<node/></hierarchy>");
	expect_refused(sb.buf, sb.len, "more than 100000 nodes", "over the node limit");
	amc_sb_free(&sb);
}

/* libxml2 must never write to the terminal, and the caller's handler survives. */
static int caller_handler_calls;
static void caller_handler(void *ctx, xmlErrorPtr err)
{
	(void)ctx;
	(void)err;
	caller_handler_calls++;
}

static void test_silence(void)
{
	fflush(stderr);
	int saved = dup(2);
	char path[] = "/tmp/amc-test-uitree-stderr-XXXXXX";
	int fd = mkstemp(path);
	if (saved < 0 || fd < 0) {
		ok(0, "cannot redirect stderr");
		return;
	}
	dup2(fd, 2);
	xmlSetStructuredErrorFunc(NULL, caller_handler);
	amc_ui_tree t;
	amc_err e;
	parse_str("<hierarchy><node></hierarchy>", &t, &e);
	parse_str("<hierarchy><node text=\"&nope;\" a=\"\xc3\x28\"/></hierarchy>", &t, &e);
	parse_str("<?xml version=\"1.0\" encoding=\"no-such-encoding\"?><hierarchy/>", &t, &e);
	parse_str("<hierarchy xmlns:a=\"x\"><node a:b=\"1\" c:d=\"2\"/></hierarchy>", &t, &e);
	amc_uitree_free(&t);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	off_t size = lseek(fd, 0, SEEK_END);
	close(fd);
	unlink(path);
	is_int(size, 0, "libxml2 printed nothing to stderr");
	is_int(caller_handler_calls, 0, "errors went to amc's handler, not the caller's");
	ok(xmlStructuredError == caller_handler, "caller's structured error handler restored");
	xmlSetStructuredErrorFunc(NULL, NULL);
}

/* Each thread's errors reach its own parse: the handler is per call and thread. */
struct thread_case {
	const char *xml;
	const char *needle;
	int good;
};

static void *thread_main(void *arg)
{
	struct thread_case *c = arg;
	for (int i = 0; i < 300; i++) {
		amc_ui_tree t;
		amc_err e;
		if (parse_str(c->xml, &t, &e) == 0 || !strstr(e.msg, c->needle))
			return NULL;
		amc_uitree_free(&t);
	}
	c->good = 1;
	return NULL;
}

static void test_threads(void)
{
	struct thread_case cases[] = {
		{"<hierarchy><node></hierarchy>", "tag mismatch", 0},
		{"<hierarchy><node text=\"&bogus;\"/></hierarchy>", "Entity 'bogus'", 0},
		{"<hierarchy><node a=\"1\" a=\"2\"/></hierarchy>", "redefined", 0},
	};
	pthread_t th[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, thread_main, &cases[i]);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	ok(cases[0].good && cases[1].good && cases[2].good, "concurrent parses each get their own error");
}

static void test_json(void)
{
	size_t len;
	char *xml = slurp(SAMPLE, &len);
	amc_ui_tree a, b;
	amc_err e;
	amc_uitree_parse(xml, len, &a, &e);
	free(xml);
	/* Make the round trip carry every field kind. */
	if (a.count > 3) {
		free(a.nodes[3].hint);
		a.nodes[3].hint = amc_xstrdup("Search \"apps\"\n\xe2\x98\xba");
		a.nodes[3].flags |= AMC_NODE_NAF | AMC_NODE_PASSWORD;
		a.nodes[3].bounds.x1 = -7;
	}
	a.rotation = 2;
	cJSON *j = amc_uitree_to_json(&a);
	char *s1 = amc_json_print(j);
	cJSON_Delete(j);
	cJSON *back = amc_json_parse(s1, strlen(s1), 1u << 24, &e);
	ok(back != NULL, "JSON text parses back");
	is_int(amc_uitree_from_json(back, &b, &e), 0, "from_json accepts to_json's output");
	cJSON_Delete(back);
	is_int(b.count, a.count, "same node count");
	is_str(b.format, "uiautomator", "format kept");
	is_int(b.rotation, 2, "rotation kept");
	int same = a.count == b.count;
	for (size_t i = 0; same && i < a.count; i++) {
		const amc_ui_node *x = &a.nodes[i], *y = &b.nodes[i];
		same = x->index == y->index && x->parent == y->parent && x->depth == y->depth &&
		       x->first_child == y->first_child && x->next_sibling == y->next_sibling &&
		       x->child_count == y->child_count && !strcmp(x->text, y->text) &&
		       !strcmp(x->resource_id, y->resource_id) && !strcmp(x->class_name, y->class_name) &&
		       !strcmp(x->package, y->package) && !strcmp(x->content_desc, y->content_desc) &&
		       !strcmp(x->hint, y->hint) && !memcmp(&x->bounds, &y->bounds, sizeof x->bounds) &&
		       x->flags == y->flags;
		if (!same)
			diag("node %zu differs", i);
	}
	ok(same, "every node field identical after the round trip");
	j = amc_uitree_to_json(&b);
	char *s2 = amc_json_print(j);
	cJSON_Delete(j);
	is_str(s2, s1, "JSON identical after the round trip");
	like(s1, "\"flags\":[\"clickable\",\"enabled\",\"focusable\",\"long_clickable\",\"displayed\"]",
	     "flags are names");
	free(s1);
	free(s2);
	amc_uitree_free(&a);
	amc_uitree_free(&b);

	/* Empty tree. */
	amc_ui_tree empty;
	parse_str("<hierarchy/>", &empty, &e);
	j = amc_uitree_to_json(&empty);
	s1 = amc_json_print(j);
	is_str(s1, "{\"format\":\"uiautomator\",\"rotation\":0,\"nodes\":[]}", "empty tree JSON");
	is_int(amc_uitree_from_json(j, &b, &e), 0, "empty tree from JSON");
	is_int(b.count, 0, "no nodes");
	cJSON_Delete(j);
	free(s1);
	amc_uitree_free(&b);

	static const char *const bad[] = {
		"[]", "{}", "{\"format\":\"uiautomator\"}", "{\"format\":7,\"nodes\":[]}",
		"{\"format\":\"uiautomator\",\"nodes\":[1]}",
		"{\"format\":\"uiautomator\",\"nodes\":[{\"bounds\":[1,2,3]}]}",
		"{\"format\":\"uiautomator\",\"nodes\":[{\"bounds\":[1,2,3,4.5]}]}",
		"{\"format\":\"uiautomator\",\"nodes\":[{\"text\":5}]}",
		"{\"format\":\"uiautomator\",\"nodes\":[{\"children\":{}}]}",
		"{\"format\":\"uiautomator\",\"nodes\":[{\"flags\":[1]}]}",
		"{\"format\":\"uiautomator\",\"nodes\":[{\"children\":[{\"index\":1e20}]}]}",
		"{\"format\":\"a-format-name-longer-than-31-bytes\",\"nodes\":[]}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cJSON *bj = cJSON_Parse(bad[i]);
		amc_err_clear(&e);
		int rc = amc_uitree_from_json(bj, &b, &e);
		ok(rc == -1 && e.code == AMC_EUSAGE && b.count == 0 && !b.nodes, "from_json refuses %s", bad[i]);
		cJSON_Delete(bj);
	}
	/* Deeply nested JSON stops at the depth limit. */
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "{\"format\":\"uiautomator\",\"nodes\":[");
	for (int i = 0; i < 300; i++)
		amc_sb_puts(&sb, "{\"children\":[");
	for (int i = 0; i < 300; i++)
		amc_sb_puts(&sb, "]}");
	amc_sb_puts(&sb, "]}");
	cJSON *deep = cJSON_Parse(sb.buf);
	ok(deep != NULL, "deep JSON parses as JSON");
	is_int(amc_uitree_from_json(deep, &b, &e), -1, "deep stored tree refused");
	like(e.msg, "deeper than", "depth message");
	cJSON_Delete(deep);
	amc_sb_free(&sb);
	/* Unknown flag names from a newer amc are skipped. */
	cJSON *fj = cJSON_Parse("{\"format\":\"uiautomator\",\"nodes\":[{\"flags\":[\"clickable\",\"future\"]}]}");
	is_int(amc_uitree_from_json(fj, &b, &e), 0, "unknown flag name tolerated");
	ok(b.count == 1 && b.nodes[0].flags == AMC_NODE_CLICKABLE && !strcmp(b.nodes[0].text, ""),
	   "known flag kept, missing strings empty");
	cJSON_Delete(fj);
	amc_uitree_free(&b);
}

static void test_flag_names(void)
{
	char buf[64];
	amc_uitree_flag_names(0, buf, sizeof buf);
	is_str(buf, "", "no flags: empty");
	amc_uitree_flag_names(AMC_NODE_CLICKABLE | AMC_NODE_NAF, buf, sizeof buf);
	is_str(buf, "clickable,naf", "two names");
	amc_uitree_flag_names(AMC_NODE_CLICKABLE | AMC_NODE_ENABLED, buf, 14);
	is_str(buf, "clickable", "truncated to whole names");
	amc_uitree_flag_names(AMC_NODE_CLICKABLE, buf, 3);
	is_str(buf, "", "too small for one name");
	amc_uitree_flag_names(AMC_NODE_CLICKABLE, buf, 0); /* must not write */
}

int main(void)
{
	test_sample();
	test_shapes();
	test_malformed();
	test_uiautomator2();
	test_xcuitest();
	test_same_model();
	test_hostile();
	test_silence();
	test_threads();
	test_json();
	test_flag_names();
	return done_testing();
}
