# coding agents' CLIs (Claude Code, Codex) as planners: above launch/ and mcp/
libamc_a_SOURCES += \
	src/agentcli/agentcli.c src/agentcli/agentcli.h \
	src/agentcli/agentcli_attach.c src/agentcli/agentcli_attach.h \
	src/agentcli/agentcli_probe.c src/agentcli/agentcli_probe.h \
	src/agentcli/agentcli_result.c src/agentcli/agentcli_result.h
