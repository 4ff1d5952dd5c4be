/* enrich.h - SemanticScene enrichment (seed 002): one model call turns a Scene
 * into {page, intents[], widgets:[{element_id, purpose}]}.
 *
 * Off by default (semantic.enrich = off). Exactly one call per enrichment, with
 * structured output (output_config.format json_schema), model
 * semantic.model (default claude-haiku-4-5), no thinking or effort settings,
 * cache_control on the fixed system/schema prefix, and a time budget
 * (semantic.timeout_ms, default 8 s) with no retries inside it. Every expected
 * failure (disabled, timeout, 429, 5xx, connection error, refusal, max_tokens,
 * invalid JSON or schema) logs its reason and returns NULL: the loop goes on
 * with the raw Scene. Widgets naming element ids that are not in the Scene are
 * dropped. */
#ifndef AMC_ENRICH_H
#define AMC_ENRICH_H

#include <cjson/cJSON.h>
#include "llm/anthropic.h"
#include "perception/scene.h"
#include "util/config.h"

#define AMC_SEMANTIC_DEFAULT_MODEL "claude-haiku-4-5"

typedef struct amc_enricher amc_enricher;

/* NULL (and 0) when semantic.enrich is off; -1 with e when it is on but cannot
 * work (no key: AMC_EENV saying what to set). */
int amc_enricher_from_config(const amc_config *c, amc_enricher **out, amc_err *e);
/* Takes ownership of client. timeout_ms <= 0: 8000. */
amc_enricher *amc_enricher_new(amc_anthropic *client, const char *model, long timeout_ms);
void amc_enricher_free(amc_enricher *en);

/* The SemanticScene (caller owns) or NULL; `context` (the goal, may be NULL)
 * helps name intents. NULL enricher: NULL. Thread: one caller at a time. */
cJSON *amc_enrich_scene(amc_enricher *en, const amc_scene *scene, const char *context);
/* The last failure reason ("" after a success), for tests and logs. */
const char *amc_enricher_last_error(const amc_enricher *en);
/* Model calls made so far. */
int amc_enricher_calls(const amc_enricher *en);

/* The json_schema sent (caller owns). */
cJSON *amc_semantic_schema(void);

#endif
