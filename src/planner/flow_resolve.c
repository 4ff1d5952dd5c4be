/* flow_resolve.c - the files a flow names (sub-flows, scripts), walking every
 * command of a resolved flow, and the checks made before a run: what a device
 * kind cannot do (each command's row says), and whether JavaScript is needed
 * (then amc-js is opened). */
#include "flow/flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow_cmds.h"
#include "flow/flow_interp.h"
#include "util/fsutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* ---- paths ---- */

/* The folder of `path` joined with `name` (absolute names as they are), with
 * "." and "x/.." parts taken out so a cycle is seen whatever way it is named. */
static char *join(const char *path, const char *name)
{
	amc_sb sb;
	amc_sb_init(&sb);
	const char *slash = strrchr(path, '/');
	if (name[0] != '/' && slash)
		amc_sb_append(&sb, path, (size_t)(slash - path) + 1);
	amc_sb_puts(&sb, name);
	char *raw = amc_sb_detach(&sb);
	/* split into parts and rebuild */
	char **parts = amc_xcalloc(strlen(raw) + 1, sizeof *parts);
	size_t n = 0;
	int absolute = raw[0] == '/';
	for (char *save = NULL, *t = strtok_r(raw, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (!strcmp(t, "."))
			continue;
		if (!strcmp(t, "..") && n > 0 && strcmp(parts[n - 1], ".."))
			n--;
		else
			parts[n++] = t;
	}
	amc_sb_init(&sb);
	if (absolute)
		amc_sb_putc(&sb, '/');
	for (size_t i = 0; i < n; i++) {
		if (i)
			amc_sb_putc(&sb, '/');
		amc_sb_puts(&sb, parts[i]);
	}
	if (n == 0 && !absolute)
		amc_sb_putc(&sb, '.');
	free(parts);
	free(raw);
	return amc_sb_detach(&sb);
}

static int disk_read(void *ud, const char *path, char **text, size_t *len, amc_err *e)
{
	(void)ud;
	if (!amc_file_exists(path))
		return 1;
	return amc_flow_read(path, text, len, e);
}

/* ---- resolving ---- */

typedef struct resolver {
	const amc_flow_loader *ld;
	const char *chain[AMC_FLOW_MAX_DEPTH + 1]; /* paths being resolved, outermost first */
	int depth;
	int files;
	amc_err *e;
} resolver;

static int resolve_flow(resolver *r, amc_flow *f);

static int where_err(resolver *r, const amc_flow *f, const amc_flow_cmd *c, const char *fmt, const char *a,
		     const char *b)
{
	char *w = amc_sanitize_dup(f->path ? f->path : "(flow)");
	char *qa = amc_sanitize_dup(a ? a : ""), *qb = amc_sanitize_dup(b ? b : "");
	char msg[AMC_ERR_MSG_MAX];
	snprintf(msg, sizeof msg, fmt, qa, qb);
	amc_err_set(r->e, AMC_EUSAGE, "%s:%d: %s: %s", w, c->line, amc_flow_cmd_name(c), msg);
	free(w);
	free(qa);
	free(qb);
	return -1;
}

static int resolve_file(resolver *r, amc_flow *f, amc_flow_cmd *c)
{
	char *path = join(f->path ? f->path : "flow.yaml", c->file);
	int is_script = c->def && (c->def->flags & AMC_FLOW_CMDF_SCRIPT);
	for (int i = 0; i < r->depth && !is_script; i++) {
		if (!strcmp(r->chain[i], path)) {
			amc_sb ch;
			amc_sb_init(&ch);
			for (int k = i; k < r->depth; k++)
				amc_sb_printf(&ch, "%s -> ", r->chain[k]);
			amc_sb_puts(&ch, path);
			where_err(r, f, c, "the sub-flows form a cycle: %s%s", amc_sb_str(&ch), "");
			amc_sb_free(&ch);
			free(path);
			return -1;
		}
	}
	if (!is_script && r->depth >= AMC_FLOW_MAX_DEPTH) {
		free(path);
		char d[16];
		snprintf(d, sizeof d, "%d", AMC_FLOW_MAX_DEPTH);
		return where_err(r, f, c, "sub-flows are nested deeper than %s%s", d, "");
	}
	if (++r->files > AMC_FLOW_MAX_FILES) {
		free(path);
		char d[16];
		snprintf(d, sizeof d, "%d", AMC_FLOW_MAX_FILES);
		return where_err(r, f, c, "the flow loads more than %s files%s", d, "");
	}
	char *text = NULL;
	size_t len = 0;
	int rc = r->ld->read(r->ld->ud, path, &text, &len, r->e);
	if (rc == 1) {
		if (r->ld->missing) {
			r->ld->missing(r->ld->ud, f->path, c->line, amc_flow_cmd_name(c), path);
			free(path);
			return 0;
		}
		rc = where_err(r, f, c, is_script ? "script file '%s' not found (looked for %s)"
				   : "sub-flow file '%s' not found (looked for %s)", c->file, path);
		free(path);
		return rc;
	}
	if (rc != 0) {
		free(path);
		return -1;
	}
	if (is_script) {
		c->script = text;
		free(path);
		return 0;
	}
	amc_flow *sub = amc_xcalloc(1, sizeof *sub);
	rc = amc_flow_parse_sub(text, len, path, 0, sub, r->e);
	free(text);
	if (rc != 0) {
		free(sub);
		free(path);
		return -1;
	}
	if (!sub->app_id && f->app_id)
		sub->app_id = amc_xstrdup(f->app_id);
	c->sub = sub;
	r->chain[r->depth++] = path;
	rc = resolve_flow(r, sub);
	r->depth--;
	free(path);
	if (rc == 0)
		rc = amc_flow_check_app_ids(sub, r->e);
	return rc;
}

static int resolve_cmds(resolver *r, amc_flow *f, amc_flow_cmd *cmds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		amc_flow_cmd *c = &cmds[i];
		if (c->file && !c->sub && !c->script && resolve_file(r, f, c) != 0)
			return -1;
		if (resolve_cmds(r, f, c->body, c->nbody) != 0)
			return -1;
	}
	return 0;
}

static int resolve_flow(resolver *r, amc_flow *f)
{
	if (resolve_cmds(r, f, f->on_start, f->non_start) != 0 || resolve_cmds(r, f, f->cmds, f->count) != 0 ||
	    resolve_cmds(r, f, f->on_complete, f->non_complete) != 0)
		return -1;
	return 0;
}

int amc_flow_resolve(amc_flow *f, const amc_flow_loader *loader, amc_err *e)
{
	static const amc_flow_loader DISK = { disk_read, NULL, NULL };
	resolver r = { loader ? loader : &DISK, { 0 }, 0, 0, e };
	r.chain[r.depth++] = f->path ? f->path : "flow.yaml";
	return resolve_flow(&r, f);
}

int amc_flow_load_resolved(const char *path, amc_flow *out, amc_err *e)
{
	if (amc_flow_load(path, out, e) != 0)
		return -1;
	if (amc_flow_resolve(out, NULL, e) != 0) {
		amc_flow_free(out);
		return -1;
	}
	return 0;
}

/* ---- walking ---- */

static int walk_cmds(const amc_flow *file, const amc_flow_cmd *cmds, size_t n, amc_flow_visit_fn fn, void *ud)
{
	for (size_t i = 0; i < n; i++) {
		int rc = fn(ud, file, &cmds[i]);
		if (rc == 0)
			rc = walk_cmds(file, cmds[i].body, cmds[i].nbody, fn, ud);
		if (rc == 0 && cmds[i].sub)
			rc = amc_flow_walk(cmds[i].sub, fn, ud);
		if (rc)
			return rc;
	}
	return 0;
}

int amc_flow_walk(const amc_flow *f, amc_flow_visit_fn fn, void *ud)
{
	int rc = walk_cmds(f, f->on_start, f->non_start, fn, ud);
	if (rc == 0)
		rc = walk_cmds(f, f->cmds, f->count, fn, ud);
	if (rc == 0)
		rc = walk_cmds(f, f->on_complete, f->non_complete, fn, ud);
	return rc;
}

/* ---- before a run ---- */

typedef struct dev_check {
	const char *kind;
	int have_model;
	amc_err *e;
	int *line;      /* non-NULL: the line goes here, not into the message */
	amc_flow_problem_fn report; /* non-NULL: every problem goes here, the walk goes on */
	void *ud;
	int count;
} dev_check;

static int is_ai(const amc_flow_cmd *c)
{
	return c->def && (c->def->flags & AMC_FLOW_CMDF_AI);
}

/* What the command's row says the device kind cannot do (flow_cmd_def.h):
 * any kind but sim and adb is taken as Appium's. */
static const char *cannot(const dev_check *k, const amc_flow_cmd *c)
{
	if (is_ai(c))
		return k->have_model ? NULL : "AI commands need a model (planner.provider and its key: `amc providers`)";
	if (!c->def)
		return NULL;
	int kind = !strcmp(k->kind, "sim") ? AMC_FLOW_KIND_SIM : !strcmp(k->kind, "adb") ? AMC_FLOW_KIND_ADB
										       : AMC_FLOW_KIND_APPIUM;
	const char *why = c->def->cannot[kind];
	return c->def->cannot_fn ? c->def->cannot_fn(c, k->kind, why) : why;
}

static int check_one(void *ud, const amc_flow *file, const amc_flow_cmd *c)
{
	dev_check *k = ud;
	const char *why = cannot(k, c);
	if (!why)
		return 0;
	char *w = amc_sanitize_dup(file->path ? file->path : "(flow)");
	char *kind = amc_sanitize_dup(k->kind);
	char *d = amc_flow_cmd_describe(c);
	if (k->report) {
		char msg[AMC_ERR_MSG_MAX];
		if (is_ai(c)) /* not the device's: an external input, said as such */
			snprintf(msg, sizeof msg, "%s: %s (an external input, as Maestro needs MAESTRO_CLI_AI_KEY): "
				 "configure planner.provider and its key (`amc providers`)", d, AMC_FLOW_NEEDS_MODEL);
		else
			snprintf(msg, sizeof msg, "%s: not available on %s devices: %s", d, kind, why);
		k->report(k->ud, c->line, msg);
		k->count++;
		free(d);
		free(kind);
		free(w);
		return 0;
	}
	if (k->line) {
		*k->line = c->line;
		amc_err_set(k->e, AMC_EUSAGE, "%s: not available on %s devices: %s", d, kind, why);
	} else {
		amc_err_set(k->e, AMC_EUSAGE, "%s:%d: %s: not available on %s devices: %s", w, c->line, d, kind,
			    why);
	}
	free(d);
	free(kind);
	free(w);
	return -1;
}

int amc_flow_check_device_model(const amc_flow *f, const char *device_kind, int have_model, amc_err *e)
{
	dev_check k = { device_kind ? device_kind : "adb", have_model, e, NULL, NULL, NULL, 0 };
	return amc_flow_walk(f, check_one, &k) ? -1 : 0;
}

static int problems(const amc_flow *f, const char *device_kind, int have_model, amc_flow_problem_fn fn, void *ud)
{
	dev_check k = { device_kind ? device_kind : "adb", have_model, NULL, NULL, fn, ud, 0 };
	amc_flow_walk(f, check_one, &k);
	return k.count;
}

int amc_flow_device_problems(const amc_flow *f, const char *device_kind, amc_flow_problem_fn fn, void *ud)
{
	return problems(f, device_kind, 0, fn, ud);
}

int amc_flow_device_problems_with_model(const amc_flow *f, const char *device_kind, amc_flow_problem_fn fn, void *ud)
{
	return problems(f, device_kind, 1, fn, ud);
}

static int ai_one(void *ud, const amc_flow *file, const amc_flow_cmd *c)
{
	(void)ud;
	(void)file;
	return is_ai(c);
}

int amc_flow_needs_ai(const amc_flow *f)
{
	return amc_flow_walk(f, ai_one, NULL) != 0;
}

int amc_flow_check_device(const amc_flow *f, const char *device_kind, amc_err *e)
{
	return amc_flow_check_device_model(f, device_kind, 0, e);
}

/* ---- JavaScript ---- */

typedef struct js_check {
	char *where;
	size_t n;
} js_check;

static int sel_js(const amc_selector *s)
{
	if (!s)
		return 0;
	if (amc_flow_interp_needs_js(s->text) || amc_flow_interp_needs_js(s->id))
		return 1;
	const amc_selector *rel[] = { s->below, s->above, s->left_of, s->right_of, s->contains_child, s->child_of };
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++)
		if (sel_js(rel[i]))
			return 1;
	for (size_t i = 0; i < s->ndescendants; i++)
		if (sel_js(&s->descendants[i]))
			return 1;
	return 0;
}

static int cmd_js(const amc_flow_cmd *c)
{
	if (c->def && (c->def->flags & AMC_FLOW_CMDF_JS))
		return 1;
	if (amc_flow_interp_needs_js(c->text) || sel_js(&c->sel) || sel_js(c->cond.visible) ||
	    sel_js(c->cond.not_visible) || amc_flow_interp_needs_js(c->cond.is_true))
		return 1;
	for (size_t i = 0; i < c->nenv; i++)
		if (amc_flow_interp_needs_js(c->env[i].value))
			return 1;
	for (size_t i = 0; i < c->nargs; i++) /* launchApp arguments */
		if (amc_flow_interp_needs_js(c->args[i].value))
			return 1;
	return 0;
}

static int js_one(void *ud, const amc_flow *file, const amc_flow_cmd *c)
{
	js_check *k = ud;
	if (!cmd_js(c))
		return 0;
	if (k->where && k->n) {
		char *w = amc_sanitize_dup(file->path ? file->path : "(flow)");
		snprintf(k->where, k->n, "%s:%d: %s", w, c->line, amc_flow_cmd_name(c));
		free(w);
	}
	return 1;
}

int amc_flow_needs_js(const amc_flow *f, char *where, size_t n)
{
	js_check k = { where, n };
	for (size_t i = 0; i < f->nenv; i++) {
		if (amc_flow_interp_needs_js(f->env[i].value)) {
			if (where && n) {
				char *w = amc_sanitize_dup(f->path ? f->path : "(flow)");
				snprintf(where, n, "%s: env %s", w, f->env[i].name);
				free(w);
			}
			return 1;
		}
	}
	return amc_flow_walk(f, js_one, &k) != 0;
}
