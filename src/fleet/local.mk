# the fleet (src/fleet/): device hosts execute assignments from PostgreSQL (libpq)
libamc_a_SOURCES += \
	src/fleet/pq.c src/fleet/pq.h \
	src/fleet/schema.c src/fleet/schema.h \
	src/fleet/payload.c src/fleet/payload.h \
	src/fleet/fleet.c src/fleet/fleet.h \
	src/fleet/batch.c src/fleet/batch.h \
	src/fleet/latency.c src/fleet/latency.h \
	src/fleet/lease.c src/fleet/lease.h \
	src/fleet/slot.c src/fleet/slot.h \
	src/fleet/host.c src/fleet/host.h
