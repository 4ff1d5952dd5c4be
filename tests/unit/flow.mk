# tests for this area
check_PROGRAMS += tests/unit/test_flow tests/unit/test_selector tests/unit/test_flow_planner
TESTS += tests/unit/test_flow tests/unit/test_selector tests/unit/test_flow_planner
tests_unit_test_flow_SOURCES = tests/unit/test_flow.c
tests_unit_test_flow_LDADD = $(TEST_LDADD)
tests_unit_test_selector_SOURCES = tests/unit/test_selector.c
tests_unit_test_selector_LDADD = $(TEST_LDADD)
tests_unit_test_flow_planner_SOURCES = tests/unit/test_flow_planner.c
tests_unit_test_flow_planner_LDADD = $(TEST_LDADD)
EXTRA_DIST += tests/data/flows
check_PROGRAMS += tests/unit/test_flow_yaml tests/unit/test_flow_cmds
TESTS += tests/unit/test_flow_yaml tests/unit/test_flow_cmds
tests_unit_test_flow_yaml_SOURCES = tests/unit/test_flow_yaml.c
tests_unit_test_flow_yaml_LDADD = $(TEST_LDADD)
tests_unit_test_flow_cmds_SOURCES = tests/unit/test_flow_cmds.c
tests_unit_test_flow_cmds_LDADD = $(TEST_LDADD)
# The Maestro language (issue 14): interpolation, resolving, the corpus figures.
check_PROGRAMS += tests/unit/test_flow_interp tests/unit/test_flow_resolve tests/unit/test_flow_corpus
TESTS += tests/unit/test_flow_interp tests/unit/test_flow_resolve tests/unit/test_flow_corpus
tests_unit_test_flow_interp_SOURCES = tests/unit/test_flow_interp.c
tests_unit_test_flow_interp_LDADD = $(TEST_LDADD)
tests_unit_test_flow_resolve_SOURCES = tests/unit/test_flow_resolve.c
tests_unit_test_flow_resolve_LDADD = $(TEST_LDADD)
tests_unit_test_flow_corpus_SOURCES = tests/unit/test_flow_corpus.c
tests_unit_test_flow_corpus_LDADD = $(TEST_LDADD)
