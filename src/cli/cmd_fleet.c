/* amc fleet - the operator's side of the fleet (fleet.h): init, submit, ls,
 * show, cancel, hosts, reap. Everything read from the database is untrusted
 * and printed through amc_cli_put_safe / amc_cli_print_json. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "fleet/batch.h"
#include "fleet/fleet.h"
#include "fleet/payload.h"
#include "fleet/pq.h"
#include "fleet/roles.h"
#include "fleet/schema.h"
#include "launch/launch.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* Connect to fleet.url; with `check`, also make sure the schema is current. */
static int open_fleet(amc_cli *cli, int check, PGconn **c, amc_err *e)
{
	*c = NULL; /* defined on every path, the failures included */
	const char *url = amc_config_str(cli->cfg, "fleet", "url");
	if (!url || !*url)
		return amc_err_set(e, AMC_EUSAGE, "no fleet database: set url under [fleet] in the config file "
				   "or AMC_FLEET_URL to a PostgreSQL connection string");
	if (amc_pq_connect(url, 0, c, e) != 0)
		return -1;
	if (check && amc_fleet_schema_check(*c, e) != 0) {
		PQfinish(*c);
		*c = NULL;
		return -1;
	}
	return 0;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *k, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

static void put(const char *s)
{
	amc_cli_put_safe(stdout, s ? s : "-");
}

static int do_init(amc_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	PGconn *c;
	amc_err e;
	if (open_fleet(cli, 0, &c, &e) != 0)
		return amc_cli_fail(&e);
	int from, to, added = 0;
	char note[1024] = "";
	/* the hosts' group role first: version 1's policies name it */
	int rc = amc_fleet_roles_host_group(c, &e);
	if (rc == 0)
		rc = amc_fleet_schema_init(c, &from, &to, &e);
	/* hosts reap by these (issue 26: a host role cannot choose its own grace) */
	if (rc == 0)
		rc = amc_fleet_store_settings(c, (double)amc_config_int(cli->cfg, "fleet", "reap_grace_s"),
					      amc_config_int(cli->cfg, "fleet", "decisions_keep"),
					      amc_config_int(cli->cfg, "fleet", "decisions_max_age_days"), &e);
	/* what this role can of the operator's role, policies and grants; a
	 * rerun by a role that can adds what an earlier init could not */
	if (rc == 0)
		rc = amc_fleet_roles_operator(c, &added, note, sizeof note, &e);
	char temp_note[512] = "";
	if (rc == 0)
		rc = amc_fleet_roles_no_temp(c, temp_note, sizeof temp_note, &e);
	PQfinish(c);
	if (rc != 0)
		return amc_cli_fail(&e);
	if (from == to)
		printf("the fleet schema is up to date (version %d)\n", to);
	else
		printf("the fleet schema is now version %d (was %d)\n", to, from);
	if (added)
		printf("added what the operator role amc_fleet_operator lacked (the role, its policies or grants)\n");
	if (note[0])
		fprintf(stderr, "amc fleet init: %s", note);
	if (temp_note[0])
		fprintf(stderr, "amc fleet init: %s", temp_note);
	return 0;
}

/* The whole batch is read first (at most this much) so every line is checked
 * before anything is queued. */
#define BATCH_FILE_MAX (256u * 1024u * 1024u)
#define BATCH_ERRORS_SHOWN 20

/* amc fleet submit --batch FILE|- (batch.h). */
static int submit_batch(amc_cli *cli, const char *path, int json)
{
	amc_err e;
	char *buf = NULL;
	size_t len = 0;
	if (!strcmp(path, "-")) {
		amc_sb sb;
		amc_sb_init(&sb);
		char chunk[65536];
		size_t k;
		while ((k = fread(chunk, 1, sizeof chunk, stdin)) > 0 && sb.len < BATCH_FILE_MAX)
			amc_sb_append(&sb, chunk, k);
		len = sb.len;
		buf = amc_sb_detach(&sb);
		if (len >= BATCH_FILE_MAX) {
			free(buf);
			return amc_cli_usage(&amc_cmd_fleet, "--batch: at most %u bytes", BATCH_FILE_MAX);
		}
	} else if (amc_read_file(path, BATCH_FILE_MAX, &buf, &len, &e) != 0) {
		return amc_cli_usage(&amc_cmd_fleet, "--batch: %s", e.msg);
	}
	amc_fleet_batch_item *items = NULL;
	size_t n = 0, cap = 0, errors = 0, lineno = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t l = nl ? (size_t)(nl - (buf + at)) : len - at;
		const char *line = buf + at;
		at += l + (nl != NULL);
		lineno++;
		size_t sp = strspn(line, " \t\r");
		if (sp >= l || line[sp] == '#')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			items = amc_xrealloc(items, cap * sizeof *items);
		}
		if (amc_fleet_batch_parse_line(line, l, &items[n], &e) != 0) {
			if (errors++ < BATCH_ERRORS_SHOWN) {
				char *t = amc_sanitize_dup(e.msg);
				fprintf(stderr, "amc: %s: line %zu: %s\n", path, lineno, t);
				free(t);
			}
			amc_fleet_batch_item_free(&items[n]);
			continue;
		}
		n++;
	}
	free(buf);
	int rc = 0;
	if (errors) {
		if (errors > BATCH_ERRORS_SHOWN)
			fprintf(stderr, "amc: %s: %zu more lines with errors\n", path, errors - BATCH_ERRORS_SHOWN);
		rc = amc_cli_usage(&amc_cmd_fleet, "--batch: %zu of %zu lines are wrong: nothing queued", errors,
				   errors + n);
	} else if (n == 0) {
		rc = amc_cli_usage(&amc_cmd_fleet, "--batch: no assignment in %s", path);
	}
	long long *ids = NULL;
	size_t done = 0;
	if (rc == 0) {
		const amc_fleet_submit_req **v = amc_xcalloc(n, sizeof *v);
		ids = amc_xcalloc(n, sizeof *ids);
		for (size_t i = 0; i < n; i++) {
			items[i].req.needs = items[i].needv; /* the array moved since it was parsed */
			v[i] = &items[i].req;
		}
		PGconn *pg;
		long long t0 = amc_mono_us();
		rc = open_fleet(cli, 1, &pg, &e);
		if (rc == 0) {
			rc = amc_fleet_submit_many(pg, v, n, ids, &done, &e);
			PQfinish(pg);
		}
		double s = (double)(amc_mono_us() - t0) / 1e6;
		free(v);
		if (rc != 0) {
			if (done)
				fprintf(stderr, "amc: the first %zu assignments were queued (ids %lld-%lld)\n", done, ids[0],
					ids[done - 1]);
			rc = amc_cli_fail(&e);
		} else if (json) {
			cJSON *j = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(j, "ids");
			for (size_t i = 0; i < n; i++)
				cJSON_AddItemToArray(a, cJSON_CreateNumber((double)ids[i]));
			cJSON_AddNumberToObject(j, "queued", (double)n);
			cJSON_AddNumberToObject(j, "per_s", s > 0 ? (double)n / s : 0);
			amc_cli_print_json(j);
		} else {
			printf("queued %zu assignments (%lld to %lld) in %.2f s, %.0f/s\n", n, ids[0], ids[n - 1], s,
			       s > 0 ? (double)n / s : 0);
		}
	}
	for (size_t i = 0; i < n; i++)
		amc_fleet_batch_item_free(&items[i]);
	free(items);
	free(ids);
	return rc;
}

/* Over 120 lines: one getopt table with its checks (each option's value
 * checked where it is read, so the usage error names it), then one call to
 * amc_fleet_submit; --batch goes to submit_batch above. */
static int do_submit(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flow", required_argument, 0, 'f' }, { "device-kind", required_argument, 0, 'k' },
		{ "host", required_argument, 0, 'H' }, { "max-steps", required_argument, 0, 'm' },
		{ "max-attempts", required_argument, 0, 'a' }, { "priority", required_argument, 0, 'p' },
		{ "json", no_argument, 0, 'j' }, { "agent", required_argument, 0, 1001 },
		{ "model", required_argument, 0, 1002 }, { "needs", required_argument, 0, 1003 },
		{ "retries", required_argument, 0, 1004 }, { "backoff", required_argument, 0, 1005 },
		{ "timeout", required_argument, 0, 1006 }, { "not-before", required_argument, 0, 1007 },
		{ "batch", required_argument, 0, 1008 }, { 0, 0, 0, 0 } };
	const char *needs[AMC_FLEET_NEEDS_MAX + 2];
	size_t nneeds = 0;
	char agent_need[32];
	amc_fleet_submit_req r = { 0 };
	const char *flow = NULL, *agent = NULL, *model = NULL, *batch = NULL;
	long v;
	int json = 0, c;
	amc_err e;
	amc_err_clear(&e);
	optind = 1;
	while ((c = getopt_long(argc, argv, "+f:k:H:m:a:p:j", opts, NULL)) != -1) {
		switch (c) {
		case 'f': flow = optarg; break;
		case 'k':
			if (strcmp(optarg, "sim") && strcmp(optarg, "adb") && strcmp(optarg, "appium"))
				return amc_cli_usage(&amc_cmd_fleet, "--device-kind takes sim, adb or appium");
			r.device_kind = optarg;
			break;
		case 'H': r.host = optarg; break;
		case 'm':
			if (amc_cli_int("--max-steps", optarg, 1, 100000, &v, &e) != 0)
				return amc_cli_usage(&amc_cmd_fleet, "%s", e.msg);
			r.max_steps = (int)v;
			break;
		case 'a':
			if (amc_cli_int("--max-attempts", optarg, 1, 100, &v, &e) != 0)
				return amc_cli_usage(&amc_cmd_fleet, "%s", e.msg);
			r.max_attempts = (int)v;
			break;
		case 'p':
			if (amc_cli_int("--priority", optarg, -1000000, 1000000, &v, &e) != 0)
				return amc_cli_usage(&amc_cmd_fleet, "%s", e.msg);
			r.priority = (int)v;
			break;
		case 'j': json = 1; break;
		case 1001: agent = optarg; break;
		case 1002: model = optarg; break;
		case 1003:
			if (nneeds >= AMC_FLEET_NEEDS_MAX)
				return amc_cli_usage(&amc_cmd_fleet, "at most %d --needs", AMC_FLEET_NEEDS_MAX);
			if (!amc_fleet_need_ok(optarg))
				return amc_cli_usage(&amc_cmd_fleet, "--needs takes KEY=VALUE of lower-case letters, digits and "
							      "_.:/- (e.g. app=com.example)");
			needs[nneeds++] = optarg;
			break;
		case 1004:
			if (amc_cli_int("--retries", optarg, 0, 100, &v, &e) != 0)
				return amc_cli_usage(&amc_cmd_fleet, "%s", e.msg);
			r.retries = (int)v;
			break;
		case 1005:
			if (amc_cli_int("--backoff", optarg, 1, 3600, &v, &e) != 0)
				return amc_cli_usage(&amc_cmd_fleet, "%s", e.msg);
			r.backoff_s = (double)v;
			break;
		case 1006:
			if (amc_cli_int("--timeout", optarg, 1, 604800, &v, &e) != 0)
				return amc_cli_usage(&amc_cmd_fleet, "%s", e.msg);
			r.timeout_s = (double)v;
			break;
		case 1007:
			if (!amc_fleet_when_ok(optarg))
				return amc_cli_usage(&amc_cmd_fleet, "--not-before takes a timestamp (2026-12-05T14:00:00Z) "
								      "or +DURATION (+30s, +5min, +2h)");
			r.not_before = optarg;
			break;
		case 1008: batch = optarg; break;
		default: return amc_cli_usage(&amc_cmd_fleet, "unknown option");
		}
	}
	if (batch) {
		if (flow || agent || model || nneeds || optind < argc || r.device_kind || r.host || r.max_steps ||
		    r.max_attempts || r.priority || r.retries || r.backoff_s > 0 || r.timeout_s > 0 || r.not_before)
			return amc_cli_usage(&amc_cmd_fleet, "--batch takes everything from its lines (and --json), "
							      "no other option or GOAL");
		return submit_batch(cli, batch, json);
	}
	if ((agent || model) && flow)
		return amc_cli_usage(&amc_cmd_fleet, "--agent and --model go with a GOAL, not a flow");
	if (agent) {
		/* only a host where that CLI can run claims it */
		snprintf(agent_need, sizeof agent_need, "agent=%.20s", agent);
		needs[nneeds++] = agent_need;
	} else if (!flow) {
		/* a goal needs a planner: only a host that has one claims it */
		needs[nneeds++] = "planner=on";
	}
	r.needs = needs;
	r.nneeds = nneeds;
	if ((optind < argc) == (flow != NULL))
		return amc_cli_usage(&amc_cmd_fleet, "submit takes either --flow FILE or a GOAL");
	char *payload, *title = NULL;
	if (flow) {
		payload = amc_fleet_payload_flow(flow, &title, &e);
		r.kind = "flow";
	} else {
		amc_sb sb;
		amc_sb_init(&sb);
		for (int i = optind; i < argc; i++) {
			if (i > optind)
				amc_sb_putc(&sb, ' ');
			amc_sb_puts(&sb, argv[i]);
		}
		title = amc_sb_detach(&sb);
		payload = amc_fleet_payload_goal_agent(title, agent, model, &e);
		r.kind = "goal";
	}
	if (!payload) {
		free(title);
		return amc_cli_usage(&amc_cmd_fleet, "%s", e.msg);
	}
	r.payload = payload;
	r.title = title;
	PGconn *pg;
	long long id = 0;
	int rc = open_fleet(cli, 1, &pg, &e);
	if (rc == 0) {
		rc = amc_fleet_submit(pg, &r, &id, &e);
		PQfinish(pg);
	}
	free(payload);
	free(title);
	if (rc != 0)
		return amc_cli_fail(&e);
	if (json) {
		cJSON *j = cJSON_CreateObject();
		cJSON_AddNumberToObject(j, "id", (double)id);
		cJSON_AddStringToObject(j, "state", "queued");
		amc_cli_print_json(j);
	} else {
		printf("queued assignment %lld\n", id);
	}
	return 0;
}

static int do_ls(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state", required_argument, 0, 's' }, { "json", no_argument, 0, 'j' }, { 0, 0, 0, 0 } };
	const char *state = NULL;
	int json = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:j", opts, NULL)) != -1) {
		switch (c) {
		case 's': state = optarg; break;
		case 'j': json = 1; break;
		default: return amc_cli_usage(&amc_cmd_fleet, "unknown option");
		}
	}
	static const char *const STATES[] = { "queued", "leased", "succeeded", "failed", "cancelled", NULL };
	int known = !state;
	for (int i = 0; state && STATES[i]; i++)
		known |= !strcmp(state, STATES[i]);
	if (!known)
		return amc_cli_usage(&amc_cmd_fleet, "--state takes queued, leased, succeeded, failed or cancelled");
	PGconn *pg;
	amc_err e;
	if (open_fleet(cli, 1, &pg, &e) != 0)
		return amc_cli_fail(&e);
	cJSON *a = amc_fleet_list(pg, state, 1000, &e);
	PQfinish(pg);
	if (!a)
		return amc_cli_fail(&e);
	if (json) {
		amc_cli_print_json(a);
		return 0;
	}
	printf("%-6s %-10s %-5s %-8s %-16s %s\n", "ID", "STATE", "TRY", "KIND", "HOST/DEVICE", "TITLE / PROGRESS");
	const cJSON *o;
	cJSON_ArrayForEach(o, a) {
		printf("%-6.0f %-10s %2.0f/%-2.0f %-8s ", num(o, "id", 0), str(o, "state") ? str(o, "state") : "?",
		       num(o, "attempts", 0), num(o, "max_attempts", 0), str(o, "kind") ? str(o, "kind") : "?");
		const cJSON *run = cJSON_GetObjectItemCaseSensitive(o, "running");
		char hd[64] = "-";
		if (cJSON_IsObject(run))
			snprintf(hd, sizeof hd, "%.30s %.20s", str(run, "host") ? str(run, "host") : "?",
				 str(run, "device") ? str(run, "device") : "?");
		else if (str(o, "last_host")) /* ended or queued again: where it last ran */
			snprintf(hd, sizeof hd, "%.30s %.20s", str(o, "last_host"),
				 str(o, "last_device") ? str(o, "last_device") : "?");
		amc_cli_put_safe(stdout, hd);
		printf("%*s", (int)(strlen(hd) < 16 ? 16 - strlen(hd) : 0) + 1, "");
		put(str(o, "title"));
		if (cJSON_IsObject(run) && str(run, "summary")) {
			/* the status is the host's text: terminal-safe like the rest */
			printf("  [step %.0f ", num(run, "step_index", 0));
			amc_cli_put_safe(stdout, str(run, "step_status") ? str(run, "step_status") : "");
			printf(": ");
			put(str(run, "summary"));
			printf("]");
		}
		if (str(o, "waiting")) {
			printf("  (");
			put(str(o, "waiting"));
			printf(")");
		}
		printf("\n");
	}
	cJSON_Delete(a);
	return 0;
}

static int do_show(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, 0, 'j' }, { "decisions", no_argument, 0, 'd' }, { 0, 0, 0, 0 } };
	int json = 0, dec = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "jd", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'd': dec = 1; break;
		default: return amc_cli_usage(&amc_cmd_fleet, "unknown option");
		}
	}
	amc_err e;
	long long id;
	if (optind != argc - 1)
		return amc_cli_usage(&amc_cmd_fleet, "show takes one assignment ID");
	if (amc_fleet_parse_id(argv[optind], &id, &e) != 0)
		return amc_cli_usage(&amc_cmd_fleet, "%s", e.msg);
	PGconn *pg;
	if (open_fleet(cli, 1, &pg, &e) != 0)
		return amc_cli_fail(&e);
	cJSON *o = amc_fleet_show(pg, id, dec, &e);
	PQfinish(pg);
	if (!o)
		return amc_cli_fail(&e);
	if (json) {
		amc_cli_print_json(o);
		return 0;
	}
	printf("assignment %lld  %s  ", id, str(o, "state") ? str(o, "state") : "?");
	put(str(o, "kind"));
	printf("  ");
	put(str(o, "title"));
	printf("\n  device kind %s, max attempts %.0f, priority %.0f\n", str(o, "device_kind") ? str(o, "device_kind") : "?",
	       num(o, "max_attempts", 0), num(o, "priority", 0));
	if (num(o, "retries", 0) > 0 || num(o, "timeout_s", 0) > 0 || str(o, "not_before")) {
		printf("  retries %.0f (backoff %.0f s, doubling)", num(o, "retries", 0), num(o, "backoff_s", 0));
		if (num(o, "timeout_s", 0) > 0)
			printf(", timeout %.0f s", num(o, "timeout_s", 0));
		if (str(o, "not_before")) {
			printf(", not before ");
			put(str(o, "not_before"));
		}
		printf("\n");
	}
	if (str(o, "needs") && *str(o, "needs")) {
		printf("  needs: ");
		put(str(o, "needs"));
		printf("\n");
	}
	if (str(o, "error")) {
		printf("  error: ");
		put(str(o, "error"));
		printf("\n");
	}
	const cJSON *t;
	cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(o, "attempts")) {
		printf("  attempt %.0f  ", num(t, "attempt", 0));
		put(str(t, "state"));
		printf("  host ");
		put(str(t, "host"));
		printf("  device ");
		put(str(t, "device"));
		if (num(t, "lease_left_s", -1e9) > -1e9)
			printf("  lease left %.1f s", num(t, "lease_left_s", 0));
		printf("\n");
		if (str(t, "summary")) {
			printf("    progress: step %.0f ", num(t, "step_index", 0));
			put(str(t, "step_status"));
			printf(": ");
			put(str(t, "summary"));
			printf(" (%.1f s ago)\n", num(t, "progress_age_s", 0));
		}
		if (str(t, "error")) {
			printf("    error: ");
			put(str(t, "error"));
			printf("\n");
		}
		if (str(t, "late_state")) {
			/* the host's end came after the reaper took the attempt back */
			printf("    late end (not applied): ");
			put(str(t, "late_state"));
			printf(" at ");
			put(str(t, "late_at"));
			if (str(t, "late_error")) {
				printf(": ");
				put(str(t, "late_error"));
			}
			printf("\n");
		}
		if (str(t, "local_task_id")) {
			printf("    local task ");
			put(str(t, "local_task_id"));
			printf(": ");
			put(str(t, "inspect"));
			printf("\n");
		}
	}
	const cJSON *d;
	cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(o, "decisions")) {
		printf("  decision attempt %.0f step %.0f: ", num(d, "attempt", 0), num(d, "step", 0));
		put(str(d, "tool"));
		printf(" ");
		put(str(d, "args"));
		printf("\n");
	}
	cJSON_Delete(o);
	return 0;
}

static int do_cancel(amc_cli *cli, int argc, char **argv)
{
	amc_err e;
	long long id;
	if (argc != 2)
		return amc_cli_usage(&amc_cmd_fleet, "cancel takes one assignment ID");
	if (amc_fleet_parse_id(argv[1], &id, &e) != 0)
		return amc_cli_usage(&amc_cmd_fleet, "%s", e.msg);
	PGconn *pg;
	if (open_fleet(cli, 1, &pg, &e) != 0)
		return amc_cli_fail(&e);
	char state[16];
	int rc = amc_fleet_cancel(pg, id, state, &e);
	PQfinish(pg);
	if (rc != 0)
		return amc_cli_fail(&e);
	if (!strcmp(state, "cancelled"))
		printf("assignment %lld cancelled\n", id);
	else
		printf("assignment %lld: its host was asked to stop it\n", id);
	return 0;
}

static int do_hosts(amc_cli *cli, int argc, char **argv)
{
	int json = 0;
	optind = 1;
	int rc = amc_cli_json_only(&amc_cmd_fleet, argc, argv, &json);
	if (rc != 0)
		return rc;
	PGconn *pg;
	amc_err e;
	if (open_fleet(cli, 1, &pg, &e) != 0)
		return amc_cli_fail(&e);
	cJSON *a = amc_fleet_hosts(pg, 3.0 * (double)amc_config_int(cli->cfg, "fleet", "reap_s"), &e);
	PQfinish(pg);
	if (!a)
		return amc_cli_fail(&e);
	if (json) {
		amc_cli_print_json(a);
		return 0;
	}
	const cJSON *h;
	cJSON_ArrayForEach(h, a) {
		put(str(h, "name"));
		printf(" (");
		put(str(h, "hostname"));
		printf(", role ");
		put(str(h, "role"));
		printf(")  %s, last seen %.1f s ago\n", str(h, "status") ? str(h, "status") : "?", num(h, "last_seen_s", 0));
		if (str(h, "capabilities") && *str(h, "capabilities")) {
			printf("  capabilities: ");
			put(str(h, "capabilities"));
			printf("\n");
		}
		if (str(h, "refused") && *str(h, "refused")) {
			printf("  refused (not granted to its role): ");
			put(str(h, "refused"));
			printf("\n");
		}
		const cJSON *d;
		cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(h, "devices")) {
			printf("  ");
			put(str(d, "device"));
			if (num(d, "assignment", 0) > 0) {
				printf("  runs assignment %.0f attempt %.0f: ", num(d, "assignment", 0), num(d, "attempt", 0));
				put(str(d, "summary"));
			} else {
				printf("  idle");
			}
			printf("\n");
			/* what this device is and can do (schema version 4) */
			if (str(d, "capabilities") && *str(d, "capabilities")) {
				printf("    capabilities: ");
				put(str(d, "capabilities"));
				printf("\n");
			}
			if (str(d, "refused") && *str(d, "refused")) {
				printf("    refused (not granted to its role): ");
				put(str(d, "refused"));
				printf("\n");
			}
		}
	}
	cJSON_Delete(a);
	return 0;
}

static int do_reap(amc_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	PGconn *pg;
	amc_err e;
	if (open_fleet(cli, 1, &pg, &e) != 0)
		return amc_cli_fail(&e);
	int busy;
	int n = amc_fleet_reap(pg, (double)amc_config_int(cli->cfg, "fleet", "reap_grace_s"),
			       amc_config_int(cli->cfg, "fleet", "decisions_keep"),
			       amc_config_int(cli->cfg, "fleet", "decisions_max_age_days"), &busy, &e);
	PQfinish(pg);
	if (n < 0)
		return amc_cli_fail(&e);
	if (busy)
		printf("another reaper is running; nothing done\n");
	else
		printf("%d attempt%s marked lost\n", n, n == 1 ? "" : "s");
	return 0;
}

static int do_metrics(amc_cli *cli, int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return amc_cli_usage(&amc_cmd_fleet, "metrics takes no arguments");
	PGconn *pg;
	amc_err e;
	if (open_fleet(cli, 1, &pg, &e) != 0)
		return amc_cli_fail(&e);
	amc_sb sb;
	amc_sb_init(&sb);
	int rc = amc_fleet_metrics(pg, 3.0 * (double)amc_config_int(cli->cfg, "fleet", "reap_s"), &sb, &e);
	PQfinish(pg);
	if (rc == 0)
		fputs(amc_sb_str(&sb), stdout);
	amc_sb_free(&sb);
	return rc == 0 ? 0 : amc_cli_fail(&e);
}

/* amc fleet grant ROLE (CAP... | --any): which capabilities a host role may
 * state (schema.c, version 3). */
static int do_grant(amc_cli *cli, int argc, char **argv)
{
	int any = argc == 3 && !strcmp(argv[2], "--any");
	if (argc < 2 || (!any && argc > 2 + AMC_FLEET_NEEDS_MAX * 4) || (argc > 2 && !strcmp(argv[2], "--any") && !any))
		return amc_cli_usage(&amc_cmd_fleet, "grant takes ROLE and the capabilities it may state "
						     "(KEY=VALUE or KEY=*), none, or --any");
	PGconn *pg;
	amc_err e;
	if (open_fleet(cli, 1, &pg, &e) != 0)
		return amc_cli_fail(&e);
	int rc = amc_fleet_grant(pg, argv[1], any ? NULL : (const char *const *)argv + 2, any ? 0 : (size_t)argc - 2,
				 any, &e);
	PQfinish(pg);
	if (rc != 0)
		return e.code == AMC_EUSAGE ? amc_cli_usage(&amc_cmd_fleet, "%s", e.msg) : amc_cli_fail(&e);
	printf(any ? "role %s states what it has, unchecked\n" : "role %s may state %d capabilities\n", argv[1],
	       argc - 2);
	return 0;
}

static int fleet(amc_cli *cli, int argc, char **argv)
{
	if (argc < 2)
		return amc_cli_usage(&amc_cmd_fleet, "which one: init, submit, ls, show, cancel, hosts, metrics, grant or reap?");
	static const struct {
		const char *name;
		int (*fn)(amc_cli *, int, char **);
	} SUB[] = { { "init", do_init }, { "submit", do_submit }, { "ls", do_ls }, { "show", do_show },
		    { "cancel", do_cancel }, { "hosts", do_hosts }, { "metrics", do_metrics },
		    { "reap", do_reap }, { "grant", do_grant } };
	for (size_t i = 0; i < sizeof SUB / sizeof SUB[0]; i++)
		if (!strcmp(argv[1], SUB[i].name))
			return SUB[i].fn(cli, argc - 1, argv + 1);
	return amc_cli_usage(&amc_cmd_fleet, "unknown fleet command '%.40s'", argv[1]);
}

const amc_cmd amc_cmd_fleet = {
	"fleet",
	"fleet init|submit|ls|show|cancel|hosts|metrics|grant|reap ...",
	"queue work for device hosts in PostgreSQL and watch it (docs/fleet.md)",
	"  init                    create or migrate the fleet schema in fleet.url, and\n"
	"                          store fleet.reap_grace_s and the decision retention\n"
	"                          for hosts (a host role reaps only by these); the group\n"
	"                          roles and the operator's policies as far as this role\n"
	"                          may (it says what to run as one that may; rerun adds)\n"
	"  submit (--flow FILE | GOAL) [--device-kind sim|adb|appium] [--host NAME]\n"
	"         [--max-steps N] [--max-attempts N] [--priority P] [--agent claude|codex]\n"
	"         [--model M] [--needs KEY=VALUE]... [--retries N [--backoff S]]\n"
	"         [--timeout S] [--not-before TIME|+DURATION] [--json]\n"
	"                          queue an assignment (the flow and the sub-flows and\n"
	"                          scripts it names travel in it); --host pins it to the\n"
	"                          host of that name or to any host of that database role\n"
	"                          (only they can see or claim it); --agent: a coding\n"
	"                          agent's CLI plans the goal on the host's own login\n"
	"                          (docs/llm.md), and only a host where it can run claims\n"
	"                          it; --needs: only a device whose host states it, or\n"
	"                          that states it itself, claims it (e.g. app=com.example,\n"
	"                          platform=android, kind=sim; see amc fleet hosts); a\n"
	"                          GOAL needs planner=on (a host with a planner) unless\n"
	"                          --agent names the CLI that plans it;\n"
	"                          --retries: a failed attempt is tried again N times\n"
	"                          after S s (10) doubling, at most 600 s (not when a retry\n"
	"                          cannot fix it); --timeout: an attempt's wall-clock\n"
	"                          limit; --not-before: no host claims it earlier\n"
	"  submit --batch FILE|- [--json]\n"
	"                          one JSON object a line ({\"goal\"|\"flow\", \"device_kind\",\n"
	"                          \"host\", \"priority\", \"max_steps\", \"max_attempts\",\n"
	"                          \"retries\", \"backoff\", \"timeout\", \"not_before\", \"needs\",\n"
	"                          \"agent\", \"model\"}); every line checked first, errors by\n"
	"                          line; queued in one transaction per 1,000\n"
	"  ls [--state S] [--json]\n"
	"                          assignments, newest first, with their latest progress\n"
	"  show ID [--json] [--decisions]\n"
	"                          every attempt: host, device, state, lease left, progress,\n"
	"                          error and the local task (ssh HOST amc show LOCAL_ID)\n"
	"  cancel ID               cancel a queued assignment, or ask its host to stop it\n"
	"  hosts [--json]          hosts (up, stopped, or down: no heartbeat for 3 x\n"
	"                          fleet.reap_s), their devices, what each runs, and the\n"
	"                          capabilities each states\n"
	"  metrics                 the queue, attempts by state and reason, leases lost,\n"
	"                          late ends and hosts up/down in Prometheus' text format\n"
	"  grant ROLE (CAP... | --any)\n"
	"                          the capabilities (KEY=VALUE, KEY=*) host role ROLE may\n"
	"                          state; others it states are refused; --any: unchecked\n"
	"  reap                    mark attempts whose lease ran out lost and queue them again\n"
	"                          (the operator's: a host role may not choose the grace)\n\n"
	"The database is fleet.url or AMC_FLEET_URL (a libpq connection string or URI);\n"
	"passwords come from ~/.pgpass, PGPASSFILE or PGPASSWORD and are never printed.\n"
	"fleet.require_tls (on by default): a database that is not a Unix socket or\n"
	"loopback is reached only over TLS (sslmode=require is set before connecting when\n"
	"the URL, PGSSLMODE or PGSERVICE say less; disable/allow are refused).\n",
	fleet,
};
