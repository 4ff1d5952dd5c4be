/* test_enrich.c - SemanticScene enrichment (semantic/enrich.c) against the fake
 * endpoints, Anthropic Messages and an OpenAI-compatible local server: one call
 * per enrichment, the request shape (json_schema output, cache_control on
 * Anthropic, the nested response_format on chat completions, no tools, sampling
 * or thinking), unknown element ids dropped, NULL for every expected failure
 * without retries or hangs, and the choice of backend (semantic.provider). */
#include <stdlib.h>
#include <string.h>

#include "../mock/anthropic_mock.h"
#include "llm/anthropic.h"
#include "llm/openai.h"
#include "semantic/enrich.h"
#include "tap.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/config.h"

typedef struct reply {
	int status;
	const char *stop;    /* stop_reason (Anthropic) or finish_reason (chat) */
	const char *text;    /* the JSON the model "wrote"; chat: NULL sends content null */
	const char *raw;     /* a raw body instead */
	long delay_ms;
	const char *refusal; /* chat: message.refusal */
} reply;

static reply R;
static int requests, violations;
static char last_violation[512], last_body[65536], last_path[600];

/* A chat completion carrying R. */
static char *chat_reply(void)
{
	cJSON *r = cJSON_CreateObject();
	cJSON *ch = cJSON_CreateObject();
	cJSON *msg = cJSON_AddObjectToObject(ch, "message");
	cJSON_AddStringToObject(msg, "role", "assistant");
	if (R.text)
		cJSON_AddStringToObject(msg, "content", R.text);
	else
		cJSON_AddNullToObject(msg, "content");
	if (R.refusal)
		cJSON_AddStringToObject(msg, "refusal", R.refusal);
	cJSON_AddStringToObject(ch, "finish_reason", R.stop ? R.stop : "stop");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "choices"), ch);
	cJSON *u = cJSON_AddObjectToObject(r, "usage");
	cJSON_AddNumberToObject(u, "prompt_tokens", 300);
	cJSON_AddNumberToObject(u, "completion_tokens", 50);
	char *s = cJSON_PrintUnformatted(r);
	cJSON_Delete(r);
	return s;
}

static void handler(void *ud, const mock_req *rq, mock_resp *rs)
{
	(void)ud;
	requests++;
	snprintf(last_body, sizeof last_body, "%s", rq->body);
	snprintf(last_path, sizeof last_path, "%s %s", rq->method, rq->path);
	int chat = !strcmp(rq->path, "/v1/chat/completions");
	char why[512];
	if ((chat ? amc_mock_check_chat(rq, why, sizeof why) : amc_mock_check_request(rq, why, sizeof why)) != 0) {
		violations++;
		snprintf(last_violation, sizeof last_violation, "%s", why);
	}
	rs->delay_ms = R.delay_ms;
	rs->status = R.status ? R.status : 200;
	if (R.raw) {
		rs->body = strdup(R.raw);
		return;
	}
	if (chat) {
		rs->body = chat_reply();
		return;
	}
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "type", "message");
	cJSON_AddStringToObject(m, "role", "assistant");
	cJSON *c = cJSON_AddArrayToObject(m, "content");
	cJSON *t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "type", "text");
	cJSON_AddStringToObject(t, "text", R.text ? R.text : "");
	cJSON_AddItemToArray(c, t);
	cJSON_AddStringToObject(m, "stop_reason", R.stop ? R.stop : "end_turn");
	cJSON *u = cJSON_AddObjectToObject(m, "usage");
	cJSON_AddNumberToObject(u, "input_tokens", 300);
	cJSON_AddNumberToObject(u, "output_tokens", 50);
	rs->body = cJSON_PrintUnformatted(m);
	cJSON_Delete(m);
}

/* A string member or "" (never NULL, for strcmp). */
static const char *sv(const cJSON *o, const char *k)
{
	const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
	return v ? v : "";
}

/* An expected failure: the reply, and a word of the reason it must leave. */
typedef struct fail_case {
	const char *name;
	reply r;
	const char *why;
} fail_case;

/* Each case: NULL, exactly one request (no retry), the reason logged. */
static void expect_failures(amc_enricher *en, const amc_scene *sc, const char *who, const fail_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		R = c[i].r;
		int before = requests;
		cJSON *s = amc_enrich_scene(en, sc, NULL);
		ok(s == NULL, "%s%s: NULL", who, c[i].name);
		is_int(requests - before, 1, "%s%s: one request, no retry", who, c[i].name);
		like(amc_enricher_last_error(en), c[i].why, "%s%s: reason logged (%s)", who, c[i].name,
		     amc_enricher_last_error(en));
		cJSON_Delete(s);
	}
}

#define ERRBODY(t) "{\"type\":\"error\",\"error\":{\"type\":\"" t "\",\"message\":\"x\"}}"

int main(void)
{
	test_home("enrich");
	mock_server *m = mock_start(0, handler, NULL);
	char base[64];
	snprintf(base, sizeof base, "http://127.0.0.1:%d", mock_port(m));
	setenv("ANTHROPIC_BASE_URL", base, 1);
	setenv("ANTHROPIC_API_KEY", "sk-ant-semantic-test", 1);
	unsetenv("AMC_OPENAI_BASE_URL");
	unsetenv("OPENAI_API_KEY");
	unsetenv("AMC_SEMANTIC_MODEL");
	unsetenv("AMC_SEMANTIC_PROVIDER");
	char obase[80];
	snprintf(obase, sizeof obase, "%s/v1", base);
	amc_err e;

	/* off by default: no enricher, no call, NULL */
	amc_config *cfg = amc_config_new();
	amc_enricher *en = (amc_enricher *)1;
	is_int(amc_enricher_from_config(cfg, &en, &e), 0, "enrich = off: no error");
	ok(en == NULL, "enrich = off: no enricher");
	ok(amc_enrich_scene(NULL, NULL, NULL) == NULL && requests == 0, "disabled: NULL, no request");
	amc_config_set(cfg, "semantic", "enrich", "on", "test", &e);
	unsetenv("ANTHROPIC_API_KEY");
	is_int(amc_enricher_from_config(cfg, &en, &e), -1, "enrich = on without a key: error");
	like(e.msg, "ANTHROPIC_API_KEY", "saying what to set");
	like(e.msg, "AMC_OPENAI_BASE_URL", "or the local server");
	setenv("ANTHROPIC_API_KEY", "sk-ant-semantic-test", 1);
	setenv("AMC_OPENAI_BASE_URL", obase, 1);
	is_int(amc_enricher_from_config(cfg, &en, &e), 0, "enrich = on: an enricher");
	is_str(amc_enricher_provider(en), "anthropic", "auto with a key and a local server: Anthropic");
	unsetenv("AMC_OPENAI_BASE_URL");
	amc_config_free(cfg);

	amc_element els[2];
	memset(els, 0, sizeof els);
	snprintf(els[0].id, sizeof els[0].id, "e1111");
	els[0].type = "button";
	els[0].text = "Add contact";
	els[0].bounds = (amc_bounds){ 900, 2100, 1040, 2300 };
	snprintf(els[1].id, sizeof els[1].id, "e2222");
	els[1].type = "text";
	els[1].text = "Contacts";
	amc_scene sc = { 1080, 2400, els, 2 };

	/* success: unknown ids dropped, one call */
	memset(&R, 0, sizeof R);
	R.text = "{\"page\":\"contact list\",\"intents\":[\"add a contact\"],\"widgets\":["
		 "{\"element_id\":\"e1111\",\"purpose\":\"opens the new-contact form\"},"
		 "{\"element_id\":\"e9999\",\"purpose\":\"invented\"}]}";
	int before = requests;
	cJSON *s = amc_enrich_scene(en, &sc, "Add Ada");
	ok(s != NULL, "a SemanticScene");
	is_int(requests - before, 1, "exactly one model call");
	is_int(violations, 0, "the request keeps the rules%s%s", violations ? ": " : "", last_violation);
	like(last_body, "\"output_config\":{\"format\":{\"type\":\"json_schema\"", "structured output via output_config.format");
	like(last_body, "\"cache_control\":{\"type\":\"ephemeral\"}", "cache_control on the system prefix");
	like(last_body, "\"model\":\"claude-haiku-4-5\"", "default model claude-haiku-4-5");
	ok(!strstr(last_body, "\"tools\"") && !strstr(last_body, "thinking") && !strstr(last_body, "effort"),
	   "no tools, thinking or effort");
	char *txt = cJSON_PrintUnformatted(s);
	like(txt, "\"page\":\"contact list\"", "page kept");
	like(txt, "e1111", "known widget kept");
	ok(!strstr(txt, "e9999"), "widget with an unknown element id dropped");
	free(txt);
	cJSON_Delete(s);

	/* every expected failure: NULL, one request, a reason */
	fail_case cases[] = {
		{ "429", { 429, NULL, NULL, ERRBODY("rate_limit_error"), 0, NULL }, "HTTP 429" },
		{ "500", { 500, NULL, NULL, ERRBODY("api_error"), 0, NULL }, "HTTP 500" },
		{ "529", { 529, NULL, NULL, ERRBODY("overloaded_error"), 0, NULL }, "HTTP 529" },
		{ "refusal", { 0, "refusal", "{\"page\":", NULL, 0, NULL }, "refused" },
		{ "max_tokens", { 0, "max_tokens", "{\"page\":\"x\",\"intents\":[", NULL, 0, NULL }, "max_tokens" },
		{ "not JSON", { 0, NULL, "Sure! Here is the page: contacts", NULL, 0, NULL }, "not JSON" },
		{ "schema-invalid", { 0, NULL, "{\"page\":3,\"intents\":[],\"widgets\":[]}", NULL, 0, NULL }, "schema" },
		{ "widget without purpose", { 0, NULL, "{\"page\":\"p\",\"intents\":[],\"widgets\":[{\"element_id\":\"e1111\"}]}", NULL, 0, NULL }, "purpose" },
		{ "malformed body", { 0, NULL, NULL, "{\"type\":\"message\",\"content\":[", 0, NULL }, "malformed" },
	};
	expect_failures(en, &sc, "", cases, sizeof cases / sizeof cases[0]);

	/* timeout: the budget ends the call */
	amc_enricher_free(en);
	amc_anthropic *client = NULL;
	amc_anthropic_new(NULL, &client, &e);
	en = amc_enricher_new(amc_anthropic_client(client), NULL, 500);
	memset(&R, 0, sizeof R);
	R.text = "{\"page\":\"late\",\"intents\":[],\"widgets\":[]}";
	R.delay_ms = 3000;
	long long t0 = amc_mono_ms();
	s = amc_enrich_scene(en, &sc, NULL);
	long long took = amc_mono_ms() - t0;
	ok(s == NULL, "timeout: NULL");
	ok(took < 2000, "within the budget (%lld ms)", took);
	like(amc_enricher_last_error(en), "imeout", "timeout: reason logged");
	is_int(amc_enricher_calls(en), 1, "one call");
	amc_enricher_free(en);

	/* --- the OpenAI-compatible backend --- */
	cfg = amc_config_new();
	amc_config_set(cfg, "semantic", "enrich", "on", "test", &e);
	amc_config_set(cfg, "semantic", "provider", "openai", "test", &e);
	is_int(amc_enricher_from_config(cfg, &en, &e), -1, "provider = openai without AMC_OPENAI_BASE_URL: error");
	like(e.msg, "AMC_OPENAI_BASE_URL", "naming AMC_OPENAI_BASE_URL");
	amc_config_set(cfg, "semantic", "provider", "anthropic", "test", &e);
	setenv("AMC_OPENAI_BASE_URL", obase, 1);
	unsetenv("ANTHROPIC_API_KEY");
	is_int(amc_enricher_from_config(cfg, &en, &e), -1, "provider = anthropic without a key: error even with a local server");
	like(e.msg, "ANTHROPIC_API_KEY", "naming ANTHROPIC_API_KEY");
	amc_config_set(cfg, "semantic", "provider", "auto", "test", &e);
	/* the generic AMC_<SECTION>_<KEY> override names the local model */
	setenv("AMC_SEMANTIC_MODEL", "qwen3-4b", 1);
	ok(amc_config_load_env(cfg, &e) == 0, "environment overrides load");
	unsetenv("AMC_SEMANTIC_MODEL");
	is_int(amc_enricher_from_config(cfg, &en, &e), 0, "auto with only AMC_OPENAI_BASE_URL: an enricher");
	is_str(amc_enricher_provider(en), "openai", "the local server's backend");
	amc_config_free(cfg);

	/* success: one chat completion, unknown ids dropped */
	memset(&R, 0, sizeof R);
	R.text = "{\"page\":\"contact list\",\"intents\":[\"add a contact\"],\"widgets\":["
		 "{\"element_id\":\"e1111\",\"purpose\":\"opens the new-contact form\"},"
		 "{\"element_id\":\"e9999\",\"purpose\":\"invented\"}]}";
	before = requests;
	violations = 0;
	s = amc_enrich_scene(en, &sc, "Add Ada");
	ok(s != NULL, "openai: a SemanticScene (%s)", amc_enricher_last_error(en));
	is_int(requests - before, 1, "openai: exactly one model call");
	is_str(last_path, "POST /v1/chat/completions", "openai: POST {AMC_OPENAI_BASE_URL}/chat/completions");
	is_int(violations, 0, "openai: the request keeps the chat rules%s%s", violations ? ": " : "", last_violation);
	cJSON *rq = cJSON_Parse(last_body);
	const cJSON *rf = cJSON_GetObjectItemCaseSensitive(rq, "response_format");
	const cJSON *js = cJSON_GetObjectItemCaseSensitive(rf, "json_schema");
	is_str(sv(rf, "type"), "json_schema", "openai: response_format json_schema");
	is_str(sv(js, "name"), "semantic_scene", "openai: nested json_schema named semantic_scene");
	ok(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(js, "strict")) &&
	   cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(js, "schema"), "properties") &&
	   !cJSON_GetObjectItemCaseSensitive(rf, "schema"), "openai: strict schema in the nested form, not the flat one");
	is_str(sv(rq, "model"), "qwen3-4b", "openai: model from AMC_SEMANTIC_MODEL");
	is_int((int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(rq, "max_tokens")), 1024, "openai: max_tokens 1024");
	const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(rq, "messages");
	const cJSON *m0 = cJSON_GetArrayItem(msgs, 0), *m1 = cJSON_GetArrayItem(msgs, 1);
	ok(cJSON_GetArraySize(msgs) == 2 && !strcmp(sv(m0, "role"), "system") && !strcmp(sv(m1, "role"), "user"),
	   "openai: messages are system + user");
	like(sv(m0, "content"), "never invent ids", "openai: the same system text");
	const char *uc = sv(m1, "content");
	const char *want_user = "The agent's goal: Add Ada\nScene:\n{\"width\":1080,\"height\":2400,\"elements\":[{\"id\":\"e1111\"";
	ok(!strncmp(uc, want_user, strlen(want_user)), "openai: the same goal and Scene text");
	ok(!cJSON_GetObjectItemCaseSensitive(rq, "tools") && !cJSON_GetObjectItemCaseSensitive(rq, "temperature") &&
	   !cJSON_GetObjectItemCaseSensitive(rq, "top_p") && !cJSON_GetObjectItemCaseSensitive(rq, "output_config") &&
	   !strstr(last_body, "cache_control"), "openai: no tools, sampling parameters or Anthropic fields");
	cJSON_Delete(rq);
	txt = cJSON_PrintUnformatted(s);
	like(txt, "\"page\":\"contact list\"", "openai: page kept");
	like(txt, "e1111", "openai: known widget kept");
	ok(!strstr(txt, "e9999"), "openai: widget with an unknown element id dropped");
	free(txt);
	cJSON_Delete(s);

	/* every expected failure: NULL, one request, a reason */
#define OERR(t) "{\"error\":{\"message\":\"" t "\",\"type\":\"server_error\"}}"
	fail_case ocases[] = {
		{ "429", { 429, NULL, NULL, OERR("busy"), 0, NULL }, "HTTP 429" },
		{ "500", { 500, NULL, NULL, OERR("boom"), 0, NULL }, "HTTP 500" },
		{ "finish_reason length", { 0, "length", "{\"page\":\"x\",\"intents\":[", NULL, 0, NULL }, "cut off" },
		{ "refusal", { 0, NULL, NULL, NULL, 0, "I can't help with that." }, "refused" },
		{ "null content", { 0, NULL, NULL, NULL, 0, NULL }, "no content" },
		{ "not JSON", { 0, NULL, "Sure! Here is the page: contacts", NULL, 0, NULL }, "not JSON" },
		{ "schema-invalid", { 0, NULL, "{\"page\":\"p\",\"intents\":\"look\",\"widgets\":[]}", NULL, 0, NULL }, "schema" },
		{ "intent not a string", { 0, NULL, "{\"page\":\"p\",\"intents\":[1],\"widgets\":[]}", NULL, 0, NULL }, "intent" },
		{ "malformed body", { 0, NULL, NULL, "{\"choices\":[{\"message\":", 0, NULL }, "malformed" },
		{ "no choices", { 0, NULL, NULL, "{\"object\":\"chat.completion\"}", 0, NULL }, "malformed" },
	};
	expect_failures(en, &sc, "openai ", ocases, sizeof ocases / sizeof ocases[0]);
	amc_enricher_free(en);

	/* timeout: the budget ends the call */
	amc_openai *oa = NULL;
	ok(amc_openai_new(&oa, &e) == 0, "an OpenAI-compatible client");
	en = amc_enricher_new(amc_openai_client(oa), NULL, 500);
	memset(&R, 0, sizeof R);
	R.text = "{\"page\":\"late\",\"intents\":[],\"widgets\":[]}";
	R.delay_ms = 3000;
	before = requests;
	t0 = amc_mono_ms();
	s = amc_enrich_scene(en, &sc, NULL);
	took = amc_mono_ms() - t0;
	ok(s == NULL, "openai timeout: NULL");
	ok(took < 2000, "openai: within the budget (%lld ms)", took);
	like(amc_enricher_last_error(en), "imeout", "openai timeout: reason logged");
	is_int(requests - before, 1, "openai timeout: one request");
	is_int(amc_enricher_calls(en), 1, "openai timeout: one call");
	amc_enricher_free(en);
	memset(&R, 0, sizeof R);

	/* connection error */
	mock_stop(m);
	setenv("ANTHROPIC_API_KEY", "sk-ant-semantic-test", 1);
	ok(amc_anthropic_new(NULL, &client, &e) == 0, "an Anthropic client");
	en = amc_enricher_new(amc_anthropic_client(client), NULL, 1000);
	ok(amc_enrich_scene(en, &sc, NULL) == NULL, "connection refused: NULL");
	ok(amc_enricher_last_error(en)[0] != 0, "with a reason (%s)", amc_enricher_last_error(en));
	amc_enricher_free(en);
	ok(amc_openai_new(&oa, &e) == 0, "an OpenAI-compatible client");
	en = amc_enricher_new(amc_openai_client(oa), NULL, 1000);
	ok(amc_enrich_scene(en, &sc, NULL) == NULL, "openai connection refused: NULL");
	like(amc_enricher_last_error(en), "OpenAI-compatible server", "with the client's reason (%s)", amc_enricher_last_error(en));
	amc_enricher_free(en);
	return done_testing();
}
