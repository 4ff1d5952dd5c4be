/* schema.h - the fleet's tables in PostgreSQL, versioned and idempotent.
 *
 * Everything lives in the schema `amc_fleet`: host, device, assignment,
 * attempt (one row per try, with a fencing token from a sequence and a lease
 * expiry from the database clock), decision (D7: planner decisions, never
 * screenshot bytes) and meta (the schema version). Row-level security is on
 * for every table: members of the group role `amc_fleet_host` (a host role:
 * NOSUPERUSER NOBYPASSRLS, not the tables' owner) see and change only their
 * own host and device rows and the attempts they hold, read only queued
 * assignments and the ones they ran, and update only the few columns a
 * claim and a completion write. The reaper (amc_fleet.reap) is the one
 * SECURITY DEFINER function: any host may call it, it takes an advisory lock
 * and only touches attempts whose lease ran out by the database clock.
 * Triggers NOTIFY `amc_fleet_work` (an assignment became queued; payload: its
 * device kind), `amc_fleet_cancel` (payload: the assignment id) and
 * `amc_fleet_change` (anything changed; the Fleet view refreshes). */
#ifndef AMC_FLEET_SCHEMA_H
#define AMC_FLEET_SCHEMA_H

#include <libpq-fe.h>
#include "util/err.h"

#define AMC_FLEET_SCHEMA_VERSION 3
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
