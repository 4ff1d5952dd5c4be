#!/bin/sh
# test_fleet.sh - amc fleet and one amc host on a private PostgreSQL 15
# (pgserver.sh): the schema is created and versioned, a flow is submitted,
# claimed, run on the sim and completed with the local task correlated both
# ways (amc show --json: source_task_id / source_attempt; amc fleet show: the
# local task id); the lease is renewed with the latest progress, which is
# gone after the end; bad payloads fail their attempt and the host goes on;
# cancel reaches a running host; a lost lease interrupts the local task
# ("lease lost", finished steps kept), a late end is rejected and the reaper
# queues attempt 2; SIGTERM hands a running attempt back (released, not
# counted toward max_attempts).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
pg_start
FLOWS="$AMC_TEST_SRCDIR/data/flows"
# Short leases so that the faults show within seconds.
export AMC_FLEET_LEASE_S=3 AMC_FLEET_RENEW_S=1 AMC_FLEET_REAP_S=1 AMC_FLEET_REAP_GRACE_S=0 AMC_FLEET_POLL_S=2
export AMC_OCR_POLICY=off
submit_slow() { "$AMC" fleet submit --flow "$SLOW" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p'; }
# A flow that can be run again from any point (the lease tests stop it midway).
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

out=$("$AMC" fleet ls 2>&1); is $? 3 "fleet ls before init: environment error"
like "$out" "amc fleet init" "it says to run amc fleet init"
out=$("$AMC" fleet init 2>&1); ok_status $? "fleet init"
like "$out" "version 6 \(was 0\)" "init creates version 6"
out=$("$AMC" fleet init 2>&1); ok_status $? "fleet init again"
like "$out" "up to date" "a second init changes nothing"
is "$(pg_sql "SELECT max(version) FROM amc_fleet.meta")" 6 "the schema version is stored"
# A schema newer than this amc (a later amc ran init): refused, not misread.
pg_sql "INSERT INTO amc_fleet.meta (version) VALUES (99)" >/dev/null
out=$("$AMC" fleet ls 2>&1); is $? 3 "a newer fleet schema: environment error"
like "$out" "version 99, newer than this amc knows \\(6\\)" "saying which versions"
out=$("$AMC" fleet init 2>&1); is $? 3 "init does not touch a newer schema"
out=$("$AMC" host --devices sim:0 --name hv 2>&1); is $? 3 "nor does a host start on it"
pg_sql "DELETE FROM amc_fleet.meta WHERE version = 99" >/dev/null
out=$(AMC_FLEET_URL="postgresql://amc:s3cretpw@127.0.0.1:1/fleet" "$AMC" fleet ls 2>&1)
is $? 3 "an unreachable database is an environment error"
ok_status $(printf '%s' "$out" | grep -q s3cretpw; echo $((! $?))) "the password is not printed"
like "$out" "\*\*\*" "the URL is shown redacted"

id1=$("$AMC" fleet submit --flow "$FLOWS/wifi-off-on.yaml" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
is "$id1" 1 "submit --flow queues assignment 1"
is "$(pg_sql "SELECT state || ' ' || kind || ' ' || title FROM amc_fleet.assignment WHERE id = 1")" \
	"queued flow wifi-off-on.yaml" "it is queued with its title"
like "$(pg_sql "SELECT payload FROM amc_fleet.assignment WHERE id = 1")" "tapOn: \\\\\"Use Wi-Fi\\\\\"" \
	"the flow's text travels in the payload"
long=$(head -c 5000 /dev/zero | tr '\0' a)
out=$("$AMC" fleet submit "$long" 2>&1); is $? 2 "a goal over the limit is refused at submit"
# Bad data written straight to the database: each fails its attempt.
bad_json=$(pg_sql "INSERT INTO amc_fleet.assignment (kind, title, payload) VALUES ('flow', 'bad', '{not json') RETURNING id")
bad_cmd=$(pg_sql "INSERT INTO amc_fleet.assignment (kind, title, payload) VALUES ('flow', 'bad', '{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"x.yaml\",\"text\":\"appId: x\\n---\\n- frobnicate: 1\\n\"}}') RETURNING id")
bad_goal=$(pg_sql "INSERT INTO amc_fleet.assignment (kind, title, payload) VALUES ('goal', 'long', '{\"v\":1,\"kind\":\"goal\",\"goal\":\"$long\"}') RETURNING id")
# A flow with a sub-flow: the sub-flow travels in the payload and runs on the host.
mkdir -p "$T_HOME/subflows/sub"
printf 'appId: com.android.settings\n---\n- runFlow: sub/open.yaml\n- assertVisible: "Bluetooth"\n' >"$T_HOME/subflows/main.yaml"
printf 'appId: com.android.settings\n---\n- launchApp\n- assertVisible: "Wi-Fi"\n' >"$T_HOME/subflows/sub/open.yaml"
with_sub=$("$AMC" fleet submit --flow "$T_HOME/subflows/main.yaml" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
like "$(pg_sql "SELECT payload FROM amc_fleet.assignment WHERE id = $with_sub")" '"name":"sub/open.yaml"' \
	"a flow's sub-flow travels in its payload"

"$AMC" host --devices sim:0 --name h1 >"$T_HOME/h1.out" 2>&1 &
h1=$!
done_all() { [ "$(pg_sql "SELECT count(*) FROM amc_fleet.assignment WHERE state IN ('queued','leased')")" = 0 ]; }
wait_for 30 done_all; ok_status $? "the host works off the queue"
is "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = 1")" succeeded "the flow succeeded"
is "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $with_sub")" succeeded "the flow with a sub-flow succeeded on the host"
for b in "$bad_json" "$bad_cmd" "$bad_goal"; do
	is "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $b")" failed "bad assignment $b failed"
done
like "$(pg_sql "SELECT error FROM amc_fleet.attempt WHERE assignment_id = $bad_json")" "bad assignment: .*JSON" \
	"invalid JSON: a clear error"
like "$(pg_sql "SELECT error FROM amc_fleet.attempt WHERE assignment_id = $bad_cmd")" "frobnicate" \
	"an unknown flow command is named"
like "$(pg_sql "SELECT error FROM amc_fleet.attempt WHERE assignment_id = $bad_goal")" "4000" \
	"a goal over the limit: the limit is named"

# Correlation, both ways.
local_id=$(pg_sql "SELECT local_task_id FROM amc_fleet.attempt WHERE assignment_id = 1 AND n = 1")
ok_status $([ ${#local_id} -eq 16 ]; echo $?) "the attempt names its local task ($local_id)"
js=$("$AMC" show "$local_id" --json); ok_status $? "amc show LOCAL_ID"
like "$js" '"source_task_id":[[:space:]]*"1"' "the local task's source is the assignment"
like "$js" '"source_attempt":[[:space:]]*1' "and its attempt"
like "$js" '"status":[[:space:]]*"succeeded"' "the local task succeeded"
like "$("$AMC" show "$local_id")" "source +1 attempt 1" "amc show prints the source"
like "$("$AMC" tasks)" "from 1 #1" "amc tasks shows the source"
# The TUI: the Tasks view's SOURCE column and the Task view's header.
printf ':dump tasks\nEnter\n:dump task\n' >"$T_HOME/tui.keys"
mkdir -p "$T_HOME/dump"
"$AMC" tui --script "$T_HOME/tui.keys" --dump-dir "$T_HOME/dump" --size 160x30 </dev/null
ok_status $? "amc tui in script mode"
like "$(cat "$T_HOME/dump/tasks.txt")" "1#1" "the Tasks view shows the assignment and attempt"
like "$(cat "$T_HOME/dump/task.txt")" "from $with_sub #1" "the Task view's header too (the newest task: the sub-flow one)"
# The Fleet view: hosts and assignments, read by a worker thread.
printf 'F\n:drain\n:dump fleet\n' >"$T_HOME/fleet.keys"
"$AMC" tui --script "$T_HOME/fleet.keys" --dump-dir "$T_HOME/dump" --size 160x30 </dev/null
ok_status $? "amc tui: the Fleet view"
like "$(cat "$T_HOME/dump/fleet.txt")" "h1 +up .* sim:0" "it lists the host and its device"
like "$(cat "$T_HOME/dump/fleet.txt")" "1 +succeeded +1/3 .*wifi-off-on.yaml" "and the assignments"
like "$(cat "$T_HOME/dump/fleet.txt")" "frobnicate" "with the error of a failed one"
# Enter: the selected (newest) assignment's attempts; Enter again: its task.
printf 'F\n:drain\nEnter\n:drain\n:dump fleet-detail\nEnter\n:dump fleet-task\n' >"$T_HOME/fleet2.keys"
"$AMC" tui --script "$T_HOME/fleet2.keys" --dump-dir "$T_HOME/dump" --size 160x30 </dev/null
sed 's/^/#   /' "$T_HOME/dump/fleet-detail.txt" | head -n 8
like "$(cat "$T_HOME/dump/fleet-detail.txt")" "assignment $with_sub +succeeded +flow +main\.yaml" "Enter: the assignment's header"
like "$(cat "$T_HOME/dump/fleet-detail.txt")" "  1 succeeded +h1 +sim:0 +[0-9a-z]{16}" "and its attempt: host, device, local task"
like "$(cat "$T_HOME/dump/fleet-task.txt")" "from $with_sub #1" "Enter on the attempt opens its task (it ran here)"
AMC_FLEET_URL="postgresql:///fleet?host=/nonexistent-amc-dir&user=amc" \
	"$AMC" tui --script "$T_HOME/fleet.keys" --dump-dir "$T_HOME/dump" --size 160x30 </dev/null
like "$(cat "$T_HOME/dump/fleet.txt")" "fleet database unreachable \(retrying\): cannot connect" "an unreachable database is shown as such"
show=$("$AMC" fleet show 1); ok_status $? "fleet show 1"
like "$show" "attempt 1  succeeded  host h1  device sim:0" "fleet show lists the attempt"
like "$show" "amc show $local_id" "and the command to inspect it on its host"
fj=$("$AMC" fleet show 1 --json)
like "$fj" '"local_task_id":[[:space:]]*"'"$local_id"'"' "fleet show --json has the local task id"
like "$fj" '"summary":[[:space:]]*null' "no progress is shown for an ended attempt"
like "$("$AMC" fleet ls)" "succeeded +1/3 +flow" "fleet ls"
like "$("$AMC" fleet hosts)" "h1 .*up" "fleet hosts lists the host"
like "$("$AMC" fleet hosts --json)" '"device":[[:space:]]*"sim:0"' "with its device"

# Progress while running (a slow sim), renewals, and none after the end.
kill -TERM $h1; wait $h1; is $? 0 "SIGTERM: the host stops cleanly"
like "$(cat "$T_HOME/h1.out")" "stopped after .* claims" "the host prints its summary"
is "$(pg_sql "SELECT stopped_at IS NOT NULL FROM amc_fleet.host WHERE label = 'h1'")" t "the host is marked stopped"
AMC_SIM_FAULTS=latency:150 "$AMC" host --devices sim:0 --name h2 >"$T_HOME/h2.out" 2>&1 &
h2=$!
id2=$("$AMC" fleet submit --flow "$SLOW" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
has_progress() { [ "$(pg_sql "SELECT count(*) FROM amc_fleet.attempt WHERE assignment_id = $id2 AND progress_step >= 2 AND renewals > 0")" = 1 ]; }
wait_for 20 has_progress; ok_status $? "a renewal carried the latest progress"
like "$("$AMC" fleet show "$id2")" "progress: step [0-9]+ (running|ok): " "fleet show prints the progress"
like "$("$AMC" fleet ls)" "h2 sim:0 .*\[step [0-9]+" "fleet ls prints the progress"
ended2() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id2")" = succeeded ]; }
wait_for 30 ended2; ok_status $? "the slow flow succeeded"
is "$(pg_sql "SELECT count(*) FROM amc_fleet.attempt WHERE assignment_id = $id2 AND progress_summary IS NOT NULL")" 0 \
	"only running attempts keep a progress snapshot"

# Cancel reaches the running host.
id3=$("$AMC" fleet submit --flow "$SLOW" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
running3() { [ "$(pg_sql "SELECT count(*) FROM amc_fleet.attempt WHERE assignment_id = $id3 AND progress_step >= 1")" = 1 ]; }
wait_for 20 running3; ok_status $? "assignment $id3 runs"
like "$("$AMC" fleet cancel "$id3")" "asked to stop" "fleet cancel asks the host"
ended3() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id3")" = cancelled ]; }
wait_for 10 ended3; ok_status $? "the running assignment ends cancelled"
l3=$(pg_sql "SELECT local_task_id FROM amc_fleet.attempt WHERE assignment_id = $id3")
like "$("$AMC" show "$l3" --json)" '"status":[[:space:]]*"cancelled"' "its local task is cancelled"
out=$("$AMC" fleet cancel "$id3" 2>&1); is $? 2 "cancelling an ended assignment is refused"

# A lost lease: the fleet takes the attempt back (another token); the host
# stops at its next renewal, a late end is rejected, the reaper queues attempt 2.
id4=$("$AMC" fleet submit --flow "$SLOW" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
running4() { [ "$(pg_sql "SELECT count(*) FROM amc_fleet.attempt WHERE assignment_id = $id4 AND progress_step >= 2")" = 1 ]; }
wait_for 20 running4; ok_status $? "assignment $id4 runs"
tok=$(pg_sql "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE assignment_id = $id4 AND n = 1")
pg_sql "UPDATE amc_fleet.attempt SET token = token + 1000000 WHERE assignment_id = $id4 AND n = 1" >/dev/null
l4=$(pg_sql "SELECT local_task_id FROM amc_fleet.attempt WHERE assignment_id = $id4 AND n = 1")
interrupted4() { "$AMC" show "$l4" --json | grep -q '"status":[[:space:]]*"interrupted"'; }
wait_for 10 interrupted4; ok_status $? "the local task is interrupted"
js=$("$AMC" show "$l4" --json)
like "$js" '"error":[[:space:]]*"lease lost' "with the reason: lease lost"
like "$js" '"step":[[:space:]]*2' "its finished steps are kept"
like "$(cat "$AMC_HOME/amc.log" 2>/dev/null)" "rejected the end of assignment $id4" "the host's late end was rejected"
set -- $tok
is "$(pg_sql "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" f "a complete with the old token is rejected"
ended4() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id4")" = succeeded ]; }
wait_for 30 ended4; ok_status $? "the reaper queued it again and attempt 2 succeeded"
is "$(pg_sql "SELECT string_agg(n || ':' || state, ' ' ORDER BY n) FROM amc_fleet.attempt WHERE assignment_id = $id4")" \
	"1:lost 2:succeeded" "attempt 1 lost, attempt 2 succeeded"
like "$("$AMC" fleet show "$id4")" "attempt 1  lost .*
.*error: lease expired" "fleet show gives the lost attempt's reason"

# SIGTERM with a task running and no time to finish: handed back, not counted.
kill -TERM $h2; wait $h2
AMC_FLEET_STOP_TIMEOUT_S=0 AMC_SIM_FAULTS=latency:150 "$AMC" host --devices sim:0 --name h3 >"$T_HOME/h3.out" 2>&1 &
h3=$!
id5=$("$AMC" fleet submit --max-attempts 1 --flow "$SLOW" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
running5() { [ "$(pg_sql "SELECT count(*) FROM amc_fleet.attempt WHERE assignment_id = $id5 AND progress_step >= 1")" = 1 ]; }
wait_for 20 running5; ok_status $? "assignment $id5 runs"
kill -TERM $h3; wait $h3; is $? 0 "the host stops"
is "$(pg_sql "SELECT state FROM amc_fleet.attempt WHERE assignment_id = $id5 AND n = 1")" released "the attempt is released"
is "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id5")" queued "the assignment is queued again"
l5=$(pg_sql "SELECT local_task_id FROM amc_fleet.attempt WHERE assignment_id = $id5 AND n = 1")
like "$("$AMC" show "$l5" --json)" '"status":[[:space:]]*"interrupted"' "its local task is interrupted"
"$AMC" host --devices sim:0 --name h4 >"$T_HOME/h4.out" 2>&1 &
h4=$!
ended5() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id5")" = succeeded ]; }
wait_for 30 ended5; ok_status $? "with max_attempts 1 it still runs again (released does not count)"

# The database goes away mid-run for longer than the lease: the host
# self-fences (the local task ends interrupted, its steps kept), reconnects
# when the server is back, and the reaper runs attempt 2.
kill -TERM $h4; wait $h4
id6=$(submit_slow)
running6() { [ "$(pg_sql "SELECT count(*) FROM amc_fleet.attempt WHERE assignment_id = $id6 AND progress_step >= 2")" = 1 ]; }
AMC_SIM_FAULTS=latency:150 "$AMC" host --devices sim:0 --name h5 >"$T_HOME/h5.out" 2>&1 &
h5=$!
wait_for 20 running6; ok_status $? "assignment $id6 runs"
l6=$(pg_sql "SELECT local_task_id FROM amc_fleet.attempt WHERE assignment_id = $id6 AND n = 1")
pg_down
interrupted6() { "$AMC" show "$l6" --json | grep -q '"status":[[:space:]]*"interrupted"'; }
wait_for 10 interrupted6; ok_status $? "with the database gone, the host self-fences"
like "$("$AMC" show "$l6" --json)" '"error":[[:space:]]*"lease lost: no renewal reached' "the reason says so"
like "$("$AMC" show "$l6" --json)" '"step":[[:space:]]*2' "the finished steps are kept"
pg_up
ended6() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id6")" = succeeded ]; }
wait_for 40 ended6; ok_status $? "the server back, attempt 2 succeeds"
is "$(pg_sql "SELECT string_agg(n || ':' || state, ' ' ORDER BY n) FROM amc_fleet.attempt WHERE assignment_id = $id6")" \
	"1:lost 2:succeeded" "attempt 1 lost, attempt 2 succeeded: it never ran twice at once"
kill -TERM $h5; wait $h5

# A short outage within the lease: the host reconnects and renews in time;
# the task goes on as attempt 1.
AMC_FLEET_LEASE_S=8 AMC_SIM_FAULTS=latency:150 "$AMC" host --devices sim:0 --name h6 >"$T_HOME/h6.out" 2>&1 &
h6=$!
id7=$(submit_slow)
running7() { [ "$(pg_sql "SELECT count(*) FROM amc_fleet.attempt WHERE assignment_id = $id7 AND renewals >= 1")" = 1 ]; }
wait_for 20 running7; ok_status $? "assignment $id7 runs and renews"
r0=$(pg_sql "SELECT renewals FROM amc_fleet.attempt WHERE assignment_id = $id7")
pg_down; pg_up
ended7() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id7")" = succeeded ]; }
wait_for 40 ended7; ok_status $? "after a short outage the assignment succeeds"
is "$(pg_sql "SELECT string_agg(n || ':' || state, ' ' ORDER BY n) FROM amc_fleet.attempt WHERE assignment_id = $id7")" \
	"1:succeeded" "as attempt 1: the lease was renewed in time"
r1=$(pg_sql "SELECT renewals FROM amc_fleet.attempt WHERE assignment_id = $id7")
diag "renewals before the outage $r0, at the end $r1"
kill -TERM $h6; wait $h6

# --devices 'adb:*': every phone adb lists as ready (the stand-in, first on
# PATH as adb: two phones and an unauthorized one), each a slot of the host.
mkdir -p "$T_HOME/bin"
ln -sf "$AMC_TEST_BUILDDIR/tests/tools/adb-standin" "$T_HOME/bin/adb"
PATH="$T_HOME/bin:$PATH" AMC_ADB_STANDIN_SERIALS=emulator-5554,emulator-5556 AMC_ADB_STANDIN_UNAUTHORIZED=R58NOTALLOWED \
	AMC_OCR_POLICY=off "$AMC" host --devices 'adb:*' --name h7 >"$T_HOME/h7.out" 2>&1 &
h7=$!
registered7() { [ "$(pg_sql "SELECT count(*) FROM amc_fleet.device d JOIN amc_fleet.host h ON h.id = d.host_id WHERE h.label = 'h7'")" = 2 ]; }
wait_for 20 registered7; ok_status $? "adb:* registers the two ready phones"
is "$(pg_sql "SELECT string_agg(d.device || ' ' || d.kind, ',' ORDER BY d.device) FROM amc_fleet.device d JOIN amc_fleet.host h ON h.id = d.host_id WHERE h.label = 'h7'")" \
	"adb:emulator-5554 adb,adb:emulator-5556 adb" "by their adb ids, of kind adb (the unauthorized one left out)"
id8=$("$AMC" fleet submit --device-kind adb --flow "$FLOWS/wifi-off-on.yaml" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
ended8() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id8")" = succeeded ]; }
wait_for 40 ended8; ok_status $? "an assignment for an adb phone runs on one of them"
like "$(pg_sql "SELECT device FROM amc_fleet.attempt WHERE assignment_id = $id8")" '^adb:emulator-555[46]$' "the attempt names the phone"
kill -TERM $h7; wait $h7
PATH="$T_HOME/bin:$PATH" AMC_ADB_STANDIN_SERIALS=emulator-5554 "$AMC" host --devices 'adb:emulator-5554,adb:*' --name h8 \
	>"$T_HOME/h8.out" 2>&1; is $? 3 "adb:* with no other ready phone: an environment error"
like "$(cat "$T_HOME/h8.out")" "no phone ready" "saying what to do"

# Needs: a goal for a coding agent's CLI is claimed only by a host where that
# CLI can run (agent=claude among its capabilities); --needs KEY=VALUE only by
# a host whose fleet.capabilities have it.
export HOME="$T_HOME/user"
mkdir -p "$HOME/.claude"
printf '%s\n' '{"claudeAiOauth":{"accessToken":"fake","subscriptionType":"pro"}}' >"$HOME/.claude/.credentials.json"
cat >"$T_HOME/fake-claude" <<'EOF2'
#!/bin/sh
case "${1:-}" in --version) echo "2.1.197 (Claude Code)"; exit 0 ;; esac
echo '{"type":"result","subtype":"success","is_error":false,"result":"looked","session_id":"s-fleet","num_turns":1}'
EOF2
chmod +x "$T_HOME/fake-claude"
out=$("$AMC" fleet submit --agent gemini "Turn Wi-Fi off" 2>&1); is $? 2 "submit --agent gemini: bad usage"
out=$("$AMC" fleet submit --needs 'App=X y' "Turn Wi-Fi off" 2>&1); is $? 2 "a malformed need: bad usage"
id9=$("$AMC" fleet submit --agent claude --json "Turn Wi-Fi off" | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
is "$(pg_sql "SELECT array_to_string(needs, ',') FROM amc_fleet.assignment WHERE id = $id9")" "agent=claude" "--agent claude: the assignment needs agent=claude"
id10=$("$AMC" fleet submit --needs app=com.example --flow "$FLOWS/wifi-off-on.yaml" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
id11=$("$AMC" fleet submit --flow "$FLOWS/wifi-off-on.yaml" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
AMC_AGENT_CLAUDE_PATH=/nonexistent/claude "$AMC" host --devices sim:0 --name h9 >"$T_HOME/h9.out" 2>&1 &
h9=$!
ended11() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id11")" = succeeded ]; }
wait_for 40 ended11; ok_status $? "a host without Claude Code runs the work it can do"
sleep 2
is "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id9")" "queued" "and leaves the agent goal queued (it cannot run Claude Code)"
is "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id10")" "queued" "and the work needing app=com.example"
kill -TERM $h9; wait $h9
AMC_AGENT_CLAUDE_PATH="$T_HOME/fake-claude" AMC_FLEET_CAPABILITIES="app=com.example,bad cap" "$AMC" host --devices sim:0 --name h10 >"$T_HOME/h10.out" 2>&1 &
h10=$!
done9() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id9")" != queued ] && [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id9")" != leased ]; }
done10() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id10")" = succeeded ]; }
wait_for 60 done9; ok_status $? "a host where Claude Code can run claims the agent goal"
like "$(pg_sql "SELECT error FROM amc_fleet.attempt WHERE assignment_id = $id9")" "Claude Code stopped without finishing" "and runs it with Claude Code as the planner"
wait_for 40 done10; ok_status $? "a host with fleet.capabilities app=com.example claims the work that needs it"
kill -TERM $h10; wait $h10

# amc fleet cancel ends a running agent run: the host's task is cancelled and
# the CLI's process group is ended with it (a stand-in that waits forever, as
# a CLI waits on its model), as Ctrl-C, cancel_task and the TUI's cancel do.
cat >"$T_HOME/hang-claude" <<'EOF2'
#!/bin/sh
case "${1:-}" in --version) echo "2.1.197 (Claude Code)"; exit 0 ;; esac
echo $$ >"$AMC_TEST_HANG_PIDS"
sleep 300 &
echo $! >>"$AMC_TEST_HANG_PIDS"
wait
EOF2
chmod +x "$T_HOME/hang-claude"
id12=$("$AMC" fleet submit --agent claude --json "Turn Wi-Fi off" | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
AMC_TEST_HANG_PIDS="$T_HOME/hang.pids" AMC_AGENT_CLAUDE_PATH="$T_HOME/hang-claude" "$AMC" host --devices sim:0 --name h11 >"$T_HOME/h11.out" 2>&1 &
h11=$!
hung12() { [ "$(wc -l <"$T_HOME/hang.pids" 2>/dev/null)" = 2 ]; }
wait_for 40 hung12; ok_status $? "a host starts the agent goal $id12 (its CLI waits on its model)"
is "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id12")" "leased" "the agent goal is running on h11"
like "$("$AMC" fleet cancel "$id12")" "asked to stop" "fleet cancel asks the host to stop the agent run"
ended12() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id12")" = cancelled ]; }
wait_for 20 ended12; ok_status $? "the agent's assignment ends cancelled"
l12=$(pg_sql "SELECT local_task_id FROM amc_fleet.attempt WHERE assignment_id = $id12")
like "$("$AMC" show "$l12" --json)" '"status":[[:space:]]*"cancelled"' "its local task is cancelled"
gone12() { for p in $(cat "$T_HOME/hang.pids"); do kill -0 "$p" 2>/dev/null && return 1; done; return 0; }
wait_for 10 gone12; ok_status $? "the agent CLI and its children are gone"
kill -TERM $h11; wait $h11; is $? 0 "the host stops cleanly afterwards"
done_testing
