# the planners (runtime/planner.h is their interface, one floor below): the
# LLM planner with the screen it shows a model and the goal's planner made
# from the configuration, the external planner (actions handed in: MCP), the
# AI commands of flows (ai_judge.c) and the bench's answer planner (the answer
# read off the last screen); the coding agents' CLIs as planners (agentcli*.c:
# the run's MCP endpoint is handed in, mcp/agentcli_attach.c)
libamc_a_SOURCES += \
	src/planner/agentcli.c src/planner/agentcli.h \
	src/planner/agentcli_probe.c src/planner/agentcli_probe.h \
	src/planner/agentcli_result.c src/planner/agentcli_result.h \
	src/planner/ai_judge.c src/planner/ai_judge.h \
	src/planner/answer_planner.c src/planner/answer_planner.h \
	src/planner/extplanner.c src/planner/extplanner.h \
	src/planner/goal.c src/planner/goal.h \
	src/planner/llm_planner.c src/planner/llm_planner.h \
	src/planner/screen.c src/planner/screen.h
# the flow planner (a flow played command by command, from flow/) and its
# bridge to the JavaScript engine
libamc_a_SOURCES += \
	src/planner/flow_js.c \
	src/planner/flow_js.h \
	src/planner/flow_planner.c \
	src/planner/flow_planner.h \
	src/planner/flow_planner_cmds.c \
	src/planner/flow_planner_frames.c \
	src/planner/flow_planner_int.h \
	src/planner/flow_planner_media.c \
	src/planner/flow_planner_ops.c \
	src/planner/flow_commands.c src/planner/flow_commands.h \
	src/planner/flow_check.c src/planner/flow_check.h \
	src/planner/flow_resolve.c
