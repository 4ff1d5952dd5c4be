/* amc - agentic mobile control. Entry point: global options, start-up checks and
 * the subcommand table. Nothing below main() exits the process. */
#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "config.h"
#include "planner/agentcli.h"
#include "mcp/agentcli_attach.h"
#include "cli/cli.h"
#include "launch/launch.h"
#include "fleet/pq.h"
#include "util/jsonutil.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static const amc_cmd *const COMMANDS[] = {
	&amc_cmd_run, &amc_cmd_tasks, &amc_cmd_show, &amc_cmd_devices,
	&amc_cmd_sim, &amc_cmd_retention, &amc_cmd_config, &amc_cmd_scene,
	&amc_cmd_tui, &amc_cmd_doctor, &amc_cmd_providers,
	&amc_cmd_flow,
	&amc_cmd_mcp,
	&amc_cmd_search, &amc_cmd_export,
	&amc_cmd_fleet, &amc_cmd_host,
	&amc_cmd_bench,
};
#define NCOMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

const amc_cmd *const *amc_cli_commands(size_t *n)
{
	*n = NCOMMANDS;
	return COMMANDS;
}

static void usage(FILE *f)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "usage: amc [--help] [--version] COMMAND [ARGS]\n\n"
			   "amc runs tasks on phones (a simulated phone by default), records every step\n"
			   "with before/after screenshots and the UI tree, and lets you inspect them.\n\n"
			   "Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		amc_sb_printf(&sb, "  %-10s %s\n", COMMANDS[i]->name, COMMANDS[i]->summary);
	amc_sb_printf(&sb, "\n`amc COMMAND --help` shows a command's options.\n"
			   "Data: $AMC_HOME (default $XDG_DATA_HOME/amc).\n"
			   "Config: $XDG_CONFIG_HOME/amc/config. All of it: man amc (doc/amc.1).\n");
	amc_cli_put_help(f, amc_sb_str(&sb));
	amc_sb_free(&sb);
}

int amc_cli_fail(const amc_err *e)
{
	char *m = amc_sanitize_dup(e->msg[0] ? e->msg : "unknown error");
	fprintf(stderr, "amc: %s\n", m);
	free(m);
	return e->code ? e->code : AMC_EFAIL;
}

int amc_cli_usage(const amc_cmd *cmd, const char *fmt, ...)
{
	amc_sb sb;
	amc_sb_init(&sb);
	va_list ap;
	va_start(ap, fmt);
	amc_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	char *m = amc_sanitize_dup(amc_sb_str(&sb));
	/* getopt has already said which option and why ("unrecognized option
	 * '--x'", "option requires an argument"): one error line, not two. */
	if (strcmp(m, "unknown option") || !opterr)
		fprintf(stderr, "amc %s: %s\n", cmd->name, m);
	amc_sb_reset(&sb);
	amc_sb_printf(&sb, "usage: amc %s\n(see `amc %s --help`)\n", cmd->usage, cmd->name);
	amc_cli_put_help(stderr, amc_sb_str(&sb));
	free(m);
	amc_sb_free(&sb);
	return AMC_EUSAGE;
}

int amc_cli_help(const amc_cmd *cmd)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "usage: amc %s\n\n%s\n\n%s", cmd->usage, cmd->summary, cmd->help);
	amc_cli_put_help(stdout, amc_sb_str(&sb));
	amc_sb_free(&sb);
	return 0;
}

int amc_cli_json_only(const amc_cmd *cmd, int argc, char **argv, int *json)
{
	static const struct option opts[] = { { "json", no_argument, 0, 'j' }, { 0, 0, 0, 0 } };
	int c;
	*json = 0;
	while ((c = getopt_long(argc, argv, "j", opts, NULL)) != -1) {
		if (c != 'j')
			return amc_cli_usage(cmd, "unknown option");
		*json = 1;
	}
	if (optind < argc)
		return amc_cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	return 0;
}

int amc_cli_int(const char *opt, const char *val, long min, long max, long *out, amc_err *e)
{
	char *end;
	long v = strtol(val, &end, 10);
	if (!*val || *end || v < min || v > max) {
		char *s = amc_sanitize_dup(val);
		amc_err_set(e, AMC_EUSAGE, "%s takes a whole number from %ld to %ld (got '%s')", opt, min, max, s);
		free(s);
		return -1;
	}
	*out = v;
	return 0;
}

void amc_cli_put_safe(FILE *f, const char *s)
{
	char *m = amc_sanitize_dup(s ? s : "");
	fputs(m, f);
	free(m);
}


void amc_cli_print_json(cJSON *j)
{
	char *s = cJSON_Print(j);
	cJSON_Delete(j);
	if (!s)
		return;
	amc_sb out;
	amc_sb_init(&out);
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		unsigned cp;
		size_t n = amc_utf8_decode(p + i, len - i, &cp);
		int esc = (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
			  (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
			  cp == 0x061C || cp == 0x2028 || cp == 0x2029 || cp == 0x7F;
		if (esc)
			amc_sb_printf(&out, "\\u%04x", cp);
		else
			amc_sb_append(&out, p + i, n);
		i += n;
	}
	puts(amc_sb_str(&out));
	amc_sb_free(&out);
	free(s);
}

void amc_cli_short_id(amc_store *store, const char *id, char out[AMC_ID_SIZE])
{
	amc_err e;
	if (amc_store_short_id(store, id, out, &e) != 0)
		snprintf(out, AMC_ID_SIZE, "%s", id ? id : "");
}

int amc_cli_store(amc_cli *cli, amc_store **out, amc_err *e)
{
	if (!cli->store) {
		if (amc_store_open(cli->home, &cli->store, e) != 0)
			return -1;
		amc_retention_opts ro = { amc_config_int(cli->cfg, "retention", "keep"),
					  amc_config_int(cli->cfg, "retention", "max_age_days"), 0 };
		amc_retention_report rr;
		amc_err re;
		if (amc_store_retention(cli->store, &ro, &rr, &re) != 0)
			amc_log_warn("retention at start-up failed: %s", re.msg);
		else if (rr.tasks > 0)
			amc_log_info("retention removed %ld tasks, %ld files", rr.tasks, rr.files);
	}
	*out = cli->store;
	return 0;
}

/* The standalone runtime service of earlier versions is gone; a configuration that
 * still asks for it must fail loudly instead of silently doing nothing. */
static int check_retired_settings(amc_err *e)
{
	static const char *retired[] = { "HOST_AGENT_RUNTIME_SUPERVISED", "HOST_AGENT_RUNTIME_HOST",
					 "HOST_AGENT_RUNTIME_PORT" };
	for (size_t i = 0; i < 3; i++)
		if (getenv(retired[i]))
			return amc_err_set(e, AMC_EUSAGE,
					   "%s is set, but the standalone runtime service it configured was retired: "
					   "amc runs tasks itself and its console (`amc`, `amc tasks`, `amc show`) is the "
					   "execution history. Unset HOST_AGENT_RUNTIME_SUPERVISED, HOST_AGENT_RUNTIME_HOST "
					   "and HOST_AGENT_RUNTIME_PORT and stop any old runtime REST process.", retired[i]);
	return 0;
}

/* OpenMP inside tesseract made OCR 5-7x slower on these machines, and it reads
 * OMP_THREAD_LIMIT only once, when the library loads (a constructor of libgomp),
 * so setenv() here would be too late. When it is missing, amc sets it, marks
 * that it did (AMC_OMP_SET=1) and re-executes itself: same pid, so signals,
 * kill -9 recovery and the standard streams are unaffected. The re-executed amc removes
 * both variables again at once (libgomp has read the limit by then), so the
 * programs amc starts later (adb, tesseract, an editor) get the user's
 * environment unchanged. A limit the user set is kept and inherited. */
static void ensure_omp_thread_limit(char **argv)
{
	const char *mark = getenv("AMC_OMP_SET"), *lim = getenv("OMP_THREAD_LIMIT");
	if (mark && !strcmp(mark, "1") && lim && !strcmp(lim, "1")) {
		unsetenv("OMP_THREAD_LIMIT");
		unsetenv("AMC_OMP_SET");
		return;
	}
	if (lim)
		return;
	if (setenv("OMP_THREAD_LIMIT", "1", 1) != 0 || setenv("AMC_OMP_SET", "1", 1) != 0)
		return;
	execv("/proc/self/exe", argv);
	/* No /proc or exec refused: run on without the limit (OCR is slower). */
	unsetenv("OMP_THREAD_LIMIT");
	unsetenv("AMC_OMP_SET");
}

int main(int argc, char **argv)
{
	ensure_omp_thread_limit(argv);
	setlocale(LC_ALL, "");
	amc_err e;
	amc_err_clear(&e);

	static char tui_name[] = "tui";
	char *tui_argv[] = { argv[0], tui_name, NULL };
	if (argc < 2) {
		/* `amc` alone opens the terminal interface. */
		argc = 2;
		argv = tui_argv;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("amc %s\n", PACKAGE_VERSION);
		return 0;
	}
	const amc_cmd *cmd = NULL;
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(COMMANDS[i]->name, name))
			cmd = COMMANDS[i];
	if (!cmd) {
		char *s = amc_sanitize_dup(name);
		fprintf(stderr, "amc: unknown command '%s'\n", s);
		free(s);
		usage(stderr);
		return AMC_EUSAGE;
	}
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return amc_cli_help(cmd);

	if (check_retired_settings(&e) != 0)
		return amc_cli_fail(&e);

	amc_cli cli = { 0 };
	cli.argv0 = argv[0];
	if (amc_config_load(&cli.cfg, &e) != 0)
		return amc_cli_fail(&e);
	/* fleet.require_tls for every fleet connection (commands, host, Fleet view) */
	const char *rtls = amc_config_str(cli.cfg, "fleet", "require_tls");
	amc_pq_set_require_tls(!rtls || strcmp(rtls, "off") != 0);
	/* provider agent:claude / agent:codex, for every front end's launches */
	amc_launch_set_agent(amc_agentcli_planner_new);
	amc_agentcli_set_serve(&amc_agentcli_mcp_serve); /* its MCP endpoint: mcp/ is above the planners */
	if (amc_paths_home(cli.home, sizeof cli.home, &e) != 0) {
		amc_config_free(cli.cfg);
		return amc_cli_fail(&e);
	}
	char logpath[PATH_MAX + sizeof "/amc.log"];
	snprintf(logpath, sizeof logpath, "%s/amc.log", cli.home);
	if (amc_log_open(logpath, &e) != 0) {
		/* The log is a convenience: carry on without it, but say so once. */
		amc_cli_fail(&e);
	}
	const char *lvl = amc_config_str(cli.cfg, "core", "log_level");
	amc_log_set_level(!strcmp(lvl, "error") ? AMC_LOG_ERROR : !strcmp(lvl, "warn") ? AMC_LOG_WARN :
			  !strcmp(lvl, "debug") ? AMC_LOG_DEBUG : AMC_LOG_INFO);

	/* getopt names the program from argv[0]: "amc config: unrecognized option" */
	char prog[64];
	snprintf(prog, sizeof prog, "amc %s", argv[1]);
	argv[1] = prog;
	optind = 1;
	int rc = cmd->run(&cli, argc - 1, argv + 1);

	amc_store_close(cli.store);
	amc_config_free(cli.cfg);
	amc_log_close();
	return rc;
}
