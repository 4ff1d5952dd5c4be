/* flow.c - a Maestro-compatible flow file: the config document, the list of
 * commands and their limits. Reading the YAML is flow_yaml.c; what each
 * command means is its row, in the table flow_commands.c hands down (its
 * amc_flow_parse and amc_flow_load call amc_flow_parse_in here). */
#include "flow/flow.h"

#include <stdlib.h>
#include <string.h>

#include "flow/flow_cmds.h"
#include "flow/flow_yaml.h"
#include "util/fsutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* ---- config document ---- */

/* Keys Maestro accepts that do not change what amc does: taken, and said so. */
static const struct {
	const char *key;
	const char *why;
} IGNORED[] = {
	{ "androidWebViewHierarchy", "amc reads web views from the UI tree as the device gives it" },
	{ "jsEngine", "amc evaluates JavaScript with its own engine" },
	{ "properties", "flow properties are for Maestro Cloud" },
	{ "url", "web flows: amc drives phones" },
	{ "ext", "extensions are for Maestro's own tools" },
};

static int parse_hook(amc_flow_yaml *y, const yaml_node_t *v, const char *what, amc_flow_cmd **cmds, size_t *n)
{
	if (v->type != YAML_SEQUENCE_NODE)
		return amc_flow_yaml_err(y, v, "%s must be a list of commands, got %s", what, amc_flow_yaml_kind(v));
	size_t cnt = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	if (cnt > AMC_FLOW_MAX_COMMANDS)
		return amc_flow_yaml_err(y, v, "%s has %zu commands, over the limit of %d", what, cnt,
					 AMC_FLOW_MAX_COMMANDS);
	if (cnt == 0)
		return 0;
	return amc_flow_cmds_parse_list(y, v, cmds, n);
}

static int parse_tags(amc_flow_yaml *y, const yaml_node_t *v, amc_flow *f)
{
	if (v->type == YAML_SCALAR_NODE && !amc_flow_yaml_is_null(v)) {
		f->tags = amc_xcalloc(1, sizeof *f->tags);
		f->ntags = 1;
		return amc_flow_yaml_str(y, v, "tags", 1, &f->tags[0]);
	}
	if (v->type != YAML_SEQUENCE_NODE)
		return amc_flow_yaml_err(y, v, "tags must be a list of words, got %s", amc_flow_yaml_kind(v));
	size_t cnt = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	if (cnt > 256)
		return amc_flow_yaml_err(y, v, "tags has %zu entries, over the limit of 256", cnt);
	f->tags = amc_xcalloc(cnt ? cnt : 1, sizeof *f->tags);
	for (size_t i = 0; i < cnt; i++) {
		const yaml_node_t *t = amc_flow_yaml_node(y, v->data.sequence.items.start[i]);
		if (amc_flow_yaml_str(y, t, "a tag", 1, &f->tags[i]) != 0)
			return -1;
		f->ntags = i + 1;
	}
	return 0;
}

static int parse_config(amc_flow_yaml *y, const yaml_node_t *root, amc_flow *f)
{
	if (root->type != YAML_MAPPING_NODE)
		return amc_flow_yaml_err(y, root, "the first document must be a mapping (appId: ..., name: ...), "
					 "got %s", amc_flow_yaml_kind(root));
	amc_flow_yaml_kv *items;
	size_t cnt;
	if (amc_flow_yaml_items(y, root, &items, &cnt) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < cnt && rc == 0; i++) {
		const amc_flow_yaml_kv *it = &items[i];
		size_t ig = 0;
		while (ig < sizeof IGNORED / sizeof IGNORED[0] && strcmp(it->name, IGNORED[ig].key))
			ig++;
		if (!strcmp(it->name, "appId"))
			rc = amc_flow_yaml_str(y, it->val, "appId", 0, &f->app_id);
		else if (!strcmp(it->name, "name"))
			rc = amc_flow_yaml_str(y, it->val, "name", 1, &f->name);
		else if (!strcmp(it->name, "tags"))
			rc = parse_tags(y, it->val, f);
		else if (!strcmp(it->name, "env"))
			rc = amc_flow_kv_parse(y, it->val, "env", &f->env, &f->nenv);
		else if (!strcmp(it->name, "onFlowStart"))
			rc = parse_hook(y, it->val, "onFlowStart", &f->on_start, &f->non_start);
		else if (!strcmp(it->name, "onFlowComplete"))
			rc = parse_hook(y, it->val, "onFlowComplete", &f->on_complete, &f->non_complete);
		else if (ig < sizeof IGNORED / sizeof IGNORED[0]) {
			amc_flow_yaml_note(y, it->key, "%s ignored (%s)", IGNORED[ig].key, IGNORED[ig].why);
			f->web |= !strcmp(it->name, "url");
		}
		else {
			/* YamlConfig's @JsonAnySetter keeps any other key in ext and
			 * Maestro does nothing with it (Rocket.Chat writes onFlowEnd):
			 * accepted and ignored, said so in the notes. */
			char *q = amc_flow_yaml_quote(it->key);
			amc_flow_yaml_note(y, it->key, "%s ignored (%s)", q, !strcmp(it->name, "onFlowEnd")
					     ? "not a Maestro hook, kept in ext and never run; did you mean onFlowComplete?"
					     : "not a Maestro key: Maestro keeps it in ext and does nothing with it");
			free(q);
		}
	}
	free(items);
	return rc;
}

static int parse_commands(amc_flow_yaml *y, const yaml_node_t *root, amc_flow *f)
{
	if (root->type != YAML_SEQUENCE_NODE) {
		if (root->type == YAML_MAPPING_NODE)
			return amc_flow_yaml_err(y, root, "expected a list of commands; a config mapping (appId, name) "
						 "must be followed by `---` and the commands (Maestro refuses a flow "
						 "without both sections too)");
		return amc_flow_yaml_err(y, root, "expected a list of commands (`- launchApp`), got %s",
					 amc_flow_yaml_kind(root));
	}
	size_t cnt = (size_t)(root->data.sequence.items.top - root->data.sequence.items.start);
	if (cnt == 0)
		return amc_flow_yaml_err(y, root, "the flow has no commands");
	if (cnt > AMC_FLOW_MAX_COMMANDS)
		return amc_flow_yaml_err(y, root, "the flow has %zu commands, over the limit of %d", cnt,
					 AMC_FLOW_MAX_COMMANDS);
	f->line_cmds = amc_flow_yaml_line(root);
	return amc_flow_cmds_parse_list(y, root, &f->cmds, &f->count);
}

/* Commands that act on "the flow's app" need one: in the command or from appId. */
static int needs_app(const amc_flow_cmd *c)
{
	return c->def && (c->def->flags & AMC_FLOW_CMDF_APP) && !c->text;
}

static int check_app_ids(const amc_flow_cmd *cmds, size_t n, const amc_flow *f, amc_err *e)
{
	for (size_t i = 0; i < n; i++) {
		const amc_flow_cmd *c = &cmds[i];
		if (needs_app(c) && !f->app_id && f->web) {
			/* YamlConfig reads url as the appId (@JsonAlias): Maestro's web
			 * driver opens that page in a desktop browser. */
			char *w = amc_sanitize_dup(f->path ? f->path : "(flow)");
			amc_err_set(e, AMC_EUSAGE, "%s:%d: %s: this is a Maestro web flow (url: in the config, which "
				    "Maestro reads as the appId and opens in its desktop web browser driver); amc drives "
				    "Android and iOS devices and the sim, where there is no such app to launch",
				    w, c->line, amc_flow_cmd_name(c));
			free(w);
			return -1;
		}
		if (needs_app(c) && !f->app_id) {
			char *w = amc_sanitize_dup(f->path ? f->path : "(flow)");
			amc_err_set(e, AMC_EUSAGE, "%s:%d: %s needs an app id: set appId in the config "
				    "document or write `%s: com.example.app`", w, c->line, amc_flow_cmd_name(c),
				    amc_flow_cmd_name(c));
			free(w);
			return -1;
		}
		if (check_app_ids(c->body, c->nbody, f, e) != 0)
			return -1;
	}
	return 0;
}

int amc_flow_check_app_ids(const amc_flow *f, amc_err *e)
{
	if (check_app_ids(f->cmds, f->count, f, e) != 0 || check_app_ids(f->on_start, f->non_start, f, e) != 0 ||
	    check_app_ids(f->on_complete, f->non_complete, f, e) != 0)
		return -1;
	return 0;
}

static char *default_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	return amc_xstrndup(base, n);
}

/* check_top: refuse launchApp without an app id now (a sub-flow takes its parent's). */
int amc_flow_parse_in(const amc_flow_cmd_table *t, const char *buf, size_t len, const char *path, int check_top,
		      amc_flow *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	if (!path)
		path = "(flow)";
	amc_flow_yaml y;
	int rc = -1;
	amc_flow_yaml_init(&y, path, e);
	y.cmds = t;
	if (len > AMC_FLOW_MAX_BYTES) {
		amc_err_set(e, AMC_EUSAGE, "%s: the flow is %zu bytes, over the limit of %u bytes", y.where,
			    len, AMC_FLOW_MAX_BYTES);
		goto out;
	}
	if (amc_flow_yaml_read(&y, buf, len) != 0)
		goto out;
	if (y.ndocs == 0) {
		amc_err_set(e, AMC_EUSAGE, "%s: the flow is empty (expected an optional config "
			    "(appId: ...), `---`, then a list of commands)", y.where);
		goto out;
	}
	out->path = amc_xstrdup(path);
	if (y.ndocs == 2 && parse_config(&y, amc_flow_yaml_use(&y, 0), out) != 0)
		goto out;
	if (parse_commands(&y, amc_flow_yaml_use(&y, y.ndocs - 1), out) != 0)
		goto out;
	/* the notes the config and the commands left (amc_flow_yaml_note) */
	amc_sb sb;
	amc_sb_init(&sb);
	if (y.notes)
		amc_sb_puts(&sb, y.notes);
	if (y.ignored_line) /* MaestroFlowParser stops after one command list too */
		amc_sb_printf(&sb, "%d: the documents from line %d on ignored (Maestro reads a config and one "
			      "command list and never reads further)\n", y.ignored_line, y.ignored_line);
	out->notes = amc_sb_detach(&sb); /* "" when none */
	if (check_top && amc_flow_check_app_ids(out, e) != 0)
		goto out;
	if (!out->name || !*out->name) {
		free(out->name);
		out->name = default_name(path);
	}
	rc = 0;
out:
	amc_flow_yaml_close(&y);
	if (rc != 0)
		amc_flow_free(out);
	return rc;
}

int amc_flow_read(const char *path, char **text, size_t *len, amc_err *e)
{
	*text = NULL;
	*len = 0;
	if (!path || !*path)
		return amc_err_set(e, AMC_EUSAGE, "no flow file given");
	if (amc_read_file(path, AMC_FLOW_MAX_BYTES, text, len, e) == 0)
		return 0;
	/* amc_read_file quotes the path raw; rebuild the message with a safe one. */
	char *where = amc_sanitize_dup(path);
	if (!amc_file_exists(path))
		amc_err_set(e, AMC_EUSAGE, "flow file '%s' not found: check the path "
			    "(bundled flows are in data/flows/)", where);
	else if (e) {
		char *m = amc_sanitize_dup(e->msg);
		amc_err_set(e, AMC_EUSAGE, "cannot read flow file: %s", m);
		free(m);
	}
	free(where);
	return -1;
}
