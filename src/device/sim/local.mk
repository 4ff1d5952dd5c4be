libamc_a_SOURCES += \
	src/device/sim/sim_int.h \
	src/device/sim/sim.c \
	src/device/sim/state.c \
	src/device/sim/ui.c \
	src/device/sim/render.c \
	src/device/sim/dump.c
