/* uitree_test.h - helpers shared by the UI tree and Scene tests. */
#ifndef AMC_UITREE_TEST_H
#define AMC_UITREE_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/uitree.h"
#include "tap.h"
#include "testutil.h"

#define SAMPLE "tests/data/uitree/adb-uiautomator-dump_nexuslauncher.xml"
#define UIA2_SAMPLE "tests/data/uitree/appium-uiautomator2-source_miui-settings.xml"
#define XCUI_SAMPLE "tests/data/uitree/appium-xcuitest-source_ios-settings.xml"
#define GBOARD_SAMPLE "tests/data/uitree/constructed-uiautomator-dump_gboard-over-settings.xml"

/* A file of the source tree, whole; bails out when it cannot be read. */
static inline char *slurp(const char *rel, size_t *len)
{
	char *buf = NULL;
	amc_err e;
	if (amc_read_file(test_src(rel), 1u << 20, &buf, len, &e) != 0) {
		printf("Bail out! cannot read %s: %s\n", rel, e.msg);
		exit(1);
	}
	return buf;
}

static inline int parse_str(const char *xml, amc_ui_tree *t, amc_err *e)
{
	amc_err_clear(e);
	return amc_uitree_parse(xml, strlen(xml), t, e);
}

static inline int bounds_are(const amc_ui_node *n, int x1, int y1, int x2, int y2)
{
	return n->bounds.x1 == x1 && n->bounds.y1 == y1 && n->bounds.x2 == x2 && n->bounds.y2 == y2;
}

static inline const amc_ui_node *find_text(const amc_ui_tree *t, const char *text)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->nodes[i].text, text))
			return &t->nodes[i];
	return NULL;
}

/* An input amc_uitree_parse must refuse: AMC_EUSAGE, a message holding
 * `needle`, and nothing left in the tree. Four assertions. */
static inline void expect_refused(const char *xml, size_t len, const char *needle, const char *what)
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

#endif
