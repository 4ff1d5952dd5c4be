#!/bin/sh
# `amc mcp` driven by real MCP clients installed from npm: the TypeScript SDK
# client (tests/mcp/sdk_client.mjs) and the MCP Inspector CLI. They are
# installed from the committed lockfile (tests/mcp/package-lock.json) with
# `npm ci` into the BUILD directory (tests/mcp-env), reused while the lockfile
# is unchanged. Skips only when node or npm is missing.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"

mcp_clients
ok 1 "the MCP SDK, the Inspector and Claude Code installed in the build directory"
cp "$src/claude_mock.mjs" "$env_dir/" && chmod u+w "$env_dir/claude_mock.mjs"

AMC_OCR_POLICY=off; export AMC_OCR_POLICY
# The SDK client's checks, renumbered into this test's plan.
node_tap sdk_client.mjs 300 "the SDK client script exited 0"

# The sessions are tasks with their steps in `amc show`.
s1=$(sed -n 's/^# session tasks: \([^ ]*\) .*/\1/p' "$T_HOME/sdk.out")
out=$("$AMC" show "$s1" 2>&1)
like "$out" "planner mcp" "amc show: the session's task has planner mcp"
like "$out" "reason  open the Contacts app" "and its first step carries the client's reason"
like "$out" "after .*obs-" "with before/after screenshots"

# The Inspector CLI: tools/list and a tools/call.
insp="$env_dir/node_modules/.bin/mcp-inspector"
out=$(cd "$env_dir" && timeout 120 "$insp" --cli "$AMC" mcp --method tools/list 2>"$T_HOME/insp.err")
is $? 0 "Inspector CLI: tools/list exits 0"
like "$out" '"name": "run_task"' "and lists run_task"
out=$(cd "$env_dir" && timeout 120 "$insp" --cli "$AMC" mcp --method tools/call --tool-name devices 2>>"$T_HOME/insp.err")
is $? 0 "Inspector CLI: tools/call devices exits 0"
like "$out" 'sim:0' "and the result lists sim:0"

# Claude Code itself (2.1.197, the last that runs on Node 20), offline: HOME in
# a temporary folder, no nonessential traffic, stdin from /dev/null, a
# wall-clock kill.
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 18 ]; then
	diag "SKIP Claude Code: Node $node_major is too old (Claude Code 2.1.197 needs Node >= 18)"
	done_testing
	exit $?
fi
cc="$env_dir/node_modules/.bin/claude"
# A fresh AMC_HOME: the simulated phone starts on its home screen.
AMC_HOME="$T_HOME/cc-amc"
export AMC_HOME
cc_home="$T_HOME/cc-home"
mkdir -p "$cc_home"
cc_run() { (cd "$cc_home" && HOME="$cc_home" PATH="$env_dir/node_modules/.bin:$PATH" \
	CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 "$@" </dev/null); }
# 1. The command `amc mcp --print-config claude` prints, run as printed; then
#    `claude mcp list`, which starts amc mcp and performs the MCP handshake.
add=$("$AMC" mcp --print-config claude | grep '^claude mcp add ')
like "$add" "^claude mcp add amc -e AMC_HOME=$AMC_HOME -- /.*/amc mcp\$" "print-config claude: the absolute binary and AMC_HOME"
cc_run timeout 60 sh -c "$add" >"$T_HOME/cc-add.out" 2>&1
ok_status $? "Claude Code: the printed claude mcp add command succeeds"
out=$(cc_run timeout 60 "$cc" mcp list 2>&1)
like "$out" "^amc: /.*/amc mcp - .* Connected" "claude mcp list: amc is connected (the MCP handshake)"
# 2. Print mode against a local mock of the Messages API (claude_mock.mjs)
#    that answers with tool_use blocks for amc's tools, through the .mcp.json
#    entry `amc mcp --print-config json` prints.
node "$env_dir/claude_mock.mjs" "$T_HOME/cc-port" "$T_HOME/cc-mock.log" &
mock=$!
wait_for 10 test -s "$T_HOME/cc-port"
ok_status $? "the Messages API mock listens"
"$AMC" mcp --print-config json >"$T_HOME/mcp.json"
out=$(cc_run env ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$T_HOME/cc-port")" ANTHROPIC_API_KEY=test-key \
	timeout 180 "$cc" -p "Open the Contacts app on the phone" --output-format json --strict-mcp-config \
	--mcp-config "$T_HOME/mcp.json" --allowedTools mcp__amc__observe,mcp__amc__act --tools "" 2>"$T_HOME/cc.err")
is $? 0 "Claude Code print mode exits 0"
like "$out" '"is_error":false' "its result is not an error"
like "$out" '"result":"Contacts is open on the phone."' "and ends with the mock model's final text"
kill "$mock" 2>/dev/null
log="$T_HOME/cc-mock.log"
for c in observe_result_scene observe_result_image act_result_ok act_result_new_screen act_result_image; do
	like "$(grep "\"check\":\"$c\"" "$log")" '"ok":true' "mock model: $c"
done
ok $(grep -c '"ok":false' "$log" | grep -qx 0 && echo 1 || echo 0) "mock model: no check failed"
grep '"transcript"' "$log" | sed 's/^{"transcript":"\(.*\)"}$/\1/; s/^/# claude code: /' | cut -c1-220
task=$(sed -n 's/^{"task":"\([0-9a-z]*\)".*/\1/p' "$log")
out=$("$AMC" show "$task" 2>&1)
like "$out" "planner mcp" "amc show: Claude Code's session is a task of planner mcp"
like "$out" "MCP session: claude-code" "named after the client"
like "$out" "reason  open Contacts to add a contact" "its tap is a step with the model's reason"
like "$out" "after .*obs-" "with before/after screenshots"
like "$out" "succeeded" "and it ended when Claude Code stopped amc mcp (SIGTERM), not interrupted"
done_testing
