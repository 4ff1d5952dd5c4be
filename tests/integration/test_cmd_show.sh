#!/bin/sh
# test_cmd_show.sh - `amc show`: a task's header and timeline, one step with
# --step (text and JSON; the flow's lines as they ran, though the file is
# edited since), --decisions of a flow, and every way to name a task
# wrongly (unknown, ambiguous, path-like, missing, two) -> exit 2 with a message.
# (The timeline of a long flow, its screenshots and timings: test_cmd_run.sh.)
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
AMC_OCR_POLICY=off; export AMC_OCR_POLICY
ids() { sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p'; }

# --- no tasks yet: names that match nothing ------------------------------------------
out=$("$AMC" show 0000nosuchtask 2>&1); is $? 2 "unknown task id -> 2"
like "$out" "no task" "unknown task message"
out=$("$AMC" show '../../etc' 2>&1); is $? 2 "path-like task id -> 2"
out=$("$AMC" show 2>&1); is $? 2 "no task named -> 2"
like "$out" "which task\? give its id or a unique prefix" "says what to give"
out=$("$AMC" show a b 2>&1); is $? 2 "two tasks -> 2"
like "$out" "one task at a time" "says one at a time"

# --- a failed two-step task and a one-step task ------------------------------------------------
printf 'appId: com.android.settings\nname: Expect a unicorn\n---\n- launchApp\n- assertVisible: "Unicorn"\n' >"$T_HOME/fail.yaml"
printf 'appId: com.amc.notes\nname: Open notes\n---\n- launchApp\n' >"$T_HOME/notes.yaml"
AMC_FLOW_WAIT_TIMEOUT_MS=100 "$AMC" run --flow "$T_HOME/fail.yaml" >/dev/null 2>&1; is $? 1 "the failing task ran"
"$AMC" run --flow "$T_HOME/notes.yaml" >/dev/null 2>&1; is $? 0 "the succeeding task ran"
fid=$("$AMC" tasks --status failed --json | ids)
sid=$("$AMC" tasks --status succeeded --json | ids)
ok_status $([ ${#fid} -eq 16 ] && [ ${#sid} -eq 16 ]; echo $?) "both ids found"

# --- the timeline ----------------------------------------------------------------------------------
out=$("$AMC" show "$fid"); ok_status $? "show a failed task exits 0"
like "$out" "^✗ task $fid +failed$" "header: symbol, full id, status"
like "$out" "^  flow +Expect a unicorn \($T_HOME/fail.yaml\)$" "header: the flow and its file"
like "$out" "^  device +sim:0 +planner flow$" "header: device and planner"
like "$out" "steps 2 \(limit 50\)" "header: steps and the limit"
like "$out" "^  error +step 2: $T_HOME/fail.yaml:5: assertVisible: no element matches text=\"Unicorn\"" "header: the error with step, file and line"
like "$out" "^ +1 launch_app +ok " "step 1 listed ok"
like "$out" "^ +2 assert_visible +failed .*assertVisible \"Unicorn\"$" "step 2 listed failed"
like "$out" "^ +args +\{\"flow_line\":5,\"selector\":\"text=\\\\\"Unicorn\\\\\"\"\}$" "compact args per step"
like "$out" "^ +before +$AMC_HOME/artifacts/$fid/obs-[0-9]+\.png$" "absolute screenshot paths"
like "$out" "amc show $(printf %.8s "$fid") --step N" "ends with how to see one step"

# --- one step ------------------------------------------------------------------------------------------
out=$("$AMC" show "$(printf %.8s "$fid")" --step 2); ok_status $? "--step 2 by id prefix"
like "$out" "^step 2 of task $fid: assert_visible +failed" "the step's first line"
like "$out" "^  action +assertVisible \"Unicorn\"$" "its action"
like "$out" "^  error +$T_HOME/fail.yaml:5: " "its error"
like "$out" "^  usage +no model call recorded" "no model call for a flow step"
like "$out" "^ +tree +$AMC_HOME/artifacts/$fid/.*tree" "its UI tree file"
like "$out" "^scene \([0-9]+ elements" "the scene it saw"
like "$out" '"Wi-Fi"' "the scene lists what was on screen"
json=$("$AMC" show "$fid" -s 2 --json); ok_status $? "--step 2 --json"
like "$json" '^\{' "one JSON object"
like "$json" '"step":[[:space:]]*2,' "for step 2"
like "$json" '"tool":[[:space:]]*"assert_visible"' "with its tool"
is "$(printf '%s\n' "$json" | grep -c '"step":')" 1 "and only that step"
# the flow's lines as they ran, from the copy kept with the task: the file
# edited since (a line inserted above the failing one) changes nothing
printf 'appId: com.android.settings\nname: Expect a unicorn\n---\n- back\n- back\n- assertVisible: "Edited"\n' >"$T_HOME/fail.yaml"
out=$("$AMC" show "$fid" --step 2)
like "$out" "^  source  $T_HOME/fail.yaml:5$" "--step: the step's source file and line"
like "$out" '^  >   5 \| - assertVisible: "Unicorn"$' "--step: the line that ran, marked, though the file changed"
like "$out" '^      4 \| - launchApp$' "--step: the line before it, numbered"
json=$("$AMC" show "$fid" -s 2 --json)
like "$json" '"source":[[:space:]]*\{' "--step --json: a source object"
like "$json" '"text":[[:space:]]*"- assertVisible: \\"Unicorn\\""' "with the line that ran"
like "$json" '"stored":[[:space:]]*true' "from the copy kept with the task"
json=$("$AMC" show "$sid" --json)
like "$json" '"status":[[:space:]]*"succeeded"' "--json: the task's status"
like "$json" '"steps":[[:space:]]*\[' "--json: its steps"

out=$("$AMC" show "$sid" --step 5 2>&1); is $? 2 "a step the task does not have -> 2"
like "$out" "task $sid has no step 5 \(it has 1\)" "says how many it has"
out=$("$AMC" show "$sid" --step 0 2>&1); is $? 2 "--step 0 -> 2"
like "$out" "--step takes a whole number" "says what --step takes"

# --- decisions of a flow: none -------------------------------------------------------------------------
out=$("$AMC" show "$sid" --decisions); ok_status $? "--decisions of a flow exits 0"
like "$out" "^planner decisions of task $sid: 0$" "none recorded"

# --- an ambiguous prefix -----------------------------------------------------------------------------------
# Ids start with the time, so the two share a first character.
p=$(printf %.1s "$fid")
if [ "$p" = "$(printf %.1s "$sid")" ]; then
	out=$("$AMC" show "$p" 2>&1); is $? 2 "an ambiguous prefix -> 2"
	like "$out" "'$p' matches 2 tasks .*give more characters" "says it is ambiguous"
else
	diag "ids differ in their first character: ambiguity not checked"
fi

# --- what a step changed: the tree diff and the changed-nothing flag ------------------------------------
# A tap on the status bar does nothing; a tap on Wi-Fi opens its screen.
printf 'appId: com.android.settings\nname: Miss then hit\n---\n- launchApp\n- tapOn:\n    point: "50%%,1%%"\n- tapOn: "Wi-Fi"\n' >"$T_HOME/miss.yaml"
"$AMC" run --flow "$T_HOME/miss.yaml" >/dev/null 2>&1; is $? 0 "the missing task ran"
mid=$("$AMC" tasks --json | ids | head -1)
out=$("$AMC" show "$mid"); ok_status $? "show it"
like "$(printf '%s\n' "$out" | grep -A1 '^ *2 tap ' | tail -1)" "^ +! changed nothing: same UI tree, same pixels \(a missed tap\?\)$" \
	"the timeline marks the missed tap, below its step"
is "$(printf '%s\n' "$out" | grep -c 'changed nothing')" 1 "and only that step"
out=$("$AMC" show "$mid" --step 2)
like "$out" "^diff \(before -> after\):$" "--step: the diff section"
like "$out" "^  ! changed nothing: the UI tree is the same and 0.00% of the pixels" "--step: the flag, first"
like "$out" "^    tree: 0 added, 0 removed, 0 changed, [0-9]+ unchanged$" "--step: an empty tree diff"
out=$("$AMC" show "$mid" --step 3)
like "$out" "^    tree: [0-9]+ added, [0-9]+ removed" "--step 3: the tree changed"
like "$out" "^  - TextView \"Bluetooth\" #title " "a removed row, with - and its text"
like "$out" "^  \+ TextView \"Use Wi-Fi\" " "an added node, with +"
json=$("$AMC" show "$mid" --step 2 --json)
like "$json" '"changed_nothing":[[:space:]]*true' "--json: the flag"
like "$json" '"diff":[[:space:]]*\{' "--json: the diff object"
json=$("$AMC" show "$mid" --step 3 --json)
like "$json" '"changed_nothing":[[:space:]]*false' "--json: step 3 changed something"
like "$json" '"op":[[:space:]]*"-"' "--json: its entries"

# --- a long error wraps to the terminal's width, whole, under its label ----------------------
# (a pipe, as above, gets one line per message; COLUMNS stands in for a terminal)
one=$("$AMC" show "$fid" | grep -c 'on screen:.*Unicorn\|Unicorn.*on screen:')
is "$one" 2 "piped: the error is one line (header and step), for grep"
w=$(COLUMNS=60 "$AMC" show "$fid")
diag "COLUMNS=60: $(printf '%s\n' "$w" | sed -n '/^  error/,/^$/p' | head -n 8 | tr '\n' '|')"
# paths (before/after) may be longer than a line: only the wrapped error lines count
errlong=$(printf '%s\n' "$w" | sed -n '/^  error/,/^ *[a-z]* *$/p' | awk 'length($0) > 60' | wc -l)
is "$errlong" 0 "COLUMNS=60: no line of the task's error is wider than 60 columns"
like "$w" "^  error +step 2: " "its first line keeps the label"
like "$w" "^            [^ ]" "continuation lines are indented under the text"
flat=$(printf '%s\n' "$w" | sed -n '/^  error/,/^$/p' | sed 's/^ *//; s/^error *//' | tr '\n' ' ' | tr -s ' ')
whole=$("$AMC" show "$fid" | sed -n 's/^  error *//p' | head -n 1)
case "$flat" in *"$whole"*) r=0 ;; *) r=1 ;; esac
ok_status $r "the wrapped error, joined, is the whole message (nothing cut)"

# --- screenshot paths as OSC 8 links (issue 27): forced on; auto to a pipe is plain ----------
esc=$(printf '\033')
lk=$(AMC_HYPERLINKS=on "$AMC" show "$fid" | grep -c "^ *before *${esc}]8;;file://[^${esc}]*/obs-[0-9]*\.png${esc}\\\\$AMC_HOME/artifacts/$fid/obs-[0-9]*\.png${esc}]8;;${esc}\\\\\$")
[ "$lk" -ge 1 ]
ok_status $? "AMC_HYPERLINKS=on: a before path is a link to its file ($lk)"
plain=$("$AMC" show "$fid" | grep -c "${esc}]8;")
is "$plain" 0 "auto, to a pipe: no link"
done_testing
