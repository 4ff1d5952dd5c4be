/* amc host - the long-running fleet host agent (fleet/host.h). SIGTERM or
 * SIGINT stops it cleanly: it claims nothing more, lets running tasks finish
 * within fleet.stop_timeout_s and hands back what did not finish. */
#include <getopt.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "host/host.h"
#include "fleet/pq.h"

static atomic_int stop_flag;

static void on_stop(int sig)
{
	(void)sig;
	atomic_store(&stop_flag, 1);
}

static int host(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "devices", required_argument, 0, 'd' }, { "name", required_argument, 0, 'n' }, { 0, 0, 0, 0 } };
	const char *devices = NULL, *name = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:n:", opts, NULL)) != -1) {
		switch (c) {
		case 'd': devices = optarg; break;
		case 'n': name = optarg; break;
		default: return amc_cli_usage(&amc_cmd_host, "unknown option");
		}
	}
	if (optind < argc)
		return amc_cli_usage(&amc_cmd_host, "unexpected argument '%.60s'", argv[optind]);
	amc_err e;
	amc_err_clear(&e);
	char ids[AMC_HOST_DEVICES_MAX][128];
	size_t n;
	if (amc_host_parse_devices(devices, ids, AMC_HOST_DEVICES_MAX, &n, &e) != 0)
		return amc_cli_usage(&amc_cmd_host, "%s", e.msg);
	if (name && (strlen(name) > 100 || !*name))
		return amc_cli_usage(&amc_cmd_host, "--name takes 1 to 100 characters");
	const char *url = amc_config_str(cli->cfg, "fleet", "url");
	if (!url || !*url) {
		amc_err_set(&e, AMC_EUSAGE, "no fleet database: set url under [fleet] in the config file "
			    "or AMC_FLEET_URL to a PostgreSQL connection string");
		return amc_cli_fail(&e);
	}
	/* The store is made (and migrated) once here, before the slots open it. */
	amc_store *store;
	if (amc_cli_store(cli, &store, &e) != 0)
		return amc_cli_fail(&e);
	struct sigaction sa = { 0 }, old_int, old_term;
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	signal(SIGPIPE, SIG_IGN);
	atomic_store(&stop_flag, 0);
	amc_host_cfg hc = { url, cli->home, cli->cfg, name, devices };
	int rc = amc_host_run(&hc, &stop_flag, stdout, &e);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc == 0 ? 0 : amc_cli_fail(&e);
}

const amc_cmd amc_cmd_host = {
	"host",
	"host [--devices sim:0,sim:1,adb:SERIAL,adb:*] [--name NAME]",
	"run a fleet host: claim assignments from fleet.url and run them on these devices",
	"  -d, --devices LIST      the devices this host runs work on (default sim:0);\n"
	"                          adb:* is every phone `adb devices` lists as ready when\n"
	"                          the host starts (restart the host to add one later)\n"
	"  -n, --name NAME         the host's label in the fleet (default: the host name);\n"
	"                          `amc fleet submit --host NAME` sends work only here\n\n"
	"Each device claims queued assignments of its kind (FOR UPDATE SKIP LOCKED),\n"
	"runs them like `amc run` with the task's source set to the assignment and\n"
	"attempt, and renews its lease with the latest progress. SIGTERM stops claiming,\n"
	"lets running tasks finish within fleet.stop_timeout_s and hands back the rest.\n"
	"The host writes only through the fleet's functions (a host role needs no table\n"
	"rights), reaps by the settings `amc fleet init` stored, and prints whether its\n"
	"database connection uses TLS and whether the server's certificate was verified;\n"
	"fleet.require_tls (on by default) refuses a database that is not a Unix socket\n"
	"or loopback without TLS. It states its capabilities once (fleet.capabilities,\n"
	"plus agent=claude / agent=codex where that CLI can run and planner=on when a\n"
	"planner is configured) and each device's (kind, platform, os, model, screen,\n"
	"app=ID per installed app where the driver lists them); a device claims only\n"
	"work whose --needs its host's and its own capabilities have; the host says\n"
	"which its role was not granted (amc fleet grant). Its devices share one\n"
	"database connection beside the LISTEN session: two per host in all.\n"
	"An assignment's --timeout stops its task here; claim and end latencies go to\n"
	"`amc fleet metrics` with the heartbeat.\n"
	"See docs/fleet.md.\n",
	host,
};
