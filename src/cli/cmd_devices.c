/* amc devices - the devices amc can drive and whether they are free. */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "device/device.h"
#include "util/lockfile.h"
#include "util/sanitize.h"

/* sim:0 always; other sims once they have state under $AMC_HOME/sim/N. */
static int list_sims(const char *home, int *ids, int max)
{
	int n = 0;
	ids[n++] = 0;
	char dir[PATH_MAX];
	if ((size_t)snprintf(dir, sizeof dir, "%s/sim", home) >= sizeof dir)
		return n;
	DIR *d = opendir(dir);
	if (!d)
		return n;
	struct dirent *de;
	while ((de = readdir(d)) && n < max) {
		size_t len = strlen(de->d_name);
		if (len == 0 || len > 4 || strspn(de->d_name, "0123456789") != len)
			continue;
		int id = atoi(de->d_name);
		if (id != 0)
			ids[n++] = id;
	}
	closedir(d);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
			int t = ids[j];
			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	return n;
}

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = { { "json", no_argument, 0, 'j' }, { 0, 0, 0, 0 } };
	int json = 0, c;
	while ((c = getopt_long(argc, argv, "j", opts, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else
			return amc_cli_usage(&amc_cmd_devices, "unknown option");
	}
	if (optind < argc)
		return amc_cli_usage(&amc_cmd_devices, "unexpected argument '%s'", argv[optind]);
	int ids[256];
	int n = list_sims(cli->home, ids, 256);
	cJSON *arr = json ? cJSON_CreateArray() : NULL;
	if (!json)
		printf("%-10s %-5s %-12s %-10s %-8s %s\n", "ID", "KIND", "MODEL", "SCREEN", "STATUS", "TASK");
	for (int i = 0; i < n; i++) {
		char id[32], lock[200], holder[256] = "";
		snprintf(id, sizeof id, "sim:%d", ids[i]);
		amc_device_lock_name(id, lock, sizeof lock);
		int held = amc_lock_is_held(cli->home, lock, holder, sizeof holder);
		char task[64] = "";
		if (held == 1) {
			snprintf(task, sizeof task, "%s", holder);
			char *sp = strchr(task, ' ');
			if (sp)
				*sp = '\0';
			if (!strcmp(task, "-"))
				task[0] = '\0';
		}
		amc_device_info info = { 0 };
		amc_device *dev = NULL;
		amc_err e;
		const char *status = held == 1 ? "busy" : "online";
		/* Opening a sim only reads its state; a busy one is still described. */
		if (amc_device_open(id, cli->home, cli->cfg, &dev, &e) != 0 || dev->ops->info(dev, &info, &e) != 0)
			status = "offline";
		amc_device_close(dev);
		char *safe_task = amc_sanitize_dup(task);
		if (json) {
			cJSON *j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "id", id);
			cJSON_AddStringToObject(j, "kind", "sim");
			cJSON_AddStringToObject(j, "model", info.model);
			cJSON_AddNumberToObject(j, "width", info.width);
			cJSON_AddNumberToObject(j, "height", info.height);
			cJSON_AddStringToObject(j, "status", status);
			if (task[0])
				cJSON_AddStringToObject(j, "task", task);
			else
				cJSON_AddNullToObject(j, "task");
			cJSON_AddItemToArray(arr, j);
		} else {
			char screen[32];
			snprintf(screen, sizeof screen, "%dx%d", info.width, info.height);
			printf("%-10s %-5s %-12.12s %-10s %-8s %s\n", id, "sim", info.model, screen, status,
			       safe_task[0] ? safe_task : "-");
		}
		free(safe_task);
	}
	if (json)
		amc_cli_print_json(arr);
	return 0;
}

const amc_cmd amc_cmd_devices = {
	"devices",
	"devices [--json]",
	"list devices: id, kind, model, screen size, status and the task running on it",
	"  -j, --json   JSON array on stdout\n\n"
	"sim:0 is always there; sim:N appears once it has been used (amc sim --device sim:N ...).\n",
	run,
};
