# the fleet host agent (src/host/): a device host claims assignments from the
# fleet database (src/fleet/), runs them with launch/ and keeps their leases
libamc_a_SOURCES += \
	src/host/lease.c src/host/lease.h \
	src/host/hostdb.c src/host/hostdb.h \
	src/host/devcaps.c src/host/devcaps.h \
	src/host/slot.c src/host/slot.h \
	src/host/host.c src/host/host.h
