/* cmd_mcp.c - `amc mcp`: the MCP server over stdio (src/mcp/server.h), and
 * --print-config, the snippet that adds it to Claude Code or Codex. */
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcp/agentcli_attach.h"
#include "cli/cli.h"
#include "mcp/server.h"
#include "util/strbuf.h"

/* A word for a POSIX shell: as is when plain, else in single quotes. */
static void shell_word(amc_sb *sb, const char *s)
{
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+:=@%,") == strlen(s)) {
		amc_sb_puts(sb, s);
		return;
	}
	amc_sb_putc(sb, '\'');
	for (; *s; s++)
		if (*s == '\'')
			amc_sb_puts(sb, "'\\''");
		else
			amc_sb_putc(sb, *s);
	amc_sb_putc(sb, '\'');
}

/* A TOML basic string. */
static void toml_str(amc_sb *sb, const char *s)
{
	amc_sb_putc(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			amc_sb_printf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			amc_sb_printf(sb, "\\u%04x", c);
		else
			amc_sb_putc(sb, (char)c);
	}
	amc_sb_putc(sb, '"');
}

static int print_config(amc_cli *cli, const char *what, int yes)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0) {
		if (!realpath(cli->argv0, exe))
			snprintf(exe, sizeof exe, "%s", cli->argv0);
	} else
		exe[n] = '\0';
	const char *home = getenv("AMC_HOME");
	if (home && !*home)
		home = NULL;
	amc_sb sb;
	amc_sb_init(&sb);
	cJSON *j = NULL;
	if (!strcmp(what, "json") || !strcmp(what, "claude")) {
		j = cJSON_CreateObject();
		cJSON *amc = cJSON_AddObjectToObject(cJSON_AddObjectToObject(j, "mcpServers"), "amc");
		cJSON_AddStringToObject(amc, "command", exe);
		cJSON *args = cJSON_AddArrayToObject(amc, "args");
		cJSON_AddItemToArray(args, cJSON_CreateString("mcp"));
		if (yes)
			cJSON_AddItemToArray(args, cJSON_CreateString("--yes"));
		if (home)
			cJSON_AddStringToObject(cJSON_AddObjectToObject(amc, "env"), "AMC_HOME", home);
	}
	if (!strcmp(what, "claude")) {
		amc_sb_puts(&sb, "# Claude Code: run this once (`claude mcp add --scope project amc ...` shares it in .mcp.json)\nclaude mcp add amc");
		if (home) {
			amc_sb_puts(&sb, " -e ");
			char kv[PATH_MAX + 16];
			snprintf(kv, sizeof kv, "AMC_HOME=%s", home);
			shell_word(&sb, kv);
		}
		amc_sb_puts(&sb, " -- ");
		shell_word(&sb, exe);
		amc_sb_puts(&sb, yes ? " mcp --yes\n\n# or this entry in .mcp.json:\n" : " mcp\n\n# or this entry in .mcp.json:\n");
		char *t = cJSON_Print(j);
		amc_sb_printf(&sb, "%s\n", t);
		free(t);
	} else if (!strcmp(what, "json")) {
		char *t = cJSON_Print(j);
		amc_sb_printf(&sb, "%s\n", t);
		free(t);
	} else if (!strcmp(what, "codex")) {
		amc_sb_puts(&sb, "# Codex: add to ~/.codex/config.toml\n[mcp_servers.amc]\ncommand = ");
		toml_str(&sb, exe);
		amc_sb_puts(&sb, yes ? "\nargs = [\"mcp\", \"--yes\"]\n" : "\nargs = [\"mcp\"]\n");
		if (home) {
			amc_sb_puts(&sb, "env = { AMC_HOME = ");
			toml_str(&sb, home);
			amc_sb_puts(&sb, " }\n");
		}
	} else {
		amc_sb_free(&sb);
		return amc_cli_usage(&amc_cmd_mcp, "--print-config takes claude, codex or json");
	}
	cJSON_Delete(j);
	fputs(amc_sb_str(&sb), stdout);
	amc_sb_free(&sb);
	return 0;
}

/* SIGTERM, SIGINT and SIGHUP end the server as the end of its input does
 * (Claude Code ends its stdio servers with SIGTERM, stdin still open): the
 * session tasks record their ends instead of being left for `interrupted`.
 * The signals are blocked in every thread and taken by one that sigwait()s;
 * it sets the server's stop flag and interrupts the main thread's read with
 * SIGUSR2 (no SA_RESTART) until the server says it reads no more. */
static atomic_int sig_stop, sig_left;
static pthread_t main_thread;
static sigset_t stop_set;

static void on_usr2(int sig)
{
	(void)sig;
}

static void *signal_main(void *arg)
{
	(void)arg;
	int sig;
	if (sigwait(&stop_set, &sig) != 0)
		return NULL;
	atomic_store(&sig_stop, 1);
	while (!atomic_load(&sig_left)) {
		pthread_kill(main_thread, SIGUSR2);
		usleep(50000);
	}
	return NULL;
}

static void catch_stop_signals(void)
{
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGTERM);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGHUP);
	struct sigaction sa = { 0 };
	sa.sa_handler = on_usr2;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	pthread_sigmask(SIG_BLOCK, &stop_set, NULL);
	main_thread = pthread_self();
	pthread_t t;
	if (pthread_create(&t, NULL, signal_main, NULL) == 0)
		pthread_detach(t);
}

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "yes", no_argument, NULL, 'y' },
		{ "idle-timeout", required_argument, NULL, 'i' },
		{ "confirm-timeout", required_argument, NULL, 'c' },
		{ "print-config", required_argument, NULL, 'p' },
		{ "attach", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	int c, yes = 0;
	long idle = 0, confirm = 0;
	const char *print = NULL, *attach = NULL;
	amc_err e;
	while ((c = getopt_long(argc, argv, "y", opts, NULL)) != -1) {
		switch (c) {
		case 'y': yes = 1; break;
		case 'i':
			if (amc_cli_int("--idle-timeout", optarg, 1, 86400, &idle, &e) != 0)
				return amc_cli_usage(&amc_cmd_mcp, "%s", e.msg);
			break;
		case 'c':
			if (amc_cli_int("--confirm-timeout", optarg, 1, 3600, &confirm, &e) != 0)
				return amc_cli_usage(&amc_cmd_mcp, "%s", e.msg);
			break;
		case 'p': print = optarg; break;
		case 'a': attach = optarg; break;
		default: return 2;
		}
	}
	if (optind < argc)
		return amc_cli_usage(&amc_cmd_mcp, "unexpected argument '%s'", argv[optind]);
	if (print)
		return print_config(cli, print, yes);
	if (attach) {
		/* started by an agent CLI during `amc run --agent`: the run serves */
		if (yes || idle || confirm)
			return amc_cli_usage(&amc_cmd_mcp, "--attach takes no other option (the run decides)");
		if (amc_agentcli_forward(attach, &e) != 0)
			return amc_cli_fail(&e);
		return 0;
	}
	/* the store exists and is migrated, and tasks of dead processes are
	 * marked interrupted, before the first client call */
	amc_store *store;
	if (amc_cli_store(cli, &store, &e) != 0)
		return amc_cli_fail(&e);
	catch_stop_signals();
	amc_mcp_opts o = { .home = cli->home, .cfg = cli->cfg, .in = stdin, .out = stdout,
			   .assume_yes = yes, .idle_s = idle, .confirm_s = confirm, .stop = &sig_stop, .left = &sig_left };
	if (amc_mcp_serve(&o, &e) != 0)
		return amc_cli_fail(&e);
	return 0;
}

const amc_cmd amc_cmd_mcp = {
	"mcp",
	"mcp [--yes] [--idle-timeout S] [--confirm-timeout S] [--print-config claude|codex|json] | --attach SOCKET",
	"the MCP server over stdio: Claude Code, Codex and other MCP clients drive devices, every call recorded",
	"  -y, --yes              irreversible-looking actions run without asking a person\n"
	"                         (no tool argument can confirm one: a model never confirms its own tap)\n"
	"      --idle-timeout S   end a session's task and release its device after S seconds\n"
	"                         without a call (default 600)\n"
	"      --confirm-timeout S  wait S seconds for a person's yes (default 120), then refuse\n"
	"      --print-config claude|codex|json\n"
	"                         print the snippet that adds this amc to the client and exit\n"
	"      --attach SOCKET    forward stdio to a running `amc run --agent` (what the agent CLI\n"
	"                         starts; it serves observe and act on that run's task only)\n\n"
	"Speaks MCP (JSON-RPC, one message per line) on stdin/stdout; logs go to $AMC_HOME/amc.log.\n"
	"Tools: devices, observe, act, run_task, task, cancel_task. The first act on a device\n"
	"starts a task (planner mcp) that holds the device; each act is a recorded step, live in\n"
	"amc's TUI. An irreversible-looking tap is asked through the client (MCP elicitation) or,\n"
	"when it cannot ask, in amc's TUI on the same AMC_HOME. See docs/mcp.md.\n",
	run,
};
