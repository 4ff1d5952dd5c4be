/* test_stored_tree.c - a recorded UI tree read back from its artifact: the
 * tree the runner stored comes back whole; a missing, escaping, oversized or
 * malformed file is an error that says so, never a crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/stored_tree.h"
#include "tap.h"
#include "testutil.h"
#include "util/jsonutil.h"

static const char ID[] = "7000000000000002";
static const char XML[] =
	"<?xml version='1.0' encoding='UTF-8'?><hierarchy rotation=\"0\">"
	"<node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" package=\"p\" "
	"bounds=\"[0,0][1080,2400]\"><node index=\"0\" text=\"Wi-Fi\" resource-id=\"android:id/title\" "
	"class=\"android.widget.TextView\" package=\"p\" clickable=\"true\" bounds=\"[0,100][1080,200]\"/></node>"
	"</hierarchy>";

int main(void)
{
	const char *home = test_home("stored_tree");
	amc_store *s = NULL;
	amc_err e = { 0 };
	if (amc_store_open(home, &s, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	amc_ui_tree t, back;
	ok(amc_uitree_parse(XML, strlen(XML), &t, &e) == 0, "a UI dump parses: %s", e.msg);
	cJSON *j = amc_uitree_to_json(&t);
	char *text = amc_json_print(j);
	char rel[256];
	ok(amc_store_put_artifact(s, ID, "obs-0001-tree.json", text, strlen(text), rel, sizeof rel, &e) == 0,
	   "stored as the runner stores it");
	ok(amc_stored_tree_load(s, rel, &back, &e) == 0, "read back: %s", e.msg);
	is_int((int)back.count, (int)t.count, "every node");
	int same = back.count == t.count;
	for (size_t i = 0; same && i < t.count; i++)
		same = back.nodes[i].depth == t.nodes[i].depth && back.nodes[i].bounds.y1 == t.nodes[i].bounds.y1 &&
		       !strcmp(back.nodes[i].text ? back.nodes[i].text : "", t.nodes[i].text ? t.nodes[i].text : "");
	ok(same, "with its depth, bounds and text");
	amc_uitree_free(&back);
	free(text);
	cJSON_Delete(j);
	amc_uitree_free(&t);

	memset(&e, 0, sizeof e);
	ok(amc_stored_tree_load(s, NULL, &back, &e) == -1 && strstr(e.msg, "no UI tree recorded"), "no path: says so");
	ok(amc_stored_tree_load(s, "artifacts/7000000000000002/none.json", &back, &e) == -1 && e.msg[0],
	   "a missing file: an error (%s)", e.msg);
	ok(amc_stored_tree_load(s, "../../etc/passwd", &back, &e) == -1 && e.msg[0],
	   "a path out of the artifacts folder is refused (%s)", e.msg);
	ok(amc_store_put_artifact(s, ID, "bad-tree.json", "{\"nodes\": 7", 11, rel, sizeof rel, &e) == 0, "a cut file");
	ok(amc_stored_tree_load(s, rel, &back, &e) == -1 && e.msg[0], "is not a tree (%s)", e.msg);
	ok(amc_store_put_artifact(s, ID, "odd-tree.json", "[1,2,3]", 7, rel, sizeof rel, &e) == 0, "JSON of another shape");
	ok(amc_stored_tree_load(s, rel, &back, &e) == -1 && e.msg[0], "is not a tree either (%s)", e.msg);
	amc_store_close(s);
	return done_testing();
}
