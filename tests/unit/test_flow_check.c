/* test_flow_check.c - flow_check.c as a library: problems, kinds, counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planner/flow_check.h"
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

static size_t count_kind(const amc_check_report *r, amc_check_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		n += r->v[i].kind == k;
	return n;
}

/* Over 120 lines: a list of small flows and what check says of each. */
int main(void)
{
	const char *home = test_home("flow_check");
	char dir[PATH_MAX], p[PATH_MAX];
	pathf(dir, sizeof dir, "%s/flows", home);
	mkdir(dir, 0700);
	amc_script *js;
	amc_err e;
	amc_err_clear(&e);
	const char *h = getenv("AMC_JS");
	if (amc_script_open(h && *h ? h : AMC_ABS_BUILDDIR "/amc-js", NULL, &js, &e) != 0) {
		ok(0, "open the engine: %s", e.msg);
		return done_testing();
	}
	pathf(p, sizeof p, "%s/a.yaml", dir);
	put(p, "appId: x\n---\n- launchApp\n- inputText: ${NAME}\n");
	pathf(p, sizeof p, "%s/b.yml", dir);
	put(p, "appId: x\n---\n- launchApp\n- tapOn: \"ok\"\n");
	pathf(p, sizeof p, "%s/c.yaml", dir);
	put(p, "appId: x\n---\n- launchApp\n- inputText: ${1 +}\n");
	pathf(p, sizeof p, "%s/config.yaml", dir);
	put(p, "flows:\n  - '*'\n");
	pathf(p, sizeof p, "%s/notes.txt", dir);
	put(p, "not a flow\n");

	amc_check_opts o = { .device_kind = "adb", .js = js };
	amc_check_report r = { 0 };
	ok(amc_flow_check_path(dir, &o, &r, &e) == 0, "a folder checks");
	is_int(r.files, 3, "its .yaml/.yml flows, not config.yaml or other files");
	is_int(r.clean, 2, "two would run (one with a needs-env warning)");
	is_int(r.warned, 1, "one of them warned about an undefined name");
	is_int(r.lacking, 0, "none lacks a file");
	is_int(count_kind(&r, AMC_CHECK_NEEDS_ENV), 1, "needs-env");
	is_int(count_kind(&r, AMC_CHECK_SCRIPT), 1, "a script problem");
	for (size_t i = 0; i < r.n; i++)
		if (r.v[i].kind == AMC_CHECK_NEEDS_ENV) {
			is_int(r.v[i].line, 4, "needs-env: its line");
			is_int(r.v[i].col, 14, "needs-env: its column");
			like(r.v[i].msg, "warning: ${NAME} is not defined", "needs-env: a warning naming it");
			like(r.v[i].msg, "give it with -e NAME=VALUE", "needs-env: how to give it");
		}
	amc_check_report_free(&r);

	const char *defined[] = { "NAME", NULL };
	o.defined = defined;
	pathf(p, sizeof p, "%s/a.yaml", dir);
	ok(amc_flow_check_path(p, &o, &r, &e) == 0 && r.n == 0 && r.clean == 1, "-e NAME defines it");
	amc_check_report_free(&r);

	pathf(p, sizeof p, "%s/none.yaml", dir);
	ok(amc_flow_check_path(p, &o, &r, &e) == -1 && e.code == AMC_EUSAGE, "a missing path");
	ok(r.n == 1 && r.files == 1 && r.clean == 0, "counted as a refused file");
	amc_check_report_free(&r);
	is_str(amc_check_kind_name(AMC_CHECK_MISSING_FILE), "missing-file", "kind names");
	is_str(amc_check_kind_name(AMC_CHECK_NEEDS_MODEL), "needs-model", "needs-model's name");

	/* An AI command without a model is an external input (Maestro's is
	 * MAESTRO_CLI_AI_KEY, Orchestra's AINotAvailable): counted with the files
	 * that only lack inputs, not refused (pass-culture, PlexHubTV). */
	char ai[PATH_MAX];
	pathf(ai, sizeof ai, "%s/ai", home);
	mkdir(ai, 0700);
	pathf(p, sizeof p, "%s/ai/ai.yaml", home);
	put(p, "appId: x\n---\n- launchApp\n- assertNoDefectsWithAI\n- extractTextWithAI: {query: q, outputVariable: v}\n");
	o.defined = NULL;
	o.device_check = amc_flow_device_problems;
	ok(amc_flow_check_path(ai, &o, &r, &e) == 0, "a flow with AI commands checks");
	is_int(count_kind(&r, AMC_CHECK_NEEDS_MODEL), 2, "each AI command: needs-model");
	is_int(count_kind(&r, AMC_CHECK_DEVICE), 0, "not a device problem");
	ok(r.files == 1 && r.clean == 0 && r.lacking == 1, "the file only lacks an external input");
	if (r.n)
		like(r.v[0].msg, "needs a model (an external input, as Maestro needs MAESTRO_CLI_AI_KEY)", "  said so");
	amc_check_report_free(&r);
	o.device_check = amc_flow_device_problems_with_model;
	ok(amc_flow_check_path(ai, &o, &r, &e) == 0 && r.n == 0 && r.clean == 1, "with a model: clean");
	amc_check_report_free(&r);
	o.device_check = NULL;

	/* mattermost-mobile runs a TypeScript file with import: GraalJS
	 * evaluates runScript files as plain scripts, so Maestro refuses it too. */
	pathf(p, sizeof p, "%s/ts", home);
	mkdir(p, 0700);
	pathf(p, sizeof p, "%s/ts/poll.ts", home);
	put(p, "import http from 'http';\nconst x: number = 1;\n");
	pathf(p, sizeof p, "%s/ts/ts.yaml", home);
	put(p, "appId: x\n---\n- launchApp\n- runScript: poll.ts\n");
	ok(amc_flow_check_path(p, &o, &r, &e) == 0 && count_kind(&r, AMC_CHECK_SCRIPT) == 1,
	   "a .ts runScript: a script problem");
	if (r.n)
		like(r.v[0].msg, "(Maestro refuses it too: runScript evaluates the file as a plain JavaScript script, "
		     "not TypeScript or an ES module)", "  Maestro refuses it too");
	amc_check_report_free(&r);

	/* faker (Maestro 2.0's DataFaker object) is one of the engine's names: no warning */
	pathf(p, sizeof p, "%s/ts/faker.yaml", home);
	put(p, "appId: x\n---\n- launchApp\n- inputText: ${faker.name().firstName()}\n");
	ok(amc_flow_check_path(p, &o, &r, &e) == 0 && r.n == 0 && r.clean == 1, "faker is defined, as in Maestro");
	amc_check_report_free(&r);

	/* What Maestro reads and then ignores is a warning at its line, never
	 * silent: a swipe option YamlSwipeDeserializer skips (maestro-orchestra
	 * yaml/YamlSwipe.kt) and a config key YamlConfig's @JsonAnySetter keeps in
	 * ext; the flow stays clean. */
	pathf(p, sizeof p, "%s/ts/ignored.yaml", home);
	put(p, "appId: x\ndescription: a test\n---\n- launchApp\n- swipe:\n    direction: DOWN\n    percentage: 50\n");
	ok(amc_flow_check_path(p, &o, &r, &e) == 0 && r.clean == 1 && r.warned == 1, "ignored parts: clean, warned");
	ok(r.n == 2 && count_kind(&r, AMC_CHECK_IGNORED) == 2, "one warning each (%zu problems)", r.n);
	if (r.n == 2) {
		is_int(r.v[0].line, 2, "  the config key at its line");
		like(r.v[0].msg, "warning: description ignored (not a Maestro key", "  said why");
		is_int(r.v[1].line, 7, "  the swipe option at its line");
		like(r.v[1].msg, "warning: swipe percentage ignored (not a swipe option: Maestro's "
		     "YamlSwipeDeserializer", "  said why");
	}
	amc_check_report_free(&r);

	/* a flow given as text (run_task's check_only): named by its label, the
	 * files it names found from the current folder */
	memset(&r, 0, sizeof r);
	pathf(p, sizeof p, "%s/flows", home);
	char cwd[PATH_MAX];
	ok(getcwd(cwd, sizeof cwd) && chdir(p) == 0, "into the flows' folder");
	const char *txt = "appId: x\n---\n- launchApp\n- runFlow: b.yml\n- runFlow: nope.yaml\n- fly: 1\n";
	ok(amc_flow_check_text(txt, strlen(txt), "the flow text you sent", &o, &r, &e) == 0, "a flow text checks");
	is_int(r.files, 1, "as one flow");
	ok(r.n == 2 && count_kind(&r, AMC_CHECK_MISSING_FILE) == 1 && count_kind(&r, AMC_CHECK_INVALID) == 1,
	   "the missing sub-flow and the unknown command; b.yml is found from the current folder (%zu problems)", r.n);
	ok(r.n && !strcmp(r.v[0].file, "the flow text you sent"), "problems name the text by its label");
	cJSON *j = amc_check_report_json(&r);
	const cJSON *pr = cJSON_GetObjectItemCaseSensitive(j, "problems");
	is_int(cJSON_GetArraySize(pr), 2, "the --json document lists them");
	const cJSON *p0 = cJSON_GetArrayItem(pr, 0);
	ok(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(p0, "line")) &&
	   cJSON_IsString(cJSON_GetObjectItemCaseSensitive(p0, "severity")) &&
	   cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(j, "lacking")), "with line, severity and the counts");
	cJSON_Delete(j);
	j = amc_check_problems_json(&r, 1);
	is_int(cJSON_GetArraySize(j), 1, "the problems array cut at its bound");
	cJSON_Delete(j);
	ok(chdir(cwd) == 0, "back");
	amc_check_report_free(&r);
	/* An empty folder leaves the name list NULL: it is not sorted (qsort's
	 * base must not be NULL, even for 0 items; the sanitizer build checks). */
	pathf(p, sizeof p, "%s/empty", home);
	mkdir(p, 0700);
	ok(amc_flow_check_path(p, &o, &r, &e) == 0 && r.n == 0, "an empty folder: nothing to say");
	amc_check_report_free(&r);
	amc_script_close(js);
	return done_testing();
}
