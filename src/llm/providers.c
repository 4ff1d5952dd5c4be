#include "llm/providers.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llm/anthropic.h"
#include "llm/openai.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static void iso(cJSON *o, const char *k, long long ms)
{
	if (ms <= 0) {
		cJSON_AddNullToObject(o, k);
		return;
	}
	char b[64];
	amc_format_time(ms, b, sizeof b);
	cJSON_AddStringToObject(o, k, b);
}

static void str_or_null(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *load_cache(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	amc_err e;
	if (amc_read_file(path, 4u << 20, &buf, &len, &e) != 0)
		return cJSON_CreateObject();
	cJSON *j = cJSON_ParseWithLength(buf, len);
	free(buf);
	return cJSON_IsObject(j) ? j : (cJSON_Delete(j), cJSON_CreateObject());
}

/* Models of `name`: from a fresh cache, else (online) from the catalog. */
static void models(cJSON *p, cJSON *cache, const char *name, int offline, int have_client,
		   int (*fetch)(void *c, cJSON **ids, amc_err *e), void *client, int *dirty)
{
	long long now = amc_now_ms();
	cJSON *ce = cJSON_GetObjectItemCaseSensitive(cache, name);
	const cJSON *exp = cJSON_GetObjectItemCaseSensitive(ce, "expires_at_ms");
	const cJSON *obs = cJSON_GetObjectItemCaseSensitive(ce, "observed_at_ms");
	const cJSON *ids = cJSON_GetObjectItemCaseSensitive(ce, "models");
	if (cJSON_IsNumber(exp) && exp->valuedouble > (double)now && cJSON_IsArray(ids) && cJSON_IsNumber(obs)) {
		iso(p, "observed_at", (long long)obs->valuedouble);
		iso(p, "expires_at", (long long)exp->valuedouble);
		cJSON_AddStringToObject(p, "health", "ok");
		cJSON_AddNullToObject(p, "health_detail");
		cJSON_AddItemToObject(p, "models", cJSON_Duplicate(ids, 1));
		cJSON_AddStringToObject(p, "models_from", "cache");
		return;
	}
	if (offline || !have_client) {
		iso(p, "observed_at", 0);
		iso(p, "expires_at", 0);
		cJSON_AddNullToObject(p, "health");
		str_or_null(p, "health_detail", offline ? "not checked (--offline)" : NULL);
		cJSON_AddNullToObject(p, "models");
		cJSON_AddNullToObject(p, "models_from");
		return;
	}
	cJSON *got = NULL;
	amc_err e;
	if (fetch(client, &got, &e) != 0) {
		iso(p, "observed_at", now);
		iso(p, "expires_at", 0);
		cJSON_AddStringToObject(p, "health", "error");
		cJSON_AddStringToObject(p, "health_detail", e.msg);
		cJSON_AddNullToObject(p, "models");
		cJSON_AddNullToObject(p, "models_from");
		return;
	}
	iso(p, "observed_at", now);
	iso(p, "expires_at", now + AMC_PROVIDERS_TTL_MS);
	cJSON_AddStringToObject(p, "health", "ok");
	cJSON_AddNullToObject(p, "health_detail");
	cJSON_AddItemToObject(p, "models", cJSON_Duplicate(got, 1));
	cJSON_AddStringToObject(p, "models_from", "network");
	cJSON *entry = cJSON_CreateObject();
	cJSON_AddNumberToObject(entry, "observed_at_ms", (double)now);
	cJSON_AddNumberToObject(entry, "expires_at_ms", (double)(now + AMC_PROVIDERS_TTL_MS));
	cJSON_AddItemToObject(entry, "models", got);
	cJSON_DeleteItemFromObjectCaseSensitive(cache, name);
	cJSON_AddItemToObject(cache, name, entry);
	*dirty = 1;
}

static int fetch_anthropic(void *c, cJSON **ids, amc_err *e)
{
	return amc_anthropic_models(c, ids, e);
}

static int fetch_openai(void *c, cJSON **ids, amc_err *e)
{
	return amc_openai_models(c, ids, e);
}

cJSON *amc_providers_snapshot(const char *home, const amc_config *cfg, int offline)
{
	char cpath[PATH_MAX];
	snprintf(cpath, sizeof cpath, "%s/providers-cache.json", home);
	cJSON *cache = load_cache(cpath);
	int dirty = 0;
	cJSON *root = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(root, "providers");

	/* Anthropic */
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "name", "anthropic");
	amc_anthropic *ac = NULL;
	amc_err e;
	const char *env = getenv("ANTHROPIC_API_KEY");
	const char *kf = amc_config_str(cfg, "llm", "anthropic_key_file");
	int ok = amc_anthropic_new(kf, &ac, &e) == 0;
	cJSON_AddBoolToObject(p, "configured", ok);
	str_or_null(p, "source", !ok ? NULL : env && *env ? "env ANTHROPIC_API_KEY" : "file llm.anthropic_key_file");
	if (ok)
		cJSON_AddStringToObject(p, "base_url", ac->base_url);
	else
		str_or_null(p, "base_url", NULL);
	str_or_null(p, "auth_mode", ok ? "api-key" : NULL);
	/* an API key is billed per token: pay-as-you-go, and said so */
	str_or_null(p, "billing_mode", ok ? "api-key (pay-as-you-go, billed per token)" : NULL);
	if (!ok)
		cJSON_AddStringToObject(p, "setup", e.msg);
	models(p, cache, "anthropic", offline, ok, fetch_anthropic, ac, &dirty);
	amc_anthropic_free(ac);
	cJSON_AddItemToArray(arr, p);

	/* OpenAI-compatible local server */
	p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "name", "openai-compatible");
	amc_openai *oc = NULL;
	ok = amc_openai_new(&oc, &e) == 0;
	cJSON_AddBoolToObject(p, "configured", ok);
	str_or_null(p, "source", ok ? "env AMC_OPENAI_BASE_URL" : NULL);
	if (ok)
		cJSON_AddStringToObject(p, "base_url", oc->base_url);
	else
		str_or_null(p, "base_url", NULL);
	str_or_null(p, "auth_mode", !ok ? NULL : oc->key ? "bearer (OPENAI_API_KEY)" : "none");
	/* a local server's billing is not knowable from here */
	cJSON_AddNullToObject(p, "billing_mode");
	if (!ok)
		cJSON_AddStringToObject(p, "setup", e.msg);
	models(p, cache, "openai-compatible", offline, ok, fetch_openai, oc, &dirty);
	amc_openai_free(oc);
	cJSON_AddItemToArray(arr, p);

	if (dirty) {
		char *s = amc_json_print(cache);
		amc_err we;
		if (amc_write_atomic(cpath, s, strlen(s), 0600, &we) != 0) {
			/* a cache that cannot be written only costs a later re-read */
		}
		free(s);
	}
	cJSON_Delete(cache);
	return root;
}

static int connect_anthropic(const char *key_file, amc_llm_client **out, amc_err *e)
{
	amc_anthropic *c = NULL;
	if (amc_anthropic_new(key_file, &c, e) != 0)
		return -1;
	*out = amc_anthropic_client(c);
	return 0;
}

/* The local server's client, or -1 with the message prefixed by `what`. */
static int connect_openai(const char *what, amc_llm_client **out, amc_err *e)
{
	amc_openai *c = NULL;
	if (amc_openai_new(&c, e) != 0)
		return amc_err_prefix(e, "%s", what);
	*out = amc_openai_client(c);
	return 0;
}

int amc_providers_connect(const char *provider, const char *key_file, const char *what,
			  amc_llm_client **out, amc_err *e)
{
	*out = NULL;
	if (!strcmp(provider, "openai"))
		return connect_openai(what, out, e);
	if (connect_anthropic(key_file, out, e) == 0)
		return 0;
	const char *ob = getenv("AMC_OPENAI_BASE_URL");
	if (strcmp(provider, "auto") || !ob || !*ob) {
		if (!strcmp(provider, "auto"))
			return amc_err_prefix(e, "%s (a local server would do too: set AMC_OPENAI_BASE_URL)", what);
		return amc_err_prefix(e, "%s", what);
	}
	return connect_openai(what, out, e);
}
