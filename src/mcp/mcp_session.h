/* mcp_session.h - one MCP client's session on one device, recorded as a task.
 *
 * The first `act` a client makes on a device starts a task through the launch
 * module (launch/launch.h: the one launch path for every front end) with the
 * external planner named "mcp" (planner/extplanner.h): goal "MCP session: CLIENT
 * (SESSION)", holding the device lock like any task, so a flow or a TUI launch
 * on that device is refused as busy and names it. Each act is handed to the
 * runner as the next action and becomes an ordinary recorded step (before/after
 * screenshots, scene, OCR, tree; the client's reason as the step's reasoning).
 *
 * The task ends with a summary saying what happened: amc_mcp_session_end with
 * AMC_MCP_END_CLIENT ("MCP session ended by the client after N actions";
 * succeeded only when every action was carried out), AMC_MCP_END_IDLE (the
 * session was idle past its bound and the device is released), or
 * AMC_MCP_END_CANCEL (cancelled: the client cancelled it or disappeared).
 *
 * Thread-safety: every call may come from any thread; acts on one session must
 * not overlap (the server runs calls on one device in arrival order). */
#ifndef AMC_MCP_SESSION_H
#define AMC_MCP_SESSION_H

#include <stdatomic.h>
#include <cjson/cJSON.h>

#include "planner/extplanner.h"
#include "runtime/operator.h"
#include "util/config.h"
#include "util/err.h"

typedef struct amc_mcp_session amc_mcp_session;

typedef struct amc_mcp_session_opts {
	const char *home;          /* $AMC_HOME */
	const amc_config *cfg;     /* kept; must outlive the session */
	const char *device;        /* as the client typed it ("sim") */
	const char *client;        /* the client's name and version, terminal-safe */
	const char *session_id;    /* this server's session id */
	long idle_ms;              /* the extplanner's bound on waiting for an action */
	int assume_yes;            /* amc mcp --yes */
	amc_operator *op;          /* confirms irreversible-looking taps; not owned */
} amc_mcp_session_opts;

typedef enum amc_mcp_end {
	AMC_MCP_END_CLIENT,
	AMC_MCP_END_IDLE,
	AMC_MCP_END_CANCEL
} amc_mcp_end;

/* Start the task and wait (at most 60 s) until it asks for its first action.
 * 0 with *out; -1 with e saying why (the device is busy with another task,
 * cannot be opened, ...), nothing left running. */
int amc_mcp_session_start(const amc_mcp_session_opts *o, amc_mcp_session **out, amc_err *e);
/* A session on a task someone else runs (`amc run --agent`: the agent CLI's
 * MCP connection acts on the run's own task): acts and observes go to x, the
 * task's planner handle, which stays the caller's, as do the task and its
 * thread. Ending it never waits for the task: a finish is handed in and the
 * caller's planner ends the task. *out is freed with amc_mcp_session_free. */
void amc_mcp_session_attach(amc_extplanner *x, const char *task_id, const char *device, amc_mcp_session **out);
/* 1 for a session made by amc_mcp_session_attach. */
int amc_mcp_session_attached(const amc_mcp_session *s);

/* The task's id (static for the session's life). */
const char *amc_mcp_session_task(const amc_mcp_session *s);
/* The canonical device id. */
const char *amc_mcp_session_device(const amc_mcp_session *s);
/* 1 once the task has ended (for any reason). */
int amc_mcp_session_ended(amc_mcp_session *s);

/* The screen the task will act on next, as a Scene (secrets masked, owned by
 * the caller), and the artifact path of the latest screenshot (relative to
 * $AMC_HOME; "" before the first act). -1 when the task has ended. */
int amc_mcp_session_scene(amc_mcp_session *s, cJSON **scene, char *shot, size_t shot_n, amc_err *e);

/* Make the screen the session's task waits with no older than max_age_ms:
 * captured again now when it is older (amc_extplanner_look). *age_ms: its
 * age; *fresh: 1 when captured for this call. 0, or -1 with e. */
int amc_mcp_session_look(amc_mcp_session *s, long max_age_ms, long *age_ms, int *fresh, amc_err *e);
/* The PNG of the screen the task will act on next (a copy, the caller's);
 * -1 when none. For the first screen, which is stored only with its step. */
int amc_mcp_session_png(amc_mcp_session *s, unsigned char **png, size_t *len);
/* That screen as the client's image, long edge at most AMC_MCP_IMAGE_EDGE,
 * made once when it was captured (amc_extplanner_asked_image: a copy of its
 * PNG, the caller's; *w x *h, and the frame's width *full_w). With `shot` not
 * NULL, only when that screen is stored as shot. -1 when none. */
int amc_mcp_session_image(amc_mcp_session *s, const char *shot, unsigned char **png, size_t *len, int *w, int *h,
			  int *full_w);

/* The client's reason for the act in progress (or the last one), as given:
 * untrusted, "" when none. Copied into out (n bytes). */
void amc_mcp_session_reason(amc_mcp_session *s, char *out, size_t n);

/* One action: `tool` a registry tool, args a JSON object, reason may be NULL.
 * Waits for its step to be recorded, polling *cancel (may be NULL). 0 with
 * *ans filled (the step, its status and error; clear it); -1 when the action
 * never ran (the task ended, cancelled) with e saying why. */
int amc_mcp_session_act(amc_mcp_session *s, const char *tool, const cJSON *args, const char *reason,
			atomic_int *cancel, amc_ext_answer *ans, amc_err *e);

/* End the task the way `how` says and wait for its end (bounded); `idle_s`
 * is the idle bound for the message of AMC_MCP_END_IDLE. *out (may be NULL)
 * gets the outcome. Safe to call twice. */
void amc_mcp_session_end(amc_mcp_session *s, amc_mcp_end how, long idle_s, amc_task_outcome *out);
/* The client's own ending (act {action: "finish"}): the next
 * amc_mcp_session_end with AMC_MCP_END_CLIENT ends the task succeeded with
 * `summary` (made terminal-safe), or failed with it when !success, and with
 * `answer` (NULL: none) as the task's answer. */
void amc_mcp_session_finish_as(amc_mcp_session *s, int success, const char *summary, const char *answer);
/* End (as AMC_MCP_END_CANCEL when still running), join and free. */
void amc_mcp_session_free(amc_mcp_session *s);

#endif
