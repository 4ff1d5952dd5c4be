# the MCP server over stdio (`amc mcp`): beside tui/ on top of runtime, launch
libamc_a_SOURCES += \
	src/mcp/jsonrpc.c src/mcp/jsonrpc.h \
	src/mcp/server.c src/mcp/server.h src/mcp/mcp_call.h src/mcp/registry.c src/mcp/registry.h \
	src/mcp/mcp_resources.c src/mcp/mcp_resources.h \
	src/mcp/mcp_tools.c src/mcp/mcp_tools.h src/mcp/mcp_tools_list.h \
	src/mcp/mcp_act.c src/mcp/mcp_act.h src/mcp/mcp_check.c src/mcp/mcp_check.h \
	src/mcp/mcp_result.c src/mcp/mcp_result.h \
	src/mcp/mcp_session.c src/mcp/mcp_session.h \
	src/mcp/agentcli_attach.c src/mcp/agentcli_attach.h
