/* schema.h - the fleet's tables in PostgreSQL, versioned and idempotent.
 *
 * Everything lives in the schema `amc_fleet`: host, device, assignment,
 * attempt (one row per try, with a fencing token from a sequence and a lease
 * expiry from the database clock), decision (D7: planner decisions, never
 * screenshot bytes) and meta (the schema version). Row-level security is on
 * for every table. Members of the group role `amc_fleet_host` (a host role:
 * NOSUPERUSER NOBYPASSRLS, not the tables' owner) read only their own host,
 * device, attempt and decision rows and the queued work they may claim, and
 * write nothing directly: every write is a SECURITY DEFINER function that
 * takes the caller from session_user (version 2: register_host, add_device,
 * heartbeat, claim, renew, publish, decide, finish, reap_stored; version 3:
 * set_caps, report_latency, finish with p_retry). Version 3 also adds an
 * assignment's needs, retries, backoff, timeout and not-before, a host's
 * capabilities and latency summaries, the operator's grants (role_caps) and
 * the group role `amc_fleet_operator` (docs/fleet.md). Version 4: each
 * device row's capabilities (set_device_caps), which a claim for that device
 * adds to its host's.
 * Triggers NOTIFY `amc_fleet_work` (an assignment became queued; payload: its
 * device kind), `amc_fleet_cancel` (payload: the assignment id) and
 * `amc_fleet_change` (anything changed; the Fleet view refreshes). */
#ifndef AMC_FLEET_SCHEMA_H
#define AMC_FLEET_SCHEMA_H

#include <libpq-fe.h>
#include "util/err.h"

#define AMC_FLEET_SCHEMA_VERSION 6
/* The group role every host role is made a member of. */
#define AMC_FLEET_HOST_GROUP "amc_fleet_host"

/* Create or migrate the schema (under an advisory lock, so two `amc fleet
 * init` at once are fine). *from gets the version found (0: none), *to the
 * version now. Needs a role that may create schemas (and roles, for the
 * group role: without CREATEROLE a notice says to create it by hand). */
int amc_fleet_schema_init(PGconn *c, int *from, int *to, amc_err *e);
/* The schema version of the database: 0 when not initialised; -1 on error. */
int amc_fleet_schema_version(PGconn *c, amc_err *e);
/* 0 when the database's schema is the one this amc speaks, else -1 with a
 * message that says to run `amc fleet init`. */
int amc_fleet_schema_check(PGconn *c, amc_err *e);

#endif
