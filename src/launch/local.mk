# the launch module: one launch path for every front end (above planner/ and flow/),
# and the per-device runner thread of front ends that keep going (the TUI)
libamc_a_SOURCES += \
	src/launch/launch.c src/launch/launch.h \
	src/launch/runner.c src/launch/runner.h
