/* providers.h - a passive capability snapshot of each model provider, for
 * `amc providers`: no model call (reading a model catalog is allowed and cached
 * in $AMC_HOME/providers-cache.json until it expires). What is not known is
 * null, never guessed: a front end shows "unknown" rather than a wrong value. */
#ifndef AMC_PROVIDERS_H
#define AMC_PROVIDERS_H

#include <cjson/cJSON.h>
#include "llm/client.h"
#include "util/config.h"
#include "util/err.h"

#define AMC_PROVIDERS_TTL_MS (3600LL * 1000)

/* {"providers":[{name, configured, source, base_url, auth_mode, billing_mode,
 * health, health_detail, observed_at, expires_at, models, models_from}]}.
 * offline: read nothing over the network (catalogs only from a fresh cache).
 * Caller owns the result. */
cJSON *amc_providers_snapshot(const char *home, const amc_config *cfg, int offline);

/* Connect to the provider `provider` names (auto|anthropic|openai, as
 * planner.provider and semantic.provider): anthropic needs ANTHROPIC_API_KEY or
 * key_file; openai needs AMC_OPENAI_BASE_URL; auto takes Anthropic when a key
 * is there, else the local server when AMC_OPENAI_BASE_URL is set. *out is one
 * client the caller owns (amc_llm_client_free); on failure the message,
 * prefixed with `what`, says what to set. */
int amc_providers_connect(const char *provider, const char *key_file, const char *what,
			  amc_llm_client **out, amc_err *e);

#endif
