/* agentcli_probe.c - a coding agent CLI's capability snapshot and the billing
 * decision (agentcli_probe.h). */
#include "planner/agentcli_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/clock.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/proc.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* A login file is a few KB; anything bigger is not one. */
#define LOGIN_FILE_MAX (256 * 1024)
#define VERSION_TIMEOUT_MS 15000L

static const struct kind_info {
	const char *name, *title, *path_key;
	const char *key_vars[3];
} KINDS[] = {
	[AMC_AGENT_CLAUDE] = { "claude", "Claude Code", "claude_path", { "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", NULL } },
	[AMC_AGENT_CODEX] = { "codex", "Codex", "codex_path", { "CODEX_API_KEY", "OPENAI_API_KEY", NULL } },
};

const char *amc_agentcli_kind_name(amc_agent_kind k)
{
	return KINDS[k].name;
}

const char *amc_agentcli_kind_title(amc_agent_kind k)
{
	return KINDS[k].title;
}

int amc_agentcli_kind_parse(const char *s, amc_agent_kind *k)
{
	if (!s)
		return -1;
	if (!strncmp(s, "agent:", 6))
		s += 6;
	for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
		if (!strcmp(s, KINDS[i].name)) {
			*k = (amc_agent_kind)i;
			return 0;
		}
	return -1;
}

int amc_agentcli_billing_parse(const char *s, amc_billing_choice *c)
{
	if (!s)
		return -1;
	if (!strcmp(s, "auto"))
		*c = AMC_BILLING_AUTO;
	else if (!strcmp(s, "subscription"))
		*c = AMC_BILLING_SUBSCRIPTION;
	else if (!strcmp(s, "api"))
		*c = AMC_BILLING_API;
	else
		return -1;
	return 0;
}

static void safe_copy(char *dst, size_t n, const char *src, size_t len)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_line(src, len, &sb);
	snprintf(dst, n, "%s", amc_sb_str(&sb));
	amc_sb_free(&sb);
}

/* The folder a CLI keeps its login in: $VAR, else $HOME/DEFAULT. */
static int config_dir(const char *var, const char *dflt, char *out, size_t n)
{
	const char *v = getenv(var);
	if (v && *v)
		return snprintf(out, n, "%s", v) < (int)n ? 0 : -1;
	const char *home = getenv("HOME");
	if (!home || !*home)
		return -1;
	return snprintf(out, n, "%s/%s", home, dflt) < (int)n ? 0 : -1;
}

static cJSON *read_json_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	amc_err e;
	if (amc_read_file(path, LOGIN_FILE_MAX, &buf, &len, &e) != 0)
		return NULL;
	cJSON *j = cJSON_ParseWithLength(buf, len);
	memset(buf, 0, len); /* it holds tokens */
	free(buf);
	return j;
}

/* A plan name as the login file says it: letters only, short. */
static void put_plan(char *dst, size_t n, const char *src)
{
	size_t k = 0;
	for (; src && *src && k + 1 < n; src++)
		if ((*src >= 'a' && *src <= 'z') || (*src >= 'A' && *src <= 'Z') || *src == '_')
			dst[k++] = *src;
	dst[k] = 0;
}

static void claude_login(amc_agentcli_probe *p)
{
	const char *tok = getenv("CLAUDE_CODE_OAUTH_TOKEN");
	if (tok && *tok) {
		p->login = 1;
		snprintf(p->login_source, sizeof p->login_source, "CLAUDE_CODE_OAUTH_TOKEN in the environment");
		return;
	}
	char dir[PATH_MAX], file[PATH_MAX + 32];
	if (config_dir("CLAUDE_CONFIG_DIR", ".claude", dir, sizeof dir) != 0)
		return;
	snprintf(file, sizeof file, "%s/.credentials.json", dir);
	cJSON *j = read_json_file(file);
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, "claudeAiOauth");
	if (cJSON_IsObject(o) && amc_json_str(o, "accessToken")) {
		p->login = 1;
		safe_copy(p->login_source, sizeof p->login_source, file, strlen(file));
		put_plan(p->plan, sizeof p->plan, amc_json_str(o, "subscriptionType"));
	}
	cJSON_Delete(j);
}

/* Codex: $CODEX_HOME/auth.json holds a ChatGPT login (tokens) or a stored
 * API key (what `codex login --with-api-key` wrote). */
static void codex_login(amc_agentcli_probe *p, int *stored_key)
{
	char dir[PATH_MAX], file[PATH_MAX + 32];
	*stored_key = 0;
	if (config_dir("CODEX_HOME", ".codex", dir, sizeof dir) != 0)
		return;
	snprintf(file, sizeof file, "%s/auth.json", dir);
	cJSON *j = read_json_file(file);
	if (cJSON_IsObject(j)) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "tokens");
		const char *k = amc_json_str(j, "OPENAI_API_KEY");
		if (cJSON_IsObject(t)) {
			p->login = 1;
			safe_copy(p->login_source, sizeof p->login_source, file, strlen(file));
		} else if (k && *k) {
			*stored_key = 1;
			safe_copy(p->login_source, sizeof p->login_source, file, strlen(file));
		}
	}
	cJSON_Delete(j);
}

static void run_version(amc_agentcli_probe *p)
{
	const char *argv[] = { p->path, "--version", NULL };
	amc_proc_opts o = { .timeout_ms = VERSION_TIMEOUT_MS, .max_out = 4096, .max_err = 8192, .kill_group = 1 };
	amc_proc_result r;
	amc_err e;
	if (amc_proc_run_opts(argv, &o, &r, &e) != 0) {
		safe_copy(p->version_error, sizeof p->version_error, e.msg, strlen(e.msg));
		return;
	}
	const char *out = (const char *)r.out;
	size_t l1 = strcspn(out, "\r\n");
	if (r.exit_code == 0 && l1) {
		p->version_ok = 1;
		safe_copy(p->version, sizeof p->version, out, l1);
	} else {
		/* the first line of stderr says most (a Node too old for this CLI
		 * fails here with a syntax error or an engines message) */
		const char *er = r.err ? r.err : "";
		/* the line that names the error, else the first */
		const char *line = strstr(er, "Error");
		if (line) {
			while (line > er && line[-1] != '\n')
				line--;
			er = line;
		}
		size_t el = strcspn(er, "\r\n");
		char first[200];
		safe_copy(first, sizeof first, er, el);
		const char *all = r.err ? r.err : "";
		const char *node_hint = strstr(all, "Node") || strstr(all, "node:") || strstr(all, "SyntaxError")
						? "; this CLI may need a newer Node than the one installed (Claude Code 2.1.197 "
						  "is the last for Node 20)"
						: "";
		if (r.timed_out)
			snprintf(p->version_error, sizeof p->version_error, "`%s --version` did not answer within %ld s",
				 KINDS[p->kind].name, VERSION_TIMEOUT_MS / 1000);
		else
			snprintf(p->version_error, sizeof p->version_error, "`%s --version` exited %d%s%s%s",
				 KINDS[p->kind].name, r.exit_code, first[0] ? ": " : "", first, node_hint);
	}
	amc_proc_result_free(&r);
}

void amc_agentcli_probe_run(const amc_config *cfg, amc_agent_kind k, int version, amc_agentcli_probe *p)
{
	memset(p, 0, sizeof *p);
	p->kind = k;
	p->observed_ms = amc_now_ms();
	const struct kind_info *ki = &KINDS[k];
	const char *want = cfg ? amc_config_str(cfg, "agent", ki->path_key) : NULL;
	if (!want || !*want)
		want = ki->name;
	if (strcmp(want, ki->name))
		snprintf(p->path_source, sizeof p->path_source, "config agent.%s", ki->path_key);
	else
		snprintf(p->path_source, sizeof p->path_source, "PATH");
	p->found = amc_proc_which(want, p->path, sizeof p->path) == 0;
	if (!p->found) {
		p->path[0] = 0;
		snprintf(p->version_error, sizeof p->version_error,
			 "%s not found (%s%s); install it with `npm install -g %s` or set agent.%s",
			 ki->title, strchr(want, '/') ? "no program at " : "searched PATH for ", strchr(want, '/') ? want : ki->name,
			 k == AMC_AGENT_CLAUDE ? "@anthropic-ai/claude-code" : "@openai/codex", ki->path_key);
	} else if (version) {
		run_version(p);
	}
	int stored_key = 0;
	if (k == AMC_AGENT_CLAUDE)
		claude_login(p);
	else
		codex_login(p, &stored_key);
	for (int i = 0; ki->key_vars[i]; i++) {
		const char *v = getenv(ki->key_vars[i]);
		if (v && *v) {
			p->key = 1;
			snprintf(p->key_var, sizeof p->key_var, "%s", ki->key_vars[i]);
			break;
		}
	}
	if (stored_key && !p->key) {
		p->key = 1;
		snprintf(p->key_var, sizeof p->key_var, "auth.json");
	}
	snprintf(p->auth_mode, sizeof p->auth_mode, "%s",
		 p->login && p->key ? "subscription+api_key" : p->login ? "subscription" : p->key ? "api_key" : "none");
	if (p->login) {
		snprintf(p->billing_mode, sizeof p->billing_mode, "included plan");
		snprintf(p->billing_source, sizeof p->billing_source, "a subscription login%s%s%s; its limits are unknown "
			 "without a model call", p->plan[0] ? " (plan " : "", p->plan, p->plan[0] ? ")" : "");
	} else if (p->key) {
		snprintf(p->billing_mode, sizeof p->billing_mode, "pay-as-you-go");
		snprintf(p->billing_source, sizeof p->billing_source, "an API key (%s)", p->key_var);
	} else {
		snprintf(p->billing_mode, sizeof p->billing_mode, "unknown");
		snprintf(p->billing_source, sizeof p->billing_source, "no login and no API key found");
	}
}

cJSON *amc_agentcli_probe_json(const amc_agentcli_probe *p)
{
	cJSON *j = cJSON_CreateObject();
	char name[32], when[64];
	snprintf(name, sizeof name, "agent:%s", KINDS[p->kind].name);
	amc_json_add_str(j, "name", name);
	amc_json_add_str(j, "cli", KINDS[p->kind].title);
	cJSON_AddBoolToObject(j, "found", p->found);
	if (p->found)
		amc_json_add_str(j, "path", p->path);
	else
		cJSON_AddNullToObject(j, "path");
	amc_json_add_str(j, "path_source", p->path_source);
	if (p->version[0])
		amc_json_add_str(j, "version", p->version);
	else
		cJSON_AddNullToObject(j, "version");
	cJSON_AddBoolToObject(j, "version_ok", p->version_ok);
	if (p->version_error[0])
		amc_json_add_str(j, "version_error", p->version_error);
	amc_json_add_str(j, "auth_mode", p->auth_mode);
	if (p->login)
		amc_json_add_str(j, "auth_source", p->login_source);
	else if (p->key)
		amc_json_add_str(j, "auth_source", p->key_var);
	else
		cJSON_AddNullToObject(j, "auth_source");
	if (p->plan[0])
		amc_json_add_str(j, "plan", p->plan);
	else
		cJSON_AddNullToObject(j, "plan");
	amc_json_add_str(j, "billing_mode", p->billing_mode);
	amc_json_add_str(j, "billing_source", p->billing_source);
	/* whether the login works is known only after a model call */
	amc_json_add_str(j, "health", "unknown");
	amc_format_time(p->observed_ms, when, sizeof when);
	amc_json_add_str(j, "observed_at", when);
	return j;
}

int amc_agentcli_billing_decide(const amc_agentcli_probe *p, amc_billing_choice choice, amc_agentcli_billing *out,
				amc_err *e)
{
	memset(out, 0, sizeof *out);
	const char *t = KINDS[p->kind].title, *n = KINDS[p->kind].name;
	const char *var = p->kind == AMC_AGENT_CLAUDE ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
	if (choice == AMC_BILLING_API) {
		if (!p->key)
			return amc_err_set(e, AMC_EENV, "API billing was chosen for %s but no API key is set: set %s, or "
				       "use your login with --billing subscription", t, var);
		out->api = 1;
		snprintf(out->mode, sizeof out->mode, "api");
		snprintf(out->why, sizeof out->why, "API billing (pay-as-you-go on %s), as chosen", p->key_var);
		return 0;
	}
	if (choice == AMC_BILLING_SUBSCRIPTION || p->login) {
		if (!p->login)
			return amc_err_set(e, AMC_EENV, "%s is not logged in here: run `%s` once and log in (or choose API "
				       "billing with --billing api and %s)", t, n, var);
		snprintf(out->mode, sizeof out->mode, "subscription");
		snprintf(out->why, sizeof out->why, "your %s login (%s%s%s)%s", t, p->plan[0] ? "plan " : "included plan",
			 p->plan, "", p->key ? "; the API key in the environment is not passed on (--billing api to use it)" : "");
		return 0;
	}
	if (p->key && !strcmp(p->key_var, "auth.json")) {
		/* `codex login --with-api-key`: the user's own login is a key */
		out->api = 1;
		snprintf(out->mode, sizeof out->mode, "api");
		snprintf(out->why, sizeof out->why, "your %s login, which is an API key (pay-as-you-go)", t);
		return 0;
	}
	if (p->key) {
		snprintf(out->why, sizeof out->why, "%s has no login here, only an API key (%s): run it on pay-as-you-go "
			 "API billing?", t, p->key_var);
		return 1;
	}
	return amc_err_set(e, AMC_EENV, "%s is not logged in here and no API key is set: run `%s` once and log in "
		       "(a subscription), or set %s and choose --billing api", t, n, var);
}
