# the launch module (src/launch/): one launch path for every front end
check_PROGRAMS += tests/unit/test_launch
TESTS += tests/unit/test_launch
tests_unit_test_launch_SOURCES = tests/unit/test_launch.c $(MOCK_SRC)
tests_unit_test_launch_LDADD = $(TEST_LDADD)
