#!/bin/sh
# test_fleet_retry.sh - the operator's controls of issue 26, submitted as the
# operator role (amc_fleet_operator) and run by a host role, never the owner:
# --retries with a doubling backoff (a failure a retry cannot fix is not
# retried), --timeout enforced by the host and by the reaper, --not-before
# honoured by claim, and --batch (every line checked first, errors by line,
# one transaction per chunk).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
pg_start
export AMC_FLEET_LEASE_S=3 AMC_FLEET_RENEW_S=1 AMC_FLEET_REAP_S=1 AMC_FLEET_REAP_GRACE_S=0 AMC_FLEET_POLL_S=1
export AMC_OCR_POLICY=off
"$AMC" fleet init >/dev/null; ok_status $? "fleet init (as the owner)"
pg_sql "CREATE ROLE host_a LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_host;
	CREATE ROLE op1 LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_operator" >/dev/null
ok_status $? "a host role and an operator role"
url() { echo "postgresql:///fleet?host=$PG_SOCK&port=$PG_PORT&user=$1"; }
export AMC_FLEET_URL="$(url op1)"
as() { _u=$1; shift; $PG_RUN "$PG_BIN/psql" -h "$PG_SOCK" -p "$PG_PORT" -U "$_u" -d fleet -qAt -v ON_ERROR_STOP=1 -c "$1" 2>&1; }
sid() { sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p'; }
state() { as op1 "SELECT state FROM amc_fleet.assignment WHERE id = $1"; }

cat >"$T_HOME/fail.yaml" <<'YAML'
appId: com.android.settings
---
- launchApp
- assertVisible: "Never there"
YAML
{ printf 'appId: com.android.settings\n---\n- launchApp\n'
  i=0; while [ $i -lt 30 ]; do printf -- '- extendedWaitUntil:\n    visible: "Never there %d"\n    timeout: 2000\n    optional: true\n' $i; i=$((i + 1)); done
} >"$T_HOME/slow.yaml"

# Usage errors.
out=$("$AMC" fleet submit --retries 101 --flow "$T_HOME/fail.yaml" 2>&1); is $? 2 "--retries 101: bad usage"
out=$("$AMC" fleet submit --timeout 0 --flow "$T_HOME/fail.yaml" 2>&1); is $? 2 "--timeout 0: bad usage"
out=$("$AMC" fleet submit --not-before 'now; drop' --flow "$T_HOME/fail.yaml" 2>&1); is $? 2 "--not-before with odd characters: bad usage"
out=$("$AMC" fleet submit --not-before 'someday soon' --flow "$T_HOME/fail.yaml" 2>&1); rc=$?
[ $rc != 0 ]; ok_status $? "a time PostgreSQL cannot read is refused (status $rc)"
like "$out" "cannot queue the assignment: .*invalid input syntax for type timestamp" "saying so"

# --retries 2 --backoff 1: three attempts, 1 s then 2 s apart, then failed
# with every attempt's reason.
id1=$("$AMC" fleet submit --retries 2 --backoff 1 --flow "$T_HOME/fail.yaml" --json | sid)
is "$(as op1 "SELECT retries || ':' || backoff_s || ':' || max_attempts FROM amc_fleet.assignment WHERE id = $id1")" \
	"2:1:5" "the operator role queues it: 2 retries, 1 s backoff, max attempts 3 + 2"
like "$("$AMC" fleet show "$id1")" "retries 2 \(backoff 1 s, doubling\)" "fleet show prints the retries"
mkdir -p "$T_HOME/a"
AMC_HOME="$T_HOME/a" AMC_FLEET_URL="$(url host_a)" "$AMC" host --devices sim:0 --name A >"$T_HOME/a.out" 2>&1 &
pa=$!
ended1() { [ "$(state "$id1")" = failed ]; }
wait_for 60 ended1; ok_status $? "the failing flow ends failed after its retries"
is "$(as op1 "SELECT string_agg(n || ':' || state, ' ' ORDER BY n) FROM amc_fleet.attempt WHERE assignment_id = $id1")" \
	"1:failed 2:failed 3:failed" "three attempts, each failed"
is "$(as op1 "SELECT string_agg((extract(epoch FROM b.started_at - a.finished_at) >= CASE b.n WHEN 2 THEN 0.9 ELSE 1.9 END)::text, ' ' ORDER BY b.n)
	FROM amc_fleet.attempt a JOIN amc_fleet.attempt b ON b.assignment_id = a.assignment_id AND b.n = a.n + 1
	WHERE a.assignment_id = $id1")" "true true" "the second starts >= 1 s after the first, the third >= 2 s after the second (doubling)"
like "$(as op1 "SELECT error FROM amc_fleet.assignment WHERE id = $id1")" "^all 3 attempts failed: attempt 1 .*attempt 3 .*Never there" \
	"the assignment's error lists every attempt with its reason"
like "$("$AMC" fleet show "$id1")" "attempt 3  failed" "fleet show lists every attempt"

# A failure a retry cannot fix (a payload the host refuses) is not retried.
id2=$(as op1 "INSERT INTO amc_fleet.assignment (kind, title, payload, retries, backoff_s) VALUES ('goal', 'bad', '{\"v\":99}', 3, 1) RETURNING id")
ended2() { [ "$(state "$id2")" = failed ]; }
wait_for 30 ended2; ok_status $? "a bad payload ends failed"
is "$(as op1 "SELECT count(*) FROM amc_fleet.attempt WHERE assignment_id = $id2")" 1 "after one attempt, not retried"
like "$(as op1 "SELECT error FROM amc_fleet.assignment WHERE id = $id2")" "^not retried \(a retry cannot fix it\): bad assignment" \
	"saying why"

# --timeout 3: the host stops the task and fails the attempt.
id3=$("$AMC" fleet submit --timeout 3 --flow "$T_HOME/slow.yaml" --json | sid)
ended3() { [ "$(state "$id3")" = failed ]; }
wait_for 40 ended3; ok_status $? "a flow that runs past --timeout ends failed"
like "$(as op1 "SELECT error FROM amc_fleet.attempt WHERE assignment_id = $id3")" "timed out: ran past its timeout of 3 s" \
	"stopped by its host, which says so"
is "$(as op1 "SELECT extract(epoch FROM finished_at - started_at) < 15 FROM amc_fleet.attempt WHERE assignment_id = $id3")" t \
	"well before the flow's own end"
kill -TERM $pa; wait $pa; ok_status $? "host A stopped cleanly"

# The reaper's timeout: a host that claimed and went silent past the timeout
# (plus one lease and the grace) has its attempt failed, and retried.
ha=$(as host_a "SELECT amc_fleet.register_host('A', 'x', 1)")
as host_a "SELECT amc_fleet.add_device($ha, 'sim:0', 'sim')" >/dev/null
as host_a "SELECT amc_fleet.set_caps($ha, '{}')" >/dev/null
id4=$("$AMC" fleet submit --timeout 1 --retries 1 --backoff 60 --flow "$T_HOME/fail.yaml" --json | sid)
set -- $(as host_a "SELECT attempt_id || ' ' || token || ' ' || timeout_s FROM amc_fleet.claim($ha, 'sim:0', 'sim', 2)")
is "$3" 1 "claim hands the host the timeout"
as host_a "SELECT * FROM amc_fleet.renew($1, $2, 2, NULL, NULL, NULL)" >/dev/null
is "$(as op1 "SELECT amc_fleet.reap(0, 200, 30)")" 0 "a live lease within its timeout is not reaped"
sleep 4
is "$(as op1 "SELECT amc_fleet.reap(0, 200, 30)")" 1 "past timeout + one lease + grace the reaper ends it"
like "$(as op1 "SELECT state || ': ' || error FROM amc_fleet.attempt WHERE id = $1")" "^failed: timed out: ran past its timeout of 1 s \(ended by the reaper" \
	"as failed, saying why"
is "$(state "$id4")" queued "and queues it again (one retry left)"
is "$(as op1 "SELECT not_before > now() + interval '50 s' FROM amc_fleet.assignment WHERE id = $id4")" t "after its backoff"
is "$(as host_a "SELECT count(*) FROM amc_fleet.renew($1, $2, 3, NULL, NULL, NULL)")" 0 "the silent host's renewal is fenced"
is "$(as host_a "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" f "and so is its end"
as op1 "UPDATE amc_fleet.assignment SET state = 'cancelled' WHERE id = $id4" >/dev/null

# --not-before: claim leaves it until then.
id5=$("$AMC" fleet submit --not-before +3s --flow "$T_HOME/fail.yaml" --json | sid)
is "$(as host_a "SELECT count(*) FROM amc_fleet.claim($ha, 'sim:0', 'sim', 600)")" 0 "--not-before +3s: not claimed at once"
sleep 3
is "$(as host_a "SELECT assignment_id FROM amc_fleet.claim($ha, 'sim:0', 'sim', 600)")" "$id5" "but 3 s later"
id6=$("$AMC" fleet submit --not-before 2020-01-01T00:00:00Z --flow "$T_HOME/fail.yaml" --json | sid)
is "$(as op1 "SELECT not_before = '2020-01-01T00:00:00Z'::timestamptz FROM amc_fleet.assignment WHERE id = $id6")" t \
	"an absolute time is stored as given"

# --batch: every line checked first, errors by line, nothing queued then.
before=$(as op1 "SELECT count(*) FROM amc_fleet.assignment")
cat >"$T_HOME/bad.jsonl" <<EOF
{"goal": "Turn Wi-Fi off"}
# a comment
{"goal": "x", "flow": "$T_HOME/fail.yaml"}
{"flow": "$T_HOME/fail.yaml", "retries": 2, "needs": ["platform=android"]}
{"goal": "y", "priorty": 3}
not json
EOF
out=$("$AMC" fleet submit --batch "$T_HOME/bad.jsonl" 2>&1); is $? 2 "a batch with bad lines: bad usage"
like "$out" "line 3: a line has either" "line 3's error"
like "$out" "line 5: unknown key \"priorty\"" "line 5's error"
like "$out" "line 6: not a JSON object" "line 6's error"
like "$out" "3 of 5 lines are wrong: nothing queued" "and nothing queued"
is "$(as op1 "SELECT count(*) FROM amc_fleet.assignment")" "$before" "indeed nothing"
i=0; : >"$T_HOME/ok.jsonl"
while [ $i -lt 1500 ]; do
	printf '{"goal": "Turn Wi-Fi off %d", "priority": -1, "needs": ["never=here"], "retries": 1, "timeout": 60}\n' $i
	i=$((i + 1))
done >"$T_HOME/ok.jsonl"
printf '{"flow": "%s", "retries": 2, "not_before": "+1h", "needs": ["platform=android"]}\n' "$T_HOME/fail.yaml" >>"$T_HOME/ok.jsonl"
out=$("$AMC" fleet submit --batch - <"$T_HOME/ok.jsonl" 2>&1); ok_status $? "a batch of 1,501 from stdin"
diag "$out"
like "$out" "^queued 1501 assignments" "says how many"
is "$(as op1 "SELECT count(*) FROM amc_fleet.assignment WHERE title LIKE 'Turn Wi-Fi off %' AND retries = 1 AND timeout_s = 60 AND needs = '{never=here,planner=on}'")" 1500 \
	"every goal line queued with its options"
is "$(as op1 "SELECT kind || ':' || retries || ':' || (not_before > now() + interval '50 min') || ':' || array_to_string(needs, ',') FROM amc_fleet.assignment ORDER BY id DESC LIMIT 1")" \
	"flow:2:true:platform=android" "and the flow line"
rate=$(printf '%s' "$out" | sed -n 's/.*, \([0-9]*\)\/s$/\1/p')
[ "${rate:-0}" -ge 200 ]; ok_status $? "at least 200 assignments/s here (printed $rate/s; the bench asks 1,000/s on a quiet machine)"
done_testing
