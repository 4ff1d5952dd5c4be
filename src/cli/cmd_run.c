/* amc run - run a task headless: a Maestro flow, or a free goal planned by the LLM planner. */
#include <getopt.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/tty_operator.h"
#include "planner/agentcli_probe.h"
#include "cli/cli.h"
#include "cli/cmd_run_folder.h"
#include "device/device.h"
#include "device/manager.h"
#include "launch/launch.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/paths.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static atomic_int cancel_flag;

static void on_sigint(int sig)
{
	(void)sig;
	atomic_store(&cancel_flag, 1);
}

/* Live progress on stderr, only when it is a terminal. */
typedef struct progress {
	int tty;
	int max_steps;
	char line[512];
	char reason[300];  /* the planner's reasoning for the running step */
} progress;

static void progress_line(progress *p, const char *tail)
{
	fprintf(stderr, "\r\033[K%s%s", p->line, tail ? tail : "");
	fflush(stderr);
}

static void on_event(const amc_event *ev, void *ud)
{
	progress *p = ud;
	char dur[32];
	switch (ev->type) {
	case AMC_EV_TASK_STATUS:
		if (!strcmp(ev->status, "running"))
			fprintf(stderr, "amc: task %s running on %s\n", ev->task_id, ev->device);
		break;
	case AMC_EV_STEP_STARTED: {
		char *d = amc_sanitize_dup(ev->text ? ev->text : ev->tool);
		snprintf(p->line, sizeof p->line, "  [%3d] %-48.48s", ev->step, d);
		free(d);
		if (p->tty)
			progress_line(p, " ...");
		break;
	}
	case AMC_EV_STEP_PHASE:
		if (ev->phase && !strcmp(ev->phase, "reason")) {
			char *r = amc_sanitize_dup(ev->text ? ev->text : "");
			snprintf(p->reason, sizeof p->reason, "%s", r);
			free(r);
		} else if (p->tty) {
			char tail[64];
			snprintf(tail, sizeof tail, " ... %s", ev->phase);
			progress_line(p, tail);
		}
		break;
	case AMC_EV_STEP_FINISHED: {
		amc_format_duration(ev->duration_ms, dur, sizeof dur);
		int ok = !strcmp(ev->status, "ok");
		if (p->tty)
			fprintf(stderr, "\r\033[K");
		fprintf(stderr, "%s %s %6s\n", p->line, ok ? "ok    " : "FAILED", dur);
		if (p->reason[0]) {
			fprintf(stderr, "        why: %s\n", p->reason);
			p->reason[0] = 0;
		}
		if (!ok && ev->text) {
			char *t = amc_sanitize_dup(ev->text);
			fprintf(stderr, "        %s\n", t);
			free(t);
		}
		break;
	}
	default:
		break;
	}
}

/* The goal is the remaining words, joined by spaces. */
static int join_goal(int n, char **w, char **out, amc_err *e)
{
	amc_sb sb;
	amc_sb_init(&sb);
	for (int i = 0; i < n; i++) {
		if (i)
			amc_sb_putc(&sb, ' ');
		amc_sb_puts(&sb, w[i]);
	}
	const char *s = amc_sb_str(&sb);
	size_t sp = strspn(s, " \t\r\n");
	if (!s[sp] || sb.len > AMC_LAUNCH_GOAL_MAX) {
		amc_sb_free(&sb);
		return amc_err_set(e, AMC_EUSAGE, sp == sb.len ? "the goal is empty" : "the goal is longer than %d bytes", AMC_LAUNCH_GOAL_MAX);
	}
	*out = amc_sb_detach(&sb);
	return 0;
}

/* "     12345 tokens in, 678 out, $0.0123" from the task row; unknown stays unknown. */
static void usage_line(amc_store *store, const char *id)
{
	amc_task_row row;
	amc_err e;
	if (amc_store_get_task(store, id, &row, &e) != 0)
		return;
	fputs("\n     usage: ", stderr);
	if (row.input_tokens >= 0)
		fprintf(stderr, "%lld tokens in, %lld out", row.input_tokens, row.output_tokens < 0 ? 0 : row.output_tokens);
	else
		fputs("tokens unknown", stderr);
	if (row.cost_usd >= 0)
		fprintf(stderr, ", $%.4f", row.cost_usd);
	else
		fputs(", cost unknown", stderr);
	amc_task_row_free(&row);
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void warn(const char *text)
{
	fputs("amc: warning: ", stderr);
	amc_cli_put_safe(stderr, text);
	fputc('\n', stderr);
}

/* The end of a task that ran: its status as the exit status, the row as JSON
 * (--json) and a closing line on stderr. */
static int report(amc_store *store, const amc_task *task, const amc_task_outcome *out, int json, int tty)
{
	int rc = !strcmp(out->status, AMC_ST_SUCCEEDED) ? 0 : !strcmp(out->status, AMC_ST_CANCELLED) ? AMC_ECANCEL
												      : AMC_EFAIL;
	amc_err e;
	if (json) {
		amc_task_row row;
		if (amc_store_get_task(store, task->id, &row, &e) == 0) {
			amc_cli_print_json(amc_cli_task_json(&row));
			amc_task_row_free(&row);
		}
	}
	if (json && !tty)
		return rc;
	fprintf(stderr, "amc: task %s %s after %d step%s", task->id, out->status, out->steps, out->steps == 1 ? "" : "s");
	if (out->error[0]) {
		fputs(": ", stderr);
		amc_cli_put_safe(stderr, out->error);
	}
	if (out->summary[0]) {
		fputs("\n     ", stderr);
		amc_cli_put_safe(stderr, out->summary);
	}
	if (task->goal)
		usage_line(store, task->id);
	char sid[AMC_ID_SIZE];
	amc_cli_short_id(store, task->id, sid);
	fprintf(stderr, "\n     `amc show %s` shows every step\n", sid);
	return rc;
}

/* Run the prepared launch with progress on stderr and Ctrl-C as cancel. A
 * task that could not start (device busy or gone) is recorded failed by the
 * launch module; its reason is the error printed and decides the exit status
 * (3 for the environment), as before the row rule. */
static int run_task(amc_cli *cli, amc_store *store, amc_launch *ln, amc_operator *op, int json)
{
	amc_bus *bus = amc_bus_new();
	progress pr = { isatty(STDERR_FILENO), 0, "", "" };
	int sub = -1;
	if (!json || pr.tty)
		sub = amc_bus_subscribe(bus, on_event, &pr);

	struct sigaction sa = { 0 }, old_int, old_term;
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	amc_launch_ctx c;
	amc_launch_ctx_init(&c, cli->home, cli->cfg);
	c.store = store;
	c.bus = bus;
	c.cancel = &cancel_flag;
	c.op = op;
	amc_task_outcome out;
	amc_err e;
	int rc;
	if (amc_launch_run(ln, &c, &out, &e) != 0)
		rc = amc_cli_fail(&e);
	else
		rc = report(store, ln->task, &out, json, pr.tty);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (sub > 0)
		amc_bus_unsubscribe(bus, sub);
	amc_bus_free(bus);
	return rc;
}

/* Whose bill an agent run goes on, settled before anything starts: the
 * choice stated (--billing, agent.billing) or the login; when amc cannot tell
 * (only an API key) the person is asked, and under --yes the run is refused.
 * The decision is written into the configuration the launch reads. */
static int agent_billing(amc_cli *cli, amc_agent_kind kind, const char *billing, int assume_yes, amc_err *e)
{
	const char *b = billing ? billing : amc_config_str(cli->cfg, "agent", "billing");
	amc_billing_choice choice;
	if (amc_agentcli_billing_parse(b, &choice) != 0)
		choice = AMC_BILLING_AUTO;
	amc_agentcli_probe pr;
	amc_agentcli_probe_run(cli->cfg, kind, 0, &pr);
	amc_agentcli_billing bill;
	int d = amc_agentcli_billing_decide(&pr, choice, &bill, e);
	/* Not logged in (and no key) is a fault of this host, like a missing
	 * CLI: the launch meets it again and records the task failed with
	 * this reason, as every front end does (issue 28). */
	if (d < 0 && e->code == AMC_EENV)
		return 0;
	if (d < 0)
		return -1;
	if (d > 0) {
		if (assume_yes || !isatty(STDIN_FILENO) || !isatty(STDERR_FILENO))
			return amc_err_set(e, AMC_EUSAGE, "%s amc does not choose a bill for you: pass --billing api "
					   "(or log in: run `%s` once)", bill.why, amc_agentcli_kind_name(kind));
		fputs("amc: ", stderr);
		amc_cli_put_safe(stderr, bill.why);
		fputs(" [y/N] ", stderr);
		char line[32];
		if (!fgets(line, sizeof line, stdin) || (line[0] != 'y' && line[0] != 'Y'))
			return amc_err_set(e, AMC_EUSAGE, "not started: no billing was chosen");
		choice = AMC_BILLING_API;
		if (amc_agentcli_billing_decide(&pr, choice, &bill, e) != 0)
			return -1;
	}
	fprintf(stderr, "amc: %s bills this run to ", amc_agentcli_kind_title(kind));
	amc_cli_put_safe(stderr, bill.why);
	fputc('\n', stderr);
	return amc_config_set(cli->cfg, "agent", "billing", bill.api ? "api" : "subscription",
			      billing ? "command line" : "decided", e);
}

/* Over 120 lines: one flat getopt switch and the checks that pair its
 * options (agent with goal, tags with a folder, -e with a flow); each step
 * after parsing is its own function (agent_billing, run_task, report). */
static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flow", required_argument, 0, 'f' },
		{ "device", required_argument, 0, 'd' },
		{ "max-steps", required_argument, 0, 'm' },
		{ "json", no_argument, 0, 'j' },
		{ "yes", no_argument, 0, 'y' },
		{ "confirm", no_argument, 0, 'c' },
		{ "include-tags", required_argument, 0, 1001 },
		{ "exclude-tags", required_argument, 0, 1002 },
		{ "format", required_argument, 0, 1003 },
		{ "output", required_argument, 0, 1004 },
		{ "env", required_argument, 0, 'e' },
		{ "agent", required_argument, 0, 1005 },
		{ "model", required_argument, 0, 1006 },
		{ "billing", required_argument, 0, 1007 },
		{ 0, 0, 0, 0 },
	};
	const char *envs[AMC_LAUNCH_ENV_MAX + 1];
	size_t nenv = 0;
	const char *flow_arg = NULL, *device_arg = NULL;
	const char *inc_tags = NULL, *exc_tags = NULL, *format = NULL, *output = NULL;
	const char *agent = NULL, *model = NULL, *billing = NULL;
	long max_steps = 0;
	int json = 0, c, assume_yes = 0, confirm = 0;
	amc_err e;
	amc_err_clear(&e);
	while ((c = getopt_long(argc, argv, "f:d:m:jye:", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (nenv > AMC_LAUNCH_ENV_MAX)
				return amc_cli_usage(&amc_cmd_run, "too many -e NAME=VALUE (at most %d)", AMC_LAUNCH_ENV_MAX);
			envs[nenv++] = optarg;
			break;
		case 'y': assume_yes = 1; break;
		case 'c': confirm = 1; break;
		case 'f': flow_arg = optarg; break;
		case 'd': device_arg = optarg; break;
		case 'm':
			if (amc_cli_int("--max-steps", optarg, 1, 100000, &max_steps, &e) != 0)
				return amc_cli_usage(&amc_cmd_run, "%s", e.msg);
			break;
		case 'j': json = 1; break;
		case 1001: inc_tags = optarg; break;
		case 1002: exc_tags = optarg; break;
		case 1003: format = optarg; break;
		case 1004: output = optarg; break;
		case 1005: agent = optarg; break;
		case 1006: model = optarg; break;
		case 1007: billing = optarg; break;
		default: return amc_cli_usage(&amc_cmd_run, "unknown option");
		}
	}
	if (optind < argc && flow_arg)
		return amc_cli_usage(&amc_cmd_run, "give either --flow FILE or a goal, not both");
	if (optind >= argc && !flow_arg)
		return amc_cli_usage(&amc_cmd_run, "nothing to run: give a goal (amc run \"GOAL\") or --flow FILE");
	if ((agent || model || billing) && flow_arg)
		return amc_cli_usage(&amc_cmd_run, "--agent, --model and --billing go with a goal, not a flow");
	amc_agent_kind kind;
	if (agent && amc_agentcli_kind_parse(agent, &kind) != 0)
		return amc_cli_usage(&amc_cmd_run, "--agent takes claude or codex");
	amc_billing_choice bchoice;
	if (billing && (!agent || amc_agentcli_billing_parse(billing, &bchoice) != 0))
		return amc_cli_usage(&amc_cmd_run, agent ? "--billing takes auto, subscription or api"
						   : "--billing goes with --agent claude|codex");
	if (flow_arg && is_dir(flow_arg))
		return amc_cli_run_suite(flow_arg, device_arg, inc_tags, exc_tags, format, output, json);
	if (inc_tags || exc_tags || format || output)
		return amc_cli_usage(&amc_cmd_run, "--include-tags, --exclude-tags, --format and --output "
				     "go with --flow DIR");
	char *goal = NULL;
	if (optind < argc && join_goal(argc - optind, argv + optind, &goal, &e) != 0)
		return amc_cli_usage(&amc_cmd_run, "%s", e.msg);

	amc_store *store;
	if (amc_cli_store(cli, &store, &e) != 0) {
		free(goal);
		return amc_cli_fail(&e);
	}
	/* A sim:N that does not exist yet is created by opening it: say so, so a
	 * typo (sim:99 for sim:9) is seen rather than run on a fresh phone. */
	char known[256];
	if (device_arg && amc_sim_exists(cli->home, device_arg, known, sizeof known) == 0)
		fprintf(stderr, "amc: creating %s: a new simulated phone in its factory state (existing sims: %s)\n",
			device_arg, known);
	/* A flow is a path, or the name of a bundled flow (data/flows/NAME.yaml). */
	amc_launch_req req;
	amc_launch_req_init(&req);
	req.device = device_arg;
	req.goal = goal;
	if (flow_arg && (amc_file_exists(flow_arg) || strchr(flow_arg, '/')))
		req.flow_path = flow_arg;
	else
		req.flow_name = flow_arg;
	req.max_steps = (int)max_steps;
	char prov[32];
	if (agent) {
		snprintf(prov, sizeof prov, "agent:%s", amc_agentcli_kind_name(kind));
		req.provider = prov;
	}
	req.model = model;
	req.env = envs;
	req.nenv = nenv;
	if (nenv && !flow_arg) {
		free(goal);
		return amc_cli_usage(&amc_cmd_run, "-e NAME=VALUE is for flows (--flow FILE)");
	}
	req.assume_yes = assume_yes;
	req.confirm = confirm;
	if (agent && agent_billing(cli, kind, billing, assume_yes, &e) != 0) {
		free(goal);
		return amc_cli_fail(&e);
	}
	amc_launch ln;
	int lrc = amc_launch_prepare(cli->cfg, store, &req, &ln, &e);
	free(goal);
	if (lrc != 0)
		return amc_cli_fail(&e);
	if (ln.planner_warn[0])
		warn(ln.planner_warn);
	if (ln.prune_warn[0]) {
		fputs("amc: ", stderr);
		amc_cli_put_safe(stderr, ln.prune_warn);
		fputc('\n', stderr);
	}
	amc_operator *op = NULL;
	amc_err oe;
	if (amc_tty_operator_open(&op, &oe) != 0)
		op = NULL; /* no terminal: ask_user fails clearly, gated actions are refused */
	if (ln.enrich_warn[0])
		warn(ln.enrich_warn);
	int rc = run_task(cli, store, &ln, op, json);
	amc_launch_free(&ln);
	amc_tty_operator_close(op);
	return rc;
}

const amc_cmd amc_cmd_run = {
	"run",
	"run \"GOAL\" [--agent claude|codex] [--billing B] [--model M] | --flow FILE [-e NAME=VALUE]... [--device ID] [--max-steps N] [--yes] [--confirm] [--json]",
	"run a task (a goal for the LLM planner, or a Maestro flow) on a device and record every step",
	"  GOAL                what to do, in words: the LLM planner plans each step\n"
	"                      (needs ANTHROPIC_API_KEY or llm.anthropic_key_file)\n"
	"      --agent claude|codex  a coding agent's CLI plans the goal on your own login\n"
	"                      (Claude Code or Codex, with amc's observe and act as its only tools;\n"
	"                      docs/llm.md). `amc providers` shows what each CLI has here\n"
	"      --billing auto|subscription|api  whose bill: your CLI login (subscription), the\n"
	"                      API key (api: pay-as-you-go), or auto (the login; asks when there\n"
	"                      is only a key). An API key is never used unless api was chosen\n"
	"      --model M       the model (planner.model for amc's planner; the CLI's name for agents)\n"
	"  -f, --flow FILE     a Maestro flow file, or the name of a bundled flow\n"
	"                      (add-contact, wifi-off-on, create-note)\n"
	"  -f, --flow DIR      every flow below DIR, each its own task (docs/flow-tools.md):\n"
	"      --include-tags T,U  only flows with one of these tags\n"
	"      --exclude-tags T,U  no flow with one of these tags\n"
	"      --format junit --output FILE  a JUnit report\n"
	"  -e, --env NAME=VALUE  set ${NAME} for the flow (over its env: blocks; MAESTRO_*\n"
	"                      variables of the environment are read too)\n"
	"  -d, --device ID     sim, sim:N (default: config device.default)\n"
	"  -m, --max-steps N   fail the task after N steps (default: config runner.max_steps)\n"
	"  -y, --yes           allow irreversible-looking taps (send, pay, delete, ...) without asking\n"
	"      --confirm       ask before irreversible-looking taps and clearState in flows too\n"
	"  -j, --json          print the finished task as JSON on stdout\n\n"
	"Questions of the agent (ask_user) and confirmations are asked on the terminal; with\n"
	"no terminal a question fails the task and an irreversible tap is refused.\n"
	"Budgets: planner.max_input_tokens, max_output_tokens, max_cost_usd (amc config).\n"
	"Progress is shown on stderr when it is a terminal. Ctrl-C cancels the task cleanly.\n"
	"Exit status: 0 succeeded, 1 failed, 2 bad usage or input, 3 device unavailable or busy,\n"
	"130 cancelled.\n",
	run,
};
