/* test_ai_judge.c - the AI commands' judge (planner/ai_judge.c) on a fake
 * client: what it sends (the command's tool alone, forced; the assertion; the
 * Scene; the screenshot), how each answer becomes the step (verdicts, defects
 * listed and capped, an extracted text), and what is refused (a wrong tool, a
 * missing field, a refusal, a cut answer, a failed call, no screen). */
#include <stdlib.h>
#include <string.h>

#include "planner/ai_judge.h"
#include "tap.h"
#include "util/strbuf.h"

typedef struct fake {
	int rc;                /* what turn() returns */
	amc_llm_stop stop;
	char tool[32];
	const char *input;     /* the call's arguments as JSON */
	/* what the last request held */
	int calls, forced, ntools, had_image;
	char tool_sent[32], intro[8192], now[65536];
} fake;

static int f_turn(amc_llm_client *c, const amc_llm_turn_req *rq, amc_llm_turn_res *res, amc_err *e)
{
	fake *f = c->impl;
	memset(res, 0, sizeof *res);
	f->calls++;
	f->forced = !rq->tool_choice_auto;
	f->ntools = cJSON_GetArraySize(rq->tools);
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rq->tools, 0), "name");
	snprintf(f->tool_sent, sizeof f->tool_sent, "%s", cJSON_IsString(n) ? n->valuestring : "");
	snprintf(f->intro, sizeof f->intro, "%s", rq->intro ? rq->intro : "");
	snprintf(f->now, sizeof f->now, "%s", rq->now ? rq->now : "");
	f->had_image = rq->image_png_b64 != NULL;
	amc_llm_usage_unknown(&res->usage);
	if (f->rc != 0)
		return amc_err_set(e, AMC_EFAIL, "HTTP 500 from the fake");
	res->answered = 1;
	res->stop = f->stop;
	res->usage.input_tokens = 700;
	res->usage.output_tokens = 30;
	snprintf(res->tool, sizeof res->tool, "%s", f->tool);
	res->input = f->input ? cJSON_Parse(f->input) : NULL;
	return 0;
}

static void f_destroy(amc_llm_client *c)
{
	(void)c;
}

static const amc_llm_client_ops FAKE_OPS = { "fake", f_turn, NULL, NULL, NULL, f_destroy };

static amc_observation screen(void)
{
	amc_observation o;
	memset(&o, 0, sizeof o);
	amc_err e;
	amc_image_alloc(&o.img, 40, 80, &e);
	o.scene.width = 40;
	o.scene.height = 80;
	o.scene.count = 1;
	o.scene.elements = calloc(1, sizeof *o.scene.elements);
	snprintf(o.scene.elements[0].id, sizeof o.scene.elements[0].id, "e1");
	o.scene.elements[0].type = "text";
	o.scene.elements[0].text = amc_xstrdup("Contacts");
	o.scene.elements[0].resource_id = amc_xstrdup("");
	o.scene.elements[0].bounds = (amc_bounds){ 1, 2, 30, 10 };
	return o;
}

static void screen_free(amc_observation *o)
{
	amc_image_free(&o->img);
	free(o->scene.elements[0].text);
	free(o->scene.elements[0].resource_id);
	free(o->scene.elements);
}

/* Ask once with the fake answering `tool` with `input`; rc of the ask. */
static int ask(fake *f, const char *command, const char *prompt, const char *tool, const char *input,
	       amc_action *out, amc_err *e)
{
	f->rc = 0;
	f->stop = AMC_LLM_STOP_OK;
	snprintf(f->tool, sizeof f->tool, "%s", tool);
	f->input = input;
	amc_ai_judge *j = amc_ai_judge_new(amc_llm_client_new(&FAKE_OPS, f), NULL, "m-1", 0, 0, 0);
	amc_observation o = screen();
	amc_action_clear(out);
	memset(out, 0, sizeof *out);
	amc_err_clear(e);
	int rc = amc_ai_judge_ask(j, command, prompt, &o, out, e);
	screen_free(&o);
	amc_ai_judge_free(j);
	return rc;
}

static const char *res_str(const amc_action *a, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(a->decided_result, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

int main(void)
{
	fake f;
	memset(&f, 0, sizeof f);
	amc_action a;
	memset(&a, 0, sizeof a);
	amc_err e;

	/* the tools: one per command, strict, each asking for a reason */
	cJSON *tools = amc_ai_judge_tools();
	is_int(cJSON_GetArraySize(tools), 3, "three tools, one per AI command");
	const cJSON *t;
	int strict = 0;
	cJSON_ArrayForEach(t, tools) {
		const cJSON *sc = cJSON_GetObjectItemCaseSensitive(t, "input_schema");
		char *req = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(sc, "required"));
		strict += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "strict")) &&
			  cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(sc, "additionalProperties")) && strstr(req, "\"reason\"");
		free(req);
	}
	is_int(strict, 3, "each strict, closed, with a required reason");
	cJSON_Delete(tools);

	/* assertWithAI: true */
	ok(ask(&f, "assertWithAI", "a list of contacts", "report_assertion", "{\"passed\":true,\"reason\":\"the list\"}",
	       &a, &e) == 0, "assertWithAI answered");
	is_str(f.tool_sent, "report_assertion", "only report_assertion is offered");
	is_int(f.ntools, 1, "one tool");
	ok(f.forced, "and the call is forced");
	like(f.intro, "Assertion: a list of contacts", "the assertion is sent");
	like(f.now, "\"text\":\"Contacts\"", "the Scene is sent");
	ok(f.had_image, "the screenshot is sent");
	ok(a.decided && a.decided_ok && !a.decided_error, "a true verdict passes the step");
	is_str(res_str(&a, "reason"), "the list", "the reason is in the result");
	is_int(a.input_tokens, 700, "the call's tokens are the step's");
	ok(a.cost_usd < 0, "no price table: cost unknown");
	ok(a.decision && cJSON_GetObjectItemCaseSensitive(a.decision, "user"), "the decision record holds the prompt");

	/* false, with a hostile reason made one terminal-safe line */
	ok(ask(&f, "assertWithAI", "x", "report_assertion",
	       "{\"passed\":false,\"reason\":\"no \\u001b]52;c;QUFB\\u0007list\\nhere\"}", &a, &e) == 0, "a false verdict is an answer");
	ok(a.decided && !a.decided_ok, "it fails the step");
	like(a.decided_error, "the model judged the assertion false: no ", "saying the model's verdict");
	ok(a.decided_error && !strchr(a.decided_error, 0x1b) && !strchr(a.decided_error, 0x07) &&
	   !strchr(a.decided_error, '\n'), "without control bytes or new lines");

	/* assertNoDefectsWithAI */
	ok(ask(&f, "assertNoDefectsWithAI", NULL, "report_defects", "{\"defects\":[],\"reason\":\"fine\"}", &a, &e) == 0 &&
	   a.decided_ok, "no defects: passes");
	is_str(f.tool_sent, "report_defects", "report_defects offered");
	amc_sb many;
	amc_sb_init(&many);
	amc_sb_puts(&many, "{\"reason\":\"r\",\"defects\":[");
	for (int i = 0; i < 30; i++)
		amc_sb_printf(&many, "%s{\"category\":\"layout\",\"reasoning\":\"overlap %d\"}", i ? "," : "", i);
	amc_sb_puts(&many, "]}");
	ok(ask(&f, "assertNoDefectsWithAI", NULL, "report_defects", amc_sb_str(&many), &a, &e) == 0 && !a.decided_ok,
	   "30 defects fail the step");
	is_int(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(a.decided_result, "defects")), AMC_AI_JUDGE_DEFECTS_MAX,
	       "at most %d are listed", AMC_AI_JUDGE_DEFECTS_MAX);
	is_int(cJSON_GetObjectItemCaseSensitive(a.decided_result, "defects_not_listed")->valueint, 10,
	       "the rest are counted");
	like(a.decided_error, "the model found 30 defects; the first: layout: overlap 0", "the error names the first");
	amc_sb_free(&many);

	/* extractTextWithAI */
	ok(ask(&f, "extractTextWithAI", "the title", "report_text", "{\"text\":\"Contacts\",\"reason\":\"top\"}", &a, &e) == 0 &&
	   a.decided_ok, "a text extracted");
	is_str(res_str(&a, "text"), "Contacts", "the text is the result");
	like(f.intro, "Query: the title", "the query is sent");
	ok(ask(&f, "extractTextWithAI", "q", "report_text", "{\"text\":\"\",\"reason\":\"absent\"}", &a, &e) == 0 &&
	   !a.decided_ok, "an empty text fails the step");
	like(a.decided_error, "found nothing on the screen", "saying so");
	char *big = malloc(20000);
	memcpy(big, "{\"reason\":\"r\",\"text\":\"", 22);
	memset(big + 22, 'x', 10000);
	strcpy(big + 10022, "\"}");
	ok(ask(&f, "extractTextWithAI", "q", "report_text", big, &a, &e) == 0, "a 10000-byte text");
	ok(res_str(&a, "text") && strlen(res_str(&a, "text")) <= AMC_AI_JUDGE_TEXT_MAX + 3, "is cut to the bound");
	free(big);

	/* refusals */
	ok(ask(&f, "assertWithAI", "x", "report_text", "{\"text\":\"a\",\"reason\":\"r\"}", &a, &e) == -1, "another tool");
	like(e.msg, "did not call report_assertion", "is no answer");
	ok(a.decision && cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a.decision, "detail"), "error"),
	   "and the decision record says why");
	ok(ask(&f, "assertWithAI", "x", "report_assertion", "{\"reason\":\"r\"}", &a, &e) == -1, "no passed field");
	like(e.msg, "no true/false `passed`", "is no answer");
	ok(ask(&f, "assertNoDefectsWithAI", NULL, "report_defects", "{\"defects\":3,\"reason\":\"r\"}", &a, &e) == -1,
	   "defects that are no list");
	ok(ask(&f, "frobWithAI", "x", "report_text", "{}", &a, &e) == -1, "an unknown command");
	like(e.msg, "frobWithAI is not an AI command", "is refused");

	f.rc = 0;
	f.stop = AMC_LLM_STOP_REFUSAL;
	snprintf(f.tool, sizeof f.tool, "report_assertion");
	f.input = "{\"passed\":true,\"reason\":\"r\"}";
	amc_ai_judge *j = amc_ai_judge_new(amc_llm_client_new(&FAKE_OPS, &f), NULL, NULL, 0, 0, 0);
	amc_observation o = screen();
	amc_action_clear(&a);
	ok(amc_ai_judge_ask(j, "assertWithAI", "x", &o, &a, &e) == -1, "a refusal");
	like(e.msg, "the model refused", "is no answer");
	f.stop = AMC_LLM_STOP_MAX_TOKENS;
	amc_action_clear(&a);
	ok(amc_ai_judge_ask(j, "assertWithAI", "x", &o, &a, &e) == -1, "a cut answer");
	like(e.msg, "cut off at planner.max_tokens", "is no answer");
	f.rc = -1;
	amc_action_clear(&a);
	ok(amc_ai_judge_ask(j, "assertWithAI", "x", &o, &a, &e) == -1, "a failed call");
	like(e.msg, "HTTP 500 from the fake", "says the client's error");
	int calls = f.calls;
	amc_action_clear(&a);
	ok(amc_ai_judge_ask(j, "assertWithAI", "x", NULL, &a, &e) == -1, "no screen");
	is_int(f.calls, calls, "asks no model");
	amc_action_clear(&a);
	screen_free(&o);
	amc_ai_judge_free(j);
	return done_testing();
}
