#!/bin/sh
# test_cmd_sim.sh - `amc sim`: look at the simulated phone (screenshot PNG,
# uiautomator XML, state JSON) and drive it (launch, tap, type, key, swipe,
# long-press, wait, reset), each checked in the state it leaves; bad input
# -> exit 2. (A sim busy with a task refuses actions: test_ownership.sh.)
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
PNGCHECK="$AMC_TEST_BUILDDIR/tests/tools/pngcheck"
# The state on one line, and its top-level fields (the stack repeats "screen").
st() { "$AMC" sim "$@" state | tr -d '\n\t '; }
field() { _f=$1; shift; st "$@" | grep -o "\"$_f\":[^,]*" | head -n 1; }
# Centre of the first UI node whose attributes contain TEXT.
centre() {
	"$AMC" sim ui | tr '>' '\n' | grep -F -- "$1" | head -n 1 |
		sed -n 's/.*bounds="\[\([0-9]*\),\([0-9]*\)\]\[\([0-9]*\),\([0-9]*\)\]".*/\1 \2 \3 \4/p' |
		awk '{ print int(($1 + $3) / 2), int(($2 + $4) / 2) }'
}

# --- looking: state, screenshot, ui ------------------------------------------------------
s=$(st); ok_status $? "sim state exits 0"
like "$s" '^\{"version":1,"device":"sim:0","app":"com.android.launcher3","screen":"launcher","sim_time_ms":0,' "factory state: the launcher at time 0"
like "$s" '"contacts":\[\{"name":"AlanTuring"' "the state lists the contacts"
is "$(field sim_time_ms)" '"sim_time_ms":0' "reading the state does not advance sim time"
"$AMC" sim screenshot "$T_HOME/now.png"; ok_status $? "sim screenshot"
out=$("$PNGCHECK" "$T_HOME/now.png"); ok_status $? "sim screenshot decodes"
like "$out" "^1080x2400 " "the screenshot is 1080x2400"
is "$(stat -c %a "$T_HOME/now.png")" 600 "the screenshot file is 0600 (it may show private data)"
ui=$("$AMC" sim ui); ok_status $? "sim ui exits 0"
like "$ui" "^<\?xml version='1.0' encoding='UTF-8' standalone='yes' \?><hierarchy rotation=\"0\">" "sim ui prints a uiautomator dump"
like "$ui" 'package="com.android.launcher3"' "of the launcher"
like "$ui" '</hierarchy>$' "complete"

# --- driving: a note typed by hand -----------------------------------------------------------------
"$AMC" sim launch com.amc.notes; ok_status $? "sim launch"
is "$(field screen)" '"screen":"notes"' "launch: the Notes list is on screen"
is "$(field app)" '"app":"com.amc.notes"' "launch: Notes is the app"
xy=$(centre 'text="New note"'); ok_status $([ -n "$xy" ]; echo $?) "the New note button is in the UI tree ($xy)"
# shellcheck disable=SC2086
"$AMC" sim tap $xy; ok_status $? "sim tap"
is "$(field screen)" '"screen":"note_editor"' "tap: the editor opened"
is "$(field focused_field)" '"focused_field":"title"' "tap: the title has the focus"
is "$(field keyboard)" '"keyboard":true' "tap: the keyboard is up"
"$AMC" sim type "Groceries"; ok_status $? "sim type"
like "$(st)" '"fields":\{[^}]*"title":"Groceries"' "type: the title field holds the text"
"$AMC" sim key back; ok_status $? "sim key back"
is "$(field keyboard)" '"keyboard":false' "back: the keyboard closed"
"$AMC" sim key back
is "$(field screen)" '"screen":"notes"' "back again: the editor closed"
like "$(st)" '"notes":\[\{"title":"Groceries"' "the note was saved"
xy=$(centre 'text="Groceries"')
# shellcheck disable=SC2086
"$AMC" sim long-press $xy; ok_status $? "sim long-press on the note ($xy)"
is "$(field dialog)" '"dialog":"delete_note"' "long-press on a note asks to delete it"
"$AMC" sim key back; "$AMC" sim key home; ok_status $? "sim key home"
is "$(field screen)" '"screen":"launcher"' "home: the launcher"

# --- swipe and wait ------------------------------------------------------------------------------------
"$AMC" sim launch com.android.settings
like "$(st)" '\{"screen":"settings","arg":-1,"scroll":0\}' "settings open at the top"
"$AMC" sim swipe 540 2000 540 800; ok_status $? "sim swipe"
like "$(st)" '\{"screen":"settings","arg":-1,"scroll":[1-9][0-9]*\}' "swipe: the list scrolled"
t0=$(field sim_time_ms | tr -dc 0-9)
"$AMC" sim wait 5000; ok_status $? "sim wait"
t1=$(field sim_time_ms | tr -dc 0-9)
ok_status $([ $((t1 - t0)) -ge 5000 ]; echo $?) "wait 5000: sim time advanced by at least 5 s ($t0 -> $t1)"

# --- another phone, and reset ----------------------------------------------------------------------
"$AMC" sim --device sim:1 launch com.android.contacts; ok_status $? "--device sim:1"
is "$(field screen --device sim:1)" '"screen":"contacts"' "sim:1 shows contacts"
is "$(field screen)" '"screen":"settings"' "sim:0 is unchanged"
out=$("$AMC" sim reset); ok_status $? "sim reset"
is "$out" "sim:0 restored to its factory state" "reset says so"
like "$(st)" '"app":"com.android.launcher3","screen":"launcher","sim_time_ms":0,' "reset: the launcher at time 0"
ok_status $(st | grep -q Groceries; [ $? -ne 0 ]; echo $?) "reset removed the note"
is "$(field screen --device sim:1)" '"screen":"contacts"' "reset left sim:1 alone"

# --- bad input: exit 2 --------------------------------------------------------------------------------
out=$("$AMC" sim 2>&1); is $? 2 "sim without an action -> 2"
like "$out" "which action\? \(screenshot, ui, state" "lists the actions"
out=$("$AMC" sim fly 2>&1); is $? 2 "unknown action -> 2"
like "$out" "unknown action 'fly'" "the unknown action is named"
out=$("$AMC" sim tap 1 2>&1); is $? 2 "sim tap with one coordinate -> 2"
like "$out" "usage: amc sim tap X Y" "with the action's usage"
"$AMC" sim tap 99999 5 >/dev/null 2>&1; is $? 2 "sim tap outside the screen -> 2"
"$AMC" sim tap -3 5 >/dev/null 2>&1; is $? 2 "sim tap at a negative coordinate -> 2"
out=$("$AMC" sim key sideways 2>&1); is $? 2 "sim key unknown -> 2"
like "$out" "unknown key 'sideways' \(back, home, enter, delete\)" "the unknown key is named"
"$AMC" sim launch com.example.nothere >/dev/null 2>&1; is $? 2 "sim launch unknown app -> 2"
"$AMC" sim wait soon >/dev/null 2>&1; is $? 2 "sim wait with a word -> 2"
"$AMC" sim --device sim:x state >/dev/null 2>&1; is $? 2 "sim bad device -> 2"
out=$("$AMC" sim --device adb:emulator-5554 state 2>&1); is $? 2 "an adb phone -> 2"
like "$out" "'adb:emulator-5554' is not a simulated phone" "says it is not a sim"
"$AMC" sim screenshot "$T_HOME/no/such/folder/x.png" >/dev/null 2>&1; rc=$?
ok_status $([ $rc -ne 0 ]; echo $?) "screenshot into a missing folder fails ($rc)"

done_testing
