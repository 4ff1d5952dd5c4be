/* mcp_tools.c - the tool table, argument checks, results, and the tools that
 * read (devices, task, cancel_task). observe, act and run_task are in
 * mcp_act.c. (mcp_tools.h) */
#include "mcp/mcp_tools.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "device/manager.h"
#include "mcp/mcp_act.h"
#include "mcp/registry.h"
#include "storage/store.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#include "mcp/mcp_tools_list.h"

static cJSON *tools_parsed;
static pthread_once_t tools_once = PTHREAD_ONCE_INIT;

static void parse_tools(void)
{
	tools_parsed = cJSON_Parse(TOOLS_JSON);
	const cJSON *t;
	cJSON_ArrayForEach(t, tools_parsed) {
		const char *n = amc_json_str(t, "name");
		if (n && !strcmp(n, "act"))
			amc_mcp_act_schema((cJSON *)t);
	}
}

static const cJSON *tool_def(const char *name)
{
	pthread_once(&tools_once, parse_tools);
	const cJSON *t;
	cJSON_ArrayForEach(t, tools_parsed) {
		const char *n = amc_json_str(t, "name");
		if (n && !strcmp(n, name))
			return t;
	}
	return NULL;
}

cJSON *amc_mcp_tools_list(void)
{
	pthread_once(&tools_once, parse_tools);
	return cJSON_Duplicate(tools_parsed, 1);
}

int amc_mcp_tool_known(const char *name)
{
	return tool_def(name) != NULL;
}

int amc_mcp_tool_check(const char *name, const cJSON *args, char *why, size_t n)
{
	const cJSON *t = tool_def(name);
	if (!t) {
		snprintf(why, n, "unknown tool");
		return -1;
	}
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(t, "inputSchema");
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");
	const cJSON *req = cJSON_GetObjectItemCaseSensitive(schema, "required");
	if (!cJSON_IsObject(args)) {
		snprintf(why, n, "arguments must be an object");
		return -1;
	}
	const cJSON *a;
	cJSON_ArrayForEach(a, args) {
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(props, a->string);
		if (!p) {
			char *s = amc_sanitize_dup(a->string);
			snprintf(why, n, "unknown argument '%.60s' for %s", s, name);
			free(s);
			return -1;
		}
		const char *type = amc_json_str(p, "type");
		int ok = !type || (!strcmp(type, "string") && cJSON_IsString(a)) ||
			 (!strcmp(type, "boolean") && cJSON_IsBool(a)) ||
			 (!strcmp(type, "integer") && cJSON_IsNumber(a) && a->valuedouble == (double)(long long)a->valuedouble &&
			  a->valuedouble > -1e9 && a->valuedouble < 1e9);
		if (!ok) {
			snprintf(why, n, "argument '%s' of %s must be a%s %s", a->string, name,
				 type[0] == 'i' ? "n" : "", type);
			return -1;
		}
		const cJSON *en = cJSON_GetObjectItemCaseSensitive(p, "enum");
		if (en) {
			int found = 0;
			const cJSON *v;
			cJSON_ArrayForEach(v, en) found |= !strcmp(v->valuestring, a->valuestring);
			if (!found) {
				char *l = cJSON_PrintUnformatted(en);
				snprintf(why, n, "argument '%s' of %s must be one of %s", a->string, name, l);
				free(l);
				return -1;
			}
		}
	}
	const cJSON *r;
	cJSON_ArrayForEach(r, req) {
		if (!cJSON_GetObjectItemCaseSensitive(args, r->valuestring)) {
			snprintf(why, n, "%s needs the argument '%s'", name, r->valuestring);
			return -1;
		}
	}
	return 0;
}

/* ---- results ---- */

/* ---- devices ---- */

static cJSON *t_devices(const amc_mcp_call *c)
{
	const amc_mcp_opts *o = c->o;
	amc_device_entry *d = NULL;
	size_t n = 0;
	char warn[256] = "";
	amc_err e;
	if (amc_devices_list(o->home, o->cfg, &d, &n, warn, sizeof warn, &e) != 0)
		return amc_mcp_fail("cannot list devices: %s", e.msg);
	cJSON *st = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(st, "devices");
	for (size_t i = 0; i < n; i++) {
		cJSON *j = cJSON_CreateObject();
		amc_json_add_str(j, "id", d[i].id);
		amc_json_add_str(j, "kind", d[i].kind);
		if (d[i].model[0])
			amc_json_add_str(j, "model", d[i].model);
		else
			cJSON_AddNullToObject(j, "model");
		if (d[i].width > 0) {
			cJSON *sz = cJSON_AddObjectToObject(j, "size");
			cJSON_AddNumberToObject(sz, "width", d[i].width);
			cJSON_AddNumberToObject(sz, "height", d[i].height);
		} else
			cJSON_AddNullToObject(j, "size");
		amc_json_add_str(j, "status", d[i].status);
		if (d[i].task[0])
			amc_json_add_str(j, "task", d[i].task);
		else
			cJSON_AddNullToObject(j, "task");
		if (d[i].note[0])
			amc_json_add_str(j, "note", d[i].note);
		cJSON_AddItemToArray(arr, j);
	}
	free(d);
	return amc_mcp_result(st, NULL, 0);
}

/* ---- task ---- */

static void add_str_or_null(cJSON *j, const char *k, const char *v, size_t max)
{
	if (!v) {
		cJSON_AddNullToObject(j, k);
		return;
	}
	amc_sb sb;
	amc_sb_init(&sb);
	size_t len = strlen(v);
	amc_sanitize_text(v, len > max ? max : len, &sb);
	if (len > max)
		amc_sb_printf(&sb, " [... %zu bytes in all]", len);
	cJSON_AddStringToObject(j, k, amc_sb_str(&sb));
	amc_sb_free(&sb);
}

static void add_artifact(cJSON *j, const char *k, amc_store *store, const char *rel)
{
	if (!rel) {
		cJSON_AddNullToObject(j, k);
		return;
	}
	cJSON *a = cJSON_AddObjectToObject(j, k);
	char abs[4096];
	amc_err e;
	struct stat st;
	if (amc_store_artifact_abspath(store, rel, abs, sizeof abs, &e) == 0) {
		amc_json_add_str(a, "path", abs);
		if (stat(abs, &st) == 0)
			cJSON_AddNumberToObject(a, "bytes", (double)st.st_size);
		else
			cJSON_AddNullToObject(a, "bytes");
	} else
		amc_json_add_str(a, "path", rel);
}

static cJSON *task_json(const amc_task_row *t)
{
	cJSON *j = cJSON_CreateObject();
	amc_json_add_str(j, "id", t->id);
	amc_json_add_str(j, "kind", t->kind);
	add_str_or_null(j, "goal", t->goal, 1000);
	add_str_or_null(j, "flow", t->flow_name ? t->flow_name : t->flow_path, 500);
	amc_json_add_str(j, "device", t->device);
	amc_json_add_str(j, "planner", t->planner);
	amc_json_add_str(j, "status", t->status);
	cJSON_AddNumberToObject(j, "steps", t->steps);
	add_str_or_null(j, "summary", t->summary, 1000);
	add_str_or_null(j, "error", t->error, 1000);
	cJSON_AddNumberToObject(j, "created_ms", (double)t->created_ms);
	if (t->finished_ms)
		cJSON_AddNumberToObject(j, "finished_ms", (double)t->finished_ms);
	else
		cJSON_AddNullToObject(j, "finished_ms");
	return j;
}

static cJSON *t_task(const amc_mcp_call *c)
{
	const amc_mcp_opts *o = c->o;
	const char *id = amc_json_str(c->args, "id");
	const cJSON *stepj = cJSON_GetObjectItemCaseSensitive(c->args, "step");
	amc_store *store;
	amc_err e;
	if (amc_store_open(o->home, &store, &e) != 0)
		return amc_mcp_fail("cannot open amc's store: %s", e.msg);
	amc_task_row t;
	if (amc_store_get_task(store, id, &t, &e) != 0) {
		amc_store_close(store);
		return amc_mcp_fail("%s (task ids are printed by run_task and act)", e.msg);
	}
	amc_step_row *rows = NULL;
	size_t n = 0;
	cJSON *r;
	if (amc_store_get_steps(store, t.id, &rows, &n, &e) != 0) {
		r = amc_mcp_fail("cannot read the steps of %s: %s", t.id, e.msg);
		goto done;
	}
	cJSON *st = cJSON_CreateObject();
	cJSON_AddItemToObject(st, "task", task_json(&t));
	cJSON *steps = cJSON_AddArrayToObject(st, "steps");
	size_t from = n > AMC_MCP_TASK_STEPS_MAX ? n - AMC_MCP_TASK_STEPS_MAX : 0;
	for (size_t i = from; i < n; i++) {
		cJSON *s = cJSON_CreateObject();
		cJSON_AddNumberToObject(s, "step", rows[i].step);
		amc_json_add_str(s, "tool", rows[i].tool);
		amc_json_add_str(s, "status", rows[i].status);
		add_str_or_null(s, "description", rows[i].description, 200);
		add_str_or_null(s, "error", rows[i].error, 300);
		cJSON_AddItemToArray(steps, s);
	}
	if (n > AMC_MCP_TASK_STEPS_MAX)
		cJSON_AddNumberToObject(st, "steps_left_out", (double)from);
	if (stepj) {
		const amc_step_row *sr = NULL;
		for (size_t i = 0; i < n; i++)
			if (rows[i].step == stepj->valueint)
				sr = &rows[i];
		if (!sr) {
			cJSON_Delete(st);
			r = amc_mcp_fail("task %s has no step %d (it has %zu)", t.id, stepj->valueint, n);
			goto done;
		}
		cJSON *d = cJSON_AddObjectToObject(st, "step");
		cJSON_AddNumberToObject(d, "step", sr->step);
		amc_json_add_str(d, "tool", sr->tool);
		add_str_or_null(d, "args", sr->args, 2000);
		amc_json_add_str(d, "status", sr->status);
		add_str_or_null(d, "error", sr->error, 1000);
		add_str_or_null(d, "result", sr->result, 2000);
		add_str_or_null(d, "reasoning", sr->reasoning, 2000);
		add_str_or_null(d, "scene", sr->scene, 8000);
		add_str_or_null(d, "ocr", sr->ocr, 4000);
		add_str_or_null(d, "timings", sr->timings, 500);
		add_artifact(d, "before_screenshot", store, sr->before_screenshot);
		add_artifact(d, "after_screenshot", store, sr->after_screenshot);
		add_artifact(d, "ui_tree", store, sr->ui_tree_path);
	} else
		cJSON_AddNullToObject(st, "step");
	r = amc_mcp_result(st, NULL, 0);
done:
	amc_step_rows_free(rows, n);
	amc_task_row_free(&t);
	amc_store_close(store);
	return r;
}

/* ---- cancel_task ---- */

static cJSON *t_cancel(const amc_mcp_call *c)
{
	const amc_mcp_opts *o = c->o;
	const char *id = amc_json_str(c->args, "id");
	amc_store *store;
	amc_err e;
	if (amc_store_open(o->home, &store, &e) != 0)
		return amc_mcp_fail("cannot open amc's store: %s", e.msg);
	amc_task_row t;
	char full[AMC_ID_SIZE];
	int found = amc_store_get_task(store, id, &t, &e) == 0;
	if (found) {
		snprintf(full, sizeof full, "%s", t.id);
	} else
		snprintf(full, sizeof full, "%.*s", (int)sizeof full - 1, id);
	amc_store_close(store);
	cJSON *r;
	/* the record first: a run's thread may still be closing after its task
	 * was recorded as ended, and an ended task is not cancelled again */
	if (found && amc_status_is_terminal(t.status)) {
		r = amc_mcp_fail("task %s has already ended (%s)", t.id, t.status);
	} else if (amc_mcp_reg_cancel_task(c->reg, full)) {
		cJSON *st = cJSON_CreateObject();
		amc_json_add_str(st, "task", full);
		cJSON_AddTrueToObject(st, "cancelled");
		r = amc_mcp_result(st, NULL, 0);
	} else if (!found)
		r = amc_mcp_fail("%s", e.msg);
	else
		r = amc_mcp_fail("task %s is not run by this MCP server (process %ld runs it): cancel it there, "
				 "e.g. in amc's TUI", t.id, t.owner_pid);
	if (found)
		amc_task_row_free(&t);
	return r;
}

cJSON *amc_mcp_tool_call(const char *name, const amc_mcp_call *c)
{
	char why[300];
	if (amc_mcp_tool_check(name, c->args, why, sizeof why) != 0)
		return amc_mcp_fail("%s", why);
	if (!strcmp(name, "devices"))
		return t_devices(c);
	if (!strcmp(name, "observe"))
		return amc_mcp_observe(c);
	if (!strcmp(name, "act"))
		return amc_mcp_act(c);
	if (!strcmp(name, "run_task"))
		return amc_mcp_run_task(c);
	if (!strcmp(name, "task"))
		return t_task(c);
	return t_cancel(c);
}
