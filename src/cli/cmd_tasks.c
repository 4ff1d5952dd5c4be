/* amc tasks - list tasks, newest first. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "runtime/task.h"
#include "util/clock.h"
#include "util/ids.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/status.h"

const char *amc_cli_status_symbol(const char *s)
{
	const amc_status_info *st = amc_status_find(s);
	return st ? st->symbol : " ";
}

cJSON *amc_cli_task_json(const amc_task_row *t)
{
	return amc_report_task_json(t);
}

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "status", required_argument, 0, 's' },
		{ "limit", required_argument, 0, 'n' },
		{ "search", required_argument, 0, 'q' },
		{ "json", no_argument, 0, 'j' },
		{ 0, 0, 0, 0 },
	};
	const char *status = NULL, *search = NULL;
	long limit = 20;
	int json = 0, c;
	amc_err e;
	while ((c = getopt_long(argc, argv, "s:n:q:j", opts, NULL)) != -1) {
		switch (c) {
		case 's': status = optarg; break;
		case 'n':
			if (amc_cli_int("--limit", optarg, 1, 100000, &limit, &e) != 0)
				return amc_cli_usage(&amc_cmd_tasks, "%s", e.msg);
			break;
		case 'q': search = optarg; break;
		case 'j': json = 1; break;
		default: return amc_cli_usage(&amc_cmd_tasks, "unknown option");
		}
	}
	if (optind < argc)
		return amc_cli_usage(&amc_cmd_tasks, "unexpected argument '%s'", argv[optind]);
	if (status && !amc_status_find(status))
		return amc_cli_usage(&amc_cmd_tasks, "unknown status '%s' (%s)", status, amc_status_names());
	amc_store *store;
	if (amc_cli_store(cli, &store, &e) != 0)
		return amc_cli_fail(&e);
	amc_task_filter f = { status, search, (int)limit, 0, AMC_SORT_NEWEST };
	amc_task_row *rows;
	size_t n;
	if (amc_store_list_tasks(store, &f, &rows, &n, &e) != 0)
		return amc_cli_fail(&e);
	if (json) {
		cJSON *arr = cJSON_CreateArray();
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(arr, amc_cli_task_json(&rows[i]));
		amc_cli_print_json(arr);
	} else if (n == 0) {
		printf("no tasks%s yet. Try: amc run --flow add-contact\n", status ? " with that status" : "");
	} else {
		/* Ids as long as this database needs them to be unique (git-style). */
		int idw = amc_store_short_id_len(store, &e);
		if (idw < 0) {
			amc_err_clear(&e);
			idw = AMC_ID_LEN;
		}
		printf("  %-*s %-12s %-8s %5s %8s  %-19s  %s\n", idw, "ID", "STATUS", "DEVICE", "STEPS", "TIME", "STARTED", "TASK");
		for (size_t i = 0; i < n; i++) {
			amc_task_row *t = &rows[i];
			char dur[32], when[32];
			long long end = t->finished_ms ? t->finished_ms : 0;
			if (t->started_ms && end)
				amc_format_duration(end - t->started_ms, dur, sizeof dur);
			else
				snprintf(dur, sizeof dur, "-");
			amc_format_time(t->started_ms ? t->started_ms : t->created_ms, when, sizeof when);
			printf("%s %-*.*s %-12s %-8s %5d %8s  %-19s  ", amc_cli_status_symbol(t->status), idw, idw, t->id,
			       t->status, t->device ? t->device : "-", t->steps, dur, when);
			amc_cli_put_safe(stdout, t->goal ? t->goal : t->flow_name ? t->flow_name : t->flow_path);
			if (t->source_task_id) {
				printf("  (from ");
				amc_cli_put_safe(stdout, t->source_task_id);
				if (t->source_attempt >= 0)
					printf(" #%d", t->source_attempt);
				printf(")");
			}
			printf("\n");
		}
	}
	amc_task_rows_free(rows, n);
	return 0;
}

const amc_cmd amc_cmd_tasks = {
	"tasks",
	"tasks [--status S] [--search TEXT] [--limit N] [--json]",
	"list recorded tasks, newest first",
	"  -s, --status S      only tasks in this state: queued, running, succeeded, failed,\n"
	"                      cancelled, interrupted, waiting_user\n"
	"  -q, --search TEXT   only tasks whose id, goal or flow name contains TEXT\n"
	"  -n, --limit N       at most N tasks (default 20)\n"
	"  -j, --json          JSON array on stdout\n",
	run,
};
