/* test_uitree.c - the UI tree's node model (uitree.c): building a tree node
 * by node, the flag table, freeing, and the stored JSON form. Reading device
 * XML is tested in test_uitree_xml.c and test_uitree_read.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/uitree.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"
#include "tap.h"
#include "testutil.h"
#include "uitree_test.h"

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

/* Nodes come out in document order, linked both ways, strings never NULL. */
static void test_builder(void)
{
	amc_ui_tree t;
	amc_uitree_builder b;
	amc_err e;
	memset(&t, 0, sizeof t);
	amc_uitree_builder_init(&b, &t);
	int r0 = amc_uitree_builder_add(&b, -1, &e);
	int c0 = amc_uitree_builder_add(&b, r0, &e);
	int c1 = amc_uitree_builder_add(&b, r0, &e);
	int g = amc_uitree_builder_add(&b, c1, &e);
	int r1 = amc_uitree_builder_add(&b, -1, &e);
	ok(r0 == 0 && c0 == 1 && c1 == 2 && g == 3 && r1 == 4 && t.count == 5, "indexes in the order added");
	if (t.count == 5) {
		const amc_ui_node *n = t.nodes;
		ok(n[0].parent == -1 && n[0].first_child == 1 && n[0].child_count == 2 && n[0].next_sibling == 4,
		   "root: two children, the second root as its sibling");
		ok(n[1].parent == 0 && n[1].next_sibling == 2 && n[1].first_child == -1 && n[1].index == 0,
		   "first child: linked to the second, index 0");
		ok(n[2].index == 1 && n[2].first_child == 3 && n[2].child_count == 1, "second child: index 1, one child");
		ok(n[3].depth == 2 && n[3].parent == 2 && n[3].next_sibling == -1, "grandchild at depth 2");
		ok(n[4].depth == 0 && n[4].parent == -1 && n[4].next_sibling == -1, "second root at depth 0, last");
		int empty = 1;
		for (size_t i = 0; i < t.count; i++)
			empty &= n[i].text && !n[i].text[0] && n[i].resource_id && !n[i].resource_id[0] &&
				 n[i].class_name && !n[i].class_name[0] && n[i].package && !n[i].package[0] &&
				 n[i].content_desc && !n[i].content_desc[0] && n[i].hint && !n[i].hint[0] &&
				 n[i].flags == 0;
		ok(empty, "new nodes: every string \"\", no flags");
		amc_uitree_set_str(&t.nodes[3].text, "Hello");
		is_str(t.nodes[3].text, "Hello", "set_str copies the value");
		amc_uitree_set_str(&t.nodes[3].text, NULL);
		is_str(t.nodes[3].text, "", "set_str(NULL) gives \"\", never NULL");
	}
	amc_uitree_builder_done(&b);
	ok(b.last_child == NULL, "done frees the bookkeeping");
	is_int(t.count, 5, "done leaves the tree");
	amc_uitree_free(&t);
	ok(t.count == 0 && t.nodes == NULL, "free empties the tree");
	amc_uitree_free(&t); /* twice, and NULL: both harmless */
	amc_uitree_free(NULL);

	/* Depth: the node at depth AMC_UITREE_MAX_DEPTH is refused. */
	amc_uitree_builder_init(&b, &t);
	int parent = -1, last = 0;
	for (int d = 0; d <= AMC_UITREE_MAX_DEPTH && last >= 0; d++) {
		amc_err_clear(&e);
		last = amc_uitree_builder_add(&b, parent, &e);
		if (last >= 0)
			parent = last;
	}
	is_int(last, -1, "a chain past the depth limit is refused");
	is_int((int)t.count, AMC_UITREE_MAX_DEPTH, "every level above the limit was kept");
	ok(e.code == AMC_EUSAGE && strstr(e.msg, "deeper than 256 levels"), "depth: AMC_EUSAGE naming the limit");
	amc_uitree_builder_done(&b);
	amc_uitree_free(&t);

	/* Count: AMC_UITREE_MAX_NODES roots, then no more. */
	amc_uitree_builder_init(&b, &t);
	int fine = 1;
	for (int i = 0; i < AMC_UITREE_MAX_NODES && fine; i++)
		fine = amc_uitree_builder_add(&b, -1, &e) == i;
	ok(fine && t.count == AMC_UITREE_MAX_NODES, "exactly the node limit is built");
	amc_err_clear(&e);
	is_int(amc_uitree_builder_add(&b, -1, &e), -1, "one more node is refused");
	ok(e.code == AMC_EUSAGE && strstr(e.msg, "more than 100000 nodes"), "count: AMC_EUSAGE naming the limit");
	ok(t.nodes[t.count - 1].next_sibling == -1 && t.nodes[0].next_sibling == 1, "the roots are one sibling chain");
	amc_uitree_builder_done(&b);
	amc_uitree_free(&t);
}

/* One table names the flags for JSON and maps the uiautomator attributes. */
static void test_lookup(void)
{
	is_int((int)amc_uitree_flag_by_name("long_clickable"), AMC_NODE_LONG_CLICKABLE, "JSON name long_clickable");
	is_int((int)amc_uitree_flag_by_attr("long-clickable"), AMC_NODE_LONG_CLICKABLE, "attribute long-clickable");
	is_int((int)amc_uitree_flag_by_attr("NAF"), AMC_NODE_NAF, "attribute NAF");
	is_int((int)amc_uitree_flag_by_name("naf"), AMC_NODE_NAF, "JSON name naf");
	is_int((int)amc_uitree_flag_by_name("displayed"), AMC_NODE_DISPLAYED, "displayed has a JSON name");
	is_int((int)amc_uitree_flag_by_attr("displayed"), 0, "but is derived, not read from an attribute");
	is_int((int)amc_uitree_flag_by_attr("long_clickable"), 0, "attribute names are not JSON names");
	is_int((int)amc_uitree_flag_by_name("future"), 0, "unknown name: 0");
	ok(amc_uitree_flag_by_name(NULL) == 0 && amc_uitree_flag_by_attr(NULL) == 0, "NULL: 0");
	int round = 1, bits = 0;
	for (unsigned f = 1; f <= AMC_NODE_NAF; f <<= 1) {
		char name[32];
		amc_uitree_flag_names(f, name, sizeof name);
		round &= name[0] && amc_uitree_flag_by_name(name) == f;
		bits++;
	}
	ok(round && bits == 12, "every flag's name leads back to it (%d flags)", bits);
	amc_err e;
	amc_err_clear(&e);
	is_int(amc_uitree_too_deep(&e), -1, "the depth refusal returns -1");
	ok(e.code == AMC_EUSAGE && strstr(e.msg, "nests deeper than 256 levels"), "and says which limit");
}

int main(void)
{
	test_json();
	test_flag_names();
	test_builder();
	test_lookup();
	return done_testing();
}
