/* amc config - the effective configuration and where each value came from. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/fsutil.h"
#include "util/paths.h"

static int run(amc_cli *cli, int argc, char **argv)
{
	int json = 0, rc = amc_cli_json_only(&amc_cmd_config, argc, argv, &json);
	if (rc != 0)
		return rc;
	const char *file = amc_config_file_path(cli->cfg);
	char data[PATH_MAX] = "";
	amc_paths_data_dir(data, sizeof data, NULL);
	if (json) {
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "file", file);
		cJSON_AddBoolToObject(j, "file_exists", amc_file_exists(file));
		cJSON_AddStringToObject(j, "home", cli->home);
		cJSON_AddStringToObject(j, "data_dir", data);
		cJSON *arr = cJSON_AddArrayToObject(j, "settings");
		for (size_t i = 0; i < amc_config_count(cli->cfg); i++) {
			amc_config_item it = amc_config_item_at(cli->cfg, i);
			cJSON *s = cJSON_CreateObject();
			cJSON_AddStringToObject(s, "section", it.section);
			cJSON_AddStringToObject(s, "key", it.key);
			cJSON_AddStringToObject(s, "value", it.value);
			cJSON_AddStringToObject(s, "origin", it.origin);
			cJSON_AddStringToObject(s, "help", it.help);
			cJSON_AddItemToArray(arr, s);
		}
		amc_cli_print_json(j);
		return 0;
	}
	printf("# config file: ");
	amc_cli_put_safe(stdout, file);
	printf("%s\n# data: ", amc_file_exists(file) ? "" : " (not present: defaults apply)");
	amc_cli_put_safe(stdout, cli->home);
	printf("\n# bundled data: ");
	amc_cli_put_safe(stdout, data);
	printf("\n# precedence: command line, environment (AMC_SECTION_KEY), file, default\n");
	const char *section = "";
	for (size_t i = 0; i < amc_config_count(cli->cfg); i++) {
		amc_config_item it = amc_config_item_at(cli->cfg, i);
		if (strcmp(section, it.section)) {
			printf("\n[%s]\n", it.section);
			section = it.section;
		}
		printf("# %s\n%s = ", it.help, it.key);
		amc_cli_put_safe(stdout, it.value);
		printf("    # from ");
		amc_cli_put_safe(stdout, it.origin);
		printf("\n");
	}
	return 0;
}

const amc_cmd amc_cmd_config = {
	"config",
	"config [--json]",
	"print the effective configuration and where each value came from",
	"  -j, --json   JSON on stdout\n\n"
	"The file is $XDG_CONFIG_HOME/amc/config (else ~/.config/amc/config): `key = value`\n"
	"lines under [section] headers. Every key can also be set as AMC_<SECTION>_<KEY>.\n",
	run,
};
