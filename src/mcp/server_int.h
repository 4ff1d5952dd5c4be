/* server_int.h - what the tool handlers (mcp_tools.c) may use of the server
 * (server.c). Not a public interface. */
#ifndef AMC_MCP_SERVER_INT_H
#define AMC_MCP_SERVER_INT_H

#include <stdatomic.h>
#include <cjson/cJSON.h>

#include "mcp/mcp_session.h"
#include "mcp/server.h"
#include "runtime/task.h"

typedef struct amc_mcp_server amc_mcp_server;

/* One tools/call as a handler sees it. */
typedef struct amc_mcp_call {
	amc_mcp_server *srv;
	const cJSON *args;           /* the arguments object (never NULL) */
	atomic_int *cancel;          /* set by notifications/cancelled */
	const cJSON *progress_token; /* NULL: the client asked for no progress */
} amc_mcp_call;

const amc_mcp_opts *amc_mcp_srv_opts(amc_mcp_server *s);

/* Send notifications/progress for the call (nothing when it has no token). */
void amc_mcp_srv_progress(const amc_mcp_call *c, double progress, double total, const char *message);
/* Send notifications/message at `level` ("info", "warning", ...) when the
 * client's logging/setLevel lets it through. */
void amc_mcp_srv_log(amc_mcp_server *s, const char *level, const char *text);

/* The session holding `device` (canonical id) for this client, started when
 * `start` and there is none; NULL with e when it cannot be started (or none
 * and !start). The session stays the server's. */
amc_mcp_session *amc_mcp_srv_session(amc_mcp_server *s, const char *device, int start, amc_err *e);
/* End this client's session on `device` as the client asked (run_task on a
 * device the session holds). */
void amc_mcp_srv_session_close(amc_mcp_server *s, const char *device, amc_mcp_end how);
/* The same, with the task's outcome in *out and its id in task_id (may be
 * NULL); -1 when no session held the device. */
int amc_mcp_srv_session_close_out(amc_mcp_server *s, const char *device, amc_mcp_end how, amc_task_outcome *out,
				  char *task_id, size_t task_n);
/* Mark the session on `device` as just used (the idle bound restarts). */
void amc_mcp_srv_touch(amc_mcp_server *s, const char *device);

/* run_task's runs: tasks this server started, each on a thread of its own. */
typedef struct amc_mcp_run amc_mcp_run;
/* Register a run of `task_id` (NULL when AMC_MCP_CALLS_MAX runs are going). */
amc_mcp_run *amc_mcp_srv_run_add(amc_mcp_server *s, const char *task_id);
/* The flag the run's amc_task_run polls. */
atomic_int *amc_mcp_run_cancel(amc_mcp_run *r);
/* Start fn(arg) on the run's thread; the server joins it before it returns.
 * -1 when no thread could be made (the run is dropped). */
int amc_mcp_run_spawn(amc_mcp_server *s, amc_mcp_run *r, void *(*fn)(void *), void *arg);
/* Called by the run's thread at its end. */
void amc_mcp_run_done(amc_mcp_server *s, amc_mcp_run *r, const amc_task_outcome *o);
/* Wait for the run's end, polling *cancel (a cancelled call cancels the run).
 * 0 with *o filled. */
int amc_mcp_run_wait(amc_mcp_server *s, amc_mcp_run *r, atomic_int *cancel, amc_task_outcome *o);
/* Cancel a task this server runs (a run or a session's task): 1 found, 0 not. */
int amc_mcp_srv_cancel_task(amc_mcp_server *s, const char *task_id);

#endif
