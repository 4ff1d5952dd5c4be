# test_flow_commands.sh - docs/flows.md's command table is the command
# table's (src/planner/flow_commands.c, one row per command): `amc flow commands
# --markdown` prints it from the rows, and it must be the docs' table line for
# line, so a command missing from the docs, or a docs line that is not its
# row's, fails here. Regenerate the docs table with that command.
. "${AMC_TEST_SRCDIR:-.}/tests/integration/tap.sh"
DOC="${AMC_TEST_SRCDIR:-.}/docs/flows.md"

"$AMC" flow commands --markdown >"$T_HOME/gen"; ok_status $? "amc flow commands --markdown"
# the docs table: its header line and every row after it
awk '/^\| Command \| Forms and options \|/ { on = 1 } on && !/^\|/ { exit } on' "$DOC" >"$T_HOME/doc"
ok "$(($(wc -l <"$T_HOME/gen") > 30))" "the table has a line per command (or group of commands)"
is "$(wc -l <"$T_HOME/doc")" "$(wc -l <"$T_HOME/gen")" "the docs table has as many lines as the rows give"
if cmp -s "$T_HOME/doc" "$T_HOME/gen"; then
	ok 1 "docs/flows.md's command table is the rows' (amc flow commands --markdown)"
else
	ok 0 "docs/flows.md's command table is the rows' (amc flow commands --markdown)"
	diff "$T_HOME/doc" "$T_HOME/gen" | head -20 | sed 's/^/# /'
fi

# every name amc reads is in the docs table's command column (the alias
# "hide keyboard" and the form `action` are written beside their commands)
"$AMC" flow commands >"$T_HOME/names"; ok_status $? "amc flow commands"
ok "$(($(wc -l <"$T_HOME/names") > 50))" "it lists the names amc reads"
missing=""
while IFS= read -r n; do
	case "$n" in "hide keyboard" | action) continue ;; esac
	grep -q "^| [^|]*\`$n\`" "$T_HOME/doc" || missing="$missing $n"
done <"$T_HOME/names"
is "$missing" "" "every command amc reads has its line in docs/flows.md"
like "$(cat "$T_HOME/doc")" '`back` \(also `action: back`\)' "the action forms are the rows' (AMC_FLOW_CMDF_ACTION)"

# the comparison can fail: a changed docs line, a dropped one
sed '5s/|[^|]*|$/| changed |/' "$T_HOME/doc" >"$T_HOME/doc2"
cmp -s "$T_HOME/doc2" "$T_HOME/gen"; ok_status "$((! $?))" "a docs line that is not its row's is seen"
sed '6d' "$T_HOME/doc" >"$T_HOME/doc3"
cmp -s "$T_HOME/doc3" "$T_HOME/gen"; ok_status "$((! $?))" "a command missing from the docs is seen"

"$AMC" flow commands --html >/dev/null 2>&1; is "$?" 2 "an unknown option: usage, exit 2"
done_testing
