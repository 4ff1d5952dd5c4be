# the task suite (src/suite/, src/storage/suite.c): templates, checks, runs
check_PROGRAMS += tests/unit/test_tasktpl tests/unit/test_suite
TESTS += tests/unit/test_tasktpl tests/unit/test_suite
tests_unit_test_tasktpl_SOURCES = tests/unit/test_tasktpl.c
tests_unit_test_tasktpl_LDADD = $(TEST_LDADD)
tests_unit_test_suite_SOURCES = tests/unit/test_suite.c
tests_unit_test_suite_LDADD = $(TEST_LDADD)
