libamc_a_SOURCES += \
	src/device/sim/sim_int.h \
	src/device/sim/sim.c \
	src/device/sim/state.c \
	src/device/sim/font.h \
	src/device/sim/font.c \
	src/device/sim/widgets.h \
	src/device/sim/widgets.c \
	src/device/sim/screens.h \
	src/device/sim/screens.c \
	src/device/sim/screens_settings.c \
	src/device/sim/screens_contacts.c \
	src/device/sim/screens_notes.c \
	src/device/sim/screens_clock.c \
	src/device/sim/screens_messages.c \
	src/device/sim/screens_files.c \
	src/device/sim/screens_common.c \
	src/device/sim/input.h \
	src/device/sim/input.c \
	src/device/sim/input_apps.h \
	src/device/sim/input_apps.c \
	src/device/sim/nav.h \
	src/device/sim/nav.c \
	src/device/sim/forms_apps.h \
	src/device/sim/forms_apps.c \
	src/device/sim/state_apps.c \
	src/device/sim/render.c \
	src/device/sim/dump.c
