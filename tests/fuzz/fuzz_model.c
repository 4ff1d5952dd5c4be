/* Fuzz target: what amc reads from a model provider's responses: a Messages
 * body and its tool call (llm/anthropic.c), a chat completion and its JSON
 * action (llm/openai.c), both against the planner's tools; the SemanticScene
 * answer (semantic/enrich.c), a /models catalog, the spend-limit marker of an
 * error body (llm/), and the tool input of an AI command's answer
 * (planner/ai_judge.c) for each of the three commands. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/ai_judge.h"
#include "planner/llm_planner.h"
#include "llm/anthropic.h"
#include "llm/openai.h"
#include "llm/http.h"
#include "llm/llm.h"
#include "semantic/enrich.h"

/* A client whose every answer calls `tool` with the fuzz input as arguments. */
typedef struct judge_in {
	const char *text;
	const char *tool;
} judge_in;

static int j_turn(amc_llm_client *c, const amc_llm_turn_req *rq, amc_llm_turn_res *res, amc_err *e)
{
	(void)rq;
	(void)e;
	judge_in *in = c->impl;
	memset(res, 0, sizeof *res);
	amc_llm_usage_unknown(&res->usage);
	res->answered = 1;
	snprintf(res->tool, sizeof res->tool, "%s", in->tool);
	res->input = cJSON_Parse(in->text);
	return 0;
}

static void j_destroy(amc_llm_client *c)
{
	(void)c;
}

static const amc_llm_client_ops JUDGE_OPS = { "fuzz", j_turn, NULL, NULL, NULL, j_destroy };

static void judge(const char *text, const amc_scene *sc)
{
	static const char *const CMD[3][2] = { { "assertWithAI", "report_assertion" },
					       { "assertNoDefectsWithAI", "report_defects" },
					       { "extractTextWithAI", "report_text" } };
	amc_observation o;
	memset(&o, 0, sizeof o);
	o.scene = *sc;
	for (int i = 0; i < 3; i++) {
		judge_in in = { text, CMD[i][1] };
		amc_ai_judge *j = amc_ai_judge_new(amc_llm_client_new(&JUDGE_OPS, &in), NULL, "m", 0, 0, 0);
		amc_action a;
		memset(&a, 0, sizeof a);
		amc_err e;
		(void)amc_ai_judge_ask(j, CMD[i][0], "q", &o, &a, &e);
		amc_action_clear(&a);
		amc_ai_judge_free(j);
	}
}

/* The body as each provider's answer, read as a turn's call would be. */
static void answers(const char *text, size_t size)
{
	static cJSON *tools;
	if (!tools) {
		tools = amc_llm_planner_tools();
		cJSON *j = amc_ai_judge_tools(), *t;
		while ((t = cJSON_DetachItemFromArray(j, 0)))
			cJSON_AddItemToArray(tools, t);
		cJSON_Delete(j);
	}
	amc_err e;
	amc_anthropic_result ar;
	memset(&ar, 0, sizeof ar);
	amc_llm_usage_unknown(&ar.usage);
	if (amc_anthropic_parse(text, size, &ar, &e) == 0) {
		for (int tool_auto = 0; tool_auto < 2; tool_auto++) {
			amc_llm_turn_res res;
			memset(&res, 0, sizeof res);
			amc_anthropic_read_call(&ar, tools, tool_auto, &res);
			amc_llm_turn_res_free(&res);
		}
		amc_anthropic_result_free(&ar);
	}
	amc_openai_result or;
	memset(&or, 0, sizeof or);
	amc_llm_usage_unknown(&or.usage);
	if (amc_openai_parse(text, size, &or, &e) == 0) {
		amc_llm_turn_res res;
		memset(&res, 0, sizeof res);
		amc_openai_read_call(&or, tools, &res);
		amc_llm_turn_res_free(&res);
		amc_openai_result_free(&or);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;

	amc_element els[2];
	memset(els, 0, sizeof els);
	strcpy(els[0].id, "e1111");
	els[0].type = "button";
	els[0].text = "Add contact";
	els[0].bounds = (amc_bounds){ 900, 2100, 1040, 2300 };
	strcpy(els[1].id, "e2222");
	els[1].type = "text";
	els[1].text = "Contacts";
	amc_scene sc = { 1080, 2400, els, 2 };
	char why[256];
	cJSON *s = amc_semantic_parse(text, &sc, why, sizeof why);
	cJSON_Delete(s);
	judge(text, &sc);
	answers(text, size);

	cJSON *ids = NULL;
	amc_err e;
	if (amc_llm_model_ids(text, size, "fuzz", &ids, &e) == 0)
		cJSON_Delete(ids);
	(void)amc_http_spend_limit(text, size);
	free(text);
	return 0;
}
