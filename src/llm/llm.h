/* llm.h - what every model provider shares: usage counts, the price table and
 * reading API keys.
 *
 * Keys come only from the environment or from a file named in the configuration
 * that is a regular file with mode 0600 (or stricter); they are never written to
 * the database, artifacts, logs or error messages. */
#ifndef AMC_LLM_H
#define AMC_LLM_H

#include <cjson/cJSON.h>
#include "util/err.h"

/* Token counts of one call or a sum of calls; -1 = unknown (never guessed). */
typedef struct amc_llm_usage {
	long long input_tokens;
	long long output_tokens;
	long long cache_creation_input_tokens;
	long long cache_read_input_tokens;
} amc_llm_usage;

void amc_llm_usage_unknown(amc_llm_usage *u);
/* Add b to a; a field stays known only where both are known or a is unknown and b known. */
void amc_llm_usage_add(amc_llm_usage *a, const amc_llm_usage *b);

/* USD per million tokens for one model. */
typedef struct amc_price {
	double input, output, cache_write, cache_read;
} amc_price;

typedef struct amc_prices amc_prices;
/* Load a price table: JSON {"models":{"MODEL":{"input_per_mtok":..,"output_per_mtok":..,
 * "cache_write_per_mtok":..,"cache_read_per_mtok":..}}}. path NULL: the bundled
 * data/prices.json. Owned by the caller (amc_prices_free). */
int amc_prices_load(const char *path, amc_prices **out, amc_err *e);
void amc_prices_free(amc_prices *p);
/* 0 and *out filled when the model is in the table, by its exact id or as a
 * dated snapshot of one (id-YYYYMMDD); -1 otherwise. */
int amc_prices_find(const amc_prices *p, const char *model, amc_price *out);
/* Cost in USD of `u` for `model`; < 0 when the model's price or a count is unknown. */
double amc_prices_cost(const amc_prices *p, const char *model, const amc_llm_usage *u);

/* The model ids of a `/models` catalog answer ({"data":[{"id":...}]}), at most
 * 500; `who` names the endpoint in the error. *ids is a JSON array the caller owns. */
int amc_llm_model_ids(const char *body, size_t len, const char *who, cJSON **ids, amc_err *e);
/* Read a key: the environment variable `env` if set and non-empty, else the
 * first line of `file` (if not NULL/"") after checking it is a regular file
 * with no group/other permission bits. Returns a malloc'd string; NULL with
 * AMC_EENV when neither gives one (`hint` completes the message, e.g.
 * "set ANTHROPIC_API_KEY or llm.anthropic_key_file"). */
char *amc_llm_read_key(const char *env, const char *file, const char *hint, amc_err *e);
/* Overwrite a key with zeros, then free it (NULL is fine). */
void amc_llm_key_free(char *key);
/* base without trailing slashes into out (cap bytes at most, NUL included);
 * AMC_EUSAGE "VAR is too long" when it does not fit. */
int amc_llm_base_url(const char *var, const char *base, char *out, size_t cap, amc_err *e);

#endif
