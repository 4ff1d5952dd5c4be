/* launch.c - a launch request in, a ready task + planner + runner options out
 * (launch.h). Over 800 lines: it is the one launch path of every front end
 * (goal, flow, agent CLI, suite, fleet payload), whose checks must agree; the
 * per-kind preparation (flow, goal, agent) is what would move out first. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "planner/ai_judge.h"
#include "planner/goal.h"
#include "device/appium.h"
#include "device/device.h"
#include "flow/flow.h"
#include "flow/flow_interp.h"
#include "planner/flow_js.h"
#include "planner/flow_planner.h"
#include "launch/launch.h"
#include "storage/sources.h"
#include "util/fsutil.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

void amc_launch_req_init(amc_launch_req *req)
{
	memset(req, 0, sizeof *req);
	req->source_attempt = -1;
}

/* The one error a user reads, with the value quoted terminal-safe. */
static int usage_err(amc_err *e, const char *fmt, const char *raw)
{
	char *s = amc_sanitize_dup(raw ? raw : "");
	amc_err_set(e, AMC_EUSAGE, fmt, s);
	free(s);
	return -1;
}

/* ---- -e NAME=VALUE ---- */

static int env_name_ok(const char *s, size_t n)
{
	if (n == 0 || n > AMC_LAUNCH_ENV_NAME_MAX || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			return 0;
	}
	return 1;
}

static int parse_env(const amc_launch_req *req, amc_launch *l, amc_err *e)
{
	if (req->nenv > AMC_LAUNCH_ENV_MAX)
		return amc_err_set(e, AMC_EUSAGE, "too many -e NAME=VALUE overrides (%zu; at most %d)", req->nenv,
				   AMC_LAUNCH_ENV_MAX);
	for (size_t i = 0; i < req->nenv; i++) {
		const char *s = req->env[i] ? req->env[i] : "";
		const char *eq = strchr(s, '=');
		size_t n = eq ? (size_t)(eq - s) : strlen(s);
		if (!eq || !env_name_ok(s, n))
			return usage_err(e, "-e '%s': write NAME=VALUE, NAME of letters, digits and '_' "
				     "(not starting with a digit, at most 64)", s);
		if (strlen(eq + 1) > AMC_LAUNCH_ENV_VALUE_MAX)
			return amc_err_set(e, AMC_EUSAGE, "-e %.*s: the value is longer than %d bytes", (int)n, s,
					   AMC_LAUNCH_ENV_VALUE_MAX);
		size_t k = 0;
		while (k < l->nenv && (strlen(l->env[k].name) != n || strncmp(l->env[k].name, s, n)))
			k++;
		if (k == l->nenv) {
			l->env = amc_xrealloc(l->env, (l->nenv + 1) * sizeof *l->env);
			l->env[l->nenv++].name = amc_xstrndup(s, n);
		} else {
			free(l->env[k].value); /* the last one of a name wins, as in a shell */
		}
		l->env[k].value = amc_xstrdup(eq + 1);
	}
	return 0;
}

/* ---- the flow: a bundled name, a file, or a bundle ---- */

/* data/flows/NAME.yaml; ".yaml" is added unless the name has an extension. */
static int bundled_path(const char *name, char **out, amc_err *e)
{
	char data[PATH_MAX];
	if (amc_paths_data_dir(data, sizeof data, e) != 0)
		return -1;
	const char *ext = strstr(name, ".yaml") || strstr(name, ".yml") ? "" : ".yaml";
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s/flows/%s%s", data, name, ext);
	if (!amc_file_exists(amc_sb_str(&sb))) {
		amc_sb_free(&sb);
		char *s = amc_sanitize_dup(name);
		amc_err_set(e, AMC_EUSAGE, "no flow file '%s' (and no bundled flow of that name in %s/flows)", s, data);
		free(s);
		return -1;
	}
	*out = amc_sb_detach(&sb);
	return 0;
}

/* The file's bytes, read once; the messages are amc_flow_load's. */
/* A name inside the bundle's folder: relative, no "..", printable. */
static int bundle_name_ok(const char *n)
{
	size_t len = n ? strlen(n) : 0;
	if (len == 0 || len > AMC_LAUNCH_BUNDLE_NAME_MAX || n[0] == '/')
		return 0;
	for (const char *p = n; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '\\')
			return 0;
	for (const char *p = n; p; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
			return 0;
	}
	return 1;
}

/* Check and copy the bundle's files; sb gets every text, for the secrets. */
static int take_bundle(const amc_launch_bundle *b, amc_launch *l, amc_sb *all, amc_err *e)
{
	if (!b->flow)
		return amc_err_set(e, AMC_EUSAGE, "the flow bundle has no flow text");
	if (!b->base || !*b->base)
		return amc_err_set(e, AMC_EUSAGE, "the flow bundle has no base folder");
	if (b->flow_file && !bundle_name_ok(b->flow_file))
		return usage_err(e, "the flow bundle's flow name '%s' is not a plain name inside its folder", b->flow_file);
	if (b->nfiles > AMC_LAUNCH_BUNDLE_FILES_MAX)
		return amc_err_set(e, AMC_EUSAGE, "the flow bundle has %zu files (at most %d)", b->nfiles,
				   AMC_LAUNCH_BUNDLE_FILES_MAX);
	size_t total = strlen(b->flow);
	if (total > AMC_FLOW_MAX_BYTES)
		return amc_err_set(e, AMC_EUSAGE, "the bundled flow is longer than %u bytes", AMC_FLOW_MAX_BYTES);
	amc_sb_puts(all, b->flow);
	for (size_t i = 0; i < b->nfiles; i++) {
		const amc_launch_file *f = &b->files[i];
		if (!bundle_name_ok(f->name))
			return usage_err(e, "bundle file '%s': give a name inside the bundle's folder (relative, no '..')",
					 f->name);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(b->files[k].name, f->name))
				return usage_err(e, "bundle file '%s' is given twice", f->name);
		size_t n = f->text ? strlen(f->text) : 0;
		if (!f->text || n > AMC_FLOW_MAX_BYTES)
			return usage_err(e, "bundle file '%s' has no text or is longer than 1 MiB", f->name);
		total += n;
		if (total > AMC_LAUNCH_BUNDLE_MAX_BYTES)
			return amc_err_set(e, AMC_EUSAGE, "the flow bundle is larger than %u bytes",
					   AMC_LAUNCH_BUNDLE_MAX_BYTES);
		amc_sb_putc(all, '\n');
		amc_sb_puts(all, f->text);
	}
	l->files = b->nfiles ? amc_xcalloc(b->nfiles, sizeof *l->files) : NULL;
	for (size_t i = 0; i < b->nfiles; i++) {
		l->files[i].name = amc_xstrdup(b->files[i].name);
		l->files[i].text = amc_xstrdup(b->files[i].text);
	}
	l->nfiles = b->nfiles;
	l->bundle_base = amc_xstrdup(b->base);
	return 0;
}

/* ---- the files a flow names (runFlow, retry, runScript) ---- */

/* Reading a flow's sub-flows and scripts once, here, like the flow itself:
 * from the bundle's files, or from disk (then carried in l->files, so the
 * launch holds every byte the run uses, and scanned for secrets). */
typedef struct flow_files {
	const amc_launch_bundle *bundle; /* NULL: disk */
	amc_launch *l;
	amc_sb *text;
	size_t total;
} flow_files;

static int read_from_bundle(flow_files *ff, const char *path, char **text, size_t *len)
{
	const amc_launch_bundle *b = ff->bundle;
	size_t bl = strlen(b->base);
	if (strncmp(path, b->base, bl) != 0 || path[bl] != '/')
		return 1;
	for (size_t i = 0; i < b->nfiles; i++) {
		if (!strcmp(b->files[i].name, path + bl + 1)) {
			*text = amc_xstrdup(b->files[i].text);
			*len = strlen(*text);
			return 0;
		}
	}
	return 1;
}

static int ff_read(void *ud, const char *path, char **text, size_t *len, amc_err *e)
{
	flow_files *ff = ud;
	if (ff->bundle)
		return read_from_bundle(ff, path, text, len);
	if (!amc_file_exists(path))
		return 1;
	if (amc_flow_read(path, text, len, e) != 0)
		return -1;
	ff->total += *len;
	if (ff->total > AMC_LAUNCH_BUNDLE_MAX_BYTES) {
		free(*text);
		*text = NULL;
		return amc_err_set(e, AMC_EUSAGE, "the flow and the files it names are larger than %u bytes",
				   AMC_LAUNCH_BUNDLE_MAX_BYTES);
	}
	amc_launch *l = ff->l;
	l->files = amc_xrealloc(l->files, (l->nfiles + 1) * sizeof *l->files);
	l->files[l->nfiles].name = amc_xstrdup(path);
	l->files[l->nfiles].text = amc_xstrdup(*text);
	l->nfiles++;
	amc_sb_putc(ff->text, '\n');
	amc_sb_append(ff->text, *text, *len);
	return 0;
}

/* "sim:0" -> "sim" */
static void device_kind(const char *device, char *out, size_t n)
{
	size_t k = strcspn(device, ":");
	snprintf(out, n, "%.*s", (int)(k < n ? k : n - 1), device);
}

/* Sub-flows and scripts loaded, then what the device cannot do refused before
 * anything runs, naming the file and line. */
static int resolve_flow(const amc_config *cfg, const amc_launch_req *req, amc_launch *l, amc_flow *flow,
			amc_sb *text, amc_err *e)
{
	flow_files ff = { req->bundle, l, text, 0 };
	amc_flow_loader ld = { ff_read, NULL, &ff };
	if (amc_flow_resolve(flow, &ld, e) != 0)
		return -1;
	char kind[16];
	device_kind(l->task->device, kind, sizeof kind);
	if (!strcmp(kind, "appium")) /* its platform picks the `mobile:` commands, as in `amc flow check` */
		snprintf(kind, sizeof kind, "%s", amc_appium_kind_for(cfg));
	/* AI commands are checked once the model is known (flow_planner) */
	if (amc_flow_check_device_model(flow, kind, 1, e) != 0)
		return -1;
	(void)req;
	return 0;
}

static int ai_ask(void *ud, const char *command, const char *prompt, const amc_observation *obs, amc_action *out,
		  amc_err *e)
{
	return amc_ai_judge_ask(ud, command, prompt, obs, out, e);
}

static void ai_free(void *ud)
{
	amc_ai_judge_free(ud);
}

/* A flow with AI commands gets the model a goal would use; without one it is
 * refused before it runs, naming the first AI command and what to set. */
static int attach_ai(const amc_config *cfg, amc_launch *l, const amc_flow *flow, const char *kind,
		     amc_flow_run_opts *o, amc_err *e)
{
	if (!amc_flow_needs_ai(flow))
		return 0;
	amc_ai_judge *j;
	amc_err ce;
	amc_err_clear(&ce);
	if (amc_ai_judge_from_config(cfg, l->planner_warn, sizeof l->planner_warn, &j, &ce) != 0) {
		/* the device check without a model: its first problem is that AI command */
		amc_flow_check_device_model(flow, kind, 0, e);
		size_t n = strlen(e->msg);
		snprintf(e->msg + n, sizeof e->msg - n, "; %s", ce.msg);
		e->code = ce.code;
		return -1;
	}
	o->ai = ai_ask;
	o->ai_ud = j;
	o->ai_free = ai_free;
	return 0;
}

static unsigned long long seed_of(const char *s)
{
	unsigned long long h = 1469598103934665603ull;
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h ? h : 1;
}

extern char **environ;

static int flow_planner(const amc_config *cfg, const amc_launch_req *req, amc_launch *l, amc_flow *flow, amc_err *e)
{
	amc_flow_run_opts o;
	amc_flow_run_opts_init(&o);
	o.wait_timeout_ms = amc_config_int(cfg, "flow", "wait_timeout_ms");
	amc_flow_kv *kv = amc_xcalloc(l->nenv ? l->nenv : 1, sizeof *kv);
	for (size_t i = 0; i < l->nenv; i++) {
		kv[i].name = l->env[i].name;
		kv[i].value = l->env[i].value;
	}
	o.env = kv;
	o.nenv = l->nenv;
	o.environ = environ;
	o.eval = req->eval;
	o.eval_ud = req->eval_ud;
	o.set_copied = req->set_copied;
	/* maestro.platform and when: platform: what the device is; only an
	 * Appium session can be iOS */
	char kind[16];
	device_kind(l->task->device, kind, sizeof kind);
	o.platform = !strcmp(kind, "appium") ? amc_appium_platform(cfg) : "android";
	char where[512];
	if (!req->eval && amc_flow_needs_js(flow, where, sizeof where) &&
	    amc_flow_js_attach(&o, o.platform, e) != 0) { /* the planner owns the engine from here */
		free(kv);
		return amc_err_prefix(e, "%s", where);
	}
	if (!req->eval && o.eval_ud && req->js_remote)
		amc_script_set_http_hosts(o.eval_ud, req->js_http_hosts ? req->js_http_hosts : "");
	o.seed = seed_of(l->task->id);
	if (attach_ai(cfg, l, flow, kind, &o, e) != 0) {
		if (o.eval_free)
			o.eval_free(o.eval_ud);
		free(kv);
		return -1;
	}
	int rc = amc_flow_planner_new_opts(flow, &o, &l->planner, e);
	free(kv);
	return rc;
}

/* *PATH made absolute from the working folder; returns the length of the
 * prefix added ("CWD/"), 0 when the folder cannot be had (PATH unchanged). */
static size_t absolute(char **path)
{
	char cwd[PATH_MAX], abs[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return 0;
	int root = !strcmp(cwd, "/");
	if (amc_path_join(abs, sizeof abs, root ? "" : cwd, *path) != 0)
		return 0;
	free(*path);
	*path = amc_xstrdup(abs);
	return root ? 0 : strlen(cwd) + 1; /* from "/": nothing to take off again */
}

/* Every "CWD/" (the first CWDL bytes of ABS) removed from MSG, in place. */
static void unroot(char *msg, const char *abs, size_t cwdl)
{
	for (char *at = msg; (at = strstr(at, "/")) != NULL;) {
		if (!strncmp(at, abs, cwdl))
			memmove(at, at + cwdl, strlen(at + cwdl) + 1);
		else
			at++;
	}
}

/* Read or take the flow text, parse it, and fill the task's flow fields.
 * `text` gets every byte that may name a secret (flow, then bundle files). */
/* An error about the flow text itself ("PATH:LINE: what") said with the
 * bundle's label when the text is on no disk: "line LINE of LABEL: what".
 * PATH is the name this module gave the parser, so the prefix is its own. */
static void name_by_label(const amc_launch_bundle *b, const char *path, amc_err *e)
{
	size_t pl = strlen(path);
	if (!e || !b->label || strncmp(e->msg, path, pl) || e->msg[pl] != ':')
		return;
	const char *rest = e->msg + pl + 1;
	char *end;
	long line = strtol(rest, &end, 10);
	char tail[AMC_ERR_MSG_MAX];
	if (end > rest && *end == ':') {
		snprintf(tail, sizeof tail, "%s", end + 1 + strspn(end + 1, " "));
		amc_err_set(e, e->code, "line %ld of %s: %s", line, b->label, tail);
	} else {
		snprintf(tail, sizeof tail, "%s", rest + strspn(rest, " "));
		amc_err_set(e, e->code, "%s: %s", b->label, tail);
	}
}

static int load_flow(const amc_config *cfg, const amc_launch_req *req, amc_launch *l, amc_flow *flow, amc_sb *text,
		     amc_err *e)
{
	char *path = NULL, *buf = NULL;
	size_t len = 0;
	int rc = -1;
	if (req->bundle) {
		if (take_bundle(req->bundle, l, text, e) != 0)
			return -1;
		amc_sb p;
		amc_sb_init(&p);
		amc_sb_printf(&p, "%s/%s", req->bundle->base, req->bundle->flow_file ? req->bundle->flow_file : "flow.yaml");
		path = amc_sb_detach(&p);
		rc = amc_flow_parse(req->bundle->flow, strlen(req->bundle->flow), path, flow, e);
	} else {
		if (req->flow_name)
			rc = bundled_path(req->flow_name, &path, e);
		else {
			path = amc_xstrdup(req->flow_path);
			rc = 0;
		}
		/* The task and its steps ("flow command at FILE:LINE") name the
		 * file from the root, so the TUI or `amc show` started in another
		 * folder still reads the flow's lines. Not realpath: a sub-flow is
		 * found beside the file as named, symbolic links and all. */
		size_t cwdl = 0;
		if (rc == 0 && path[0] != '/')
			cwdl = absolute(&path);
		if (rc == 0 && (rc = amc_flow_read(path, &buf, &len, e)) == 0) {
			amc_sb_append(text, buf, len);
			rc = amc_flow_parse(buf, len, path, flow, e);
		}
		/* ... while what the user reads names it as they did */
		if (rc != 0 && cwdl)
			unroot(e->msg, path, cwdl);
	}
	if (rc == 0 && (rc = resolve_flow(cfg, req, l, flow, text, e)) != 0)
		amc_flow_free(flow);
	if (rc != 0 && req->bundle && path)
		name_by_label(req->bundle, path, e);
	if (rc == 0) {
		l->flow_text = amc_xstrdup(req->bundle ? req->bundle->flow : buf);
		l->task->flow_path = path;
		l->task->flow_name = amc_xstrdup(flow->name);
		path = NULL;
	}
	free(buf);
	free(path);
	return rc;
}

/* ---- the planner for a goal ---- */

/* The configuration with planner.provider/model as if from the command line.
 * A copy, so the caller's (shared with runner threads) is never written. */
static int override_config(const amc_config *cfg, const amc_launch_req *req, amc_config **out, amc_err *e)
{
	amc_config *c = amc_config_new();
	for (size_t i = 0; i < amc_config_count(cfg); i++) {
		amc_config_item it = amc_config_item_at(cfg, i);
		if (strcmp(it.origin, "default") &&
		    amc_config_set(c, it.section, it.key, it.value, it.origin, e) != 0)
			goto fail;
	}
	if (req->provider && amc_config_set(c, "planner", "provider", req->provider, "command line", e) != 0)
		goto fail;
	if (req->model && amc_config_set(c, "planner", "model", req->model, "command line", e) != 0)
		goto fail;
	*out = c;
	return 0;
fail:
	amc_config_free(c);
	return -1;
}

static amc_launch_agent_fn agent_fn;

void amc_launch_set_agent(amc_launch_agent_fn fn)
{
	agent_fn = fn;
}

static int goal_planner(const amc_config *cfg, const amc_launch_req *req, amc_launch *l, amc_err *e)
{
	const char *prov = req->provider ? req->provider : amc_config_str(cfg, "planner", "provider");
	if (prov && !strncmp(prov, "agent:", 6)) {
		/* a coding agent's CLI plans; planner.model names an API model, not its */
		if (!agent_fn)
			return amc_err_set(e, AMC_EUSAGE, "this program cannot run coding agents (%s)", prov);
		return agent_fn(cfg, prov, req->model, &l->planner, e);
	}
	if (!req->provider && !req->model)
		return amc_goal_planner_new(cfg, l->planner_warn, sizeof l->planner_warn, &l->planner, e);
	amc_config *c;
	if (override_config(cfg, req, &c, e) != 0)
		return -1;
	int rc = amc_goal_planner_new(c, l->planner_warn, sizeof l->planner_warn, &l->planner, e);
	amc_config_free(c);
	return rc;
}

/* ---- the request ---- */

static int check_request(const amc_launch_req *req, amc_err *e)
{
	int kinds = !!req->flow_name + !!req->flow_path + !!req->bundle + !!req->goal;
	if (kinds != 1)
		return amc_err_set(e, AMC_EUSAGE, kinds ? "give one thing to run: a flow name, a flow file, a flow bundle or a goal"
							: "nothing to run: give a goal or a flow");
	if (req->planner && !req->goal)
		return amc_err_set(e, AMC_EUSAGE, "a planner of the caller's runs a goal, not a flow");
	if (req->goal) {
		size_t n = strlen(req->goal);
		if (!req->goal[strspn(req->goal, " \t\r\n")])
			return amc_err_set(e, AMC_EUSAGE, "the goal is empty: write what to do, in words");
		if (n > AMC_LAUNCH_GOAL_MAX)
			return amc_err_set(e, AMC_EUSAGE, "the goal is longer than %d bytes", AMC_LAUNCH_GOAL_MAX);
	}
	if (req->max_steps < 0 || req->max_steps > 100000)
		return amc_err_set(e, AMC_EUSAGE, "max steps: a whole number from 1 to 100000");
	return 0;
}

static int prepare(const amc_config *cfg, amc_store *store, const amc_launch_req *req, amc_launch *l, amc_sb *text,
		   amc_err *e)
{
	if (check_request(req, e) != 0 || parse_env(req, l, e) != 0)
		return -1;
	char device[128];
	if (amc_device_id_normalize(req->device ? req->device : amc_config_str(cfg, "device", "default"), device,
				    sizeof device, e) != 0)
		return -1;
	l->task = amc_task_new(req->goal ? "goal" : "flow", device);
	l->task->max_steps = req->max_steps;
	if (req->source_task_id)
		l->task->source_task_id = amc_xstrdup(req->source_task_id);
	l->task->source_attempt = req->source_attempt;

	amc_flow flow;
	memset(&flow, 0, sizeof flow);
	if (!req->goal && load_flow(cfg, req, l, &flow, text, e) != 0)
		return -1;
	if (req->goal) {
		l->task->goal = amc_xstrdup(req->goal);
		amc_sb_puts(text, req->goal);
		/* A goal needs a key before anything is recorded: say exactly what to set. */
		if (!req->planner && goal_planner(cfg, req, l, e) != 0)
			return -1;
		amc_err pe;
		if (store && amc_store_prune_decisions(store, amc_config_int(cfg, "planner", "decisions_keep"), &pe) < 0)
			snprintf(l->prune_warn, sizeof l->prune_warn, "%s", pe.msg);
	} else {
		if (flow_planner(cfg, req, l, &flow, e) != 0) {
			amc_flow_free(&flow);
			return -1;
		}
		/* Flows are not gated unless --confirm; goals always are (unless --yes). */
		l->planner->gated = req->confirm;
	}
	l->gated = l->planner->gated;
	l->assume_yes = req->assume_yes;
	if (l->gated && amc_words_load(amc_config_str(cfg, "safety", "irreversible_words_file"), &l->words, e) != 0)
		return -1;
	/* {{secret:NAME}} in the goal or the flow: resolved now, typed on the device only */
	if (amc_secrets_resolve(amc_sb_str(text), amc_config_str(cfg, "secrets", "file"), &l->secrets, e) != 0)
		return -1;
	/* -e PASSWORD=...: a flow's secret inputs are secrets too: typed where the
	 * flow puts them, masked in every record (docs/flows.md) */
	for (size_t i = 0; i < l->nenv; i++)
		if (amc_secrets_name_sensitive(l->env[i].name) &&
		    amc_secrets_add(&l->secrets, l->env[i].name, l->env[i].value, e) != 0)
			return -1;
	amc_err ee;
	if (amc_enricher_from_config(cfg, &l->enricher, &ee) != 0) {
		/* enrichment never fails a run: say why and go on with raw Scenes */
		char *m = amc_sanitize_dup(ee.msg);
		snprintf(l->enrich_warn, sizeof l->enrich_warn, "%s; going on without SemanticScenes", m);
		free(m);
		l->enricher = NULL;
	}
	return 0;
}

int amc_launch_prepare(const amc_config *cfg, amc_store *store, const amc_launch_req *req, amc_launch *out,
		       amc_err *e)
{
	memset(out, 0, sizeof *out);
	out->planner = req->planner; /* taken, also on failure */
	amc_sb text;
	amc_sb_init(&text);
	int rc = prepare(cfg, store, req, out, &text, e);
	/* the text may hold a secret's name only, but wipe it like the values */
	if (text.buf)
		memset(text.buf, 0, text.len);
	amc_sb_free(&text);
	if (rc != 0)
		amc_launch_free(out);
	return rc;
}

void amc_launch_runner_opts(amc_launch *l, amc_runner_opts *o)
{
	o->confirm_words = l->gated ? &l->words : NULL;
	o->assume_yes = l->assume_yes;
	o->secrets = l->secrets;
	o->enricher = l->enricher;
}

void amc_launch_free(amc_launch *l)
{
	amc_task_free(l->task);
	amc_planner_free(l->planner);
	amc_secrets_free(l->secrets);
	amc_words_free(&l->words);
	amc_enricher_free(l->enricher);
	for (size_t i = 0; i < l->nenv; i++) {
		free(l->env[i].name);
		free(l->env[i].value);
	}
	free(l->env);
	for (size_t i = 0; i < l->nfiles; i++) {
		free(l->files[i].name);
		free(l->files[i].text);
	}
	free(l->files);
	free(l->bundle_base);
	free(l->flow_text);
	memset(l, 0, sizeof *l);
}

/* ---- the run ---- */

void amc_launch_ctx_init(amc_launch_ctx *c, const char *home, const amc_config *cfg)
{
	memset(c, 0, sizeof *c);
	c->home = home;
	c->cfg = cfg;
}

/* The one rule: a task that could not start is recorded `failed` with why. */
static int unstarted(amc_launch *l, amc_store *store, amc_bus *bus, const amc_runner_opts *ro,
		     amc_task_outcome *out, const amc_err *e)
{
	amc_task_record_unrun(store, bus, l->task, l->planner, ro->max_steps, AMC_ST_FAILED, e->msg);
	memset(out, 0, sizeof *out);
	snprintf(out->status, sizeof out->status, "%s", AMC_ST_FAILED);
	snprintf(out->error, sizeof out->error, "%s", e->msg);
	return -1;
}

/* The task's row exists: its flow's text and files go into its folder, by
 * the paths its steps name them (a bundle's as BASE/NAME), masked as every
 * record is. Not the task's failure when they cannot be written. */
static void store_sources(void *ud, amc_store *store, const amc_task *task)
{
	const amc_launch *l = ud;
	size_t n = 1 + l->nfiles;
	amc_store_source *src = amc_xcalloc(n, sizeof *src);
	char **own = amc_xcalloc(2 * n, sizeof *own);
	for (size_t i = 0; i < n; i++) {
		const char *name = i ? l->files[i - 1].name : task->flow_path;
		const char *text = i ? l->files[i - 1].text : l->flow_text;
		if (i && l->bundle_base) {
			amc_sb p;
			amc_sb_init(&p);
			amc_sb_printf(&p, "%s/%s", l->bundle_base, name);
			name = own[2 * i] = amc_sb_detach(&p);
		}
		/* a flow names secrets by placeholder only; a known value written
		 * in it anyway is masked like everywhere else */
		src[i].path = name;
		src[i].text = own[2 * i + 1] = l->secrets ? amc_secrets_mask(l->secrets, text) : amc_xstrdup(text);
	}
	amc_err e;
	if (amc_store_put_sources(store, task->id, src, n, &e) != 0)
		amc_log_warn("task %s: its flow's source is not kept: %s", task->id, e.msg);
	for (size_t i = 0; i < 2 * n; i++)
		free(own[i]);
	free(own);
	free(src);
}

int amc_launch_run(amc_launch *l, amc_launch_ctx *c, amc_task_outcome *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	c->device_down[0] = '\0';
	amc_runner_opts ro;
	if (c->opts) {
		ro = *c->opts;
	} else {
		amc_runner_opts_from_config(&ro, c->cfg);
		amc_launch_runner_opts(l, &ro);
	}
	ro.secrets = l->secrets;
	if (c->op)
		ro.op = c->op;
	if (c->decision_sink)
		ro.decision_sink = c->decision_sink;
	if (c->interrupt_why)
		ro.interrupt_why = c->interrupt_why;

	amc_store *store = c->store;
	if (!store && amc_store_open(c->home, &store, e) != 0)
		return unstarted(l, NULL, c->bus, &ro, out, e);
	int rc = -1;
	amc_lock *lock = NULL;
	amc_device *dev = c->dev ? c->dev : c->keep ? *c->keep : NULL;
	int opened = 0;
	int flag = c->cancel ? atomic_load(c->cancel) : 0;
	if (flag) {
		/* ended before it started: cancelled, or interrupted (run.h) with its text */
		int intr = flag == AMC_RUN_INTERRUPT;
		const char *st = intr ? AMC_ST_INTERRUPTED : AMC_ST_CANCELLED;
		const char *why = !intr ? "cancelled before it started"
			: ro.interrupt_why && *ro.interrupt_why ? ro.interrupt_why : "interrupted";
		amc_task_record_unrun(store, c->bus, l->task, l->planner, ro.max_steps, st, why);
		snprintf(out->status, sizeof out->status, "%s", st);
		snprintf(out->error, sizeof out->error, "%s", why);
		rc = 0;
		goto done;
	}
	/* the lock first: a busy device is not opened (an Appium session would be
	 * made for nothing) */
	if (amc_device_lock(amc_store_home(store), l->task->device, l->task->id, &lock, e) != 0) {
		lock = NULL;
		unstarted(l, store, c->bus, &ro, out, e);
		goto done;
	}
	if (!dev) {
		if (amc_device_open(l->task->device, c->home, c->cfg, &dev, e) != 0) {
			dev = NULL;
			if (e->code == AMC_EENV) /* not there or not answering; not a bad id */
				snprintf(c->device_down, sizeof c->device_down, "%s", e->msg);
			unstarted(l, store, c->bus, &ro, out, e);
			goto done;
		}
		opened = 1;
	}
	amc_run_env env = { store, c->bus, dev, c->cancel, lock, l->flow_text && l->task->flow_path ? store_sources : NULL, l };
	if (amc_task_run(&env, l->planner, l->task, &ro, out, e) != 0)
		unstarted(l, store, c->bus, &ro, out, e); /* the device did not answer, or the store refused the row */
	else
		rc = 0;
	/* A kept device that went away (the task failed or could not start): it
	 * is closed here and opened afresh for the next task. */
	amc_err he;
	if (!c->dev && c->keep && strcmp(out->status, AMC_ST_SUCCEEDED) && dev->ops->health(dev, &he) != 0) {
		snprintf(c->device_down, sizeof c->device_down, "%s", he.msg);
		amc_device_close(dev);
		dev = NULL;
	}
done:
	amc_device_unlock(lock);
	if (c->keep && !c->dev)
		*c->keep = dev;
	else if (opened)
		amc_device_close(dev);
	if (store != c->store)
		amc_store_close(store);
	return rc;
}
