/* flow.c - a Maestro-compatible flow file: the config document, the list of
 * commands and their limits. Reading the YAML is flow_yaml.c; what each
 * command means is the table in flow_cmds.c. */
#include "flow/flow.h"

#include <stdlib.h>
#include <string.h>

#include "flow/flow_cmds.h"
#include "flow/flow_yaml.h"
#include "util/fsutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

const char *amc_flow_op_name(amc_flow_op op)
{
	const amc_flow_cmd_def *def = amc_flow_cmds_by_op(op);
	return def ? def->name : "?";
}

/* ---- config document ---- */

static int parse_config(amc_flow_yaml *y, const yaml_node_t *root, amc_flow *f)
{
	static const char *const LATER[] = { "env", "onFlowStart", "onFlowComplete", "jsEngine", "properties" };
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
		int later = 0;
		for (size_t j = 0; j < sizeof LATER / sizeof LATER[0]; j++)
			later |= !strcmp(it->name, LATER[j]);
		if (!strcmp(it->name, "appId"))
			rc = amc_flow_yaml_str(y, it->val, "appId", 0, &f->app_id);
		else if (!strcmp(it->name, "name"))
			rc = amc_flow_yaml_str(y, it->val, "name", 1, &f->name);
		else if (!strcmp(it->name, "tags")) {
			/* Used by Maestro to select flows; amc runs one file, so only check the shape. */
			if (it->val->type == YAML_MAPPING_NODE)
				rc = amc_flow_yaml_err(y, it->val, "tags must be a list of words");
		} else {
			char *q = amc_flow_yaml_quote(it->key);
			if (later)
				rc = amc_flow_yaml_err(y, it->key, "config key '%s' is not supported yet "
						       "(supported: appId, name, tags)", q);
			else
				rc = amc_flow_yaml_err(y, it->key, "unknown config key '%s' "
						       "(supported: appId, name, tags)", q);
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
						 "must be followed by `---` and the commands");
		return amc_flow_yaml_err(y, root, "expected a list of commands (`- launchApp`), got %s",
					 amc_flow_yaml_kind(root));
	}
	size_t cnt = (size_t)(root->data.sequence.items.top - root->data.sequence.items.start);
	if (cnt == 0)
		return amc_flow_yaml_err(y, root, "the flow has no commands");
	if (cnt > AMC_FLOW_MAX_COMMANDS)
		return amc_flow_yaml_err(y, root, "the flow has %zu commands, over the limit of %d", cnt,
					 AMC_FLOW_MAX_COMMANDS);
	if (amc_flow_cmds_parse_list(y, root, &f->cmds, &f->count) != 0)
		return -1;
	for (size_t i = 0; i < f->count; i++) {
		amc_flow_cmd *c = &f->cmds[i];
		if (c->op == AMC_FLOW_LAUNCH_APP && !c->text && !f->app_id)
			return amc_err_set(y->e, AMC_EUSAGE,
					   "%s:%d: launchApp needs an app id: set appId in the config "
					   "document or write `launchApp: com.example.app`", y->where, c->line);
	}
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

void amc_flow_free(amc_flow *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->count; i++)
		amc_flow_cmd_clear(&f->cmds[i]);
	free(f->cmds);
	free(f->path);
	free(f->name);
	free(f->app_id);
	memset(f, 0, sizeof *f);
}

int amc_flow_parse(const char *buf, size_t len, const char *path, amc_flow *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	if (!path)
		path = "(flow)";
	amc_flow_yaml y;
	int rc = -1;
	amc_flow_yaml_init(&y, path, e);
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

int amc_flow_load(const char *path, amc_flow *out, amc_err *e)
{
	char *buf = NULL;
	size_t len = 0;
	memset(out, 0, sizeof *out);
	if (amc_flow_read(path, &buf, &len, e) != 0)
		return -1;
	int rc = amc_flow_parse(buf, len, path, out, e);
	free(buf);
	return rc;
}

char *amc_flow_cmd_describe(const amc_flow_cmd *c)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, amc_flow_op_name(c->op));
	const amc_flow_cmd_def *def = amc_flow_cmds_by_op(c->op);
	if (def && def->describe)
		def->describe(&sb, c);
	return amc_sb_detach(&sb);
}
