#!/bin/sh
# Golden-screen tests: each script in tests/tui/scripts runs the TUI in script
# mode on a fixed database (tests/tui/mkfixture: fixed ids, times, images) with
# a fixed clock, TERM and size; every `:dump NAME` must equal golden/NAME.txt.
# AMC_TUI_UPDATE_GOLDEN=1 rewrites the goldens (by hand, never in `make check`).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
S=$AMC_TEST_SRCDIR/tests/tui/scripts
G=$AMC_TEST_SRCDIR/tests/tui/golden
export TZ=UTC AMC_TUI_NOW=1767229200000 TERM=xterm-256color LC_ALL=C.UTF-8
unset NO_COLOR
# No adb phones or Appium servers: the Devices view lists the sims only.
export AMC_ADB_PATH=/nonexistent/adb
"$AMC_TEST_BUILDDIR/tests/tui/mkfixture" "$AMC_HOME"
ok $? "fixture database"

for name in tasks task resize dialogs tree devices mouse clicks; do
	out=$T_HOME/dump-$name
	mkdir -p "$out"
	"$AMC" tui --script "$S/$name.keys" --dump-dir "$out" --size 100x30 2>"$T_HOME/err"
	ok $? "script $name runs"
	for d in $(sed -n 's/^:dump //p' "$S/$name.keys"); do
		[ -n "${AMC_TUI_UPDATE_GOLDEN:-}" ] && cp "$out/$d.txt" "$G/$d.txt"
		diff -u "$G/$d.txt" "$out/$d.txt" >"$T_HOME/diff" 2>&1
		ok $? "screen $d matches golden/$d.txt"
		[ -s "$T_HOME/diff" ] && sed 's/^/# /' "$T_HOME/diff" | head -60
	done
done

# With thumbnails beside the screenshots (as the runner writes them), the
# panes read them and the zoomed pane the full capture; the fixture's images
# are under the thumbnail size, so the screens are the same.
th=$T_HOME/thumbs
"$AMC_TEST_BUILDDIR/tests/tui/mkfixture" "$th" --thumbs
ok $? "fixture database with thumbnails"
mkdir -p "$T_HOME/dump-thumbs"
AMC_HOME=$th AMC_TUI_TIMING=$T_HOME/timing "$AMC" tui --script "$S/task.keys" --dump-dir "$T_HOME/dump-thumbs" \
	--size 100x30 2>"$T_HOME/err"
ok $? "script task runs on it"
for d in task task-zoom-before; do
	diff -u "$G/$d.txt" "$T_HOME/dump-thumbs/$d.txt" >"$T_HOME/diff" 2>&1
	ok $? "screen $d drawn from the thumbnails matches golden/$d.txt"
done
grep -q '^render_cold_us [0-9]* [0-9]*x[0-9]* thumbnail$' "$T_HOME/timing"
ok $? "the panes read the thumbnails"
grep -q '^render_cold_us [0-9]* [0-9]*x[0-9]* full$' "$T_HOME/timing"
ok $? "the zoomed pane reads the full capture"
done_testing
