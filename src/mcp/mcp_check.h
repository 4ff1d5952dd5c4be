/* mcp_check.h - a client's flow before it runs: run_task {flow, check_only}
 * (`amc flow check` of a path or YAML text, no task) and the gate a client's
 * flow passes before a run (its irreversible-looking taps). mcp_check.c. */
#ifndef AMC_MCP_CHECK_H
#define AMC_MCP_CHECK_H

#include <cjson/cJSON.h>

#include "mcp/mcp_call.h"
#include "util/err.h"

/* What problems a check result lists at most (the summary counts the rest). */
#define AMC_MCP_CHECK_PROBLEMS_MAX 100

/* 1 when run_task's flow argument is YAML text rather than a path: it has a
 * line break and names no file. */
int amc_mcp_flow_is_text(const char *flow);

/* A client's flow is the client's action: 0 when no tap of it (tapOn,
 * longPressOn, doubleTapOn) names an irreversible-looking word; -1 with *e
 * naming the first such line of `text` (`name` is how the message calls the
 * flow) and *line set (may be NULL). Flows it calls by file are not read. */
int amc_mcp_flow_gate(const char *text, const char *name, int *line, amc_err *e);

/* run_task {flow, check_only: true} on device `dev` (its kind decides what
 * commands it can perform): the findings of `amc flow check --json`, and the
 * gate's refusal unless the server runs with --yes, as run_task's result
 * {task: null, status: clean|lacking|refused, steps: null, summary, error:
 * null, problems}. Creates no task and touches no device. */
cJSON *amc_mcp_check_flow(const amc_mcp_call *c, const char *dev, const char *flow);

#endif
