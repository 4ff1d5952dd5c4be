#!/bin/sh
# src/cli/help.c: `--help` folded to the terminal, and amc(1) made from the
# command table and the settings table, so it cannot miss a command, an
# option or a setting.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
SRC=$AMC_TEST_SRCDIR
unset COLUMNS # the folding below is asked for explicitly
"$AMC" tui --man >"$T_HOME/amc.1"
ok_status $? "amc tui --man writes the page"
cmp -s "$SRC/doc/amc.1" "$T_HOME/amc.1"
ok_status $? "doc/amc.1 is what amc tui --man writes now (regenerate it)"

# Every command of `amc --help` has its section, with its options.
cmds=$("$AMC" --help | awk '/^Commands:/ { f = 1; next } /^$/ { f = 0 } f && /^  [a-z]/ { print $1 }')
n=$(echo "$cmds" | wc -w)
ok $((n >= 18)) "amc --help lists the commands ($n)"
missing=""
for c in $cmds; do
	grep -qx ".SS amc $c" "$T_HOME/amc.1" || missing="$missing $c"
done
is "$missing" "" "every command has a section in amc(1)"

# Every long option any command's getopt table accepts is in amc(1) (its help
# text is what the page prints), and in that command's --help.
opts=0
missing=""
for f in "$SRC"/src/cli/cmd_*.c; do
	cmd=$(sed -n 's/^const amc_cmd amc_cmd_\([a-z_]*\) = {.*/\1/p' "$f" | head -n 1)
	for o in $(grep -oE '\{ *"[a-z][a-z0-9-]*", *(no|required|optional)_argument' "$f" |
		   sed -E 's/\{ *"([^"]+)".*/\1/' | sort -u); do
		opts=$((opts + 1))
		esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "\\\\-\\\\-$esc" "$T_HOME/amc.1" || missing="$missing --$o($(basename "$f"))"
		if [ -n "$cmd" ]; then
			"$AMC" "$cmd" --help | grep -q -- "--$o" || missing="$missing --$o(amc $cmd --help)"
		fi
	done
done
ok $((opts > 80)) "the commands' option tables were read ($opts options)"
is "$missing" "" "every option is documented in --help and amc(1)"

# Every setting, with what it accepts and its default.
keys=$("$AMC" config --json | sed -n 's/.*"section": *"\([a-z_]*\)", *"key": *"\([a-z_0-9]*\)".*/\1.\2/p')
[ -n "$keys" ] || keys=$("$AMC" config | awk '/^\[/ { s = substr($1, 2, length($1) - 2) } /^[a-z_0-9]+ = / { print s "." $1 }')
n=$(echo "$keys" | wc -w)
ok $((n >= 40)) "amc config lists the settings ($n)"
missing=""
for k in $keys; do
	grep -qx ".B $(printf '%s' "$k" | sed 's/-/\\\\-/g')" "$T_HOME/amc.1" || missing="$missing $k"
done
is "$missing" "" "every setting has an entry in amc(1)"
grep -A1 -x '.B runner.max_steps' "$T_HOME/amc.1" | grep -q '(1\.\.10000; default: 50)'
ok_status $? "a setting says what it accepts and its default"

# Read in 80 columns: --help folds, an option's text continues under it.
wide=""
for c in "" $cmds; do
	w=$(COLUMNS=80 "$AMC" $c --help 2>&1 | LC_ALL=C.UTF-8 wc -L)
	[ "$w" -le 80 ] || wide="$wide '${c:-amc}':$w"
done
is "$wide" "" "every --help fits 80 columns"
COLUMNS=80 "$AMC" run --help >"$T_HOME/run80"
grep -q '^                      without asking$' "$T_HOME/run80"
ok_status $? "a folded option row continues under its description"
COLUMNS=200 "$AMC" run --help | grep -q -- '--yes           allow irreversible-looking taps (send, pay, delete, ...) without asking'
ok_status $? "a wide terminal gets the lines as written"
"$AMC" run --help | cmp -s - "$T_HOME/run80"
ok_status $((! $?)) "not a terminal and no COLUMNS: lines as written (for grep)"
# Narrow terminals: no word is lost or cut, and an option whose column is
# past half the width gets its description on the lines under it.
lost=""
for w in 30 40 60 100; do
	for c in run fleet bench mcp sim; do
		"$AMC" $c --help | tr -s ' \n' '\n\n' | grep -v '^$' >"$T_HOME/w0"
		COLUMNS=$w "$AMC" $c --help | tr -s ' \n' '\n\n' | grep -v '^$' >"$T_HOME/w1"
		cmp -s "$T_HOME/w0" "$T_HOME/w1" || lost="$lost $c@$w"
	done
done
is "$lost" "" "folding at 30, 40, 60 and 100 columns keeps every word, in order"
COLUMNS=40 "$AMC" run --help >"$T_HOME/run40"
grep -q '^      --agent claude|codex$' "$T_HOME/run40" && grep -A1 '^      --agent claude|codex$' "$T_HOME/run40" | tail -n 1 | grep -q "^            a coding agent's"
ok_status $? "at 40 columns a long option's description goes under it"
"$AMC" run --nope 2>"$T_HOME/err"
is $? 2 "a usage error exits 2"
COLUMNS=80 "$AMC" run --nope 2>&1 | LC_ALL=C.UTF-8 wc -L >"$T_HOME/w"
ok $(($(cat "$T_HOME/w") <= 80)) "the usage line after an error fits 80 columns too"

# The page as man shows it: nothing past 80 columns.
if command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 -P-cbou -rLL=80n -ww "$T_HOME/amc.1" 2>"$T_HOME/groff.err" | expand >"$T_HOME/man.txt"
	w=$(LC_ALL=C.UTF-8 wc -L <"$T_HOME/man.txt")
	ok $((w <= 80)) "amc(1) renders within 80 columns (widest line: $w)"
	grep -q '^       runner.max_steps$' "$T_HOME/man.txt"
	ok_status $? "the rendered page lists runner.max_steps"
	is "$(grep -c 'warning' "$T_HOME/groff.err")" 0 "groff reads the page without a warning"
else
	ok 1 "# SKIP groff is not installed (Debian groff-base; build.sh check installs it)"
fi
done_testing
