#!/bin/sh
# End to end: the bundled flows pass on the sim, every step is recorded with two
# decodable PNGs, and the sim's state shows the result.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
PNGCHECK="$AMC_TEST_BUILDDIR/tests/tools/pngcheck"

out=$("$AMC" run --flow "$AMC_TEST_SRCDIR/data/flows/add-contact.yaml" --json 2>"$T_HOME/err"); rc=$?
is $rc 0 "add-contact flow succeeds"
like "$out" '"status":[[:space:]]*"succeeded"' "run --json reports succeeded"
id=$(printf '%s' "$out" | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1)
ok $([ ${#id} -eq 16 ]; echo $?) "task id is 16 characters"

state=$("$AMC" sim state)
like "$state" '"name":[[:space:]]*"Ada Lovelace"' "sim state has the new contact"
like "$state" '"phone":[[:space:]]*"555-0100"' "sim state has the phone number"

show=$("$AMC" show "$(printf %.8s "$id")"); ok $? "show by id prefix"
like "$show" "succeeded" "show says succeeded"
like "$show" "launch_app" "show lists the launch step"
like "$show" "type_text" "show lists typing"
like "$show" "assert_visible" "show lists the assertion"

json=$("$AMC" show "$id" --json)
steps=$(printf '%s' "$json" | grep -c '"step":')
ok $([ "$steps" -ge 8 ]; echo $?) "show --json has every step ($steps)"
# Every step has a before and an after PNG that decode.
befores=$(printf '%s' "$json" | sed -n 's/.*"before_screenshot":[[:space:]]*"\([^"]*\)".*/\1/p')
afters=$(printf '%s' "$json" | sed -n 's/.*"after_screenshot":[[:space:]]*"\([^"]*\)".*/\1/p')
nb=$(printf '%s\n' "$befores" | grep -c png); na=$(printf '%s\n' "$afters" | grep -c png)
is "$nb" "$steps" "every step has a before screenshot"
is "$na" "$steps" "every step has an after screenshot"
# shellcheck disable=SC2086
"$PNGCHECK" $befores $afters >"$T_HOME/png.txt"; ok $? "all screenshots decode"
like "$(cat "$T_HOME/png.txt")" "^1080x2400 " "screenshots are 1080x2400"
# Reuse: step N's after is step N+1's before (one file, two references).
a1=$(printf '%s\n' "$afters" | sed -n 1p); b2=$(printf '%s\n' "$befores" | sed -n 2p)
is "$a1" "$b2" "step 1's after is step 2's before"
like "$json" '"observe_ms"' "per-phase timings recorded"
like "$json" '"ocr":[[:space:]]*\[' "raw OCR observations field present"
like "$json" '"ui_tree_path":[[:space:]]*"/' "each record references its UI tree artifact"
one=$("$AMC" show "$id" --step 2); ok $? "show --step 2"
like "$one" "timings" "show --step prints timings"
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

# Sim direct actions and screenshot
"$AMC" sim screenshot "$T_HOME/now.png"; ok $? "sim screenshot"
"$PNGCHECK" "$T_HOME/now.png" >/dev/null; ok $? "sim screenshot decodes"
ui=$("$AMC" sim ui); like "$ui" "^<\?xml version='1.0' encoding='UTF-8' standalone='yes' \?><hierarchy rotation=\"0\">" "sim ui prints a uiautomator dump"
"$AMC" sim key home && "$AMC" sim launch com.android.contacts; ok $? "sim key and launch"
"$AMC" sim reset >/dev/null; ok $? "sim reset"
state=$("$AMC" sim state); ok $(printf '%s' "$state" | grep -q "Ada Lovelace"; [ $? -ne 0 ]; echo $?) "reset removed the added contact"

done_testing
