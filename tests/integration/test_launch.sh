#!/bin/sh
# test_launch.sh - the one run rule of src/launch/ (amc_launch_run), seen from
# two front ends: a task accepted but unable to start (its device busy) is
# recorded `failed` with the reason, and the front end reports that same
# reason: `amc run` with exit status 3, the fleet host as the attempt's error,
# whose local_task_id names that failed row (never a task that does not exist).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"

# A long flow holds sim:0 (real latency on every sim call) while the others try.
HOLD="$T_HOME/hold.yaml"
{
	printf 'appId: com.android.settings\nname: Hold the sim\n---\n- launchApp\n'
	i=0
	while [ $i -lt 40 ]; do printf -- '- tapOn: "Wi-Fi"\n- back\n'; i=$((i + 1)); done
} >"$HOLD"
FLOW="$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml"
running_id() { "$AMC" tasks --status running --json | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1; }
has_running() { [ -n "$(running_id)" ]; }
field() { # field JSON NAME: a string field's value
	printf '%s' "$1" | sed -n "s/.*\"$2\":[[:space:]]*\"\([^\"]*\)\".*/\1/p" | head -n 1
}

AMC_SIM_FAULTS=latency:150 "$AMC" run --flow "$HOLD" >"$T_HOME/hold.out" 2>&1 &
hold=$!
wait_for 30 has_running; ok_status $? "a long task holds sim:0"
holder=$(running_id)

# amc run: exit 3, the reason on stderr, and a failed row with that reason
out=$("$AMC" run --flow "$FLOW" 2>&1); rc=$?
is $rc 3 "amc run on the busy sim: exit status 3"
like "$out" "busy with task $holder" "naming the task that holds it"
failed=$("$AMC" tasks --status failed --json)
id=$(field "$failed" id)
ok_status $([ -n "$id" ]; echo $?) "the task that could not start is recorded ($id)"
js=$("$AMC" show "$id" --json)
like "$js" '"status":[[:space:]]*"failed"' "as failed"
like "$js" "\"error\":[[:space:]]*\"device sim:0 is busy with task $holder" "with the reason amc run printed"
reason=$(printf '%s\n' "$out" | sed -n 's/^amc: //p' | head -n 1)
is "$(field "$js" error)" "$reason" "the very same words"

# the fleet host: the attempt fails with the same reason, and names the row
if [ -x "${PG_BIN:-/usr/lib/postgresql/15/bin}/initdb" ] && { [ "$(id -u)" != 0 ] || id postgres >/dev/null 2>&1; }; then
	pg_start
	export AMC_FLEET_LEASE_S=10 AMC_FLEET_RENEW_S=1 AMC_FLEET_POLL_S=1
	export AMC_OCR_POLICY=off
	"$AMC" fleet init >/dev/null 2>&1; ok_status $? "fleet init"
	aid=$("$AMC" fleet submit --flow "$FLOW" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
	"$AMC" host --devices sim:0 --name hb >"$T_HOME/host.out" 2>&1 &
	host=$!
	first_done() { [ -n "$(pg_sql "SELECT 1 FROM amc_fleet.attempt WHERE assignment_id = $aid AND n = 1 AND state <> 'running'")" ]; }
	wait_for 30 first_done; ok_status $? "the host claimed the assignment and ended its attempt"
	is "$(pg_sql "SELECT state FROM amc_fleet.attempt WHERE assignment_id = $aid AND n = 1")" failed \
		"the attempt on the busy sim failed"
	perr=$(pg_sql "SELECT error FROM amc_fleet.attempt WHERE assignment_id = $aid AND n = 1")
	like "$perr" "^device sim:0 is busy with task $holder" "with the reason amc run gives"
	local_id=$(pg_sql "SELECT local_task_id FROM amc_fleet.attempt WHERE assignment_id = $aid AND n = 1")
	ok_status $([ ${#local_id} -eq 16 ]; echo $?) "the attempt names its local task ($local_id)"
	ljs=$("$AMC" show "$local_id" --json); ok_status $? "which exists"
	like "$ljs" '"status":[[:space:]]*"failed"' "recorded failed"
	is "$(field "$ljs" error)" "$perr" "with the attempt's reason"
	like "$ljs" '"source_task_id":[[:space:]]*"'"$aid"'"' "correlated with the assignment"
	kill -TERM $host; wait $host 2>/dev/null
else
	echo "# no PostgreSQL 15 server: the fleet host's part is not run"
fi

kill -INT $hold; wait $hold 2>/dev/null
done_testing
