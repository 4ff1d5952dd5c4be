# Shell tests that drive the real amc binary (TAP). tap.sh gives each its own AMC_HOME.
check_PROGRAMS += tests/tools/pngcheck
tests_tools_pngcheck_SOURCES = tests/tools/pngcheck.c
tests_tools_pngcheck_LDADD = $(TEST_LDADD)
TESTS += tests/integration/test_cli.sh tests/integration/test_run.sh tests/integration/test_ownership.sh
TESTS += tests/integration/test_scene.sh
EXTRA_DIST += tests/integration/test_scene.sh
EXTRA_DIST += tests/integration/tap.sh tests/integration/test_cli.sh tests/integration/test_run.sh \
	tests/integration/test_ownership.sh
