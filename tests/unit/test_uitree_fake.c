/* test_uitree_fake.c - the Appium fake driver's page source (<AppiumAUT><app>)
 * is one more UI tree format, so flows run against the fake app; an XCUITest
 * source (also under AppiumAUT) is still read as XCUITest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/uitree.h"
#include "tap.h"
#include "testutil.h"
#include "util/strbuf.h"

static int find(const amc_ui_tree *t, const char *rid)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->nodes[i].resource_id, rid))
			return (int)i;
	return -1;
}

int main(void)
{
	char *app = NULL;
	size_t len = 0;
	amc_err e;
	if (amc_read_file(test_src("tests/appium/app.xml"), 1 << 20, &app, &len, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	/* What the fake driver serves: the file wrapped in AppiumAUT. */
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "<AppiumAUT>");
	amc_sb_append(&sb, app, len);
	amc_sb_puts(&sb, "</AppiumAUT>");
	free(app);
	amc_ui_tree t;
	int rc = amc_uitree_parse(amc_sb_str(&sb), sb.len, &t, &e);
	ok(rc == 0, "fake app source parses (%s)", rc ? e.msg : "ok");
	is_str(t.format, "appium-fake", "format appium-fake");
	is_int(t.count, 6, "app, layout and four elements");
	int u = find(&t, "username"), b = find(&t, "login"), n = find(&t, "note");
	ok(u >= 0 && !strcmp(t.nodes[u].class_name, "MockInputField") && !strcmp(t.nodes[u].hint, "User name") &&
	   (t.nodes[u].flags & AMC_NODE_FOCUSABLE), "MockInputField: class, hint, focusable");
	ok(u >= 0 && t.nodes[u].bounds.x1 == 40 && t.nodes[u].bounds.y1 == 300 && t.nodes[u].bounds.x2 == 1040 &&
	   t.nodes[u].bounds.y2 == 420, "bounds from left top width height");
	ok(b >= 0 && !strcmp(t.nodes[b].text, "Log in") && (t.nodes[b].flags & AMC_NODE_CLICKABLE) &&
	   (t.nodes[b].flags & AMC_NODE_DISPLAYED), "button text, clickable, displayed");
	is_str(n >= 0 ? t.nodes[n].text : NULL, "It's \"quoted\"", "entities decoded");
	ok(t.nodes[0].parent == -1 && !strcmp(t.nodes[0].class_name, "app") && t.nodes[1].parent == 0, "hierarchy kept");
	amc_uitree_free(&t);
	amc_sb_free(&sb);

	const char *hidden = "<AppiumAUT><app width=\"100\" height=\"100\"><Button id=\"h\" visible=\"false\" left=\"0\" "
			     "top=\"0\" width=\"10\" height=\"10\">x</Button><Text id=\"z\" left=\"0\" top=\"0\" width=\"0\" "
			     "height=\"0\">y</Text></app></AppiumAUT>";
	ok(amc_uitree_parse(hidden, strlen(hidden), &t, &e) == 0 && t.count == 3 && !(t.nodes[1].flags & AMC_NODE_DISPLAYED) &&
	   !(t.nodes[2].flags & AMC_NODE_DISPLAYED), "visible=false and empty boxes are not displayed");
	amc_uitree_free(&t);

	char *x = NULL;
	if (amc_read_file(test_src("tests/data/uitree/appium-xcuitest-source_ios-settings.xml"), 1 << 22, &x, &len, &e) == 0) {
		ok(amc_uitree_parse(x, len, &t, &e) == 0 && !strcmp(t.format, "xcuitest"), "XCUITest under AppiumAUT stays xcuitest");
		amc_uitree_free(&t);
		free(x);
	} else {
		ok(0, "read the XCUITest sample: %s", e.msg);
	}
	return done_testing();
}
