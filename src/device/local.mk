libamc_a_SOURCES += \
	src/device/device.c src/device/device.h \
	src/device/adb.c src/device/adb.h \
	src/device/sim/sim.h
include src/device/sim/local.mk
