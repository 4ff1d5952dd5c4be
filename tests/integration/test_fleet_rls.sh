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
kill -TERM $pa $pb; wait $pa; ra=$?; wait $pb
ok_status $((ra + $?)) "both hosts stopped cleanly"
# Issue 26: a host role writes through the fleet's functions only; every
# attack below runs as host_a and must fail with a clear error.
like "$(as host_a "UPDATE amc_fleet.attempt SET error = 'x' WHERE assignment_id = $id2 RETURNING id")" \
	"permission denied" "host_a cannot update attempts directly"
like "$(as host_a "INSERT INTO amc_fleet.assignment (kind, title, payload) VALUES ('goal', 't', '{}')")" \
	"permission denied" "a host role cannot queue work"
like "$(as host_a "UPDATE amc_fleet.assignment SET max_attempts = 9")" "permission denied" \
	"nor change what an assignment asks"
like "$(as host_a "DELETE FROM amc_fleet.attempt")" "permission denied" "nor delete attempts"
like "$(as host_a "DELETE FROM amc_fleet.decision")" "permission denied" "nor delete decisions"
like "$(as host_a "INSERT INTO amc_fleet.decision (assignment_id, attempt, step) VALUES ($id2, 1, 1)")" \
	"permission denied" "nor write decisions directly"
like "$(as host_a "INSERT INTO amc_fleet.host (label, role) VALUES ('B', 'host_b')")" "permission denied" \
	"nor insert host rows"
like "$(as host_a "UPDATE amc_fleet.host SET last_seen = now()")" "permission denied" "nor update them"
like "$(as host_a "INSERT INTO amc_fleet.device (host_id, device, kind) VALUES (1, 'sim:9', 'sim')")" \
	"permission denied" "nor insert device rows"
like "$(as host_a "SELECT nextval('amc_fleet.token')")" "permission denied" "nor draw fencing tokens"
# Finding 2: the queue cannot be stopped. host_a may not insert attempts, and
# a stray row where the next attempt would go (as the v1 attack left) is not
# in the way: claim numbers attempts itself.
id3=$("$AMC" fleet submit --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
like "$(as host_a "INSERT INTO amc_fleet.attempt (assignment_id, n, host_label, device, lease_until, state)
	VALUES ($id3, 1, 'B', 'sim:0', now(), 'succeeded')")" "permission denied" \
	"host_a cannot insert an attempt (finding 2)"
pg_sql "INSERT INTO amc_fleet.attempt (assignment_id, n, host_label, host_role, device, lease_until, state)
	VALUES ($id3, 1, 'B', 'host_b', 'sim:0', now(), 'succeeded')" >/dev/null
ha=$(as host_a "SELECT id FROM amc_fleet.host")
hb=$(pg_sql "SELECT id FROM amc_fleet.host WHERE role = 'host_b'")
da=$(as host_a "SELECT device FROM amc_fleet.device LIMIT 1")
is "$(as host_a "SELECT count(*) FROM amc_fleet.host")" 1 "host_a sees only its own host row"
is "$(as host_a "SELECT assignment_id || ':' || n || ':' || (token > 0) FROM amc_fleet.claim($ha, '$da', 'sim', 600)")" \
	"$id3:2:true" "a claim past a stray attempt row numbers itself (attempt 2)"
# Version 5: a device runs one attempt at a time, so one host cannot claim
# the whole queue on one device and sit on it.
like "$(as host_a "SELECT * FROM amc_fleet.claim($ha, '$da', 'sim', 3)")" "already runs attempt" \
	"host_a cannot claim again for a device that runs an attempt"
set -- $(pg_sql "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE assignment_id = $id3 AND state = 'running'")
is "$(as host_a "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" t "host_a ends it; the device is free again"
# Finding 3: pinned work is another host's alone.
id4=$("$AMC" fleet submit --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" --host B --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
is "$(as host_a "SELECT count(*) FROM amc_fleet.assignment WHERE id = $id4")" 0 \
	"host_a cannot read the payload pinned to B"
is "$(as host_b "SELECT count(*) FROM amc_fleet.assignment WHERE id = $id4")" 1 "host_b can"
is "$(as host_a "SELECT count(*) FROM amc_fleet.claim($ha, '$da', 'sim', 3)")" 0 \
	"host_a's claim does not get work pinned to B"
like "$(as host_a "SELECT * FROM amc_fleet.claim($hb, 'sim:0', 'sim', 3)")" "registered by another role" \
	"host_a cannot claim as host_b's host row"
like "$(as host_a "SELECT amc_fleet.register_host('B', 'x', 1)")" "registered by another role" \
	"host_a cannot take the name B (pinning cannot be faked)"
like "$(as host_a "SELECT amc_fleet.register_host('host_b', 'x', 1)")" "name of another role" \
	"nor take host_b's role name as its host name"
id6=$("$AMC" fleet submit --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" --host host_b --priority 10 --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
is "$(as host_a "SELECT count(*) FROM amc_fleet.assignment WHERE id = $id6")" 0 \
	"work pinned to the role host_b is hidden from host_a"
is "$(as host_a "SELECT count(*) FROM amc_fleet.claim($ha, '$da', 'sim', 3)")" 0 "and not claimed by it"
hbd=$(pg_sql "SELECT device FROM amc_fleet.device WHERE host_id = $hb LIMIT 1")
is "$(as host_b "SELECT assignment_id FROM amc_fleet.claim($hb, '$hbd', 'sim', 600) WHERE assignment_id = $id6")" "$id6" \
	"host_b's host claims work pinned to its role"
set -- $(pg_sql "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE assignment_id = $id6")
is "$(as host_b "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" t "and ends it"
like "$(as host_a "SELECT * FROM amc_fleet.claim($ha, 'sim:77', 'sim', 3)")" "not registered" \
	"nor claim for a device it did not register"
like "$(as host_a "SELECT * FROM amc_fleet.claim($ha, '$da', 'sim', 100000)")" "a lease is 1 to 600 s \\(amc_fleet.setting.lease_max_s" \
	"nor take a lease of a day (the stored bound, version 5)"
like "$(as host_a "SELECT * FROM amc_fleet.claim($ha, '$da', 'sim', 601)")" "a lease is 1 to 600 s" \
	"nor one just over the stored bound"
like "$(as host_a "SELECT amc_fleet.holds($id4, 'host_b')")" "does not exist" \
	"holds(id, role) is gone: no asking about other roles' leases"
like "$(as host_a "SELECT amc_fleet.add_device($hb, 'sim:5', 'sim')")" "registered by another role" \
	"nor add devices to host_b"
like "$(as host_a "SELECT amc_fleet.heartbeat($hb, true)")" "registered by another role" \
	"nor mark host_b stopped"
is "$(as host_a "SELECT amc_fleet.register_host('A', 'x', 1)")" "$ha" "a restarted host reuses its row"
# A running attempt of B: A can neither renew, publish, decide nor end it.
pg_sql "INSERT INTO amc_fleet.attempt (assignment_id, n, host_label, host_role, device, lease_until)
	VALUES ($id4, 9, 'B', 'host_b', 'sim:7', now() + interval '1 hour');
	UPDATE amc_fleet.assignment SET state = 'leased' WHERE id = $id4" >/dev/null
tok=$(pg_sql "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE n = 9")
set -- $tok
like "$(as host_a "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" "belongs to another host role" \
	"host_a cannot end host_b's running attempt"
like "$(as host_a "SELECT * FROM amc_fleet.renew($1, $2, 3, NULL, NULL, NULL)")" "belongs to another host role" \
	"nor renew it"
like "$(as host_a "SELECT amc_fleet.publish($1, $2, 'x')")" "belongs to another host role" "nor name its task"
like "$(as host_a "SELECT amc_fleet.decide($1, $2, 1, 'p', 'm', 's', 'u', 't', 'a', 'o')")" \
	"belongs to another host role" "nor write its decisions"
# Finding 1: reaping with chosen parameters is the operator's; a host reaps
# by the stored settings, which cannot end a live lease.
pg_sql "INSERT INTO amc_fleet.decision (assignment_id, attempt, host_role, step) VALUES ($id1, 1, 'host_a', 1)" >/dev/null
like "$(as host_a "SELECT amc_fleet.reap(-100000, 0, 0)")" "permission denied" \
	"host_a cannot reap with its own grace and retention (finding 1)"
like "$(as host_a "UPDATE amc_fleet.setting SET reap_grace_s = 0")" "permission denied" \
	"nor change the stored settings"
like "$(pg_sql "UPDATE amc_fleet.setting SET reap_grace_s = -5" 2>&1)" "violates check constraint" \
	"a negative grace cannot be stored, even by the owner"
is "$(as host_a "SELECT amc_fleet.reap_stored()")" 0 "host_a reaps by the stored settings"
is "$(pg_sql "SELECT state FROM amc_fleet.attempt WHERE n = 9")" running "host_b's live lease is untouched"
is "$(pg_sql "SELECT count(*) FROM amc_fleet.decision")" 1 "and the decision history is kept"
# Finding 4 (the database's part): a lease that ran out while nothing reaped
# it is still its host's, and the end is stored at the lease's end at most.
pg_sql "UPDATE amc_fleet.attempt SET lease_until = now() - interval '5 s' WHERE n = 9" >/dev/null
is "$(as host_b "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" t \
	"host_b ends its attempt after its lease ran out, not reaped"
is "$(pg_sql "SELECT finished_at = lease_until FROM amc_fleet.attempt WHERE n = 9")" t \
	"finished at the lease's end, not later"
# After a server restart a lease gets one lease period (its last) plus the
# grace before it is lost; a late end of a reaped attempt is kept, not applied.
id5=$("$AMC" fleet submit --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" --host B --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
pg_sql "UPDATE amc_fleet.assignment SET state = 'leased' WHERE id = $id5;
	INSERT INTO amc_fleet.attempt (assignment_id, n, host_label, host_role, device, started_at, lease_until)
	VALUES ($id5, 1, 'B', 'host_b', 'sim:0', now() - interval '4 s', now() - interval '1 s')" >/dev/null
pg_down; pg_up
is "$(pg_sql "SELECT amc_fleet.reap(0, 200, 30)")" 0 "just after a restart the expired lease is not lost yet"
sleep 4
is "$(pg_sql "SELECT amc_fleet.reap(0, 200, 30)")" 1 "one lease period later it is"
is "$(pg_sql "SELECT finished_at = lease_until FROM amc_fleet.attempt WHERE assignment_id = $id5")" t \
	"a lost attempt's finished_at is its lease's end, not the reap time"
set -- $(pg_sql "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE assignment_id = $id5")
is "$(as host_b "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" f "host_b's late end is refused"
is "$(pg_sql "SELECT state || ':' || late_state FROM amc_fleet.attempt WHERE id = $1")" "lost:succeeded" \
	"and kept as a late end"
like "$("$AMC" fleet show "$id5")" "late end \(not applied\): succeeded at" "fleet show prints it"
like "$(as host_a "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" "belongs to another host role" \
	"host_a cannot write a late end for host_b"
# Version 5: what one host role may take is bounded by the stored limits.
is "$(as host_a "SELECT amc_fleet.add_device($ha, '$da', 'sim')")" "" "host_a registers its device again"
id8=$("$AMC" fleet submit --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
set -- $(as host_a "SELECT attempt_id || ' ' || token FROM amc_fleet.claim($ha, '$da', 'sim', 60)")
is "$(pg_sql "SELECT assignment_id FROM amc_fleet.attempt WHERE id = $1")" "$id8" "host_a claims new work on its free device"
like "$(as host_a "SELECT * FROM amc_fleet.renew($1, $2, 7200, NULL, NULL, NULL)")" "a lease is 1 to 600 s" \
	"nor renew for longer than the stored bound"
pg_sql "UPDATE amc_fleet.setting SET decision_mb_per_attempt = 1" >/dev/null
is "$(as host_a "SELECT amc_fleet.decide($1, $2, 1, 'p', 'm', repeat('s', 262144), repeat('u', 262144), 't',
	repeat('a', 262144), repeat('o', 262144 - 4))")" t "a decision of 1 MB is copied"
like "$(as host_a "SELECT amc_fleet.decide($1, $2, 2, 'p', 'm', repeat('s', 1000), 'u', 't', 'a', 'o')")" \
	"the most the fleet keeps for one attempt" "the next one past decision_mb_per_attempt is refused (no disk filled)"
is "$(pg_sql "SELECT count(*) FROM amc_fleet.decision WHERE assignment_id = $id8")" 1 "and not stored"
is "$(as host_a "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" t "host_a ends the attempt"
like "$(as host_a "UPDATE amc_fleet.setting SET hosts_per_role = 1000")" "permission denied" \
	"host_a cannot raise its own limits"
pg_sql "UPDATE amc_fleet.setting SET hosts_per_role = 2, devices_per_host = 1" >/dev/null
like "$(as host_a "SELECT amc_fleet.register_host('A2', 'x', 1)")" "^[0-9]" "host_a may register a second name"
like "$(as host_a "SELECT amc_fleet.register_host('A3', 'x', 1)")" "the most it may" \
	"but not more names than hosts_per_role"
like "$(as host_a "SELECT amc_fleet.add_device($ha, 'sim:5', 'sim')")" "the most it may" \
	"nor more devices than devices_per_host"
is "$(as host_a "SELECT amc_fleet.add_device($ha, '$da', 'sim')")" "" "its one registered device is still re-added"
done_testing
