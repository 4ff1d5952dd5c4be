/* batch.c - bulk submit (see batch.h). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fleet/batch.h"
#include "fleet/payload.h"
#include "fleet/pq.h"
#include "util/strbuf.h"

void amc_fleet_batch_item_free(amc_fleet_batch_item *it)
{
	free(it->payload);
	free(it->title);
	free(it->device_kind);
	free(it->host);
	free(it->not_before);
	for (size_t i = 0; i < AMC_FLEET_NEEDS_MAX + 1; i++)
		free(it->needs[i]);
	memset(it, 0, sizeof *it);
}

static const char *const KEYS[] = { "goal", "flow", "device_kind", "host", "priority", "max_steps", "max_attempts",
				    "retries", "backoff", "timeout", "not_before", "needs", "agent", "model" };

static const char *sval(const cJSON *o, const char *k, int *bad)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!v)
		return NULL;
	if (!cJSON_IsString(v) || !v->valuestring[0]) {
		*bad = 1;
		return NULL;
	}
	return v->valuestring;
}

/* An integer key within [lo, hi]: 0 (absent leaves *out), -1 when wrong. */
static int ival(const cJSON *o, const char *k, double lo, double hi, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!v)
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble != (double)(long long)v->valuedouble || v->valuedouble < lo ||
	    v->valuedouble > hi)
		return -1;
	*out = v->valuedouble;
	return 0;
}

int amc_fleet_batch_parse_line(const char *line, size_t len, amc_fleet_batch_item *it, amc_err *e)
{
	memset(it, 0, sizeof *it);
	if (len > AMC_FLEET_BATCH_LINE_MAX)
		return amc_err_set(e, AMC_EUSAGE, "a line is at most %d bytes", AMC_FLEET_BATCH_LINE_MAX);
	cJSON *o = cJSON_ParseWithLength(line, len);
	if (!o || !cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return amc_err_set(e, AMC_EUSAGE, "not a JSON object");
	}
	int rc = -1, bad = 0;
	const cJSON *k;
	cJSON_ArrayForEach(k, o) {
		size_t i = 0;
		while (i < sizeof KEYS / sizeof KEYS[0] && strcmp(KEYS[i], k->string))
			i++;
		if (i == sizeof KEYS / sizeof KEYS[0]) {
			amc_err_set(e, AMC_EUSAGE, "unknown key \"%.40s\"", k->string);
			goto out;
		}
	}
	const char *goal = sval(o, "goal", &bad), *flow = sval(o, "flow", &bad), *dk = sval(o, "device_kind", &bad),
		   *host = sval(o, "host", &bad), *nb = sval(o, "not_before", &bad), *agent = sval(o, "agent", &bad),
		   *model = sval(o, "model", &bad);
	if (bad) {
		amc_err_set(e, AMC_EUSAGE, "goal, flow, device_kind, host, not_before, agent and model are non-empty strings");
		goto out;
	}
	if (!goal == !flow) {
		amc_err_set(e, AMC_EUSAGE, "a line has either \"goal\" or \"flow\"");
		goto out;
	}
	if ((agent || model) && flow) {
		amc_err_set(e, AMC_EUSAGE, "\"agent\" and \"model\" go with a goal, not a flow");
		goto out;
	}
	if (dk && strcmp(dk, "sim") && strcmp(dk, "adb") && strcmp(dk, "appium")) {
		amc_err_set(e, AMC_EUSAGE, "device_kind is sim, adb or appium");
		goto out;
	}
	if (nb && !amc_fleet_when_ok(nb)) {
		amc_err_set(e, AMC_EUSAGE, "not_before is a timestamp or +DURATION (+30s, +5min)");
		goto out;
	}
	double prio = 0, steps = 0, att = 0, retries = 0, backoff = 0, timeout = 0;
	if (ival(o, "priority", -1000000, 1000000, &prio) || ival(o, "max_steps", 1, 100000, &steps) ||
	    ival(o, "max_attempts", 1, 100, &att) || ival(o, "retries", 0, 100, &retries) ||
	    ival(o, "backoff", 1, 3600, &backoff) || ival(o, "timeout", 1, 604800, &timeout)) {
		amc_err_set(e, AMC_EUSAGE, "priority, max_steps (1-100000), max_attempts (1-100), retries (0-100), "
			    "backoff (1-3600) and timeout (1-604800) are integers in range");
		goto out;
	}
	size_t nn = 0;
	const cJSON *needs = cJSON_GetObjectItemCaseSensitive(o, "needs"), *nv;
	if (needs && !cJSON_IsArray(needs)) {
		amc_err_set(e, AMC_EUSAGE, "needs is an array of KEY=VALUE strings");
		goto out;
	}
	cJSON_ArrayForEach(nv, needs) {
		if (!cJSON_IsString(nv) || !amc_fleet_need_ok(nv->valuestring) || nn >= AMC_FLEET_NEEDS_MAX) {
			amc_err_set(e, AMC_EUSAGE, "needs: at most %d of KEY=VALUE (lower-case letters, digits, _.:/-)",
				    AMC_FLEET_NEEDS_MAX);
			goto out;
		}
		it->needs[nn++] = amc_xstrdup(nv->valuestring);
	}
	if (flow) {
		it->payload = amc_fleet_payload_flow(flow, &it->title, e);
	} else {
		it->title = amc_xstrdup(goal);
		it->payload = amc_fleet_payload_goal_agent(goal, agent, model, e);
	}
	if (!it->payload) {
		e->code = AMC_EUSAGE;
		goto out;
	}
	if (agent) {
		/* as amc fleet submit --agent: only a host where that CLI runs claims it */
		amc_sb sb;
		amc_sb_init(&sb);
		amc_sb_printf(&sb, "agent=%.20s", agent);
		it->needs[nn++] = amc_sb_detach(&sb);
	} else if (!flow) {
		/* a goal needs a planner, as amc fleet submit GOAL */
		it->needs[nn++] = amc_xstrdup("planner=on");
	}
	for (size_t i = 0; i < nn; i++)
		it->needv[i] = it->needs[i];
	it->device_kind = dk ? amc_xstrdup(dk) : NULL;
	it->host = host ? amc_xstrdup(host) : NULL;
	it->not_before = nb ? amc_xstrdup(nb) : NULL;
	amc_fleet_submit_req *r = &it->req;
	r->payload = it->payload;
	r->kind = flow ? "flow" : "goal";
	r->title = it->title;
	r->device_kind = it->device_kind;
	r->host = it->host;
	r->max_steps = (int)steps;
	r->max_attempts = (int)att;
	r->priority = (int)prio;
	r->needs = it->needv;
	r->nneeds = nn;
	r->retries = (int)retries;
	r->backoff_s = backoff;
	r->timeout_s = timeout;
	r->not_before = it->not_before;
	rc = 0;
out:
	cJSON_Delete(o);
	return rc;
}

int amc_fleet_submit_many(PGconn *c, const amc_fleet_submit_req *const *v, size_t n, long long *ids, size_t *done,
			  amc_err *e)
{
	*done = 0;
	for (size_t at = 0; at < n; at += AMC_FLEET_BATCH_CHUNK) {
		size_t end = at + AMC_FLEET_BATCH_CHUNK < n ? at + AMC_FLEET_BATCH_CHUNK : n;
		if (amc_pq_script(c, "BEGIN", e) != 0)
			return amc_err_prefix(e, "cannot queue the batch");
		for (size_t i = at; i < end; i++)
			if (amc_fleet_submit(c, v[i], &ids[i], e) != 0) {
				amc_pq_script(c, "ROLLBACK", NULL);
				return amc_err_prefix(e, "item %zu (nothing of items %zu-%zu queued)", i + 1, at + 1, end);
			}
		if (amc_pq_script(c, "COMMIT", e) != 0)
			return amc_err_prefix(e, "cannot commit items %zu-%zu", at + 1, end);
		*done = end;
	}
	return 0;
}
