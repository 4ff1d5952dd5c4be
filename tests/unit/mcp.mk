# The MCP server's modules (src/mcp) and the cross-process confirmations it
# asks through (src/runtime/pending).
MCP_TESTS = tests/unit/test_jsonrpc tests/unit/test_pending tests/unit/test_mcp_server \
	tests/unit/test_mcp_tools tests/unit/test_mcp_session \
	tests/unit/test_mcp_act tests/unit/test_registry tests/unit/test_mcp_resources tests/unit/test_mcp_check \
	tests/unit/test_mcp_result
check_PROGRAMS += $(MCP_TESTS)
TESTS += $(MCP_TESTS)
tests_unit_test_jsonrpc_LDADD = $(TEST_LDADD)
tests_unit_test_pending_LDADD = $(TEST_LDADD)
tests_unit_test_mcp_server_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/unit/mcptest.h
tests_unit_test_mcp_tools_LDADD = $(TEST_LDADD)
tests_unit_test_mcp_session_LDADD = $(TEST_LDADD)
tests_unit_test_mcp_act_LDADD = $(TEST_LDADD)
tests_unit_test_registry_LDADD = $(TEST_LDADD)
tests_unit_test_mcp_resources_LDADD = $(TEST_LDADD)
tests_unit_test_mcp_check_LDADD = $(TEST_LDADD)
tests_unit_test_mcp_result_LDADD = $(TEST_LDADD)
# coding agents' CLIs as planners (src/planner/agentcli*.c) and their MCP
# endpoint (src/mcp/agentcli_attach.c); the planner itself is
# tested with the real CLIs in tests/integration/test_agentcli.sh
AGENTCLI_TESTS = tests/unit/test_agentcli_result tests/unit/test_agentcli_probe tests/unit/test_agentcli_attach
check_PROGRAMS += $(AGENTCLI_TESTS)
TESTS += $(AGENTCLI_TESTS)
tests_unit_test_agentcli_result_LDADD = $(TEST_LDADD)
tests_unit_test_agentcli_probe_LDADD = $(TEST_LDADD)
tests_unit_test_agentcli_attach_LDADD = $(TEST_LDADD)
