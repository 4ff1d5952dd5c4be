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

TUI_TESTS = tests/tui/test_man.sh tests/tui/test_screens.sh tests/tui/test_hostile.sh \
	tests/tui/test_live.sh tests/tui/test_theme.sh tests/tui/test_agent.sh
TESTS += $(TUI_TESTS)
EXTRA_DIST += $(TUI_TESTS) tests/tui/scripts tests/tui/golden

# The pty test: the real binary on a pty, its screen read with libvterm.
check_PROGRAMS += tests/tui/test_pty
tests_tui_test_pty_SOURCES = tests/tui/test_pty.c
tests_tui_test_pty_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) $(VTERM_CFLAGS)
tests_tui_test_pty_LDADD = $(TEST_LDADD) $(VTERM_LIBS)
TESTS += tests/tui/test_pty
