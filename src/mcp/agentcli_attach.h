/* agentcli_attach.h - the MCP endpoint of an agent run, and the thin
 * `amc mcp --attach SOCKET` that an agent CLI starts as its MCP server.
 *
 * An agent CLI (Claude Code, Codex) starts its MCP servers itself, as child
 * processes speaking MCP on stdio. A plain `amc mcp` child would open a task of
 * its own and take the device lock that the run already holds; so the run
 * serves MCP itself, on a Unix socket in a private folder (mode 0700, the
 * peer's uid checked), attached to the run's own task (server.h's
 * `attached`), and the CLI's child only forwards bytes between its stdio and
 * that socket. Confirmations stay with the run (its terminal or TUI): nothing
 * of them passes through the CLI. */
#ifndef AMC_AGENTCLI_ATTACH_H
#define AMC_AGENTCLI_ATTACH_H

#include <stddef.h>

#include "planner/agentcli.h"
#include "mcp/mcp_session.h"
#include "util/config.h"
#include "util/err.h"

typedef struct amc_agentcli_endpoint amc_agentcli_endpoint;

/* Listen on a new socket in a fresh private folder under $TMPDIR (or /tmp),
 * serving `session` (not owned; must outlive the endpoint) to every
 * connection on a thread of its own. *out is the caller's
 * (amc_agentcli_endpoint_close); the socket's path goes into path (n bytes). */
int amc_agentcli_endpoint_open(const char *home, const amc_config *cfg, amc_mcp_session *session,
			       amc_agentcli_endpoint **out, char *path, size_t n, amc_err *e);
/* Connections served so far. */
int amc_agentcli_endpoint_connections(amc_agentcli_endpoint *ep);
/* Stop listening, end the connections (their calls finish first), join,
 * remove the socket and its folder, free. NULL is ignored. */
void amc_agentcli_endpoint_close(amc_agentcli_endpoint *ep);

/* The above with the session it serves, as an agent run needs it
 * (agentcli.h): the session attached to the run's task, then the endpoint. */
extern const amc_agentcli_serve amc_agentcli_mcp_serve;

/* `amc mcp --attach SOCKET`: copy stdin to the socket and the socket to
 * stdout until both ends are done. 0 on a clean end; -1 with e when the
 * socket cannot be reached (the run is gone). */
int amc_agentcli_forward(const char *socket_path, amc_err *e);

#endif
