# screens.sh - sourced by the golden-screen tests (test_screens.sh and
# test_view_*.sh): the TUI runs in script mode on a fixed database
# (tests/tui/mkfixture: fixed ids, times, images) with a fixed clock, TERM and
# size; every `:dump NAME` must equal golden/NAME.txt.
# AMC_TUI_UPDATE_GOLDEN=1 rewrites the goldens (by hand, never in `make check`).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
S=$AMC_TEST_SRCDIR/tests/tui/scripts
G=$AMC_TEST_SRCDIR/tests/tui/golden
export TZ=UTC AMC_TUI_NOW=1767229200000 TERM=xterm-256color LC_ALL=C.UTF-8
unset NO_COLOR
# No adb phones or Appium servers: the Devices view lists the sims only.
export AMC_ADB_PATH=/nonexistent/adb
"$AMC_TEST_BUILDDIR/tests/tui/mkfixture" "$AMC_HOME"
ok_status $? "fixture database"

# run_screens NAME...: run scripts/NAME.keys at 100x30 into $T_HOME/dump-NAME
# and compare each of its dumps with its golden.
run_screens() {
	for name in "$@"; do
		out=$T_HOME/dump-$name
		mkdir -p "$out"
		"$AMC" tui --script "$S/$name.keys" --dump-dir "$out" --size 100x30 2>"$T_HOME/err"
		ok_status $? "script $name runs"
		[ -s "$T_HOME/err" ] && sed 's/^/# stderr: /' "$T_HOME/err" | head -20
		for d in $(sed -n 's/^:dump //p' "$S/$name.keys"); do
			[ -n "${AMC_TUI_UPDATE_GOLDEN:-}" ] && cp "$out/$d.txt" "$G/$d.txt"
			diff -u "$G/$d.txt" "$out/$d.txt" >"$T_HOME/diff" 2>&1
			ok_status $? "screen $d matches golden/$d.txt"
			[ -s "$T_HOME/diff" ] && sed 's/^/# /' "$T_HOME/diff" | head -60
		done
	done
}
