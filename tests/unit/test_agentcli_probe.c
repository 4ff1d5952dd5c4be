/* test_agentcli_probe.c - the agent CLIs' snapshot (path, --version, login,
 * billing with sources) and the billing decision: a subscription is never
 * switched to an API key nobody chose. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planner/agentcli_probe.h"
#include "tap.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"

static char dir[256];

static void put(const char *rel, const char *text, mode_t mode)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	FILE *f = fopen(p, "w");
	fputs(text, f);
	fclose(f);
	chmod(p, mode);
}

static void clear_env(void)
{
	const char *vars[] = { "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "OPENAI_API_KEY",
			       "CODEX_API_KEY", "CODEX_HOME", "CLAUDE_CONFIG_DIR", NULL };
	for (int i = 0; vars[i]; i++)
		unsetenv(vars[i]);
}

static int decide(const amc_agentcli_probe *p, amc_billing_choice c, amc_agentcli_billing *b, amc_err *e)
{
	amc_err_clear(e);
	return amc_agentcli_billing_decide(p, c, b, e);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/amc-probe-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	clear_env();
	setenv("HOME", dir, 1);
	char sub[512];
	snprintf(sub, sizeof sub, "%s/.claude", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof sub, "%s/.codex", dir);
	mkdir(sub, 0700);
	put("claude", "#!/bin/sh\n[ \"$1\" = --version ] && { echo '2.1.197 (Claude Code)'; exit 0; }\nexit 3\n", 0755);
	put("oldnode", "#!/bin/sh\necho 'file:///x/cli.js:1' >&2\necho 'SyntaxError: Unexpected token ?' >&2\nexit 1\n", 0755);

	amc_agent_kind k;
	is_int(amc_agentcli_kind_parse("claude", &k), 0, "kind claude");
	is_int(k, AMC_AGENT_CLAUDE, "is Claude");
	is_int(amc_agentcli_kind_parse("agent:codex", &k), 0, "kind agent:codex");
	is_int(k, AMC_AGENT_CODEX, "is Codex");
	is_int(amc_agentcli_kind_parse("gemini", &k), -1, "unknown kind refused");
	amc_billing_choice c;
	is_int(amc_agentcli_billing_parse("api", &c), 0, "billing api");
	is_int(amc_agentcli_billing_parse("free", &c), -1, "unknown billing refused");

	amc_config *cfg = amc_config_new();
	amc_err e;
	char path[512];
	snprintf(path, sizeof path, "%s/claude", dir);
	amc_config_set(cfg, "agent", "claude_path", path, "test", &e);
	amc_agentcli_probe p;
	amc_agentcli_probe_run(cfg, AMC_AGENT_CLAUDE, 1, &p);
	is_int(p.found, 1, "found at the configured path");
	is_str(p.path_source, "config agent.claude_path", "its source named");
	is_int(p.version_ok, 1, "--version ran");
	is_str(p.version, "2.1.197 (Claude Code)", "its first line");
	is_str(p.auth_mode, "none", "no login, no key: auth none");
	is_str(p.billing_mode, "unknown", "billing unknown");
	ok(p.observed_ms > 0, "observed at a time");
	cJSON *j = amc_agentcli_probe_json(&p);
	is_str(amc_json_str(j, "health"), "unknown", "health unknown without a model call");
	ok(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "plan")), "an unknown plan is null, not a guess");
	cJSON_Delete(j);
	amc_agentcli_billing b;
	is_int(decide(&p, AMC_BILLING_AUTO, &b, &e), -1, "no login, no key: cannot run");
	like(e.msg, "run `claude` once and log in", "saying to log in");

	snprintf(path, sizeof path, "%s/oldnode", dir);
	amc_config_set(cfg, "agent", "claude_path", path, "test", &e);
	amc_agentcli_probe_run(cfg, AMC_AGENT_CLAUDE, 1, &p);
	is_int(p.version_ok, 0, "a CLI too new for this Node: --version fails");
	like(p.version_error, "SyntaxError", "the error line is kept");
	like(p.version_error, "newer Node", "and the likely cause said");
	amc_config_set(cfg, "agent", "claude_path", "/nonexistent/claude", "test", &e);
	amc_agentcli_probe_run(cfg, AMC_AGENT_CLAUDE, 1, &p);
	is_int(p.found, 0, "missing CLI: not found");
	like(p.version_error, "npm install -g @anthropic-ai/claude-code", "saying how to install it");

	/* a subscription login file */
	put(".claude/.credentials.json", "{\"claudeAiOauth\":{\"accessToken\":\"x\",\"subscriptionType\":\"max\"}}", 0600);
	amc_agentcli_probe_run(cfg, AMC_AGENT_CLAUDE, 0, &p);
	is_int(p.login, 1, "login read from ~/.claude/.credentials.json");
	is_str(p.plan, "max", "its plan");
	is_str(p.billing_mode, "included plan", "billing: the included plan");
	like(p.login_source, ".credentials.json", "source: the file");
	is_int(decide(&p, AMC_BILLING_AUTO, &b, &e), 0, "login only: decided");
	is_int(b.api, 0, "on the subscription");
	is_int(decide(&p, AMC_BILLING_API, &b, &e), -1, "api chosen without a key: refused");
	like(e.msg, "set ANTHROPIC_API_KEY", "saying what to set");

	setenv("ANTHROPIC_API_KEY", "sk-x", 1);
	amc_agentcli_probe_run(cfg, AMC_AGENT_CLAUDE, 0, &p);
	is_str(p.auth_mode, "subscription+api_key", "login and key: both seen");
	is_int(decide(&p, AMC_BILLING_AUTO, &b, &e), 0, "login and key, nobody chose: decided");
	is_int(b.api, 0, "the login; the key is not used");
	like(b.why, "not passed on", "and it says so");
	is_int(decide(&p, AMC_BILLING_API, &b, &e), 0, "login and key, api chosen");
	is_int(b.api, 1, "the key is used");
	is_str(b.mode, "api", "recorded as api");

	unlink(strcat(strcpy(path, dir), "/.claude/.credentials.json"));
	amc_agentcli_probe_run(cfg, AMC_AGENT_CLAUDE, 0, &p);
	is_str(p.billing_mode, "pay-as-you-go", "key only: pay-as-you-go");
	is_int(decide(&p, AMC_BILLING_AUTO, &b, &e), 1, "key only, nobody chose: ask");
	like(b.why, "pay-as-you-go API billing?", "the question");
	is_int(decide(&p, AMC_BILLING_SUBSCRIPTION, &b, &e), -1, "subscription chosen, no login: refused");
	setenv("CLAUDE_CODE_OAUTH_TOKEN", "tok", 1);
	amc_agentcli_probe_run(cfg, AMC_AGENT_CLAUDE, 0, &p);
	is_int(p.login, 1, "CLAUDE_CODE_OAUTH_TOKEN is a login");
	clear_env();

	/* Codex: auth.json with ChatGPT tokens, or with a stored key */
	put(".codex/auth.json", "{\"OPENAI_API_KEY\":null,\"tokens\":{\"access_token\":\"t\"}}", 0600);
	amc_agentcli_probe_run(cfg, AMC_AGENT_CODEX, 0, &p);
	is_int(p.login, 1, "codex: a ChatGPT login");
	is_int(decide(&p, AMC_BILLING_AUTO, &b, &e), 0, "codex login: decided");
	is_int(b.api, 0, "on the subscription");
	put(".codex/auth.json", "{\"OPENAI_API_KEY\":\"sk-stored\"}", 0600);
	amc_agentcli_probe_run(cfg, AMC_AGENT_CODEX, 0, &p);
	is_int(p.login, 0, "codex: a stored key is not a subscription");
	is_str(p.key_var, "auth.json", "but a key, from auth.json");
	is_int(decide(&p, AMC_BILLING_AUTO, &b, &e), 0, "codex's own login is a key: its user chose it");
	is_int(b.api, 1, "API billing");
	setenv("CODEX_HOME", "/nonexistent", 1);
	amc_agentcli_probe_run(cfg, AMC_AGENT_CODEX, 0, &p);
	is_int(p.login + p.key, 0, "CODEX_HOME is where the login is read");
	put(".codex/auth.json", "not json at all", 0600);
	unsetenv("CODEX_HOME");
	amc_agentcli_probe_run(cfg, AMC_AGENT_CODEX, 0, &p);
	is_int(p.login + p.key, 0, "a broken auth.json is no login, no crash");

	amc_config_free(cfg);
	amc_rm_rf(dir);
	return done_testing();
}
