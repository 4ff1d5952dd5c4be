/* mcp_check.c - a client's flow before it runs (mcp_check.h). */
#include "mcp/mcp_check.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/appium.h"
#include "planner/flow_check.h"
#include "flow/script.h"
#include "llm/providers.h"
#include "mcp/mcp_result.h"
#include "runtime/safety.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* How run_task and its check call a flow given as text. */
#define TEXT_LABEL "the flow text you sent"

int amc_mcp_flow_is_text(const char *flow)
{
	return strchr(flow, '\n') && !amc_file_exists(flow);
}

/* A line that erases an app's data: the `clearState` command, or launchApp's
 * `clearState:` (block or flow style) with any value but false (`${...}` may
 * well be true). Conservative: the word in a quoted text counts too. */
static int clears_state(const char *t)
{
	const char *hash = strstr(t, " #"); /* a YAML comment after the command */
	for (const char *p = t; (p = strstr(p, "clearState")) != NULL; p += 10) {
		if (hash && p > hash)
			return 0;
		if (p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		const char *v = p + 10;
		if (*v == '\0' || strchr(" \t,]}", *v))
			return 1; /* bare `- clearState`, `[clearState]` */
		if (*v++ != ':')
			continue;
		v += strspn(v, " \t\"'");
		if (strncmp(v, "false", 5) || (v[5] && !strchr(" \t\"',}#", v[5])))
			return 1;
	}
	return 0;
}

int amc_mcp_flow_gate(const char *text, const char *name, int *at, amc_err *e)
{
	amc_words w;
	amc_err we;
	if (amc_words_load(NULL, &w, &we) != 0)
		return amc_err_set(e, AMC_EENV, "cannot load the irreversible-action words: %s", we.msg);
	int rc = 0, line = 0, in_tap = 0;
	for (const char *p = text; *p && rc == 0;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		line++;
		char buf[512];
		snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1), p);
		const char *t = buf + strspn(buf, " \t");
		if (*t == '-') { /* a new command: is it a tap? */
			const char *c = t + 1 + strspn(t + 1, " \t");
			in_tap = !strncmp(c, "tapOn", 5) || !strncmp(c, "longPressOn", 11) || !strncmp(c, "doubleTapOn", 11);
		}
		const char *word = in_tap && *t != '#' ? amc_words_match(&w, t) : NULL;
		if (!word && *t != '#' && clears_state(t))
			word = "clearState";
		if (word) {
			amc_sb sb;
			amc_sb_init(&sb);
			amc_sanitize_line(t, strlen(t), &sb);
			int clear = !strcmp(word, "clearState");
			amc_err_set(e, AMC_EFAIL, "refused before it started: line %d of %s (%s) %s ('%s'), and a run's steps "
				    "have nobody to confirm them. Do it step by step with act%s (your user confirms there), or ask "
				    "them to restart this server as `amc mcp --yes`",
				    line, name, amc_sb_str(&sb), clear ? "erases an app's data" : "taps something irreversible-looking",
				    word, clear ? "'s clear_app" : "");
			amc_sb_free(&sb);
			if (at)
				*at = line;
			rc = -1;
		}
		p = nl ? nl + 1 : p + len;
	}
	amc_words_free(&w);
	return rc;
}

/* AI commands pass when a model would answer them in a run (as `amc flow
 * check` decides: the provider a goal would use connects; nothing is sent). */
static int have_model(const amc_config *cfg)
{
	amc_llm_client *c = NULL;
	amc_err e;
	amc_err_clear(&e);
	int ok = amc_providers_connect(amc_config_str(cfg, "planner", "provider"),
				       amc_config_str(cfg, "llm", "anthropic_key_file"), "", &c, &e) == 0;
	amc_llm_client_free(c);
	return ok;
}

static void add_problem(cJSON *arr, const char *file, int line, const char *kind, const char *msg)
{
	cJSON *p = cJSON_CreateObject();
	char *f = amc_sanitize_dup(file), *m = amc_sanitize_dup(msg);
	cJSON_AddStringToObject(p, "file", f);
	cJSON_AddNumberToObject(p, "line", line);
	cJSON_AddNumberToObject(p, "col", 1);
	cJSON_AddStringToObject(p, "kind", kind);
	cJSON_AddStringToObject(p, "severity", "error");
	cJSON_AddStringToObject(p, "message", m);
	cJSON_AddItemToArray(arr, p);
	free(f);
	free(m);
}

cJSON *amc_mcp_check_flow(const amc_mcp_call *c, const char *dev, const char *flow)
{
	char kind[16];
	snprintf(kind, sizeof kind, "%.*s", (int)strcspn(dev, ":"), dev);
	if (!strcmp(kind, "appium")) /* its platform picks the `mobile:` commands, as run does */
		snprintf(kind, sizeof kind, "%s", amc_appium_kind_for(c->o->cfg));
	int text = amc_mcp_flow_is_text(flow);
	amc_script *js;
	amc_err e;
	amc_err_clear(&e);
	if (amc_script_open(NULL, !strncmp(kind, "appium", 6) && strcmp(kind, "appium-android") ? "ios" : "android", &js,
			    &e) != 0)
		return amc_mcp_fail("cannot check the flow: %s", e.msg);
	amc_check_opts o = { .device_kind = kind, .js = js,
			     .device_check = have_model(c->o->cfg) ? amc_flow_device_problems_with_model
								  : amc_flow_check_device_hook };
	amc_check_report r = { 0 };
	int rc = text ? amc_flow_check_text(flow, strlen(flow), TEXT_LABEL, &o, &r, &e)
		      : amc_flow_check_path(flow, &o, &r, &e);
	amc_script_close(js);
	if (rc != 0 && e.code == AMC_EENV) {
		amc_check_report_free(&r);
		return amc_mcp_fail("cannot check the flow: %s", e.msg);
	}
	cJSON *problems = amc_check_problems_json(&r, AMC_MCP_CHECK_PROBLEMS_MAX);
	size_t errors = 0, warnings = 0, lacking = 0;
	for (size_t i = 0; i < r.n; i++) {
		amc_check_kind k = r.v[i].kind;
		if (amc_check_kind_is_warning(k))
			warnings++;
		else if (k == AMC_CHECK_MISSING_FILE || k == AMC_CHECK_NEEDS_MODEL)
			lacking++;
		else
			errors++;
	}
	/* the gate run_task would stop it at (a server without --yes) */
	if (!c->o->assume_yes) {
		char *body = NULL;
		size_t blen = 0;
		amc_err re, ge;
		if (!text && amc_read_file(flow, 1 << 20, &body, &blen, &re) != 0)
			body = NULL;
		int line = 0;
		const char *name = text ? TEXT_LABEL : flow;
		if ((text || body) && amc_mcp_flow_gate(text ? flow : body, name, &line, &ge) != 0) {
			const char *why = strstr(ge.msg, ": line ") ? strstr(ge.msg, ": line ") + 2 : ge.msg;
			char msg[AMC_ERR_MSG_MAX + 64];
			snprintf(msg, sizeof msg, "run_task would refuse it before it starts: %s", why);
			add_problem(problems, name, line, "needs-confirmation", msg);
			errors++;
		}
		free(body);
	}
	const char *status = errors ? "refused" : lacking ? "lacking" : "clean";
	amc_sb t;
	amc_sb_init(&t);
	amc_sb_printf(&t, "%s (device kind %s): %zu errors, %zu lacking external inputs (sub-flow or script files, a "
		      "model), %zu warnings; no task was created", status, kind, errors, lacking, warnings);
	if (r.n + (errors > 0) > AMC_MCP_CHECK_PROBLEMS_MAX)
		amc_sb_printf(&t, "; the first %d problems are listed", AMC_MCP_CHECK_PROBLEMS_MAX);
	cJSON *st = cJSON_CreateObject();
	cJSON_AddNullToObject(st, "task");
	amc_json_add_str(st, "status", status);
	cJSON_AddNullToObject(st, "steps");
	amc_json_add_str(st, "summary", amc_sb_str(&t));
	cJSON_AddNullToObject(st, "error");
	cJSON_AddItemToObject(st, "problems", problems);
	/* the text a model reads: the summary, then `file:line:col: message [kind]` */
	const cJSON *p;
	cJSON_ArrayForEach(p, problems)
		amc_sb_printf(&t, "\n%s:%d:%d: %s [%s]", amc_json_str(p, "file"), amc_json_int(p, "line", 0),
			      amc_json_int(p, "col", 0), amc_json_str(p, "message"), amc_json_str(p, "kind"));
	cJSON *res = amc_mcp_result(st, amc_sb_str(&t), 0);
	amc_sb_free(&t);
	amc_check_report_free(&r);
	return res;
}
