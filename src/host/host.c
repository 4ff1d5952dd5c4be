/* host.c - the fleet host agent (see host.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "planner/agentcli_probe.h"
#include "device/adb.h"
#include "device/device.h"
#include "fleet/fleet.h"
#include "host/devcaps.h"
#include "host/host.h"
#include "host/hostdb.h"
#include "fleet/pq.h"
#include "fleet/schema.h"
#include "llm/providers.h"
#include "host/slot.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/strbuf.h"

int amc_host_parse_devices(const char *list, char (*ids)[128], size_t max, size_t *n, amc_err *e)
{
	*n = 0;
	if (!list || !*list)
		list = "sim:0";
	char *copy = amc_xstrdup(list);
	char *save = NULL;
	int rc = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		tok += strspn(tok, " ");
		if (!*tok)
			continue;
		if (*n == max) {
			rc = amc_err_set(e, AMC_EUSAGE, "--devices: at most %zu devices per host", max);
			break;
		}
		if (!strcmp(tok, "adb:*"))
			snprintf(ids[*n], 128, "adb:*");
		else if (amc_device_id_normalize(tok, ids[*n], 128, e) != 0) {
			rc = amc_err_prefix(e, "--devices");
			break;
		}
		for (size_t i = 0; i < *n; i++)
			if (!strcmp(ids[i], ids[*n])) {
				rc = amc_err_set(e, AMC_EUSAGE, "--devices: %s is named twice", ids[i]);
				break;
			}
		if (rc)
			break;
		(*n)++;
	}
	free(copy);
	if (rc == 0 && *n == 0)
		rc = amc_err_set(e, AMC_EUSAGE, "--devices: no device named");
	return rc;
}

int amc_host_expand_devices(const amc_config *cfg, char (*ids)[128], size_t max, size_t *n, amc_err *e)
{
	size_t star = *n;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(ids[i], "adb:*"))
			star = i;
	if (star == *n)
		return 0;
	amc_adb_entry *list = NULL;
	size_t nl = 0;
	if (amc_adb_list(cfg, &list, &nl, e) != 0)
		return amc_err_prefix(e, "--devices adb:*");
	memmove(ids + star, ids + star + 1, (*n - star - 1) * sizeof ids[0]);
	(*n)--;
	size_t added = 0;
	int rc = 0;
	for (size_t i = 0; i < nl && rc == 0; i++) {
		char id[160];
		snprintf(id, sizeof id, "adb:%s", list[i].serial);
		if (strlen(id) >= 128 || amc_adb_serial_valid(list[i].serial) != 0) {
			amc_log_warn("fleet host: adb:* leaves out a serial amc cannot use");
			continue;
		}
		if (strcmp(list[i].state, "device") != 0) {
			amc_log_warn("fleet host: adb:* leaves out %s (%s)", id, list[i].state);
			continue;
		}
		int have = 0;
		for (size_t k = 0; k < *n; k++)
			have |= !strcmp(ids[k], id);
		if (have)
			continue;
		if (*n == max) {
			rc = amc_err_set(e, AMC_EUSAGE, "--devices adb:*: more than %zu devices per host", max);
			break;
		}
		memcpy(ids[(*n)++], id, strlen(id) + 1);
		added++;
	}
	free(list);
	if (rc == 0 && added == 0)
		rc = amc_err_set(e, AMC_EENV, "--devices adb:*: adb lists no phone ready to use beyond those named "
				 "(connect one, accept its USB debugging prompt, and check `amc devices`)");
	return rc;
}

static const char *kind_of(const char *id)
{
	if (!strncmp(id, "sim:", 4))
		return "sim";
	if (!strncmp(id, "adb:", 4))
		return "adb";
	return "appium";
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int listen_conn(const char *url, PGconn **out, amc_err *e)
{
	if (amc_pq_connect(url, 5000, out, e) != 0)
		return -1;
	if (amc_pq_script(*out, "LISTEN amc_fleet_work; LISTEN amc_fleet_cancel", e) != 0) {
		PQfinish(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* Register the host and its devices: *id gets the host's row id. */
static int register_host(PGconn *c, const char *label, char (*ids)[128], size_t n, long long *id, amc_err *e)
{
	char hn[256] = "", pid[24];
	gethostname(hn, sizeof hn - 1);
	snprintf(pid, sizeof pid, "%d", (int)getpid());
	char *l = amc_fleet_text(label, 200), *h = amc_fleet_text(hn, 200);
	const char *p[] = { l, h, pid };
	PGresult *res;
	int rc = amc_pq_exec(c, "SELECT amc_fleet.register_host($1, $2, $3::int) AS id", 3, p, 0, &res, NULL, e);
	free(l);
	free(h);
	if (rc != 0)
		return amc_err_prefix(e, "cannot register the host");
	*id = amc_pq_getll(res, 0, "id", 0);
	PQclear(res);
	char sid[24];
	snprintf(sid, sizeof sid, "%lld", *id);
	for (size_t i = 0; i < n; i++) {
		const char *q[] = { sid, ids[i], kind_of(ids[i]) };
		if (amc_pq_exec(c, "SELECT amc_fleet.add_device($1::bigint, $2, $3)", 3, q,
				0, NULL, NULL, e) != 0)
			return amc_err_prefix(e, "cannot register device %s", ids[i]);
	}
	return 0;
}

/* The host's claim and end latency summaries (latency.h) into its row. */
static void report_latency(PGconn *c, const char *sid, const amc_latency *claim, const amc_latency *end, int *broken)
{
	char cs[160], es[160];
	amc_err e;
	amc_latency_literal(claim, cs, sizeof cs);
	amc_latency_literal(end, es, sizeof es);
	const char *q[] = { sid, cs, es };
	if (amc_pq_exec(c, "SELECT amc_fleet.report_latency($1::bigint, $2::float8[], $3::float8[])", 3, q, 5000, NULL,
			broken, &e) != 0)
		amc_log_warn("fleet host: %s", e.msg);
}

/* Every reap_s: the host's heartbeat and the reaper; a broken connection
 * is closed (*c NULL) for the loop to reconnect. */
static void reap_tick(PGconn **c, const char *sid, amc_slot **slots, size_t ns)
{
	amc_err re;
	const char *p[] = { sid };
	int broken = 0;
	if (amc_pq_exec(*c, "SELECT amc_fleet.heartbeat($1::bigint, false)", 1, p, 5000,
			NULL, &broken, &re) != 0)
		amc_log_warn("fleet host: %s", re.msg);
	if (!broken) {
		/* claim and end latencies over all slots, for amc fleet metrics */
		amc_latency *cl = amc_xcalloc(2, sizeof *cl);
		for (size_t i = 0; i < ns; i++)
			amc_slot_latency(slots[i], &cl[0], &cl[1]);
		report_latency(*c, sid, &cl[0], &cl[1], &broken);
		free(cl);
	}
	int busy = 0;
	int lost = broken ? -1 : amc_fleet_reap_stored(*c, &busy, &re);
	if (lost > 0) {
		amc_log_info("fleet host: the reaper marked %d attempts lost", lost);
		for (size_t i = 0; i < ns; i++)
			amc_slot_wake(slots[i]);
	} else if (lost < 0 && !broken) {
		amc_log_warn("fleet host: reaper: %s", re.msg);
	}
	if (broken || PQstatus(*c) != CONNECTION_OK) {
		PQfinish(*c);
		*c = NULL;
	}
}

/* The host's end: drain the slots (running tasks get stop_s seconds), hand
 * back the rest, say the host stopped, and print the run's figures. */
static void stop_and_report(const amc_host_cfg *hc, PGconn *c, const char *sid, amc_slot **slots, size_t ns,
			    int stop_s, long long started, FILE *out, amc_err *e)
{
	/* Drain: claim nothing more, let running tasks finish, hand back the rest. */
	for (size_t i = 0; i < ns; i++)
		amc_slot_drain(slots[i]);
	long long until = amc_mono_ms() + stop_s * 1000LL;
	for (;;) {
		int busy = 0;
		for (size_t i = 0; i < ns; i++)
			busy += amc_slot_busy(slots[i]);
		if (!busy || amc_mono_ms() >= until)
			break;
		struct timespec ts = { 0, 100000000L };
		nanosleep(&ts, NULL);
	}
	for (size_t i = 0; i < ns; i++)
		amc_slot_release(slots[i], "handed back: the host was stopped");
	amc_slot_stats total = { 0 };
	amc_latency *cl = amc_xcalloc(2, sizeof *cl);
	double *lat = NULL;
	size_t nlat = 0;
	for (size_t i = 0; i < ns; i++) {
		amc_slot_stats st;
		amc_slot_stop(slots[i], &st);
		total.claims += st.claims;
		total.empty_claims += st.empty_claims;
		total.renewals += st.renewals;
		total.finished += st.finished;
		total.rejected += st.rejected;
		total.late += st.late;
		total.lost += st.lost;
		amc_latency_merge(&cl[0], &st.claim_lat);
		amc_latency_merge(&cl[1], &st.end_lat);
		lat = amc_xrealloc(lat, (nlat + st.nclaim_ms + 1) * sizeof *lat);
		if (st.nclaim_ms)
			memcpy(lat + nlat, st.claim_ms, st.nclaim_ms * sizeof *lat);
		nlat += st.nclaim_ms;
		free(st.claim_ms);
	}
	if (!c)
		listen_conn(hc->url, &c, e);
	if (c) {
		const char *p[] = { sid };
		amc_err se;
		int broken = 0;
		report_latency(c, sid, &cl[0], &cl[1], &broken); /* the last ends too */
		if (amc_pq_exec(c, "SELECT amc_fleet.heartbeat($1::bigint, true)", 1,
				p, 5000, NULL, NULL, &se) != 0)
			amc_log_warn("fleet host: %s", se.msg);
		PQfinish(c);
	}
	if (out) {
		double secs = (double)(amc_mono_ms() - started) / 1000.0;
		qsort(lat, nlat, sizeof *lat, cmp_d);
		double p50 = nlat ? lat[nlat / 2] : 0, p99 = nlat ? lat[(nlat * 99) / 100 < nlat ? (nlat * 99) / 100 : nlat - 1] : 0;
		fprintf(out,
			"amc host: stopped after %.1f s: %ld claims (%.1f/s), claim latency p50 %.2f ms p99 %.2f ms, "
			"%ld renewals (%.1f/s), %ld ended, %ld rejected, %ld late ends, %ld leases lost\n",
			secs, total.claims, secs > 0 ? total.claims / secs : 0, p50, p99, total.renewals,
			secs > 0 ? total.renewals / secs : 0, total.finished, total.rejected, total.late, total.lost);
		fflush(out);
	}
	free(lat);
	free(cl);
}

/* What this host offers (fleet.h's needs): fleet.capabilities, plus
 * agent=claude / agent=codex when that CLI runs here on a billing decided
 * without asking anyone (a login, or agent.billing = api with a key). An
 * array literal, malloc'd. */
static char *host_caps(const amc_config *cfg)
{
	const char *v[AMC_FLEET_NEEDS_MAX + 3]; /* the configured ones, two agents, planner */
	size_t n = 0;
	char *list = amc_xstrdup(amc_config_str(cfg, "fleet", "capabilities"));
	for (char *save = NULL, *t = strtok_r(list, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		if (!amc_fleet_need_ok(t) || n >= AMC_FLEET_NEEDS_MAX)
			amc_log_warn("fleet.capabilities: '%.64s' left out (KEY=VALUE of a-z 0-9 _.:/-, at most %d)", t,
				     AMC_FLEET_NEEDS_MAX);
		else
			v[n++] = t;
	}
	amc_billing_choice choice;
	if (amc_agentcli_billing_parse(amc_config_str(cfg, "agent", "billing"), &choice) != 0)
		choice = AMC_BILLING_AUTO;
	static const char *const AGENT_CAPS[] = { "agent=claude", "agent=codex" };
	int agent_ok[2] = { 0, 0 };
	for (int k = AMC_AGENT_CLAUDE; k <= AMC_AGENT_CODEX; k++) {
		amc_agentcli_probe p;
		amc_agentcli_billing b;
		amc_err e;
		amc_agentcli_probe_run(cfg, (amc_agent_kind)k, 1, &p);
		if (p.found && p.version_ok && amc_agentcli_billing_decide(&p, choice, &b, &e) == 0) {
			v[n++] = AGENT_CAPS[k];
			agent_ok[k == AMC_AGENT_CODEX] = 1;
		}
	}
	/* planner=on: planner.provider can be used here (a key or a local
	 * server for a model planner, or the coding agent it names); no model
	 * is called to find out */
	const char *prov = amc_config_str(cfg, "planner", "provider");
	int planner = 0;
	if (prov && !strncmp(prov, "agent:", 6)) {
		planner = agent_ok[!strcmp(prov + 6, "codex")];
	} else {
		amc_llm_client *lc = NULL;
		amc_err e;
		planner = amc_providers_connect(prov && *prov ? prov : "auto", amc_config_str(cfg, "llm", "anthropic_key_file"),
						"planner", &lc, &e) == 0;
		amc_llm_client_free(lc);
	}
	if (planner)
		v[n++] = "planner=on";
	char *lit = amc_fleet_needs_literal(v, n);
	free(list);
	return lit;
}

/* State this host's capabilities in its host row (amc_fleet.set_caps): the
 * database keeps those the role was granted (schema.c, version 3) and the
 * host says which were refused. */
static int set_caps(PGconn *c, long long host_id, const amc_config *cfg, FILE *out, amc_err *e)
{
	char *caps = host_caps(cfg), sid[24];
	snprintf(sid, sizeof sid, "%lld", host_id);
	const char *p[] = { sid, caps };
	PGresult *res;
	int rc = amc_pq_exec(c,
			     "SELECT array_to_string(amc_fleet.set_caps($1::bigint, $2::text[]), ',') AS kept,"
			     " (SELECT array_to_string(caps_refused, ',') FROM amc_fleet.host WHERE id = $1::bigint) AS refused",
			     2, p, 0, &res, NULL, e);
	free(caps);
	if (rc != 0)
		return amc_err_prefix(e, "cannot state the host's capabilities");
	const char *kept = amc_pq_get(res, 0, "kept"), *refused = amc_pq_get(res, 0, "refused");
	amc_log_info("fleet host %lld: capabilities %s", host_id, kept && *kept ? kept : "(none)");
	if (refused && *refused) {
		char *t = amc_fleet_text(refused, 1000);
		amc_log_warn("fleet host %lld: capabilities not granted to this role, refused: %s", host_id, t);
		if (out)
			fprintf(out, "amc host: capabilities not granted to this database role (amc fleet grant), refused: %s\n", t);
		free(t);
	}
	PQclear(res);
	return 0;
}

/* State what each device is and can do in its row (devcaps.h;
 * amc_fleet.set_device_caps, schema version 4): a claim for the device
 * takes only work whose needs its host's and its own capabilities cover.
 * A device that does not answer keeps its kind only, and says so. */
static int set_device_caps(PGconn *c, long long host_id, const char *home, const amc_config *cfg, char (*ids)[128],
			   size_t n, FILE *out, amc_err *e)
{
	char sid[24];
	snprintf(sid, sizeof sid, "%lld", host_id);
	for (size_t i = 0; i < n; i++) {
		amc_devcaps dc = { .n = 0 };
		amc_err pe;
		if (amc_devcaps_probe(cfg, home, ids[i], &dc, &pe) != 0)
			amc_log_warn("fleet host: %s does not say what it is (%s): it states only its kind", ids[i], pe.msg);
		char *lit = amc_devcaps_literal(&dc);
		const char *p[] = { sid, ids[i], lit };
		PGresult *res;
		int rc = amc_pq_exec(c,
				     "SELECT array_to_string(amc_fleet.set_device_caps($1::bigint, $2, $3::text[]), ',') AS kept,"
				     " (SELECT array_to_string(caps_refused, ',') FROM amc_fleet.device"
				     "  WHERE host_id = $1::bigint AND device = $2) AS refused",
				     3, p, 0, &res, NULL, e);
		free(lit);
		if (rc != 0)
			return amc_err_prefix(e, "cannot state the capabilities of device %s", ids[i]);
		const char *kept = amc_pq_get(res, 0, "kept"), *refused = amc_pq_get(res, 0, "refused");
		char *k = amc_fleet_text(kept ? kept : "", 4000);
		amc_log_info("fleet host %lld: %s: capabilities %s", host_id, ids[i], *k ? k : "(none)");
		free(k);
		if (refused && *refused) {
			char *t = amc_fleet_text(refused, 1000);
			amc_log_warn("fleet host %lld: %s: capabilities not granted to this role, refused: %s", host_id, ids[i], t);
			if (out)
				fprintf(out, "amc host: %s: capabilities not granted to this database role (amc fleet grant), "
					"refused: %s\n", ids[i], t);
			free(t);
		}
		PQclear(res);
	}
	return 0;
}

/* Over 120 lines: start-up and the host's one loop (reconnect, NOTIFY and
 * the gate on its wakes, heartbeat and reaper) share the slots and the
 * LISTEN connection; split, each part would take all of them as arguments. */
int amc_host_run(const amc_host_cfg *hc, atomic_int *stop, FILE *out, amc_err *e)
{
	char ids[AMC_HOST_DEVICES_MAX][128];
	size_t n;
	if (amc_host_parse_devices(hc->devices, ids, AMC_HOST_DEVICES_MAX, &n, e) != 0 ||
	    amc_host_expand_devices(hc->cfg, ids, AMC_HOST_DEVICES_MAX, &n, e) != 0)
		return -1;
	char label[256];
	if (hc->label && *hc->label)
		snprintf(label, sizeof label, "%s", hc->label);
	else if (gethostname(label, sizeof label - 1) != 0 || !*label)
		snprintf(label, sizeof label, "host");
	label[sizeof label - 1] = 0;
	const amc_config *cfg = hc->cfg;
	int lease_s = (int)amc_config_int(cfg, "fleet", "lease_s");
	int renew_s = (int)amc_config_int(cfg, "fleet", "renew_s");
	int reap_s = (int)amc_config_int(cfg, "fleet", "reap_s");
	int poll_s = (int)amc_config_int(cfg, "fleet", "poll_s");
	int stop_s = (int)amc_config_int(cfg, "fleet", "stop_timeout_s");
	const char *dec = amc_config_str(cfg, "fleet", "decisions");
	int decisions = dec && !strcmp(dec, "on");
	PGconn *c;
	if (listen_conn(hc->url, &c, e) != 0)
		return -1;
	long long host_id = 0;
	if (amc_fleet_schema_check(c, e) != 0 || register_host(c, label, ids, n, &host_id, e) != 0) {
		PQfinish(c);
		return -1;
	}
	if (set_caps(c, host_id, cfg, out, e) != 0 || set_device_caps(c, host_id, hc->home, cfg, ids, n, out, e) != 0) {
		PQfinish(c);
		return -1;
	}
	amc_slot *slots[AMC_HOST_DEVICES_MAX];
	size_t ns = 0;
	/* the second and last connection: every slot's claims, renewals,
	 * progress, decisions and ends (issue 26: two per host) */
	amc_hostdb *db = amc_hostdb_new(hc->url);
	for (size_t i = 0; i < n; i++) {
		amc_slot_cfg sc = { hc->url, db, hc->home, cfg, host_id, label, ids[i], kind_of(ids[i]),
				    lease_s, renew_s, poll_s, decisions };
		if (amc_slot_start(&sc, &slots[ns], e) != 0) {
			for (size_t j = 0; j < ns; j++) {
				amc_slot_stats st;
				amc_slot_stop(slots[j], &st);
				free(st.claim_ms);
			}
			amc_hostdb_free(db);
			PQfinish(c);
			return -1;
		}
		ns++;
	}
	amc_log_info("fleet host %s (id %lld) started with %zu devices", label, host_id, ns);
	char tls[400];
	amc_pq_tls_describe(c, tls, sizeof tls);
	amc_log_info("fleet host: database connection: %s", tls);
	if (out) {
		fprintf(out, "amc host: fleet database: %s\n", tls);
		fprintf(out, "amc host: %s (host %lld) runs %zu device%s:", label, host_id, ns, ns == 1 ? "" : "s");
		for (size_t i = 0; i < ns; i++)
			fprintf(out, " %s", ids[i]);
		fputc('\n', out);
		fflush(out);
	}
	char sid[24];
	snprintf(sid, sizeof sid, "%lld", host_id);
	long long next_reap = amc_mono_ms() + reap_s * 1000LL;
	long backoff = 200;
	long long started = amc_mono_ms();
	/* Any role may NOTIFY any channel (PostgreSQL has no privilege for it):
	 * a storm of amc_fleet_work must not make every idle device claim once
	 * a NOTIFY. Wakes are forwarded at most once a WAKE_GAP_MS; one that
	 * comes sooner is kept and forwarded when the gap is over, so work
	 * queued meanwhile still starts within the gap (a slot that found work
	 * keeps claiming without waiting for a wake). */
	enum { WAKE_GAP_MS = 1000 };
	long long next_wake = 0;
	unsigned char *pending = amc_xcalloc(ns ? ns : 1, 1);
	while (!atomic_load(stop)) {
		if (next_wake && amc_mono_ms() >= next_wake) {
			int any = 0;
			for (size_t i = 0; i < ns; i++)
				if (pending[i]) {
					amc_slot_wake(slots[i]);
					pending[i] = 0;
					any = 1;
				}
			next_wake = any ? amc_mono_ms() + WAKE_GAP_MS : 0;
		}
		if (!c) {
			amc_err ce;
			if (listen_conn(hc->url, &c, &ce) != 0) {
				amc_log_warn("fleet host: cannot reconnect: %s", ce.msg);
				struct timespec ts = { backoff / 1000, (backoff % 1000) * 1000000L };
				nanosleep(&ts, NULL);
				backoff = backoff < 5000 ? backoff * 2 : 5000;
				continue;
			}
			backoff = 200;
			for (size_t i = 0; i < ns; i++)
				amc_slot_wake(slots[i]); /* NOTIFYs may have been missed */
		}
		char *ch = NULL, *pl = NULL;
		amc_err we;
		int w = amc_pq_wait_notify(c, 250, &ch, &pl, &we);
		if (w < 0) {
			amc_log_warn("fleet host: %s", we.msg);
			PQfinish(c);
			c = NULL;
			continue;
		}
		if (w == 1) {
			if (!strcmp(ch, "amc_fleet_work")) {
				int now_ok = amc_mono_ms() >= next_wake;
				for (size_t i = 0; i < ns; i++)
					if (!strcmp(pl, kind_of(ids[i]))) {
						if (now_ok)
							amc_slot_wake(slots[i]);
						else
							pending[i] = 1;
					}
				if (now_ok)
					next_wake = amc_mono_ms() + WAKE_GAP_MS;
			} else if (!strcmp(ch, "amc_fleet_cancel")) {
				long long aid = atoll(pl);
				for (size_t i = 0; i < ns; i++)
					amc_slot_cancel_hint(slots[i], aid);
			}
		}
		free(ch);
		free(pl);
		if (amc_mono_ms() >= next_reap) {
			next_reap = amc_mono_ms() + reap_s * 1000LL;
			reap_tick(&c, sid, slots, ns);
		}
	}
	free(pending);
	stop_and_report(hc, c, sid, slots, ns, stop_s, started, out, e);
	amc_hostdb_free(db); /* after the slots, which use it to the end */
	return 0;
}
