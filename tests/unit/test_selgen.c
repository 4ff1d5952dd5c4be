/* test_selgen.c - selector honesty (flow/selgen.c): for every node of every
 * tree, the generated selector, run through amc's own selector engine
 * (flow/selector.c), finds exactly that node: without index: it is the only
 * match; with index: the index picks it. A node gets no selector only when
 * it is not displayed, has no id, text or content-desc, or is
 * indistinguishable (another node with the same id, text and bounds).
 *
 *   test_selgen [TREE...]   trees as uiautomator/XCUITest XML or amc's tree
 *                           JSON (recorded artifacts); tests/integration/
 *                           test_selgen.sh passes the trees of the bundled
 *                           flows' runs and ../shared/samples/uitree.
 * Without arguments: a built tree with duplicate texts and ids, and the
 * sample dumps when ../shared/samples/uitree is beside the source tree. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "flow/selector.h"
#include "flow/selgen.h"
#include "perception/uitree.h"
#include "tap.h"
#include "testutil.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"

static long n_trees, n_nodes, n_sel, n_index, n_child, n_hidden, n_bare, n_same, n_shadow, n_wrong, n_missed;

static int eq(const char *a, const char *b)
{
	return a && b && *a && !strcmp(a, b);
}

/* A descendant with the same text or id: the engine keeps the deepest match,
 * so the node itself is reachable only through containsChild. */
static int shadowed(const amc_ui_tree *t, size_t i)
{
	const amc_ui_node *n = &t->nodes[i];
	for (size_t k = i + 1; k < t->count; k++) {
		int p = t->nodes[k].parent, guard = 0;
		while (p >= 0 && p != (int)i && guard++ < 256)
			p = t->nodes[p].parent;
		if (p != (int)i)
			continue;
		const amc_ui_node *d = &t->nodes[k];
		if (eq(n->text, d->text) || eq(n->text, d->content_desc) || eq(n->content_desc, d->content_desc) ||
		    eq(n->content_desc, d->text) || eq(n->resource_id, d->resource_id))
			return 1;
	}
	return 0;
}

static int same_node(const amc_ui_node *a, const amc_ui_node *b)
{
	return !strcmp(a->text ? a->text : "", b->text ? b->text : "") &&
	       !strcmp(a->content_desc ? a->content_desc : "", b->content_desc ? b->content_desc : "") &&
	       !strcmp(a->resource_id ? a->resource_id : "", b->resource_id ? b->resource_id : "") &&
	       !memcmp(&a->bounds, &b->bounds, sizeof a->bounds);
}

static void check_tree(const amc_ui_tree *t, const char *name)
{
	long wrong0 = n_wrong, missed0 = n_missed;
	n_trees++;
	for (size_t i = 0; i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		n_nodes++;
		amc_selector s;
		if (amc_selgen_node(t, i, &s) == 0) {
			n_sel++;
			n_index += s.has_index;
			n_child += s.contains_child != NULL;
			/* checked again here, by the engine alone */
			int found = amc_selector_find(&s, t);
			int ok1 = found == (int)i;
			if (!s.has_index)
				ok1 = ok1 && amc_selector_count(&s, t) == 1;
			if (!ok1) {
				char *d = amc_selector_describe(&s);
				diag("%s: node %zu: %s finds node %d", name, i, d, found);
				free(d);
				n_wrong++;
			}
			amc_selgen_free(&s);
			continue;
		}
		if (!(n->flags & AMC_NODE_DISPLAYED)) {
			n_hidden++;
		} else if (!(n->text && *n->text) && !(n->content_desc && *n->content_desc) &&
			   !(n->resource_id && *n->resource_id)) {
			n_bare++;
		} else {
			int twin = 0;
			for (size_t k = 0; k < t->count && !twin; k++)
				twin = k != i && (t->nodes[k].flags & AMC_NODE_DISPLAYED) && same_node(n, &t->nodes[k]);
			if (twin) {
				n_same++;
			} else if (shadowed(t, i)) {
				diag("%s: node %zu (text '%s' id '%s'): a descendant has the same text or id and no child "
				     "within five levels names it", name, i, n->text ? n->text : "", n->resource_id ? n->resource_id : "");
				n_shadow++;
			} else {
				diag("%s: node %zu (text '%s' id '%s') got no selector", name, i, n->text ? n->text : "",
				     n->resource_id ? n->resource_id : "");
				n_missed++;
			}
		}
	}
	ok(n_wrong == wrong0 && n_missed == missed0, "%s: %zu nodes, every selector finds exactly its node", name, t->count);
}

static int load(const char *path, amc_ui_tree *t)
{
	char *text = NULL;
	size_t len;
	amc_err e = { 0 };
	int rc = -1;
	if (amc_read_file(path, AMC_UITREE_MAX_BYTES, &text, &len, &e) != 0)
		return -1;
	size_t pl = strlen(path);
	if (pl > 5 && !strcmp(path + pl - 5, ".json")) {
		cJSON *j = amc_json_parse(text, len, AMC_UITREE_MAX_BYTES, &e);
		rc = j ? amc_uitree_from_json(j, t, &e) : -1;
		cJSON_Delete(j);
	} else {
		rc = amc_uitree_parse(text, len, t, &e);
	}
	free(text);
	if (rc != 0)
		diag("%s: %s", path, e.msg);
	return rc;
}

static void check_file(const char *path)
{
	amc_ui_tree t = { 0 };
	if (!ok(load(path, &t) == 0, "read %s", path))
		return;
	const char *base = strrchr(path, '/');
	char name[256];
	/* recorded trees are TASK/obs-N-tree.json: name them by both */
	if (base && base > path) {
		const char *p = base - 1;
		while (p > path && p[-1] != '/')
			p--;
		snprintf(name, sizeof name, "%.*s%s", (int)(base - p), p, base);
	} else {
		snprintf(name, sizeof name, "%s", path);
	}
	check_tree(&t, name);
	amc_uitree_free(&t);
}

/* A list of three rows with the same text, two fields with the same id, a
 * node with nothing to select it by and a hidden one. */
static void check_built(void)
{
	const char *xml =
		"<?xml version='1.0' encoding='UTF-8'?><hierarchy rotation=\"0\">"
		"<node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" package=\"p\" "
		"content-desc=\"\" clickable=\"false\" enabled=\"true\" bounds=\"[0,0][1080,2400]\" displayed=\"true\">"
		"<node index=\"0\" text=\"Item (1)\" resource-id=\"p:id/row\" class=\"android.widget.TextView\" package=\"p\" "
		"content-desc=\"\" clickable=\"true\" enabled=\"true\" bounds=\"[0,100][1080,200]\" />"
		"<node index=\"1\" text=\"Item (1)\" resource-id=\"p:id/row\" class=\"android.widget.TextView\" package=\"p\" "
		"content-desc=\"\" clickable=\"true\" enabled=\"true\" bounds=\"[0,200][1080,300]\" />"
		"<node index=\"2\" text=\"Item (1)\" resource-id=\"p:id/other\" class=\"android.widget.TextView\" package=\"p\" "
		"content-desc=\"\" clickable=\"true\" enabled=\"true\" bounds=\"[0,300][1080,400]\" />"
		"<node index=\"3\" text=\"\" resource-id=\"\" class=\"android.view.View\" package=\"p\" "
		"content-desc=\"Menu.*\" clickable=\"true\" enabled=\"true\" bounds=\"[0,400][100,500]\" />"
		"<node index=\"4\" text=\"\" resource-id=\"\" class=\"android.view.View\" package=\"p\" "
		"content-desc=\"\" clickable=\"true\" enabled=\"true\" bounds=\"[0,500][100,600]\" />"
		"</node></hierarchy>";
	amc_ui_tree t = { 0 };
	amc_err e = { 0 };
	if (!ok(amc_uitree_parse(xml, strlen(xml), &t, &e) == 0, "the built tree parses: %s", e.msg))
		return;
	long sel0 = n_sel, idx0 = n_index, bare0 = n_bare;
	check_tree(&t, "built");
	is_int(n_sel - sel0, 5, "built: the three rows, the menu and the root (containsChild) get selectors");
	ok(n_index - idx0 >= 1, "built: a repeated text and id needs an index (%ld)", n_index - idx0);
	is_int(n_bare - bare0, 1, "built: the leaf with no id, text or description gets none, counted as such");
	amc_selector s;
	int rc = amc_selgen_node(&t, 4, &s);
	ok(rc == 0 && s.text && !strcmp(s.text, "Menu\\.\\*") && !s.id,
	   "a content-desc with regex characters is escaped: %s", s.text ? s.text : "(none)");
	amc_sb y;
	amc_sb_init(&y);
	amc_selgen_yaml(&s, &y);
	is_str(amc_sb_str(&y), "{text: \"Menu\\\\.\\\\*\"}", "as a flow mapping, YAML-quoted (the picker's form)");
	amc_sb_free(&y);
	amc_selgen_free(&s);
	amc_selector r;
	amc_sb_init(&y);
	if (amc_selgen_node(&t, 0, &r) == 0)
		amc_selgen_yaml(&r, &y);
	ok(!strncmp(amc_sb_str(&y), "{containsChild: {", 17), "the root, through containsChild: %s", amc_sb_str(&y));
	amc_sb_free(&y);
	amc_selgen_free(&r);
	amc_uitree_free(&t);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			check_file(argv[i]);
	} else {
		check_built();
		const char *dir = test_src("../shared/samples/uitree");
		DIR *d = opendir(dir);
		if (d) {
			struct dirent *de;
			while ((de = readdir(d))) {
				size_t l = strlen(de->d_name);
				if (l > 4 && !strcmp(de->d_name + l - 4, ".xml")) {
					char p[4096];
					snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
					check_file(p);
				}
			}
			closedir(d);
		} else {
			diag("no %s: the sample dumps are not checked here", dir);
		}
	}
	diag("selectors: %ld trees, %ld nodes: %ld selectors (%ld with index, %ld through containsChild), all "
	     "checked with the engine; %ld wrong; no selector: %ld not displayed, %ld with no id/text/description "
	     "(nor a child that has one), %ld indistinguishable twins, %ld shadowed by a descendant, %ld missed",
	     n_trees, n_nodes, n_sel, n_index, n_child, n_wrong, n_hidden, n_bare, n_same, n_shadow, n_missed);
	is_int(n_wrong, 0, "no generated selector finds another node");
	is_int(n_missed, 0, "every displayed node with an id, text or description got a selector");
	return done_testing();
}
