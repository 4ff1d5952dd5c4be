#!/bin/sh
# test_hostdb.sh - issue 26: a fleet host holds at most two database
# connections whatever its number of devices (src/host/hostdb.c: one shared
# by all its slots for claims, renewals, progress and ends, renewals first;
# one session for LISTEN, heartbeats and the reaper). HOSTDB_HOSTS hosts
# (default 2) x HOSTDB_SIMS slow sims (default 4), each host connecting as
# its own host role (never the owner), work multi-step flows queued by the
# operator role with a 3 s lease (renewals every second) while the owner
# samples pg_stat_activity: at most 2 rows per host role at any time (and
# each host role has CONNECTION LIMIT 2, so a third connection would be
# refused by the server and logged: none is), every assignment succeeded
# once, no lease lost. `make bench-fleet` runs it with 32 hosts x 4 sims
# (HOSTDB_N assignments, default 4 per sim; HOSTDB_LEASE_S, default 3).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
pg_start
H=${HOSTDB_HOSTS:-2}; S=${HOSTDB_SIMS:-4}; N=${HOSTDB_N:-$((H * S * 4))}; L=${HOSTDB_LEASE_S:-3}
export AMC_FLEET_LEASE_S=$L AMC_FLEET_RENEW_S=$(( (L + 2) / 3 )) AMC_FLEET_REAP_S=1 AMC_FLEET_REAP_GRACE_S=1 AMC_FLEET_POLL_S=1
export AMC_OCR_POLICY=off
"$AMC" fleet init >/dev/null; ok_status $? "fleet init"
roles="CREATE ROLE op_c LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_operator;"
i=1
while [ $i -le "$H" ]; do
	roles="$roles CREATE ROLE host_c$i LOGIN NOSUPERUSER NOBYPASSRLS CONNECTION LIMIT 2 IN ROLE amc_fleet_host;"
	i=$((i + 1))
done
pg_sql "$roles" >/dev/null; ok_status $? "$H host roles and an operator role"
url() { echo "postgresql:///fleet?host=$PG_SOCK&port=$PG_PORT&user=$1"; }
export AMC_FLEET_URL="$(url op_c)"
flow="$T_HOME/three.yaml"
printf 'appId: com.android.settings\nname: Three commands\n---\n- launchApp\n- tapOn: "Wi-Fi"\n- back\n' >"$flow"
i=0
while [ $i -lt "$N" ]; do printf '{"flow": "%s"}\n' "$flow"; i=$((i + 1)); done >"$T_HOME/work.jsonl"
"$AMC" fleet submit --batch "$T_HOME/work.jsonl" >/dev/null; ok_status $? "$N assignments queued by the operator role"
devs=sim:0; k=1
while [ $k -lt "$S" ]; do devs="$devs,sim:$k"; k=$((k + 1)); done
pids=""; i=1
while [ $i -le "$H" ]; do
	mkdir -p "$T_HOME/h$i"
	env AMC_HOME="$T_HOME/h$i" AMC_FLEET_URL="$(url "host_c$i")" AMC_SIM_FAULTS=latency:150 \
		AMC_SIM_WIDTH=270 AMC_SIM_HEIGHT=600 "$AMC" host --devices "$devs" --name "h$i" >"$T_HOME/h$i.out" 2>&1 &
	pids="$pids $!"; i=$((i + 1))
done
# The owner samples the connections of every host role until the work is done.
q="SELECT coalesce(max(n), 0) || ' ' || coalesce(sum(n), 0) || ' ' || count(*) FROM (SELECT usename, count(*) AS n
	FROM pg_stat_activity WHERE usename LIKE 'host_c%' GROUP BY usename) x"
left="SELECT count(*) FROM amc_fleet.assignment WHERE state IN ('queued','leased')"
per=0; all=0; roles_seen=0; t0=$(date +%s); samples=0
while :; do
	set -- $(pg_sql "$q")
	[ "$1" -gt "$per" ] && per=$1
	[ "$2" -gt "$all" ] && all=$2
	[ "$3" -gt "$roles_seen" ] && roles_seen=$3
	samples=$((samples + 1))
	[ "$(pg_sql "$left")" = 0 ] && break
	[ $(($(date +%s) - t0)) -gt $((60 + N / 2)) ] && break
	sleep 0.2
done
secs=$(($(date +%s) - t0))
echo "# connections: $H hosts x $S sims, lease $L s: at most $per per host role, $all for all $roles_seen host roles at once ($samples samples over $secs s)"
is "$(pg_sql "$left")" 0 "the $N assignments are worked off"
ok "$([ "$per" -le 2 ] && echo 1 || echo 0)" "at most 2 connections per host role (saw $per)"
ok "$([ "$per" -ge 1 ] && [ "$roles_seen" = "$H" ] && echo 1 || echo 0)" "every host role was seen connected ($roles_seen)"
is "$(grep -c "too many connections for role" "$PG_DIR/server.log")" 0 \
	"the server refused no third connection of a host role (CONNECTION LIMIT 2)"
# shellcheck disable=SC2086
kill -TERM $pids; wait $pids
is "$(pg_sql "SELECT count(*) FROM amc_fleet.assignment WHERE state = 'succeeded'")" "$N" "all $N succeeded"
is "$(pg_sql "SELECT count(*) FROM amc_fleet.attempt")" "$N" "each with one attempt"
is "$(pg_sql "SELECT count(*) FROM amc_fleet.attempt WHERE host_role NOT LIKE 'host_c%'")" 0 "every attempt run by a host role"
lost=0; renewals=0; i=1
while [ $i -le "$H" ]; do
	l=$(sed -n 's/.* \([0-9]*\) leases lost.*/\1/p' "$T_HOME/h$i.out"); lost=$((lost + ${l:-1}))
	r=$(sed -n 's/.* \([0-9]*\) renewals (.*/\1/p' "$T_HOME/h$i.out"); renewals=$((renewals + ${r:-0}))
	[ $i -le 2 ] && grep "stopped after" "$T_HOME/h$i.out" | sed "s/^/# h$i: /"
	i=$((i + 1))
done
echo "# $renewals renewals in all, $lost leases lost"
is "$lost" 0 "no lease lost: renewals were not starved by the shared connection"
ok "$([ "$renewals" -ge 1 ] && echo 1 || echo 0)" "renewals ran on it ($renewals)"
done_testing
