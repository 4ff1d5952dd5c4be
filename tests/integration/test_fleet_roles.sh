#!/bin/sh
# test_fleet_roles.sh - `amc fleet init` run by a role without CREATEROLE
# (src/fleet/roles.c): it makes what it can and says exactly what it could
# not and what to run as a role that can; a rerun adds what is missing once
# it can (the role made by hand, then the owner adds the policies; or a
# superuser's init makes the role and the policies), idempotently. The
# operator role then works (submit, ls) as a member of amc_fleet_operator.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
pg_start
pg_sql "CREATE ROLE initr LOGIN NOSUPERUSER NOCREATEROLE NOBYPASSRLS; GRANT CREATE ON DATABASE fleet TO initr" >/dev/null
ok_status $? "an init role without CREATEROLE"
url() { echo "postgresql:///fleet?host=$PG_SOCK&port=$PG_PORT&user=$1"; }
init_as() { AMC_FLEET_URL="$(url "$1")" "$AMC" fleet init >"$T_HOME/init.out" 2>"$T_HOME/init.err"; }
policies() { pg_sql "SELECT count(*) FROM pg_policies WHERE schemaname = 'amc_fleet' AND policyname = 'operator'"; }
has_role() { pg_sql "SELECT count(*) FROM pg_roles WHERE rolname = '$1'"; }

# 1. Not even the hosts' group role can be made: init stops and says what to run.
init_as initr; is $? 3 "init without amc_fleet_host and without CREATEROLE fails (environment)"
like "$(cat "$T_HOME/init.err")" "cannot create the group role amc_fleet_host: role initr may not create roles \(no CREATEROLE\)" \
	"saying which role lacks what"
like "$(cat "$T_HOME/init.err")" "CREATE ROLE amc_fleet_host NOLOGIN NOSUPERUSER NOBYPASSRLS;" "and the statement to run"
is "$(pg_sql "SELECT count(*) FROM pg_namespace WHERE nspname = 'amc_fleet'")" 0 "nothing half made"
pg_sql "CREATE ROLE amc_fleet_host NOLOGIN NOSUPERUSER NOBYPASSRLS" >/dev/null

# 2. With the hosts' group role made by hand: the schema is made; the operator role is not, and init says so.
init_as initr; ok_status $? "init as initr makes the schema"
like "$(cat "$T_HOME/init.out")" "version 6 \(was 0\)" "version 6"
like "$(cat "$T_HOME/init.err")" "not created: the group role amc_fleet_operator \(role initr may not create roles: no CREATEROLE\)" \
	"it says the operator role was not made, and why"
like "$(cat "$T_HOME/init.err")" "CREATE ROLE amc_fleet_operator NOLOGIN NOSUPERUSER NOBYPASSRLS;" "with the statement to run"
like "$(cat "$T_HOME/init.err")" "then .amc fleet init. again as initr" "and to run init again as the owner"
is "$(has_role amc_fleet_operator)" 0 "no operator role"
is "$(policies)" 0 "no operator policies"
init_as initr; ok_status $? "a rerun as initr"
like "$(cat "$T_HOME/init.out")" "up to date \(version 6\)" "finds the schema up to date"
like "$(cat "$T_HOME/init.err")" "not created: the group role amc_fleet_operator" "and still says what is missing"

# 3. The role made by hand (as a role with CREATEROLE): the owner's rerun adds the policies and grants.
pg_sql "CREATE ROLE amc_fleet_operator NOLOGIN NOSUPERUSER NOBYPASSRLS" >/dev/null
init_as initr; ok_status $? "init as initr after the operator role was made by hand"
like "$(cat "$T_HOME/init.out")" "added what the operator role amc_fleet_operator lacked" "adds what was missing"
is "$(grep -c 'not added\|not created' "$T_HOME/init.err")" 0 "and has nothing left to say of the operator role"
like "$(cat "$T_HOME/init.err")" 'REVOKE TEMPORARY ON DATABASE "fleet" FROM PUBLIC;' \
	"but says what the database's owner must run: initr may not take temporary tables from host roles"
is "$(policies)" 6 "the operator's policy on all six tables"
init_as initr; ok_status $? "another rerun"
is "$(cat "$T_HOME/init.out")" "the fleet schema is up to date (version 6)" "adds nothing (idempotent)"
is "$(policies)" 6 "no policy twice"
pg_sql "CREATE ROLE op1 LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_operator" >/dev/null
flow="$T_HOME/one.yaml"
printf 'appId: com.android.settings\nname: One\n---\n- launchApp\n' >"$flow"
AMC_FLEET_URL="$(url op1)" "$AMC" fleet submit --flow "$flow" >/dev/null; ok_status $? "the operator role submits"
like "$(AMC_FLEET_URL="$(url op1)" "$AMC" fleet ls)" "queued" "and lists"

# 4. The operator role dropped; a non-owner without CREATEROLE cannot add it;
# a superuser's init makes the role and its policies.
pg_sql "DROP ROLE op1; DROP OWNED BY amc_fleet_operator; DROP ROLE amc_fleet_operator" >/dev/null
is "$(policies)" 0 "the operator role and its policies are gone"
init_as initr; ok_status $? "init as initr"
like "$(cat "$T_HOME/init.err")" "not created: the group role amc_fleet_operator" "says the role is missing again"
init_as amc; ok_status $? "init as a superuser"
like "$(cat "$T_HOME/init.out")" "added what the operator role amc_fleet_operator lacked" "makes the role and adds the rest"
is "$(has_role amc_fleet_operator)" 1 "the operator role exists"
is "$(policies)" 6 "with its six policies"
is "$(pg_sql "SELECT has_function_privilege('amc_fleet_operator', 'amc_fleet.reap(double precision, integer, integer)', 'EXECUTE')")" t \
	"and its grants"
is "$(pg_sql "SELECT has_database_privilege('amc_fleet_host', 'fleet', 'TEMPORARY')")" f \
	"and took TEMPORARY from PUBLIC: host roles cannot fill the disk with temporary tables"
init_as initr; ok_status $? "the owner's rerun afterwards"
is "$(cat "$T_HOME/init.err")" "" "has nothing to add or say"
done_testing
