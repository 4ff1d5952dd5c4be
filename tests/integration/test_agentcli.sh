#!/bin/sh
# amc run --agent claude|codex (src/planner/agentcli.c): the real CLIs from npm
# (Claude Code 2.1.197, Codex 0.171.0; tests/mcp/package-lock.json, installed
# into the build directory) against a local mock of their model APIs
# (tests/mcp/agent_mock.mjs) that completes suite templates through amc's
# observe and act; the capability snapshot; billing; every fault, each ending
# the task failed with a reason and no process left behind. No network, no
# account: logins are fake files, keys are "x".
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"

command -v node >/dev/null 2>&1 || skip_all "node is not installed (the agent CLIs need Node.js >= 20)"
command -v npm >/dev/null 2>&1 || skip_all "npm is not installed (needed to install the agent CLIs)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || skip_all "Node $node_major is too old for Claude Code 2.1.197 (needs >= 18)"

env_dir="$AMC_TEST_BUILDDIR/tests/mcp-env"
src="$AMC_TEST_SRCDIR/tests/mcp"
npm_env "$src" "$env_dir" node_modules/@openai/codex/package.json
rc=$?
if [ $rc -ne 0 ]; then
	sed 's/^/# /' "$T_HOME/npm.log" | tail -n 20
	ok 0 "npm ci of the agent CLIs (exit $rc)"
	done_testing
	exit 1
fi
bin="$env_dir/node_modules/.bin"
ok 1 "Claude Code and Codex installed in the build directory"

# No user's settings, logins or keys leak in: a private HOME, the CLIs on PATH.
export HOME="$T_HOME/user"
mkdir -p "$HOME"
PATH="$bin:$PATH"
export PATH
unset ANTHROPIC_API_KEY ANTHROPIC_AUTH_TOKEN CLAUDE_CODE_OAUTH_TOKEN OPENAI_API_KEY CODEX_API_KEY CODEX_HOME CLAUDE_CONFIG_DIR
AMC_OCR_POLICY=off
export AMC_OCR_POLICY

# What an agent run may leave behind: nothing.
leftovers() {
	pgrep -af "mcp --attach|strict-mcp-config|codex exec|codex-linux" 2>/dev/null | grep -v pgrep || true
}
no_leftovers() { # no_leftovers NAME
	sleep 0.3
	left=$(leftovers)
	is "$left" "" "$1: no process left behind"
}

mock_pid=
start_agent_mock() { # start_agent_mock MODE
	[ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null && wait "$mock_pid" 2>/dev/null
	rm -f "$T_HOME/aport"
	: >"$T_HOME/amock.log"
	node "$src/agent_mock.mjs" "$T_HOME/aport" "$T_HOME/amock.log" "$1" &
	mock_pid=$!
	wait_for 10 test -s "$T_HOME/aport" || { diag "agent mock did not start"; return 1; }
	port=$(cat "$T_HOME/aport")
	ANTHROPIC_BASE_URL="http://127.0.0.1:$port"
	export ANTHROPIC_BASE_URL
	cat >"$T_HOME/codex.toml" <<EOF
model = "gpt-5.2"
model_provider = "mock"

[model_providers.mock]
name = "amc test mock"
base_url = "http://127.0.0.1:$port/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
EOF
}
mock_failed_checks() {
	grep '"check"' "$T_HOME/amock.log" | grep -v '"ok":true' | head -n 5
}
mock_checks() {
	grep -c '"ok":true' "$T_HOME/amock.log"
}
AMC_AGENT_CODEX_CONFIG="$T_HOME/codex.toml"
export AMC_AGENT_CODEX_CONFIG

# Logins as the CLIs keep them (fake tokens: the mock never checks them).
claude_login() {
	mkdir -p "$HOME/.claude"
	printf '%s\n' '{"claudeAiOauth":{"accessToken":"sk-ant-oat-fake","refreshToken":"r","expiresAt":4102444800000,"scopes":["user:inference"],"subscriptionType":"max"}}' >"$HOME/.claude/.credentials.json"
}
codex_login() {
	mkdir -p "$HOME/.codex"
	printf '%s\n' '{"OPENAI_API_KEY":null,"tokens":{"id_token":"a.b.c","access_token":"t","refresh_token":"r","account_id":"acc"},"last_refresh":"2026-12-01T00:00:00Z"}' >"$HOME/.codex/auth.json"
}

# ---- the capability snapshot: found, version, login, billing; no model call ----
start_agent_mock ok
out=$("$AMC" providers --json 2>&1)
ok_status $? "amc providers --json exits 0"
cl=$(printf '%s' "$out" | node -e 'const j=JSON.parse(require("fs").readFileSync(0,"utf8"));const a=j.agents.find(x=>x.name==="agent:claude");console.log([a.found,a.version,a.auth_mode,a.billing_mode,a.health,!!a.observed_at,a.path_source].join("|"))')
is "$cl" "true|2.1.197 (Claude Code)|none|unknown|unknown|true|PATH" "snapshot: Claude Code found on PATH, its version, no login, billing unknown, health unknown"
cx=$(printf '%s' "$out" | node -e 'const j=JSON.parse(require("fs").readFileSync(0,"utf8"));const a=j.agents.find(x=>x.name==="agent:codex");console.log([a.found,a.version,a.auth_mode].join("|"))')
is "$cx" "true|codex-cli 0.171.0|none" "snapshot: Codex found, codex-cli 0.171.0, no login"
is "$(grep -c '"api"' "$T_HOME/amock.log")" "0" "amc providers made no model call"
claude_login
codex_login
out=$(ANTHROPIC_API_KEY=x "$AMC" providers --json 2>&1)
cl=$(printf '%s' "$out" | node -e 'const j=JSON.parse(require("fs").readFileSync(0,"utf8"));const a=j.agents.find(x=>x.name==="agent:claude");console.log([a.auth_mode,a.plan,a.billing_mode,/credentials.json$/.test(a.auth_source)].join("|"))')
is "$cl" "subscription+api_key|max|included plan|true" "with a login and a key: auth subscription+api_key, plan max, billing the included plan, source the login file"
out=$("$AMC" providers 2>&1)
like "$out" "agent:codex \(Codex\)" "amc providers (text) lists Codex"
like "$out" "billing +included plan" "and its billing"

# ---- suite templates on the sim, through each CLI ----
mkdir -p "$T_HOME/tasks"
for t in settings-wifi contact-add alarm-create note-create contact-delete contact-delete-denied; do
	cp "$AMC_TEST_SRCDIR/data/tasks/$t.yaml" "$T_HOME/tasks/"
done
out=$(AMC_AGENT_BILLING=api ANTHROPIC_API_KEY=x timeout 300 "$AMC" bench tasks --planner agent:claude --dir "$T_HOME/tasks" --quiet 2>&1)
ok_status $? "bench tasks --planner agent:claude exits 0"
printf '%s\n' "$out" | sed 's/^/# /'
like "$out" "overall +6 +6 +100%" "Claude Code completes 6 suite templates; their programmatic checks pass"
like "$out" "contact-delete-denied +1 +1 +100%" "the person's refusal of a delete reached amc's operator, not the agent, and nothing was deleted"
is "$(mock_failed_checks)" "" "the Messages mock: every request after a tool call carried amc's scene text and screenshot"
ok "$(($(mock_checks) >= 40))" "the Messages mock made its checks ($(mock_checks))"
no_leftovers "the Claude Code suite"

start_agent_mock ok
out=$(timeout 300 "$AMC" bench tasks --planner agent:codex --dir "$T_HOME/tasks" --quiet 2>&1)
ok_status $? "bench tasks --planner agent:codex exits 0"
printf '%s\n' "$out" | sed 's/^/# /'
like "$out" "overall +6 +6 +100%" "Codex completes 6 suite templates; their checks pass"
is "$(mock_failed_checks)" "" "the Responses mock: every request after a tool call carried amc's scene text and screenshot"
like "$(grep '"api":"responses"' "$T_HOME/amock.log" | head -n 1)" '"amc_tools":\["act","observe"\]' "Codex was offered amc's observe and act"
like "$(grep '"api":"responses"' "$T_HOME/amock.log" | head -n 1)" '"tools":\[[^]]*\]' "the request lists its tools"
no_leftovers "the Codex suite"
cid=$("$AMC" tasks --json --limit 1 | tr ',' '\n' | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1)
like "$("$AMC" show "$cid" 2>&1)" "reason +Seen [0-9]+ elements; next: " "Codex: each step's reasoning is the agent's message before its act"

# ---- amc run --agent: one task, recorded like any other ----
start_agent_mock ok
out=$(ANTHROPIC_API_KEY=x timeout 120 "$AMC" run --agent claude --billing api 'Add a contact named Ada Lovelace with the phone number 555-0100.' 2>&1)
ok_status $? "amc run --agent claude completes the goal"
like "$out" "bills this run to API billing" "it says which billing the run used"
id=$(printf '%s\n' "$out" | sed -n 's/^amc: task \([0-9a-z]*\) running.*/\1/p')
show=$("$AMC" show "$id" 2>&1)
like "$show" "planner agent:claude" "amc show: planner agent:claude"
like "$show" "agent +Claude Code 2.1.197" "amc show: the CLI and its version"
like "$show" "billing +api +cost [$][0-9.]+" "amc show: the billing and the reported cost"
like "$show" "session +[0-9a-f-]{8,} +turns [0-9]+" "amc show: the session id and turns"
like "$show" "usage +[0-9]+ tokens in" "amc show: the tokens"
like "$show" "reason +Seen [0-9]+ elements; next: tap Add contact" "each step's reasoning is what the agent said before its act (stream-json), with its reason"
like "$show" "launch_app" "the agent's actions are the task's steps"
no_leftovers "amc run --agent claude"

# ---- the TUI's Launch dialog: "a goal for Claude Code" ----
cat >"$T_HOME/launch.keys" <<'KEYS'
n
j j j j j
Tab
:type Turn Wi-Fi off.
:dump dialog
Enter
:drain
:wait
:dump finished
KEYS
mkdir -p "$T_HOME/tui"
AMC_AGENT_BILLING=api ANTHROPIC_API_KEY=x TERM=xterm-256color LC_ALL=C.UTF-8 timeout 120 "$AMC" tui --script "$T_HOME/launch.keys" --dump-dir "$T_HOME/tui" --size 100x30
ok_status $? "TUI: the launch script runs"
like "$(cat "$T_HOME/tui/dialog.txt")" "\(\*\) a goal for Claude Code \(your login\)" "TUI: the dialog offers a goal for Claude Code"
like "$(sed -n 2p "$T_HOME/tui/finished.txt")" "succeeded" "TUI: the agent's task runs to its end in the Task view"
like "$("$AMC" tasks 2>&1 | sed -n 2p)" "succeeded" "and is recorded"
no_leftovers "the TUI's agent launch"

# ---- billing: a subscription is never switched to the API key ----
cat >"$T_HOME/fake-claude" <<'EOF'
#!/bin/sh
# Records how amc started it and prints a result the way Claude Code does.
case "${1:-}" in --version) echo "2.1.197 (Claude Code)"; exit 0 ;; esac
env >"$FAKE_OUT.env"
printf '%s\n' "$@" >"$FAKE_OUT.args"
pwd >"$FAKE_OUT.cwd"
echo '{"type":"result","subtype":"success","is_error":false,"result":"nothing to do","session_id":"sess-fake-1","num_turns":3,"total_cost_usd":0.25,"usage":{"input_tokens":1234,"output_tokens":56}}'
EOF
chmod +x "$T_HOME/fake-claude"
FAKE_OUT="$T_HOME/fake"
export FAKE_OUT
out=$(MCP_CONNECTION_NONBLOCKING=true AMC_AGENT_CLAUDE_PATH="$T_HOME/fake-claude" ANTHROPIC_API_KEY=sk-test-key AMC_SECRET_PIN=1234 timeout 60 "$AMC" run --agent claude "open settings" 2>&1 </dev/null)
like "$out" "bills this run to your Claude Code login \(plan max\); the API key in the environment is not passed on" "login + key, no choice: the login, and it says the key is not used"
ok "$(! grep -q '^ANTHROPIC_API_KEY=' "$FAKE_OUT.env"; echo $((! $?)))" "the CLI's environment has no ANTHROPIC_API_KEY"
ok "$(! grep -q '^AMC_SECRET_PIN=' "$FAKE_OUT.env"; echo $((! $?)))" "nor amc's secrets"
# Claude Code 2.1 would otherwise send its first turn before amc's MCP server
# is connected (nonBlocking by default in print mode): a run without tools.
is "$(grep '^MCP_CONNECTION_NONBLOCKING=' "$FAKE_OUT.env")" "MCP_CONNECTION_NONBLOCKING=0" "the CLI waits for amc's MCP server before its first turn"
ok "$(! grep -qx -- '--bare' "$FAKE_OUT.args"; echo $((! $?)))" "and no --bare (which would skip the login)"
like "$(tr '\n' ' ' <"$FAKE_OUT.args")" "--tools  --strict-mcp-config --mcp-config [^ ]+/mcp.json --allowedTools mcp__amc__observe,mcp__amc__act --permission-mode dontAsk --no-session-persistence --setting-sources " "argv: built-in tools off, amc's MCP config only, amc's two tools, no settings"
like "$(cat "$FAKE_OUT.cwd")" "/agents/[0-9a-z]+/work$" "the CLI runs in a private folder under \$AMC_HOME/agents"
ok "$([ ! -e "$(dirname "$(cat "$FAKE_OUT.cwd")")" ] && echo 1 || echo 0)" "removed when the run ends (it held the MCP config and the login's link)"
like "$out" "failed after 0 steps: Claude Code stopped without finishing the task" "a CLI that ends without act finish fails the task, saying so"
id=$(printf '%s\n' "$out" | sed -n 's/^amc: task \([0-9a-z]*\) running.*/\1/p')
show=$("$AMC" show "$id" 2>&1)
like "$show" "billing +subscription +cost [$]0.2500 notional" "subscription: the reported cost is recorded as notional"
ok "$(! printf '%s' "$show" | grep -q 'usage .*\$'; echo $((! $?)))" "and not charged to the task"
like "$show" "usage +1234 tokens in +56 tokens out" "the CLI's tokens are the task's"
like "$show" "session +sess-fake-1 +turns 3" "its session id and turns"
"$AMC" export "$id" --html "$T_HOME/agent.html" >/dev/null 2>&1
like "$(cat "$T_HOME/agent.html")" "<dt>agent</dt><dd>Claude Code 2.1.197 \(Claude Code\); billing +subscription +cost [$]0.2500 notional" "the HTML report has the agent, its billing and the notional cost"
"$AMC" export "$id" --json="$T_HOME/agent.json" >/dev/null 2>&1
like "$(cat "$T_HOME/agent.json")" '"cost_usd_notional": ?0.25' "the JSON export carries the CLI's report"

out=$(AMC_AGENT_CLAUDE_PATH="$T_HOME/fake-claude" ANTHROPIC_API_KEY=sk-test-key timeout 60 "$AMC" run --agent claude --billing api "open settings" 2>&1 </dev/null)
grep -q '^ANTHROPIC_API_KEY=sk-test-key$' "$FAKE_OUT.env"
ok_status $? "--billing api: the key is passed to the CLI"
grep -qx -- '--bare' "$FAKE_OUT.args"
ok_status $? "and --bare is used only then"
id=$(printf '%s\n' "$out" | sed -n 's/^amc: task \([0-9a-z]*\) running.*/\1/p')
like "$("$AMC" show "$id" 2>&1)" "usage +1234 tokens in +56 tokens out +[$]0.2500" "API billing: the cost is charged to the task"

mv "$HOME/.claude/.credentials.json" "$HOME/.claude/creds.off"
n0=$("$AMC" tasks 2>/dev/null | wc -l)
out=$(AMC_AGENT_CLAUDE_PATH="$T_HOME/fake-claude" ANTHROPIC_API_KEY=x "$AMC" run --agent claude --yes "open settings" 2>&1 </dev/null)
is "$?" "2" "only a key, no stated choice, --yes: refused (exit 2)"
like "$out" "no login here, only an API key .*pass --billing api" "saying what to pass"
out=$(AMC_AGENT_CLAUDE_PATH="$T_HOME/fake-claude" ANTHROPIC_API_KEY=x "$AMC" run --agent claude "open settings" 2>&1 </dev/null)
is "$?" "2" "only a key and no terminal to ask: refused too"
is "$("$AMC" tasks 2>/dev/null | wc -l)" "$n0" "no task was started on a billing nobody chose"
out=$(AMC_AGENT_CLAUDE_PATH="$T_HOME/fake-claude" "$AMC" run --agent claude "open settings" 2>&1 </dev/null)
is "$?" "1" "no login and no key: the task fails (exit 1), as for a missing CLI"
like "$out" "failed after 0 steps: Claude Code is not logged in here and no API key is set: run .claude. once and log in" "saying to log in"
nl=$(printf '%s\n' "$out" | sed -n 's/^amc: task \([0-9a-z]*\) running.*/\1/p')
like "$("$AMC" show "$nl" 2>&1 | head -n 3)" "failed" "and the task is recorded failed with that reason"
mv "$HOME/.claude/creds.off" "$HOME/.claude/.credentials.json"

# ---- faults: each ends the task failed, with a reason, nothing left running ----
fault() { # fault NAME PATTERN ENV... -- GOAL-ARGS...
	name=$1 pat=$2
	shift 2
	t0=$(date +%s)
	out=$(env "$@" 2>&1 </dev/null)
	st=$?
	is "$st" "1" "$name: the task fails (exit 1)"
	like "$out" "failed after [0-9]+ steps?: $pat" "$name: the reason says what to do"
	diag "$name: $(printf '%s\n' "$out" | grep 'failed after' | cut -c1-200) ($(($(date +%s) - t0)) s)"
	no_leftovers "$name"
}
fault "CLI missing" "Claude Code cannot run here: Claude Code not found .*npm install -g @anthropic-ai/claude-code" \
	AMC_AGENT_CLAUDE_PATH=/nonexistent/claude timeout 60 "$AMC" run --agent claude "open settings"
cat >"$T_HOME/new-claude" <<'EOF'
#!/bin/sh
# What a Claude Code built for a newer Node prints on this one.
echo "file:///usr/lib/node_modules/@anthropic-ai/claude-code/cli.js:1" >&2
echo "SyntaxError: Invalid regular expression flags (Node.js v$(node -p process.versions.node))" >&2
exit 1
EOF
chmod +x "$T_HOME/new-claude"
fault "CLI too new for this Node" "Claude Code cannot run here: .claude --version. exited 1: .*newer Node" \
	AMC_AGENT_CLAUDE_PATH="$T_HOME/new-claude" timeout 60 "$AMC" run --agent claude "open settings"
start_agent_mock 401
fault "401 from the model API" "Claude Code could not use its login \(the model API answered 401" \
	ANTHROPIC_API_KEY=x timeout 120 "$AMC" run --agent claude --billing api "Turn Wi-Fi on."
start_agent_mock ok
fault "too many turns" "Claude Code used all its turns \(agent.max_turns = 2\)" \
	ANTHROPIC_API_KEY=x AMC_AGENT_MAX_TURNS=2 timeout 120 "$AMC" run --agent claude --billing api "Turn Wi-Fi on."
fault "cost budget" "Claude Code reached the cost budget \(planner.max_cost_usd = 0.001 USD" \
	ANTHROPIC_API_KEY=x AMC_PLANNER_MAX_COST_USD=0.001 timeout 120 "$AMC" run --agent claude --billing api "Turn Wi-Fi on."
start_agent_mock wander
fault "wall-clock limit" "Claude Code did not finish within 5 s \(agent.timeout_s\)" \
	ANTHROPIC_API_KEY=x AMC_AGENT_TIMEOUT_S=5 timeout 120 "$AMC" run --agent claude --billing api "Turn Wi-Fi on."
# Codex never exits while its endpoint is unreachable: the limit ends it.
cat >"$T_HOME/codex-dead.toml" <<EOF
model = "gpt-5.2"
model_provider = "dead"

[model_providers.dead]
name = "unreachable"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"
request_max_retries = 100
stream_max_retries = 100
EOF
fault "Codex reconnecting" "Codex did not finish within 6 s \(agent.timeout_s\)" \
	AMC_AGENT_CODEX_CONFIG="$T_HOME/codex-dead.toml" AMC_AGENT_TIMEOUT_S=6 timeout 120 "$AMC" run --agent codex "Turn Wi-Fi on."
ok "$(($(date +%s) - t0 < 30))" "Codex reconnecting: ended within the wall-clock limit (and the kill)"

# The CLI dies in the middle of the task (killed while it waits for its model).
start_agent_mock slow
(ANTHROPIC_API_KEY=x timeout 120 "$AMC" run --agent claude --billing api "Turn Wi-Fi on." >"$T_HOME/die.out" 2>&1 </dev/null; echo $? >"$T_HOME/die.rc") &
wait_for 30 grep -q '"api":"anthropic"' "$T_HOME/amock.log"
sleep 1
pkill -9 -f "strict-mcp-config" 2>/dev/null
wait_for 60 test -s "$T_HOME/die.rc"
is "$(cat "$T_HOME/die.rc")" "1" "CLI killed mid-task: the task fails"
like "$(cat "$T_HOME/die.out")" "failed after [0-9]+ steps?: Claude Code died \(signal 9\)" "saying it died"
no_leftovers "CLI killed"

# Ctrl-C ends the agent's process group and cancels the task.
start_agent_mock slow
(ANTHROPIC_API_KEY=x exec timeout 120 "$AMC" run --agent claude --billing api "Turn Wi-Fi on." >"$T_HOME/int.out" 2>&1 </dev/null) &
wait_for 30 grep -q '"api":"anthropic"' "$T_HOME/amock.log"
pkill -INT -f "run --agent claude --billing api Turn" 2>/dev/null
wait_for 30 grep -q "cancelled" "$T_HOME/int.out"
like "$(cat "$T_HOME/int.out")" "task [0-9a-z]+ cancelled" "Ctrl-C: the task is cancelled"
no_leftovers "Ctrl-C"

# The TUI's c (and its yes) ends an agent run and the CLI's processes.
start_agent_mock slow
cat >"$T_HOME/cancel.keys" <<'KEYS'
n
j j j j j
Tab
:type Turn Wi-Fi off.
Enter
:drain
c
:dump agent-cancel-confirm
y
:wait
:dump agent-cancelled
KEYS
AMC_AGENT_BILLING=api ANTHROPIC_API_KEY=x TERM=xterm-256color LC_ALL=C.UTF-8 timeout 120 "$AMC" tui --script "$T_HOME/cancel.keys" --dump-dir "$T_HOME/tui" --size 100x30
ok_status $? "TUI: the cancel script runs"
like "$(cat "$T_HOME/tui/agent-cancel-confirm.txt")" "Cancel task [0-9a-z]{8}\\?" "TUI: c asks before cancelling the agent's task"
like "$(sed -n 2p "$T_HOME/tui/agent-cancelled.txt")" "cancelled" "TUI: the agent's task ends cancelled"
no_leftovers "the TUI's cancel of an agent run"

# An MCP client's cancel_task ends an agent run it started (run_task with a
# goal runs on planner.provider, here agent:claude) and the CLI's processes.
start_agent_mock slow
mkfifo "$T_HOME/mcp.in"
(AMC_PLANNER_PROVIDER=agent:claude AMC_AGENT_BILLING=api ANTHROPIC_API_KEY=x \
	exec timeout 120 "$AMC" mcp <"$T_HOME/mcp.in" >"$T_HOME/mcp.out" 2>"$T_HOME/mcp.err") &
mcp_pid=$!
exec 3>"$T_HOME/mcp.in"
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
	'{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_task","arguments":{"device":"sim:7","goal":"Turn Wi-Fi on.","wait":false}}}' >&3
wait_for 30 grep -q '"id":2' "$T_HOME/mcp.out"
mt=$(grep '"id":2' "$T_HOME/mcp.out" | grep -o 'task[^0-9a-z]*[0-9a-z]\{16\}' | grep -o '[0-9a-z]\{16\}$' | head -n 1)
like "$mt" "^[0-9a-z]{16}$" "MCP run_task started a goal on agent:claude (task $mt)"
wait_for 30 grep -q '"api":"anthropic"' "$T_HOME/amock.log"
ok_status $? "the agent's CLI is asking its model"
printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"cancel_task\",\"arguments\":{\"id\":\"$mt\"}}}" >&3
wait_for 30 sh -c "\"$AMC\" show $mt 2>/dev/null | grep -q cancelled"
like "$("$AMC" show "$mt" 2>&1 | head -n 3)" "cancelled" "cancel_task: the agent's task is cancelled"
like "$("$AMC" show "$mt" 2>&1)" "cancelled by the MCP client" "and says who cancelled it"
exec 3>&-
wait "$mcp_pid"
is "$?" "0" "amc mcp ends when its client goes"
no_leftovers "MCP cancel_task of an agent run"

[ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null
done_testing
