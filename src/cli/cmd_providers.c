/* amc providers - a passive capability snapshot of each model provider. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/agentcli_probe.h"
#include "cli/cli.h"
#include "llm/providers.h"
#include "util/jsonutil.h"

static void field(const cJSON *p, const char *label, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, key);
	printf("  %-13s", label);
	if (cJSON_IsString(v))
		amc_cli_put_safe(stdout, v->valuestring);
	else if (cJSON_IsBool(v))
		fputs(cJSON_IsTrue(v) ? "yes" : "no", stdout);
	else
		fputs("unknown", stdout);
	putchar('\n');
}

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, 0, 'j' },
		{ "offline", no_argument, 0, 'o' },
		{ 0, 0, 0, 0 },
	};
	int json = 0, offline = 0, c;
	while ((c = getopt_long(argc, argv, "jo", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'o': offline = 1; break;
		default: return amc_cli_usage(&amc_cmd_providers, "unknown option");
		}
	}
	if (optind < argc)
		return amc_cli_usage(&amc_cmd_providers, "unexpected argument '%s'", argv[optind]);
	cJSON *snap = amc_providers_snapshot(cli->home, cli->cfg, offline);
	/* coding agents' CLIs: found, version, login and billing; no model call */
	cJSON *agents = cJSON_AddArrayToObject(snap, "agents");
	for (int k = AMC_AGENT_CLAUDE; k <= AMC_AGENT_CODEX; k++) {
		amc_agentcli_probe pr;
		amc_agentcli_probe_run(cli->cfg, (amc_agent_kind)k, 1, &pr);
		cJSON_AddItemToArray(agents, amc_agentcli_probe_json(&pr));
	}
	if (json) {
		amc_cli_print_json(snap);
		return 0;
	}
	const cJSON *p;
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(snap, "providers")) {
		printf("%s\n", amc_json_str(p, "name"));
		field(p, "configured", "configured");
		if (amc_json_str(p, "setup"))
			field(p, "to set up", "setup");
		field(p, "source", "source");
		field(p, "base url", "base_url");
		field(p, "auth", "auth_mode");
		field(p, "billing", "billing_mode");
		field(p, "health", "health");
		if (amc_json_str(p, "health_detail"))
			field(p, "detail", "health_detail");
		field(p, "observed", "observed_at");
		field(p, "expires", "expires_at");
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(p, "models"), *id;
		printf("  %-13s", "models");
		if (!cJSON_IsArray(m))
			fputs("unknown", stdout);
		else {
			int k = 0;
			cJSON_ArrayForEach(id, m) {
				if (k++)
					fputs(", ", stdout);
				amc_cli_put_safe(stdout, cJSON_IsString(id) ? id->valuestring : "?");
			}
		}
		printf("\n\n");
	}
	cJSON_ArrayForEach(p, agents) {
		printf("%s (%s)\n", amc_json_str(p, "name"), amc_json_str(p, "cli"));
		field(p, "found", "found");
		field(p, "path", "path");
		field(p, "from", "path_source");
		field(p, "version", "version");
		if (amc_json_str(p, "version_error"))
			field(p, "problem", "version_error");
		field(p, "auth", "auth_mode");
		field(p, "auth from", "auth_source");
		field(p, "plan", "plan");
		field(p, "billing", "billing_mode");
		field(p, "because", "billing_source");
		field(p, "health", "health");
		field(p, "observed", "observed_at");
		putchar('\n');
	}
	cJSON_Delete(snap);
	return 0;
}

const amc_cmd amc_cmd_providers = {
	"providers",
	"providers [--json] [--offline]",
	"what each model provider offers now (no model call; model catalogs cached for an hour)",
	"  -j, --json      JSON on stdout; unknown values are null\n"
	"  -o, --offline   read nothing over the network (catalogs only from a fresh cache)\n\n"
	"Providers: anthropic (ANTHROPIC_API_KEY or llm.anthropic_key_file, ANTHROPIC_BASE_URL)\n"
	"and an OpenAI-compatible local server (AMC_OPENAI_BASE_URL, optional OPENAI_API_KEY).\n"
	"Coding agents (amc run --agent claude|codex): where the CLI is, whether --version runs,\n"
	"the login it would use and the billing that follows (docs/llm.md).\n",
	run,
};
