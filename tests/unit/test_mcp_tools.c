/* test_mcp_tools.c - src/mcp/mcp_tools.c: the six tools' definitions (names,
 * small schemas with additionalProperties false, an outputSchema each, the
 * annotations, the size of tools/list printed and bounded), the argument
 * check every call goes through (unknown fields, wrong types, integers,
 * enums, required, not an object), the result helpers (isError, text made
 * terminal-safe, structuredContent) and base64 against RFC 4648's vectors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp_act.h"
#include "planner/llm_planner.h"
#include "mcp/mcp_tools.h"
#include "runtime/tools.h"
#include "tap.h"
#include "util/jsonutil.h"

static const cJSON *tool(const cJSON *list, const char *name)
{
	const cJSON *t;
	cJSON_ArrayForEach(t, list) {
		const char *n = amc_json_str(t, "name");
		if (n && !strcmp(n, name))
			return t;
	}
	return NULL;
}

static int hint(const cJSON *t, const char *h)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "annotations"), h));
}

static void test_list(void)
{
	cJSON *l = amc_mcp_tools_list();
	is_int(cJSON_GetArraySize(l), 6, "six tools");
	char *s = cJSON_PrintUnformatted(l);
	diag("tools array: %zu bytes of JSON", strlen(s));
	ok(strlen(s) < 6144 - 64, "the tools array stays small (%zu bytes)", strlen(s));
	free(s);
	const char *names[] = { "devices", "observe", "act", "run_task", "task", "cancel_task" };
	for (int i = 0; i < 6; i++) {
		const cJSON *t = tool(l, names[i]);
		ok(t != NULL, "%s is listed", names[i]);
		const cJSON *in = cJSON_GetObjectItemCaseSensitive(t, "inputSchema");
		const cJSON *out = cJSON_GetObjectItemCaseSensitive(t, "outputSchema");
		ok(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(in, "additionalProperties")),
		   "%s: its input schema admits no unknown fields", names[i]);
		ok(cJSON_IsObject(out) && !strcmp(amc_json_str(out, "type"), "object"), "%s: an outputSchema", names[i]);
		ok(amc_json_str(t, "description") && strlen(amc_json_str(t, "description")) < 400,
		   "%s: a short description", names[i]);
		ok(amc_mcp_tool_known(names[i]), "%s is known", names[i]);
	}
	ok(hint(tool(l, "observe"), "readOnlyHint") && !hint(tool(l, "observe"), "destructiveHint"),
	   "observe: read-only, not destructive");
	ok(hint(tool(l, "act"), "destructiveHint") && !hint(tool(l, "act"), "readOnlyHint") &&
	   !hint(tool(l, "act"), "idempotentHint"), "act: destructive, not idempotent");
	ok(hint(tool(l, "devices"), "idempotentHint") && hint(tool(l, "task"), "readOnlyHint"),
	   "devices idempotent, task read-only");
	ok(hint(tool(l, "cancel_task"), "idempotentHint") && hint(tool(l, "cancel_task"), "destructiveHint"),
	   "cancel_task destructive and idempotent");
	ok(!amc_mcp_tool_known("teleport") && !amc_mcp_tool_known(""), "unknown names are not tools");
	cJSON_Delete(l);
}

static void check(const char *tool_name, const char *args, int want, const char *why_has, const char *what)
{
	cJSON *a = args ? cJSON_Parse(args) : NULL;
	char why[300] = "";
	int rc = amc_mcp_tool_check(tool_name, a, why, sizeof why);
	ok(rc == want && (!why_has || strstr(why, why_has)), "check %s %s: %s (%s)", tool_name, args ? args : "NULL",
	   what, why);
	cJSON_Delete(a);
}

static void test_check(void)
{
	check("act", "{\"action\":\"tap\",\"element\":\"e1\",\"reason\":\"r\"}", 0, NULL, "valid");
	check("act", "{\"action\":\"wait\",\"ms\":10,\"device\":\"sim\"}", 0, NULL, "valid with an integer");
	check("devices", "{}", 0, NULL, "no arguments");
	check("act", "{\"element\":\"e1\"}", -1, "needs the argument 'action'", "required missing");
	check("act", "{\"action\":\"fly\"}", -1, "must be one of", "not in the enum");
	check("act", "{\"action\":\"press_key\",\"key\":\"warp\"}", -1, "must be one of [\"back\",\"home\",\"enter\",\"delete\"",
	      "the enum's values are named");
	check("act", "{\"action\":7}", -1, "must be a string", "a number for a string");
	check("act", "{\"action\":\"tap\",\"x\":1.5,\"y\":2}", -1, "must be an integer", "a fraction for an integer");
	check("act", "{\"action\":\"tap\",\"x\":\"1\",\"y\":2}", -1, "must be an integer", "a string for an integer");
	check("act", "{\"action\":\"tap\",\"x\":1e12,\"y\":2}", -1, "must be an integer", "an integer out of range");
	check("observe", "{\"image\":\"yes\"}", -1, "must be a boolean", "a string for a boolean");
	check("observe", "{\"colour\":true}", -1, "unknown argument 'colour' for observe", "an unknown field");
	check("observe", "{\"col\\u001b[2Jour\":true}", -1, "unknown argument", "an unknown field with an escape");
	check("task", "[]", -1, "must be an object", "an array");
	check("task", NULL, -1, "must be an object", "no arguments at all");
	check("teleport", "{}", -1, "unknown tool", "an unknown tool");
	cJSON *a = cJSON_Parse("{\"col\\u001b[2Jour\":true}");
	char why[300];
	amc_mcp_tool_check("observe", a, why, sizeof why);
	ok(!strchr(why, 0x1b), "an unknown field's name is made terminal-safe in the message");
	cJSON_Delete(a);
	char tiny[16];
	a = cJSON_Parse("{\"colour\":true}");
	amc_mcp_tool_check("observe", a, tiny, sizeof tiny);
	is_int((int)strlen(tiny), 15, "the message is cut to its buffer");
	cJSON_Delete(a);
}

static void test_results(void)
{
	cJSON *st = cJSON_CreateObject();
	cJSON_AddNumberToObject(st, "n", 1);
	cJSON *r = amc_mcp_result(st, NULL, 0);
	const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "content"), 0);
	is_str(amc_json_str(c, "type"), "text", "result: a text block");
	is_str(amc_json_str(c, "text"), "{\"n\":1}", "result: without text, the structured content printed");
	ok(cJSON_GetObjectItemCaseSensitive(r, "structuredContent") != NULL, "result: structuredContent");
	ok(!cJSON_GetObjectItemCaseSensitive(r, "isError"), "result: no isError when it worked");
	cJSON_Delete(r);
	r = amc_mcp_fail("cannot act on %s: %s", "sim:0", "bad \x1b[31mred\x07 text");
	ok(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "isError")), "fail: isError");
	const char *t = amc_json_str(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "content"), 0), "text");
	ok(t && !strchr(t, 0x1b) && !strchr(t, 0x07), "fail: the text is terminal-safe");
	like(t, "cannot act on sim:0: bad", "fail: the message");
	ok(!cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "fail: no structuredContent");
	cJSON_Delete(r);
}

static int has_str(const cJSON *arr, const char *s)
{
	const cJSON *v;
	cJSON_ArrayForEach(v, arr) if (cJSON_IsString(v) && !strcmp(v->valuestring, s)) return 1;
	return 0;
}

/* Both schemas come from the registry: iterate its rows (nothing named here
 * by hand) and find each action, with the same arguments and the same
 * enums, in the LLM planner's tools and in act's enum and properties. */
static void test_registry_schemas(void)
{
	cJSON *l = amc_mcp_tools_list(), *llm = amc_llm_planner_tools();
	const cJSON *act = tool(l, "act");
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(act, "inputSchema"), "properties");
	const cJSON *actions = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(props, "action"), "enum");
	const char *desc = amc_json_str(act, "description");
	size_t n;
	const amc_tool *all = amc_tools_all(&n);
	int offered = 0;
	for (size_t i = 0; i < n; i++) {
		int is = amc_tools_is_action(&all[i]);
		offered += is;
		ok(has_str(actions, all[i].name) == is, "%s: in act's enum exactly when it is an action", all[i].name);
		const cJSON *lt = tool(llm, all[i].name);
		ok((lt != NULL) == is, "%s: an LLM tool exactly when it is an action", all[i].name);
		if (!is)
			continue;
		char call[64];
		cJSON *rs = amc_tools_schema(&all[i]);
		const cJSON *rp = cJSON_GetObjectItemCaseSensitive(rs, "properties");
		/* with its arguments, or bare when it has none (list_apps) */
		snprintf(call, sizeof call, " %s%s", all[i].name, rp && rp->child ? "(" : " ");
		cJSON_Delete(rs);
		ok(desc && strstr(desc, call), "%s: named in act's description", all[i].name);
		const cJSON *lprops = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(lt, "input_schema"), "properties");
		cJSON *schema = amc_tools_schema(&all[i]);
		const cJSON *p;
		cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(schema, "properties")) {
			const cJSON *mp = cJSON_GetObjectItemCaseSensitive(props, amc_mcp_act_arg(p->string));
			const cJSON *lp = cJSON_GetObjectItemCaseSensitive(lprops, p->string);
			ok(mp && lp, "%s.%s: in act (as %s) and in the LLM tool", all[i].name, p->string, amc_mcp_act_arg(p->string));
			const char *ty = amc_json_str(p, "type");
			ok(mp && lp && ty && !strcmp(ty, amc_json_str(mp, "type")) && !strcmp(ty, amc_json_str(lp, "type")),
			   "%s.%s: the same type in both", all[i].name, p->string);
			const cJSON *en = cJSON_GetObjectItemCaseSensitive(p, "enum");
			if (en) {
				char *a = cJSON_PrintUnformatted(en);
				char *b = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(mp, "enum"));
				char *c = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(lp, "enum"));
				ok(b && c && !strcmp(a, b) && !strcmp(a, c), "%s.%s: the same enum in both", all[i].name, p->string);
				free(a);
				free(b);
				free(c);
			}
		}
		if (all[i].targets)
			ok(cJSON_GetObjectItemCaseSensitive(props, "element") &&
			   cJSON_GetObjectItemCaseSensitive(lprops, "element_id"), "%s: targets a Scene element in both", all[i].name);
		cJSON_Delete(schema);
	}
	is_int(cJSON_GetArraySize(actions), offered + 1, "act's enum: the registry's actions and finish");
	ok(desc && strstr(desc, "x,y are device px: image px times observe's scale"),
	   "act says x,y are device pixels and how to convert from observe's image");
	cJSON_Delete(l);
	cJSON_Delete(llm);
}

int main(void)
{
	test_list();
	test_registry_schemas();
	test_check();
	test_results();
	return done_testing();
}
