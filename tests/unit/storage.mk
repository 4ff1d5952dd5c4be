# tests for this area
check_PROGRAMS += tests/unit/test_store
TESTS += tests/unit/test_store
tests_unit_test_store_SOURCES = tests/unit/test_store.c
tests_unit_test_store_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_migrate
TESTS += tests/unit/test_migrate
tests_unit_test_migrate_SOURCES = tests/unit/test_migrate.c
tests_unit_test_migrate_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_tasks
TESTS += tests/unit/test_tasks
tests_unit_test_tasks_SOURCES = tests/unit/test_tasks.c
tests_unit_test_tasks_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_timeline
TESTS += tests/unit/test_timeline
tests_unit_test_timeline_SOURCES = tests/unit/test_timeline.c
tests_unit_test_timeline_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_artifacts
TESTS += tests/unit/test_artifacts
tests_unit_test_artifacts_SOURCES = tests/unit/test_artifacts.c
tests_unit_test_artifacts_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_retention
TESTS += tests/unit/test_retention
tests_unit_test_retention_SOURCES = tests/unit/test_retention.c
tests_unit_test_retention_LDADD = $(TEST_LDADD)
# storage/sources.c: a flow's text kept with its task (through amc_launch_run)
check_PROGRAMS += tests/unit/test_sources
TESTS += tests/unit/test_sources
tests_unit_test_sources_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_decisions
TESTS += tests/unit/test_decisions
tests_unit_test_decisions_SOURCES = tests/unit/test_decisions.c
tests_unit_test_decisions_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_sql
TESTS += tests/unit/test_sql
tests_unit_test_sql_SOURCES = tests/unit/test_sql.c
tests_unit_test_sql_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_search
TESTS += tests/unit/test_search
tests_unit_test_search_SOURCES = tests/unit/test_search.c
tests_unit_test_search_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_checkpoint
TESTS += tests/unit/test_checkpoint
tests_unit_test_checkpoint_SOURCES = tests/unit/test_checkpoint.c
tests_unit_test_checkpoint_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_stored_tree
TESTS += tests/unit/test_stored_tree
tests_unit_test_stored_tree_SOURCES = tests/unit/test_stored_tree.c
tests_unit_test_stored_tree_LDADD = $(TEST_LDADD)
