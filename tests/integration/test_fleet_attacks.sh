#!/bin/sh
# test_fleet_attacks.sh - issue 26, findings 1-3: what a host role (member
# of amc_fleet_host, NOSUPERUSER NOBYPASSRLS, owner of nothing) tried, each
# attempt made AS THAT ROLE, and refused with a clear error: ending others'
# leases through reap's arguments, blocking the queue with a forged attempt
# row, reading or claiming work pinned to another host, posing as another
# host's row or name.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
pg_start
"$AMC" fleet init >/dev/null; ok_status $? "fleet init (as the owner)"
is "$(pg_sql "SELECT max(version) FROM amc_fleet.meta")" 2 "schema version 2"
pg_sql "CREATE ROLE host_a LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_host;
	CREATE ROLE host_b LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_host" >/dev/null
ok_status $? "two host roles"
as() { _u=$1; shift; $PG_RUN "$PG_BIN/psql" -h "$PG_SOCK" -p "$PG_PORT" -U "$_u" -d fleet -qAt -v ON_ERROR_STOP=1 -c "$1" 2>&1; }
is "$(as host_a "SELECT current_user")" host_a "psql connects as host_a"

hb=$(as host_b "SELECT amc_fleet.register('B', 'hb', 1)")
as host_b "SELECT amc_fleet.add_device($hb, 'sim:1', 'sim')" >/dev/null
ha=$(as host_a "SELECT amc_fleet.register('A', 'ha', 2)")
as host_a "SELECT amc_fleet.add_device($ha, 'sim:1', 'sim')" >/dev/null
is "$(pg_sql "SELECT string_agg(role || ':' || label, ' ' ORDER BY id) FROM amc_fleet.host")" "host_b:B host_a:A" \
	"each role registered its host through amc_fleet.register"
is "$(as host_a "SELECT amc_fleet.register('A', 'ha', 3)")" "$ha" "a restarted host reuses its row"
as host_a "SELECT amc_fleet.add_device($ha, 'sim:1', 'sim')" >/dev/null
like "$(as host_a "SELECT amc_fleet.register('B', 'ha', 2)")" "host name B belongs to role host_b" \
	"host_a cannot take host_b's name"

pin=$("$AMC" fleet submit --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" --host B --json |
	sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
[ -n "$pin" ]; ok_status $? "an assignment pinned to B (id $pin)"

# Finding 3: no read of pinned (or any queued) work, no claim of it.
is "$(as host_a "SELECT count(*) FROM amc_fleet.assignment")" 0 "host_a reads no queued payload"
like "$(as host_a "SELECT amc_fleet.holds($pin, 'host_b')")" "permission denied for function holds" \
	"holds(id, other role) is not callable by a host"
is "$(as host_a "SELECT count(*) FROM amc_fleet.claim($ha, 'sim:1', 'sim', 30)")" 0 \
	"host_a's claim does not get work pinned to B"
like "$(as host_a "SELECT * FROM amc_fleet.claim($hb, 'sim:1', 'sim', 30)")" "host $hb is not registered by role host_a" \
	"host_a cannot claim with host_b's row"
like "$(as host_a "SELECT * FROM amc_fleet.claim($ha, 'sim:9', 'sim', 30)")" "not registered by host A" \
	"nor for a device it did not register"

# Finding 2: no table writes; a forged attempt cannot block the queue.
like "$(as host_a "INSERT INTO amc_fleet.attempt (assignment_id, n, host_label, device, lease_until, state)
	VALUES ($pin, 1, 'B', 'sim:1', now(), 'succeeded')")" "permission denied for table attempt" \
	"host_a cannot insert an attempt"
for tc in host:label device:kind assignment:state attempt:state decision:step setting:reap_grace_s; do
	t=${tc%%:*} c=${tc#*:}
	like "$(as host_a "DELETE FROM amc_fleet.$t")" "permission denied for table $t" "no DELETE on $t"
	like "$(as host_a "UPDATE amc_fleet.$t SET $c = $c")" "permission denied for table $t" "no UPDATE on $t"
done
like "$(as host_a "INSERT INTO amc_fleet.host (label, role) VALUES ('B', 'host_b')")" "permission denied for table host" \
	"host_a cannot insert a host row"
like "$(as host_a "SELECT nextval('amc_fleet.token')")" "permission denied" "nor draw fencing tokens"
set -- $(as host_b "SELECT attempt_id || ' ' || token || ' ' || n FROM amc_fleet.claim($hb, 'sim:1', 'sim', 30)")
is "$3" 1 "host_b claims its pinned work as attempt 1"
tok=$2 att=$1

# Finding 1: reap's arguments are the operator's; a host reaps by stored rules.
like "$(as host_a "SELECT amc_fleet.reap(-100000, 0, 0)")" "permission denied for function reap" \
	"host_a cannot reap with its own grace and retention"
is "$(as host_a "SELECT amc_fleet.reap()")" 0 "host_a's reap() (stored settings) takes no live lease"
is "$(pg_sql "SELECT state FROM amc_fleet.attempt WHERE id = $att")" running "host_b's lease is still running"
like "$(pg_sql "SELECT amc_fleet.reap(-1, 0, 0)" 2>&1)" "grace and retention must be >= 0" \
	"even the operator's reap refuses a negative grace"

# Others' leases: no renew, no end, no progress, no decision, no local task.
is "$(as host_a "SELECT count(*) FROM amc_fleet.renew($att, $tok, 30, 1, 'x', 'x')")" 0 "host_a cannot renew it"
is "$(as host_a "SELECT amc_fleet.finish($att, $tok, 'succeeded', NULL)")" f "nor end it"
is "$(as host_a "SELECT amc_fleet.set_local_task($att, $tok, 'x')")" f "nor set its local task"
like "$(as host_a "SELECT amc_fleet.add_decision($pin, 1, 1, 'p', 'm', 's', 'u', 't', 'a', 'o')")" \
	"role host_a holds no running attempt 1" "nor write its decisions"
is "$(as host_a "SELECT count(*) FROM amc_fleet.attempt")" 0 "nor see it"
is "$(as host_b "SELECT count(*) FROM amc_fleet.renew($att, $tok, 30, 1, 'running', 'step 1')")" 1 "host_b renews it"
as host_b "SELECT amc_fleet.add_decision($pin, 1, 1, 'p', 'm', 's', 'u', 't', 'a', 'o')" >/dev/null
ok_status $? "host_b writes its decision"
is "$(as host_b "SELECT amc_fleet.finish($att, $tok, 'succeeded', NULL)")" t "host_b ends it"
is "$(as host_b "SELECT id FROM amc_fleet.assignment")" "$pin" "host_b reads the assignment it ran"
is "$(pg_sql "SELECT state || ' ' || count(*) FROM amc_fleet.decision, amc_fleet.assignment a WHERE a.id = $pin GROUP BY state")" \
	"succeeded 1" "and its decision is kept"
# A claim computes n itself: with the counter set back, the next attempt is still n = 2.
pg_sql "UPDATE amc_fleet.assignment SET state = 'queued', next_attempt = 1 WHERE id = $pin" >/dev/null
set -- $(as host_b "SELECT n || ' ' || attempt_id || ' ' || token FROM amc_fleet.claim($hb, 'sim:1', 'sim', 30)")
is "$1" 2 "claim computes n from the attempts"
# Finding 4 (database side): an attempt whose lease ran out while the
# database was away, not yet reaped, is ended by its holder, not run again;
# its finish time is bounded by its lease.
pg_sql "UPDATE amc_fleet.attempt SET lease_until = now() - interval '5 s' WHERE id = $2" >/dev/null
is "$(as host_a "SELECT amc_fleet.finish($2, $3, 'succeeded', NULL)")" f "not by another role"
is "$(as host_b "SELECT amc_fleet.finish($2, $3, 'succeeded', NULL)")" t "its holder ends it after the lease ran out"
is "$(pg_sql "SELECT state || ' ' || (finished_at <= lease_until) FROM amc_fleet.attempt WHERE id = $2")" "succeeded true" \
	"finished, at a time no later than its lease"
# Every function a host may call runs as its owner with a fixed search_path.
is "$(pg_sql "SELECT count(*) FROM pg_proc p JOIN pg_namespace s ON s.oid = p.pronamespace
	WHERE s.nspname = 'amc_fleet' AND p.prorettype <> 'trigger'::regtype AND has_function_privilege('host_a', p.oid, 'EXECUTE')
	AND NOT (p.prosecdef AND array_to_string(p.proconfig, ',') LIKE 'search_path=pg_catalog%')")" 0 \
	"every function host_a may call is SECURITY DEFINER with search_path set"
done_testing
