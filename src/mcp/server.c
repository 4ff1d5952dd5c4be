/* server.c - the MCP server over stdio: reader, workers, confirmations
 * (server.h). Sessions and runs are the registry's (registry.h); handlers
 * get them through mcp_call.h and never call back into this file. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device/device.h"
#include "perception/ocr.h"
#include "mcp/jsonrpc.h"
#include "runtime/pending.h"
#include "mcp/mcp_tools.h"
#include "mcp/mcp_resources.h"
#include "mcp/registry.h"
#include "mcp/server.h"
#include "util/clock.h"
#include "util/ids.h"
#include "util/jsonutil.h"
#include "util/log.h"
#include "util/sanitize.h"

#define PEND_MAX 16

static const char *const VERSIONS[] = { "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05" };
static const char *const LEVELS[] = { "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency" };

typedef struct call_slot {
	int used;
	char key[300];
	atomic_int cancel;
} call_slot;

typedef struct pend {
	int used, done;
	long id;
	cJSON *result;   /* the response's result; NULL with an error */
} pend;

typedef struct amc_mcp_server amc_mcp_server;

struct amc_mcp_server {
	amc_mcp_opts o;
	pthread_mutex_t out_mu;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char client[160];
	int elicit;
	int log_level;           /* index in LEVELS: messages at or above it are sent */
	char session_id[AMC_ID_SIZE];
	call_slot calls[AMC_MCP_CALLS_MAX];
	int workers;
	int had_inflight_at_eof;
	amc_mcp_reg *reg;
	pend pends[PEND_MAX];
	long next_req;
	int stopping;
	atomic_int stop_flag;   /* = stopping, for waits outside mu */
	amc_operator op;
};

/* ---- writing ---- */

static void send_msg(amc_mcp_server *s, cJSON *j)
{
	char *t = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	if (!t)
		return;
	pthread_mutex_lock(&s->out_mu);
	fputs(t, s->o.out);
	fputc('\n', s->o.out);
	fflush(s->o.out);
	pthread_mutex_unlock(&s->out_mu);
	free(t);
}

/* notifications/progress for a call (mcp_call.h's progress). */
static void call_progress(const amc_mcp_call *c, double progress, double total, const char *message)
{
	if (!c->progress_token)
		return;
	cJSON *p = cJSON_CreateObject();
	cJSON_AddItemToObject(p, "progressToken", cJSON_Duplicate(c->progress_token, 1));
	cJSON_AddNumberToObject(p, "progress", progress);
	if (total > 0)
		cJSON_AddNumberToObject(p, "total", total);
	if (message)
		cJSON_AddStringToObject(p, "message", message);
	send_msg(c->transport, amc_rpc_notification("notifications/progress", p));
}

static int level_index(const char *l)
{
	for (size_t i = 0; i < sizeof LEVELS / sizeof LEVELS[0]; i++)
		if (!strcmp(LEVELS[i], l))
			return (int)i;
	return -1;
}

static void srv_log(amc_mcp_server *s, const char *level, const char *text)
{
	amc_log(AMC_LOG_INFO, "mcp: %s", text);
	pthread_mutex_lock(&s->mu);
	int min = s->log_level;
	pthread_mutex_unlock(&s->mu);
	int li = level_index(level);
	if (li < 0 || li < min)
		return;
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "level", level);
	cJSON_AddStringToObject(p, "logger", "amc");
	cJSON_AddStringToObject(p, "data", text);
	send_msg(s, amc_rpc_notification("notifications/message", p));
}

/* ---- requests to the client (elicitation) ---- */

/* Send method(params) to the client and wait at most ms for its answer.
 * The result (owned) or NULL (an error answer, no answer, end of input). */
static cJSON *ask_client(amc_mcp_server *s, const char *method, cJSON *params, long ms, atomic_int *cancel)
{
	pthread_mutex_lock(&s->mu);
	int k = -1;
	for (int i = 0; i < PEND_MAX; i++)
		if (!s->pends[i].used) {
			k = i;
			break;
		}
	if (k < 0 || s->stopping) {
		pthread_mutex_unlock(&s->mu);
		cJSON_Delete(params);
		return NULL;
	}
	pend *p = &s->pends[k];
	memset(p, 0, sizeof *p);
	p->used = 1;
	p->id = ++s->next_req;
	pthread_mutex_unlock(&s->mu);
	cJSON *req = amc_rpc_notification(method, params);
	cJSON_AddNumberToObject(req, "id", (double)p->id);
	send_msg(s, req);
	long long deadline = amc_mono_ms() + ms;
	pthread_mutex_lock(&s->mu);
	while (!p->done && !s->stopping && amc_mono_ms() < deadline && !(cancel && atomic_load(cancel))) {
		struct timespec ts;
		amc_timespec_after(CLOCK_MONOTONIC, 100, &ts);
		pthread_cond_timedwait(&s->cv, &s->mu, &ts);
	}
	cJSON *r = p->result;
	p->result = NULL;
	p->used = 0;
	pthread_mutex_unlock(&s->mu);
	return r;
}

static void got_response(amc_mcp_server *s, const amc_rpc_msg *m)
{
	if (!cJSON_IsNumber(m->id))
		return;
	pthread_mutex_lock(&s->mu);
	for (int i = 0; i < PEND_MAX; i++) {
		pend *p = &s->pends[i];
		if (p->used && !p->done && (double)p->id == m->id->valuedouble) {
			p->done = 1;
			p->result = m->result ? cJSON_Duplicate(m->result, 1) : NULL;
			pthread_cond_broadcast(&s->cv);
		}
	}
	pthread_mutex_unlock(&s->mu);
}

/* ---- the operator: confirmations of irreversible-looking actions ---- */

static int op_ask(amc_operator *op, const char *task_id, const char *question, char **answer, amc_err *e)
{
	(void)op, (void)task_id, (void)question, (void)answer;
	return amc_err_set(e, AMC_EUSAGE, "an MCP session has no ask_user: the client asks its own user");
}

static int op_confirm(amc_operator *op, const char *task_id, const char *action, const char *element,
		      const char *word, amc_err *e)
{
	amc_mcp_server *s = op->impl;
	long secs = s->o.confirm_s > 0 ? s->o.confirm_s : AMC_MCP_CONFIRM_TIMEOUT_S;
	char reason[1025], dev[128], asker[400];
	amc_mcp_reg_task_context(s->reg, task_id, reason, sizeof reason, dev, sizeof dev);
	pthread_mutex_lock(&s->mu);
	int elicit = s->elicit;
	snprintf(asker, sizeof asker, "MCP client %s%s%s", s->client[0] ? s->client : "(unnamed)", dev[0] ? " on " : "",
		 dev);
	pthread_mutex_unlock(&s->mu);
	if (elicit) {
		/* the client's user answers, not the model: MCP elicitation */
		char msg[2048];
		char *act = amc_sanitize_dup(action ? action : ""), *el = amc_sanitize_dup(element ? element : "");
		char *why = amc_sanitize_dup(reason);
		snprintf(msg, sizeof msg, "amc: the agent wants to %s on \"%.200s\", which looks irreversible (\"%s\").%s%.600s%s "
			 "Allow it?", act, el, word ? word : "", why[0] ? " Its reason: " : "", why, why[0] ? "." : "");
		free(act);
		free(el);
		free(why);
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "message", msg);
		cJSON *sch = cJSON_AddObjectToObject(p, "requestedSchema");
		cJSON_AddStringToObject(sch, "type", "object");
		cJSON *pr = cJSON_AddObjectToObject(sch, "properties");
		cJSON *c = cJSON_AddObjectToObject(pr, "allow");
		cJSON_AddStringToObject(c, "type", "boolean");
		cJSON_AddStringToObject(c, "title", "Allow this action");
		cJSON *req = cJSON_AddArrayToObject(sch, "required");
		cJSON_AddItemToArray(req, cJSON_CreateString("allow"));
		cJSON *r = ask_client(s, "elicitation/create", p, secs * 1000, NULL);
		const char *a = amc_json_str(r, "action");
		const cJSON *content = r ? cJSON_GetObjectItemCaseSensitive(r, "content") : NULL;
		int yes = a && !strcmp(a, "accept") && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(content, "allow"));
		/* e->msg goes back to the model (the step's result "why", mcp_act.c):
		 * what happened and what it can do about it */
		if (!r)
			amc_err_set(e, AMC_EENV, "your user did not answer the confirmation within %ld s. Retry it "
				    "when they are there to answer, or tell them what you wanted to do", secs);
		else if (!yes)
			amc_err_set(e, AMC_EFAIL, "your user refused it when asked. Do not retry it: tell them what you "
				    "wanted to do and why, and let them decide");
		cJSON_Delete(r);
		return yes;
	}
	/* no elicitation: a person running amc's TUI on this AMC_HOME answers
	 * (the dialog opens there); the strings go as given, the TUI makes them
	 * terminal-safe */
	amc_pending_q q = { action, element, word, reason, asker };
	amc_err pe;
	amc_err_clear(&pe);
	int yes = amc_pending_ask(s->o.home, task_id, &q, secs * 1000, &s->stop_flag, &pe);
	if (yes == 1)
		return 1;
	if (yes == 0 && pe.code == AMC_EUSAGE) /* a forged answer (pending.h) */
		amc_err_set(e, AMC_EFAIL, "%s. Only a person answers this question. Do not retry it", pe.msg);
	else if (yes == 0 && pe.code == AMC_EFAIL)
		amc_err_set(e, AMC_EFAIL, "the person at amc's TUI refused it. Do not retry it: tell your user what "
			    "you wanted to do and why, and let them decide");
	else if (yes == 0 && pe.code == AMC_ECANCEL)
		amc_err_set(e, AMC_ECANCEL, "the call was cancelled while a person's yes was awaited in amc's TUI");
	else
		amc_err_set(e, AMC_EENV, "%s, and this MCP client cannot ask its user (it has no elicitation). Tell "
			    "your user: they can run `amc` on the device's host (same AMC_HOME) and press y when you "
			    "retry, or restart this server as `amc mcp --yes` to allow such actions", pe.msg);
	return yes < 0 ? -1 : 0;
}

static const amc_operator_ops OP_OPS = { op_ask, op_confirm };

/* The registry's log lines (registry.h). */
static void reg_log(void *ctx, const char *level, const char *text)
{
	srv_log(ctx, level, text);
}

/* ---- tools/call workers ---- */

typedef struct work {
	amc_mcp_server *s;
	int slot;
	char tool[32];
	cJSON *id, *args, *token;
	char device[128];        /* "": the call takes no turn on a device */
	unsigned long ticket;
} work;

static void *worker_main(void *arg)
{
	work *w = arg;
	amc_mcp_server *s = w->s;
	call_slot *cs = &s->calls[w->slot];
	if (w->device[0])
		amc_mcp_reg_turn_wait(s->reg, w->device, w->ticket);
	cJSON *result = NULL;
	if (!atomic_load(&cs->cancel)) {
		amc_mcp_call c = { &s->o, s->reg, w->args, &cs->cancel, w->token, call_progress, s };
		result = amc_mcp_tool_call(w->tool, &c);
	}
	if (w->device[0])
		amc_mcp_reg_turn_end(s->reg, w->device);
	pthread_mutex_lock(&s->mu);
	int cancelled = atomic_load(&cs->cancel);
	pthread_mutex_unlock(&s->mu);
	/* an agent run's CLI gets the content blocks (scene text and screenshot):
	 * Codex hands a model only the structured JSON when there is one, and
	 * drops the image */
	if (result && s->o.attached)
		cJSON_DeleteItemFromObjectCaseSensitive(result, "structuredContent");
	/* a cancelled request gets no response at all */
	if (result && !cancelled)
		send_msg(s, amc_rpc_result(w->id, result));
	else
		cJSON_Delete(result);
	/* this thread's OCR engine ends before the thread counts itself done:
	 * shutdown waits for that count, not for the (detached) thread's exit
	 * destructors, so the process could end with the engine unfreed */
	amc_ocr_thread_end();
	pthread_mutex_lock(&s->mu);
	cs->used = 0;
	s->workers--;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	cJSON_Delete(w->id);
	cJSON_Delete(w->args);
	cJSON_Delete(w->token);
	free(w);
	return NULL;
}

/* Take the call's turn on its device (arrival order) into w; none for a
 * call that names no device or one that is not valid (its handler says
 * why), or when the registry has no room for another device. */
static void call_turn(amc_mcp_server *s, work *w)
{
	w->device[0] = '\0';
	if (strcmp(w->tool, "observe") && strcmp(w->tool, "act") && strcmp(w->tool, "run_task"))
		return;
	const char *d = amc_json_str(w->args, "device");
	char dev[128];
	amc_err e;
	if (amc_device_id_normalize(d ? d : amc_config_str(s->o.cfg, "device", "default"), dev, sizeof dev, &e) != 0)
		return;
	if (amc_mcp_reg_ticket(s->reg, dev, &w->ticket) == 0)
		snprintf(w->device, sizeof w->device, "%s", dev);
}

/* The tools an agent run offers: the screen and the one task's actions. */
static int attached_tool(const char *name)
{
	return !strcmp(name, "observe") || !strcmp(name, "act");
}

/* tools/list: every tool, or an agent run's two. */
static cJSON *tools_list(amc_mcp_server *s)
{
	cJSON *all = amc_mcp_tools_list();
	if (!s->o.attached)
		return all;
	cJSON *some = cJSON_CreateArray();
	cJSON *t;
	while ((t = cJSON_DetachItemFromArray(all, 0)) != NULL) {
		const char *n = amc_json_str(t, "name");
		if (n && attached_tool(n)) {
			cJSON_DeleteItemFromObjectCaseSensitive(t, "outputSchema"); /* no structuredContent: see worker_main */
			cJSON_AddItemToArray(some, t);
		}
		else
			cJSON_Delete(t);
	}
	cJSON_Delete(all);
	return some;
}

static void tools_call(amc_mcp_server *s, const amc_rpc_msg *m)
{
	const char *name = amc_json_str(m->params, "name");
	const cJSON *args = m->params ? cJSON_GetObjectItemCaseSensitive(m->params, "arguments") : NULL;
	if (!name || !amc_mcp_tool_known(name)) {
		send_msg(s, amc_rpc_error(m->id, AMC_RPC_INVALID_PARAMS,
					  s->o.attached ? "unknown tool: use observe or act"
							: "unknown tool: use one of devices, observe, act, run_task, task, cancel_task"));
		return;
	}
	if (s->o.attached && !attached_tool(name)) {
		send_msg(s, amc_rpc_error(m->id, AMC_RPC_INVALID_PARAMS,
					  "this agent run offers only observe and act (on the run's own task and device)"));
		return;
	}
	if (args && !cJSON_IsObject(args) && !cJSON_IsNull(args)) {
		send_msg(s, amc_rpc_error(m->id, AMC_RPC_INVALID_PARAMS, "\"arguments\" must be an object"));
		return;
	}
	const cJSON *meta = m->params ? cJSON_GetObjectItemCaseSensitive(m->params, "_meta") : NULL;
	const cJSON *token = meta ? cJSON_GetObjectItemCaseSensitive(meta, "progressToken") : NULL;
	char key[300];
	amc_rpc_id_key(m->id, key, sizeof key);
	pthread_mutex_lock(&s->mu);
	int slot = -1;
	for (int i = 0; i < AMC_MCP_CALLS_MAX; i++) {
		if (s->calls[i].used && !strcmp(s->calls[i].key, key)) {
			pthread_mutex_unlock(&s->mu);
			send_msg(s, amc_rpc_error(m->id, AMC_RPC_INVALID_REQUEST, "a request with this id is still running"));
			return;
		}
		if (!s->calls[i].used && slot < 0)
			slot = i;
	}
	if (slot < 0) {
		pthread_mutex_unlock(&s->mu);
		send_msg(s, amc_rpc_error(m->id, AMC_RPC_INTERNAL, "busy: 32 calls are running; try again when one ends"));
		return;
	}
	work *w = amc_xcalloc(1, sizeof *w);
	w->s = s;
	w->slot = slot;
	snprintf(w->tool, sizeof w->tool, "%s", name);
	w->id = cJSON_Duplicate(m->id, 1);
	w->args = cJSON_IsObject(args) ? cJSON_Duplicate(args, 1) : cJSON_CreateObject();
	w->token = token && (cJSON_IsString(token) || cJSON_IsNumber(token)) ? cJSON_Duplicate(token, 1) : NULL;
	call_turn(s, w);
	call_slot *cs = &s->calls[slot];
	cs->used = 1;
	snprintf(cs->key, sizeof cs->key, "%s", key);
	atomic_store(&cs->cancel, 0);
	s->workers++;
	pthread_t t;
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	int rc = pthread_create(&t, &at, worker_main, w);
	pthread_attr_destroy(&at);
	if (rc != 0) {
		cs->used = 0;
		s->workers--;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	if (rc != 0) {
		if (w->device[0])
			amc_mcp_reg_turn_end(s->reg, w->device); /* the ticket is given up */
		send_msg(s, amc_rpc_error(m->id, AMC_RPC_INTERNAL, "cannot start a thread for the call"));
		cJSON_Delete(w->id);
		cJSON_Delete(w->args);
		cJSON_Delete(w->token);
		free(w);
	}
}

/* ---- the other methods ---- */

static cJSON *initialize(amc_mcp_server *s, const cJSON *params)
{
	const char *want = amc_json_str(params, "protocolVersion");
	const char *ver = VERSIONS[0];
	for (size_t i = 0; want && i < sizeof VERSIONS / sizeof VERSIONS[0]; i++)
		if (!strcmp(want, VERSIONS[i]))
			ver = VERSIONS[i];
	const cJSON *info = params ? cJSON_GetObjectItemCaseSensitive(params, "clientInfo") : NULL;
	const cJSON *caps = params ? cJSON_GetObjectItemCaseSensitive(params, "capabilities") : NULL;
	const char *cn = amc_json_str(info, "name"), *cv = amc_json_str(info, "version");
	char raw[160];
	snprintf(raw, sizeof raw, "%.80s%s%.40s", cn ? cn : "an MCP client", cv ? " " : "", cv ? cv : "");
	char *safe = amc_sanitize_dup(raw);
	pthread_mutex_lock(&s->mu);
	snprintf(s->client, sizeof s->client, "%s", safe);
	s->elicit = cJSON_IsObject(caps) && cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(caps, "elicitation"));
	pthread_mutex_unlock(&s->mu);
	amc_log(AMC_LOG_INFO, "mcp: initialize from %s (protocol %s)", safe, ver);
	free(safe);
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "protocolVersion", ver);
	cJSON *c = cJSON_AddObjectToObject(r, "capabilities");
	cJSON_AddFalseToObject(cJSON_AddObjectToObject(c, "tools"), "listChanged");
	cJSON_AddObjectToObject(c, "logging");
	if (!s->o.attached) /* an agent run offers only observe and act */
		cJSON_AddFalseToObject(cJSON_AddObjectToObject(c, "resources"), "listChanged");
	cJSON *si = cJSON_AddObjectToObject(r, "serverInfo");
	cJSON_AddStringToObject(si, "name", "amc");
	cJSON_AddStringToObject(si, "title", "amc: agentic mobile control");
	cJSON_AddStringToObject(si, "version", PACKAGE_VERSION);
	cJSON_AddStringToObject(r, "instructions",
				"Drive phones through amc. Call devices, then observe a device, then act on it one action at a "
				"time (give a short reason). Every act is recorded as a step of a task that people see in amc's "
				"TUI. run_task runs a whole goal or Maestro flow; task shows a task; cancel_task stops one.");
	return r;
}

static void handle(amc_mcp_server *s, const amc_rpc_msg *m)
{
	if (m->kind == AMC_RPC_RESPONSE) {
		got_response(s, m);
		return;
	}
	if (m->kind == AMC_RPC_NOTIFICATION) {
		if (!strcmp(m->method, "notifications/cancelled")) {
			const cJSON *rid = m->params ? cJSON_GetObjectItemCaseSensitive(m->params, "requestId") : NULL;
			char key[300];
			amc_rpc_id_key(rid, key, sizeof key);
			pthread_mutex_lock(&s->mu);
			for (int i = 0; i < AMC_MCP_CALLS_MAX; i++)
				if (s->calls[i].used && !strcmp(s->calls[i].key, key))
					atomic_store(&s->calls[i].cancel, 1);
			pthread_mutex_unlock(&s->mu);
		}
		return; /* initialized, progress, roots/list_changed...: nothing to do */
	}
	const char *me = m->method;
	if (!strcmp(me, "initialize")) {
		send_msg(s, amc_rpc_result(m->id, initialize(s, m->params)));
	} else if (!strcmp(me, "ping")) {
		send_msg(s, amc_rpc_result(m->id, cJSON_CreateObject()));
	} else if (!strcmp(me, "tools/list")) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddItemToObject(r, "tools", tools_list(s));
		send_msg(s, amc_rpc_result(m->id, r));
	} else if (!strcmp(me, "tools/call")) {
		tools_call(s, m);
	} else if (!strcmp(me, "resources/list") && !s->o.attached) {
		send_msg(s, amc_rpc_result(m->id, amc_mcp_resources_list()));
	} else if (!strcmp(me, "resources/templates/list") && !s->o.attached) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddArrayToObject(r, "resourceTemplates");
		send_msg(s, amc_rpc_result(m->id, r));
	} else if (!strcmp(me, "resources/read") && !s->o.attached) {
		cJSON *r = amc_mcp_resources_read(amc_json_str(m->params, "uri"));
		if (r)
			send_msg(s, amc_rpc_result(m->id, r));
		else /* MCP's "resource not found" */
			send_msg(s, amc_rpc_error(m->id, -32002, "no such resource: amc has " AMC_MCP_FLOW_SHEET_URI));
	} else if (!strcmp(me, "logging/setLevel")) {
		const char *l = amc_json_str(m->params, "level");
		int li = l ? level_index(l) : -1;
		if (li < 0) {
			send_msg(s, amc_rpc_error(m->id, AMC_RPC_INVALID_PARAMS,
						  "\"level\" must be one of debug, info, notice, warning, error, critical, alert, emergency"));
			return;
		}
		pthread_mutex_lock(&s->mu);
		s->log_level = li;
		pthread_mutex_unlock(&s->mu);
		send_msg(s, amc_rpc_result(m->id, cJSON_CreateObject()));
	} else {
		char msg[200];
		char *safe = amc_sanitize_dup(me);
		snprintf(msg, sizeof msg, "method not found: %.120s", safe);
		free(safe);
		send_msg(s, amc_rpc_error(m->id, AMC_RPC_METHOD_NOT_FOUND, msg));
	}
}

int amc_mcp_serve(const amc_mcp_opts *o, amc_err *e)
{
	amc_mcp_server *s = amc_xcalloc(1, sizeof *s);
	s->o = *o;
	pthread_mutex_init(&s->out_mu, NULL);
	pthread_mutex_init(&s->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	s->log_level = level_index("warning");
	s->op.ops = &OP_OPS;
	s->op.impl = s;
	snprintf(s->client, sizeof s->client, "an MCP client");
	amc_id_new(s->session_id);
	amc_mcp_reg_opts ro = { &s->o, s->client, s->session_id, &s->op, reg_log, s };
	if (amc_mcp_reg_new(&ro, &s->reg, e) != 0) {
		pthread_mutex_destroy(&s->out_mu);
		pthread_mutex_destroy(&s->mu);
		pthread_cond_destroy(&s->cv);
		free(s);
		return -1;
	}
	amc_sb line;
	amc_sb_init(&line);
	int r;
	while (!(s->o.stop && atomic_load(s->o.stop)) && (r = amc_rpc_read_line(s->o.in, AMC_MCP_LINE_MAX, &line)) != 0) {
		if (r == 2) {
			char msg[120];
			snprintf(msg, sizeof msg, "invalid request: a line is longer than %u bytes", AMC_MCP_LINE_MAX);
			send_msg(s, amc_rpc_error(NULL, AMC_RPC_INVALID_REQUEST, msg));
			continue;
		}
		/* blank by its length: a line of NULs is not blank, it gets an error */
		size_t sp = 0;
		while (sp < line.len && (line.buf[sp] == ' ' || line.buf[sp] == '\t' || line.buf[sp] == '\r'))
			sp++;
		if (sp == line.len)
			continue;
		amc_rpc_msg m;
		cJSON *err;
		if (amc_rpc_parse(line.buf, line.len, &m, &err) != 0) {
			if (err)
				send_msg(s, err);
			continue;
		}
		handle(s, &m);
		amc_rpc_msg_free(&m);
	}
	amc_sb_free(&line);
	if (s->o.left)
		atomic_store(s->o.left, 1);
	/* End of input: the client has gone. Calls still running are cancelled
	 * (no one is left to read their answers); then sessions end. */
	amc_log(AMC_LOG_INFO, "mcp: %s", s->o.stop && atomic_load(s->o.stop) ? "told to stop (signal)" : "end of input");
	pthread_mutex_lock(&s->mu);
	int inflight = s->workers > 0;
	for (int i = 0; i < AMC_MCP_CALLS_MAX; i++)
		if (s->calls[i].used)
			atomic_store(&s->calls[i].cancel, 1);
	amc_mcp_reg_cancel_runs(s->reg);
	s->stopping = 1;
	atomic_store(&s->stop_flag, 1);
	pthread_cond_broadcast(&s->cv);
	while (s->workers > 0)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
	amc_mcp_reg_free(s->reg, inflight);
	for (int i = 0; i < PEND_MAX; i++)
		cJSON_Delete(s->pends[i].result);
	pthread_mutex_destroy(&s->out_mu);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(s);
	return 0;
}
