#!/bin/sh
# Themes: every bundled theme loads; a bad theme file is named with its line
# and the default is used; NO_COLOR draws without colours.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export TZ=UTC AMC_TUI_NOW=1767229200000 TERM=xterm-256color LC_ALL=C.UTF-8
unset NO_COLOR
"$AMC_TEST_BUILDDIR/tests/tui/mkfixture" "$AMC_HOME"
out=$T_HOME/out
mkdir -p "$out"
printf ':dump screen\n' >"$T_HOME/dump.keys"
for th in default light high-contrast monochrome; do
	"$AMC" tui --theme "$th" --script "$T_HOME/dump.keys" --dump-dir "$out" --size 100x30
	ok_status $? "theme $th: runs"
	like "$(tail -1 "$out/screen.txt")" "^\\?:help" "theme $th: loads without a complaint"
done
mkdir -p "$XDG_CONFIG_HOME/amc/themes"
printf '# a theme with a mistake on line 3\nnormal = default default\nselected = purple black\n' \
	>"$XDG_CONFIG_HOME/amc/themes/broken.theme"
"$AMC" tui --theme broken --script "$T_HOME/dump.keys" --dump-dir "$out" --size 160x30
ok_status $? "a broken theme does not stop the TUI"
like "$(tail -1 "$out/screen.txt")" "broken.theme:3: bad colour 'purple'.*using default" "the message names the file and line, and the fallback"
"$AMC" tui --theme '../../etc/passwd' --script "$T_HOME/dump.keys" --dump-dir "$out" --size 160x30 2>"$T_HOME/e"
ok_status $(( $? != 2 )) "a theme name that is a path: exit 2"
like "$(cat "$T_HOME/e")" "bad theme name" "a theme name is not a path"
# Colour SGR sequences: present with the default theme, absent with NO_COLOR.
colour_sgr() { # colour_sgr FILE: succeeds when FILE sets a colour (SGR 30-49, 38;5;N)
	LC_ALL=C grep -aoE "$(printf '\033')\\[[0-9;]*m" "$1" | grep -qE '\[([0-9;]*;)?(3[0-9]|4[0-9])(;|m)'
}
"$AMC" tui --script "$T_HOME/dump.keys" --dump-dir "$out" --size 100x30 --tty-output "$T_HOME/tty-colour"
colour_sgr "$T_HOME/tty-colour"
ok_status $? "the default theme writes colours"
NO_COLOR=1 "$AMC" tui --script "$T_HOME/dump.keys" --dump-dir "$out" --size 100x30 --tty-output "$T_HOME/tty-mono"
colour_sgr "$T_HOME/tty-mono"
ok_status $(( ! $? )) "NO_COLOR: no colour sequences"
# Issue 27: an unknown --theme is a usage error (exit 2) naming the theme.
"$AMC" tui --theme no-such-theme --script "$T_HOME/dump.keys" --dump-dir "$out" --size 100x30 >"$T_HOME/o" 2>"$T_HOME/e"
ok_status $(( $? != 2 )) "unknown --theme: exit 2"
grep -q "no theme 'no-such-theme'" "$T_HOME/e"
ok_status $? "... naming the theme"
done_testing
