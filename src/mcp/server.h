/* server.h - `amc mcp`: the MCP server over stdio.
 *
 * One JSON-RPC message per line on `in` and `out` (jsonrpc.h); nothing else is
 * written to `out` (logs go to the log file). Protocol versions 2025-11-25,
 * 2025-06-18, 2025-03-26 and 2024-11-05 (the client's when it is one of them,
 * else the latest); ping; tools/list and tools/call over the six tools of
 * mcp_tools.h; logging/setLevel; notifications/cancelled; progress
 * notifications when a request carries _meta.progressToken.
 *
 * Concurrency: the calling thread reads; every tools/call runs on a worker
 * thread of its own, so a long run_task never blocks ping, cancel_task or
 * notifications/cancelled. Calls naming one device run in the order they
 * arrived (a ticket taken by the reader). End of input ends the server:
 * sessions end ("ended by the client"), calls still running are cancelled. */
#ifndef AMC_MCP_SERVER_H
#define AMC_MCP_SERVER_H

#include <stdio.h>

#include <stdatomic.h>

#include "util/config.h"
#include "util/err.h"

/* How long an MCP session may stay idle before its task ends and the device
 * is released, unless --idle-timeout says otherwise. */
#define AMC_MCP_IDLE_DEFAULT_S 600L
/* How long an irreversible-looking action waits for a person's answer. */
#define AMC_MCP_CONFIRM_TIMEOUT_S 120L
/* Calls running at once; one more is answered -32603 "busy". */
#define AMC_MCP_CALLS_MAX 32

typedef struct amc_mcp_opts {
	const char *home;        /* $AMC_HOME */
	const amc_config *cfg;
	FILE *in, *out;
	int assume_yes;          /* --yes: irreversible-looking actions run without asking */
	long idle_s;             /* <= 0: AMC_MCP_IDLE_DEFAULT_S */
	long confirm_s;          /* <= 0: AMC_MCP_CONFIRM_TIMEOUT_S */
	/* Set from another thread to end as at end of input (the client is
	 * going: SIGTERM, cmd_mcp.c), then interrupt the blocked read with a
	 * signal (EINTR); the server sets *left once it reads no more. NULL: none. */
	atomic_int *stop, *left;
	/* Not NULL: serve one task someone else runs (an agent CLI's connection
	 * during `amc run --agent`, mcp_session.h's amc_mcp_session_attach): only
	 * observe and act are offered, every call acts on this session whatever
	 * device it names, no session is started and none ends with the
	 * connection. Not owned. */
	struct amc_mcp_session *attached;
} amc_mcp_opts;

/* Serve until end of input. 0 on a clean end; -1 when it could not start. */
int amc_mcp_serve(const amc_mcp_opts *o, amc_err *e);

#endif
