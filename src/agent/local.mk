# the LLM planner (agent/) and its front-end helpers
libamc_a_SOURCES += \
	src/agent/ai_judge.c src/agent/ai_judge.h \
	src/agent/goal.c src/agent/goal.h \
	src/agent/llm_planner.c src/agent/llm_planner.h \
	src/agent/screen.c src/agent/screen.h \
	src/agent/tty_operator.c src/agent/tty_operator.h
