#!/bin/sh
# test_flow_language.sh - Maestro's language run by `amc run --flow` on the sim
# (tests/data/flows/maestro/): sub-flows with env, hooks, repeat, retry,
# when, app state, clipboard, random input, relative selectors; failures name
# the sub-flow's file and line; JavaScript (runScript, evalScript, ${expr},
# assertTrue); what a device cannot do is refused before the run; -e and
# MAESTRO_* variables.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export AMC_JS="$AMC_TEST_BUILDDIR/amc-js"
D="$AMC_TEST_SRCDIR/tests/data/flows/maestro"
export AMC_FLOW_WAIT_TIMEOUT_MS=1500 # what is not there is not waited for long

"$AMC" run --flow "$D/contacts.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "contacts.yaml: a sub-flow with env:, hooks, clipboard, relative selectors"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
state=$("$AMC" sim state)
like "$state" '"name":[[:space:]]*"Ada Lovelace"' "the sub-flow typed \${WHO}, erased 3 and typed the rest"
like "$state" '"phone":[[:space:]]*"555-0100"' "\${PHONE} from the flow's env reached the sub-flow"
like "$state" '"name":[[:space:]]*"Grace Hopper Jr"' "copyTextFrom, pasteText, eraseText"
like "$state" '"phone":[[:space:]]*"\+1 555 0199"' "setClipboard then pasteText"
like "$state" '"app":[[:space:]]*"com.android.launcher3"' "onFlowComplete pressed home"
out=$(cat "$T_HOME/out")
like "$out" 'launchApp: clear the state of com.android' "onFlowStart: launchApp clearState"
like "$out" 'the contact under Alan Turing' "a label is the step's description"
like "$out" 'tapOn "Not on this screen" \(optional, skipped\)' "optional tap skipped"
like "$out" 'inputRandomPersonName' "inputRandomPersonName typed"
json=$("$AMC" show "$(sed -n 's/.*task \([0-9a-z]*\) succeeded.*/\1/p' "$T_HOME/out")" --json)
like "$json" '"flow_file":[[:space:]]*"[^"]*sub/add-contact.yaml"' "sub-flow steps record their file"
like "$json" '"tool":[[:space:]]*"manage_app"' "clearState went through manage_app"

# clearState puts an app's data back: the contacts added above are gone
"$AMC" run --flow "$D/contacts.yaml" >"$T_HOME/out" 2>&1
n=$("$AMC" sim state | grep -c '"phone":[[:space:]]*"[^"]'); is "$n" 4 "clearState before the run: the same four contacts again"

"$AMC" run --flow "$D/settings.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "settings.yaml: state and relative selectors, repeat, retry, doubleTapOn, scroll, clearState"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
out=$(cat "$T_HOME/out")
like "$out" 'assertVisible "Wi-Fi is off" +FAILED' "retry: its first attempt failed..."
like "$out" 'succeeded after' "...and the second passed"
state=$("$AMC" sim state)
like "$state" '"airplane_mode":[[:space:]]*false' "clearState of Settings turned airplane mode back off"

# a flow that leaves airplane mode on, then clearState alone
printf 'appId: com.android.settings\n---\n- launchApp\n- tapOn: "Network & internet"\n- tapOn: "Airplane mode"\n' >"$T_HOME/air.yaml"
"$AMC" run --flow "$T_HOME/air.yaml" >/dev/null 2>&1
like "$("$AMC" sim state)" '"airplane_mode":[[:space:]]*true' "airplane mode on"
printf 'appId: com.android.settings\n---\n- clearState\n' >"$T_HOME/clear.yaml"
"$AMC" run --flow "$T_HOME/clear.yaml" >/dev/null 2>&1; ok_status $? "clearState alone"
like "$("$AMC" sim state)" '"airplane_mode":[[:space:]]*false' "Settings back to factory"

"$AMC" run --flow "$D/control.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "control.yaml: when visible/notVisible/true/platform, nested repeat, openLink, killApp"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
like "$("$AMC" sim state)" '"title":[[:space:]]*"Groceries"' "the inline runFlow with env: wrote the note"
n=$(grep -c 'runFlow .*(skipped' "$T_HOME/out"); is "$n" 3 "three runFlows skipped by their when:"
n=$(grep -c 'assertVisible "\${TITLE}"' "$T_HOME/out"); is "$n" 4 "repeat 2 inside repeat 2"

"$AMC" run --flow "$D/fail-nested.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 1 "a failure inside a sub-flow inside a retry fails the task"
like "$(cat "$T_HOME/out")" 'failed after [0-9]+ steps: step [0-9]+: [^ ]*sub/fails.yaml:3: assertVisible' \
	"naming the sub-flow's file and line"
like "$(cat "$T_HOME/out")" 'assertVisible "No such text" +FAILED' "after the retry's first attempt failed"
like "$("$AMC" sim state)" '"app":[[:space:]]*"com.android.launcher3"' "onFlowComplete ran after the failure"

"$AMC" run --flow "$D/device-only.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 2 "a key the sim lacks is refused before the run"
like "$(cat "$T_HOME/out")" 'device-only.yaml:4: pressKey.*: not available on sim devices' "naming file, line, device"
"$AMC" run --flow "$D/cycle.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 2 "sub-flows in a cycle are refused"
like "$(cat "$T_HOME/out")" 'form a cycle' "saying so"
n=$("$AMC" tasks --json | grep -c '"id"'); is "$n" 7 "refused flows recorded no task"

# JavaScript (amc-js): runScript with env:, evalScript, ${expr}, output, assertTrue, when: true
AMC_JS=/nonexistent "$AMC" run --flow "$D/scripts.yaml" >"$T_HOME/out" 2>&1; rc=$?
ok $rc "without amc-js a flow with scripts is refused"
like "$(cat "$T_HOME/out")" 'scripts.yaml:[0-9]+: .*needs the helper amc-js' "naming the file, line and the helper"
n=$("$AMC" tasks --json | grep -c '"id"'); is "$n" 7 "before the run"
"$AMC" run --flow "$D/scripts.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "scripts.yaml: a flow with scripts runs on the sim"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
like "$("$AMC" sim state)" '"name":[[:space:]]*"Katherine Johnson"' "the name computed by runScript was typed"
like "$("$AMC" sim state)" '"phone":[[:space:]]*"555-1234"' "the phone computed by evalScript was typed"
n=$(grep -c 'runFlow .*(skipped' "$T_HOME/out"); is "$n" 1 "when: true: a false expression skips"
printf 'appId: com.android.contacts\n---\n- evalScript: ${output.n = 2}\n- assertTrue: ${output.n > 5}\n' >"$T_HOME/false.yaml"
"$AMC" run --flow "$T_HOME/false.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 1 "a false assertTrue fails the task"
like "$(cat "$T_HOME/out")" 'false.yaml:4: assertTrue' "naming the file and line"
printf 'appId: com.android.contacts\n---\n- evalScript: ${nope.x}\n' >"$T_HOME/throw.yaml"
"$AMC" run --flow "$T_HOME/throw.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 1 "a script error fails the task"
like "$(cat "$T_HOME/out")" 'throw.yaml:3: .*TypeError' "with the engine's message and the line"

MAESTRO_TITLE=Contacts "$AMC" run --flow "$D/vars.yaml" -e "WHO=Alan Turing" >"$T_HOME/out" 2>&1
ok_status $? "-e overrides env:, MAESTRO_* comes from the environment"
"$AMC" run --flow "$D/vars.yaml" --env "WHO=Grace Hopper" >"$T_HOME/out" 2>&1; rc=$?
is $rc 1 "without MAESTRO_TITLE the flow fails"
like "$(cat "$T_HOME/out")" 'vars.yaml:8.*undefined' \
	"an undefined variable is undefined, as in Maestro (GraalJsEngine), and the step says so"
# the pattern Maestro's engine comment names: a default for a variable nobody gave
printf 'appId: com.android.contacts\nenv:\n  STORE: ${MAESTRO_STORE || %s}\n---\n- launchApp\n- assertTrue: ${STORE == %s}\n' \
	"'test_store'" "'test_store'" >"$T_HOME/dflt.yaml"
"$AMC" flow check "$T_HOME/dflt.yaml" >"$T_HOME/out" 2>&1; is $? 0 "NAME || 'default' checks (a warning at most)"
"$AMC" run --flow "$T_HOME/dflt.yaml" >"$T_HOME/out" 2>&1; ok_status $? "and runs"
like "$(cat "$T_HOME/out")" 'assertTrue.* ok ' "with the default"
"$AMC" run --flow "$D/vars.yaml" -e "1X=y" >"$T_HOME/out" 2>&1; is $? 2 "a bad -e name is refused"
"$AMC" run -e "A=b" "a goal" >"$T_HOME/out" 2>&1; is $? 2 "-e is for flows"
# A flow's secret input (-e NAME=VALUE, NAME saying token, password, key...):
# typed on the device, masked in every record, exported as ${NAME}.
cat >"$T_HOME/tok.yaml" <<'Y'
appId: com.android.contacts
---
- launchApp:
    clearState: true
- tapOn: "Add contact"
- tapOn:
    id: name
- inputText: ${API_TOKEN}
- tapOn:
    id: phone
- inputText: "555-0199"
- hideKeyboard
- tapOn: Save
- back
- assertVisible: "Alan Turing"
Y
"$AMC" sim reset >/dev/null
"$AMC" run --flow "$T_HOME/tok.yaml" -e API_TOKEN=Zq7tokenvalue >/dev/null 2>&1; ok_status $? "a flow types a secret -e value"
like "$("$AMC" sim state)" '"name":[[:space:]]*"Zq7tokenvalue"' "the device got the value"
is "$(grep -rl Zq7tokenvalue "$AMC_HOME" --exclude=state.json | wc -l)" 0 "no file of AMC_HOME holds it (but the sim's own state)"
tid=$("$AMC" tasks --json | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1)
out=$("$AMC" show "$tid" --json)
ok_status $(printf '%s' "$out" | grep -q Zq7tokenvalue; echo $((! $?))) "amc show --json does not hold it"
like "$out" '\{\{secret:API_TOKEN\}\}' "the step keeps the placeholder"
ok_status $("$AMC" export "$tid" --json | grep -q Zq7tokenvalue; echo $((! $?))) "nor export --json"
like "$("$AMC" export "$tid" --flow)" '- inputText: "\$\{API_TOKEN\}"' "export --flow writes \${API_TOKEN}"
like "$("$AMC" search Zq7tokenvalue 2>&1)" "no matches" "and search finds nothing"

done_testing
