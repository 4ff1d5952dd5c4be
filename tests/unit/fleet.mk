# the fleet (src/fleet/): the parts that need no server; the rest runs
# against a real PostgreSQL in tests/integration/test_fleet*.sh
FLEET_UNIT = tests/unit/test_pq tests/unit/test_payload tests/unit/test_fleet tests/unit/test_slot tests/unit/test_host \
	tests/unit/test_lease tests/unit/test_batch tests/unit/test_latency \
	tests/unit/test_watch tests/unit/test_devcaps tests/unit/test_hostdb
check_PROGRAMS += $(FLEET_UNIT)
TESTS += $(FLEET_UNIT)
tests_unit_test_pq_LDADD = $(TEST_LDADD)
tests_unit_test_payload_LDADD = $(TEST_LDADD)
tests_unit_test_fleet_LDADD = $(TEST_LDADD)
tests_unit_test_slot_LDADD = $(TEST_LDADD)
tests_unit_test_host_LDADD = $(TEST_LDADD)
tests_unit_test_lease_LDADD = $(TEST_LDADD)
tests_unit_test_batch_LDADD = $(TEST_LDADD)
tests_unit_test_latency_LDADD = $(TEST_LDADD)
tests_unit_test_watch_LDADD = $(TEST_LDADD)
tests_unit_test_devcaps_SOURCES = tests/unit/test_devcaps.c tests/unit/adbtest.h
tests_unit_test_devcaps_LDADD = $(TEST_LDADD)
tests_unit_test_hostdb_LDADD = $(TEST_LDADD)
