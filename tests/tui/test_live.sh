#!/bin/sh
# Live behaviour on the simulated phone: launch from the dialog and follow the
# task to its end, cancel with confirmation, quit with confirmation (cancels
# the tasks launched here), another process's commits reaching the screen, and
# SIGHUP (tmux session killed) letting a running task finish and record its end.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8 AMC_FLOW_WAIT_TIMEOUT_MS=3000
out=$T_HOME/out
mkdir -p "$out"
# A flow that runs for about 3 s: it waits for text that never appears.
cat >"$T_HOME/slow.yaml" <<'YAML'
appId: com.android.settings
---
- launchApp
- assertVisible: "No such text anywhere"
YAML
newest_status() {
	"$AMC" tasks --json | sed -n 's/^[[:space:]]*"status":[[:space:]]*"\([a-z_]*\)".*/\1/p' | head -1
}

# 1. Launch wifi-off-on from the dialog; the view follows it to its end.
cat >"$T_HOME/launch.keys" <<'KEYS'
n
j j
Enter
:drain
:dump following
:wait
:dump finished
Esc
:dump list
KEYS
"$AMC" tui --script "$T_HOME/launch.keys" --dump-dir "$out" --size 120x40
ok_status $? "launch script runs"
like "$(head -1 "$out/following.txt")" "amc  Task" "the Task view follows the launched task"
like "$(sed -n 2p "$out/finished.txt")" "succeeded .*Turn Wi-Fi off and on  on sim:0  7 steps" "the finished task is shown with its steps"
like "$(cat "$out/finished.txt")" "7 . pressKey|  7 " "its timeline has 7 rows"
like "$(sed -n 3p "$out/list.txt")" "succeeded .*flow Turn Wi-Fi off and on +sim:0 +7 " "the Tasks view lists it first"

# 2. Cancel a running task, with confirmation.
cat >"$T_HOME/cancel.keys" <<KEYS
n
j j j
Tab
:type $T_HOME/slow.yaml
Enter
:drain
c
:dump cancel-confirm
y
:dump cancelling
:wait
:dump cancelled
KEYS
"$AMC" tui --script "$T_HOME/cancel.keys" --dump-dir "$out" --size 120x40
ok_status $? "cancel script runs"
like "$(cat "$out/cancel-confirm.txt")" "Cancel task [0-9a-z]{8}\\?" "c asks before cancelling"
like "$(sed -n 2p "$out/cancelled.txt")" "cancelled" "the task ends cancelled"
is "$(newest_status)" "cancelled" "the database says cancelled"
like "$(tail -n 1 "$out/cancelling.txt")" "cancelling task [0-9a-z]{8}" "the status line says it is cancelling"
st=$(tail -n 1 "$out/cancelled.txt")
diag "status line once cancelled: $st"
case "$st" in *cancelling*) r=1 ;; *) r=0 ;; esac
ok_status $r "the \"cancelling task\" line does not linger once the task has ended"
like "$st" "task [0-9a-z]{8} cancelled" "it says the task was cancelled"

# 3. Quit while a task launched here runs: asks, then cancels it.
cat >"$T_HOME/quit.keys" <<KEYS
n
j j j
Tab
:type $T_HOME/slow.yaml
Enter
:drain
q
:dump quit-confirm
y
KEYS
"$AMC" tui --script "$T_HOME/quit.keys" --dump-dir "$out" --size 120x40
ok_status $? "quit script runs"
like "$(cat "$out/quit-confirm.txt")" "1 task launched here is still running. Cancel and quit\\?" "q asks while a task runs"
is "$(newest_status)" "cancelled" "quitting cancelled the task (no task left running)"

# 4. Another amc process's commits reach the screen (inotify + data_version path).
mkfifo "$T_HOME/fifo"
"$AMC" tui --script "$T_HOME/fifo" --dump-dir "$out" --size 120x40 &
tui=$!
exec 3>"$T_HOME/fifo"
echo ":dump xproc-before" >&3
"$AMC" run --flow create-note >/dev/null 2>&1
ok_status $? "another process runs a flow"
echo ":changes" >&3
echo ":dump xproc-after" >&3
exec 3>&-
wait $tui
ok_status $? "the TUI ends with its script"
like "$(sed -n 3p "$out/xproc-before.txt")" "Cancel|slow|No such|cancelled" "before: the other task is not shown"
like "$(sed -n 3p "$out/xproc-after.txt")" "succeeded .*flow Create a note" "after: the other process's task is shown"
like "$(sed -n 4p "$out/xproc-after.txt")" "^> " "the selection stays on the task it was on"

# 5. SIGHUP: the terminal goes away while a task runs; it finishes and is recorded.
if command -v tmux >/dev/null 2>&1; then
	sock=amc-test-$$
	tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 \
		"env AMC_HOME='$AMC_HOME' XDG_CONFIG_HOME='$XDG_CONFIG_HOME' AMC_FLOW_WAIT_TIMEOUT_MS=3000 '$AMC'"
	sleep 1
	tmux -L "$sock" send-keys n j j j Tab "$T_HOME/slow.yaml" Enter
	wait_for 10 sh -c "\"$AMC\" tasks --json | grep -q '\"running\"'"
	ok_status $? "the task runs inside tmux"
	tmux -L "$sock" kill-server
	wait_for 20 sh -c "! \"$AMC\" tasks --json | grep -q '\"running\"'"
	ok_status $? "after SIGHUP no task is left running"
	is "$(newest_status)" "failed" "the task finished on its own (its assertion timed out) and was recorded"
	grep -q "terminal hung up" "$AMC_HOME/amc.log"
	ok_status $? "the hang-up is logged"
else
	echo "# SKIP SIGHUP test: tmux not installed"
fi
done_testing
