/* test_flow_suite.c - listing a folder of flows, tags, the JUnit report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "flow/flow_suite.h"
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
	const char *home = test_home("flow_suite");
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

	amc_suite s;
	amc_err e;
	ok(amc_suite_list(d, NULL, NULL, &s, &e) == 0, "list");
	is_int(s.n, 3, "three flows (not config.yaml, not readme.md)");
	if (s.n == 3) {
		like(s.v[0].path, "/b.yaml", "name order: b.yaml");
		is_str(s.v[0].name, "Bee", "name: from the config");
		is_int(s.v[0].ntags, 2, "its tags");
		like(s.v[1].path, "/c.yaml", "then c.yaml");
		is_str(s.v[1].name, "c.yaml", "no config: the file name");
		like(s.v[2].path, "/sub/a.yml", "then the sub-folder");
	}
	amc_suite_free(&s);
	ok(amc_suite_list(d, "smoke", NULL, &s, &e) == 0 && s.n == 1, "--include-tags smoke");
	amc_suite_free(&s);
	ok(amc_suite_list(d, "x,nightly", "smoke", &s, &e) == 0 && s.n == 1 &&
	   strstr(s.v[0].path, "a.yml"), "include a list, exclude one");
	if (s.n == 1) {
		s.v[0].ran = 1;
		s.v[0].passed = 0;
		s.v[0].message = strdup("step 1: \"x\" & <y>\x01");
		pathf(p, sizeof p, "%s/j.xml", home);
		ok(amc_suite_write_junit(&s, "suite", p, &e) == 0, "junit written");
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
	amc_suite_free(&s);
	ok(amc_suite_list("/nonexistent-dir", NULL, NULL, &s, &e) == -1 && e.code == AMC_EUSAGE,
	   "a missing folder");
	return done_testing();
}
