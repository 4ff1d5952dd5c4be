#!/bin/sh
# Issue 30: act's list_apps, stop_app, install_app and clear_app (a person's
# yes by elicitation; refused without one), the keys, and run_task's
# check_only, through the MCP TypeScript SDK (tests/mcp/sdk_apps.mjs): every
# result validated against its tool's output schema by the SDK's callTool.
# Uses the clients test_mcp_clients.sh installs (npm ci into the build folder).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"

mcp_clients
AMC_OCR_POLICY=off; export AMC_OCR_POLICY
node_tap sdk_apps.mjs 200 "the SDK apps script exited 0"
done_testing
