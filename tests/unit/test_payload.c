/* test_payload.c - fleet/payload.c: a goal's and a flow bundle's payload are
 * built and read back; every check of a payload read from the database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/payload.h"
#include "tap.h"
#include "testutil.h"
#include "util/strbuf.h"

static int parse(const char *s, amc_fleet_payload *p, amc_err *e)
{
	return amc_fleet_payload_parse(s, strlen(s), p, e);
}

static void refused(const char *s, const char *why, const char *name)
{
	amc_fleet_payload p;
	amc_err e;
	amc_err_clear(&e);
	ok(parse(s, &p, &e) == -1, "refused: %s", name);
	like(e.msg, why, "the message says why (%s)", name);
}

int main(void)
{
	const char *home = test_home("payload");
	amc_err e;
	amc_fleet_payload p;

	char *g = amc_fleet_payload_goal("Turn Wi-Fi off", &e);
	ok(g != NULL, "a goal's payload");
	ok(parse(g, &p, &e) == 0, "reads back");
	is_str(p.kind, "goal", "kind goal");
	is_str(p.goal, "Turn Wi-Fi off", "the goal");
	amc_fleet_payload_free(&p);
	free(g);
	char big[AMC_LAUNCH_GOAL_MAX + 2];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = 0;
	ok(amc_fleet_payload_goal(big, &e) == NULL, "a goal over the limit is refused at submit");
	like(e.msg, "4000", "and the limit named");
	ok(amc_fleet_payload_goal("  ", &e) == NULL, "an empty goal is refused");

	/* A goal for a coding agent's CLI on the host's login. */
	g = amc_fleet_payload_goal_agent("Turn Wi-Fi off", "claude", "claude-sonnet-5", &e);
	ok(g != NULL, "an agent goal's payload");
	ok(parse(g, &p, &e) == 0, "reads back");
	is_str(p.agent, "claude", "the agent");
	is_str(p.model, "claude-sonnet-5", "the model");
	amc_fleet_payload_free(&p);
	free(g);
	g = amc_fleet_payload_goal("Turn Wi-Fi off", &e);
	ok(parse(g, &p, &e) == 0 && p.agent == NULL && p.model == NULL, "a plain goal has no agent: the host's planner");
	amc_fleet_payload_free(&p);
	free(g);
	ok(amc_fleet_payload_goal_agent("x", "gemini", NULL, &e) == NULL, "an unknown agent is refused at submit");
	like(e.msg, "claude or codex", "naming the two");
	ok(amc_fleet_payload_goal_agent("x", "codex", "--dangerously-bypass", &e) == NULL, "a model that looks like an option is refused");
	ok(parse("{\"v\":1,\"kind\":\"goal\",\"goal\":\"x\",\"agent\":\"sh -c id\"}", &p, &e) != 0,
	   "a payload naming another program as agent is refused by the host");
	like(e.msg, "claude or codex", "saying which are allowed");
	ok(parse("{\"v\":1,\"kind\":\"goal\",\"goal\":\"x\",\"agent\":\"codex\",\"model\":\"a b\"}", &p, &e) != 0,
	   "a model with a space is refused by the host");

	/* A flow read from a file: its text travels. */
	char dir[PATH_MAX], path[PATH_MAX + 32];
	pathf(dir, sizeof dir, "%s/flows/sub", home);
	ok(amc_mkdir_p(dir, 0755, &e) == 0, "made a flow folder");
	pathf(path, sizeof path, "%s/flows/main.yaml", home);
	FILE *f = fopen(path, "w");
	fputs("appId: x\n---\n- launchApp\n- back\n", f);
	fclose(f);
	char *title = NULL;
	char *fl = amc_fleet_payload_flow(path, &title, &e);
	ok(fl != NULL, "a flow's payload (%s)", fl ? "" : e.msg);
	is_str(title, "main.yaml", "its title is the file's name");
	ok(fl && parse(fl, &p, &e) == 0, "reads back");
	is_str(p.flow_name, "main.yaml", "the flow's name");
	like(p.flow_text, "- launchApp", "the flow's text travels");
	is_int(p.nfiles, 0, "no other files");
	amc_fleet_payload_free(&p);
	free(fl);
	free(title);
	/* Sub-flows are gathered (and checked) before the flow is parsed, and
	 * travel beside it: the host hands them to the launch as a bundle. */
	pathf(path, sizeof path, "%s/flows/sub/a.yaml", home);
	f = fopen(path, "w");
	fputs("appId: x\n---\n- back\n", f);
	fclose(f);
	pathf(path, sizeof path, "%s/flows/withsub.yaml", home);
	f = fopen(path, "w");
	fputs("appId: x\n---\n- runFlow: sub/a.yaml\n", f);
	fclose(f);
	title = NULL;
	fl = amc_fleet_payload_flow(path, &title, &e);
	ok(fl != NULL, "a flow with runFlow is accepted at submit (%s)", fl ? "" : e.msg);
	ok(fl && parse(fl, &p, &e) == 0, "reads back");
	is_int(fl ? (int)p.nfiles : -1, 1, "its sub-flow travels with it");
	like(fl && p.nfiles ? p.files[0].text : "", "- back", "with its text");
	if (fl)
		amc_fleet_payload_free(&p);
	free(fl);
	free(title);
	title = NULL;
	pathf(path, sizeof path, "%s/flows/withmissing.yaml", home);
	f = fopen(path, "w");
	fputs("appId: x\n---\n- runFlow: sub/none.yaml\n", f);
	fclose(f);
	ok(amc_fleet_payload_flow(path, &title, &e) == NULL, "a missing sub-flow is refused");
	like(e.msg, "none.yaml", "naming it");
	pathf(path, sizeof path, "%s/flows/sub/out.yaml", home);
	f = fopen(path, "w");
	fputs("appId: x\n---\n- runFlow: ../../secret.yaml\n", f);
	fclose(f);
	ok(amc_fleet_payload_flow(path, &title, &e) == NULL, "a flow naming a file outside its folder is refused");
	like(e.msg, "outside", "saying so");
	pathf(path, sizeof path, "%s/flows/missing.yaml", home);
	ok(amc_fleet_payload_flow(path, &title, &e) == NULL, "a missing flow is refused");
	like(e.msg, "missing.yaml", "naming the file");

	refused("{not json", "not valid JSON", "invalid JSON");
	refused("[1,2]", "not a JSON object", "an array");
	refused("{\"v\":2,\"kind\":\"goal\",\"goal\":\"x\"}", "unknown version", "version 2");
	refused("{\"v\":1,\"kind\":\"shell\"}", "neither", "an unknown kind");
	refused("{\"v\":1,\"kind\":\"goal\",\"goal\":7}", "the goal", "a goal that is not text");
	refused("{\"v\":1,\"kind\":\"goal\",\"goal\":\" \"}", "empty", "an empty goal");
	char *lg = malloc(AMC_LAUNCH_GOAL_MAX + 100);
	snprintf(lg, AMC_LAUNCH_GOAL_MAX + 100, "{\"v\":1,\"kind\":\"goal\",\"goal\":\"%0*d\"}", AMC_LAUNCH_GOAL_MAX + 1, 0);
	refused(lg, "over the limit", "a goal over the limit");
	free(lg);
	refused("{\"v\":1,\"kind\":\"flow\"}", "no \"flow\" object", "a flow without its flow");
	refused("{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"../x.yaml\",\"text\":\"a\"}}", "not a plain name",
		"a flow name with ..");
	refused("{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"/etc/x.yaml\",\"text\":\"a\"}}", "not a plain name",
		"an absolute flow name");
	refused("{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"m.yaml\",\"text\":\"a\"},\"files\":[{\"name\":\"a/../../b\","
		"\"text\":\"\"}]}", "not a plain name", "a file name with ..");
	refused("{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"m.yaml\",\"text\":\"a\"},\"files\":[{\"name\":\"a\","
		"\"text\":\"\"},{\"name\":\"a\",\"text\":\"\"}]}", "given twice", "a file given twice");
	refused("{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"m.yaml\",\"text\":\"a\"},\"files\":{}}", "not an array",
		"files not an array");
	refused("{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"m.yaml\",\"text\":\"a\"},\"files\":[3]}", "not an object",
		"a file not an object");
	/* More files than the limit. */
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"m.yaml\",\"text\":\"a\"},\"files\":[");
	for (int i = 0; i <= AMC_LAUNCH_BUNDLE_FILES_MAX; i++)
		amc_sb_printf(&sb, "%s{\"name\":\"f%d\",\"text\":\"\"}", i ? "," : "", i);
	amc_sb_puts(&sb, "]}");
	refused(amc_sb_str(&sb), "over the limit of 64", "too many files");
	amc_sb_free(&sb);
	return done_testing();
}
