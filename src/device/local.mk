libamc_a_SOURCES += \
	src/device/device.c src/device/device.h src/device/device_open.c \
	src/device/calls.c \
	src/device/adb.c src/device/adb.h src/device/adb_int.h \
	src/device/adb_list.c src/device/adb_list.h src/device/adb_link.c src/device/adb_set.c src/device/adb_rec.c \
	src/device/adb_caps.c \
	src/device/appium.c src/device/appium.h src/device/appium_int.h src/device/appium_set.c \
	src/device/manager.c src/device/manager.h \
	src/device/sim/sim.h
include src/device/sim/local.mk
