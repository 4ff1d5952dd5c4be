/* amc retention - remove old tasks with their steps and artifacts. */
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "keep", required_argument, 0, 'k' },
		{ "max-age", required_argument, 0, 'a' },
		{ "dry-run", no_argument, 0, 'n' },
		{ "json", no_argument, 0, 'j' },
		{ 0, 0, 0, 0 },
	};
	long keep = amc_config_int(cli->cfg, "retention", "keep");
	long age = amc_config_int(cli->cfg, "retention", "max_age_days");
	int dry = 0, json = 0, c;
	amc_err e;
	while ((c = getopt_long(argc, argv, "k:a:nj", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (amc_cli_int("--keep", optarg, 1, 100000000, &keep, &e) != 0)
				return amc_cli_usage(&amc_cmd_retention, "%s", e.msg);
			break;
		case 'a':
			if (amc_cli_int("--max-age", optarg, 1, 36500, &age, &e) != 0)
				return amc_cli_usage(&amc_cmd_retention, "%s", e.msg);
			break;
		case 'n': dry = 1; break;
		case 'j': json = 1; break;
		default: return amc_cli_usage(&amc_cmd_retention, "unknown option");
		}
	}
	if (optind < argc)
		return amc_cli_usage(&amc_cmd_retention, "unexpected argument '%s'", argv[optind]);
	/* Open without the start-up retention pass: this command is the pass. */
	amc_store *store;
	if (amc_store_open(cli->home, &store, &e) != 0)
		return amc_cli_fail(&e);
	cli->store = store;
	amc_retention_opts o = { keep, age, dry };
	amc_retention_report r;
	if (amc_store_retention(store, &o, &r, &e) != 0)
		return amc_cli_fail(&e);
	if (json) {
		cJSON *j = cJSON_CreateObject();
		cJSON_AddBoolToObject(j, "dry_run", dry);
		cJSON_AddNumberToObject(j, "keep", (double)keep);
		cJSON_AddNumberToObject(j, "max_age_days", (double)age);
		cJSON_AddNumberToObject(j, "tasks", (double)r.tasks);
		cJSON_AddNumberToObject(j, "steps", (double)r.steps);
		cJSON_AddNumberToObject(j, "files", (double)r.files);
		cJSON_AddNumberToObject(j, "bytes", (double)r.bytes);
		amc_cli_print_json(j);
	} else {
		printf("%s %ld task%s, %ld step%s, %ld file%s (%.1f MB) (keeping the newest %ld tasks and %ld days)\n",
		       dry ? "would remove" : "removed", r.tasks, r.tasks == 1 ? "" : "s", r.steps,
		       r.steps == 1 ? "" : "s", r.files, r.files == 1 ? "" : "s", r.bytes / 1e6, keep, age);
	}
	return 0;
}

const amc_cmd amc_cmd_retention = {
	"retention",
	"retention [--keep N] [--max-age DAYS] [--dry-run] [--json]",
	"remove old tasks, their steps and artifacts (never a running task)",
	"  -k, --keep N         keep the newest N tasks (default: config retention.keep)\n"
	"  -a, --max-age DAYS   remove tasks older than DAYS (default: config retention.max_age_days)\n"
	"  -n, --dry-run        only say what would be removed\n"
	"  -j, --json           JSON report on stdout\n\n"
	"amc also applies the configured retention each time it opens its database.\n",
	run,
};
