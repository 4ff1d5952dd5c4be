# tests for src/report/
check_PROGRAMS += tests/unit/test_report
TESTS += tests/unit/test_report
tests_unit_test_report_SOURCES = tests/unit/test_report.c
tests_unit_test_report_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_action
TESTS += tests/unit/test_action
tests_unit_test_action_SOURCES = tests/unit/test_action.c
tests_unit_test_action_LDADD = $(TEST_LDADD)
