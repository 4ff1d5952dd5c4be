/* test_uitree_xml.c - reading UI-tree XML safely (uitree_xml.c): malformed,
 * oversized and hostile input, libxml2 kept off the terminal and per thread,
 * and the format detection. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlerror.h>

#include "perception/uitree.h"
#include "perception/uitree_xml.h"
#include "util/strbuf.h"
#include "tap.h"
#include "testutil.h"
#include "uitree_test.h"

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


static xmlDocPtr read_str(const char *xml, amc_err *e)
{
	xmlDocPtr doc = NULL;
	amc_err_clear(e);
	if (amc_uitree_xml_read(xml, strlen(xml), &doc, e) != 0)
		return NULL;
	return doc;
}

/* The document itself: junk cut off, attributes decoded, nothing on failure. */
static void test_read(void)
{
	amc_err e;
	xmlDocPtr doc = read_str("WARNING: junk\r\n<?xml version='1.0'?><hierarchy rotation=\"3\" a=\"x &amp; &#233;\">"
				 "<node/></hierarchy>UI hierchary dumped to: /dev/tty\n", &e);
	xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
	ok(root && amc_uitree_xml_name_is(root, "hierarchy"), "junk and trailer cut off: the root is <hierarchy>");
	char *rot = root ? amc_uitree_xml_attr(doc, root, "rotation") : NULL;
	char *a = root ? amc_uitree_xml_attr(doc, root, "a") : NULL;
	char *none = root ? amc_uitree_xml_attr(doc, root, "missing") : NULL;
	is_str(rot, "3", "an attribute's value");
	is_str(a, "x & \xc3\xa9", "entities and character references decoded");
	ok(root && none == NULL, "a missing attribute is NULL");
	ok(root && !amc_uitree_xml_name_is(root->children ? root->children->next : NULL, "node") &&
	   amc_uitree_xml_name_is(root->children, "node") && !amc_uitree_xml_name_is(root, "node"),
	   "name_is matches the element's name only");
	free(rot);
	free(a);
	if (doc)
		xmlFreeDoc(doc);

	static const struct {
		const char *xml, *needle;
	} bad[] = {
		{ "<hierarchy><node></hierarchy>", "malformed" },
		{ "<?xml version=\"1.0\"?><!DOCTYPE h><hierarchy/>", "DOCTYPE" },
		{ "", "empty" },
		{ "no xml here", "no UI hierarchy" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		xmlDocPtr d = (xmlDocPtr)&e; /* must be overwritten */
		amc_err_clear(&e);
		int rc = amc_uitree_xml_read(bad[i].xml, strlen(bad[i].xml), &d, &e);
		ok(rc == -1 && d == NULL && e.code == AMC_EUSAGE && strstr(e.msg, bad[i].needle),
		   "read refuses '%s' (%s), no document left", bad[i].xml, bad[i].needle);
	}
}

/* Which format a document is, from its root and first elements. */
static void test_detect(void)
{
	static const struct {
		const char *xml;
		amc_uitree_fmt fmt;
		const char *what;
	} cases[] = {
		{ "<hierarchy><node/></hierarchy>", AMC_UITREE_UIAUTOMATOR, "adb dump" },
		{ "<hierarchy rotation=\"0\"/>", AMC_UITREE_UIAUTOMATOR, "empty hierarchy" },
		{ "<hierarchy><displays><display><window><node/></window></display></displays></hierarchy>",
		  AMC_UITREE_UIAUTOMATOR, "multi-window adb dump" },
		{ "<hierarchy><android.widget.FrameLayout/></hierarchy>", AMC_UITREE_UIAUTOMATOR2, "class-named element" },
		{ "<hierarchy><display><window><android.view.View/></window></display></hierarchy>",
		  AMC_UITREE_UIAUTOMATOR2, "class-named element behind window wrappers" },
		{ "<AppiumAUT><XCUIElementTypeApplication/></AppiumAUT>", AMC_UITREE_XCUITEST, "XCUITest under AppiumAUT" },
		{ "<XCUIElementTypeApplication/>", AMC_UITREE_XCUITEST, "bare XCUITest root" },
		{ "<AppiumAUT/>", AMC_UITREE_XCUITEST, "empty AppiumAUT" },
		{ "<AppiumAUT><!-- c --> <app/></AppiumAUT>", AMC_UITREE_APPIUM_FAKE, "the fake driver's <app>" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		amc_err e;
		xmlDocPtr doc = read_str(cases[i].xml, &e);
		amc_uitree_fmt f = (amc_uitree_fmt)-1;
		int rc = doc ? amc_uitree_xml_detect(xmlDocGetRootElement(doc), &f, &e) : -1;
		ok(rc == 0 && f == cases[i].fmt, "detect: %s", cases[i].what);
		if (doc)
			xmlFreeDoc(doc);
	}
	static const char *const other[] = { "<html><body/></html>", "<app/>", "<Hierarchy><node/></Hierarchy>" };
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
		amc_err e;
		xmlDocPtr doc = read_str(other[i], &e);
		amc_uitree_fmt f;
		amc_err_clear(&e);
		int rc = doc ? amc_uitree_xml_detect(xmlDocGetRootElement(doc), &f, &e) : 0;
		ok(rc == -1 && e.code == AMC_EUSAGE && strstr(e.msg, "unsupported UI tree format: root element <"),
		   "detect refuses %s", other[i]);
		if (doc)
			xmlFreeDoc(doc);
	}
	/* The root's name is quoted, cut to 80 bytes. */
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "<");
	for (int i = 0; i < 100; i++)
		amc_sb_puts(&sb, "r");
	amc_sb_puts(&sb, "/>");
	amc_err e;
	xmlDocPtr doc = read_str(sb.buf, &e);
	amc_uitree_fmt f;
	int rc = doc ? amc_uitree_xml_detect(xmlDocGetRootElement(doc), &f, &e) : 0;
	const char *q = strchr(e.msg, '<');
	ok(rc == -1 && q && strspn(q + 1, "r") == 80 && q[81] == '>', "a long root name is cut to 80 bytes");
	if (doc)
		xmlFreeDoc(doc);
	amc_sb_free(&sb);
}

int main(void)
{
	test_malformed();
	test_hostile();
	test_silence();
	test_threads();
	test_read();
	test_detect();
	return done_testing();
}
