# tests for src/report/
check_PROGRAMS += tests/unit/test_report
TESTS += tests/unit/test_report
tests_unit_test_report_SOURCES = tests/unit/test_report.c
tests_unit_test_report_LDADD = $(TEST_LDADD)
