#!/bin/sh
# The confirmation dialog of another process's question (tui/dialog_pending.c)
# as golden screens, in script mode on the fixture database: the question is
# written into AMC_HOME as amc mcp writes it (runtime/pending.h; the asker's
# pid is this shell's, so it counts as alive), with an escape sequence and a
# right-to-left override in the client's strings; y answers it through the
# pending files.
. "$AMC_TEST_SRCDIR/tests/tui/screens.sh"
now=$(($(date +%s) * 1000))
printf '{"task":"mcptask000000001","action":"tap at 662,850","target":"Delete \\u001b[2J","word":"delete","reason":"the user asked to remove the duplicate of Alan Turing \\u202e(reversed?)","asker":"MCP client claude-code 2.1.197 on sim:0","asked_ms":%s,"until_ms":%s,"pid":%s}' \
	"$now" "$((now + 600000))" "$$" >"$AMC_HOME/confirm-mcptask000000001.ask"
# the per-question secret amc mcp keeps beside the question (never in .ask)
secret=0123456789abcdef0123456789abcdef
(umask 077 && printf '%s' "$secret" >"$AMC_HOME/confirm-mcptask000000001.secret")
run_screens pending
d=$T_HOME/dump-pending
grep -q 'Task mcptask0: allow this action?' "$d/pending-dialog.txt"
ok_status $? "the dialog opens over the Tasks view"
cmp -s "$d/pending-dialog.txt" "$d/pending-dialog-other-key.txt"
ok_status $? "a key that is not y, n or Esc leaves it open"
grep -q 'task mcptask0: allowed tap at 662,850' "$d/pending-answered.txt"
ok_status $? "y closes it; the status line says what was allowed"
is "$(cat "$AMC_HOME/confirm-mcptask000000001.answer" 2>/dev/null)" "yes $secret" \
	"the answer went back through the pending files, with the question's secret"
done_testing
