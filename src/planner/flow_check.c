/* flow_check.c - `amc flow check` (see flow_check.h). */
#include "planner/flow_check.h"

#include <dirent.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "flow/flow_yaml.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define DEPTH_MAX 16       /* sub-flow nesting (a cycle is found before) */
#define DIR_FILES_MAX 10000
#define NAMES_MAX 512

extern char **environ;

amc_flow_check_device_fn amc_flow_check_device_hook = amc_flow_device_problems;

const char *amc_check_kind_name(amc_check_kind k)
{
	static const char *const N[] = { "invalid", "missing-file", "needs-env", "script", "cycle",
					 "device", "needs-model", "ignored" };
	return (unsigned)k < sizeof N / sizeof N[0] ? N[k] : "?";
}

int amc_check_kind_is_warning(amc_check_kind k)
{
	return k == AMC_CHECK_NEEDS_ENV || k == AMC_CHECK_IGNORED;
}

void amc_check_report_free(amc_check_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].file);
		free(r->v[i].msg);
	}
	free(r->v);
	cJSON_Delete(r->flows);
	memset(r, 0, sizeof *r);
}

static void add(amc_check_report *r, const char *file, int line, int col, amc_check_kind k,
		const char *fmt, ...) AMC_PRINTF(6, 7);
static void add(amc_check_report *r, const char *file, int line, int col, amc_check_kind k,
		const char *fmt, ...)
{
	char msg[AMC_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->v = amc_xrealloc(r->v, r->cap * sizeof *r->v);
	}
	amc_check_problem *p = &r->v[r->n++];
	p->file = amc_sanitize_dup(file);
	p->line = line > 0 ? line : 1;
	p->col = col > 0 ? col : 1;
	p->kind = k;
	p->msg = amc_sanitize_dup(msg);
}

/* amc_flow_problem_fn for the device check: each problem of the file. */
typedef struct dev_ctx {
	amc_check_report *r;
	const char *path;
} dev_ctx;

static void device_problem(void *ud, int line, const char *msg)
{
	dev_ctx *d = ud;
	add(d->r, d->path, line, 1, strstr(msg, AMC_FLOW_NEEDS_MODEL) ? AMC_CHECK_NEEDS_MODEL : AMC_CHECK_DEVICE,
	    "%s", msg);
}

/* ---- one file ---- */

typedef struct names { char *v[NAMES_MAX]; size_t n; } names;

static void names_add(names *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && !memcmp(s->v[i], name, len))
			return;
	if (s->n < NAMES_MAX)
		s->v[s->n++] = amc_xstrndup(name, len);
}

static int names_has(const names *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && !memcmp(s->v[i], name, len))
			return 1;
	return 0;
}

static void names_free(names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	s->n = 0;
}

typedef struct ctx {
	const amc_check_opts *o;
	amc_check_report *r;
	const char *stack[DEPTH_MAX]; /* real paths of the flows being checked */
	int depth;
	int engine_failed;
	amc_err *e;
	/* amc_flow_check_text: the top file's text, read in place of its path */
	const char *text;
	size_t text_len;
} ctx;

/* What the flow says that is read as Maestro reads it and then ignored
 * (f->notes: a config key Maestro keeps in ext, a swipe option its
 * deserializer skips): a warning each, so a flow that says more than runs is
 * not read silently. The documents after the command list already have their
 * own warning (ignored_line). */
static void add_notes(ctx *c, const char *path, const amc_flow *f, int ignored_line)
{
	for (const char *p = f->notes; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *end;
		long line = strtol(p, &end, 10);
		if (end != p && end[0] == ':' && end[1] == ' ' && line != ignored_line)
			add(c->r, path, (int)line, 1, AMC_CHECK_IGNORED, "warning: %.*s", (int)(len - (size_t)(end + 2 - p)),
			    end + 2);
		p = nl ? nl + 1 : p + len;
	}
}

static int check_file(ctx *c, const char *path, const names *inherited);

/* The commands of a list as amc reads them (its descriptions), blocks
 * (runFlow commands, repeat, retry) one deeper; at most INTERP_MAX a file. */
#define INTERP_MAX 2000
static void interp_cmds(cJSON *a, const amc_flow_cmd *v, size_t n, int depth)
{
	for (size_t i = 0; i < n && cJSON_GetArraySize(a) < INTERP_MAX; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "line", v[i].line);
		char *d = amc_flow_cmd_describe(&v[i]);
		char *safe = amc_sanitize_dup(d);
		cJSON_AddStringToObject(o, "command", safe);
		free(safe);
		free(d);
		if (v[i].label) {
			char *l = amc_sanitize_dup(v[i].label);
			cJSON_AddStringToObject(o, "label", l);
			free(l);
		}
		cJSON_AddNumberToObject(o, "depth", depth);
		cJSON_AddItemToArray(a, o);
		if (v[i].nbody && depth < 8)
			interp_cmds(a, v[i].body, v[i].nbody, depth + 1);
	}
}

static void add_interpretation(ctx *c, const char *path, const amc_flow *f)
{
	if (!c->o->interpret)
		return;
	if (!c->r->flows)
		c->r->flows = cJSON_CreateArray();
	cJSON *o = cJSON_CreateObject();
	char *safe = amc_sanitize_dup(path);
	cJSON_AddStringToObject(o, "file", safe);
	free(safe);
	if (f->app_id)
		cJSON_AddStringToObject(o, "appId", f->app_id);
	cJSON *a = cJSON_CreateArray();
	interp_cmds(a, f->on_start, f->non_start, 1);
	interp_cmds(a, f->cmds, f->count, 0);
	interp_cmds(a, f->on_complete, f->non_complete, 1);
	cJSON_AddItemToObject(o, "commands", a);
	cJSON_AddItemToArray(c->r->flows, o);
}

/* "WHERE:LINE: msg" (the parser's form) into line and message. */
static void split_parser_msg(const char *where, const char *msg, int *line, int *col,
			     const char **rest)
{
	*line = 1;
	*col = 0;
	*rest = msg;
	size_t wl = strlen(where);
	if (strncmp(msg, where, wl) != 0 || msg[wl] != ':')
		return;
	const char *p = msg + wl + 1;
	char *end;
	long l = strtol(p, &end, 10);
	if (end != p && *end == ':' && l > 0 && l < INT_MAX) {
		*line = (int)l;
		p = end + 1;
		long cl = strtol(p, &end, 10); /* libyaml's problems have a column too */
		if (end != p && *end == ':' && cl > 0 && cl < INT_MAX) {
			*col = (int)cl;
			p = end + 1;
		}
	}
	while (*p == ' ')
		p++;
	*rest = p;
}

/* The column of the first node starting on `line` (1 when none). */
static int col_of_line(const yaml_document_t *d, int line)
{
	int best = 0;
	for (yaml_node_t *n = d->nodes.start; n < d->nodes.top; n++)
		if ((int)n->start_mark.line + 1 == line && (!best || (int)n->start_mark.column + 1 < best))
			best = (int)n->start_mark.column + 1;
	return best ? best : 1;
}

static int is_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE;
}

static const char *sval(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* Every key of every `env:` mapping in the document defines a name, and so
 * does extractTextWithAI's outputVariable (aiOutput when it names none). */
static void collect_env(const yaml_document_t *d, names *def)
{
	for (yaml_node_t *n = d->nodes.start; n < d->nodes.top; n++) {
		if (n->type != YAML_MAPPING_NODE)
			continue;
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node((yaml_document_t *)d, p->key);
			yaml_node_t *v = yaml_document_get_node((yaml_document_t *)d, p->value);
			if (is_scalar(k) && !strcmp(sval(k), "extractTextWithAI"))
				names_add(def, "aiOutput", 8);
			if (is_scalar(k) && !strcmp(sval(k), "outputVariable") && is_scalar(v))
				names_add(def, sval(v), v->data.scalar.length);
			if (!is_scalar(k) || strcmp(sval(k), "env") != 0 || !v || v->type != YAML_MAPPING_NODE)
				continue;
			for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
				yaml_node_t *ek = yaml_document_get_node((yaml_document_t *)d, q->key);
				if (is_scalar(ek))
					names_add(def, sval(ek), ek->data.scalar.length);
			}
		}
	}
}

static int js_global(const char *id, size_t len)
{
	static const char *const G[] = { "output", "maestro", "Math", "Date", "JSON", "String",
		"Number", "Boolean", "Array", "Object", "RegExp", "parseInt", "parseFloat", "isNaN",
		"isFinite", "encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI",
		"undefined", "null", "true", "false", "typeof", "new", "function", "http", "json",
		"NaN", "Infinity", "Error", "console", "this", "void", "delete", "faker" };
	for (size_t i = 0; i < sizeof G / sizeof G[0]; i++)
		if (strlen(G[i]) == len && !memcmp(G[i], id, len))
			return 1;
	return 0;
}

/* Each ${expr} of a scalar: parses, and its leading name is defined. */
static int check_exprs(ctx *c, const char *file, const yaml_node_t *n, const names *def)
{
	const char *s = sval(n);
	int line = (int)n->start_mark.line + 1, col = (int)n->start_mark.column + 1;
	for (const char *o = strstr(s, "${"); o; o = strstr(o, "${")) {
		const char *q = o + 2;
		int depth = 1;
		for (; *q && depth > 0; q++)
			depth += *q == '{' ? 1 : *q == '}' ? -1 : 0;
		if (depth != 0) {
			add(c->r, file, line, col, AMC_CHECK_SCRIPT, "\"${\" without its closing \"}\"");
			return 0;
		}
		char *expr = amc_xstrndup(o + 2, (size_t)(q - 1 - (o + 2)));
		const char *id = expr;
		while (*id == ' ' || *id == '(' || *id == '!')
			id++;
		size_t len = 0;
		while (id[len] == '_' || id[len] == '$' || (id[len] >= 'A' && id[len] <= 'Z') ||
		       (id[len] >= 'a' && id[len] <= 'z') || (len && id[len] >= '0' && id[len] <= '9'))
			len++;
		if (len && !js_global(id, len) && !names_has(def, id, len)) {
			add(c->r, file, line, col, AMC_CHECK_NEEDS_ENV, "warning: ${%.*s} is not defined by an env "
			    "block, -e or a script: it runs as undefined (as in Maestro); give it with -e %.*s=VALUE",
			    (int)len, id, (int)len, id);
		} else {
			amc_err e;
			amc_err_clear(&e);
			if (amc_script_check(c->o->js, expr, "${}", &e) != 0) {
				if (e.code != AMC_EFAIL) {
					*c->e = e;
					c->engine_failed = 1;
					free(expr);
					return -1;
				}
				add(c->r, file, line, col, AMC_CHECK_SCRIPT, "${%s}: %s", expr, e.msg);
			}
		}
		free(expr);
		o = q;
	}
	return 0;
}

/* A file a command names, relative to the flow's folder. */
static void resolve(const char *flow, const char *name, char *out, size_t n)
{
	const char *slash = strrchr(flow, '/');
	if (name[0] == '/' || !slash)
		snprintf(out, n, "%s", name);
	else
		snprintf(out, n, "%.*s/%s", (int)(slash - flow), flow, name);
}

static int check_script_file(ctx *c, const char *file, const yaml_node_t *at, const char *path)
{
	char *text;
	size_t len;
	amc_err e;
	amc_err_clear(&e);
	if (amc_flow_read(path, &text, &len, &e) != 0)
		return 0; /* the caller checked it exists; an unreadable one shows at run time */
	if (amc_script_check(c->o->js, text, path, &e) != 0) {
		if (e.code != AMC_EFAIL) {
			*c->e = e;
			c->engine_failed = 1;
			free(text);
			return -1;
		}
		/* Maestro evaluates a runScript file as a plain script in GraalJS:
		 * TypeScript, or an ES module's import/export, fails there too. */
		size_t pl = strlen(path);
		int ts = pl > 3 && (!strcmp(path + pl - 3, ".ts") || (pl > 4 && !strcmp(path + pl - 4, ".tsx")));
		int module = strstr(e.msg, "import") || strstr(e.msg, "export");
		add(c->r, file, (int)at->start_mark.line + 1, (int)at->start_mark.column + 1,
		    AMC_CHECK_SCRIPT, "script %s: %s%s", path, e.msg,
		    ts || module ? " (Maestro refuses it too: runScript evaluates the file as a plain JavaScript "
				   "script, not TypeScript or an ES module)" : "");
	}
	free(text);
	return 0;
}

/* The file named by runFlow / runScript / retry / onFlow*: found, then checked. */
static int check_ref(ctx *c, const char *file, const yaml_node_t *v, int script, const names *def)
{
	char path[PATH_MAX];
	resolve(file, sval(v), path, sizeof path);
	struct stat st;
	int line = (int)v->start_mark.line + 1, col = (int)v->start_mark.column + 1;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		add(c->r, file, line, col, AMC_CHECK_MISSING_FILE, "%s file %s not found",
		    script ? "script" : "sub-flow", path);
		return 0;
	}
	if (script)
		return check_script_file(c, file, v, path);
	char real[PATH_MAX];
	if (!realpath(path, real))
		snprintf(real, sizeof real, "%s", path);
	for (int i = 0; i < c->depth; i++)
		if (strcmp(c->stack[i], real) == 0) {
			add(c->r, file, line, col, AMC_CHECK_CYCLE, "sub-flow %s includes itself "
			    "(through %s)", path, c->stack[c->depth - 1]);
			return 0;
		}
	if (c->depth >= DEPTH_MAX) {
		add(c->r, file, line, col, AMC_CHECK_CYCLE, "sub-flows nested more than %d deep",
		    DEPTH_MAX);
		return 0;
	}
	return check_file(c, path, def);
}

/* Walk the document: file references and ${} expressions. */
static int walk(ctx *c, const char *file, yaml_document_t *d, const yaml_node_t *n,
		const char *key, const names *def, int level)
{
	if (!n || level > AMC_FLOW_YAML_MAX_DEPTH)
		return 0;
	if (n->type == YAML_SCALAR_NODE) {
		if (key && (!strcmp(key, "runFlow") || !strcmp(key, "file") ||
			    !strcmp(key, "runScript") || !strcmp(key, "scriptFile")))
			return check_ref(c, file, n, !strcmp(key, "runScript") || !strcmp(key, "scriptFile"),
					 def);
		if (strstr(sval(n), "${"))
			return check_exprs(c, file, n, def);
		return 0;
	}
	if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++)
			if (walk(c, file, d, yaml_document_get_node(d, *i), NULL, def, level + 1) != 0)
				return -1;
		return 0;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		const char *kn = is_scalar(k) ? sval(k) : NULL;
		/* `file:` names a script under runScript, a sub-flow under runFlow/retry */
		if (kn && !strcmp(kn, "file") && key && !strcmp(key, "runScript"))
			kn = "scriptFile";
		if (kn && !strcmp(kn, "env"))
			continue; /* values of env blocks are data (their ${} are checked at run time) */
		if (walk(c, file, d, yaml_document_get_node(d, p->value), kn, def, level + 1) != 0)
			return -1;
	}
	return 0;
}

static int check_file(ctx *c, const char *path, const names *inherited)
{
	size_t before = c->r->n;
	char *text;
	size_t len;
	amc_err e;
	amc_err_clear(&e);
	if (c->text && c->depth == 0) {
		len = c->text_len;
		text = amc_xmalloc(len + 1);
		memcpy(text, c->text, len);
		text[len] = '\0';
	} else if (amc_flow_read(path, &text, &len, &e) != 0) {
		add(c->r, path, 1, 1, AMC_CHECK_INVALID, "%s", e.msg);
		return 0;
	}
	amc_flow_yaml y;
	amc_flow_yaml_init(&y, path, &e);
	if (amc_flow_yaml_read(&y, text, len) != 0) {
		int line, col;
		const char *rest;
		split_parser_msg(y.where, e.msg, &line, &col, &rest);
		add(c->r, path, line, col, AMC_CHECK_INVALID, "%s", rest);
		amc_flow_yaml_close(&y);
		free(text);
		return 0;
	}
	if (y.ignored_line)
		add(c->r, path, y.ignored_line, 1, AMC_CHECK_IGNORED, "warning: the documents from here on are "
		    "ignored: Maestro reads a config and one command list and never reads further "
		    "(MaestroFlowParser.parseFlow); put these commands in that list to run them");
	names def = { .n = 0 };
	for (size_t i = 0; inherited && i < inherited->n; i++)
		names_add(&def, inherited->v[i], strlen(inherited->v[i]));
	for (int i = 0; i < y.ndocs; i++)
		collect_env(&y.docs[i], &def);

	/* the grammar: the same parser `amc run --flow` uses */
	amc_flow f;
	amc_err_clear(&e);
	if (amc_flow_parse(text, len, path, &f, &e) != 0) {
		int line, col;
		const char *rest;
		split_parser_msg(y.where, e.msg, &line, &col, &rest);
		if (!col && y.ndocs == 2 && line < amc_flow_yaml_line(amc_flow_yaml_use(&y, 1)))
			col = col_of_line(&y.docs[0], line);
		else if (!col && y.ndocs)
			col = col_of_line(&y.docs[y.ndocs - 1], line);
		add(c->r, path, line, col, AMC_CHECK_INVALID, "%s", rest);
	} else {
		add_notes(c, path, &f, y.ignored_line);
		add_interpretation(c, path, &f);
		if (c->o->device_check) {
			dev_ctx dc = { c->r, path };
			c->o->device_check(&f, c->o->device_kind ? c->o->device_kind : "adb", device_problem, &dc);
		}
		amc_flow_free(&f);
	}

	char real[PATH_MAX];
	if (!realpath(path, real))
		snprintf(real, sizeof real, "%s", path);
	c->stack[c->depth++] = real;
	int rc = 0;
	for (int i = 0; i < y.ndocs && rc == 0; i++) {
		const yaml_node_t *root = amc_flow_yaml_use(&y, i);
		rc = walk(c, path, y.doc, root, NULL, &def, 0);
	}
	c->stack[--c->depth] = NULL; /* `real` dies here: leave no pointer to it */
	names_free(&def);
	amc_flow_yaml_close(&y);
	free(text);
	(void)before;
	return rc;
}

/* ---- files and folders ---- */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_flow_name(const char *n)
{
	size_t l = strlen(n);
	if (!strcmp(n, "config.yaml") || !strcmp(n, "config.yml"))
		return 0; /* Maestro's workspace configuration, not a flow */
	return (l > 5 && !strcmp(n + l - 5, ".yaml")) || (l > 4 && !strcmp(n + l - 4, ".yml"));
}

static int check_top(ctx *c, const char *path, const names *def)
{
	size_t before = c->r->n;
	c->r->files++;
	if (check_file(c, path, def) != 0)
		return -1;
	/* A ${NAME} nothing defines is only a warning: Maestro evaluates it to
	 * undefined (GraalJsEngine), so the flow runs as it would there. */
	size_t hard = 0, lacking = 0, warned = 0;
	for (size_t i = before; i < c->r->n; i++) {
		if (amc_check_kind_is_warning(c->r->v[i].kind))
			warned++;
		else if (c->r->v[i].kind == AMC_CHECK_MISSING_FILE || c->r->v[i].kind == AMC_CHECK_NEEDS_MODEL)
			lacking++;
		else
			hard++;
	}
	if (!hard && !lacking)
		c->r->clean++;
	else if (!hard)
		c->r->lacking++;
	if (!hard && !lacking && warned)
		c->r->warned++;
	return 0;
}

static int check_dir(ctx *c, const char *dir, const names *def, int level)
{
	DIR *d = opendir(dir);
	if (!d) {
		add(c->r, dir, 1, 1, AMC_CHECK_INVALID, "cannot read this folder");
		return 0;
	}
	char **list = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < DIR_FILES_MAX) {
		/* hidden folders are walked: Maestro's own is .maestro/ */
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !strcmp(de->d_name, ".git"))
			continue;
		list = amc_xrealloc(list, (n + 1) * sizeof *list);
		list[n++] = amc_xstrdup(de->d_name);
	}
	closedir(d);
	if (n > 1) /* an empty folder leaves list NULL, and qsort's base must not be NULL even for 0 */
		qsort(list, n, sizeof *list, by_name);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", dir, list[i]);
		struct stat st;
		if (stat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode) && level < 16)
			rc = check_dir(c, p, def, level + 1);
		else if (S_ISREG(st.st_mode) && is_flow_name(list[i]))
			rc = check_top(c, p, def);
	}
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return rc;
}

static void defined_names(const amc_check_opts *o, names *def)
{
	for (size_t i = 0; o->defined && o->defined[i]; i++)
		names_add(def, o->defined[i], strlen(o->defined[i]));
	for (char **env = environ; env && *env; env++)
		if (!strncmp(*env, "MAESTRO_", 8) && strchr(*env, '='))
			names_add(def, *env, (size_t)(strchr(*env, '=') - *env));
}

int amc_flow_check_text(const char *text, size_t len, const char *label, const amc_check_opts *o,
			amc_check_report *r, amc_err *e)
{
	amc_err local;
	ctx c = { .o = o, .r = r, .e = e ? e : &local, .text = text, .text_len = len };
	names def = { .n = 0 };
	defined_names(o, &def);
	int rc = check_top(&c, label, &def);
	names_free(&def);
	return rc;
}

cJSON *amc_check_report_json(const amc_check_report *r)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "files", (double)r->files);
	cJSON_AddNumberToObject(j, "clean", (double)r->clean);
	cJSON_AddNumberToObject(j, "lacking", (double)r->lacking);
	cJSON_AddNumberToObject(j, "warned", (double)r->warned);
	cJSON_AddItemToObject(j, "problems", amc_check_problems_json(r, r->n));
	if (r->flows)
		cJSON_AddItemToObject(j, "flows", cJSON_Duplicate(r->flows, 1));
	return j;
}

cJSON *amc_check_problems_json(const amc_check_report *r, size_t max)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < r->n && i < max; i++) {
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "file", r->v[i].file);
		cJSON_AddNumberToObject(p, "line", r->v[i].line);
		cJSON_AddNumberToObject(p, "col", r->v[i].col);
		cJSON_AddStringToObject(p, "kind", amc_check_kind_name(r->v[i].kind));
		cJSON_AddStringToObject(p, "severity", amc_check_kind_is_warning(r->v[i].kind) ? "warning" : "error");
		cJSON_AddStringToObject(p, "message", r->v[i].msg);
		cJSON_AddItemToArray(a, p);
	}
	return a;
}

int amc_flow_check_path(const char *path, const amc_check_opts *o, amc_check_report *r,
			amc_err *e)
{
	amc_err local;
	ctx c = { .o = o, .r = r, .e = e ? e : &local };
	names def = { .n = 0 };
	defined_names(o, &def);
	struct stat st;
	int rc = 0;
	if (stat(path, &st) != 0) {
		add(r, path, 1, 1, AMC_CHECK_INVALID, "not found");
		r->files++;
		rc = amc_err_set(e, AMC_EUSAGE, "%s: not found", path);
	} else if (S_ISDIR(st.st_mode)) {
		rc = check_dir(&c, path, &def, 0);
	} else {
		rc = check_top(&c, path, &def);
	}
	names_free(&def);
	return rc;
}
