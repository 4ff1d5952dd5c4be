/* migrate.h - the schema's history as a table of versions, applied in order on
 * open. Version N's step turns a version N-1 database into version N inside one
 * transaction and sets PRAGMA user_version = N; a later issue appends N+1. */
#ifndef AMC_MIGRATE_H
#define AMC_MIGRATE_H

#include <sqlite3.h>

#include "util/err.h"

/* PRAGMA user_version of `db` in *version. `path` names the file in messages. */
int amc_migrate_version(sqlite3 *db, const char *path, int *version, amc_err *e);
/* Refuse, before anything is written, a database this code must not touch:
 * one newer than the code (AMC_EENV: upgrade amc) or another program's SQLite
 * file (version 0 with tables). The first read of the file, so a damaged one
 * fails here. */
int amc_migrate_check(sqlite3 *db, const char *path, amc_err *e);
/* Bring `db` to the latest version. A database newer than the code is refused
 * with AMC_EENV (upgrade amc). Safe when several processes open at once: each
 * step re-reads the version after taking the write lock. *from receives the
 * version found (may be NULL). */
int amc_migrate_run(sqlite3 *db, const char *path, int *from, amc_err *e);

#endif
