#!/bin/sh
# Hostile text: raw ESC/CSI, OSC 52, BEL, C1 (U+009B), bidi controls and wide
# characters in goals, task errors, step descriptions, arguments and OCR text.
# The bytes the TUI writes to the terminal must contain none of them.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
S=$AMC_TEST_SRCDIR/tests/tui/scripts
G=$AMC_TEST_SRCDIR/tests/tui/golden
export TZ=UTC AMC_TUI_NOW=1767229200000 TERM=xterm-256color LC_ALL=C.UTF-8
"$AMC_TEST_BUILDDIR/tests/tui/mkfixture" "$AMC_HOME" --hostile
ok_status $? "hostile fixture database"
out=$T_HOME/dump
mkdir -p "$out"
"$AMC" tui --script "$S/hostile.keys" --dump-dir "$out" --size 100x30 --tty-output "$T_HOME/tty"
ok_status $? "script runs"
tty=$T_HOME/tty
test -s "$tty"
ok_status $? "terminal bytes were captured"
absent() { # absent PRINTF-PATTERN NAME
	if LC_ALL=C grep -q "$(printf "$1")" "$tty"; then ok 0 "no $2 reaches the terminal"; else ok 1 "no $2 reaches the terminal"; fi
}
absent '\033]52' "OSC 52"
absent '\033]' "OSC of any kind"
absent '\033\[31mRED' "CSI from the data"
absent '\033\[2Jx' "screen-clearing CSI from OCR text"
absent '\302\233' "C1 CSI (U+009B)"
absent '\342\200\256' "bidi override U+202E"
absent '\342\201\246' "bidi isolate U+2066"
absent '\342\201\247' "bidi isolate U+2067"
absent '\007' "BEL"
grep -q 'wide:漢字' "$out/hostile-task.txt"
ok_status $? "wide characters are drawn"
for d in $(sed -n 's/^:dump //p' "$S/hostile.keys"); do
	[ -n "${AMC_TUI_UPDATE_GOLDEN:-}" ] && cp "$out/$d.txt" "$G/$d.txt"
	diff -u "$G/$d.txt" "$out/$d.txt" >"$T_HOME/diff" 2>&1
	ok_status $? "screen $d matches golden/$d.txt"
	[ -s "$T_HOME/diff" ] && sed 's/^/# /' "$T_HOME/diff" | head -60
done
# Every dumped line fits the 100-column screen (width-correct cutting).
widest=$(cat "$out"/*.txt | wc -L)
[ "$widest" -le 100 ]
ok_status $? "no dumped line is wider than the screen ($widest columns)"
done_testing
