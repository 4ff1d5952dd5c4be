#!/bin/sh
# test_cmd_run.sh - `amc run` end to end: the bundled flows pass on the sim,
# every step is recorded with two decodable PNGs, the sim's state shows the
# result, a failed step exits 1, and bad usage or input exits 2 (3 for the
# environment) before anything is recorded.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
PNGCHECK="$AMC_TEST_BUILDDIR/tests/tools/pngcheck"

out=$("$AMC" run --flow "$AMC_TEST_SRCDIR/data/flows/add-contact.yaml" --json 2>"$T_HOME/err"); rc=$?
is $rc 0 "add-contact flow succeeds"
like "$out" '"status":[[:space:]]*"succeeded"' "run --json reports succeeded"
id=$(printf '%s' "$out" | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1)
ok_status $([ ${#id} -eq 16 ]; echo $?) "task id is 16 characters"

state=$("$AMC" sim state)
like "$state" '"name":[[:space:]]*"Ada Lovelace"' "sim state has the new contact"
like "$state" '"phone":[[:space:]]*"555-0100"' "sim state has the phone number"

show=$("$AMC" show "$(printf %.8s "$id")"); ok_status $? "show by id prefix"
like "$show" "succeeded" "show says succeeded"
like "$show" "launch_app" "show lists the launch step"
like "$show" "type_text" "show lists typing"
like "$show" "assert_visible" "show lists the assertion"

json=$("$AMC" show "$id" --json)
steps=$(printf '%s' "$json" | grep -c '"step":')
ok_status $([ "$steps" -ge 8 ]; echo $?) "show --json has every step ($steps)"
# Every step has a before and an after PNG that decode.
befores=$(printf '%s' "$json" | sed -n 's/.*"before_screenshot":[[:space:]]*"\([^"]*\)".*/\1/p')
afters=$(printf '%s' "$json" | sed -n 's/.*"after_screenshot":[[:space:]]*"\([^"]*\)".*/\1/p')
nb=$(printf '%s\n' "$befores" | grep -c png); na=$(printf '%s\n' "$afters" | grep -c png)
is "$nb" "$steps" "every step has a before screenshot"
is "$na" "$steps" "every step has an after screenshot"
# shellcheck disable=SC2086
"$PNGCHECK" $befores $afters >"$T_HOME/png.txt"; ok_status $? "all screenshots decode"
like "$(cat "$T_HOME/png.txt")" "^1080x2400 " "screenshots are 1080x2400"
# Reuse: step N's after is step N+1's before (one file, two references).
a1=$(printf '%s\n' "$afters" | sed -n 1p); b2=$(printf '%s\n' "$befores" | sed -n 2p)
is "$a1" "$b2" "step 1's after is step 2's before"
like "$json" '"observe_ms"' "per-phase timings recorded"
like "$json" '"ocr":[[:space:]]*\[' "raw OCR observations field present"
like "$json" '"ui_tree_path":[[:space:]]*"/' "each record references its UI tree artifact"
one=$("$AMC" show "$id" --step 2); ok_status $? "show --step 2"
like "$one" "timings" "show --step prints timings"
like "$one" "device  [0-9]+ screenshots? [0-9]+ ms, [0-9]+ trees? [0-9]+ ms, [0-9]+ inputs? [0-9]+ ms" \
	"show --step prints the step's device calls"
like "$show" "device  [0-9]+ screenshots [0-9]+ ms, [0-9]+ trees [0-9]+ ms, [0-9]+ inputs [0-9]+ ms(, [0-9]+ waits [0-9]+ ms)? \($steps steps\)" \
	"show totals the device calls of every step"
like "$one" "scene \([0-9]+ elements" "show --step prints the scene"

out=$("$AMC" run --flow wifi-off-on 2>&1); is $? 0 "wifi-off-on flow succeeds"
state=$("$AMC" sim state); like "$state" '"wifi":[[:space:]]*true' "Wi-Fi is on again"
out=$("$AMC" run --flow create-note 2>&1); is $? 0 "create-note flow succeeds"
state=$("$AMC" sim state); like "$state" '"title":[[:space:]]*"Shopping list"' "the note exists"
like "$state" 'Milk, eggs, bread' "the note body was typed"

list=$("$AMC" tasks); like "$list" "Add a contact" "tasks lists the flows"
n=$("$AMC" tasks --json | grep -c '"id"'); is "$n" 3 "three tasks recorded"
n=$("$AMC" tasks --status succeeded --json | grep -c '"id"'); is "$n" 3 "three succeeded"

# A failing assertion fails the task with the step, the selector and the screen.
printf 'appId: com.android.settings\nname: Expect a unicorn\n---\n- launchApp\n- assertVisible: "Unicorn settings"\n' > "$T_HOME/fail.yaml"
out=$(AMC_FLOW_WAIT_TIMEOUT_MS=500 "$AMC" run --flow "$T_HOME/fail.yaml" 2>&1); is $? 1 "failed assertion -> exit 1"
like "$out" "Unicorn settings" "failure names the selector"
like "$out" "Wi-Fi" "failure says what was on screen"
fid=$("$AMC" tasks --status failed --json | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1)
show=$("$AMC" show "$fid"); like "$show" "step 2" "failed task error points at the step"

# --max-steps: the task fails at the limit and says what to raise.
out=$("$AMC" run --flow create-note --max-steps 2 2>&1); is $? 1 "--max-steps 2 on a longer flow -> exit 1"
like "$out" "reached the step limit \(2\) before the task finished; raise --max-steps" "says which limit and what to raise"
like "$("$AMC" tasks --limit 1 --json)" '"max_steps":[[:space:]]*2,' "the limit is recorded with the task"

# Bad usage and bad input: exit 2 (3 for the environment), nothing recorded.
n0=$("$AMC" tasks --json | grep -c '"id"')
out=$("$AMC" run 2>&1); is $? 2 "nothing to run -> 2"
like "$out" "nothing to run: give a goal" "says what to give"
out=$("$AMC" run --flow create-note "Add a contact" 2>&1); is $? 2 "a flow and a goal -> 2"
like "$out" "either --flow FILE or a goal, not both" "says one or the other"
out=$("$AMC" run --flow /nonexistent/flow.yaml 2>&1); is $? 2 "missing flow file -> 2"
like "$out" "nonexistent/flow.yaml" "missing flow file is named"
printf 'appId: x\n---\n- tapOn: [unclosed\n' > "$T_HOME/bad.yaml"
out=$("$AMC" run --flow "$T_HOME/bad.yaml" 2>&1); is $? 2 "malformed flow -> 2"
like "$out" "bad.yaml:[0-9]+" "malformed flow error has file:line"
printf 'appId: com.android.settings\n---\n- launchApp\n- flyAway: now\n' > "$T_HOME/unknown.yaml"
out=$("$AMC" run --flow "$T_HOME/unknown.yaml" 2>&1); is $? 2 "unknown flow command -> 2"
like "$out" "unknown.yaml:4.*flyAway" "unknown command error names file, line and command"
out=$("$AMC" run --flow add-contact --device phone:9 2>&1); is $? 2 "unknown device -> 2"
like "$out" "unknown device 'phone:9'" "unknown device is named"
out=$("$AMC" run --flow add-contact --max-steps zero 2>&1); is $? 2 "bad --max-steps -> 2"
like "$out" "--max-steps takes a whole number" "says what --max-steps takes"
out=$(env -u ANTHROPIC_API_KEY -u AMC_OPENAI_BASE_URL "$AMC" run "Add a contact" 2>&1 </dev/null); is $? 3 "free goal without a key -> 3"
like "$out" "set ANTHROPIC_API_KEY" "free goal message says what to set"
is "$("$AMC" tasks --json | grep -c '"id"')" "$n0" "no task recorded for any of them"

done_testing
