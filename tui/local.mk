# The terminal interface: one file per view or dialog, the app's shared state,
# the session (runners, events), the screen (keys, drawing), the loop (tui.c),
# script mode, keymap, themes and images. Only src/cli/ includes tui/tui.h.
# AMC_TUI_SOURCES is also built into tests/tui/libtuitest.a for the unit tests.
AMC_TUI_SOURCES = \
	tui/tui.h tui/tui.c tui/app.h tui/app.c tui/session.h tui/session.c tui/screen.h tui/screen.c \
	tui/script.h tui/script.c tui/keymap.h tui/keymap.c tui/text.h tui/text.c \
	tui/theme.h tui/theme.c tui/step_text.h tui/step_text.c tui/image.h tui/image.c tui/pixels.h tui/pixels.c tui/tree.h tui/tree.c \
	tui/asker.h tui/asker.c tui/evidence.h tui/evidence.c \
	tui/view_tasks.c tui/view_task.c tui/view_help.c tui/view_devices.c tui/dialog.c \
	tui/dialog_pending.c tui/view_fleet.c tui/view_hits.c
amc_SOURCES += $(AMC_TUI_SOURCES) src/cli/cmd_tui.c
amc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)

themesdir = $(pkgdatadir)/themes
dist_themes_DATA = themes/default.theme themes/light.theme themes/high-contrast.theme themes/monochrome.theme

# amc(1) is generated from the keymap, command and settings tables by `amc tui --man`; the committed
# copy is checked against it by tests/tui/test_man.sh.
dist_man_MANS = doc/amc.1
