#!/bin/sh
# The TUI with the device manager and the LLM planner: the Launch dialog lists
# every device (busy and offline ones greyed with the reason), a free goal
# without a key says what to set, and a goal run against the fake Anthropic API
# (tests/tools/mockllm) asks the operator (ask_user), then has an irreversible
# tap refused in the confirmation dialog; a goal and a flow with
# {{secret:NAME}} type the value on the sim and nowhere else; a model-planned
# step shows its reasoning, usage and cost, and SemanticScene. The dialogs are compared with golden
# text (their box only: the screen behind holds live times).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
MOCK="$AMC_TEST_BUILDDIR/tests/tools/mockllm"
G=$AMC_TEST_SRCDIR/tests/tui/golden
KEY="sk-ant-PLANTED-KEY-tui-4b1d"
LOGS="$T_HOME/mock"
out=$T_HOME/out
mkdir -p "$LOGS" "$out" "$XDG_CONFIG_HOME/amc"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8 AMC_TUI_NOW=1767229200000
export AMC_ADB_PATH=/nonexistent/adb
unset NO_COLOR ANTHROPIC_BASE_URL ANTHROPIC_API_KEY AMC_OPENAI_BASE_URL AMC_PLANNER_MODEL

golden() { # golden DUMP NAME: the dump (or the part given on stdin) equals golden/NAME.txt
	[ -n "${AMC_TUI_UPDATE_GOLDEN:-}" ] && cp "$1" "$G/$2.txt"
	diff -u "$G/$2.txt" "$1" >"$T_HOME/diff" 2>&1
	ok_status $? "screen $2 matches golden/$2.txt"
	[ -s "$T_HOME/diff" ] && sed 's/^/# /' "$T_HOME/diff" | head -60
}
# The dialog's box from a 100-column dump: the rows from its title to its
# bottom edge, columns 13..87 (its width is 75), the task id masked.
dialog_box() { # dialog_box DUMP TITLE
	sed -n "/┌─ $2/,/^.\{12\}└/p" "$1" | sed -E 's/^.{12}(.{75}).*/\1/; s/Task [0-9a-z]{8}/Task ########/'
}

# 1. every device: sim:0 free, sim:1 busy with a task, an Appium server offline
mkdir -p "$AMC_HOME/sim/1" "$AMC_HOME/locks"
printf '[appium]\nendpoints = http://127.0.0.1:9\n' >"$XDG_CONFIG_HOME/amc/config"
lock="$AMC_HOME/locks/device-sim%3A1.lock"
printf 't0990000 pid 1\n' >"$lock"
# the holder: a shell that takes the lock, then becomes `sleep` (killing it frees the lock)
(exec 9>>"$lock"; flock 9; exec sleep 30) &
holder=$!
wait_for 5 sh -c "! flock -n '$lock' true"
cat >"$T_HOME/devices.keys" <<'KEYS'
n
S-Tab
j j
:dump launch-devices
Esc D
:dump devices-all
KEYS
"$AMC" tui --script "$T_HOME/devices.keys" --dump-dir "$out" --size 100x30 2>"$T_HOME/err"
ok_status $? "devices script runs"
golden "$out/launch-devices.txt" launch-devices
golden "$out/devices-all.txt" devices-all
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
rm -f "$XDG_CONFIG_HOME/amc/config"

# 2. a free goal without a key: the dialog stays open and says what to set
cat >"$T_HOME/nokey.keys" <<'KEYS'
n
j j j j
Tab
:type Add a contact for Ada
Enter
:dump launch-goal-nokey
KEYS
"$AMC" tui --script "$T_HOME/nokey.keys" --dump-dir "$out" --size 100x30 2>"$T_HOME/err"
ok_status $? "no-key script runs"
golden "$out/launch-goal-nokey.txt" launch-goal-nokey
# a secret with no value: the dialog stays open and says what to set
cat >"$T_HOME/nosecret.keys" <<'KEYS'
n
j j j j
Tab
:type Type PIN {{secret:PIN}}
Enter
:dump launch-goal-nosecret
KEYS
ANTHROPIC_API_KEY="$KEY" "$AMC" tui --script "$T_HOME/nosecret.keys" --dump-dir "$out" --size 100x30 2>"$T_HOME/err"
ok_status $? "no-secret script runs"
like "$(cat "$out/launch-goal-nosecret.txt")" "secret PIN has no value: export AMC_SECRET_PIN" "a secret with no value says what to set"
is "$("$AMC" tasks --json | grep -c '"id"')" "0" "nothing was recorded"

# 3. a goal that asks the operator, then meets a refused irreversible tap
"$AMC" run --flow add-contact >/dev/null 2>&1
ok_status $? "a contact to delete"
printf '%s\n' "ask Which contact should I delete?" "launch com.android.contacts" "tap Ada Lovelace" \
	"tap Delete" "expect irreversible" "finish false the operator did not allow deleting" >"$T_HOME/script"
"$MOCK" "$T_HOME/script" "$T_HOME/port" "$LOGS" &
mpid=$!
wait_for 10 test -s "$T_HOME/port"
ok_status $? "the fake Anthropic API runs"
export ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$T_HOME/port")"
cat >"$T_HOME/agent.keys" <<'KEYS'
n
j j j j
Tab
:type Delete the contact the operator names
Enter
:ask
:dump ask-user
:type the one named Ada Lovelace, please
Enter
:ask
:dump confirm-irreversible
n
:wait
:resize 140x60
:dump agent-finished
k k k
:dump agent-ask-step
KEYS
ANTHROPIC_API_KEY="$KEY" "$AMC" tui --script "$T_HOME/agent.keys" --dump-dir "$out" --size 100x30 2>"$T_HOME/err"
ok_status $? "agent script runs"
kill "$mpid" 2>/dev/null
wait "$mpid" 2>/dev/null
dialog_box "$out/ask-user.txt" "Task" >"$out/ask-user-box.txt"
golden "$out/ask-user-box.txt" ask-user
dialog_box "$out/confirm-irreversible.txt" "Task" >"$out/confirm-box.txt"
golden "$out/confirm-box.txt" confirm-irreversible
grep -q "the one named Ada Lovelace, please" "$LOGS/requests.jsonl"
ok_status $? "the operator's answer reached the model"
ok_status "$([ -s "$LOGS/violations.txt" ]; echo $((1 - $?)))" "every request kept the protocol rules (the refusal reached the model)"
[ -s "$LOGS/violations.txt" ] && sed 's/^/#   /' "$LOGS/violations.txt"
like "$(sed -n 2p "$out/agent-finished.txt")" "failed .*Delete the contact the operator names" "the task ends as the agent said"
like "$(cat "$out/agent-finished.txt")" "refused" "the tap is recorded as refused"
like "$(cat "$out/agent-finished.txt")" "usage: 1 model call" "the step shows its model call's usage"
like "$("$AMC" sim state)" '"name":[[:space:]]*"Ada Lovelace"' "the contact was not deleted"
like "$(cat "$out/agent-ask-step.txt")" "Which contact should I delete" "the ask_user step shows the question"
if grep -q "$KEY" "$out"/*.txt "$AMC_HOME/amc.log" 2>/dev/null; then r=1; else r=0; fi
ok_status $r "the key appears on no screen and in no log"
# 4. C-x in a question cancels its task, which unblocks the runner thread
: >"$LOGS/violations.txt"
rm -f "$T_HOME/port"
printf '%s\n' "ask Which one?" "finish true never reached" >"$T_HOME/script"
"$MOCK" "$T_HOME/script" "$T_HOME/port" "$LOGS" &
mpid=$!
wait_for 10 test -s "$T_HOME/port"
export ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$T_HOME/port")"
cat >"$T_HOME/cancel.keys" <<'KEYS'
n
j j j j
Tab
:type Ask and wait
Enter
:ask
C-x
:wait
:dump ask-cancelled
KEYS
ANTHROPIC_API_KEY="$KEY" "$AMC" tui --script "$T_HOME/cancel.keys" --dump-dir "$out" --size 100x30 2>"$T_HOME/err"
ok_status $? "cancel script runs"
kill "$mpid" 2>/dev/null
wait "$mpid" 2>/dev/null
like "$(sed -n 2p "$out/ask-cancelled.txt")" "cancelled .*Ask and wait" "the task waiting on its question ends cancelled"
# 5. {{secret:NAME}} through the TUI's runner threads, as with amc run: a goal
# whose value comes from the 0600 secrets file, a flow whose value comes from
# the environment; typed on the sim, masked in every tree, scene, screenshot,
# prompt, row, log line and screen
SECRET="862-55319-TUISECRET"
FSECRET="FLOW-4471-TUISECRET"
printf 'PHONE=%s\n' "$SECRET" >"$T_HOME/secrets"
chmod 600 "$T_HOME/secrets"
printf '[secrets]\nfile = %s\n' "$T_HOME/secrets" >"$XDG_CONFIG_HOME/amc/config"
cat >"$T_HOME/secret-flow.yaml" <<'FLOW'
appId: com.android.contacts
name: Secret flow contact
---
- launchApp
- tapOn: "Add contact"
- tapOn:
    id: "name"
- inputText: "Flow Secret"
- tapOn:
    id: "phone"
- inputText: "{{secret:FLOWPHONE}}"
- tapOn: "Save"
- assertVisible: "Flow Secret"
- back
- assertVisible: "Contacts"
FLOW
: >"$LOGS/violations.txt"
rm -f "$T_HOME/port"
printf '%s\n' "launch com.android.contacts" "tap Add contact" "tap Name" "type Grace Secret" "tap Phone" \
	"type {{secret:PHONE}}" "tap Save" "finish true saved" >"$T_HOME/script"
"$MOCK" "$T_HOME/script" "$T_HOME/port" "$LOGS" &
mpid=$!
wait_for 10 test -s "$T_HOME/port"
export ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$T_HOME/port")"
# (the flow ends on the contact list: a value stays on the device, and a later
# task that does not name its secret would see it on the contact's own screen)
cat >"$T_HOME/secret.keys" <<KEYS
n
j j j
Tab
:type $T_HOME/secret-flow.yaml
Enter
:wait
:dump secret-flow
n
j j j j
Tab
:type Add Grace Secret with phone {{secret:PHONE}}
Enter
:wait
:dump secret-goal
KEYS
AMC_SECRET_FLOWPHONE="$FSECRET" ANTHROPIC_API_KEY="$KEY" "$AMC" tui --script "$T_HOME/secret.keys" --dump-dir "$out" --size 100x30 2>"$T_HOME/err"
ok_status $? "secret script runs"
kill "$mpid" 2>/dev/null
wait "$mpid" 2>/dev/null
rm -f "$XDG_CONFIG_HOME/amc/config"
like "$("$AMC" tasks --json | tr -d '\n\t ')" '"status":"succeeded","kind":"goal","goal":"AddGraceSecretwithphone\{\{secret:PHONE\}\}"' "the goal with a secret succeeds, its placeholder recorded"
like "$(sed -n 2p "$out/secret-flow.txt")" "succeeded .*Secret flow contact" "the flow with a secret succeeds"
state=$("$AMC" sim state)
like "$state" "$SECRET" "the device got the value from the secrets file"
like "$state" "$FSECRET" "and the flow's value from the environment"
like "$(cat "$LOGS/requests.jsonl")" 'secret:PHONE' "the model saw the placeholder"
ok_status "$([ -s "$LOGS/violations.txt" ]; echo $((1 - $?)))" "every request kept the protocol rules"
hits=$(grep -rlE -- "$SECRET|$FSECRET" "$AMC_HOME" "$LOGS" "$out" "$T_HOME/err" 2>/dev/null | grep -v "/sim/" | wc -l)
is "$hits" "0" "the values are in no database row, artifact, log, screen or request (the sim's own state aside)"
grep -rlE -- "$SECRET|$FSECRET" "$AMC_HOME" "$LOGS" "$out" "$T_HOME/err" 2>/dev/null | grep -v "/sim/" | sed 's/^/#   /'
# 6. step detail of a model-planned step: reasoning, usage and cost, SemanticScene
export AMC_HOME="$T_HOME/home-fixture"
"$AMC_TEST_BUILDDIR/tests/tui/mkfixture" "$AMC_HOME" --agent
ok_status $? "fixture with a model-planned step"
cat >"$T_HOME/detail.keys" <<'KEYS'
j j
Enter
Tab Tab Tab
z
:dump task-agent-detail
Esc
5
Tab
z
:dump task-agent-semantic
KEYS
"$AMC" tui --script "$T_HOME/detail.keys" --dump-dir "$out" --size 100x30 2>"$T_HOME/err"
ok_status $? "detail script runs"
golden "$out/task-agent-detail.txt" task-agent-detail
like "$(cat "$out/task-agent-semantic.txt")" '"screen": "Settings"' "the SemanticScene in the evidence pane's tab 5"
like "$(sed -n 4p "$out/task-agent-semantic.txt")" '\[5 Sem\]' "tab 5 named on the zoomed pane's frame"
done_testing
