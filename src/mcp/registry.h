/* registry.h - the MCP server's sessions and runs: one session (a task
 * holding its device, mcp_session.h) per device, calls naming one device
 * taken in arrival order (tickets), the idle bound, and run_task's runs.
 * The transport (server.c) owns one and hands it to the tool handlers
 * (mcp_call.h); nothing here writes to the client. */
#ifndef AMC_MCP_REGISTRY_H
#define AMC_MCP_REGISTRY_H

#include <stdatomic.h>
#include <stddef.h>

#include "mcp/mcp_call.h"
#include "mcp/mcp_session.h"
#include "runtime/task.h"
#include "util/err.h"

typedef struct amc_mcp_reg amc_mcp_reg;
typedef struct amc_mcp_run amc_mcp_run;

typedef struct amc_mcp_reg_opts {
	const amc_mcp_opts *o;       /* home, configuration, --yes, idle bound, attached */
	const char *client;          /* the client's name, read when a session starts */
	const char *session_id;
	amc_operator *op;            /* confirmations and questions of a session's task */
	/* A line for the client's log (notifications/message), at `level`. */
	void (*log)(void *ctx, const char *level, const char *text);
	void *log_ctx;
} amc_mcp_reg_opts;

/* Start the registry and its idle reaper. The strings and `op` must outlive
 * it. 0, or -1 with e. */
int amc_mcp_reg_new(const amc_mcp_reg_opts *ro, amc_mcp_reg **out, amc_err *e);
/* Cancel every run still going (the client has gone). */
void amc_mcp_reg_cancel_runs(amc_mcp_reg *r);
/* Stop the reaper, end every session (cancelled when calls were still in
 * flight, else ended by the client), join the runs' threads, free. */
void amc_mcp_reg_free(amc_mcp_reg *r, int inflight);

/* The session on `device`, started when `start` and there is none. An agent
 * run's registry has its one attached session whatever the device. NULL
 * with e. Not owned by the caller. */
amc_mcp_session *amc_mcp_reg_session(amc_mcp_reg *r, const char *device, int start, amc_err *e);
/* A call used the device: its idle clock starts again. */
void amc_mcp_reg_touch(amc_mcp_reg *r, const char *device);
void amc_mcp_reg_session_close(amc_mcp_reg *r, const char *device, amc_mcp_end how);
/* End the device's session as `how`, its outcome in *out and its task id in
 * task_id (task_n bytes; NULL: not wanted). -1 when there was none. */
int amc_mcp_reg_session_close_out(amc_mcp_reg *r, const char *device, amc_mcp_end how, amc_task_outcome *out,
				  char *task_id, size_t task_n);

/* The reason the client gave for the act now asking, and the device: the
 * session whose task is task_id ("" for both when there is none). */
void amc_mcp_reg_task_context(amc_mcp_reg *r, const char *task_id, char *reason, size_t rn, char *dev, size_t dn);

/* Calls naming one device run in arrival order: the reader takes a ticket
 * (-1: too many devices; the call then runs unordered), the call's worker
 * waits for its turn and ends it. */
int amc_mcp_reg_ticket(amc_mcp_reg *r, const char *device, unsigned long *ticket);
void amc_mcp_reg_turn_wait(amc_mcp_reg *r, const char *device, unsigned long ticket);
void amc_mcp_reg_turn_end(amc_mcp_reg *r, const char *device);

/* run_task's runs: a slot for the task (NULL: too many), its cancel flag,
 * its thread (-1 when it cannot start: the slot is given back), its end, and
 * a wait for its end that passes `cancel` on. */
amc_mcp_run *amc_mcp_reg_run_add(amc_mcp_reg *r, const char *task_id);
atomic_int *amc_mcp_run_cancel(amc_mcp_run *run);
int amc_mcp_reg_run_spawn(amc_mcp_reg *r, amc_mcp_run *run, void *(*fn)(void *), void *arg);
void amc_mcp_reg_run_done(amc_mcp_reg *r, amc_mcp_run *run, const amc_task_outcome *o);
int amc_mcp_reg_run_wait(amc_mcp_reg *r, amc_mcp_run *run, atomic_int *cancel, amc_task_outcome *o);
/* Cancel the run or end the session of task `task_id`: 1, or 0 when this
 * server has neither. */
int amc_mcp_reg_cancel_task(amc_mcp_reg *r, const char *task_id);

#endif
