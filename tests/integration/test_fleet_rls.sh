#!/bin/sh
# test_fleet_rls.sh - row-level security of the fleet schema with two host
# roles (NOSUPERUSER NOBYPASSRLS, members of amc_fleet_host, not owners of
# the tables): each host runs its work as its own role; a host role sees only
# its own attempts, cannot renew, end or rewrite another's, cannot queue or
# read other hosts' finished work, and its identity is current_user, whatever
# --name it gives.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
pg_start
export AMC_FLEET_LEASE_S=3 AMC_FLEET_RENEW_S=1 AMC_FLEET_REAP_S=1 AMC_FLEET_REAP_GRACE_S=0 AMC_FLEET_POLL_S=2
export AMC_OCR_POLICY=off
"$AMC" fleet init >/dev/null; ok_status $? "fleet init (as the owner)"
pg_sql "CREATE ROLE host_a LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_host;
	CREATE ROLE host_b LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_host" >/dev/null
ok_status $? "two host roles"
is "$(pg_sql "SELECT count(*) FROM pg_roles WHERE rolname IN ('host_a','host_b') AND NOT rolsuper AND NOT rolbypassrls")" 2 \
	"neither superuser nor BYPASSRLS"
is "$(pg_sql "SELECT count(*) FROM pg_tables WHERE schemaname = 'amc_fleet' AND tableowner IN ('host_a','host_b')")" 0 \
	"and they own no table"
url_a="postgresql:///fleet?host=$PG_SOCK&port=$PG_PORT&user=host_a"
url_b="postgresql:///fleet?host=$PG_SOCK&port=$PG_PORT&user=host_b"
as() { _u=$1; shift; $PG_RUN "$PG_BIN/psql" -h "$PG_SOCK" -p "$PG_PORT" -U "$_u" -d fleet -qAt -v ON_ERROR_STOP=1 -c "$1" 2>&1; }

id1=$("$AMC" fleet submit --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" --host A --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
id2=$("$AMC" fleet submit --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" --host B --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
mkdir -p "$T_HOME/a" "$T_HOME/b"
AMC_HOME="$T_HOME/a" AMC_FLEET_URL="$url_a" "$AMC" host --name A >"$T_HOME/a.out" 2>&1 &
pa=$!
AMC_HOME="$T_HOME/b" AMC_FLEET_URL="$url_b" "$AMC" host --name B >"$T_HOME/b.out" 2>&1 &
pb=$!
both() { [ "$(pg_sql "SELECT count(*) FROM amc_fleet.assignment WHERE state = 'succeeded'")" = 2 ]; }
wait_for 30 both; ok_status $? "each host role ran its assignment"
is "$(pg_sql "SELECT string_agg(host_role || ':' || assignment_id, ' ' ORDER BY assignment_id) FROM amc_fleet.attempt")" \
	"host_a:$id1 host_b:$id2" "attempts are owned by the roles that ran them"
is "$(as host_a "SELECT count(*) FROM amc_fleet.attempt")" 1 "host_a sees only its own attempt"
is "$(as host_a "SELECT count(*) FROM amc_fleet.assignment WHERE id = $id2")" 0 "nor host_b's finished assignment"
is "$(as host_a "UPDATE amc_fleet.attempt SET error = 'x' WHERE assignment_id = $id2 RETURNING id")" "" \
	"host_a cannot change host_b's attempt"
like "$(as host_a "INSERT INTO amc_fleet.assignment (kind, title, payload) VALUES ('goal', 't', '{}')")" \
	"permission denied" "a host role cannot queue work"
like "$(as host_a "UPDATE amc_fleet.assignment SET max_attempts = 9")" "permission denied" \
	"nor change what an assignment asks"
like "$(as host_a "DELETE FROM amc_fleet.attempt")" "permission denied" "nor delete attempts"
# A running attempt of B: A can neither renew it nor end it.
pg_sql "UPDATE amc_fleet.assignment SET state = 'queued', want_host = 'nobody' WHERE id = $id2" >/dev/null
pg_sql "INSERT INTO amc_fleet.attempt (assignment_id, n, host_label, host_role, device, lease_until)
	VALUES ($id2, 9, 'B', 'host_b', 'sim:7', now() + interval '1 hour')" >/dev/null
tok=$(pg_sql "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE n = 9")
set -- $tok
is "$(as host_a "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" f "host_a cannot end host_b's running attempt"
is "$(as host_a "UPDATE amc_fleet.attempt SET lease_until = now() WHERE id = $1 RETURNING id")" "" \
	"nor renew it"
is "$(as host_b "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" t "host_b can"
# --name is a label: the identity is the role.
like "$(as host_a "INSERT INTO amc_fleet.host (label, role) VALUES ('B', 'host_b')")" "row-level security" \
	"host_a cannot register as host_b"
kill -TERM $pa $pb; wait $pa $pb
done_testing
