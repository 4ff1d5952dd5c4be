#!/bin/sh
# test_cmd_tasks.sh - `amc tasks`: the history newest first, as a table and as
# JSON, with --status, --search and --limit, and bad options refused (exit 2).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
# OCR is not under test here; it would only cost time on every capture.
AMC_OCR_POLICY=off; export AMC_OCR_POLICY
ids() { sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p'; }

# --- an empty history ---------------------------------------------------------------
out=$("$AMC" tasks); ok_status $? "tasks on an empty history exits 0"
like "$out" "^no tasks yet\. Try: amc run --flow add-contact" "empty history says so and what to try"
out=$("$AMC" tasks --json); is "$out" "[]" "tasks --json on an empty history"

# --- three short tasks: two succeed, one fails ----------------------------------------------
printf 'appId: com.android.settings\nname: Open settings\n---\n- launchApp\n' >"$T_HOME/settings.yaml"
printf 'appId: com.amc.notes\nname: Open notes\n---\n- launchApp\n' >"$T_HOME/notes.yaml"
printf 'appId: com.android.settings\nname: Expect a unicorn\n---\n- launchApp\n- assertVisible: "Unicorn"\n' >"$T_HOME/fail.yaml"
"$AMC" run --flow "$T_HOME/settings.yaml" >/dev/null 2>&1; is $? 0 "first task succeeds"
"$AMC" run --flow "$T_HOME/notes.yaml" >/dev/null 2>&1; is $? 0 "second task succeeds"
AMC_FLOW_WAIT_TIMEOUT_MS=100 "$AMC" run --flow "$T_HOME/fail.yaml" >/dev/null 2>&1; is $? 1 "third task fails"

out=$("$AMC" tasks); ok_status $? "tasks exits 0"
like "$out" "^  ID +STATUS +DEVICE +STEPS +TIME +STARTED +TASK$" "a header line"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 4 "header and one line per task"
like "$(printf '%s\n' "$out" | sed -n 2p)" "^✗ [0-9a-z]{8} +failed +sim:0 +2 +[0-9.]+m?s +[0-9-]+ [0-9:]+ +Expect a unicorn$" "newest first: the failed task, its steps and name"
like "$(printf '%s\n' "$out" | sed -n 3p)" "^✓ [0-9a-z]{8} +succeeded +sim:0 +1 .* Open notes$" "then the second"
like "$(printf '%s\n' "$out" | sed -n 4p)" "^✓ [0-9a-z]{8} +succeeded +sim:0 +1 .* Open settings$" "then the first"

json=$("$AMC" tasks --json); ok_status $? "tasks --json exits 0"
is "$(printf '%s\n' "$json" | ids | wc -l | tr -d ' ')" 3 "json: three tasks"
like "$json" '"flow_name":[[:space:]]*"Expect a unicorn"' "json: the flow name"
like "$json" '"status":[[:space:]]*"failed"' "json: the status"
like "$json" '"error":[[:space:]]*"step 2: .*Unicorn' "json: the failed task's error"
like "$json" '"kind":[[:space:]]*"flow"' "json: the kind"
first=$(printf '%s\n' "$json" | ids | sed -n 1p)
newest=$(printf '%s\n' "$json" | ids | sed -n 3p)

# --- filters and limits --------------------------------------------------------------------------
out=$("$AMC" tasks --limit 1 --json | ids); is "$out" "$first" "--limit 1: only the newest"
out=$("$AMC" tasks -n 2 | wc -l | tr -d ' '); is "$out" 3 "-n 2: header and two lines"
out=$("$AMC" tasks --status failed --json | ids); is "$out" "$first" "--status failed: only the failed task"
n=$("$AMC" tasks --status succeeded --json | ids | wc -l | tr -d ' '); is "$n" 2 "--status succeeded: two"
out=$("$AMC" tasks --status cancelled); ok_status $? "a status without tasks exits 0"
like "$out" "^no tasks with that status yet" "and says so"
out=$("$AMC" tasks --search notes); like "$out" "Open notes" "--search finds by flow name"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 2 "--search: only that task"
out=$("$AMC" tasks --search "$(printf %.10s "$newest")" --json | ids); is "$out" "$newest" "--search finds by id"
out=$("$AMC" tasks -q settings -s succeeded --json | ids); is "$out" "$newest" "--search and --status together"
out=$("$AMC" tasks --search nothing-like-this); like "$out" "^no tasks yet" "--search without a match"

# --- bad usage --------------------------------------------------------------------------------------
out=$("$AMC" tasks --status bogus 2>&1); is $? 2 "unknown status -> 2"
like "$out" "unknown status 'bogus' \(queued, running, succeeded" "the unknown status is named with the valid ones"
out=$("$AMC" tasks --limit 0 2>&1); is $? 2 "--limit 0 -> 2"
like "$out" "--limit takes a whole number from 1 to 100000 \(got '0'\)" "the limit's range is given"
"$AMC" tasks --limit many >/dev/null 2>&1; is $? 2 "--limit many -> 2"
out=$("$AMC" tasks extra 2>&1); is $? 2 "an extra argument -> 2"
like "$out" "unexpected argument 'extra'" "the extra argument is named"

done_testing
