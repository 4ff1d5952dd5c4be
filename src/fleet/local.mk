# the fleet (src/fleet/): the operator's PostgreSQL client (schema, payloads, queries; libpq);
# the host agent that executes assignments is src/host/
libamc_a_SOURCES += \
	src/fleet/pq.c src/fleet/pq.h \
	src/fleet/schema.c src/fleet/schema.h \
	src/fleet/roles.c src/fleet/roles.h \
	src/fleet/payload.c src/fleet/payload.h \
	src/fleet/fleet.c src/fleet/fleet.h \
	src/fleet/batch.c src/fleet/batch.h \
	src/fleet/latency.c src/fleet/latency.h \
	src/fleet/watch.c src/fleet/watch.h
