/* amc flow check - lint Maestro flow files without a device (flow_check.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/appium.h"
#include "cli/cli.h"
#include "device/device.h"
#include "planner/flow_check.h"
#include "flow/script.h"
#include "llm/providers.h"

#define DEFINES_MAX 256

static const char *const KINDS[] = { "adb", "sim", "appium", NULL };

static void print_problem(const amc_check_problem *p)
{
	amc_cli_put_safe(stdout, p->file);
	printf(":%d:%d: ", p->line, p->col);
	amc_cli_put_safe(stdout, p->msg);
	printf(" [%s]\n", amc_check_kind_name(p->kind));
}

/* AI commands pass the check when a model would answer them in a run: the
 * provider a goal would use connects (its key is there; nothing is sent). */
static int have_model(const amc_cli *cli)
{
	if (!cli || !cli->cfg)
		return 0;
	amc_llm_client *c = NULL;
	amc_err e;
	amc_err_clear(&e);
	int ok = amc_providers_connect(amc_config_str(cli->cfg, "planner", "provider"),
				       amc_config_str(cli->cfg, "llm", "anthropic_key_file"), "", &c, &e) == 0;
	amc_llm_client_free(c);
	return ok;
}

static int check(const amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, 0, 'j' }, { "device-kind", required_argument, 0, 'k' },
		{ "device", required_argument, 0, 'd' },
		{ "env", required_argument, 0, 'e' }, { 0, 0, 0, 0 } };
	const char *kind = "adb";
	char dkind[16];
	const char *defined[DEFINES_MAX + 1];
	size_t nd = 0;
	int json = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+jk:d:e:", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'k': kind = optarg; break;
		case 'd': { /* a device as `amc run -d` takes it: its kind is before the ':' */
			char id[512];
			amc_err de;
			amc_err_clear(&de);
			if (amc_device_id_normalize(optarg, id, sizeof id, &de) != 0)
				return amc_cli_fail(&de);
			snprintf(dkind, sizeof dkind, "%.*s", (int)strcspn(id, ":"), id);
			kind = dkind;
			break;
		}
		case 'e': {
			const char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				return amc_cli_usage(&amc_cmd_flow, "-e takes NAME=VALUE");
			if (nd == DEFINES_MAX)
				return amc_cli_usage(&amc_cmd_flow, "at most %d -e options", DEFINES_MAX);
			*(char *)eq = '\0'; /* only the name matters for checking */
			defined[nd++] = optarg;
			break;
		}
		default: return amc_cli_usage(&amc_cmd_flow, "unknown option");
		}
	}
	defined[nd] = NULL;
	int known = 0;
	for (int i = 0; KINDS[i]; i++)
		known |= !strcmp(kind, KINDS[i]);
	if (!known)
		return amc_cli_usage(&amc_cmd_flow, "--device-kind takes adb, sim or appium (-d: a device of one "
				     "of these kinds, as sim or adb:SERIAL)");
	if (optind >= argc)
		return amc_cli_usage(&amc_cmd_flow, "check needs at least one FILE or DIR");
	amc_err e;
	amc_err_clear(&e);
	/* Appium: the configured platform picks the `mobile:` commands (appium_set.c) */
	if (!strcmp(kind, "appium"))
		kind = amc_appium_kind_for(cli->cfg);
	amc_script *js;
	if (amc_script_open(NULL, !strcmp(kind, "appium-android") ? "android" : strncmp(kind, "appium", 6) ? "android" : "ios",
			    &js, &e) != 0)
		return amc_cli_fail(&e);
	amc_check_opts o = { .device_kind = kind, .defined = defined, .js = js, .interpret = json,
			     .device_check = have_model(cli) ? amc_flow_device_problems_with_model
							     : amc_flow_check_device_hook };
	amc_check_report r = { 0 };
	int rc = 0;
	for (int i = optind; i < argc && rc != AMC_EENV; i++) {
		amc_err_clear(&e);
		if (amc_flow_check_path(argv[i], &o, &r, &e) != 0 && e.code == AMC_EENV)
			rc = amc_cli_fail(&e);
	}
	amc_script_close(js);
	if (rc == 0) {
		if (json) {
			amc_cli_print_json(amc_check_report_json(&r));
		} else {
			for (size_t i = 0; i < r.n; i++)
				print_problem(&r.v[i]);
			printf("%zu of %zu flow files check clean (device kind %s; %zu of them with warnings "
			       "(undefined names, parts Maestro ignores too)); %zu more only lack external inputs (sub-flow/script files, a model); %zu refused\n",
			       r.clean, r.files, kind, r.warned, r.lacking, r.files - r.clean - r.lacking);
		}
		rc = 0;
		for (size_t i = 0; i < r.n; i++)
			if (!amc_check_kind_is_warning(r.v[i].kind))
				rc = AMC_EUSAGE; /* warnings alone leave the status 0 */
	}
	amc_check_report_free(&r);
	return rc;
}

/* `amc flow commands [--markdown]` (not in the usage: a tool for the docs):
 * the command names amc reads, one a line, or docs/flows.md's command table,
 * both made from the command table's rows (flow_commands.c). */
static int commands(int argc, char **argv)
{
	int md = argc == 2 && !strcmp(argv[1], "--markdown");
	if (argc > 2 || (argc == 2 && !md))
		return amc_cli_usage(&amc_cmd_flow, "flow commands takes only --markdown");
	char *s = md ? amc_flow_commands_markdown() : amc_flow_commands_list();
	fputs(s, stdout);
	free(s);
	return 0;
}

static int run(amc_cli *cli, int argc, char **argv)
{
	if (argc < 2)
		return amc_cli_usage(&amc_cmd_flow, "which flow subcommand? (check)");
	if (!strcmp(argv[1], "check"))
		return check(cli, argc - 1, argv + 1);
	if (!strcmp(argv[1], "commands"))
		return commands(argc - 1, argv + 1);
	return amc_cli_usage(&amc_cmd_flow, "unknown flow subcommand '%s' (check)", argv[1]);
}

const amc_cmd amc_cmd_flow = {
	"flow",
	"flow check FILE|DIR... [--json] [--device-kind adb|sim|appium | -d DEVICE] [-e NAME=VALUE]...",
	"lint Maestro flow files without a device",
	"  check FILE|DIR...       check flow files (a folder: every .yaml/.yml below it)\n"
	"  -j, --json              print {files, clean, lacking, warned, problems:[{file,\n"
	"                          line,col,kind,severity,message}], flows:[{file,appId,\n"
	"                          commands:[{line,command,depth}]}]}: each command as amc\n"
	"                          reads it\n"
	"  -k, --device-kind KIND  the device kind the flows are for (default adb): a\n"
	"                          command it cannot do is a device problem\n"
	"  -d, --device DEVICE     the same, for the kind of DEVICE (sim, sim:1, adb:SERIAL)\n"
	"  -e, --env NAME=VALUE    a variable the run will be given (only NAME is used)\n\n"
	"Each problem is printed as FILE:LINE:COL: message [kind], where kind is invalid,\n"
	"missing-file (a sub-flow or script that is not there), needs-env (a warning: a\n"
	"${NAME} no env block, -e or script defines; it runs as undefined, as in Maestro),\n"
	"script (JavaScript that does not parse, or ES2015+ syntax the\n"
	"ES5 engine cannot run), cycle, device or needs-model (an AI command and no model:\n"
	"an external input, like a missing file). Exit status 0 when every file would run,\n"
	"2 otherwise, 3 when the JavaScript engine (amc-js) cannot be started.\n",
	run,
};
