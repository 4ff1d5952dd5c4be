#!/bin/sh
# test_fleet_hosts.sh - several `amc host` processes on one PostgreSQL
# database (pgserver.sh), each with its own AMC_HOME (its own SQLite store and
# sims): work spreads across two hosts; a host killed with SIGKILL loses its
# lease, the other host's reaper marks the attempt lost and runs attempt 2;
# a killed host is shown down, a restarted one reuses its row, fleet ls keeps
# the host and device of ended assignments; then the load test: 4 hosts x 2 sims, 200 one-command flows with OCR off,
# each succeeds exactly once, checked from both sides (fleet rows, and every
# host's local tasks: one per assignment, none overlapping another on one
# device), queued with one `submit --batch`, with the submit rate, claims per
# second, claim p50/p99 and end p99 (amc fleet metrics), renewals per second
# and "ran twice N, lost N" printed. FLEET_LOAD_N sets the number (make
# bench-fleet: 2000, with fsync on).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
pg_start
FLOWS="$AMC_TEST_SRCDIR/data/flows"
export AMC_FLEET_LEASE_S=3 AMC_FLEET_RENEW_S=1 AMC_FLEET_REAP_S=1 AMC_FLEET_REAP_GRACE_S=0 AMC_FLEET_POLL_S=2
export AMC_OCR_POLICY=off
"$AMC" fleet init >/dev/null; ok_status $? "fleet init"
SLOW="$T_HOME/slow.yaml"
cat >"$SLOW" <<'YAML'
appId: com.android.settings
name: Look at Wi-Fi three times
---
- launchApp
- tapOn: "Wi-Fi"
- assertVisible: "Use Wi-Fi"
- back
- tapOn: "Wi-Fi"
- assertVisible: "Use Wi-Fi"
- back
- tapOn: "Wi-Fi"
- assertVisible: "Use Wi-Fi"
YAML

# start_host NAME DEVICES [ENV=VALUE...]: a host with its own AMC_HOME; its pid in $host_pid
start_host() {
	_n=$1; _d=$2; shift 2
	mkdir -p "$T_HOME/$_n"
	env AMC_HOME="$T_HOME/$_n" "$@" "$AMC" host --devices "$_d" --name "$_n" >"$T_HOME/$_n.out" 2>&1 &
	host_pid=$!
}
submit() { "$AMC" fleet submit --json "$@" | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p'; }
count() { pg_sql "SELECT count(*) FROM amc_fleet.$1"; }

start_host A sim:0 AMC_SIM_FAULTS=latency:40; pa=$host_pid
start_host B sim:0 AMC_SIM_FAULTS=latency:40; pb=$host_pid
two_devices() { [ "$(count device)" = 2 ]; }
wait_for 10 two_devices
ok_status $? "both hosts registered their devices"
i=0
while [ $i -lt 10 ]; do submit --flow "$FLOWS/wifi-off-on.yaml" >/dev/null; i=$((i + 1)); done
all_done() { [ "$(count "assignment WHERE state IN ('queued','leased')")" = 0 ]; }
wait_for 60 all_done; ok_status $? "ten flows are worked off"
is "$(count "assignment WHERE state = 'succeeded'")" 10 "all ten succeeded"
like "$("$AMC" fleet ls)" "succeeded" "fleet ls lists them"
na=$(count "attempt WHERE host_label = 'A'"); nb=$(count "attempt WHERE host_label = 'B'")
diag "host A ran $na, host B ran $nb"
ok_status $([ "$na" -ge 1 ] && [ "$nb" -ge 1 ]; echo $?) "the work spread across both hosts"
like "$("$AMC" fleet hosts)" "A .*up" "fleet hosts lists host A"

# kill -9 the host that runs the slow flow: attempt 2 runs on the other one.
id=$(submit --flow "$SLOW")
running() { [ "$(count "attempt WHERE assignment_id = $id AND state = 'running' AND progress_step >= 1")" = 1 ]; }
wait_for 20 running; ok_status $? "the slow flow runs"
holder=$(pg_sql "SELECT host_label FROM amc_fleet.attempt WHERE assignment_id = $id AND n = 1")
if [ "$holder" = A ]; then kill -9 $pa; other=B; else kill -9 $pb; other=A; fi
diag "killed host $holder"
ended() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id")" = succeeded ]; }
wait_for 40 ended; ok_status $? "the assignment succeeds after its host died"
is "$(pg_sql "SELECT string_agg(n || ':' || state || ':' || host_label, ' ' ORDER BY n) FROM amc_fleet.attempt WHERE assignment_id = $id")" \
	"1:lost:$holder 2:succeeded:$other" "attempt 1 lost on $holder, attempt 2 succeeded on $other"
show=$("$AMC" fleet show "$id")
# Host health (issue 26): no heartbeat for 3 x reap_s (3 s here): down.
host_down() { "$AMC" fleet hosts | grep -Eq "^$holder \(.*\)  down, last seen"; }
wait_for 10 host_down; ok_status $? "the killed host is shown down"
like "$("$AMC" fleet hosts)" "^$other \(.*\)  up, last seen" "the other one up"
like "$("$AMC" fleet ls)" "^$id +succeeded .* $other sim:0 " "fleet ls keeps the host and device of an ended assignment"
like "$show" "attempt 1  lost  host $holder" "fleet show lists attempt 1"
like "$show" "attempt 2  succeeded  host $other" "and attempt 2"
like "$show" "lease expired at .* host $holder stopped renewing" "with the reason of the lost one"
# Attempt 2's local task is on the other host, with its source.
l2=$(pg_sql "SELECT local_task_id FROM amc_fleet.attempt WHERE assignment_id = $id AND n = 2")
like "$(AMC_HOME="$T_HOME/$other" "$AMC" show "$l2" --json)" '"source_attempt":[[:space:]]*2' \
	"the other host's local task is attempt 2"
# max_attempts used up: the assignment fails with every attempt's reason.
start_host "$holder" sim:0 AMC_SIM_FAULTS=latency:40
if [ "$holder" = A ]; then pa=$host_pid; else pb=$host_pid; fi
host_up() { "$AMC" fleet hosts | grep -Eq "^$holder \(.*\)  up, last seen"; }
wait_for 10 host_up; ok_status $? "the restarted host is up again"
is "$(count "host WHERE label = '$holder'")" 1 "and reuses its row"
id=$(submit --max-attempts 1 --flow "$SLOW")
wait_for 20 running; ok_status $? "a slow flow with max_attempts 1 runs"
holder=$(pg_sql "SELECT host_label FROM amc_fleet.attempt WHERE assignment_id = $id AND n = 1")
if [ "$holder" = A ]; then kill -9 $pa; other=B; else kill -9 $pb; other=A; fi
failed() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id")" = failed ]; }
wait_for 40 failed; ok_status $? "its host killed, the assignment fails"
like "$(pg_sql "SELECT error FROM amc_fleet.assignment WHERE id = $id")" \
	"all 1 attempts failed: attempt 1 \($holder sim:0\) lost: lease expired" "with every attempt's reason"
is "$(count "attempt WHERE assignment_id = $id")" 1 "and no further attempt"
if [ "$other" = A ]; then kill -TERM $pa; wait $pa; else kill -TERM $pb; wait $pb; fi
wait $pa $pb 2>/dev/null

# The load test.
N=${FLEET_LOAD_N:-200}
one="$T_HOME/one.yaml"
printf 'appId: com.android.settings\nname: One command\n---\n- launchApp\n' >"$one"
base=$(pg_sql "SELECT coalesce(max(id), 0) + 1 FROM amc_fleet.assignment")
i=0
while [ $i -lt "$N" ]; do printf '{"flow": "%s"}\n' "$one"; i=$((i + 1)); done >"$T_HOME/load.jsonl"
sub=$("$AMC" fleet submit --batch "$T_HOME/load.jsonl"); ok_status $? "$N assignments queued with one submit --batch"
echo "# fleet load: fsync $(pg_sql "SHOW fsync"), submit: $sub"
t0=$(date +%s.%N)
pids=""
# Small sims: the screenshots are what a one-command task spends its time on.
for h in L1 L2 L3 L4; do start_host $h sim:0,sim:1 AMC_SIM_WIDTH=270 AMC_SIM_HEIGHT=600; pids="$pids $host_pid"; done
load_done() { [ "$(count "assignment WHERE id >= $base AND state IN ('queued','leased')")" = 0 ]; }
wait_for 120 load_done; ok_status $? "$N assignments worked off by 4 hosts x 2 sims"
t1=$(date +%s.%N)
# shellcheck disable=SC2086
kill -TERM $pids; wait $pids
is "$(count "assignment WHERE id >= $base AND state = 'succeeded'")" "$N" "all $N succeeded"
is "$(count "attempt WHERE assignment_id >= $base AND state <> 'succeeded'")" 0 "each with one attempt"
is "$(pg_sql "SELECT count(*) FROM amc_fleet.attempt a JOIN amc_fleet.attempt b ON a.device = b.device
	AND a.host_id = b.host_id AND a.id < b.id AND a.assignment_id >= $base AND b.assignment_id >= $base
	AND tstzrange(a.started_at, a.finished_at) && tstzrange(b.started_at, b.finished_at)")" 0 \
	"no two attempts overlap on one device (fleet rows)"
# The other side: every host's local tasks, loaded into a table.
pg_sql "CREATE TABLE local_task (host text, source text, status text, device text, started bigint, finished bigint)" >/dev/null
for h in L1 L2 L3 L4; do
	AMC_HOME="$T_HOME/$h" "$AMC" tasks --limit 100000 --json | awk -v h="$h" '
		/"source_task_id":/ { s = $2; gsub(/[",]/, "", s) }
		/"status":/ { st = $2; gsub(/[",]/, "", st) }
		/"device":/ { d = $2; gsub(/[",]/, "", d) }
		/"started_ms":/ { a = $2; gsub(/,/, "", a) }
		/"finished_ms":/ { f = $2; gsub(/,/, "", f) }
		/^[[:space:]]*}/ { print h "," s "," st "," d "," a "," f }'
done >"$T_HOME/local.csv"
$PG_RUN "$PG_BIN/psql" -h "$PG_SOCK" -p "$PG_PORT" -U amc -d fleet -qAt \
	-c "COPY local_task FROM STDIN (FORMAT csv)" <"$T_HOME/local.csv"
ok_status $? "the hosts' local tasks are loaded"
is "$(pg_sql "SELECT count(*) FROM local_task WHERE source::bigint >= $base")" "$N" "$N local tasks across all stores"
is "$(pg_sql "SELECT count(DISTINCT source) FROM local_task WHERE source::bigint >= $base AND status = 'succeeded'")" "$N" \
	"one succeeded local task per assignment"
is "$(pg_sql "SELECT count(*) FROM local_task a JOIN local_task b ON a.host = b.host AND a.device = b.device
	AND a.source < b.source AND int8range(a.started, a.finished) && int8range(b.started, b.finished)")" 0 \
	"no two local tasks overlap on one device (step timestamps)"
hosts_used=$(pg_sql "SELECT count(DISTINCT host) FROM local_task")
is "$hosts_used" 4 "all four hosts took work"
secs=$(echo "$t1 $t0" | awk '{ printf "%.2f", $1 - $2 }')
ren=$(pg_sql "SELECT coalesce(sum(renewals), 0) FROM amc_fleet.attempt WHERE assignment_id >= $base")
echo "$N $secs $ren" | awk '{ printf "# fleet load: %d assignments on 4 hosts x 2 sims in %.2f s: %.1f claims/s, %.1f renewals/s\n", $1, $2, $1 / $2, $3 / $2 }'
for h in L1 L2 L3 L4; do grep "stopped after" "$T_HOME/$h.out" | sed "s/^/# $h: /"; done
# The latencies as the hosts reported them (amc fleet metrics), the worst host's.
m=$("$AMC" fleet metrics)
q() { printf '%s\n' "$m" | sed -n "s/^amc_fleet_$1_seconds{host=\"L[1-4]\",quantile=\"$2\"} \\([0-9.]*\\)\$/\\1/p" | sort -n | tail -1; }
cp50=$(q claim 0.5); cp99=$(q claim 0.99); ep99=$(q end 0.99)
twice=$(pg_sql "SELECT count(*) FROM (SELECT source FROM local_task WHERE source::bigint >= $base AND status = 'succeeded'
	GROUP BY source HAVING count(*) > 1) x")
lost=$(count "attempt WHERE assignment_id >= $base AND state = 'lost'")
echo "# fleet load: claim p50 ${cp50} s, claim p99 ${cp99} s, end p99 ${ep99} s (the worst of the 4 hosts); ran twice $twice, lost $lost"
ok "$([ -n "$cp50" ] && [ -n "$cp99" ] && [ -n "$ep99" ] && echo 1 || echo 0)" "every host reported its claim and end latencies"
is "$twice" 0 "ran twice: 0"
is "$lost" 0 "lost: 0"
done_testing
