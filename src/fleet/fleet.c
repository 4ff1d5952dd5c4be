/* fleet.c - the operator's side of the fleet (see fleet.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "fleet/pq.h"
#include "util/strbuf.h"

/* Column types by OID (pg_type.h is a server header; these are fixed). */
#define OID_BOOL 16
#define OID_INT8 20
#define OID_INT2 21
#define OID_INT4 23
#define OID_FLOAT4 700
#define OID_FLOAT8 701
#define OID_NUMERIC 1700

/* s is 1 to max bytes of ASCII letters, digits and the characters of
 * extra, not starting with '-' (nor '.'): safe as one word of a shell
 * command and never an option. */
static int plain_word(const char *s, size_t max, const char *extra)
{
	if (!s || !*s || *s == '-' || *s == '.' || strlen(s) > max)
		return 0;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr(extra, *p)))
			return 0;
	return 1;
}

/* Row r of res as a JSON object, numbers as numbers and NULL as null. */
static cJSON *row_json(const PGresult *res, int r, const char *skip_prefix)
{
	cJSON *o = cJSON_CreateObject();
	for (int c = 0; c < PQnfields(res); c++) {
		const char *name = PQfname(res, c);
		if (skip_prefix && !strncmp(name, skip_prefix, strlen(skip_prefix)))
			continue;
		if (PQgetisnull(res, r, c)) {
			cJSON_AddNullToObject(o, name);
			continue;
		}
		const char *v = PQgetvalue(res, r, c);
		switch (PQftype(res, c)) {
		case OID_BOOL:
			cJSON_AddBoolToObject(o, name, v[0] == 't');
			break;
		case OID_INT2: case OID_INT4: case OID_INT8: case OID_FLOAT4: case OID_FLOAT8: case OID_NUMERIC:
			cJSON_AddNumberToObject(o, name, strtod(v, NULL));
			break;
		default:
			cJSON_AddStringToObject(o, name, v);
		}
	}
	return o;
}

int amc_fleet_parse_id(const char *s, long long *id, amc_err *e)
{
	if (s && *s == '#')
		s++;
	char *end;
	errno = 0;
	long long v = s && *s ? strtoll(s, &end, 10) : 0;
	if (!s || !*s || *end || errno || v <= 0)
		return amc_err_set(e, AMC_EUSAGE, "'%.40s' is not an assignment id (a number, as `amc fleet ls` shows)",
				   s ? s : "");
	*id = v;
	return 0;
}

int amc_fleet_need_ok(const char *s)
{
	const char *eq = s ? strchr(s, '=') : NULL;
	size_t n = s ? strlen(s) : 0;
	if (!eq || eq == s || !eq[1] || n > AMC_FLEET_NEED_LEN || !(s[0] >= 'a' && s[0] <= 'z'))
		return 0;
	for (const char *p = s; *p; p++)
		if (p != eq && !((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || strchr("_.:/-", *p)))
			return 0;
	return 1;
}

int amc_fleet_when_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > 64)
		return 0;
	for (const char *p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || strchr(":+-. ", *p)))
			return 0;
	return 1;
}

char *amc_fleet_needs_literal(const char *const *v, size_t n)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_putc(&sb, '{');
	for (size_t i = 0; i < n; i++) {
		if (i)
			amc_sb_putc(&sb, ',');
		amc_sb_puts(&sb, v[i]);
	}
	amc_sb_putc(&sb, '}');
	return amc_sb_detach(&sb);
}

int amc_fleet_submit(PGconn *c, const amc_fleet_submit_req *r, long long *id, amc_err *e)
{
	if (r->nneeds > AMC_FLEET_NEEDS_MAX)
		return amc_err_set(e, AMC_EUSAGE, "at most %d needs per assignment", AMC_FLEET_NEEDS_MAX);
	for (size_t i = 0; i < r->nneeds; i++)
		if (!amc_fleet_need_ok(r->needs[i]))
			return amc_err_set(e, AMC_EUSAGE, "a need is KEY=VALUE of lower-case letters, digits and _.:/- "
					   "(at most %d bytes), e.g. agent=claude or app=com.example", AMC_FLEET_NEED_LEN);
	if (r->retries < 0 || r->retries > 100 || r->backoff_s < 0 || r->backoff_s > 3600 || r->timeout_s < 0 ||
	    r->timeout_s > 604800)
		return amc_err_set(e, AMC_EUSAGE, "retries are 0 to 100, a backoff 0 to 3600 s, a timeout 1 to 604800 s");
	if (r->not_before && !amc_fleet_when_ok(r->not_before))
		return amc_err_set(e, AMC_EUSAGE, "a not-before time is a timestamp (2026-12-05T14:00:00Z) or +DURATION "
				   "(+30s, +5min, +2h), not '%.40s'", r->not_before);
	char *needs = amc_fleet_needs_literal(r->needs, r->nneeds);
	char steps[16], att[16], prio[16], retries[16], backoff[32], timeout[32];
	int max_att = r->max_attempts > 0 ? r->max_attempts : AMC_FLEET_MAX_ATTEMPTS + r->retries;
	snprintf(steps, sizeof steps, "%d", r->max_steps);
	snprintf(att, sizeof att, "%d", max_att > 100 ? 100 : max_att);
	snprintf(prio, sizeof prio, "%d", r->priority);
	snprintf(retries, sizeof retries, "%d", r->retries);
	snprintf(backoff, sizeof backoff, "%.3f", r->backoff_s > 0 ? r->backoff_s : AMC_FLEET_BACKOFF_S);
	snprintf(timeout, sizeof timeout, "%.3f", r->timeout_s);
	const char *p[] = { r->kind, r->title, r->device_kind ? r->device_kind : "sim", r->host,
			    r->max_steps > 0 ? steps : NULL, att, prio, r->payload, needs, retries, backoff,
			    r->timeout_s > 0 ? timeout : NULL, r->not_before };
	PGresult *res;
	int rc = amc_pq_exec(c,
			     "INSERT INTO amc_fleet.assignment (kind, title, device_kind, want_host, max_steps, max_attempts,"
			     " priority, payload, needs, retries, backoff_s, timeout_s, not_before) VALUES ($1, left($2, 200),"
			     " $3, $4, $5::int, $6::int, $7::int, $8, $9::text[], $10::int, $11::float8, $12::float8,"
			     " CASE WHEN $13::text LIKE '+%' THEN now() + substr($13::text, 2)::interval"
			     " ELSE $13::text::timestamptz END) RETURNING id",
			     13, p, 0, &res, NULL, e);
	free(needs);
	if (rc != 0)
		return amc_err_prefix(e, "cannot queue the assignment");
	*id = amc_pq_getll(res, 0, "id", 0);
	PQclear(res);
	return 0;
}

/* The running attempt of an assignment, as one sub-object. */
#define RUNNING_COLS \
	" t.host_label AS r_host, t.device AS r_device, t.progress_step AS r_step_index," \
	" t.progress_status AS r_step_status, t.progress_summary AS r_summary," \
	" round(extract(epoch FROM now() - t.progress_at)::numeric, 1) AS r_progress_age_s," \
	" round(extract(epoch FROM t.lease_until - now())::numeric, 1) AS r_lease_left_s"

cJSON *amc_fleet_list(PGconn *c, const char *state, int limit, amc_err *e)
{
	char lim[16], dn[32];
	snprintf(lim, sizeof lim, "%d", limit > 0 ? limit : 100);
	snprintf(dn, sizeof dn, "%.3f", AMC_FLEET_DOWN_AFTER_S);
	const char *p[] = { state, lim, dn };
	PGresult *res;
	if (amc_pq_exec(c,
			"SELECT a.id, a.state, a.kind, a.title, a.device_kind, a.want_host AS host, a.priority,"
			" array_to_string(a.needs, ',') AS needs,"
			" (SELECT count(*) FROM amc_fleet.attempt x WHERE x.assignment_id = a.id) AS attempts,"
			" a.max_attempts, to_char(a.created_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MSOF') AS created_at,"
			" to_char(a.finished_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MSOF') AS finished_at, a.error,"
			" l.host_label AS last_host, l.device AS last_device,"
			/* why queued work waits: its time, or no live host that could claim it */
			" CASE WHEN a.state <> 'queued' THEN NULL"
			"  WHEN a.not_before > now() THEN 'not before ' ||"
			"   to_char(a.not_before AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' UTC'"
			/* live devices of its kind (and pinned name): none, or none
			 * whose host's and own capabilities cover its needs, and then
			 * the one that misses fewest, with what it misses */
			"  WHEN NOT EXISTS (SELECT 1 FROM amc_fleet.host h JOIN amc_fleet.device d ON d.host_id = h.id"
			"   AND d.kind = a.device_kind WHERE h.stopped_at IS NULL AND h.last_seen > now() - make_interval(secs => $3::float8)"
			"   AND (a.want_host IS NULL OR a.want_host = h.label OR a.want_host = h.role))"
			"  THEN 'no live host can claim it: none up with ' || a.device_kind || ' devices'"
			"   || CASE WHEN cardinality(a.needs) > 0 THEN ' has ' || array_to_string(a.needs, ', ') ELSE '' END"
			"   || coalesce(' named ' || a.want_host, '')"
			"  WHEN NOT EXISTS (SELECT 1 FROM amc_fleet.host h JOIN amc_fleet.device d ON d.host_id = h.id"
			"   AND d.kind = a.device_kind WHERE h.stopped_at IS NULL AND h.last_seen > now() - make_interval(secs => $3::float8)"
			"   AND a.needs <@ (h.caps || d.caps) AND (a.want_host IS NULL OR a.want_host = h.label OR a.want_host = h.role))"
			"  THEN 'no live host can claim it: none up with ' || a.device_kind || ' devices has '"
			"   || array_to_string(a.needs, ', ') || coalesce(' named ' || a.want_host, '')"
			"   || coalesce((SELECT '; closest: ' || h.label || ' ' || d.device || ' lacks ' || array_to_string(ARRAY("
			"     SELECT x FROM unnest(a.needs) x WHERE NOT x = ANY (h.caps || d.caps)), ', ')"
			"    FROM amc_fleet.host h JOIN amc_fleet.device d ON d.host_id = h.id AND d.kind = a.device_kind"
			"    WHERE h.stopped_at IS NULL AND h.last_seen > now() - make_interval(secs => $3::float8)"
			"     AND (a.want_host IS NULL OR a.want_host = h.label OR a.want_host = h.role)"
			"    ORDER BY (SELECT count(*) FROM unnest(a.needs) x WHERE NOT x = ANY (h.caps || d.caps)), h.label, d.device"
			"    LIMIT 1), '') END AS waiting,"
			" t.id IS NOT NULL AS r_is," RUNNING_COLS
			" FROM amc_fleet.assignment a"
			" LEFT JOIN amc_fleet.attempt t ON t.assignment_id = a.id AND t.state = 'running'"
			" LEFT JOIN LATERAL (SELECT y.host_label, y.device FROM amc_fleet.attempt y"
			"  WHERE y.assignment_id = a.id ORDER BY y.n DESC LIMIT 1) l ON true"
			" WHERE ($1::text IS NULL OR a.state = $1) ORDER BY a.id DESC LIMIT $2::int",
			3, p, 0, &res, NULL, e) != 0)
		return NULL;
	cJSON *arr = cJSON_CreateArray();
	for (int i = 0; i < PQntuples(res); i++) {
		cJSON *o = row_json(res, i, "r_");
		if (!strcmp(amc_pq_get(res, i, "r_is"), "t")) {
			cJSON *run = cJSON_CreateObject();
			for (int k = 0; k < PQnfields(res); k++) {
				const char *n = PQfname(res, k);
				if (strncmp(n, "r_", 2) || !strcmp(n, "r_is"))
					continue;
				const char *v = PQgetisnull(res, i, k) ? NULL : PQgetvalue(res, i, k);
				if (!v)
					cJSON_AddNullToObject(run, n + 2);
				else if (PQftype(res, k) == OID_NUMERIC || PQftype(res, k) == OID_INT4)
					cJSON_AddNumberToObject(run, n + 2, strtod(v, NULL));
				else
					cJSON_AddStringToObject(run, n + 2, v);
			}
			cJSON_AddItemToObject(o, "running", run);
		} else {
			cJSON_AddNullToObject(o, "running");
		}
		cJSON_AddItemToArray(arr, o);
	}
	PQclear(res);
	return arr;
}

cJSON *amc_fleet_show(PGconn *c, long long id, int decisions, amc_err *e)
{
	char ids[24];
	snprintf(ids, sizeof ids, "%lld", id);
	const char *p[] = { ids };
	PGresult *res;
	if (amc_pq_exec(c,
			"SELECT a.id, a.state, a.kind, a.title, a.device_kind, a.want_host AS host, a.priority,"
			" array_to_string(a.needs, ',') AS needs, a.retries, a.backoff_s, a.timeout_s,"
			" to_char(a.not_before, 'YYYY-MM-DD\"T\"HH24:MI:SS.MSOF') AS not_before,"
			" a.max_attempts, a.max_steps, a.cancel_requested, a.submitted_by,"
			" to_char(a.created_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MSOF') AS created_at,"
			" to_char(a.finished_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MSOF') AS finished_at, a.error,"
			" length(a.payload) AS payload_bytes"
			" FROM amc_fleet.assignment a WHERE a.id = $1::bigint",
			1, p, 0, &res, NULL, e) != 0)
		return NULL;
	if (PQntuples(res) == 0) {
		PQclear(res);
		amc_err_set(e, AMC_EUSAGE, "no assignment %lld (`amc fleet ls` lists them)", id);
		return NULL;
	}
	cJSON *o = row_json(res, 0, NULL);
	PQclear(res);
	/* Progress only while the attempt runs (D6: not shown after its end). */
	if (amc_pq_exec(c,
			"SELECT t.n AS attempt, t.host_label AS host, h.hostname, t.host_role, t.device, t.state, t.token,"
			" to_char(t.started_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MSOF') AS started_at,"
			" to_char(t.finished_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MSOF') AS finished_at,"
			" CASE WHEN t.state = 'running' THEN round(extract(epoch FROM t.lease_until - now())::numeric, 1)"
			"  END AS lease_left_s, t.renewals,"
			" CASE WHEN t.state = 'running' THEN t.progress_step END AS step_index,"
			" CASE WHEN t.state = 'running' THEN t.progress_status END AS step_status,"
			" CASE WHEN t.state = 'running' THEN t.progress_summary END AS summary,"
			" CASE WHEN t.state = 'running' THEN round(extract(epoch FROM now() - t.progress_at)::numeric, 1)"
			"  END AS progress_age_s,"
			" t.error, t.local_task_id, t.late_state, t.late_error,"
			" to_char(t.late_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MSOF') AS late_at"
			" FROM amc_fleet.attempt t LEFT JOIN amc_fleet.host h ON h.id = t.host_id"
			" WHERE t.assignment_id = $1::bigint ORDER BY t.n",
			1, p, 0, &res, NULL, e) != 0) {
		cJSON_Delete(o);
		return NULL;
	}
	cJSON *arr = cJSON_AddArrayToObject(o, "attempts");
	for (int i = 0; i < PQntuples(res); i++) {
		cJSON *t = row_json(res, i, NULL);
		const char *lt = amc_pq_get(res, i, "local_task_id");
		const char *hn = amc_pq_get(res, i, "hostname");
		/* the host's name and task id are the host's words: a command for
		 * the operator's shell is built only from plain ones (no option, no
		 * shell syntax), else there is none to copy */
		const char *where = hn && *hn ? hn : amc_pq_get(res, i, "host");
		if (!plain_word(where, 253, "-."))
			where = amc_pq_get(res, i, "host");
		if (lt && plain_word(where, 253, "-.") && plain_word(lt, 64, "-._:")) {
			char cmd[512];
			snprintf(cmd, sizeof cmd, "ssh %s amc show %s", where, lt);
			cJSON_AddStringToObject(t, "inspect", cmd);
		} else {
			cJSON_AddNullToObject(t, "inspect");
		}
		cJSON_AddItemToArray(arr, t);
	}
	PQclear(res);
	if (decisions) {
		if (amc_pq_exec(c,
				"SELECT attempt, step, to_char(created_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MSOF') AS created_at,"
				" planner, model, system_prompt, user_prompt, tool, args, outcome"
				" FROM amc_fleet.decision WHERE assignment_id = $1::bigint ORDER BY attempt, step, id",
				1, p, 0, &res, NULL, e) != 0) {
			cJSON_Delete(o);
			return NULL;
		}
		cJSON *d = cJSON_AddArrayToObject(o, "decisions");
		for (int i = 0; i < PQntuples(res); i++)
			cJSON_AddItemToArray(d, row_json(res, i, NULL));
		PQclear(res);
	}
	return o;
}

int amc_fleet_cancel(PGconn *c, long long id, char *state, amc_err *e)
{
	char ids[24];
	snprintf(ids, sizeof ids, "%lld", id);
	const char *p[] = { ids };
	PGresult *res;
	if (amc_pq_exec(c,
			"UPDATE amc_fleet.assignment SET updated_at = now(), cancel_requested = true,"
			" state = CASE WHEN state = 'queued' THEN 'cancelled' ELSE state END,"
			" finished_at = CASE WHEN state = 'queued' THEN now() ELSE finished_at END,"
			" error = CASE WHEN state = 'queued' THEN 'cancelled before it ran' ELSE error END"
			" WHERE id = $1::bigint AND state IN ('queued', 'leased') RETURNING state",
			1, p, 0, &res, NULL, e) != 0)
		return -1;
	if (PQntuples(res) == 1) {
		snprintf(state, 16, "%s", amc_pq_get(res, 0, "state"));
		PQclear(res);
		return 0;
	}
	PQclear(res);
	if (amc_pq_exec(c, "SELECT state FROM amc_fleet.assignment WHERE id = $1::bigint", 1, p, 0, &res, NULL, e) != 0)
		return -1;
	int rc;
	if (PQntuples(res) == 0)
		rc = amc_err_set(e, AMC_EUSAGE, "no assignment %lld (`amc fleet ls` lists them)", id);
	else
		rc = amc_err_set(e, AMC_EUSAGE, "assignment %lld has already ended (%s)", id, amc_pq_get(res, 0, "state"));
	PQclear(res);
	return rc;
}

cJSON *amc_fleet_hosts(PGconn *c, double down_after_s, amc_err *e)
{
	PGresult *res;
	char dn[32];
	snprintf(dn, sizeof dn, "%.3f", down_after_s > 0 ? down_after_s : AMC_FLEET_DOWN_AFTER_S);
	const char *p[] = { dn };
	if (amc_pq_exec(c,
			"SELECT h.id, h.label AS name, h.role, h.hostname, h.pid,"
			" CASE WHEN h.stopped_at IS NOT NULL THEN 'stopped'"
			"  WHEN h.last_seen < now() - make_interval(secs => $1::float8) THEN 'down' ELSE 'up' END AS status,"
			" to_char(h.started_at, 'YYYY-MM-DD\"T\"HH24:MI:SS.MSOF') AS started_at,"
			" round(extract(epoch FROM now() - h.last_seen)::numeric, 1) AS last_seen_s,"
			" h.stopped_at IS NOT NULL AS stopped,"
			" array_to_string(h.caps, ',') AS capabilities, array_to_string(h.caps_refused, ',') AS refused,"
			" coalesce((SELECT json_agg(json_build_object('device', d.device, 'kind', d.kind,"
			"   'capabilities', array_to_string(d.caps, ','), 'refused', array_to_string(d.caps_refused, ','),"
			"   'assignment', t.assignment_id, 'attempt', t.n, 'step_index', t.progress_step,"
			"   'summary', t.progress_summary) ORDER BY d.device)"
			"  FROM amc_fleet.device d LEFT JOIN amc_fleet.attempt t ON t.host_id = d.host_id"
			"   AND t.device = d.device AND t.state = 'running' WHERE d.host_id = h.id), '[]')::text AS devices"
			" FROM amc_fleet.host h ORDER BY h.stopped_at IS NOT NULL, h.last_seen DESC LIMIT 200",
			1, p, 0, &res, NULL, e) != 0)
		return NULL;
	cJSON *arr = cJSON_CreateArray();
	for (int i = 0; i < PQntuples(res); i++) {
		cJSON *o = row_json(res, i, "devices");
		const char *d = amc_pq_get(res, i, "devices");
		cJSON *dj = d ? cJSON_Parse(d) : NULL;
		cJSON_AddItemToObject(o, "devices", dj ? dj : cJSON_CreateArray());
		cJSON_AddItemToArray(arr, o);
	}
	PQclear(res);
	return arr;
}

int amc_fleet_grant(PGconn *c, const char *role, const char *const *caps, size_t n, int any, amc_err *e)
{
	if (!role || !*role || strlen(role) > 63)
		return amc_err_set(e, AMC_EUSAGE, "a role name is 1 to 63 bytes");
	for (size_t i = 0; i < n; i++) {
		const char *st = caps[i] ? strstr(caps[i], "=*") : NULL;
		char tmp[AMC_FLEET_NEED_LEN + 8];
		snprintf(tmp, sizeof tmp, "%.*s=x", st ? (int)(st - caps[i]) : 0, caps[i] ? caps[i] : "");
		if (n > AMC_FLEET_NEEDS_MAX * 4 || !(amc_fleet_need_ok(caps[i]) || (st && !st[2] && amc_fleet_need_ok(tmp))))
			return amc_err_set(e, AMC_EUSAGE, "a grant is KEY=VALUE or KEY=* of lower-case letters, digits "
					   "and _.:/-, not '%.64s'", caps[i] ? caps[i] : "");
	}
	char *lit = amc_fleet_needs_literal(caps, n);
	const char *p[] = { role, lit };
	int rc = any ? amc_pq_exec(c, "DELETE FROM amc_fleet.role_caps WHERE role = $1", 1, p, 0, NULL, NULL, e)
		     : amc_pq_exec(c,
				   "INSERT INTO amc_fleet.role_caps (role, caps) VALUES ($1, $2::text[])"
				   " ON CONFLICT (role) DO UPDATE SET caps = EXCLUDED.caps",
				   2, p, 0, NULL, NULL, e);
	free(lit);
	return rc != 0 ? amc_err_prefix(e, "cannot store the grant of role %s", role) : 0;
}

/* A reap's answer: how many leases it ended, or busy (-1 from SQL: another
 * reaper holds the lock; schema versions 1-5 only, version 6's reapers run
 * side by side) as 0 with *busy set.  Frees res. */
static int reaped(PGresult *res, int *busy)
{
	long long n = amc_pq_getll(res, 0, "n", 0);
	PQclear(res);
	if (n < 0) {
		*busy = 1;
		return 0;
	}
	return (int)n;
}

int amc_fleet_reap(PGconn *c, double grace_s, long keep, long max_age_days, int *busy, amc_err *e)
{
	char g[32], k[24], a[24];
	snprintf(g, sizeof g, "%.3f", grace_s);
	snprintf(k, sizeof k, "%ld", keep);
	snprintf(a, sizeof a, "%ld", max_age_days);
	const char *p[] = { g, k, a };
	PGresult *res;
	*busy = 0;
	if (amc_pq_exec(c, "SELECT amc_fleet.reap($1::float8, $2::int, $3::int) AS n", 3, p, 0, &res, NULL, e) != 0)
		return -1;
	return reaped(res, busy);
}

int amc_fleet_reap_stored(PGconn *c, int *busy, amc_err *e)
{
	PGresult *res;
	*busy = 0;
	if (amc_pq_exec(c, "SELECT amc_fleet.reap_stored() AS n", 0, NULL, 5000, &res, NULL, e) != 0)
		return -1;
	return reaped(res, busy);
}

int amc_fleet_store_settings(PGconn *c, double grace_s, long keep, long max_age_days, amc_err *e)
{
	char g[32], k[24], a[24];
	snprintf(g, sizeof g, "%.3f", grace_s);
	snprintf(k, sizeof k, "%ld", keep);
	snprintf(a, sizeof a, "%ld", max_age_days);
	const char *p[] = { g, k, a };
	if (amc_pq_exec(c,
			"UPDATE amc_fleet.setting SET reap_grace_s = $1::float8, decisions_keep = $2::int,"
			" decisions_max_age_days = $3::int WHERE id",
			3, p, 5000, NULL, NULL, e) != 0)
		return amc_err_prefix(e, "cannot store the fleet settings");
	return 0;
}

/* The help line of each metric amc_fleet_metrics prints, in its order. */
static const struct {
	const char *name, *type, *help;
} METRICS[] = {
	{ "amc_fleet_assignments", "gauge", "Assignments by state." },
	{ "amc_fleet_attempts", "gauge", "Attempts by state and reason (the class of their error)." },
	{ "amc_fleet_leases_lost", "gauge", "Attempts the reaper took back (lease expired)." },
	{ "amc_fleet_late_ends", "gauge", "Ends hosts sent after the reaper took the attempt back (kept, not applied)." },
	{ "amc_fleet_hosts", "gauge", "Hosts by status: up, down (no heartbeat for the stated time), stopped." },
};

/* The latency summaries hosts report with their heartbeat (latency.h). */
static const struct {
	const char *name, *col, *help;
} LATENCY[] = {
	{ "amc_fleet_claim_seconds", "claim_latency",
	  "A claim's round trip as its host measured it (empty claims too), since the host started." },
	{ "amc_fleet_end_seconds", "end_latency",
	  "An attempt's end from the host's first try to the database's answer (an outage shows here)." },
};

/* A host's name as a Prometheus label value: printable ASCII with \ and "
 * escaped, anything else '_' (it is the host's own text). */
static void put_label(amc_sb *out, const char *s)
{
	amc_sb_putc(out, '"');
	for (size_t i = 0; s && s[i] && i < 200; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '\\' || ch == '"')
			amc_sb_putc(out, '\\');
		amc_sb_putc(out, ch >= 0x20 && ch < 0x7f ? (char)ch : '_');
	}
	amc_sb_putc(out, '"');
}

static double col_d(const PGresult *res, int i, const char *col)
{
	const char *v = amc_pq_get(res, i, col);
	return v ? strtod(v, NULL) : 0.0;
}

static int latency_metrics(PGconn *c, amc_sb *out, amc_err *e)
{
	static const char *const Q[] = { "0.5", "0.9", "0.99" }, *const QC[] = { "p50", "p90", "p99" };
	for (size_t m = 0; m < sizeof LATENCY / sizeof LATENCY[0]; m++) {
		const char *col = LATENCY[m].col;
		char sql[400];
		snprintf(sql, sizeof sql,
			 "SELECT label, %s[1] AS n, %s[2] AS sum, %s[3] AS p50, %s[4] AS p90, %s[5] AS p99"
			 " FROM amc_fleet.host WHERE %s IS NOT NULL ORDER BY label, id",
			 col, col, col, col, col, col);
		PGresult *res;
		if (amc_pq_exec(c, sql, 0, NULL, 0, &res, NULL, e) != 0)
			return -1;
		amc_sb_printf(out, "# HELP %s %s\n# TYPE %s summary\n", LATENCY[m].name, LATENCY[m].help, LATENCY[m].name);
		for (int i = 0; i < PQntuples(res); i++) {
			const char *l = amc_pq_get(res, i, "label");
			for (int q = 0; q < 3; q++) {
				amc_sb_printf(out, "%s{host=", LATENCY[m].name);
				put_label(out, l);
				amc_sb_printf(out, ",quantile=\"%s\"} %.6f\n", Q[q], col_d(res, i, QC[q]));
			}
			amc_sb_printf(out, "%s_sum{host=", LATENCY[m].name);
			put_label(out, l);
			amc_sb_printf(out, "} %.6f\n%s_count{host=", col_d(res, i, "sum"), LATENCY[m].name);
			put_label(out, l);
			amc_sb_printf(out, "} %.0f\n", col_d(res, i, "n"));
		}
		PQclear(res);
	}
	return 0;
}

/* Label text comes from fixed CASE arms and CHECK-constrained states; a row
 * with anything else is left out rather than printed unescaped. */
static int label_ok(const char *l)
{
	for (; *l; l++)
		if (!((*l >= 'a' && *l <= 'z') || *l == '_' || *l == ',' || *l == '=' || *l == '"'))
			return 0;
	return 1;
}

int amc_fleet_metrics(PGconn *c, double down_after_s, amc_sb *out, amc_err *e)
{
	char dn[32];
	snprintf(dn, sizeof dn, "%.3f", down_after_s > 0 ? down_after_s : AMC_FLEET_DOWN_AFTER_S);
	const char *p[] = { dn };
	PGresult *res;
	if (amc_pq_exec(c,
			"SELECT 0 AS o, 'state=\"' || s || '\"' AS l, count(a.id) AS n"
			" FROM unnest(ARRAY['queued','leased','succeeded','failed','cancelled']) s"
			" LEFT JOIN amc_fleet.assignment a ON a.state = s GROUP BY s"
			" UNION ALL SELECT 1, 'state=\"' || t.state || '\",reason=\"' ||"
			"  CASE WHEN t.error IS NULL THEN 'none' WHEN t.error LIKE 'lease expired%' THEN 'lease_expired'"
			"   WHEN t.error LIKE 'lease lost%' THEN 'lease_lost' WHEN t.error LIKE 'bad assignment%' THEN 'bad_payload'"
			"   WHEN t.error LIKE 'cancelled%' THEN 'cancelled' WHEN t.error LIKE 'handed back%' THEN 'handed_back'"
			"   WHEN t.error LIKE 'timed out%' THEN 'timed_out'"
			"   ELSE 'other' END || '\"', count(*) FROM amc_fleet.attempt t GROUP BY 2"
			" UNION ALL SELECT 2, '', count(*) FROM amc_fleet.attempt WHERE state = 'lost'"
			" UNION ALL SELECT 3, '', count(*) FROM amc_fleet.attempt WHERE late_state IS NOT NULL"
			" UNION ALL SELECT 4, 'status=\"' || s || '\"', count(h.id)"
			" FROM unnest(ARRAY['up','down','stopped']) s LEFT JOIN amc_fleet.host h ON s ="
			"  CASE WHEN h.stopped_at IS NOT NULL THEN 'stopped'"
			"   WHEN h.last_seen < now() - make_interval(secs => $1::float8) THEN 'down' ELSE 'up' END GROUP BY s"
			" ORDER BY 1, 2",
			1, p, 0, &res, NULL, e) != 0)
		return -1;
	int last = -1;
	for (int i = 0; i < PQntuples(res); i++) {
		int o = (int)amc_pq_getll(res, i, "o", -1);
		const char *l = amc_pq_get(res, i, "l");
		if (o < 0 || o >= (int)(sizeof METRICS / sizeof METRICS[0]) || !l || !label_ok(l))
			continue;
		if (o != last) {
			amc_sb_printf(out, "# HELP %s %s\n# TYPE %s %s\n", METRICS[o].name, METRICS[o].help, METRICS[o].name,
				      METRICS[o].type);
			last = o;
		}
		amc_sb_printf(out, "%s%s%s%s %lld\n", METRICS[o].name, *l ? "{" : "", l, *l ? "}" : "",
			      amc_pq_getll(res, i, "n", 0));
	}
	PQclear(res);
	return latency_metrics(c, out, e);
}
