/* payload.c - assignment payloads: build on submit, check on the host (see payload.h). */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include <cjson/cJSON.h>

#include "flow/flow.h"
#include "fleet/payload.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* A name inside the bundle: relative, no "." or ".." parts, no control bytes
 * or backslashes, not too long. */
static int name_ok(const char *n)
{
	size_t len = n ? strlen(n) : 0;
	if (len == 0 || len > AMC_LAUNCH_BUNDLE_NAME_MAX || n[0] == '/')
		return 0;
	for (const char *p = n; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '\\')
			return 0;
	for (const char *p = n;;) {
		size_t seg = strcspn(p, "/");
		if (seg == 0 || (seg == 1 && p[0] == '.') || (seg == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (!p[seg])
			return 1;
		p += seg + 1;
	}
}

static int bad(amc_err *e, const char *what, const char *name)
{
	char *s = amc_sanitize_dup(name ? name : "");
	amc_err_set(e, AMC_EUSAGE, "bad assignment payload: %s%s%s%s", what, name ? " '" : "", name ? s : "",
		    name ? "'" : "");
	free(s);
	return -1;
}

void amc_fleet_payload_free(amc_fleet_payload *p)
{
	free(p->goal);
	free(p->agent);
	free(p->model);
	free(p->flow_name);
	free(p->flow_text);
	for (size_t i = 0; i < p->nfiles; i++) {
		free((char *)p->files[i].name);
		free((char *)p->files[i].text);
	}
	free(p->files);
	memset(p, 0, sizeof *p);
}

static int text_field(const cJSON *o, const char *key, size_t max, char **out, const char *what, amc_err *e)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!cJSON_IsString(j) || !j->valuestring)
		return bad(e, what, NULL);
	size_t len = strlen(j->valuestring);
	if (len > max) {
		amc_err_set(e, AMC_EUSAGE, "bad assignment payload: %s is %zu bytes, over the limit of %zu", what, len, max);
		return -1;
	}
	*out = amc_xstrdup(j->valuestring);
	return 0;
}

/* A model name goes on a command line: a plain word. */
static int model_ok(const char *m)
{
	size_t n = strlen(m);
	if (!n || n > 100 || m[0] == '-')
		return 0;
	for (; *m; m++)
		if (!((*m >= 'a' && *m <= 'z') || (*m >= 'A' && *m <= 'Z') || (*m >= '0' && *m <= '9') || strchr("._:/-", *m)))
			return 0;
	return 1;
}

int amc_fleet_payload_parse(const char *text, size_t len, amc_fleet_payload *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	if (len > AMC_FLEET_PAYLOAD_MAX)
		return amc_err_set(e, AMC_EUSAGE, "bad assignment payload: %zu bytes, over the limit of %u", len,
				   AMC_FLEET_PAYLOAD_MAX);
	amc_err je;
	cJSON *j = amc_json_parse(text, len, AMC_FLEET_PAYLOAD_MAX, &je);
	if (!j)
		return amc_err_set(e, AMC_EUSAGE, "bad assignment payload: not valid JSON (%s)", je.msg);
	int rc = -1;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "v");
	const char *kind = amc_json_str(j, "kind");
	if (!cJSON_IsObject(j)) {
		bad(e, "not a JSON object", NULL);
	} else if (!cJSON_IsNumber(v) || v->valuedouble != 1) {
		bad(e, "unknown version (this amc reads \"v\":1)", NULL);
	} else if (kind && !strcmp(kind, "goal")) {
		out->kind = "goal";
		if (text_field(j, "goal", AMC_LAUNCH_GOAL_MAX, &out->goal, "the goal", e) == 0) {
			const cJSON *ag = cJSON_GetObjectItemCaseSensitive(j, "agent");
			const cJSON *mo = cJSON_GetObjectItemCaseSensitive(j, "model");
			if (!out->goal[strspn(out->goal, " \t\r\n")])
				bad(e, "the goal is empty", NULL);
			else if (ag && (!cJSON_IsString(ag) || (strcmp(ag->valuestring, "claude") && strcmp(ag->valuestring, "codex"))))
				bad(e, "\"agent\" is claude or codex", NULL);
			else if (mo && (!cJSON_IsString(mo) || !model_ok(mo->valuestring)))
				bad(e, "\"model\" is a model name (letters, digits, . _ : / -; at most 100)", NULL);
			else {
				out->agent = ag ? amc_xstrdup(ag->valuestring) : NULL;
				out->model = mo ? amc_xstrdup(mo->valuestring) : NULL;
				rc = 0;
			}
		}
	} else if (kind && !strcmp(kind, "flow")) {
		out->kind = "flow";
		const cJSON *fl = cJSON_GetObjectItemCaseSensitive(j, "flow");
		const cJSON *files = cJSON_GetObjectItemCaseSensitive(j, "files");
		size_t total = 0;
		if (!cJSON_IsObject(fl)) {
			bad(e, "a flow payload has no \"flow\" object", NULL);
		} else if (text_field(fl, "name", AMC_LAUNCH_BUNDLE_NAME_MAX, &out->flow_name, "the flow's name", e) != 0 ||
			   text_field(fl, "text", AMC_FLOW_MAX_BYTES, &out->flow_text, "the flow's text", e) != 0) {
			/* e is set */
		} else if (!name_ok(out->flow_name)) {
			bad(e, "the flow's name is not a plain name inside the bundle", out->flow_name);
		} else if (files && !cJSON_IsArray(files)) {
			bad(e, "\"files\" is not an array", NULL);
		} else if (cJSON_GetArraySize(files) > AMC_LAUNCH_BUNDLE_FILES_MAX) {
			amc_err_set(e, AMC_EUSAGE, "bad assignment payload: %d files, over the limit of %d",
				    cJSON_GetArraySize(files), AMC_LAUNCH_BUNDLE_FILES_MAX);
		} else {
			total = strlen(out->flow_text);
			size_t n = (size_t)cJSON_GetArraySize(files);
			out->files = n ? amc_xcalloc(n, sizeof *out->files) : NULL;
			rc = 0;
			const cJSON *f;
			cJSON_ArrayForEach(f, files) {
				char *name = NULL, *t = NULL;
				if (!cJSON_IsObject(f) ||
				    text_field(f, "name", AMC_LAUNCH_BUNDLE_NAME_MAX, &name, "a file's name", e) != 0 ||
				    text_field(f, "text", AMC_FLOW_MAX_BYTES, &t, "a file's text", e) != 0) {
					if (!cJSON_IsObject(f))
						bad(e, "a file is not an object", NULL);
					free(name);
					rc = -1;
					break;
				}
				out->files[out->nfiles].name = name;
				out->files[out->nfiles].text = t;
				out->nfiles++;
				total += strlen(t);
				if (!name_ok(name)) {
					rc = bad(e, "a file's name is not a plain name inside the bundle", name);
					break;
				}
				for (size_t k = 0; k + 1 < out->nfiles; k++)
					if (!strcmp(out->files[k].name, name)) {
						rc = bad(e, "a file is given twice", name);
						break;
					}
				if (rc)
					break;
			}
			if (rc == 0 && total > AMC_LAUNCH_BUNDLE_MAX_BYTES)
				rc = amc_err_set(e, AMC_EUSAGE, "bad assignment payload: %zu bytes of flow text, over the limit of %u",
						 total, AMC_LAUNCH_BUNDLE_MAX_BYTES);
		}
	} else {
		bad(e, "\"kind\" is neither \"goal\" nor \"flow\"", NULL);
	}
	cJSON_Delete(j);
	if (rc != 0)
		amc_fleet_payload_free(out);
	return rc;
}

char *amc_fleet_payload_goal(const char *goal, amc_err *e)
{
	return amc_fleet_payload_goal_agent(goal, NULL, NULL, e);
}

char *amc_fleet_payload_goal_agent(const char *goal, const char *agent, const char *model, amc_err *e)
{
	size_t len = goal ? strlen(goal) : 0;
	if (!len || !goal[strspn(goal, " \t\r\n")]) {
		amc_err_set(e, AMC_EUSAGE, "the goal is empty");
		return NULL;
	}
	if (len > AMC_LAUNCH_GOAL_MAX) {
		amc_err_set(e, AMC_EUSAGE, "the goal is %zu bytes, longer than %d", len, AMC_LAUNCH_GOAL_MAX);
		return NULL;
	}
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "v", 1);
	cJSON_AddStringToObject(j, "kind", "goal");
	cJSON_AddStringToObject(j, "goal", goal);
	if (agent && strcmp(agent, "claude") && strcmp(agent, "codex")) {
		cJSON_Delete(j);
		amc_err_set(e, AMC_EUSAGE, "--agent takes claude or codex");
		return NULL;
	}
	if (model && !model_ok(model)) {
		cJSON_Delete(j);
		amc_err_set(e, AMC_EUSAGE, "--model takes a model name (letters, digits, . _ : / -)");
		return NULL;
	}
	if (agent)
		cJSON_AddStringToObject(j, "agent", agent);
	if (model)
		cJSON_AddStringToObject(j, "model", model);
	char *s = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return s;
}

/* ---- bundling a flow file ---- */

typedef struct bundle {
	char *base;              /* the top flow's folder */
	char *names[AMC_LAUNCH_BUNDLE_FILES_MAX + 1];
	char *texts[AMC_LAUNCH_BUNDLE_FILES_MAX + 1];
	size_t n;                /* names[0] is the top flow */
	size_t total;
} bundle;

/* One level of the YAML being walked. */
typedef struct level {
	int map, want_key;
	char key[32], parent[32];
} level;

static int is_ref_key(const char *k)
{
	return !strcmp(k, "runFlow") || !strcmp(k, "runScript");
}

static int add_file(bundle *b, const char *name, amc_err *e);

/* The names a flow's YAML refers to: values of runFlow / runScript, or of
 * `file:` in a mapping under one of them. Relative to `dir` (the naming
 * file's folder inside the bundle, "" at the top). */
static int scan_refs(bundle *b, const char *dir, const char *text, amc_err *e)
{
	yaml_parser_t p;
	yaml_event_t ev;
	level st[64];
	int depth = 0, rc = 0, done = 0;
	if (!yaml_parser_initialize(&p))
		return amc_err_set(e, AMC_EENV, "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
	while (!done && rc == 0) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = amc_err_set(e, AMC_EUSAGE, "the flow's YAML cannot be read: %s", p.problem ? p.problem : "?");
			break;
		}
		level *top = depth ? &st[depth - 1] : NULL;
		switch (ev.type) {
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			if (depth == 64) {
				rc = amc_err_set(e, AMC_EUSAGE, "the flow's YAML is nested too deep");
				break;
			}
			st[depth] = (level){ ev.type == YAML_MAPPING_START_EVENT, 1, "", "" };
			if (top)
				snprintf(st[depth].parent, sizeof st[depth].parent, "%s", top->map ? top->key : top->parent);
			if (top && top->map)
				top->want_key = 1;
			depth++;
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			if (depth)
				depth--;
			break;
		case YAML_SCALAR_EVENT:
		case YAML_ALIAS_EVENT:
			if (!top || !top->map)
				break;
			if (top->want_key) {
				snprintf(top->key, sizeof top->key, "%s",
					 ev.type == YAML_SCALAR_EVENT ? (const char *)ev.data.scalar.value : "");
				top->want_key = 0;
				break;
			}
			top->want_key = 1;
			if (ev.type == YAML_SCALAR_EVENT &&
			    (is_ref_key(top->key) || (!strcmp(top->key, "file") && is_ref_key(top->parent)))) {
				const char *ref = (const char *)ev.data.scalar.value;
				if (!*ref)
					break;
				amc_sb nm;
				amc_sb_init(&nm);
				if (*dir)
					amc_sb_printf(&nm, "%s/", dir);
				amc_sb_puts(&nm, ref);
				if (ref[0] == '/' || !name_ok(amc_sb_str(&nm))) {
					char *s = amc_sanitize_dup(ref);
					rc = amc_err_set(e, AMC_EUSAGE,
							 "'%s' is outside the flow's folder: a bundled flow can only name files "
							 "below its own folder", s);
					free(s);
				} else {
					rc = add_file(b, amc_sb_str(&nm), e);
				}
				amc_sb_free(&nm);
			}
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return rc;
}

static int add_file(bundle *b, const char *name, amc_err *e)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->names[i], name))
			return 0; /* named twice (or a cycle): once is enough */
	if (b->n > AMC_LAUNCH_BUNDLE_FILES_MAX)
		return amc_err_set(e, AMC_EUSAGE, "the flow names more than %d files (the bundle limit)",
				   AMC_LAUNCH_BUNDLE_FILES_MAX);
	char path[4096];
	if (amc_path_join(path, sizeof path, b->base, name) != 0)
		return amc_err_set(e, AMC_EUSAGE, "a file name is too long");
	char *text;
	size_t len;
	if (amc_read_file(path, AMC_FLOW_MAX_BYTES, &text, &len, e) != 0)
		return amc_err_prefix(e, "cannot bundle the flow");
	if (memchr(text, 0, len)) {
		free(text);
		char *s = amc_sanitize_dup(name);
		amc_err_set(e, AMC_EUSAGE, "cannot bundle '%s': it is not text", s);
		free(s);
		return -1;
	}
	b->total += len;
	if (b->total > AMC_LAUNCH_BUNDLE_MAX_BYTES) {
		free(text);
		return amc_err_set(e, AMC_EUSAGE, "the flow and the files it names are over %u bytes (the bundle limit)",
				   AMC_LAUNCH_BUNDLE_MAX_BYTES);
	}
	size_t i = b->n++;
	b->names[i] = amc_xstrdup(name);
	b->texts[i] = text;
	size_t nl = strlen(name);
	if ((nl > 5 && !strcmp(name + nl - 5, ".yaml")) || (nl > 4 && !strcmp(name + nl - 4, ".yml"))) {
		char *dir = amc_xstrdup(name);
		char *sl = strrchr(dir, '/');
		if (sl)
			*sl = 0;
		else
			dir[0] = 0;
		int rc = scan_refs(b, dir, text, e);
		free(dir);
		if (rc != 0)
			return amc_err_prefix(e, "%s", i == 0 ? "the flow" : "a sub-flow");
	}
	return 0;
}

char *amc_fleet_payload_flow(const char *path, char **title, amc_err *e)
{
	*title = NULL;
	bundle b;
	memset(&b, 0, sizeof b);
	b.base = amc_xstrdup(path);
	char *sl = strrchr(b.base, '/');
	const char *fname = sl ? sl + 1 : path;
	if (sl)
		*sl = 0;
	else
		strcpy(b.base, ".");
	char *json = NULL;
	if (!name_ok(fname)) {
		amc_err_set(e, AMC_EUSAGE, "give the flow as a file path");
	} else if (add_file(&b, fname, e) == 0) {
		/* Refuse now what the host would refuse later. */
		amc_flow f;
		if (amc_flow_parse(b.texts[0], strlen(b.texts[0]), path, &f, e) == 0) {
			amc_flow_free(&f);
			cJSON *j = cJSON_CreateObject();
			cJSON_AddNumberToObject(j, "v", 1);
			cJSON_AddStringToObject(j, "kind", "flow");
			cJSON *fl = cJSON_AddObjectToObject(j, "flow");
			cJSON_AddStringToObject(fl, "name", b.names[0]);
			cJSON_AddStringToObject(fl, "text", b.texts[0]);
			cJSON *files = cJSON_AddArrayToObject(j, "files");
			for (size_t i = 1; i < b.n; i++) {
				cJSON *o = cJSON_CreateObject();
				cJSON_AddStringToObject(o, "name", b.names[i]);
				cJSON_AddStringToObject(o, "text", b.texts[i]);
				cJSON_AddItemToArray(files, o);
			}
			json = cJSON_PrintUnformatted(j);
			cJSON_Delete(j);
			*title = amc_xstrdup(fname);
		}
	}
	for (size_t i = 0; i < b.n; i++) {
		free(b.names[i]);
		free(b.texts[i]);
	}
	free(b.base);
	return json;
}
