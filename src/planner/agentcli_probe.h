/* agentcli_probe.h - what amc can know about a coding agent's CLI without
 * a model call, and whose bill a run goes on.
 *
 * The snapshot (amc providers, amc doctor): where the CLI is (PATH or the
 * agent.claude_path / agent.codex_path setting), whether `--version` runs and
 * what it printed, the login it would use (a subscription login file, an API
 * key in the environment, both, or none) and the billing that follows; each
 * fact with its source and the time it was observed. What cannot be known
 * without a model call (whether the login still works, the plan's limits)
 * is "unknown", never guessed.
 *
 * Billing (amc_agentcli_billing_decide): a subscription login is never
 * switched to API billing behind the user's back. With both a login and a key,
 * the key is passed to the CLI only when the user chose API billing
 * (--billing api / agent.billing = api); with only a key and no choice amc
 * asks (and refuses under --yes). */
#ifndef AMC_AGENTCLI_PROBE_H
#define AMC_AGENTCLI_PROBE_H

#include <limits.h>
#include <cjson/cJSON.h>

#include "util/config.h"
#include "util/err.h"

typedef enum amc_agent_kind { AMC_AGENT_CLAUDE, AMC_AGENT_CODEX } amc_agent_kind;

/* "claude", "codex". */
const char *amc_agentcli_kind_name(amc_agent_kind k);
/* The CLI's name for people: "Claude Code", "Codex". */
const char *amc_agentcli_kind_title(amc_agent_kind k);
/* "claude", "codex", "agent:claude", "agent:codex" -> *k. -1 otherwise. */
int amc_agentcli_kind_parse(const char *s, amc_agent_kind *k);

typedef struct amc_agentcli_probe {
	amc_agent_kind kind;
	long long observed_ms;        /* wall clock */
	int found;
	char path[PATH_MAX];          /* the executable; "" when not found */
	char path_source[96];         /* "PATH" or "config agent.claude_path" */
	int version_ok;               /* --version ran and exited 0 */
	char version[128];            /* its first line, terminal-safe; "" */
	char version_error[512];      /* why it did not run, with what to do; "" */
	/* The login the CLI would use. */
	int login;                    /* a subscription login is present */
	char login_source[PATH_MAX + 64]; /* the file (or variable) it was read from */
	char plan[32];                /* the plan named in the login file ("max", "pro", "plus"); "" unknown */
	int key;                      /* an API key is in amc's environment */
	char key_var[32];             /* its variable */
	char auth_mode[24];           /* "subscription", "api_key", "subscription+api_key", "none" */
	char billing_mode[24];        /* "included plan", "pay-as-you-go", "unknown" */
	char billing_source[200];
} amc_agentcli_probe;

/* Look the CLI up and read its login; run `--version` (bounded to 15 s)
 * only when run_version. Never fails: what is missing is said in *out. */
void amc_agentcli_probe_run(const amc_config *cfg, amc_agent_kind k, int run_version, amc_agentcli_probe *out);
/* The snapshot as JSON (the caller owns it): {name, cli, found, path,
 * path_source, version, version_ok, version_error, auth_mode, auth_source,
 * plan, billing_mode, billing_source, health: "unknown", observed_at}. */
cJSON *amc_agentcli_probe_json(const amc_agentcli_probe *p);

typedef enum amc_billing_choice {
	AMC_BILLING_AUTO,          /* nobody said */
	AMC_BILLING_SUBSCRIPTION,
	AMC_BILLING_API
} amc_billing_choice;

/* "auto", "subscription", "api" -> *c; -1 otherwise. */
int amc_agentcli_billing_parse(const char *s, amc_billing_choice *c);

typedef struct amc_agentcli_billing {
	int api;                   /* 1: API billing (the key goes to the CLI; Claude Code runs --bare) */
	char mode[24];             /* "subscription" or "api", as recorded with the task */
	char why[300];             /* one line saying which and why, for the person */
} amc_agentcli_billing;

/* Decide. 0: decided (*out). 1: amc cannot tell what the user wants (only an
 * API key, no login, no stated choice): out->why holds the question to ask;
 * answering yes means AMC_BILLING_API. -1: cannot run (e says what to do: no
 * login and no key, or the chosen mode's credential missing). */
int amc_agentcli_billing_decide(const amc_agentcli_probe *p, amc_billing_choice choice, amc_agentcli_billing *out,
				amc_err *e);

#endif
