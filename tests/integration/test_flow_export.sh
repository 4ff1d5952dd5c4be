#!/bin/sh
# test_flow_export.sh - agentic runs (the LLM planner against the local fake
# Anthropic API, tests/tools/mockllm) exported as Maestro flows
# (`amc export TASK --flow`), each replayed by `amc run --flow` on a reset sim: the same sim
# state as a whole. One scenario per sim app: Contacts, Settings, Notes.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export AMC_JS="$AMC_TEST_BUILDDIR/amc-js"
mkdir -p "$XDG_CONFIG_HOME/amc"
unset ANTHROPIC_BASE_URL AMC_PLANNER_MODEL

# scenario NAME GOAL SCRIPT STATE_PATTERN ASSERTED
scenario() {
	start_mock "$3"
	"$AMC" sim reset >/dev/null
	ANTHROPIC_API_KEY=sk-ant-test setsid -w "$AMC" run "$2" --json </dev/null >"$T_HOME/out" 2>"$T_HOME/err"; rc=$?
	stop_mock
	is "$rc" 0 "$1: the agentic run succeeds"
	[ "$rc" -eq 0 ] || sed 's/^/# /' "$T_HOME/err" | tail -n 5
	id=$(sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' "$T_HOME/out" | head -n 1)
	"$AMC" sim state >"$T_HOME/state1"
	like "$(cat "$T_HOME/state1")" "$4" "$1: it changed the sim"

	"$AMC" export "$id" --flow >"$T_HOME/$1.yaml" 2>"$T_HOME/err"; ok_status $? "$1: exported as a flow"
	sed 's/^/#   /' "$T_HOME/$1.yaml"
	y=$(cat "$T_HOME/$1.yaml")
	like "$y" 'planner llm' "$1: naming the planner"
	like "$y" '# a unique (resource id|text)' "$1: taps as selectors from the step's tree"
	like "$y" "- assertVisible: \"$5\"" "$1: what the goal was about asserted at the end"
	"$AMC" flow check -d sim "$T_HOME/$1.yaml" >"$T_HOME/check"; ok_status $? "$1: the export checks clean"

	"$AMC" sim reset >/dev/null
	"$AMC" run --flow "$T_HOME/$1.yaml" >"$T_HOME/out" 2>&1; rc=$?
	is "$rc" 0 "$1: the exported flow replays on a reset sim"
	[ "$rc" -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
	"$AMC" sim state >"$T_HOME/state2"
	if cmp -s "$T_HOME/state1" "$T_HOME/state2"; then ok 1 "$1: the same sim state as the agentic run, as a whole"
	else ok 0 "$1: the same sim state as the agentic run, as a whole"; diff "$T_HOME/state1" "$T_HOME/state2" | sed 's/^/# /'; fi
}

scenario contacts "Add a contact for Ada Lovelace, 555-0100" "launch com.android.contacts
tap Add contact
tap Name
type Ada Lovelace
tap Phone
type 555-0100
tap Save
finish true Added Ada Lovelace, 555-0100" '"name":[[:space:]]*"Ada Lovelace"' "Ada Lovelace"

scenario settings "Turn Wi-Fi off in Settings" "launch com.android.settings
tap Wi-Fi
tap Use Wi-Fi
finish true Wi-Fi is off" '"wifi":[[:space:]]*false' "Wi-Fi is off"

scenario notes "Write a note titled Shopping list" "launch com.amc.notes
tap New note
tap Title
type Shopping list
key back
key back
finish true Wrote the note Shopping list" '"title":[[:space:]]*"Shopping list"' "Shopping list"

# A flow run's export keeps the source flow's assertions (issue 27: all 9 of the
# bundled flows' were dropped and the export ended with "nothing asserted").
for f in add-contact create-note wifi-off-on; do
	src="$AMC_TEST_SRCDIR/data/flows/$f.yaml"
	"$AMC" sim reset >/dev/null
	"$AMC" run --flow "$src" --json </dev/null >"$T_HOME/out" 2>"$T_HOME/err"; rc=$?
	is "$rc" 0 "$f: the bundled flow passes"
	id=$(sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' "$T_HOME/out" | head -n 1)
	"$AMC" export "$id" --flow >"$T_HOME/$f.yaml" 2>"$T_HOME/err"; ok_status $? "$f: exported"
	want=$(grep -c '^- assert' "$src")
	got=$(grep -c '^- assert' "$T_HOME/$f.yaml")
	is "$got" "$want" "$f: the export keeps the flow's $want assertions"
	[ "$got" = "$want" ] || sed 's/^/#   /' "$T_HOME/$f.yaml"
	if grep -q "nothing asserted" "$T_HOME/$f.yaml"; then ok 0 "$f: no \"nothing asserted\""; else ok 1 "$f: no \"nothing asserted\""; fi
	"$AMC" sim reset >/dev/null
	"$AMC" run --flow "$T_HOME/$f.yaml" >"$T_HOME/out" 2>&1; rc=$?
	is "$rc" 0 "$f: the export replays, assertions and all"
	[ "$rc" -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
done

# A folder where a file is wanted: a usage error naming it (was "cannot rename", exit 3).
mkdir -p "$T_HOME/outdir"
out=$("$AMC" export "$id" --html "$T_HOME/outdir" 2>&1); is $? 2 "--html FOLDER -> exit 2"
like "$out" "outdir' is a folder" "naming the folder"
is "$(printf '%s\n' "$out" | grep -c .)" 1 "in one line"
# The report is written with the user's umask (was always 0600).
(umask 022; "$AMC" export "$id" --html "$T_HOME/r.html" 2>/dev/null); ok_status $? "--html FILE"
is "$(stat -c %a "$T_HOME/r.html")" 644 "the report's mode follows the umask (022 -> 644)"

"$AMC" export nosuchtask --flow >/dev/null 2>&1; is $? 2 "an unknown task is refused (a usage error, as amc show)"
done_testing
