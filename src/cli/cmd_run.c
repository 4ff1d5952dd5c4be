/* amc run - run a task headless: a flow now, a free goal once a planner for goals exists. */
#include <getopt.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
		if (p->tty) {
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

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flow", required_argument, 0, 'f' },
		{ "device", required_argument, 0, 'd' },
		{ "max-steps", required_argument, 0, 'm' },
		{ "json", no_argument, 0, 'j' },
		{ 0, 0, 0, 0 },
	};
	const char *flow_arg = NULL, *device_arg = NULL;
	long max_steps = 0;
	int json = 0, c;
	amc_err e;
	amc_err_clear(&e);
	while ((c = getopt_long(argc, argv, "f:d:m:j", opts, NULL)) != -1) {
		switch (c) {
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
	if (optind < argc)
		return amc_cli_usage(&amc_cmd_run, "free goals need an LLM planner, which this build does not have yet; "
				     "run a Maestro flow with --flow FILE (bundled: add-contact, wifi-off-on, create-note)");
	if (!flow_arg)
		return amc_cli_usage(&amc_cmd_run, "nothing to run: give --flow FILE");

	char device[128];
	if (amc_device_id_normalize(device_arg ? device_arg : amc_config_str(cli->cfg, "device", "default"),
				    device, sizeof device, &e) != 0)
		return amc_cli_fail(&e);

	char path[PATH_MAX];
	amc_flow flow;
	if (resolve_flow(flow_arg, path, sizeof path, &e) != 0 || amc_flow_load(path, &flow, &e) != 0)
		return amc_cli_fail(&e);

	amc_store *store;
	if (amc_cli_store(cli, &store, &e) != 0) {
		amc_flow_free(&flow);
		return amc_cli_fail(&e);
	}
	amc_task *task = amc_task_new("flow", device);
	task->flow_path = amc_xstrdup(path);
	task->flow_name = amc_xstrdup(flow.name);
	task->max_steps = (int)max_steps;

	amc_planner *planner = NULL;
	if (amc_flow_planner_new(&flow, amc_config_int(cli->cfg, "flow", "wait_timeout_ms"), &planner, &e) != 0) {
		amc_flow_free(&flow);
		amc_task_free(task);
		return amc_cli_fail(&e);
	}
	amc_device *dev = NULL;
	if (amc_device_open(device, cli->home, cli->cfg, &dev, &e) != 0) {
		amc_planner_free(planner);
		amc_task_free(task);
		return amc_cli_fail(&e);
	}

	amc_bus *bus = amc_bus_new();
	progress pr = { isatty(STDERR_FILENO), 0, "" };
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
	return rc;
}

const amc_cmd amc_cmd_run = {
	"run",
	"run --flow FILE [--device ID] [--max-steps N] [--json]",
	"run a task (a Maestro flow) on a device and record every step",
	"  -f, --flow FILE     a Maestro flow file, or the name of a bundled flow\n"
	"                      (add-contact, wifi-off-on, create-note)\n"
	"  -d, --device ID     sim, sim:N (default: config device.default)\n"
	"  -m, --max-steps N   fail the task after N steps (default: config runner.max_steps)\n"
	"  -j, --json          print the finished task as JSON on stdout\n\n"
	"Progress is shown on stderr when it is a terminal. Ctrl-C cancels the task cleanly.\n"
	"Exit status: 0 succeeded, 1 failed, 2 bad usage or input, 3 device unavailable or busy,\n"
	"130 cancelled.\n",
	run,
};
