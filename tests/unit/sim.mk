# tests for this area
check_PROGRAMS += tests/unit/test_sim
TESTS += tests/unit/test_sim
tests_unit_test_sim_SOURCES = tests/unit/test_sim.c
tests_unit_test_sim_LDADD = $(TEST_LDADD)
# one test per sim module (dump.c, render.c, state.c, ui.c); they reach the
# internals through src/device/sim/sim_int.h
check_PROGRAMS += tests/unit/test_dump tests/unit/test_render tests/unit/test_state tests/unit/test_ui
TESTS += tests/unit/test_dump tests/unit/test_render tests/unit/test_state tests/unit/test_ui
tests_unit_test_dump_SOURCES = tests/unit/test_dump.c
tests_unit_test_dump_LDADD = $(TEST_LDADD)
tests_unit_test_render_SOURCES = tests/unit/test_render.c
tests_unit_test_render_LDADD = $(TEST_LDADD)
tests_unit_test_state_SOURCES = tests/unit/test_state.c
tests_unit_test_state_LDADD = $(TEST_LDADD)
tests_unit_test_ui_SOURCES = tests/unit/test_ui.c
tests_unit_test_ui_LDADD = $(TEST_LDADD)
