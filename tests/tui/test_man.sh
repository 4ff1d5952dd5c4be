#!/bin/sh
# amc(1) is generated from the keymap table: the committed doc/amc.1 must be
# what `amc tui --man` prints now (regenerate: amc tui --man > doc/amc.1).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
"$AMC" tui --man >"$T_HOME/amc.1"
ok_status $? "amc tui --man runs"
diff -u "$AMC_TEST_SRCDIR/doc/amc.1" "$T_HOME/amc.1" >"$T_HOME/diff"
ok_status $? "doc/amc.1 matches the keymap table"
[ -s "$T_HOME/diff" ] && sed 's/^/# /' "$T_HOME/diff" | head -40
# Every key the help screen lists for the Tasks view is in the man page.
grep -q '^\.SS Tasks' "$T_HOME/amc.1"
ok_status $? "the man page has a KEYS section per view"
for k in 'q' '?, F1' 'Enter' 'j, Down' '/' 'f' 'n' 'c' 'Tab' 'z'; do
	grep -qx ".B $k" "$T_HOME/amc.1"
	ok_status $? "key '$k' documented"
done
done_testing
