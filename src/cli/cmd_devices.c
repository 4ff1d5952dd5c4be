/* amc devices - the devices amc can drive and whether they are free. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "device/manager.h"
#include "util/sanitize.h"

static int run(amc_cli *cli, int argc, char **argv)
{
	int json = 0, rc = amc_cli_json_only(&amc_cmd_devices, argc, argv, &json);
	if (rc != 0)
		return rc;
	amc_device_entry *v = NULL;
	size_t n = 0;
	char warn[AMC_ERR_MSG_MAX + 64];
	amc_err e;
	if (amc_devices_list(cli->home, cli->cfg, &v, &n, warn, sizeof warn, &e) != 0)
		return amc_cli_fail(&e);
	cJSON *arr = json ? cJSON_CreateArray() : NULL;
	if (!json)
		printf("%-24s %-6s %-20s %-10s %-8s %s\n", "ID", "KIND", "MODEL", "SCREEN", "STATUS", "TASK");
	for (size_t i = 0; i < n; i++) {
		amc_device_entry *d = &v[i];
		/* Entries are terminal-safe already (the manager sanitizes what came from devices). */
		if (json) {
			cJSON *j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "id", d->id);
			cJSON_AddStringToObject(j, "kind", d->kind);
			if (d->model[0])
				cJSON_AddStringToObject(j, "model", d->model);
			else
				cJSON_AddNullToObject(j, "model");
			if (d->width > 0) {
				cJSON_AddNumberToObject(j, "width", d->width);
				cJSON_AddNumberToObject(j, "height", d->height);
			} else {
				cJSON_AddNullToObject(j, "width");
				cJSON_AddNullToObject(j, "height");
			}
			cJSON_AddStringToObject(j, "status", d->status);
			if (d->task[0])
				cJSON_AddStringToObject(j, "task", d->task);
			else
				cJSON_AddNullToObject(j, "task");
			if (d->note[0])
				cJSON_AddStringToObject(j, "note", d->note);
			cJSON_AddItemToArray(arr, j);
		} else {
			char screen[32] = "-";
			if (d->width > 0)
				snprintf(screen, sizeof screen, "%dx%d", d->width, d->height);
			printf("%-24s %-6s %-20.20s %-10s %-8s %s\n", d->id, d->kind, d->model[0] ? d->model : "-", screen,
			       d->status, d->task[0] ? d->task : "-");
			if (d->note[0])
				printf("%-24s   %s\n", "", d->note);
		}
	}
	free(v);
	if (json)
		amc_cli_print_json(arr);
	/* A missing adb is not an error here; say so only when the user asked for
	 * a specific adb program. Other remarks (a bad [appium] endpoint) always. */
	if (warn[0] && (strncmp(warn, "no adb devices", 14) || strcmp(amc_config_str(cli->cfg, "adb", "path"), "adb"))) {
		char *s = amc_sanitize_dup(warn);
		fprintf(stderr, "amc devices: %s\n", s);
		free(s);
	}
	return 0;
}

const amc_cmd amc_cmd_devices = {
	"devices",
	"devices [--json]",
	"list devices: id, kind, model, screen size, status and the task running on it",
	"  -j, --json   JSON array on stdout: {id, kind, model, width, height, status, task, note?}\n\n"
	"Status is online, offline (note says why and what to do) or busy (task says which).\n"
	"sim:0 is always there; sim:N appears once it has been used (amc sim --device sim:N ...).\n"
	"Phones come from `adb devices -l` (ids adb:SERIAL; [adb] path names the program),\n"
	"Appium servers from [appium] endpoints (ids appium:URL; online when /status answers).\n"
	"Any of these ids goes to --device. `amc doctor` explains a missing or unauthorized phone.\n",
	run,
};
