# tests for this area
check_PROGRAMS += tests/unit/test_sim
TESTS += tests/unit/test_sim
tests_unit_test_sim_SOURCES = tests/unit/test_sim.c
tests_unit_test_sim_LDADD = $(TEST_LDADD)
# one test per sim module (dump, font, input, render, screens, state, widgets);
# they reach the internals through the sim's private headers
check_PROGRAMS += tests/unit/test_dump tests/unit/test_font tests/unit/test_input tests/unit/test_render \
	tests/unit/test_screens tests/unit/test_state tests/unit/test_widgets
TESTS += tests/unit/test_dump tests/unit/test_font tests/unit/test_input tests/unit/test_render \
	tests/unit/test_screens tests/unit/test_state tests/unit/test_widgets
tests_unit_test_dump_SOURCES = tests/unit/test_dump.c
tests_unit_test_dump_LDADD = $(TEST_LDADD)
tests_unit_test_render_SOURCES = tests/unit/test_render.c
tests_unit_test_render_LDADD = $(TEST_LDADD)
tests_unit_test_state_SOURCES = tests/unit/test_state.c
tests_unit_test_state_LDADD = $(TEST_LDADD)
tests_unit_test_font_SOURCES = tests/unit/test_font.c
tests_unit_test_font_LDADD = $(TEST_LDADD)
tests_unit_test_input_SOURCES = tests/unit/test_input.c tests/unit/simtest.h
tests_unit_test_input_LDADD = $(TEST_LDADD)
tests_unit_test_screens_SOURCES = tests/unit/test_screens.c tests/unit/simtest.h
tests_unit_test_screens_LDADD = $(TEST_LDADD)
tests_unit_test_widgets_SOURCES = tests/unit/test_widgets.c tests/unit/simtest.h
tests_unit_test_widgets_LDADD = $(TEST_LDADD)
# the screen changing by itself (ambient.c): the notification, the live clock
check_PROGRAMS += tests/unit/test_ambient
TESTS += tests/unit/test_ambient
tests_unit_test_ambient_SOURCES = tests/unit/test_ambient.c tests/unit/simtest.h
tests_unit_test_ambient_LDADD = $(TEST_LDADD)
