/* test_client.c - the amc_llm_client interface (llm/client.h) through both of
 * its implementations, Anthropic Messages and an OpenAI-compatible server,
 * against the fake endpoint of tests/mock: a tool-loop turn and the next one
 * with the previous call, a forced tool choice refused and asked again with
 * auto, a screenshot refused by a text-only model (dropped or failing), a
 * structured-output request, the model catalog, call limits and the totals. */
#include <stdlib.h>
#include <string.h>

#include "../mock/anthropic_mock.h"
#include "planner/llm_planner.h"
#include "llm/anthropic.h"
#include "llm/client.h"
#include "llm/openai.h"
#include "tap.h"
#include "testutil.h"
#include "util/jsonutil.h"

static amc_mock_agent A;

/* A one-pixel PNG, base64. */
static const char PNG1[] =
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

static const char SCENE_NOW[] = "Step 1. Current screen (Scene):\n{\"width\":1080,\"height\":2400,\"elements\":"
				"[{\"id\":\"e1\",\"type\":\"button\",\"text\":\"OK\",\"b\":[0,0,100,100]}]}";

static amc_llm_client *anthropic(void)
{
	amc_anthropic *c = NULL;
	amc_err e;
	if (amc_anthropic_new(NULL, &c, &e) != 0) {
		diag("anthropic: %s", e.msg);
		return NULL;
	}
	c->hooks = MOCK_FAKE_HOOKS;
	return amc_anthropic_client(c);
}

static amc_llm_client *openai(void)
{
	amc_openai *c = NULL;
	amc_err e;
	if (amc_openai_new(&c, &e) != 0) {
		diag("openai: %s", e.msg);
		return NULL;
	}
	c->hooks = MOCK_FAKE_HOOKS;
	return amc_openai_client(c);
}

static void script(const char *s)
{
	amc_mock_agent_free(&A);
	amc_mock_agent_load(&A, s);
}

static amc_llm_turn_req turn_req(const cJSON *tools, const char *model)
{
	amc_llm_turn_req rq;
	memset(&rq, 0, sizeof rq);
	rq.model = model;
	rq.max_tokens = 1024;
	rq.timeout_ms = 60000;
	rq.system = amc_llm_planner_system_prompt();
	rq.tools = tools;
	rq.intro = "Goal: look\n";
	rq.now = SCENE_NOW;
	rq.transcript = "Goal: look\n\nStep 1. Current screen (Scene):\n{\"width\":1080,\"height\":2400,\"elements\":[]}";
	return rq;
}

/* The two turns of a tool loop, then the catalog and the totals. */
static void loop(amc_llm_client *c, const cJSON *tools, const char *who, int keeps_call)
{
	amc_err e;
	script("tap_xy 100 300\nkey back");
	amc_llm_turn_req rq = turn_req(tools, "claude-sonnet-5");
	amc_llm_turn_res res;
	is_int(amc_llm_turn(c, &rq, &res, &e), 0, "%s: a turn is answered", who);
	ok(res.answered && res.stop == AMC_LLM_STOP_OK, "%s: answered, stop ok", who);
	is_str(res.tool, "tap", "%s: the scripted tool", who);
	is_int(amc_json_int(res.input, "x", 0), 100, "%s: with its arguments", who);
	ok(amc_json_str(res.input, "reason") != NULL, "%s: and its reason", who);
	ok(!cJSON_GetObjectItemCaseSensitive(res.input, "tool"), "%s: the input is the arguments only", who);
	is_int(keeps_call, res.call != NULL, "%s: a call record %s", who, keeps_call ? "to send back" : "is not needed");
	ok(res.system && strstr(res.system, "one action at a time"), "%s: the system text as sent", who);
	ok(cJSON_IsObject(res.detail) && cJSON_GetArraySize(res.detail) > 0, "%s: provider detail", who);
	is_int(res.usage.input_tokens, 1000, "%s: usage read", who);
	is_int(A.violations, 0, "%s: the request kept the rules%s%s", who, A.violations ? ": " : "", A.last_violation);

	/* the next turn carries the previous call and its outcome */
	cJSON *call = res.call;
	res.call = NULL;
	amc_llm_turn_res_free(&res);
	ok(res.input == NULL && res.system == NULL, "%s: turn_res_free clears", who);
	rq.prev_call = call;
	rq.prev_result = "ok";
	rq.transcript = "Goal: look\n\n[previous call step 1: tap at 100,300]\n[tool_result] ok\nStep 2.";
	is_int(amc_llm_turn(c, &rq, &res, &e), 0, "%s: the second turn", who);
	is_str(res.tool, "press_key", "%s: the next scripted tool", who);
	is_int(A.violations, 0, "%s: the exchange kept the rules%s%s", who, A.violations ? ": " : "", A.last_violation);
	amc_llm_turn_res_free(&res);
	cJSON_Delete(call);

	/* a call of a tool that was not offered is an answer, not a call */
	script("key back");
	cJSON *few = cJSON_Duplicate(tools, 1);
	for (int i = cJSON_GetArraySize(few) - 1; i >= 0; i--)
		if (!strcmp(amc_json_str(cJSON_GetArrayItem(few, i), "name"), "press_key"))
			cJSON_DeleteItemFromArray(few, i);
	rq.tools = few;
	rq.prev_call = NULL;
	is_int(amc_llm_turn(c, &rq, &res, &e), 0, "%s: a call outside the tools is still an answer (%s)", who,
	       A.last_violation);
	ok(!res.tool[0] && strstr(res.no_call, "unknown tool 'press_key'"), "%s: but not a call (%s)", who, res.no_call);
	amc_llm_turn_res_free(&res);
	cJSON_Delete(few);

	cJSON *ids = NULL;
	int before = A.catalog_requests;
	is_int(amc_llm_models(c, &ids, &e), 0, "%s: the model catalog", who);
	is_int(cJSON_GetArraySize(ids), 2, "%s: two models", who);
	is_int(A.catalog_requests - before, 1, "%s: one catalog request", who);
	cJSON_Delete(ids);

	amc_llm_usage u;
	int calls;
	amc_llm_client_usage(c, &u, &calls);
	is_int(calls, 3, "%s: three calls counted", who);
	is_int(u.input_tokens, 3000, "%s: their input tokens summed", who);
}

static void structured(amc_llm_client *c, const char *who)
{
	amc_err e;
	cJSON *schema = cJSON_Parse("{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"page\"],"
				    "\"properties\":{\"page\":{\"type\":\"string\"}}}");
	amc_llm_struct_req rq = { "claude-haiku-4-5", 1024, 8000, "Describe the screen.",
				  "Scene:\n{\"width\":10,\"height\":10,\"elements\":[{\"id\":\"e7\"}]}", "semantic_scene", schema };
	amc_llm_struct_res res;
	int before = A.semantic_calls;
	is_int(amc_llm_structured(c, &rq, &res, &e), 0, "%s: a structured answer", who);
	is_int(A.semantic_calls - before, 1, "%s: sent as structured output", who);
	cJSON *j = res.text ? cJSON_Parse(res.text) : NULL;
	is_str(amc_json_str(j, "page"), "mock page", "%s: its text is the JSON answer", who);
	is_int(res.stop, AMC_LLM_STOP_OK, "%s: stop ok", who);
	ok(cJSON_GetObjectItemCaseSensitive(schema, "properties") != NULL, "%s: the schema is not consumed", who);
	cJSON_Delete(j);
	amc_llm_struct_res_free(&res);
	ok(res.text == NULL, "%s: struct_res_free clears", who);
	cJSON_Delete(schema);
}

/* A failing call under a limit of one attempt: one request, no answer. */
static void limited(amc_llm_client *c, const cJSON *tools, const char *who)
{
	amc_err e;
	script("http 500\nhttp 500\nfinish true never");
	amc_llm_limit(c, 1, 5000, 5000);
	int before = A.requests;
	amc_llm_turn_req rq = turn_req(tools, "claude-sonnet-5");
	amc_llm_turn_res res;
	is_int(amc_llm_turn(c, &rq, &res, &e), -1, "%s: a 500 fails the turn", who);
	is_int(A.requests - before, 1, "%s: one attempt under the limit", who);
	ok(!res.answered, "%s: not answered", who);
	like(e.msg, "HTTP 500", "%s: the error says why", who);
	amc_llm_turn_res_free(&res);
}

int main(void)
{
	test_home("client");
	amc_mock_agent_load(&A, "");
	mock_server *m = mock_start(0, amc_mock_agent_handle, &A);
	if (!m)
		tap_skip_all("cannot listen on 127.0.0.1");
	char base[64], obase[80];
	snprintf(base, sizeof base, "http://127.0.0.1:%d", mock_port(m));
	snprintf(obase, sizeof obase, "%s/v1", base);
	setenv("ANTHROPIC_BASE_URL", base, 1);
	setenv("ANTHROPIC_API_KEY", "sk-ant-client-test", 1);
	setenv("AMC_OPENAI_BASE_URL", obase, 1);
	unsetenv("OPENAI_API_KEY");
	cJSON *tools = amc_llm_planner_tools();
	amc_err e;

	ok(!strcmp(amc_llm_client_name(NULL), "none"), "no client: named none");
	is_int(amc_llm_tool_index(tools, "finish"), cJSON_GetArraySize(tools) - 1, "tool_index finds finish last");
	is_int(amc_llm_tool_index(tools, "teleport"), -1, "and no teleport");
	char *b = amc_llm_bounded("abcdef", 3);
	is_str(b, "abc...", "bounded marks the cut");
	free(b);
	b = amc_llm_bounded("h\xc3\xa9llo", 2);
	is_str(b, "h...", "at a UTF-8 boundary");
	free(b);

	/* ---- Anthropic ---- */
	amc_llm_client *c = anthropic();
	is_str(amc_llm_client_name(c), "anthropic", "the Anthropic client's name");
	loop(c, tools, "anthropic", 1);
	structured(c, "anthropic");

	/* a model that refuses a forced tool choice: asked again with auto */
	script("key back");
	int refusals = A.forced_refusals;
	amc_llm_turn_req rq = turn_req(tools, "claude-sonnet-5-5");
	amc_llm_turn_res res;
	is_int(amc_llm_turn(c, &rq, &res, &e), 0, "forced choice refused: still answered");
	is_int(A.forced_refusals - refusals, 1, "after one 400");
	like(res.forced_refused, "tool_choice", "the refusal is reported for later turns");
	is_str(res.tool, "press_key", "and the call read");
	amc_llm_turn_res_free(&res);
	rq.tool_choice_auto = 1;
	script("key back");
	refusals = A.forced_refusals;
	is_int(amc_llm_turn(c, &rq, &res, &e), 0, "with tool_choice auto from the start");
	is_int(A.forced_refusals - refusals, 0, "no second 400");
	is_str(res.forced_refused, "", "nothing new to report");
	amc_llm_turn_res_free(&res);

	/* stop reasons */
	script("stop max_tokens");
	rq = turn_req(tools, "claude-sonnet-5");
	is_int(amc_llm_turn(c, &rq, &res, &e), 0, "max_tokens: answered");
	is_int(res.stop, AMC_LLM_STOP_MAX_TOKENS, "stop max_tokens");
	amc_llm_turn_res_free(&res);
	script("stop refusal");
	amc_llm_turn(c, &rq, &res, &e);
	is_int(res.stop, AMC_LLM_STOP_REFUSAL, "stop refusal");
	amc_llm_turn_res_free(&res);
	limited(c, tools, "anthropic");
	amc_llm_client_free(c);

	/* ---- OpenAI-compatible ---- */
	c = openai();
	is_str(amc_llm_client_name(c), "openai", "the local server's client's name");
	loop(c, tools, "openai", 0);
	structured(c, "openai");

	/* a text-only model refuses the screenshot */
	script("textonly\ntap_xy 10 20");
	rq = turn_req(tools, "qwen3-8b");
	rq.image_png_b64 = PNG1;
	rq.image_optional = 1;
	int images = A.image_requests;
	is_int(amc_llm_turn(c, &rq, &res, &e), 0, "an optional screenshot refused: answered without it");
	like(res.image_dropped, "image input is not supported", "why it was dropped");
	like(amc_json_str(res.detail, "screenshot_refused"), "image input", "and the decision detail says so");
	is_str(res.tool, "tap", "the call read");
	ok(A.image_requests - images >= 1, "the image did go out first");
	amc_llm_turn_res_free(&res);
	script("textonly\ntap_xy 10 20");
	rq.image_optional = 0;
	is_int(amc_llm_turn(c, &rq, &res, &e), -1, "a required screenshot refused: the turn fails");
	ok(res.image_refused && !res.answered, "saying the screenshot was refused");
	like(e.msg, "image input is not supported", "with the server's words");
	like(e.msg, "serve a vision model (llama.cpp: --mmproj)", "and how to serve images");
	amc_llm_turn_res_free(&res);
	script("tap_xy 10 20");
	is_int(amc_llm_turn(c, &rq, &res, &e), 0, "a vision server takes it");
	is_int(A.violations, 0, "as an image_url part%s%s", A.violations ? ": " : "", A.last_violation);
	amc_llm_turn_res_free(&res);
	limited(c, tools, "openai");
	amc_llm_client_free(c);
	amc_llm_client_free(NULL); /* harmless */

	cJSON_Delete(tools);
	mock_stop(m);
	amc_mock_agent_free(&A);
	return done_testing();
}
