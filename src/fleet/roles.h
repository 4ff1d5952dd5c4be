/* roles.h - the fleet's two group roles, made by `amc fleet init` as far as
 * the role running it may, and what it could not do said exactly.
 *
 * Roles are per cluster and need CREATEROLE (or a superuser); policies and
 * grants on the tables need their owner (or a superuser). The schema's
 * migrations make both when they can; these functions run on every init so
 * that a rerun by a role that can (after an init by one that could not, or
 * after the roles were made by hand) adds what is missing, idempotently:
 *
 *   amc_fleet_host      every host role is a member; needed before any
 *                       table exists (version 1's policies name it)
 *   amc_fleet_operator  submit, list, cancel, grant and reap (version 3):
 *                       its policy on each table and its grants */
#ifndef AMC_FLEET_ROLES_H
#define AMC_FLEET_ROLES_H

#include <stddef.h>
#include <libpq-fe.h>
#include "util/err.h"

/* Before the first migration: make amc_fleet_host when it is missing. 0 when
 * it exists now; -1 with e (AMC_EENV) saying which role lacks CREATEROLE and
 * the statement a role that has it must run. */
int amc_fleet_roles_host_group(PGconn *c, amc_err *e);

/* After the migrations: make amc_fleet_operator when missing, and its policy
 * on every table and its grants when missing. *added is 1 when something
 * was added. 0 with note = "" when everything is there; 0 with note = what
 * could not be done and what to run as a role that can (several lines,
 * each ending in '\n'); -1 with e when the database could not be asked. */
int amc_fleet_roles_operator(PGconn *c, int *added, char *note, size_t n, amc_err *e);

/* After the migrations: take the TEMPORARY privilege on the database from
 * PUBLIC when this role owns the database (or is a superuser), so that a
 * host role cannot fill the server's disk with temporary tables (amc needs
 * none). 0 with note = "" when host roles cannot create them now; 0 with
 * note = the statement the database's owner must run; -1 with e. */
int amc_fleet_roles_no_temp(PGconn *c, char *note, size_t n, amc_err *e);

#endif
