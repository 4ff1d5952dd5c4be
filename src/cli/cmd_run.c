/* amc run - run a task headless: a Maestro flow, or a free goal planned by the LLM planner. */
#include <getopt.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/goal.h"
#include "agent/llm_planner.h"
#include "agent/tty_operator.h"
#include "cli/cli.h"
#include "device/device.h"
#include "flow/flow.h"
#include "flow/flow_planner.h"
#include "runtime/runner.h"
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

/* A flow is a path, or the name of a bundled flow (data/flows/NAME.yaml). */
static int resolve_flow(const char *arg, char *out, size_t n, amc_err *e)
{
	if (amc_file_exists(arg) || strchr(arg, '/')) {
		snprintf(out, n, "%s", arg);
		return 0;
	}
	char data[PATH_MAX];
	if (amc_paths_data_dir(data, sizeof data, e) != 0)
		return -1;
	const char *ext = strstr(arg, ".yaml") || strstr(arg, ".yml") ? "" : ".yaml";
	if ((size_t)snprintf(out, n, "%s/flows/%s%s", data, arg, ext) >= n)
		return amc_err_set(e, AMC_EUSAGE, "flow name too long");
	if (!amc_file_exists(out)) {
		char *s = amc_sanitize_dup(arg);
		amc_err_set(e, AMC_EUSAGE, "no flow file '%s' (and no bundled flow of that name in %s/flows)", s, data);
		free(s);
		return -1;
	}
	return 0;
}

#define GOAL_MAX 4000

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
	if (!s[sp] || sb.len > GOAL_MAX) {
		amc_sb_free(&sb);
		return amc_err_set(e, AMC_EUSAGE, sp == sb.len ? "the goal is empty" : "the goal is longer than %d bytes", GOAL_MAX);
	}
	*out = amc_sb_detach(&sb);
	return 0;
}

/* The LLM planner from the configuration (agent/goal.h); a missing key is
 * AMC_EENV saying what to set. */
static int goal_planner(amc_cli *cli, amc_planner **out, amc_err *e)
{
	char warn[AMC_ERR_MSG_MAX + 32];
	if (amc_goal_planner_new(cli->cfg, warn, sizeof warn, out, e) != 0)
		return -1;
	if (warn[0]) {
		fputs("amc: warning: ", stderr);
		amc_cli_put_safe(stderr, warn);
		fputc('\n', stderr);
	}
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

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flow", required_argument, 0, 'f' },
		{ "device", required_argument, 0, 'd' },
		{ "max-steps", required_argument, 0, 'm' },
		{ "json", no_argument, 0, 'j' },
		{ "yes", no_argument, 0, 'y' },
		{ "confirm", no_argument, 0, 'c' },
		{ 0, 0, 0, 0 },
	};
	const char *flow_arg = NULL, *device_arg = NULL;
	long max_steps = 0;
	int json = 0, c, assume_yes = 0, confirm = 0;
	amc_err e;
	amc_err_clear(&e);
	while ((c = getopt_long(argc, argv, "f:d:m:jy", opts, NULL)) != -1) {
		switch (c) {
		case 'y': assume_yes = 1; break;
		case 'c': confirm = 1; break;
		case 'f': flow_arg = optarg; break;
		case 'd': device_arg = optarg; break;
		case 'm':
			if (amc_cli_int("--max-steps", optarg, 1, 100000, &max_steps, &e) != 0)
				return amc_cli_usage(&amc_cmd_run, "%s", e.msg);
			break;
		case 'j': json = 1; break;
		default: return amc_cli_usage(&amc_cmd_run, "unknown option");
		}
	}
	if (optind < argc && flow_arg)
		return amc_cli_usage(&amc_cmd_run, "give either --flow FILE or a goal, not both");
	if (optind >= argc && !flow_arg)
		return amc_cli_usage(&amc_cmd_run, "nothing to run: give a goal (amc run \"GOAL\") or --flow FILE");
	char *goal = NULL;
	if (optind < argc && join_goal(argc - optind, argv + optind, &goal, &e) != 0)
		return amc_cli_usage(&amc_cmd_run, "%s", e.msg);

	char device[128];
	if (amc_device_id_normalize(device_arg ? device_arg : amc_config_str(cli->cfg, "device", "default"),
				    device, sizeof device, &e) != 0) {
		free(goal);
		return amc_cli_fail(&e);
	}

	char path[PATH_MAX];
	amc_flow flow;
	if (!goal && (resolve_flow(flow_arg, path, sizeof path, &e) != 0 || amc_flow_load(path, &flow, &e) != 0))
		return amc_cli_fail(&e);

	/* A goal needs a key before anything is recorded: say exactly what to set. */
	amc_planner *planner = NULL;
	if (goal && goal_planner(cli, &planner, &e) != 0) {
		free(goal);
		return amc_cli_fail(&e);
	}

	amc_store *store;
	if (amc_cli_store(cli, &store, &e) != 0) {
		if (goal) {
			amc_planner_free(planner);
			free(goal);
		} else {
			amc_flow_free(&flow);
		}
		return amc_cli_fail(&e);
	}
	amc_task *task;
	if (goal) {
		task = amc_task_new("goal", device);
		task->goal = goal;
		amc_err pe;
		if (amc_store_prune_decisions(store, amc_config_int(cli->cfg, "planner", "decisions_keep"), &pe) < 0)
			amc_cli_fail(&pe);
	} else {
		task = amc_task_new("flow", device);
		task->flow_path = amc_xstrdup(path);
		task->flow_name = amc_xstrdup(flow.name);
	}
	task->max_steps = (int)max_steps;

	if (!goal && amc_flow_planner_new(&flow, amc_config_int(cli->cfg, "flow", "wait_timeout_ms"), &planner, &e) != 0) {
		amc_flow_free(&flow);
		amc_task_free(task);
		return amc_cli_fail(&e);
	}
	/* Flows are not gated unless --confirm; goals always are (unless --yes). */
	if (!goal)
		planner->gated = confirm;
	amc_words words = { 0 };
	amc_operator *op = NULL;
	if (planner->gated &&
	    amc_words_load(amc_config_str(cli->cfg, "safety", "irreversible_words_file"), &words, &e) != 0) {
		amc_planner_free(planner);
		amc_task_free(task);
		return amc_cli_fail(&e);
	}
	/* {{secret:NAME}} in the goal or the flow file: resolved now, typed on the device only */
	amc_secrets *secrets = NULL;
	{
		char *src = NULL;
		size_t srclen = 0;
		if (!goal && amc_read_file(path, 4u << 20, &src, &srclen, &e) != 0)
			src = NULL;
		if (amc_secrets_resolve(goal ? goal : src, amc_config_str(cli->cfg, "secrets", "file"), &secrets, &e) != 0) {
			free(src);
			amc_planner_free(planner);
			amc_task_free(task);
			amc_words_free(&words);
			return amc_cli_fail(&e);
		}
		free(src);
	}
	amc_err oe;
	if (amc_tty_operator_open(&op, &oe) != 0)
		op = NULL; /* no terminal: ask_user fails clearly, gated actions are refused */
	amc_device *dev = NULL;
	if (amc_device_open(device, cli->home, cli->cfg, &dev, &e) != 0) {
		amc_planner_free(planner);
		amc_task_free(task);
		amc_words_free(&words);
		amc_tty_operator_close(op);
		amc_secrets_free(secrets);
		return amc_cli_fail(&e);
	}

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

	amc_runner_opts ro;
	amc_runner_opts_from_config(&ro, cli->cfg);
	ro.op = op;
	ro.confirm_words = planner->gated ? &words : NULL;
	ro.assume_yes = assume_yes;
	ro.secrets = secrets;
	amc_enricher *enricher = NULL;
	amc_err ee;
	if (amc_enricher_from_config(cli->cfg, &enricher, &ee) != 0) {
		/* enrichment never fails a run: say why and go on with raw Scenes */
		fputs("amc: warning: ", stderr);
		amc_cli_put_safe(stderr, ee.msg);
		fputs("; going on without SemanticScenes\n", stderr);
	}
	ro.enricher = enricher;
	amc_task_outcome out;
	int rc;
	if (amc_task_run(store, bus, dev, planner, task, &ro, &cancel_flag, &out, &e) != 0) {
		rc = amc_cli_fail(&e);
	} else {
		if (!strcmp(out.status, "succeeded"))
			rc = 0;
		else if (!strcmp(out.status, "cancelled"))
			rc = AMC_ECANCEL;
		else
			rc = AMC_EFAIL;
		if (json) {
			amc_task_row row;
			if (amc_store_get_task(store, task->id, &row, &e) == 0) {
				cJSON *j = cJSON_CreateObject();
				cJSON_AddStringToObject(j, "id", row.id);
				cJSON_AddStringToObject(j, "status", row.status);
				cJSON_AddStringToObject(j, "device", row.device);
				cJSON_AddNumberToObject(j, "steps", row.steps);
				if (row.flow_path)
					cJSON_AddStringToObject(j, "flow", row.flow_path);
				if (row.goal)
					cJSON_AddStringToObject(j, "goal", row.goal);
				if (row.summary)
					cJSON_AddStringToObject(j, "summary", row.summary);
				else
					cJSON_AddNullToObject(j, "summary");
				/* unknown usage stays null */
				if (row.input_tokens >= 0)
					cJSON_AddNumberToObject(j, "input_tokens", (double)row.input_tokens);
				else
					cJSON_AddNullToObject(j, "input_tokens");
				if (row.output_tokens >= 0)
					cJSON_AddNumberToObject(j, "output_tokens", (double)row.output_tokens);
				else
					cJSON_AddNullToObject(j, "output_tokens");
				if (row.cost_usd >= 0)
					cJSON_AddNumberToObject(j, "cost_usd", row.cost_usd);
				else
					cJSON_AddNullToObject(j, "cost_usd");
				if (row.error)
					cJSON_AddStringToObject(j, "error", row.error);
				else
					cJSON_AddNullToObject(j, "error");
				cJSON_AddNumberToObject(j, "duration_ms", (double)(row.finished_ms - row.started_ms));
				amc_cli_print_json(j);
				amc_task_row_free(&row);
			}
		}
		if (!json || pr.tty) {
			fprintf(stderr, "amc: task %s %s after %d step%s", task->id, out.status, out.steps,
				out.steps == 1 ? "" : "s");
			if (out.error[0]) {
				fputs(": ", stderr);
				amc_cli_put_safe(stderr, out.error);
			}
			if (out.summary[0]) {
				fputs("\n     ", stderr);
				amc_cli_put_safe(stderr, out.summary);
			}
			if (goal)
				usage_line(store, task->id);
			fprintf(stderr, "\n     `amc show %.8s` shows every step\n", task->id);
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (sub > 0)
		amc_bus_unsubscribe(bus, sub);
	amc_bus_free(bus);
	amc_device_close(dev);
	amc_planner_free(planner);
	amc_task_free(task);
	amc_words_free(&words);
	amc_tty_operator_close(op);
	amc_secrets_free(secrets);
	amc_enricher_free(enricher);
	return rc;
}

const amc_cmd amc_cmd_run = {
	"run",
	"run \"GOAL\" | --flow FILE [--device ID] [--max-steps N] [--yes] [--confirm] [--json]",
	"run a task (a goal for the LLM planner, or a Maestro flow) on a device and record every step",
	"  GOAL                what to do, in words: the LLM planner plans each step\n"
	"                      (needs ANTHROPIC_API_KEY or llm.anthropic_key_file)\n"
	"  -f, --flow FILE     a Maestro flow file, or the name of a bundled flow\n"
	"                      (add-contact, wifi-off-on, create-note)\n"
	"  -d, --device ID     sim, sim:N (default: config device.default)\n"
	"  -m, --max-steps N   fail the task after N steps (default: config runner.max_steps)\n"
	"  -y, --yes           allow irreversible-looking taps (send, pay, delete, ...) without asking\n"
	"      --confirm       ask before irreversible-looking taps in flows too\n"
	"  -j, --json          print the finished task as JSON on stdout\n\n"
	"Questions of the agent (ask_user) and confirmations are asked on the terminal; with\n"
	"no terminal a question fails the task and an irreversible tap is refused.\n"
	"Budgets: planner.max_input_tokens, max_output_tokens, max_cost_usd (amc config).\n"
	"Progress is shown on stderr when it is a terminal. Ctrl-C cancels the task cleanly.\n"
	"Exit status: 0 succeeded, 1 failed, 2 bad usage or input, 3 device unavailable or busy,\n"
	"130 cancelled.\n",
	run,
};
