/* test_mcp_check.c - a client's flow before it runs (mcp_check.c): text or
 * path, the irreversible-tap gate by line, and run_task's check_only result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp_check.h"
#include "tap.h"
#include "testutil.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"

static const cJSON *problem(const cJSON *r, const char *kind)
{
	const cJSON *p;
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"),
							       "problems")) {
		const char *k = amc_json_str(p, "kind");
		if (k && !strcmp(k, kind))
			return p;
	}
	return NULL;
}

static const char *st_str(const cJSON *r, const char *k)
{
	return amc_json_str(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), k);
}

int main(void)
{
	const char *home = test_home("mcp_check");
	/* the engine next to this test is the build's amc-js (as test_flow_check finds it) */
	if (!getenv("AMC_JS") || !*getenv("AMC_JS"))
		setenv("AMC_JS", AMC_ABS_BUILDDIR "/amc-js", 1);
	amc_config *cfg;
	amc_err e;
	if (amc_config_load(&cfg, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	char path[PATH_MAX];
	pathf(path, sizeof path, "%s/f.yaml", home);
	FILE *f = fopen(path, "w");
	fputs("appId: x\n---\n- launchApp\n", f);
	fclose(f);
	ok(amc_mcp_flow_is_text("appId: x\n---\n- launchApp\n"), "YAML with line breaks is text");
	ok(!amc_mcp_flow_is_text(path), "a file's path is a path");
	ok(!amc_mcp_flow_is_text("flows/login.yaml"), "a path that does not exist (yet) is a path too");

	/* the gate: taps only, by line; comments and other commands pass */
	const char *del = "appId: x\n---\n# tapOn: Delete\n- inputText: Delete me\n- tapOn:\n    text: \"Delete\"\n";
	int line = 0;
	e.msg[0] = 0;
	ok(amc_mcp_flow_gate(del, "the flow text you sent", &line, &e) == -1, "a tap on Delete is refused");
	is_int(line, 6, "at the line that names it (under tapOn:)");
	like(e.msg, "line 6 of the flow text you sent", "the message names the line and the flow");
	ok(amc_mcp_flow_gate("appId: x\n---\n- inputText: Delete\n- tapOn: OK\n", "t", &line, &e) == 0,
	   "typing the word is no tap: it passes");

	/* clearState erases an app's data: the command, launchApp's key in either
	 * style, any value but false; a comment or clearState: false passes */
	const char *clears[] = { "- clearState\n", "- clearState: com.x\n", "- launchApp:\n    clearState: true\n",
				 "- launchApp: {appId: x, clearState: ${WIPE}}\n", "- launchApp:\n    clearState: \"true\"\n" };
	for (size_t i = 0; i < sizeof clears / sizeof *clears; i++) {
		char t[256];
		snprintf(t, sizeof t, "appId: x\n---\n%s", clears[i]);
		e.msg[0] = 0;
		ok(amc_mcp_flow_gate(t, "t", &line, &e) == -1 && strstr(e.msg, "erases an app's data ('clearState')"),
		   "clearState form %zu refused: %s", i, e.msg);
	}
	const char *keeps[] = { "- launchApp:\n    clearState: false\n", "- launchApp: {appId: x, clearState: false}\n",
				"- back # then clearState\n", "# - clearState\n", "- inputText: noclearStateHere\n" };
	for (size_t i = 0; i < sizeof keeps / sizeof *keeps; i++) {
		char t[256];
		snprintf(t, sizeof t, "appId: x\n---\n%s", keeps[i]);
		ok(amc_mcp_flow_gate(t, "t", &line, &e) == 0, "no clearState in form %zu: passes", i);
	}

	/* run_task {flow, check_only}: no device, no task; the gate without --yes */
	amc_mcp_opts o = { .home = home, .cfg = cfg };
	cJSON *args = cJSON_CreateObject();
	amc_mcp_call c = { .o = &o, .args = args };
	cJSON *r = amc_mcp_check_flow(&c, "sim:0", del);
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(r, "structuredContent");
	ok(sc && cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(sc, "task")), "check_only: task is null (none created)");
	is_str(st_str(r, "status"), "refused", "refused: run_task would stop at its tap");
	const cJSON *g = problem(r, "needs-confirmation");
	ok(g && amc_json_int(g, "line", 0) == 6 && !strcmp(amc_json_str(g, "severity"), "error"), "the gate's finding, line 6");
	like(amc_json_str(g, "message"), "run_task would refuse it", "  saying run_task would refuse it");
	ok(!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "isError")), "a finding is a result, not a tool error");
	cJSON_Delete(r);
	o.assume_yes = 1;
	r = amc_mcp_check_flow(&c, "sim:0", del);
	is_str(st_str(r, "status"), "clean", "with --yes the same flow is clean");
	ok(!problem(r, "needs-confirmation"), "  no gate finding");
	cJSON_Delete(r);

	/* the device kind: adb cannot fake a location */
	r = amc_mcp_check_flow(&c, "adb:emulator-5554", "appId: x\n---\n- setLocation:\n    latitude: 1\n    longitude: 2\n");
	is_str(st_str(r, "status"), "refused", "setLocation on an adb phone: refused");
	ok(problem(r, "device") != NULL, "  as what the device kind cannot do");
	like(st_str(r, "summary"), "device kind adb", "  the summary names the kind");
	cJSON_Delete(r);
	r = amc_mcp_check_flow(&c, "sim:0", "appId: x\n---\n- setLocation:\n    latitude: 1\n    longitude: 2\n");
	is_str(st_str(r, "status"), "clean", "on the sim it runs");
	cJSON_Delete(r);

	/* a missing sub-flow lacks an input; a path is read like a text */
	r = amc_mcp_check_flow(&c, "sim:0", "appId: x\n---\n- runFlow: nowhere.yaml\n");
	is_str(st_str(r, "status"), "lacking", "a missing sub-flow: lacking, not refused");
	cJSON_Delete(r);
	r = amc_mcp_check_flow(&c, "sim:0", path);
	is_str(st_str(r, "status"), "clean", "a flow file by path: clean");
	cJSON_Delete(r);
	r = amc_mcp_check_flow(&c, "sim:0", "/nonexistent/flow.yaml");
	is_str(st_str(r, "status"), "refused", "a path that is not there: refused");
	cJSON_Delete(r);

	/* many problems: the list stays bounded, the summary says so */
	amc_sb big;
	amc_sb_init(&big);
	amc_sb_puts(&big, "appId: x\n---\n");
	for (int i = 0; i < AMC_MCP_CHECK_PROBLEMS_MAX + 20; i++)
		amc_sb_puts(&big, "- fly: 1\n");
	r = amc_mcp_check_flow(&c, "sim:0", amc_sb_str(&big));
	int np = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "problems"));
	ok(np >= 1 && np <= AMC_MCP_CHECK_PROBLEMS_MAX, "problems bounded (%d)", np);
	cJSON_Delete(r);
	amc_sb_free(&big);
	cJSON_Delete(args);
	amc_config_free(cfg);
	return done_testing();
}
