/* Fuzz target: what amc reads from a model provider's responses: the
 * SemanticScene answer (semantic/enrich.c), a /models catalog and the
 * spend-limit marker of an error body (llm/). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "llm/http.h"
#include "llm/llm.h"
#include "semantic/enrich.h"

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

	cJSON *ids = NULL;
	amc_err e;
	if (amc_llm_model_ids(text, size, "fuzz", &ids, &e) == 0)
		cJSON_Delete(ids);
	(void)amc_http_spend_limit(text, size);
	free(text);
	return 0;
}
