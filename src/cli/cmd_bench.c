/* amc bench - benchmarks of amc itself: `amc bench tasks` runs the task suite
 * (data/tasks) on simulated phones and scores it (suite/suite.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "suite/suite.h"
#include "util/sanitize.h"

static int tasks(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"planner", required_argument, 0, 'p'}, {"tasks", required_argument, 0, 't'},
		{"seeds", required_argument, 0, 's'},   {"first-seed", required_argument, 0, 'S'},
		{"sims", required_argument, 0, 'n'},    {"first-sim", required_argument, 0, 'F'},
		{"model", required_argument, 0, 'm'},   {"provider", required_argument, 0, 'P'},
		{"agent-cmd", required_argument, 0, 'a'}, {"timeout", required_argument, 0, 'T'},
		{"dir", required_argument, 0, 'D'},     {"report", required_argument, 0, 'r'},
		{"json", no_argument, 0, 'j'},          {"quiet", no_argument, 0, 'q'},
		{0, 0, 0, 0},
	};
	amc_suite_opts o;
	amc_suite_opts_init(&o);
	int json = 0, quiet = 0, c;
	long v;
	const char *report = NULL;
	amc_err e;
	amc_err_clear(&e);
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:t:s:n:m:jq", opts, NULL)) != -1) {
		switch (c) {
		case 'p': o.planner = optarg; break;
		case 't': o.glob = optarg; break;
		case 'm': o.model = optarg; break;
		case 'P': o.provider = optarg; break;
		case 'a': o.agent_cmd = optarg; break;
		case 'D': o.tasks_dir = optarg; break;
		case 'r': report = optarg; break;
		case 'j': json = 1; break;
		case 'q': quiet = 1; break;
		case 's':
		case 'S':
		case 'n':
		case 'F':
		case 'T': {
			const char *name = c == 's' ? "--seeds" : c == 'S' ? "--first-seed" : c == 'n' ? "--sims"
					 : c == 'F' ? "--first-sim" : "--timeout";
			long lo = c == 'S' || c == 'F' ? 0 : 1;
			long hi = c == 'n' ? AMC_SUITE_MAX_SIMS : c == 'F' ? 9999 : c == 'T' ? 86400 : 1000000;
			if (amc_cli_int(name, optarg, lo, hi, &v, &e) != 0)
				return amc_cli_usage(&amc_cmd_bench, "%s", e.msg);
			if (c == 's')
				o.seeds = (int)v;
			else if (c == 'S')
				o.first_seed = v;
			else if (c == 'n')
				o.sims = (int)v;
			else if (c == 'F')
				o.first_sim = (int)v;
			else
				o.mcp_timeout_s = (int)v;
			break;
		}
		default: return amc_cli_usage(&amc_cmd_bench, "unknown option");
		}
	}
	if (optind < argc)
		return amc_cli_usage(&amc_cmd_bench, "unexpected argument '%s'", argv[optind]);
	if (strcmp(o.planner, "flow") && strcmp(o.planner, "llm") && strcmp(o.planner, "mcp") &&
	    strcmp(o.planner, "agent:claude") && strcmp(o.planner, "agent:codex"))
		return amc_cli_usage(&amc_cmd_bench, "--planner is flow, llm, mcp, agent:claude or agent:codex");
	if (o.agent_cmd && strcmp(o.planner, "mcp"))
		return amc_cli_usage(&amc_cmd_bench, "--agent-cmd goes with --planner mcp");
	amc_store *store;
	if (amc_cli_store(cli, &store, &e) != 0)
		return amc_cli_fail(&e);
	char id[AMC_SUITE_ID_SIZE];
	if (report) {
		snprintf(id, sizeof id, "%s", report);
	} else {
		o.progress = quiet ? NULL : stderr;
		o.progress_tty = isatty(STDERR_FILENO);
		if (amc_suite_run(cli->cfg, cli->home, &o, id, &e) != 0)
			return amc_cli_fail(&e);
	}
	amc_suite_summary all;
	if (amc_suite_report(store, id, json, stdout, &all, &e) != 0)
		return amc_cli_fail(&e);
	return all.passed == all.runs ? 0 : AMC_EFAIL;
}

static int run(amc_cli *cli, int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "tasks"))
		return amc_cli_usage(&amc_cmd_bench, "which benchmark? (tasks)");
	return tasks(cli, argc - 1, argv + 1);
}

const amc_cmd amc_cmd_bench = {
	"bench",
	"bench tasks [--planner flow|llm|mcp|agent:claude|agent:codex] [--tasks GLOB] [--seeds N] [--sims N] [--json]",
	"run the task suite (data/tasks) on simulated phones and score it",
	"  -p, --planner P        flow: each template's reference flow (default); llm: the goal for\n"
	"                         the LLM planner; mcp: wait for an outside MCP client to do each task;\n"
	"                         agent:claude, agent:codex: the goal for a coding agent's CLI on your\n"
	"                         login (billing: agent.billing; docs/llm.md)\n"
	"  -t, --tasks GLOB       only templates whose name matches GLOB (e.g. 'alarm-*')\n"
	"  -s, --seeds N          seeds per template (default 1): parameters differ per seed\n"
	"      --first-seed N     the first seed (default 1)\n"
	"  -n, --sims N           phones in parallel, one task each at a time (default 1)\n"
	"      --first-sim K      use sim:K and up (default 100, so sim:0 keeps its state)\n"
	"  -m, --model M          llm: planner model (default: config planner.model)\n"
	"      --provider P       llm: planner provider (default: config planner.provider)\n"
	"      --agent-cmd CMD    mcp: run CMD by /bin/sh per task, the goal as $1 and the device\n"
	"                         as $2; give the agent amc's MCP tools only (see docs/tasks.md)\n"
	"      --timeout S        mcp: seconds to wait for each task (default 600)\n"
	"      --dir DIR          templates from DIR instead of the bundled data/tasks\n"
	"      --report SUITE     print the scores of an earlier suite run again\n"
	"  -j, --json             print the scores and every run as JSON\n"
	"  -q, --quiet            no progress lines on stderr\n\n"
	"Every run is an ordinary task (`amc show ID` shows it) and a row of the suite's table,\n"
	"with the template, seed, parameters, verdict and reason, steps, tokens, cost and time.\n"
	"Exit status: 0 every run passed, 1 some failed, 2 bad usage, 3 environment.\n",
	run,
};
