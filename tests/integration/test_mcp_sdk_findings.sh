#!/bin/sh
# Issue 30's findings through the MCP TypeScript SDK (tests/mcp/sdk_findings.mjs):
# every tool's and every act action's result validated against its schema by
# the SDK's callTool, and JSON-RPC errors that keep the request's id. Uses
# the clients test_mcp_clients.sh installs (npm ci into the build folder).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"

mcp_clients
AMC_OCR_POLICY=off; export AMC_OCR_POLICY
node_tap sdk_findings.mjs 200 "the SDK findings script exited 0"
done_testing
