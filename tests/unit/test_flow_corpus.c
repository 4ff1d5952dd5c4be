/* test_flow_corpus.c - real Maestro flows from public repositories (third-party
 * data beside the checkout: $AMC_TEST_SRCDIR/../shared/corpus/maestro, or
 * $AMC_MAESTRO_CORPUS; never copied into the repository). Every file parses
 * except the two Maestro itself rejects (one not valid YAML, one with
 * `optional:` beside `tapOn`), each refused with its line. The sub-flows they
 * name were not collected with them: missing files are counted, not errors.
 * Prints the figures: how many parse, use JavaScript (run by amc-js), pass
 * the sim's and adb's device checks (the check made before a run). */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow.h"
#include "tap.h"
#include "testutil.h"
#include "util/strbuf.h"

static int missing;
static void on_missing(void *ud, const char *flow_path, int line, const char *cmd, const char *path)
{
	(void)ud;
	(void)flow_path;
	(void)line;
	(void)cmd;
	(void)path;
	missing++;
}

static int disk(void *ud, const char *path, char **text, size_t *len, amc_err *e)
{
	(void)ud;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 1;
	fclose(f);
	return amc_flow_read(path, text, len, e);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	char dir[PATH_MAX];
	const char *env = getenv("AMC_MAESTRO_CORPUS");
	if (env && *env)
		snprintf(dir, sizeof dir, "%s", env);
	else
		snprintf(dir, sizeof dir, "%s", test_src("../shared/corpus/maestro"));
	DIR *d = opendir(dir);
	if (!d) {
		printf("1..0 # SKIP no Maestro corpus at %s (set AMC_MAESTRO_CORPUS)\n", dir);
		return 0;
	}
	char **names = NULL;
	size_t n = 0;
	for (struct dirent *de; (de = readdir(d));) {
		size_t l = strlen(de->d_name);
		if ((l > 5 && !strcmp(de->d_name + l - 5, ".yaml")) || (l > 4 && !strcmp(de->d_name + l - 4, ".yml"))) {
			names = amc_xrealloc(names, (n + 1) * sizeof *names);
			names[n++] = amc_xstrdup(de->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp);

	int parsed = 0, js = 0, sim_ok = 0, adb_ok = 0, with_missing = 0;
	int refused_yaml = 0, refused_optional = 0, unexpected = 0;
	for (size_t i = 0; i < n; i++) {
		char path[2 * PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		amc_flow f;
		amc_err e;
		if (amc_flow_load(path, &f, &e) != 0) {
			if (strstr(names[i], "sync-manual-trigger") && strstr(e.msg, ":46:") && strstr(e.msg, "malformed YAML"))
				refused_yaml++;
			else if (strstr(names[i], "add-patient-vitals") && strstr(e.msg, ":26:") &&
				 strstr(e.msg, "exactly one key"))
				refused_optional++;
			else {
				unexpected++;
				diag("refused: %s", e.msg);
			}
			continue;
		}
		int before = missing;
		amc_flow_loader ld = { disk, on_missing, NULL };
		if (amc_flow_resolve(&f, &ld, &e) != 0) {
			unexpected++;
			diag("resolve: %s", e.msg);
			amc_flow_free(&f);
			continue;
		}
		parsed++;
		with_missing += missing > before;
		char where[256];
		int needs = amc_flow_needs_js(&f, where, sizeof where);
		js += needs;
		if (amc_flow_check_device(&f, "sim", &e) == 0)
			sim_ok++;
		if (amc_flow_check_device(&f, "adb", &e) == 0)
			adb_ok++;
		amc_flow_free(&f);
	}
	diag("Maestro corpus: %d of %zu files parse (%d name sub-flows the corpus lacks; %d use JavaScript, "
	     "run by amc-js; %d pass the sim's device check, %d adb's); refused as Maestro does: %d not YAML, "
	     "%d optional beside tapOn", parsed, n, with_missing, js, sim_ok, adb_ok, refused_yaml, refused_optional);
	ok(n >= 50, "the corpus has its files (%zu)", n);
	is_int(unexpected, 0, "no file refused that Maestro runs");
	is_int(refused_yaml, 1, "the file that is not valid YAML is refused with its line (46)");
	is_int(refused_optional, 1, "`optional:` beside tapOn is refused with its line (26)");
	is_int(parsed, (int)n - 2, "every other file parses");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return done_testing();
}
