libamc_a_SOURCES += \
	src/runtime/events.c src/runtime/events.h \
	src/runtime/task.c src/runtime/task.h \
	src/runtime/planner.c src/runtime/planner.h \
	src/runtime/tools.c src/runtime/tools.h \
	src/runtime/tools_media.c src/runtime/tools_media.h \
	src/runtime/observe.c src/runtime/observe.h \
	src/runtime/run.c src/runtime/run.h \
	src/runtime/operator.h src/runtime/safety.c src/runtime/safety.h \
	src/runtime/secrets.c src/runtime/secrets.h \
	src/runtime/stepdiff.c src/runtime/stepdiff.h \
	src/runtime/pending.c src/runtime/pending.h
