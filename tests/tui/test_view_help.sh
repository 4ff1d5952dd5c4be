#!/bin/sh
# The Help view (tui/view_help.c) as golden screens: opened from the Tasks,
# Task (and its tree pane) and Devices views, scrolled, and left again with
# the view below as it was. Its lines come from the keymap table, like amc(1):
# the content checks hold the two together.
. "$AMC_TEST_SRCDIR/tests/tui/screens.sh"
run_screens help
d=$T_HOME/dump-help
"$AMC" tui --man >"$T_HOME/amc.1"
ok_status $? "amc tui --man"
# The help texts of a view's .SS section of amc(1), roff escapes undone.
man_helps() { # man_helps VIEW
	awk -v v=".SS $1" '$0 == v { on = 1; next } /^\.S[SH] / { on = 0 } on && prev ~ /^\.B / { print } { prev = $0 }' \
		"$T_HOME/amc.1" | sed 's/\\-/-/g; s/\\e/\\/g; s/^\\&//'
}
for pair in Tasks:help-tasks Devices:help-devices; do
	view=${pair%%:*} dump=${pair#*:}
	n=0 missing=0
	while IFS= read -r h; do
		n=$((n + 1))
		grep -qF -- "$h" "$d/$dump.txt" || { missing=$((missing + 1)); diag "not on $dump: $h"; }
	done <<EOT
$(man_helps "$view")
EOT
	[ "$n" -gt 5 ] && [ "$missing" -eq 0 ]
	ok_status $? "$view: the help screen has every one of amc(1)'s $n key lines"
done
grep -q '^ Keys of the Task view (Esc: back' "$d/help-task.txt"
ok_status $? "the title names the view it was opened from"
# A page that does not hold every key says so, and which way to scroll.
grep -q '^ Keys of the Task view (Esc: back; more below: j, PgDn)$' "$d/help-task.txt"
ok_status $? "the first page says more keys lie below"
grep -q '^ Keys of the Task view (Esc: back; more above: k, PgUp)$' "$d/help-task-end.txt"
ok_status $? "the last page says more lie above"
grep -q 'In the UI tree pane:' "$d/help-task-end.txt"
ok_status $? "the Task view's help lists the tree pane's keys under a heading"
! grep -q 'show the tree as JSON' "$d/help-task.txt" && grep -q 'show the tree as JSON' "$d/help-task-end.txt"
ok_status $? "G scrolls to the last key line"
cmp -s "$d/help-task.txt" "$d/help-task-tree.txt"
ok_status $? "from the tree pane the help is the Task view's"
done_testing
