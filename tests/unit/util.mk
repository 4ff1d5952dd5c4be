# tests for this area
check_PROGRAMS += tests/unit/test_err
TESTS += tests/unit/test_err
tests_unit_test_err_SOURCES = tests/unit/test_err.c
tests_unit_test_err_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_strbuf
TESTS += tests/unit/test_strbuf
tests_unit_test_strbuf_SOURCES = tests/unit/test_strbuf.c
tests_unit_test_strbuf_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_fsutil
TESTS += tests/unit/test_fsutil
tests_unit_test_fsutil_SOURCES = tests/unit/test_fsutil.c
tests_unit_test_fsutil_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_paths
TESTS += tests/unit/test_paths
tests_unit_test_paths_SOURCES = tests/unit/test_paths.c
tests_unit_test_paths_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_ids
TESTS += tests/unit/test_ids
tests_unit_test_ids_SOURCES = tests/unit/test_ids.c
tests_unit_test_ids_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_status
TESTS += tests/unit/test_status
tests_unit_test_status_SOURCES = tests/unit/test_status.c
tests_unit_test_status_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_clock
TESTS += tests/unit/test_clock
tests_unit_test_clock_SOURCES = tests/unit/test_clock.c
tests_unit_test_clock_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_log
TESTS += tests/unit/test_log
tests_unit_test_log_SOURCES = tests/unit/test_log.c
tests_unit_test_log_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_sanitize
TESTS += tests/unit/test_sanitize
tests_unit_test_sanitize_SOURCES = tests/unit/test_sanitize.c
tests_unit_test_sanitize_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_lockfile
TESTS += tests/unit/test_lockfile
tests_unit_test_lockfile_SOURCES = tests/unit/test_lockfile.c
tests_unit_test_lockfile_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_config
TESTS += tests/unit/test_config
tests_unit_test_config_SOURCES = tests/unit/test_config.c
tests_unit_test_config_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_jsonutil
TESTS += tests/unit/test_jsonutil
tests_unit_test_jsonutil_SOURCES = tests/unit/test_jsonutil.c
tests_unit_test_jsonutil_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_base64
TESTS += tests/unit/test_base64
tests_unit_test_base64_SOURCES = tests/unit/test_base64.c
tests_unit_test_base64_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_roff
TESTS += tests/unit/test_roff
tests_unit_test_roff_SOURCES = tests/unit/test_roff.c
tests_unit_test_roff_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_hyperlink
TESTS += tests/unit/test_hyperlink
tests_unit_test_hyperlink_SOURCES = tests/unit/test_hyperlink.c
tests_unit_test_hyperlink_LDADD = $(TEST_LDADD)
