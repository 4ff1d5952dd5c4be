#!/bin/sh
# test_cmd_tui.sh - `amc tui` without a terminal: a clear refusal (exit 2)
# unless in script mode; its options checked before anything starts (--size,
# --graphics, --theme given on the command line reach the screen). The screens
# themselves: tests/tui/; the man page (--man): tests/tui/test_man.sh.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export TZ=UTC AMC_TUI_NOW=1767229200000 TERM=xterm-256color
unset NO_COLOR
D="$T_HOME/dump"
mkdir -p "$D"
printf ':dump screen\n' >"$T_HOME/dump.keys"
esc=$(printf '\033')

# --- no terminal: refused ---------------------------------------------------------------------
out=$("$AMC" tui </dev/null 2>&1); is $? 2 "no terminal -> 2"
is "$out" "amc: the terminal interface needs a terminal; see \`amc --help\` for the headless commands" "says why and where to go"
ok_status $([ ! -e "$AMC_HOME/amc.db" ]; echo $?) "refused before the database is opened"
"$AMC" tui </dev/null >"$T_HOME/out" 2>/dev/null
is "$(wc -c <"$T_HOME/out" | tr -d ' ')" 0 "nothing drawn on stdout"

# --- options checked first ------------------------------------------------------------------------
for s in 5x5 abc 2000x40 80; do
	out=$("$AMC" tui --size "$s" 2>&1); is $? 2 "--size $s -> 2"
	like "$out" "--size takes COLSxROWS, e.g. 120x40" "--size $s: says the form"
done
out=$("$AMC" tui --graphics bogus 2>&1); is $? 2 "--graphics bogus -> 2"
like "$out" "'bogus' is not one of auto[|]symbols[|]sixel[|]kitty[|]iterm[|]none" "--graphics lists the modes"
out=$("$AMC" tui extra 2>&1); is $? 2 "an extra argument -> 2"
like "$out" "^amc tui: unexpected argument" "says so"
"$AMC" tui --bogus </dev/null >/dev/null 2>&1; is $? 2 "an unknown option -> 2"
out=$("$AMC" tui --script "$T_HOME/no-such.keys" --dump-dir "$D" 2>&1); is $? 2 "a missing script -> 2"
like "$out" "cannot read script .*no-such.keys" "the script is named"

# --- script mode needs no terminal -------------------------------------------------------------------
"$AMC" tui --script "$T_HOME/dump.keys" --dump-dir "$D" --size 80x24 --tty-output "$T_HOME/tty.default" </dev/null
ok_status $? "script mode runs without a terminal"
is "$(wc -l <"$D/screen.txt" | tr -d ' ')" 24 "--size 80x24: 24 lines"
is "$(wc -L <"$D/screen.txt" | tr -d ' ')" 80 "--size 80x24: 80 columns"
like "$(head -n 1 "$D/screen.txt")" "^ amc +Tasks" "the task list opens first"
like "$(cat "$D/screen.txt")" "no tasks yet" "an empty history says so"
ok_status $(grep -q "${esc}\[[0-9;]*38;5;" "$T_HOME/tty.default"; echo $?) "the default theme draws with 256 colours"
"$AMC" tui --theme monochrome --script "$T_HOME/dump.keys" --dump-dir "$D" --size 80x24 --tty-output "$T_HOME/tty.mono" </dev/null
ok_status $? "--theme monochrome"
ok_status $(grep -q "${esc}\[[0-9;]*3[0-8][;m]" "$T_HOME/tty.mono"; [ $? -ne 0 ]; echo $?) "--theme monochrome on the command line: no colours"
# Issue 27: an unknown --theme is a usage error; one in the configuration
# only warns on the status line.
"$AMC" tui --theme nosuch --script "$T_HOME/dump.keys" --dump-dir "$D" --size 100x30 </dev/null 2>"$T_HOME/theme.err"
is $? 2 "an unknown --theme: exit 2"
like "$(cat "$T_HOME/theme.err")" "no theme 'nosuch'" "it names the theme"
mkdir -p "$XDG_CONFIG_HOME/amc"
printf '[tui]\ntheme = nosuch\n' >>"$XDG_CONFIG_HOME/amc/config"
"$AMC" tui --script "$T_HOME/dump.keys" --dump-dir "$D" --size 100x30 </dev/null
ok_status $? "an unknown theme in the configuration does not stop the TUI"
like "$(tail -n 1 "$D/screen.txt")" "theme: no theme 'nosuch'" "it says so on the status line"

done_testing
