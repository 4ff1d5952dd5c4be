/* payload.h - what an assignment carries: a goal, or a flow bundled with the
 * sub-flows and scripts it names, as one JSON text.
 *
 *   {"v":1,"kind":"goal","goal":"TEXT"}
 *   {"v":1,"kind":"flow","flow":{"name":"NAME.yaml","text":"YAML"},
 *    "files":[{"name":"sub/other.yaml","text":"..."}, ...]}
 *
 * The host never reads a path from the database: file names in a payload are
 * only names inside the bundle (relative, no ".."), and the texts travel in
 * it. Limits (the same on both sides, and in docs/fleet.md): a goal at most
 * AMC_LAUNCH_GOAL_MAX bytes, a flow or file at most AMC_FLOW_MAX_BYTES, at
 * most AMC_LAUNCH_BUNDLE_FILES_MAX files, AMC_LAUNCH_BUNDLE_MAX_BYTES of
 * texts together and AMC_FLEET_PAYLOAD_MAX bytes of JSON. {{secret:NAME}}
 * travels as written and is resolved only on the host. A payload read from
 * the database is untrusted: amc_fleet_payload_parse checks all of it. */
#ifndef AMC_FLEET_PAYLOAD_H
#define AMC_FLEET_PAYLOAD_H

#include <stddef.h>
#include "launch/launch.h"
#include "util/err.h"

#define AMC_FLEET_PAYLOAD_MAX (AMC_LAUNCH_BUNDLE_MAX_BYTES + 1024u * 1024u)

typedef struct amc_fleet_payload {
	const char *kind;          /* "goal" or "flow" (static) */
	char *goal;                /* kind goal */
	char *agent;               /* kind goal: "claude" or "codex" (a coding agent's CLI plans it); NULL: the host's planner */
	char *model;               /* kind goal: the model for that planner; NULL: its default */
	char *flow_name;           /* kind flow: the flow's name in the bundle */
	char *flow_text;
	amc_launch_file *files;    /* names and texts owned (cast away const to free) */
	size_t nfiles;
} amc_fleet_payload;

/* Parse and check a payload. 0 with *out (amc_fleet_payload_free it); -1
 * with e (AMC_EUSAGE) saying what is wrong with it. */
int amc_fleet_payload_parse(const char *text, size_t len, amc_fleet_payload *out, amc_err *e);
void amc_fleet_payload_free(amc_fleet_payload *p);

/* A goal's payload. malloc'd JSON text, or NULL with e. */
char *amc_fleet_payload_goal(const char *goal, amc_err *e);
/* The same, planned by a coding agent's CLI (agent "claude" or "codex"; NULL:
 * the host's planner) with model (NULL: its default). */
char *amc_fleet_payload_goal_agent(const char *goal, const char *agent, const char *model, amc_err *e);
/* Read the flow file at `path` and every sub-flow and script it names
 * (runFlow / runScript, also nested, relative to the file naming them) into
 * a payload. malloc'd JSON text and *title (the flow's file name), or NULL
 * with e naming the file that could not be bundled. */
char *amc_fleet_payload_flow(const char *path, char **title, amc_err *e);

#endif
