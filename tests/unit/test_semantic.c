/* test_semantic.c - SemanticScene enrichment against the fake endpoint: one
 * call per enrichment, the request shape (json_schema output, cache_control, no
 * sampling or thinking), unknown element ids dropped, and NULL for every
 * expected failure without retries or hangs. */
#include <stdlib.h>
#include <string.h>

#include "../mock/anthropic_mock.h"
#include "semantic/enrich.h"
#include "tap.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/config.h"

typedef struct reply {
	int status;
	const char *stop;
	const char *text;    /* the JSON the model "wrote" */
	const char *raw;     /* a raw body instead */
	long delay_ms;
} reply;

static reply R;
static int requests, violations;
static char last_violation[512], last_body[65536];

static void handler(void *ud, const mock_req *rq, mock_resp *rs)
{
	(void)ud;
	requests++;
	snprintf(last_body, sizeof last_body, "%s", rq->body);
	char why[512];
	if (amc_mock_check_request(rq, why, sizeof why) != 0) {
		violations++;
		snprintf(last_violation, sizeof last_violation, "%s", why);
	}
	rs->delay_ms = R.delay_ms;
	rs->status = R.status ? R.status : 200;
	if (R.raw) {
		rs->body = strdup(R.raw);
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

#define ERRBODY(t) "{\"type\":\"error\",\"error\":{\"type\":\"" t "\",\"message\":\"x\"}}"

int main(void)
{
	test_home("semantic");
	mock_server *m = mock_start(0, handler, NULL);
	char base[64];
	snprintf(base, sizeof base, "http://127.0.0.1:%d", mock_port(m));
	setenv("ANTHROPIC_BASE_URL", base, 1);
	setenv("ANTHROPIC_API_KEY", "sk-ant-semantic-test", 1);
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
	setenv("ANTHROPIC_API_KEY", "sk-ant-semantic-test", 1);
	is_int(amc_enricher_from_config(cfg, &en, &e), 0, "enrich = on: an enricher");
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
	struct { const char *name; reply r; const char *why; } cases[] = {
		{ "429", { 429, NULL, NULL, ERRBODY("rate_limit_error"), 0 }, "HTTP 429" },
		{ "500", { 500, NULL, NULL, ERRBODY("api_error"), 0 }, "HTTP 500" },
		{ "529", { 529, NULL, NULL, ERRBODY("overloaded_error"), 0 }, "HTTP 529" },
		{ "refusal", { 0, "refusal", "{\"page\":", NULL, 0 }, "refused" },
		{ "max_tokens", { 0, "max_tokens", "{\"page\":\"x\",\"intents\":[", NULL, 0 }, "max_tokens" },
		{ "not JSON", { 0, NULL, "Sure! Here is the page: contacts", NULL, 0 }, "not JSON" },
		{ "schema-invalid", { 0, NULL, "{\"page\":3,\"intents\":[],\"widgets\":[]}", NULL, 0 }, "schema" },
		{ "widget without purpose", { 0, NULL, "{\"page\":\"p\",\"intents\":[],\"widgets\":[{\"element_id\":\"e1111\"}]}", NULL, 0 }, "purpose" },
		{ "malformed body", { 0, NULL, NULL, "{\"type\":\"message\",\"content\":[", 0 }, "malformed" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		R = cases[i].r;
		before = requests;
		s = amc_enrich_scene(en, &sc, NULL);
		ok(s == NULL, "%s: NULL", cases[i].name);
		is_int(requests - before, 1, "%s: one request, no retry", cases[i].name);
		like(amc_enricher_last_error(en), cases[i].why, "%s: reason logged", cases[i].name);
		cJSON_Delete(s);
	}

	/* timeout: the budget ends the call */
	amc_enricher_free(en);
	amc_anthropic *client = NULL;
	amc_anthropic_new(NULL, &client, &e);
	en = amc_enricher_new(client, NULL, 500);
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

	/* connection error */
	mock_stop(m);
	amc_anthropic_new(NULL, &client, &e);
	en = amc_enricher_new(client, NULL, 1000);
	ok(amc_enrich_scene(en, &sc, NULL) == NULL, "connection refused: NULL");
	ok(amc_enricher_last_error(en)[0] != 0, "with a reason (%s)", amc_enricher_last_error(en));
	amc_enricher_free(en);
	return done_testing();
}
