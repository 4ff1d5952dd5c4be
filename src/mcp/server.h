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

#include "mcp/mcp_call.h"
#include "util/err.h"


/* Serve until end of input. 0 on a clean end; -1 when it could not start. */
int amc_mcp_serve(const amc_mcp_opts *o, amc_err *e);

#endif
