/* agentcli.h - a coding agent's CLI (Claude Code, Codex) as the planner of a
 * goal, on the user's own login.
 *
 * The planner is an external planner (planner/extplanner.h) whose actions come
 * from the CLI: on the task's first step it starts the run's MCP endpoint
 * (amc_agentcli_serve, which the front end hands in: observe and act on this
 * task only), writes the CLI's
 * private configuration under $AMC_HOME/agents/TASK/ (Claude Code: an MCP
 * config used with --strict-mcp-config and no setting sources; Codex: a
 * private CODEX_HOME holding amc's config.toml and a link to the user's
 * auth.json; removed when the planner is freed), and starts the CLI
 * non-interactively: an argv array, stdin from /dev/null, its own process
 * group, that folder as its working folder, built-in tools off, amc's two
 * tools allowed. Each act is an ordinary recorded step.
 *
 * The task ends when the agent calls act finish (then the CLI is given a
 * moment to exit and its final usage is read), or when the CLI exits, dies,
 * loops or runs past agent.timeout_s: then the task fails with a reason a
 * person can act on and the CLI's process group is ended. Cancelling the task
 * ends the group too. Usage (tokens, cost, turns, session id, billing) is the
 * final decision of the task (planner_decisions), and its tokens and cost the
 * task's, except that a cost reported on a subscription run is notional: kept
 * in the decision, not charged to the task. */
#ifndef AMC_AGENTCLI_H
#define AMC_AGENTCLI_H

#include <stddef.h>

#include "planner/agentcli_probe.h"
#include "planner/extplanner.h"
#include "runtime/planner.h"
#include "util/config.h"
#include "util/err.h"

/* Where an agent run's MCP calls are served: the run's own MCP endpoint on a
 * private socket, attached to its task (agentcli_attach.h's
 * amc_agentcli_mcp_serve). MCP sits above the planners (its server launches
 * tasks), so the planner does not call it: the front end hands it in with
 * amc_agentcli_set_serve, as it hands this planner to launch/. */
typedef struct amc_agentcli_serve {
	/* Serve MCP for task_id on device, its calls handed to x (not owned;
	 * it outlives the endpoint), on a new socket whose path goes into path
	 * (n bytes). *out is the caller's (close). */
	int (*open)(const char *home, const amc_config *cfg, amc_extplanner *x, const char *task_id,
		    const char *device, void **out, char *path, size_t n, amc_err *e);
	/* 1 once the MCP client has ended the session. */
	int (*ended)(void *served);
	/* Stop serving (calls in flight finish first) and free; NULL is ignored. */
	void (*close)(void *served);
	int image_edge;   /* long edge of the screenshots the endpoint serves */
} amc_agentcli_serve;

/* Set once, before the first planner is made (main.c); not owned. */
void amc_agentcli_set_serve(const amc_agentcli_serve *s);

/* The planner for provider "agent:claude" / "agent:codex" (planner.provider,
 * `amc run --agent`), model as given (NULL or "": the CLI's default). The
 * billing is agent.billing of cfg; a run on a billing the user did not choose
 * is refused here (AMC_EUSAGE saying to pass --billing), before any task is
 * recorded; so is a front end that serves no MCP (amc_agentcli_set_serve:
 * AMC_EENV). cfg must outlive the planner. *out is the caller's. */
int amc_agentcli_planner_new(const amc_config *cfg, const char *provider, const char *model, amc_planner **out,
			     amc_err *e);

#endif
