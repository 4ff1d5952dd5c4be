/* enrich.h - SemanticScene enrichment: one model call turns a Scene
 * into {page, intents[], widgets:[{element_id, purpose}]}.
 *
 * Off by default (semantic.enrich = off). semantic.provider picks the backend
 * as planner.provider does: anthropic, openai (an OpenAI-compatible local
 * server at AMC_OPENAI_BASE_URL), or auto (Anthropic when a key is set, else the
 * local server when AMC_OPENAI_BASE_URL is set). Exactly one structured-output
 * call per enrichment (llm/client.h; the json_schema is named
 * "semantic_scene"), no tools. Model semantic.model (default
 * claude-haiku-4-5; a local server needs its own name), max_tokens 1024, no
 * sampling, thinking or effort settings, and a time budget
 * (semantic.timeout_ms, default 8 s) with no retries inside it. Every expected
 * failure (disabled, timeout, 429, 5xx, connection error, refusal, max_tokens,
 * no content, invalid JSON or schema) logs its reason and returns NULL: the
 * loop goes on with the raw Scene. Widgets naming element ids that are not in
 * the Scene are dropped. */
#ifndef AMC_ENRICH_H
#define AMC_ENRICH_H

#include <cjson/cJSON.h>
#include "llm/client.h"
#include "perception/scene.h"
#include "util/config.h"

#define AMC_SEMANTIC_DEFAULT_MODEL "claude-haiku-4-5"

typedef struct amc_enricher amc_enricher;

/* NULL (and 0) when semantic.enrich is off; -1 with e when it is on but cannot
 * work (no key and no local server: AMC_EENV saying what to set). The caller
 * owns *out (amc_enricher_free). */
int amc_enricher_from_config(const amc_config *c, amc_enricher **out, amc_err *e);
/* Takes ownership of client (freed with the enricher) and sets its attempts
 * and timeouts to the budget. timeout_ms <= 0: 8000. */
amc_enricher *amc_enricher_new(amc_llm_client *client, const char *model, long timeout_ms);
void amc_enricher_free(amc_enricher *en);

/* The SemanticScene (caller owns) or NULL; `context` (the goal, may be NULL)
 * helps name intents. NULL enricher: NULL. Thread: one caller at a time. */
cJSON *amc_enrich_scene(amc_enricher *en, const amc_scene *scene, const char *context);
/* The last failure reason ("" after a success), for tests and logs. */
const char *amc_enricher_last_error(const amc_enricher *en);
/* Model calls made so far. */
int amc_enricher_calls(const amc_enricher *en);
/* The client's name ("anthropic", "openai"), or "none" for NULL (static strings). */
const char *amc_enricher_provider(const amc_enricher *en);

/* A model's answer text -> SemanticScene (caller owns) checked against the
 * schema with widgets naming unknown element ids dropped, or NULL with the
 * reason in why. What amc_enrich_scene does with the answer; exposed for the
 * fuzz target. */
cJSON *amc_semantic_parse(const char *text, const amc_scene *scene, char *why, size_t why_n);

/* The json_schema sent (caller owns). */
cJSON *amc_semantic_schema(void);

#endif
