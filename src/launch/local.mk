# the launch module: one launch path for every front end (above agent/ and flow/)
libamc_a_SOURCES += \
	src/launch/launch.c src/launch/launch.h
