/* test_flow_folder.c - listing a folder of flows as Maestro's
 * WorkspaceExecutionPlanner does (config.yaml's flows globs, tags,
 * executionOrder), the JUnit report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "flow/flow_folder.h"
#include "tap.h"
#include "testutil.h"

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int main(void)
{
	const char *home = test_home("flow_folder");
	char d[PATH_MAX], p[PATH_MAX];
	pathf(d, sizeof d, "%s/s", home);
	mkdir(d, 0700);
	pathf(p, sizeof p, "%s/sub", d);
	mkdir(p, 0700);
	pathf(p, sizeof p, "%s/b.yaml", d);
	put(p, "appId: x\nname: Bee\ntags: [smoke, nightly]\n---\n- back\n");
	pathf(p, sizeof p, "%s/sub/a.yml", d);
	put(p, "appId: x\ntags:\n  - nightly\n---\n- back\n");
	pathf(p, sizeof p, "%s/c.yaml", d);
	put(p, "- back\n");
	pathf(p, sizeof p, "%s/config.yaml", d);
	put(p, "flows: ['*']\n");
	pathf(p, sizeof p, "%s/readme.md", d);
	put(p, "x\n");

	amc_flow_folder s;
	amc_err e;
	ok(amc_flow_folder_list(d, NULL, NULL, &s, &e) == 0, "list");
	is_int(s.n, 2, "flows: ['*']: the top-level flows only (not config.yaml, not readme.md), as Maestro");
	if (s.n == 2) {
		like(s.v[0].path, "/b.yaml", "name order: b.yaml");
		is_str(s.v[0].name, "Bee", "name: from the config");
		is_int(s.v[0].ntags, 2, "its tags");
		like(s.v[1].path, "/c.yaml", "then c.yaml");
		is_str(s.v[1].name, "c.yaml", "no config: the file name");
	}
	amc_flow_folder_free(&s);
	pathf(p, sizeof p, "%s/config.yaml", d);
	put(p, "flows: ['sub/*']\n");
	ok(amc_flow_folder_list(d, NULL, NULL, &s, &e) == 0 && s.n == 1 && strstr(s.v[0].path, "/sub/a.yml"),
	   "flows: ['sub/*']: the sub-folder's");
	amc_flow_folder_free(&s);
	put(p, "flows: ['nothing/*']\n");
	ok(amc_flow_folder_list(d, NULL, NULL, &s, &e) == -1, "patterns that match nothing: an error");
	like(e.msg, "config.yaml match no flow file", "saying so");
	put(p, "flows:\n  - '**'\nexcludeTags: [smoke]\nexecutionOrder:\n  continueOnFailure: false\n"
	       "  flowsOrder: [c, a]\n");
	ok(amc_flow_folder_list(d, NULL, NULL, &s, &e) == 0 && s.n == 2, "'**': every flow below; excludeTags drops b");
	if (s.n == 2) {
		like(s.v[0].path, "/c.yaml", "executionOrder: c first");
		like(s.v[1].path, "/sub/a.yml", "then a (its file name without .yml)");
		ok(s.v[0].in_order && s.v[1].in_order && !s.continue_on_failure, "in order, continueOnFailure false");
	}
	amc_flow_folder_free(&s);
	put(p, "executionOrder: {flowsOrder: [zz]}\n");
	ok(amc_flow_folder_list(d, NULL, NULL, &s, &e) == -1, "flowsOrder naming no flow: an error");
	like(e.msg, "flowsOrder names 'zz'", "naming it");
	remove(p);
	pathf(p, sizeof p, "%s/sub", d);
	ok(amc_flow_folder_list(p, NULL, NULL, &s, &e) == 0 && s.n == 1, "no config.yaml: the top level");
	amc_flow_folder_free(&s);
	pathf(p, sizeof p, "%s/config.yaml", d);
	put(p, "flows: ['**']\n");
	ok(amc_flow_folder_list(d, "smoke", NULL, &s, &e) == 0 && s.n == 1, "--include-tags smoke");
	amc_flow_folder_free(&s);
	ok(amc_flow_folder_list(d, "nothing", NULL, &s, &e) == -1, "tags that match nothing: an error");
	like(e.msg, "matches the tags", "saying so");
	amc_flow_folder_free(&s);
	ok(amc_flow_folder_list(d, "x,nightly", "smoke", &s, &e) == 0 && s.n == 1 &&
	   strstr(s.v[0].path, "a.yml"), "include a list, exclude one");
	if (s.n == 1) {
		s.v[0].ran = 1;
		s.v[0].passed = 0;
		s.v[0].message = strdup("step 1: \"x\" & <y>\x01");
		pathf(p, sizeof p, "%s/j.xml", home);
		ok(amc_flow_folder_write_junit(&s, "suite", p, &e) == 0, "junit written");
		char *x = NULL;
		size_t n = 0;
		FILE *f = fopen(p, "r");
		if (f) {
			x = calloc(1, 4096);
			n = fread(x, 1, 4095, f);
			fclose(f);
		}
		ok(n > 0, "junit read back");
		like(x ? x : "", "tests=\"1\" failures=\"1\"", "counts");
		like(x ? x : "", "message=\"step 1: &quot;x&quot; &amp; &lt;y&gt;?\"", "escaped, no control bytes");
		free(x);
	}
	amc_flow_folder_free(&s);
	ok(amc_flow_folder_list("/nonexistent-dir", NULL, NULL, &s, &e) == -1 && e.code == AMC_EUSAGE,
	   "a missing folder");
	/* An empty folder leaves the name list NULL: it is not sorted (qsort's
	 * base must not be NULL, even for 0 items; the sanitizer build checks). */
	pathf(p, sizeof p, "%s/empty", home);
	mkdir(p, 0700);
	ok(amc_flow_folder_list(p, NULL, NULL, &s, &e) == -1 && e.code == AMC_EUSAGE, "an empty folder: an error");
	like(e.msg, "has no top-level flows", "  saying there is no flow");
	amc_flow_folder_free(&s);
	return done_testing();
}
