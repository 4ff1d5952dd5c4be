/* test_providers.c - the passive provider snapshot (llm/providers.c, what
 * `amc providers --json` prints): unconfigured providers say how to set them
 * up and know nothing, catalogs come from the local mock and are cached with
 * an expiry, --offline reads no network, and no key reaches the cache file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"
#include "testutil.h"
#include "../mock/mockhttp.h"
#include "llm/providers.h"
#include "util/fsutil.h"

typedef struct srv {
	int n;
	int status;          /* for every reply; 0: 200 */
} srv;

static void handler(void *ud, const mock_req *rq, mock_resp *rs)
{
	srv *s = ud;
	s->n++;
	rs->status = s->status;
	if (s->status >= 400)
		rs->body = strdup("{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
				  "\"message\":\"invalid x-api-key sk-ant-PROV-SECRET-99\"}}");
	else if (!strncmp(rq->path, "/v1/models", 10))
		rs->body = strdup("{\"data\":[{\"id\":\"claude-sonnet-5\"},{\"id\":\"claude-haiku-4-5\"}],\"has_more\":false}");
	else if (!strncmp(rq->path, "/oa/models", 10))
		rs->body = strdup("{\"object\":\"list\",\"data\":[{\"id\":\"qwen3-8b\"}]}");
	else {
		rs->status = 404;
		rs->body = strdup("{}");
	}
}

static const cJSON *prov(const cJSON *root, const char *name)
{
	const cJSON *p;
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(root, "providers")) {
		const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "name"));
		if (n && !strcmp(n, name))
			return p;
	}
	return NULL;
}

static const cJSON *get(const cJSON *p, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(p, k);
}

static const char *str(const cJSON *p, const char *k)
{
	return cJSON_GetStringValue(get(p, k));
}

static int is_null(const cJSON *p, const char *k)
{
	return cJSON_IsNull(get(p, k));
}

static char *read_cache(const char *home, mode_t *mode)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/providers-cache.json", home);
	struct stat st;
	if (stat(path, &st) != 0)
		return NULL;
	if (mode)
		*mode = st.st_mode & 0777;
	char *buf = NULL;
	size_t len = 0;
	amc_err e;
	return amc_read_file(path, 1 << 20, &buf, &len, &e) == 0 ? buf : NULL;
}

static void write_cache(const char *home, const char *text)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/providers-cache.json", home);
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void unset_all(void)
{
	unsetenv("ANTHROPIC_API_KEY");
	unsetenv("ANTHROPIC_BASE_URL");
	unsetenv("AMC_OPENAI_BASE_URL");
	unsetenv("OPENAI_API_KEY");
}

static void test_unconfigured(const char *home, const amc_config *cfg)
{
	unset_all();
	cJSON *r = amc_providers_snapshot(home, cfg, 0);
	is_int(cJSON_GetArraySize(get(r, "providers")), 2, "two providers listed");
	const cJSON *a = prov(r, "anthropic"), *o = prov(r, "openai-compatible");
	ok(a && o, "anthropic and openai-compatible");
	ok(cJSON_IsFalse(get(a, "configured")) && cJSON_IsFalse(get(o, "configured")), "neither is configured");
	ok(is_null(a, "source") && is_null(a, "base_url") && is_null(a, "auth_mode") && is_null(a, "billing_mode"),
	   "unconfigured anthropic: source, base_url, auth and billing are null (not guessed)");
	ok(is_null(a, "models") && is_null(a, "models_from") && is_null(a, "health") && is_null(a, "observed_at") &&
	   is_null(a, "expires_at"), "and nothing is known of its models or health");
	ok(is_null(a, "health_detail"), "without --offline there is no 'not checked' note");
	like(str(a, "setup"), "set ANTHROPIC_API_KEY", "setup says what to set for Anthropic");
	like(str(o, "setup"), "set AMC_OPENAI_BASE_URL", "and for a local server");
	ok(is_null(o, "models") && is_null(o, "base_url"), "unconfigured local server: models and URL null");
	cJSON_Delete(r);
	ok(read_cache(home, NULL) == NULL, "nothing fetched: no cache file written");

	r = amc_providers_snapshot(home, cfg, 1);
	is_str(str(prov(r, "anthropic"), "health_detail"), "not checked (--offline)", "--offline says it did not check");
	cJSON_Delete(r);
}

static void test_catalogs(const char *home, const amc_config *cfg, srv *s, int port)
{
	char url[128];
	unset_all();
	setenv("ANTHROPIC_API_KEY", "sk-ant-PROV-SECRET-99", 1);
	snprintf(url, sizeof url, "http://127.0.0.1:%d", port);
	setenv("ANTHROPIC_BASE_URL", url, 1);
	snprintf(url, sizeof url, "http://127.0.0.1:%d/oa/", port);
	setenv("AMC_OPENAI_BASE_URL", url, 1);

	/* --offline with no cache: configured, but no catalog read */
	s->n = 0;
	cJSON *r = amc_providers_snapshot(home, cfg, 1);
	const cJSON *a = prov(r, "anthropic"), *o = prov(r, "openai-compatible");
	is_int(s->n, 0, "--offline sends no request");
	ok(cJSON_IsTrue(get(a, "configured")) && cJSON_IsTrue(get(o, "configured")), "both configured");
	ok(is_null(a, "models") && is_null(o, "models"), "but their models are unknown (null)");
	is_str(str(a, "source"), "env ANTHROPIC_API_KEY", "anthropic's source is the environment");
	is_str(str(a, "auth_mode"), "api-key", "auth by API key");
	like(str(a, "billing_mode"), "pay-as-you-go", "billed per token, and said so");
	ok(!get(a, "setup"), "no setup hint when configured");
	is_str(str(o, "source"), "env AMC_OPENAI_BASE_URL", "the local server's source");
	char want[128];
	snprintf(want, sizeof want, "http://127.0.0.1:%d/oa", port);
	is_str(str(o, "base_url"), want, "its base URL as used (trailing slash dropped)");
	cJSON_Delete(r);

	/* online: both catalogs read and cached */
	s->n = 0;
	r = amc_providers_snapshot(home, cfg, 0);
	a = prov(r, "anthropic");
	o = prov(r, "openai-compatible");
	is_int(s->n, 2, "online: one catalog request per provider");
	is_str(str(a, "health"), "ok", "anthropic is healthy");
	is_str(str(a, "models_from"), "network", "its models came from the network");
	is_int(cJSON_GetArraySize(get(a, "models")), 2, "two Anthropic models");
	is_str(cJSON_GetStringValue(cJSON_GetArrayItem(get(o, "models"), 0)), "qwen3-8b", "the local server's model");
	is_str(str(o, "auth_mode"), "none", "no OPENAI_API_KEY: auth none");
	ok(is_null(o, "billing_mode"), "a local server's billing is not knowable: null");
	ok(str(a, "observed_at") && str(a, "expires_at") && strcmp(str(a, "observed_at"), str(a, "expires_at")) < 0,
	   "observed_at and expires_at are times, expiry later (%s, %s)",
	   str(a, "observed_at") ? str(a, "observed_at") : "null", str(a, "expires_at") ? str(a, "expires_at") : "null");
	cJSON_Delete(r);

	mode_t mode = 0;
	char *cache = read_cache(home, &mode);
	ok(cache != NULL, "the catalogs are cached in providers-cache.json");
	is_int(mode, 0600, "the cache file is 0600");
	ok(cache && !strstr(cache, "PROV-SECRET"), "the key is not in the cache file");
	ok(cache && !strstr(cache, "sk-ant"), "nor any part of it");
	cJSON *cj = cache ? cJSON_Parse(cache) : NULL;
	const cJSON *ce = get(cj, "anthropic");
	double obs = cJSON_GetNumberValue(get(ce, "observed_at_ms")), exp = cJSON_GetNumberValue(get(ce, "expires_at_ms"));
	ok(exp - obs == (double)AMC_PROVIDERS_TTL_MS, "the cache entry expires after AMC_PROVIDERS_TTL_MS");
	cJSON_Delete(cj);
	free(cache);

	/* a fresh cache answers without the network, online or offline */
	s->n = 0;
	r = amc_providers_snapshot(home, cfg, 0);
	is_int(s->n, 0, "a fresh cache: no request");
	is_str(str(prov(r, "anthropic"), "models_from"), "cache", "models from the cache");
	is_int(cJSON_GetArraySize(get(prov(r, "anthropic"), "models")), 2, "the same models");
	cJSON_Delete(r);
	r = amc_providers_snapshot(home, cfg, 1);
	is_str(str(prov(r, "openai-compatible"), "models_from"), "cache", "--offline reads a fresh cache");
	cJSON_Delete(r);

	/* an expired entry: not used; offline says not checked, online fetches again */
	write_cache(home, "{\"anthropic\":{\"observed_at_ms\":1000,\"expires_at_ms\":2000,\"models\":[\"old-model\"]},"
			  "\"openai-compatible\":{\"observed_at_ms\":1000,\"expires_at_ms\":4e15,\"models\":[\"kept\"]}}");
	s->n = 0;
	r = amc_providers_snapshot(home, cfg, 1);
	ok(is_null(prov(r, "anthropic"), "models"), "--offline: an expired entry is not shown");
	is_str(cJSON_GetStringValue(cJSON_GetArrayItem(get(prov(r, "openai-compatible"), "models"), 0)), "kept",
	       "while a fresh one is");
	is_int(s->n, 0, "and nothing is fetched");
	cJSON_Delete(r);
	r = amc_providers_snapshot(home, cfg, 0);
	is_int(s->n, 1, "online: only the expired catalog is fetched again");
	is_str(str(prov(r, "anthropic"), "models_from"), "network", "from the network");
	cJSON_Delete(r);
	cache = read_cache(home, NULL);
	ok(cache && !strstr(cache, "old-model") && strstr(cache, "kept"),
	   "the expired entry is replaced, the fresh one kept");
	free(cache);

	/* a catalog that fails: health error with a key-free detail, nothing cached */
	write_cache(home, "not json at all");
	s->n = 0;
	s->status = 401;
	r = amc_providers_snapshot(home, cfg, 0);
	a = prov(r, "anthropic");
	is_str(str(a, "health"), "error", "a failing catalog: health error");
	like(str(a, "health_detail"), "HTTP 401", "the detail says why");
	ok(str(a, "health_detail") && !strstr(str(a, "health_detail"), "PROV-SECRET"), "without the key");
	ok(is_null(a, "models") && is_null(a, "expires_at"), "models unknown, no expiry");
	ok(str(a, "observed_at") != NULL, "but the time it was observed");
	cJSON_Delete(r);
	cache = read_cache(home, NULL);
	is_str(cache, "not json at all", "a failed read writes no cache");
	free(cache);
	s->status = 0;
	r = amc_providers_snapshot(home, cfg, 0);
	is_str(str(prov(r, "anthropic"), "health"), "ok", "a corrupt cache file is ignored and replaced");
	cJSON_Delete(r);
	cache = read_cache(home, NULL);
	cj = cache ? cJSON_Parse(cache) : NULL;
	ok(cJSON_IsObject(get(cj, "anthropic")), "with a valid cache");
	cJSON_Delete(cj);
	free(cache);
}

static void test_sources(const char *home, srv *s, int port)
{
	char kf[PATH_MAX + 16], url[128];
	snprintf(kf, sizeof kf, "%s/anthropic.key", home);
	FILE *f = fopen(kf, "w");
	fputs("sk-ant-FILE-KEY-77\n", f);
	fclose(f);
	chmod(kf, 0600);
	amc_config *cfg = amc_config_new();
	amc_err e;
	if (amc_config_set(cfg, "llm", "anthropic_key_file", kf, "test", &e) != 0)
		diag("config: %s", e.msg);
	unset_all();
	snprintf(url, sizeof url, "http://127.0.0.1:%d/oa", port);
	setenv("AMC_OPENAI_BASE_URL", url, 1);
	setenv("OPENAI_API_KEY", "sk-local-OA-KEY", 1);
	s->n = 0;
	cJSON *r = amc_providers_snapshot(home, cfg, 1);
	const cJSON *a = prov(r, "anthropic"), *o = prov(r, "openai-compatible");
	ok(cJSON_IsTrue(get(a, "configured")), "a 0600 key file configures Anthropic");
	is_str(str(a, "source"), "file llm.anthropic_key_file", "and is named as the source");
	is_str(str(a, "base_url"), "https://api.anthropic.com", "the default base URL");
	is_str(str(o, "auth_mode"), "bearer (OPENAI_API_KEY)", "OPENAI_API_KEY: bearer auth");
	is_str(str(o, "base_url"), url, "the local server's URL");
	char *txt = cJSON_PrintUnformatted(r);
	ok(!strstr(txt, "FILE-KEY") && !strstr(txt, "OA-KEY"), "no key appears in the snapshot");
	free(txt);
	cJSON_Delete(r);
	chmod(kf, 0644);
	r = amc_providers_snapshot(home, cfg, 1);
	a = prov(r, "anthropic");
	ok(cJSON_IsFalse(get(a, "configured")), "a 0644 key file does not configure it");
	like(str(a, "setup"), "0600", "and setup says the mode is wrong");
	cJSON_Delete(r);
	amc_config_free(cfg);
}

int main(void)
{
	const char *home = test_home("providers");
	amc_config *cfg = amc_config_new();
	srv s;
	memset(&s, 0, sizeof s);
	mock_server *m = mock_start(0, handler, &s);
	if (!m)
		tap_skip_all("cannot listen on 127.0.0.1");
	test_unconfigured(home, cfg);
	test_catalogs(home, cfg, &s, mock_port(m));
	test_sources(home, &s, mock_port(m));
	amc_config_free(cfg);
	mock_stop(m);
	return done_testing();
}
