#!/bin/sh
# test_cmd_bench.sh - `amc bench tasks` (src/cli/cmd_bench.c) end to end on
# the sim: the reference flows on a few templates and two seeds, the table and
# --json, --report, a failing template saying what it found, usage errors;
# the LLM planner against the local fake Anthropic API (tests/tools/mockllm),
# its answer channel and a wrong answer; and --planner mcp with an agent
# command that drives `amc mcp` (act finish with the answer).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
MOCK="$AMC_TEST_BUILDDIR/tests/tools/mockllm"
unset ANTHROPIC_BASE_URL AMC_PLANNER_MODEL

# 1. reference flows: two templates, two seeds, two sims
out=$("$AMC" bench tasks --tasks 'settings-w*' --seeds 2 --sims 2 2>"$T_HOME/err"); rc=$?
is "$rc" 0 "flow: exit 0 when every run passes"
like "$out" "settings-wifi +2 +2 +100%" "a line per template with pass@1"
like "$out" "overall +2 +2 +100%" "and overall"
like "$out" "1 templates, 2 runs, planner flow, amc [0-9.]+ \([0-9a-f]+|unknown\), suite s[0-9a-z]+" "a closing line"
like "$(cat "$T_HOME/err")" "\[ *2/2\] sim:10[01] +settings-wifi +seed [12] +PASS" "progress lines on stderr"
suite=$(printf '%s\n' "$out" | sed -n 's/.*suite \(s[0-9a-z]*\),.*/\1/p')
again=$("$AMC" bench tasks --report "$suite"); rc=$?
is "$rc" 0 "--report exits 0"
like "$again" "settings-wifi +2 +2 +100%" "--report prints the table again"
json=$("$AMC" bench tasks --tasks 'info-build*' --json -q); rc=$?
is "$rc" 0 "--json exits 0"
like "$(printf '%s' "$json" | tr -d ' \n\t')" '"answer":"AMC.260115.001"' "the answer read by the reference flow is recorded"
like "$(printf '%s' "$json" | tr -d ' \n\t')" '"overall":\{"runs":1,"passed":1' "--json has the summary"
task=$(printf '%s' "$json" | tr -d ' \n\t' | sed -n 's/.*"task_id":"\([^"]*\)".*/\1/p')
show=$("$AMC" show "$task"); rc=$?
is "$rc" 0 "a run is an ordinary task: amc show works"
like "$show" "tapOn|launch" "and shows its steps"

# 2. a template whose flow does the wrong thing fails, saying why
mkdir -p "$T_HOME/tasks"
cat > "$T_HOME/tasks/wrong-wifi.yaml" <<'T'
summary: turns Bluetooth on instead of Wi-Fi off
goal: Turn Wi-Fi off.
setup:
  toggles: {wifi: true, bluetooth: false}
check:
  - path: toggles.wifi
    equals: false
reference:
  flow: |
    appId: com.android.settings
    ---
    - launchApp
    - tapOn: "Bluetooth"
    - tapOn: "Use Bluetooth"
T
out=$("$AMC" bench tasks --dir "$T_HOME/tasks" -q); rc=$?
is "$rc" 1 "a failing run: exit 1"
like "$out" "wrong-wifi +1 +0 +0%" "pass@1 0%"
like "$out" "toggles.wifi: found true, expected false" "the reason says what was found against what was expected"
printf 'goal: x\n' > "$T_HOME/tasks/broken.yaml"
out=$("$AMC" bench tasks --dir "$T_HOME/tasks" -q 2>&1); rc=$?
is "$rc" 2 "a broken template: usage error"
like "$out" "broken.yaml" "naming the file"
out=$("$AMC" bench tasks --tasks 'no-such-*' 2>&1); rc=$?
is "$rc" 2 "no template matches: usage error"
out=$("$AMC" bench tasks --planner nope 2>&1); rc=$?
is "$rc" 2 "an unknown planner: usage error"

# 3. the LLM planner on the fake API: an answer, a switch, a wrong answer
printf '%s\n' "answer 5%" "answer The build number is AMC.260115.001" \
	"launch com.android.settings" "tap Wi-Fi" "tap Use Wi-Fi" "finish true done" > "$T_HOME/script"
"$MOCK" "$T_HOME/script" "$T_HOME/port" "$T_HOME" &
MPID=$!
i=0; while [ ! -s "$T_HOME/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$T_HOME/port")"; export ANTHROPIC_BASE_URL
out=$(ANTHROPIC_API_KEY=sk-ant-test "$AMC" bench tasks --planner llm --tasks 'info-b*' -q); rc1=$?
out2=$(ANTHROPIC_API_KEY=sk-ant-test "$AMC" bench tasks --planner llm --tasks 'settings-wifi' -q); rc2=$?
kill "$MPID" 2>/dev/null; wait "$MPID" 2>/dev/null
is "$rc1" 1 "llm: one of two info runs fails: exit 1"
like "$out" "info-battery-level +1 +0 +0%" "the wrong answer fails"
like "$out" "answer: found \"5%\", expected \"[0-9]+%\"" "saying which answer it found"
like "$out" "info-build-number +1 +1 +100%" "the answer in a short sentence passes"
like "$out" "overall +2 +1 +50% +[0-9.]+ +2200 +0\.0[0-9]+" "tokens and cost are summed"
is "$rc2" 0 "llm: the switch task passes"
like "$out2" "planner llm" "the planner is named"
[ -s "$T_HOME/violations.txt" ] && sed 's/^/#   /' "$T_HOME/violations.txt"
ok "$([ ! -s "$T_HOME/violations.txt" ]; echo $((1 - $?)))" "every request to the fake API kept the protocol rules"
unset ANTHROPIC_BASE_URL

# 4. --planner mcp: the agent command drives amc's MCP server
cat > "$T_HOME/agent.sh" <<'A'
#!/bin/sh
# $1 the goal, $2 the device: answer over MCP with act finish. Each request
# waits for the answer to the one before (up to 60 s), as a client does: a
# fixed sleep was too short on a loaded machine under the sanitizers.
answered() { i=0; while ! grep -q "\"id\":$1," "$AGENT_LOG" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done; }
{
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench-test","version":"1"}}}'
answered 1
printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}'
printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"act","arguments":{"device":"%s","action":"launch_app","app":"com.android.settings"}}}\n' "$2"
answered 2
printf '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"act","arguments":{"device":"%s","action":"finish","summary":"read About phone","answer":"AMC.260115.001"}}}\n' "$2"
answered 3
} | "$AMC_BIN" mcp > "$AGENT_LOG" 2>&1
A
chmod +x "$T_HOME/agent.sh"
out=$(AGENT_LOG="$T_HOME/agent.log" AMC_BIN="$AMC" "$AMC" bench tasks --planner mcp --tasks 'info-build*' \
	--agent-cmd "$T_HOME/agent.sh \"\$1\" \"\$2\"" --timeout 30 -q 2>&1); rc=$?
is "$rc" 0 "mcp: the agent's answer passes"
like "$out" "info-build-number +1 +1 +100%" "scored like any planner"
like "$(cat "$T_HOME/agent.log")" '"status":"succeeded"' "act finish ended the session's task"
done_testing
