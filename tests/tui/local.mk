# TUI tests: script mode (keys from a file, the screen dumped as UTF-8 and
# compared with golden text), the man page check, themes and hostile text.
check_PROGRAMS += tests/tui/mkfixture
tests_tui_mkfixture_SOURCES = tests/tui/mkfixture.c
tests_tui_mkfixture_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/tui/committer
tests_tui_committer_SOURCES = tests/tui/committer.c
tests_tui_committer_LDADD = $(TEST_LDADD)
TESTS += tests/tui/test_xproc.sh
EXTRA_DIST += tests/tui/test_xproc.sh
# An MCP client's act confirmed or refused in the TUI (tmux), end to end.
TESTS += tests/tui/test_mcp_confirm.sh
EXTRA_DIST += tests/tui/test_mcp_confirm.sh

TUI_TESTS = tests/tui/test_man.sh tests/tui/test_screens.sh tests/tui/test_hostile.sh \
	tests/tui/test_live.sh tests/tui/test_theme.sh tests/tui/test_agent.sh
# Each view's golden screens (tests/tui/screens.sh runs a script, compares dumps).
TUI_TESTS += tests/tui/test_view_tasks.sh tests/tui/test_view_task.sh \
	tests/tui/test_view_devices.sh tests/tui/test_view_help.sh tests/tui/test_pending_screens.sh \
	tests/tui/test_view_hits.sh tests/tui/test_failure.sh tests/tui/test_resize_tmux.sh tests/tui/test_launch_folder.sh \
	tests/tui/test_selector_pick.sh tests/tui/test_newcomer.sh
TESTS += $(TUI_TESTS)
EXTRA_DIST += $(TUI_TESTS) tests/tui/screens.sh tests/tui/scripts tests/tui/golden

# The pty test: the real binary on a pty, its screen read with libvterm.
check_PROGRAMS += tests/tui/test_pty
tests_tui_test_pty_SOURCES = tests/tui/test_pty.c
tests_tui_test_pty_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) $(VTERM_CFLAGS)
tests_tui_test_pty_LDADD = $(TEST_LDADD) $(VTERM_LIBS)
TESTS += tests/tui/test_pty

# Unit tests, one per TUI module (tests/tui/test_MODULE.c; tui/image.c's is
# test_tui_image.c, as tests/unit/test_image.c is src/image's). The TUI is not
# in libamc.a, so its sources are built once more into a check-only library.
check_LIBRARIES = tests/tui/libtuitest.a
tests_tui_libtuitest_a_SOURCES = $(AMC_TUI_SOURCES)
tests_tui_libtuitest_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
TUI_UNIT_TESTS = tests/tui/test_keymap tests/tui/test_text tests/tui/test_tree tests/tui/test_asker \
	tests/tui/test_pixels tests/tui/test_tui_image tests/tui/test_dialog \
	tests/tui/test_app tests/tui/test_session tests/tui/test_screen tests/tui/test_script tests/tui/test_tui \
	tests/tui/test_evidence tests/tui/test_dialog_pending tests/tui/test_step_text
check_PROGRAMS += $(TUI_UNIT_TESTS)
TESTS += $(TUI_UNIT_TESTS)
EXTRA_DIST += tests/tui/tuitest.h
TUI_UNIT_LDADD = tests/tui/libtuitest.a $(TEST_LDADD)
tests_tui_test_keymap_SOURCES = tests/tui/test_keymap.c
tests_tui_test_keymap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) -I$(top_srcdir)/tests/unit
tests_tui_test_keymap_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_text_SOURCES = tests/tui/test_text.c
tests_tui_test_text_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_text_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_tree_SOURCES = tests/tui/test_tree.c
tests_tui_test_tree_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_tree_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_asker_SOURCES = tests/tui/test_asker.c
tests_tui_test_asker_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_asker_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_pixels_SOURCES = tests/tui/test_pixels.c
tests_tui_test_pixels_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_pixels_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_tui_image_SOURCES = tests/tui/test_tui_image.c
tests_tui_test_tui_image_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_tui_image_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_dialog_SOURCES = tests/tui/test_dialog.c
tests_tui_test_dialog_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_dialog_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_app_SOURCES = tests/tui/test_app.c
tests_tui_test_app_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_app_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_session_SOURCES = tests/tui/test_session.c
tests_tui_test_session_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_session_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_screen_SOURCES = tests/tui/test_screen.c
tests_tui_test_screen_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_screen_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_script_SOURCES = tests/tui/test_script.c
tests_tui_test_script_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_script_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_tui_SOURCES = tests/tui/test_tui.c
tests_tui_test_tui_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_tui_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_evidence_SOURCES = tests/tui/test_evidence.c
tests_tui_test_evidence_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_evidence_LDADD = $(TUI_UNIT_LDADD)
tests_tui_test_dialog_pending_SOURCES = tests/tui/test_dialog_pending.c
tests_tui_test_dialog_pending_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_dialog_pending_LDADD = $(TUI_UNIT_LDADD)
# Every view under a white and a black default background (libvterm): no
# text drawn in its own background colour (the default theme on light terminals).
check_PROGRAMS += tests/tui/test_contrast
tests_tui_test_contrast_SOURCES = tests/tui/test_contrast.c
tests_tui_test_contrast_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) $(VTERM_CFLAGS)
tests_tui_test_contrast_LDADD = $(TEST_LDADD) $(VTERM_LIBS)
TESTS += tests/tui/test_contrast
tests_tui_test_step_text_SOURCES = tests/tui/test_step_text.c
tests_tui_test_step_text_CPPFLAGS = $(tests_tui_test_keymap_CPPFLAGS)
tests_tui_test_step_text_LDADD = $(TUI_UNIT_LDADD)
