#!/bin/sh
# An MCP client's irreversible-looking act answered in the TUI, end to end:
# `amc mcp` (no elicitation: the client is this script, speaking JSON-RPC lines
# through a FIFO) taps Delete on a contact; the TUI, running its real loop in
# tmux on the same AMC_HOME, opens the confirmation dialog (the client, the
# action, its target, the client's reason); n refuses it (the client gets
# isError with a reason it can act on), y allows the next one (the contact is
# deleted), and both steps are in the session's task.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed (apt-get install tmux)"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8 AMC_OCR_POLICY=off
sock=amc-mcpc-$$
"$AMC" tasks >/dev/null   # create the database first
tmux -L "$sock" -f /dev/null new-session -d -x 140 -y 40 \
	"env AMC_HOME='$AMC_HOME' XDG_CONFIG_HOME='$XDG_CONFIG_HOME' TERM=xterm-256color '$AMC'"
stop() { tmux -L "$sock" kill-server 2>/dev/null; exec 3>&- 2>/dev/null; }
screen() { tmux -L "$sock" capture-pane -p 2>/dev/null; }
has() { screen | grep -q -- "$1"; }
wait_for 10 has 'Tasks'
ok_status $? "the interface is up"

mkfifo "$T_HOME/in"
"$AMC" mcp --confirm-timeout 60 <"$T_HOME/in" >"$T_HOME/out" 2>"$T_HOME/err" &
mcp=$!
exec 3>"$T_HOME/in"
send() { printf '%s\n' "$1" >&3; }
# The result line of request id $1 (waits up to 60 s).
answer() { wait_for 60 grep -q "^{\"jsonrpc\":\"2.0\",\"id\":$1," "$T_HOME/out" &&
	grep "^{\"jsonrpc\":\"2.0\",\"id\":$1," "$T_HOME/out" | sed 's/"data":"[^"]*"/"data":"(image)"/g'; }
# The id of the element whose text is $2 in the scene text of answer $1.
elem() { answer "$1" | grep -o "e[0-9a-f]* [a-z]* \[[0-9,]*\] \\\\\"$2\\\\\"" | head -n 1 | cut -d' ' -f1; }
act() { # act ID ARGS-JSON
	send "{\"jsonrpc\":\"2.0\",\"id\":$1,\"method\":\"tools/call\",\"params\":{\"name\":\"act\",\"arguments\":$2}}"
}
send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"shell-client","version":"1.0"}}}'
send '{"jsonrpc":"2.0","method":"notifications/initialized"}'
send '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"observe","arguments":{"device":"sim","image":false}}}'
e=$(elem 2 Contacts)
ok $([ -n "$e" ] && echo 1 || echo 0) "observe: the home screen has Contacts ($e)"
act 3 "{\"device\":\"sim\",\"action\":\"tap\",\"element\":\"$e\",\"reason\":\"open Contacts\"}"
e=$(elem 3 'Alan Turing')
act 4 "{\"device\":\"sim\",\"action\":\"tap\",\"element\":\"$e\",\"reason\":\"open the duplicate contact\"}"
del=$(elem 4 Delete)
ok $([ -n "$del" ] && echo 1 || echo 0) "the contact's screen has Delete ($del)"

# Refused in the TUI.
act 5 "{\"device\":\"sim\",\"action\":\"tap\",\"element\":\"$del\",\"reason\":\"remove the duplicate of Alan\"}"
wait_for 20 has 'allow this action?'
ok_status $? "the TUI opens the confirmation dialog"
s=$(screen)
like "$s" 'MCP client shell-client 1.0 on sim:0 wants to tap' "it names the client, the device and the action"
j=$(printf '%s\n' "$s" | sed 's/^ *│ *//; s/ *│ *$//' | tr '\n' ' ')
like "$j" 'on "Delete", which looks +irreversible \("delete"\)' "the target and the word that made it look irreversible"
like "$s" 'Reason: remove the duplicate of Alan' "the client's reason"
like "$s" 'y: allow   n or Esc: refuse' "and the keys"
ls "$AMC_HOME"/confirm-*.ask >/dev/null 2>&1
ok_status $? "the question is a pending file in AMC_HOME"
tmux -L "$sock" send-keys n
r=$(answer 5)
like "$r" '"isError":true' "n: the client's act is an error result"
like "$r" '"text":"step [0-9]+ of task [0-9a-z]+: refused: the action looks irreversible \(.delete.\) and needs a person.s yes: the person at amc.s TUI refused it. Do not retry it' \
	"whose text says the person at amc's TUI refused it, and not to retry it"
wait_for 5 sh -c "! tmux -L '$sock' capture-pane -p | grep -q 'allow this action?'"
ok_status $? "the dialog closed"
like "$(screen)" 'refused tap' "the status line says what was refused"

# Allowed in the TUI.
act 6 "{\"device\":\"sim\",\"action\":\"tap\",\"element\":\"$del\",\"reason\":\"the person agreed\"}"
wait_for 20 has 'Reason: the person agreed'
ok_status $? "the next confirmation opens a new dialog"
tmux -L "$sock" send-keys y
r=$(answer 6)
like "$r" '"status\\":\\"ok\\"|"status":"ok"' "y: the act ran"
if printf '%s' "$r" | grep -q 'Alan Turing'; then ok 0 "the contact was deleted"; else ok 1 "the contact was deleted"; fi
ls "$AMC_HOME"/confirm-* >/dev/null 2>&1
ok $? "no pending files are left"

task=$(answer 6 | grep -o '"task":"[^"]*"' | head -n 1 | cut -d'"' -f4)
# Claude Code stops its servers with SIGTERM, their input still open: the
# session's task records its end (not left for `interrupted`).
kill -TERM "$mcp"
wait "$mcp"
ok_status $? "amc mcp ends cleanly on SIGTERM with its input still open"
exec 3>&-
out=$("$AMC" show "$task" 2>&1)
like "$out" 'MCP session ended by the client after 4 actions \(1 of them failed\)' \
	"the session's task says what happened (one act refused)"
like "$out" 'refused' "amc show: the refused step is recorded"
like "$out" 'reason  remove the duplicate of Alan' "with the client's reason"
stop
done_testing
