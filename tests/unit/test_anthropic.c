/* test_anthropic.c - the Anthropic Messages client (llm/anthropic.c) against
 * the local mock: configuration from the environment and a 0600 key file, the
 * request it sends, how it reads a response and the model catalog, and that
 * the key never shows in an error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "../mock/mockhttp.h"
#include "llm/anthropic.h"


static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");
	if (!f)
		exit(99);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static void test_config(const char *home)
{
	amc_anthropic *c = NULL;
	amc_err e;
	unsetenv("ANTHROPIC_API_KEY");
	unsetenv("ANTHROPIC_BASE_URL");

	is_int(amc_anthropic_new(NULL, &c, &e), -1, "no key: fails");
	ok(c == NULL, "no key: no client");
	is_int(e.code, AMC_EENV, "no key: an environment error (exit class 3)");
	like(e.msg, "set ANTHROPIC_API_KEY", "no key: the message says what to set");
	like(e.msg, "llm.anthropic_key_file", "and names the key-file option");

	setenv("ANTHROPIC_API_KEY", "", 1);
	is_int(amc_anthropic_new(NULL, &c, &e), -1, "an empty ANTHROPIC_API_KEY counts as unset");

	char kf[PATH_MAX + 16], dir[PATH_MAX + 16], link[PATH_MAX + 16], empty[PATH_MAX + 16];
	snprintf(kf, sizeof kf, "%s/key", home);
	snprintf(dir, sizeof dir, "%s/keydir", home);
	snprintf(link, sizeof link, "%s/keylink", home);
	snprintf(empty, sizeof empty, "%s/emptykey", home);
	write_file(kf, "sk-ant-FROMFILE-42  \nsecond line\n", 0644);
	is_int(amc_anthropic_new(kf, &c, &e), -1, "a 0644 key file is refused");
	like(e.msg, "mode 0600", "and the message asks for 0600");
	like(e.msg, "chmod 600", "with the command to fix it");
	ok(!strstr(e.msg, "FROMFILE"), "without showing the key");
	chmod(kf, 0640);
	is_int(amc_anthropic_new(kf, &c, &e), -1, "a group-readable key file is refused too");
	chmod(kf, 0600);
	is_int(amc_anthropic_new(kf, &c, &e), 0, "a 0600 key file is read");
	is_str(c ? c->key : "", "sk-ant-FROMFILE-42", "first line only, trailing blanks trimmed");
	is_str(c ? c->base_url : "", AMC_ANTHROPIC_DEFAULT_URL, "default base URL without ANTHROPIC_BASE_URL");
	amc_anthropic_free(c);
	chmod(kf, 0400);
	is_int(amc_anthropic_new(kf, &c, &e), 0, "a 0400 key file (stricter) is read");
	amc_anthropic_free(c);

	mkdir(dir, 0700);
	is_int(amc_anthropic_new(dir, &c, &e), -1, "a directory is not a key file");
	if (symlink(kf, link) != 0)
		diag("symlink: cannot make %s", link);
	is_int(amc_anthropic_new(link, &c, &e), -1, "a symbolic link to a 0600 key file is not followed");
	like(e.msg, "cannot open key file", "and the message says the file could not be opened");
	write_file(empty, "\n", 0600);
	is_int(amc_anthropic_new(empty, &c, &e), -1, "an empty key file is refused");
	like(e.msg, "empty", "and the message says it is empty");
	char missing[PATH_MAX + 16];
	snprintf(missing, sizeof missing, "%s/nokey", home);
	is_int(amc_anthropic_new(missing, &c, &e), -1, "a missing key file fails");
	like(e.msg, "nokey", "the message names the file");
	like(e.msg, "ANTHROPIC_API_KEY", "and still says what to set");

	setenv("ANTHROPIC_API_KEY", "sk-ant-FROMENV-7", 1);
	is_int(amc_anthropic_new(kf, &c, &e), 0, "environment and file both set");
	is_str(c ? c->key : "", "sk-ant-FROMENV-7", "the environment wins over the file");
	amc_anthropic_free(c);

	setenv("ANTHROPIC_BASE_URL", "ftp://example.com", 1);
	is_int(amc_anthropic_new(NULL, &c, &e), -1, "a base URL that is not http(s) is refused");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "ANTHROPIC_BASE_URL must start with https:// or http://", "naming the variable");
	setenv("ANTHROPIC_BASE_URL", "https://proxy.example.com/anthropic///", 1);
	is_int(amc_anthropic_new(NULL, &c, &e), 0, "an https proxy URL is accepted");
	is_str(c ? c->base_url : "", "https://proxy.example.com/anthropic", "trailing slashes are dropped");
	amc_anthropic_free(c);
	char longurl[700];
	memset(longurl, 'a', sizeof longurl - 1);
	longurl[sizeof longurl - 1] = 0;
	memcpy(longurl, "http://", 7);
	setenv("ANTHROPIC_BASE_URL", longurl, 1);
	is_int(amc_anthropic_new(NULL, &c, &e), -1, "an overlong base URL is refused");
	like(e.msg, "too long", "and the message says so");
	unsetenv("ANTHROPIC_BASE_URL");
	amc_anthropic_free(NULL); /* harmless */
}

static void test_usage(void)
{
	amc_llm_usage u;
	cJSON *m = cJSON_Parse("{\"usage\":{\"input_tokens\":5,\"output_tokens\":-2,\"cache_read_input_tokens\":\"7\"}}");
	amc_anthropic_usage(m, &u);
	is_int(u.input_tokens, 5, "usage: input tokens read");
	is_int(u.output_tokens, -1, "usage: a negative count is unknown");
	is_int(u.cache_read_input_tokens, -1, "usage: a string is unknown");
	is_int(u.cache_creation_input_tokens, -1, "usage: a missing count is unknown");
	cJSON_Delete(m);
	m = cJSON_Parse("{\"usage\":null}");
	u.input_tokens = 99;
	amc_anthropic_usage(m, &u);
	is_int(u.input_tokens, -1, "usage: no usage object leaves everything unknown");
	cJSON_Delete(m);
}

#define KEY "sk-ant-test-PLANTED-key-0123"
#define OKMSG "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-5-20260101\"," \
	"\"content\":[{\"type\":\"text\",\"text\":\"hello\"},{\"type\":\"tool_use\",\"id\":\"tu_1\",\"name\":\"tap\",\"input\":{}}]," \
	"\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":12,\"output_tokens\":3," \
	"\"cache_creation_input_tokens\":2000,\"cache_read_input_tokens\":100}}"

static void test_messages(amc_anthropic *c, mock_record *s)
{
	amc_err e;
	amc_anthropic_result r;
	cJSON *req = cJSON_Parse("{\"model\":\"claude-sonnet-5\",\"max_tokens\":10,"
				 "\"messages\":[{\"role\":\"user\",\"content\":\"hi \\u00e9\"}]}");

	mock_record_reply(s, 200, OKMSG);
	is_int(amc_anthropic_messages(c, req, 0, &r, &e), 0, "a message comes back");
	is_str(s->last_method, "POST", "sent as a POST");
	is_str(s->last_path, "/prefix/v1/messages", "to {base}/v1/messages");
	like(s->last_headers, "x-api-key: " KEY, "the key goes in x-api-key");
	like(s->last_headers, "anthropic-version: 2023-06-01", "with the API version");
	like(s->last_headers, "content-type: application/json", "as JSON");
	ok(!strstr(s->last_headers, "uthorization"), "no authorization header (Anthropic uses x-api-key)");
	cJSON *sent = cJSON_Parse(s->last_body);
	ok(sent && cJSON_Compare(sent, req, 1), "the request body is sent as given");
	cJSON_Delete(sent);
	is_str(r.stop_reason, "tool_use", "stop_reason read");
	is_str(r.model, "claude-sonnet-5-20260101", "the answering model read");
	is_int(r.usage.input_tokens, 12, "input tokens");
	is_int(r.usage.output_tokens, 3, "output tokens");
	is_int(r.usage.cache_creation_input_tokens, 2000, "cache write tokens");
	is_int(r.usage.cache_read_input_tokens, 100, "cache read tokens");
	is_int(r.attempts, 1, "one attempt");
	like(r.request_id, "req_mock_", "the request-id header is kept");
	is_int(cJSON_GetArraySize(r.content), 2, "content is the message's array");
	ok(r.content == cJSON_GetObjectItemCaseSensitive(r.msg, "content"), "and points into msg");
	amc_anthropic_result_free(&r);
	ok(r.msg == NULL && r.usage.input_tokens == -1, "result_free clears the result");

	mock_record_reply(s, 200, "{\"type\":\"message\",\"content\":[],\"stop_reason\":\"end_turn\"}");
	is_int(amc_anthropic_messages(c, req, 0, &r, &e), 0, "a message without usage or model");
	ok(r.usage.input_tokens == -1 && r.usage.output_tokens == -1, "usage unknown, never guessed as 0");
	is_str(r.model, "", "no model: empty");
	amc_anthropic_result_free(&r);

	static const char *const bad[] = {
		"{\"type\":\"message\",\"content\":[{\"type\":\"te",  /* cut off */
		"{\"type\":\"error\",\"error\":{}}",                 /* not a message */
		"{\"type\":\"message\",\"content\":\"hi\"}",          /* content not an array */
		"[1,2]",
		"",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		mock_record_reply(s, 200, bad[i]);
		int rc = amc_anthropic_messages(c, req, 0, &r, &e);
		ok(rc == -1 && e.code == AMC_EFAIL && strstr(e.msg, "malformed response") && r.msg == NULL,
		   "malformed 200 #%zu fails as malformed", i + 1);
	}

	mock_record_reply(s, 401, "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
		      "\"message\":\"invalid x-api-key " KEY "\"}}");
	is_int(amc_anthropic_messages(c, req, 0, &r, &e), -1, "401 fails");
	is_int(s->n, 1, "401 is not retried");
	like(e.msg, "Anthropic API: HTTP 401 authentication_error", "the message names the API, status and type");
	ok(!strstr(e.msg, "PLANTED"), "the key echoed by the server is scrubbed");
	like(r.request_id, "req_mock_", "the request id is kept on failure too");

	mock_record_reply(s, 529, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
	c->max_attempts = 2;
	is_int(amc_anthropic_messages(c, req, 0, &r, &e), -1, "529 fails after the retries");
	is_int(s->n, 2, "max_attempts of the client is honoured");
	is_int(r.attempts, 2, "and reported");
	c->max_attempts = 0;
	cJSON_Delete(req);
}

static void test_models(amc_anthropic *c, mock_record *s)
{
	amc_err e;
	cJSON *ids = NULL;
	mock_record_reply(s, 200, "{\"data\":[{\"type\":\"model\",\"id\":\"claude-sonnet-5\"},{\"id\":\"claude-haiku-4-5\"},"
		      "{\"type\":\"model\"}],\"has_more\":false}");
	is_int(amc_anthropic_models(c, &ids, &e), 0, "the model catalog is read");
	is_str(s->last_method, "GET", "with a GET");
	is_str(s->last_path, "/prefix/v1/models?limit=100", "of {base}/v1/models?limit=100");
	like(s->last_headers, "x-api-key: " KEY, "with the key");
	like(s->last_headers, "anthropic-version: 2023-06-01", "and the API version");
	is_int(cJSON_GetArraySize(ids), 2, "entries without an id are skipped");
	is_str(cJSON_GetArrayItem(ids, 0)->valuestring, "claude-sonnet-5", "ids in the server's order");
	cJSON_Delete(ids);

	mock_record_reply(s, 200, "{\"models\":[]}");
	is_int(amc_anthropic_models(c, &ids, &e), -1, "an answer without data fails");
	ok(ids == NULL, "with no array");
	like(e.msg, "Anthropic API: /v1/models answered without a data array", "naming the endpoint");

	mock_record_reply(s, 403, "{\"type\":\"error\",\"error\":{\"type\":\"permission_error\",\"message\":\"no " KEY "\"}}");
	is_int(amc_anthropic_models(c, &ids, &e), -1, "403 fails");
	like(e.msg, "Anthropic API: HTTP 403 permission_error", "with the API's error");
	ok(!strstr(e.msg, "PLANTED"), "and without the key");
}

int main(void)
{
	const char *home = test_home("anthropic");
	test_config(home);
	test_usage();

	mock_record s;
	memset(&s, 0, sizeof s);
	mock_server *m = mock_start(0, mock_record_handler, &s);
	if (!m)
		tap_skip_all("cannot listen on 127.0.0.1");
	char base[128];
	snprintf(base, sizeof base, "http://127.0.0.1:%d/prefix/", mock_port(m));
	setenv("ANTHROPIC_BASE_URL", base, 1);
	setenv("ANTHROPIC_API_KEY", KEY, 1);
	amc_anthropic *c = NULL;
	amc_err e;
	if (amc_anthropic_new(NULL, &c, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	c->hooks = MOCK_FAKE_HOOKS;
	test_messages(c, &s);
	test_models(c, &s);
	amc_anthropic_free(c);
	mock_stop(m);
	return done_testing();
}
