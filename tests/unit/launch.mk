# the launch module (src/launch/): one launch path for every front end, and
# the per-device runner thread that runs its tasks for the TUI
check_PROGRAMS += tests/unit/test_launch tests/unit/test_runner
TESTS += tests/unit/test_launch tests/unit/test_runner
tests_unit_test_launch_SOURCES = tests/unit/test_launch.c $(MOCK_SRC)
tests_unit_test_launch_LDADD = $(TEST_LDADD)
tests_unit_test_runner_LDADD = $(TEST_LDADD)
