#!/bin/sh
# test_flow_export.sh - an agentic run (the LLM planner against the local fake
# Anthropic API, tests/tools/mockllm) exported as a Maestro flow
# (amc_flow_export, through tests/tools/flowexport until `amc export --flow`
# is wired), replayed by `amc run --flow` on a reset sim: the same sim state
# as a whole.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
MOCK="$AMC_TEST_BUILDDIR/tests/tools/mockllm"
EXPORT="$AMC_TEST_BUILDDIR/tests/tools/flowexport"
export AMC_JS="$AMC_TEST_BUILDDIR/amc-js"
LOGS="$T_HOME/mock"
mkdir -p "$LOGS" "$XDG_CONFIG_HOME/amc"
unset ANTHROPIC_BASE_URL AMC_PLANNER_MODEL

MPID=
trap '[ -n "$MPID" ] && kill "$MPID" 2>/dev/null' EXIT
printf '%s\n' "launch com.android.contacts
tap Add contact
tap Name
type Ada Lovelace
tap Phone
type 555-0100
tap Save
finish true Added Ada Lovelace, 555-0100" >"$T_HOME/script"
"$MOCK" "$T_HOME/script" "$T_HOME/port" "$LOGS" &
MPID=$!
wait_for 10 test -s "$T_HOME/port" || { diag "mock did not start"; }
export ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$T_HOME/port")"

"$AMC" sim reset >/dev/null
ANTHROPIC_API_KEY=sk-ant-test setsid -w "$AMC" run "Add a contact for Ada Lovelace, 555-0100" --json \
	</dev/null >"$T_HOME/out" 2>"$T_HOME/err"; rc=$?
kill "$MPID" 2>/dev/null; wait "$MPID" 2>/dev/null; MPID=
is "$rc" 0 "the agentic run succeeds"
id=$(sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' "$T_HOME/out" | head -n 1)
"$AMC" sim state >"$T_HOME/state1"
like "$(cat "$T_HOME/state1")" '"name":[[:space:]]*"Ada Lovelace"' "it added the contact"

"$EXPORT" "$id" >"$T_HOME/replay.yaml" 2>"$T_HOME/err"; ok_status $? "exported as a flow"
sed 's/^/#   /' "$T_HOME/replay.yaml"
y=$(cat "$T_HOME/replay.yaml")
like "$y" 'planner llm' "naming the planner"
like "$y" '- launchApp:' "launchApp"
like "$y" '# a unique (resource id|text)' "taps as selectors from the step's tree"
like "$y" '- inputText: "Ada Lovelace"' "typed text"
like "$y" '- assertVisible: "Ada Lovelace"' "the goal's contact asserted at the end"
"$AMC" flow check -d sim "$T_HOME/replay.yaml" >"$T_HOME/check"; ok_status $? "the export checks clean"

"$AMC" sim reset >/dev/null
"$AMC" run --flow "$T_HOME/replay.yaml" >"$T_HOME/out" 2>&1; rc=$?
is "$rc" 0 "the exported flow replays on a reset sim"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
"$AMC" sim state >"$T_HOME/state2"
if cmp -s "$T_HOME/state1" "$T_HOME/state2"; then ok 1 "the same sim state as the agentic run, as a whole"
else ok 0 "the same sim state as the agentic run, as a whole"; diff "$T_HOME/state1" "$T_HOME/state2" | sed 's/^/# /'; fi
"$EXPORT" nosuchtask >/dev/null 2>&1; is $? 1 "an unknown task is refused"
done_testing
