/* providers.h - a passive capability snapshot of each model provider, for
 * `amc providers`: no model call (reading a model catalog is allowed and cached
 * in $AMC_HOME/providers-cache.json until it expires). What is not known is
 * null, never guessed (seed 003). */
#ifndef AMC_PROVIDERS_H
#define AMC_PROVIDERS_H

#include <cjson/cJSON.h>
#include "util/config.h"
#include "util/err.h"

#define AMC_PROVIDERS_TTL_MS (3600LL * 1000)

/* {"providers":[{name, configured, source, base_url, auth_mode, billing_mode,
 * health, health_detail, observed_at, expires_at, models, models_from}]}.
 * offline: read nothing over the network (catalogs only from a fresh cache).
 * Caller owns the result. */
cJSON *amc_providers_snapshot(const char *home, const amc_config *cfg, int offline);

#endif
