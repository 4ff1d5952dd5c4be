#!/bin/sh
# Issue 30: act's list_apps, stop_app, install_app and clear_app (a person's
# yes by elicitation; refused without one), the keys, and run_task's
# check_only, through the MCP TypeScript SDK (tests/mcp/sdk_apps.mjs): every
# result validated against its tool's output schema by the SDK's callTool.
# Uses the clients test_mcp_clients.sh installs (npm ci into the build folder).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"

command -v node >/dev/null 2>&1 || skip_all "node is not installed"
env_dir="$AMC_TEST_BUILDDIR/tests/mcp-env"
src="$AMC_TEST_SRCDIR/tests/mcp"
[ -f "$env_dir/node_modules/@modelcontextprotocol/sdk/package.json" ] || command -v npm >/dev/null 2>&1 ||
	skip_all "npm is not installed"
npm_env "$src" "$env_dir" node_modules/@modelcontextprotocol/sdk/package.json || {
	sed 's/^/# /' "$T_HOME/npm.log" | tail -n 20
	ok 0 "npm ci of the MCP clients"
	done_testing
	exit 1
}
cp "$src/sdk_apps.mjs" "$env_dir/" && chmod u+w "$env_dir/sdk_apps.mjs"
AMC_OCR_POLICY=off; export AMC_OCR_POLICY
AMC="$AMC" timeout 200 node "$env_dir/sdk_apps.mjs" >"$T_HOME/sdk.out" 2>"$T_HOME/sdk.err"
rc=$?
while IFS= read -r line; do
	case "$line" in
	"ok "*) ok 1 "${line#ok * - }" ;;
	"not ok "*) ok 0 "${line#not ok * - }" ;;
	"#"*) echo "$line" ;;
	esac
done <"$T_HOME/sdk.out"
ok_status $rc "the SDK apps script exited 0"
[ $rc -eq 0 ] || sed 's/^/# stderr: /' "$T_HOME/sdk.err" | tail -n 20
done_testing
