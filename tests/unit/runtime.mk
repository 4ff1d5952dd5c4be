RUNTIME_TESTS = tests/unit/test_events tests/unit/test_task tests/unit/test_planner \
	tests/unit/test_tools tests/unit/test_observe tests/unit/test_run \
	tests/unit/test_extplanner \
	tests/unit/test_secrets tests/unit/test_safety
check_PROGRAMS += $(RUNTIME_TESTS)
TESTS += $(RUNTIME_TESTS)
tests_unit_test_events_LDADD = $(TEST_LDADD)
tests_unit_test_task_LDADD = $(TEST_LDADD)
tests_unit_test_planner_LDADD = $(TEST_LDADD)
tests_unit_test_tools_LDADD = $(TEST_LDADD)
tests_unit_test_observe_LDADD = $(TEST_LDADD)
tests_unit_test_run_LDADD = $(TEST_LDADD)
tests_unit_test_extplanner_LDADD = $(TEST_LDADD)
tests_unit_test_secrets_LDADD = $(TEST_LDADD)
tests_unit_test_safety_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_stepdiff
TESTS += tests/unit/test_stepdiff
tests_unit_test_stepdiff_LDADD = $(TEST_LDADD)
