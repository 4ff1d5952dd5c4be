/* roles.c - the fleet's group roles and the operator's policies (see roles.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/pq.h"
#include "fleet/roles.h"

/* The tables the operator sees whole (row-level security): version 3's list. */
#define OPERATOR_TABLES "ARRAY['host','device','assignment','attempt','decision','role_caps']"

static int role_exists(PGconn *c, const char *role, int *yes, amc_err *e)
{
	const char *p[] = { role };
	PGresult *r;
	if (amc_pq_exec(c, "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS y", 1, p, 0, &r, NULL, e) != 0)
		return -1;
	const char *v = amc_pq_get(r, 0, "y");
	*yes = v && v[0] == 't';
	PQclear(r);
	return 0;
}

/* The role running init (terminal-safe: role names are ours to print but
 * come from the server). */
static void who(PGconn *c, char *out, size_t n)
{
	PGresult *r;
	amc_err e;
	snprintf(out, n, "this role");
	if (amc_pq_exec(c, "SELECT current_user AS u", 0, NULL, 0, &r, NULL, &e) != 0)
		return;
	const char *u = amc_pq_get(r, 0, "u");
	size_t k = 0;
	for (const char *s = u ? u : ""; *s && k + 1 < n; s++)
		out[k++] = (*s >= 0x20 && *s < 0x7f) ? *s : '?';
	out[k] = 0;
	PQclear(r);
}

/* Try CREATE ROLE; a role without CREATEROLE gets a notice, not an error. */
static int try_create(PGconn *c, const char *role, amc_err *e)
{
	char sql[512];
	snprintf(sql, sizeof sql,
		 "DO $$ BEGIN\n"
		 "  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '%s') THEN\n"
		 "    CREATE ROLE %s NOLOGIN NOSUPERUSER NOBYPASSRLS;\n"
		 "  END IF;\n"
		 "EXCEPTION WHEN insufficient_privilege THEN NULL;\n"
		 "END $$",
		 role, role);
	return amc_pq_script(c, sql, e);
}

int amc_fleet_roles_host_group(PGconn *c, amc_err *e)
{
	int yes = 0;
	if (role_exists(c, "amc_fleet_host", &yes, e) != 0)
		return -1;
	if (yes)
		return 0;
	if (try_create(c, "amc_fleet_host", e) != 0 || role_exists(c, "amc_fleet_host", &yes, e) != 0)
		return -1;
	if (yes)
		return 0;
	char me[128];
	who(c, me, sizeof me);
	return amc_err_set(e, AMC_EENV,
			   "cannot create the group role amc_fleet_host: role %s may not create roles (no CREATEROLE); "
			   "as a role that may (a superuser or one with CREATEROLE) run "
			   "`CREATE ROLE amc_fleet_host NOLOGIN NOSUPERUSER NOBYPASSRLS;`, then `amc fleet init` again",
			   me);
}

/* What of the operator's policies and grants is missing: the tables without
 * its policy (comma list, "" none) and whether its grants are there. */
static int operator_state(PGconn *c, char *tables, size_t n, int *grants, amc_err *e)
{
	PGresult *r;
	if (amc_pq_exec(c,
			"SELECT coalesce((SELECT string_agg(t, ', ' ORDER BY t) FROM unnest(" OPERATOR_TABLES ") t"
			"  WHERE NOT EXISTS (SELECT 1 FROM pg_policies p WHERE p.schemaname = 'amc_fleet'"
			"   AND p.tablename = t AND p.policyname = 'operator')), '') AS missing,"
			" has_schema_privilege('amc_fleet_operator', 'amc_fleet', 'USAGE')"
			" AND has_table_privilege('amc_fleet_operator', 'amc_fleet.assignment', 'INSERT')"
			" AND has_table_privilege('amc_fleet_operator', 'amc_fleet.role_caps', 'UPDATE')"
			" AND has_table_privilege('amc_fleet_operator', 'amc_fleet.attempt', 'SELECT')"
			" AND has_table_privilege('amc_fleet_operator', 'amc_fleet.setting', 'SELECT')"
			" AND has_function_privilege('amc_fleet_operator',"
			"  'amc_fleet.reap(double precision, integer, integer)', 'EXECUTE') AS grants",
			0, NULL, 0, &r, NULL, e) != 0)
		return -1;
	snprintf(tables, n, "%s", amc_pq_get(r, 0, "missing") ? amc_pq_get(r, 0, "missing") : "");
	const char *g = amc_pq_get(r, 0, "grants");
	*grants = g && g[0] == 't';
	PQclear(r);
	return 0;
}

int amc_fleet_roles_operator(PGconn *c, int *added, char *note, size_t n, amc_err *e)
{
	*added = 0;
	note[0] = 0;
	char me[128];
	who(c, me, sizeof me);
	int yes = 0;
	if (role_exists(c, "amc_fleet_operator", &yes, e) != 0)
		return -1;
	if (!yes) {
		if (try_create(c, "amc_fleet_operator", e) != 0 || role_exists(c, "amc_fleet_operator", &yes, e) != 0)
			return -1;
		if (!yes) {
			snprintf(note, n,
				 "not created: the group role amc_fleet_operator (role %s may not create roles: no CREATEROLE),\n"
				 "  nor its policies and grants; hosts work without it, operators must own the tables.\n"
				 "  To add them, run `amc fleet init` again as a superuser, or, as a role with CREATEROLE:\n"
				 "    CREATE ROLE amc_fleet_operator NOLOGIN NOSUPERUSER NOBYPASSRLS;\n"
				 "  and then `amc fleet init` again as %s (the tables' owner).\n",
				 me, me);
			return 0;
		}
		*added = 1;
	}
	char before[256];
	int grants = 0, grants_before = 0;
	if (operator_state(c, before, sizeof before, &grants_before, e) != 0)
		return -1;
	if (!before[0] && grants_before)
		return 0;
	/* Policies and grants need the tables' owner; another role gets them
	 * refused and is told so below. One statement each, so one refusal
	 * does not undo the rest. */
	if (amc_pq_script(c,
			  "DO $$ DECLARE t text; BEGIN\n"
			  "  FOREACH t IN ARRAY " OPERATOR_TABLES " LOOP\n"
			  "    IF NOT EXISTS (SELECT 1 FROM pg_policies p WHERE p.schemaname = 'amc_fleet' AND p.tablename = t\n"
			  "                   AND p.policyname = 'operator') THEN\n"
			  "      BEGIN\n"
			  "        EXECUTE format('CREATE POLICY operator ON amc_fleet.%I TO amc_fleet_operator"
			  " USING (true) WITH CHECK (true)', t);\n"
			  "      EXCEPTION WHEN insufficient_privilege THEN NULL;\n"
			  "      END;\n"
			  "    END IF;\n"
			  "  END LOOP;\n"
			  "  BEGIN\n"
			  "    GRANT USAGE ON SCHEMA amc_fleet TO amc_fleet_operator;\n"
			  "    GRANT SELECT ON amc_fleet.meta, amc_fleet.setting TO amc_fleet_operator;\n"
			  "    GRANT SELECT, DELETE ON amc_fleet.host, amc_fleet.device, amc_fleet.attempt, amc_fleet.decision\n"
			  "      TO amc_fleet_operator;\n"
			  "    GRANT SELECT, INSERT, UPDATE, DELETE ON amc_fleet.assignment, amc_fleet.role_caps"
			  " TO amc_fleet_operator;\n"
			  "    GRANT EXECUTE ON FUNCTION amc_fleet.reap(double precision, int, int) TO amc_fleet_operator;\n"
			  "  EXCEPTION WHEN insufficient_privilege THEN NULL;\n"
			  "  END;\n"
			  "END $$",
			  e) != 0)
		return -1;
	char after[256];
	if (operator_state(c, after, sizeof after, &grants, e) != 0)
		return -1;
	if (strcmp(before, after) != 0 || grants != grants_before)
		*added = 1;
	if (after[0] || !grants)
		snprintf(note, n,
			 "not added: the role amc_fleet_operator's %s%s%s (only the tables' owner or a superuser may);\n"
			 "  run `amc fleet init` again as the owner of schema amc_fleet or a superuser.\n",
			 after[0] ? "policy on " : "", after, !grants ? (after[0] ? " and grants" : "grants") : "");
	return 0;
}

int amc_fleet_roles_no_temp(PGconn *c, char *note, size_t n, amc_err *e)
{
	note[0] = 0;
	/* only the database's owner (or a superuser) may revoke; another role
	 * would get a warning, so it is not tried */
	if (amc_pq_script(c,
			  "DO $$ BEGIN\n"
			  "  IF has_database_privilege('amc_fleet_host', current_database(), 'TEMPORARY')\n"
			  "     AND ((SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user)\n"
			  "          OR pg_has_role(current_user, (SELECT d.datdba FROM pg_database d\n"
			  "                                        WHERE d.datname = current_database()), 'MEMBER')) THEN\n"
			  "    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());\n"
			  "  END IF;\n"
			  "END $$",
			  e) != 0)
		return -1;
	PGresult *r;
	if (amc_pq_exec(c,
			"SELECT has_database_privilege('amc_fleet_host', current_database(), 'TEMPORARY') AS t,"
			" current_database() AS db",
			0, NULL, 0, &r, NULL, e) != 0)
		return -1;
	const char *t = amc_pq_get(r, 0, "t");
	if (t && t[0] == 't') {
		char db[128];
		size_t k = 0;
		for (const char *s = amc_pq_get(r, 0, "db") ? amc_pq_get(r, 0, "db") : ""; *s && k + 1 < sizeof db; s++)
			db[k++] = (*s >= 0x20 && *s < 0x7f && *s != '"') ? *s : '?';
		db[k] = 0;
		snprintf(note, n,
			 "host roles may create temporary tables in database %s (a compromised host could fill the\n"
			 "  server's disk with them); as its owner or a superuser run\n"
			 "    REVOKE TEMPORARY ON DATABASE \"%s\" FROM PUBLIC;\n",
			 db, db);
	}
	PQclear(r);
	return 0;
}
