/* mcp_call.h - what a tool handler (mcp_tools.c, mcp_act.c) gets: the
 * server's options and one tools/call, with the session and run registry
 * (registry.h) and a way to report progress. Handlers never call back into
 * the transport (server.c): it fills this in. */
#ifndef AMC_MCP_CALL_H
#define AMC_MCP_CALL_H

#include <stdatomic.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "util/config.h"

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

/* Screenshots go to the client with their long edge at most this many pixels
 * (docs/mcp.md says why). */
#define AMC_MCP_IMAGE_EDGE 1024
/* observe in a session captures the screen again unless the one its task
 * holds is younger than this (ms): an act's after-screen read right away is
 * not captured twice, anything older is (docs/mcp.md). */
#define AMC_MCP_FRESH_MS 500
/* Scene JSON in a text result is cut at this many bytes (with a note). */
#define AMC_MCP_SCENE_TEXT_MAX 32768
/* act's text: the action's result (list_apps' ids) up to this many bytes;
 * structuredContent has all of it. */
#define AMC_MCP_ACT_RESULT_TEXT 16384
/* `task` lists at most this many steps (the latest). */
#define AMC_MCP_TASK_STEPS_MAX 30

struct amc_mcp_reg;
typedef struct amc_mcp_call amc_mcp_call;

/* One tools/call as a handler sees it. */
struct amc_mcp_call {
	const amc_mcp_opts *o;
	struct amc_mcp_reg *reg;     /* sessions and runs (registry.h) */
	const cJSON *args;           /* the arguments object (never NULL) */
	atomic_int *cancel;          /* set by notifications/cancelled */
	const cJSON *progress_token; /* NULL: the client asked for no progress */
	/* Send notifications/progress for the call (nothing without a token);
	 * `transport` is the transport's own. */
	void (*progress)(const amc_mcp_call *c, double progress, double total, const char *message);
	void *transport;
};

#endif
