#!/bin/sh
# `amc mcp` driven by real MCP clients installed from npm: the TypeScript SDK
# client (tests/mcp/sdk_client.mjs) and the MCP Inspector CLI. They are
# installed from the committed lockfile (tests/mcp/package-lock.json) with
# `npm ci` into the BUILD directory (tests/mcp-env), reused while the lockfile
# is unchanged. Skips only when node or npm is missing.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"

command -v node >/dev/null 2>&1 || skip_all "node is not installed (the MCP clients need Node.js >= 20)"
command -v npm >/dev/null 2>&1 || skip_all "npm is not installed (needed to install the MCP clients)"

env_dir="$AMC_TEST_BUILDDIR/tests/mcp-env"
src="$AMC_TEST_SRCDIR/tests/mcp"
mkdir -p "$env_dir"
if ! cmp -s "$src/package-lock.json" "$env_dir/package-lock.json" ||
	[ ! -f "$env_dir/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
	cp "$src/package.json" "$src/package-lock.json" "$env_dir/" && chmod u+w "$env_dir/package.json" "$env_dir/package-lock.json"
	( cd "$env_dir" && npm ci --no-fund --no-audit --loglevel=error ) >"$T_HOME/npm.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		sed 's/^/# /' "$T_HOME/npm.log" | tail -n 20
		ok 0 "npm ci of the MCP clients (exit $rc)"
		done_testing
		exit 1
	fi
fi
ok 1 "the MCP SDK, the Inspector and Claude Code installed in the build directory"
cp "$src/sdk_client.mjs" "$env_dir/" && chmod u+w "$env_dir/sdk_client.mjs"

AMC_OCR_POLICY=off; export AMC_OCR_POLICY
# The SDK client's checks, renumbered into this test's plan.
AMC="$AMC" timeout 300 node "$env_dir/sdk_client.mjs" >"$T_HOME/sdk.out" 2>"$T_HOME/sdk.err"
rc=$?
while IFS= read -r line; do
	case "$line" in
	"ok "*) ok 1 "${line#ok * - }" ;;
	"not ok "*) ok 0 "${line#not ok * - }" ;;
	"#"*) echo "$line" ;;
	esac
done <"$T_HOME/sdk.out"
ok_status $rc "the SDK client script exited 0"
[ $rc -eq 0 ] && [ ! -s "$T_HOME/sdk.err" ] || sed 's/^/# stderr: /' "$T_HOME/sdk.err" | tail -n 20

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
done_testing
