#!/bin/sh
# A newcomer at 80x24 (and 200x50), in a real terminal (tmux): a flow that
# fails, from a deep folder with a non-ASCII name, opened in the Task view.
# What failed and why must be readable without the docs: the Error box gives
# the message its rows before the on-screen list and names the flow file
# without its folder; a zoomed pane shows the error on one row instead of the
# box; the Operation pane never wraps a YAML line's trailing comment onto a
# row of its own; the step's description is never cut inside a character;
# the Help view says when more keys lie below the page; a search hit
# shows its match at 80 columns.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed (apt-get install tmux)"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8 AMC_ADB_PATH=/nonexistent/adb
unset DISPLAY WAYLAND_DISPLAY NO_COLOR
dir="$T_HOME/a very long directory name for flows that a newcomer might use/ünïcödé 日本語 folder"
mkdir -p "$dir"
flow="$dir/deep-flow.yaml"
cat >"$flow" <<'YAML'
appId: com.android.settings
name: Überprüfe Kopplung 日本語
---
- launchApp
- tapOn: "Wi-Fi"          # open Wi-Fi settings
- assertVisible: "HomeNet"   # the home network must be listed
- tapOn: "Ein sehr langer Elementname, der nicht existiert — 存在しない要素 — and more"   # kommentar 注釈
YAML
"$AMC" run --flow "$flow" >"$T_HOME/run.out" 2>&1
[ $? -ne 0 ]
ok_status $? "the flow fails"
id=$(awk '/task [0-9a-z]* failed/ { print $3; exit }' "$T_HOME/run.out")
"$AMC" show "$id" >"$T_HOME/show" 2>&1
grep -q "$(printf '\357\277\275')" "$T_HOME/show"
[ $? -ne 0 ]
ok_status $? "amc show: no U+FFFD where a long non-ASCII selector was cut"
grep -q '存在しない要素' "$T_HOME/show"
ok_status $? "amc show: the cut value keeps its whole characters"

sock=amc-newcomer-$$
stop() { tmux -L "$sock" kill-server 2>/dev/null; }
trap 'stop; cleanup' EXIT
tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 \
	"env AMC_HOME='$AMC_HOME' XDG_CONFIG_HOME='$XDG_CONFIG_HOME' TERM=xterm-256color LC_ALL=C.UTF-8 '$AMC'"
cap() { tmux -L "$sock" capture-pane -p >"$T_HOME/s"; }
shows() { cap; grep -q -- "$1" "$T_HOME/s"; }
keys() { tmux -L "$sock" send-keys "$@"; sleep 0.3; }
wait_for 10 shows 'Tasks'
ok_status $? "the Tasks view at 80x24"
keys Enter
wait_for 5 shows '─ Error ─'
ok_status $? "Enter opens the failed task with its Error box"
box=$(sed -n '/─ Error ─/,/^└/p' "$T_HOME/s")
like "$box" 'step 4: deep-flow\.yaml:7: tapOn: no' "the box names the flow file without its folder"
like "$box" 'after [0-9.]+ s' "the whole message is in the box at 80x24 (it ends with the wait)"
like "$box" "'Navigate up'" "what was on screen follows it"
like "$box" '\+[0-9]+ more: Tab to Operation, z' "and the rest is counted, with the keys that show it"
grep -q '─ more ↓ ─┘└' "$T_HOME/s"
ok_status $? "the Operation pane's bottom edge says it holds more below"
keys Tab Tab Tab
# j scrolls the Operation pane (the second box of a row at 80x24) through the
# error, its screen list and the flow's source: every row it showed
: >"$T_HOME/op"
i=0
while [ $i -lt 40 ]; do
	tmux -L "$sock" send-keys j
	sleep 0.1
	tmux -L "$sock" capture-pane -p | sed -n 's/^│[^│]*│\(│[^│]*│\).*/\1/p' >>"$T_HOME/op"
	i=$((i + 1))
done
grep -q '^│error: deep-flow\.yaml:7:' "$T_HOME/op"
ok_status $? "the Operation pane's error names the flow file, not its folder first"
grep -q '^│>   7 | - tapOn: "Ein' "$T_HOME/op"
ok_status $? "the failing line of the flow is marked in the Operation pane"
grep -q '^│    5 | - tapOn: "Wi-Fi"' "$T_HOME/op"
ok_status $? "line 5 keeps its selector on its row (its comment is what is cut)"
grep -q '^│ *# ' "$T_HOME/op"
[ $? -ne 0 ]
ok_status $? "no row of the Operation pane starts with a YAML comment"
grep -q '^│      | ' "$T_HOME/op"
ok_status $? "a long line continues under a number-less gutter"
cap
grep -q '─ ↑ more [↓─]' "$T_HOME/s"
ok_status $? "scrolled down, it says more lie above"
keys z
cap
grep -q '─ Error ─' "$T_HOME/s"
[ $? -ne 0 ]
ok_status $? "z: the zoomed Operation pane has the whole terminal, no Error box"
grep -q '^ error: step 4: deep-flow\.yaml:7: tapOn' "$T_HOME/s"
ok_status $? "z: the error on one row under the header"
grep -q '─ Operation ─' "$T_HOME/s"
ok_status $? "z: the Operation pane is drawn"
keys Escape
tmux -L "$sock" resize-window -x 200 -y 50
sleep 0.5
cap
grep -q 'step 4: deep-flow.yaml:7: tapOn: no element matches text="Ein sehr langer Elementname.*after [0-9.]* s' "$T_HOME/s"
ok_status $? "200x50 after a resize: the message on one row"
tmux -L "$sock" resize-window -x 80 -y 24
sleep 0.5
keys '?'
cap
grep -q '^ Keys of the Task view (Esc: back; more below: j, PgDn)' "$T_HOME/s"
ok_status $? "80x24: Help says more keys lie below"
keys G
cap
grep -q 'more above: k, PgUp' "$T_HOME/s"
ok_status $? "and, at its end, that more lie above"
stop

# The Search view at 80 columns: a hit deep in a long error (the screen
# list) still shows the match, the text before it cut from the left.
printf '%s\n' S / ':type Office-5G' Enter ':dump hits' >"$T_HOME/keys"
mkdir -p "$T_HOME/dump"
"$AMC" tui --script "$T_HOME/keys" --dump-dir "$T_HOME/dump" --size 80x24 </dev/null
ok_status $? "amc tui in script mode: a search at 80x24"
errs=$(grep -E '^ [0-9a-z]+ +[0-9]+ (task_)?error ' "$T_HOME/dump/hits.txt")
diag "$errs"
[ -n "$errs" ] && ! printf '%s\n' "$errs" | grep -v -q 'Office-5G'
ok_status $? "every hit in an error shows the matched text"
like "$errs" ' …' "the text before it is cut from the left, with '…'"

# NO_COLOR: the screenshots are still drawn (in the symbols' shapes), not
# replaced by a "[screenshot WxH]" placeholder.
printf '%s\n' G Enter Tab z ':dump mono-zoom' >"$T_HOME/keys"
NO_COLOR=1 "$AMC" tui --script "$T_HOME/keys" --dump-dir "$T_HOME/dump" --size 80x24 </dev/null
ok_status $? "amc tui in script mode with NO_COLOR"
grep -q '─ Before ─' "$T_HOME/dump/mono-zoom.txt" && ! grep -q '\[screenshot' "$T_HOME/dump/mono-zoom.txt"
ok_status $? "NO_COLOR: no placeholder where the screenshot goes"
is "$(sed -n '/─ Before ─/,$p' "$T_HOME/dump/mono-zoom.txt" | grep -c '[█▀▄▌▐▖▗▘▝▚▞▙▛▜▟]')" \
	"$(sed -n '/─ Before ─/,$p' "$T_HOME/dump/mono-zoom.txt" | grep -c '│')" "NO_COLOR: every row of the zoomed screenshots has block symbols"

# A goal longer than its field: the end shows (the cursor), after "…".
printf '%s\n' n j j j j Tab ':type Open the Settings app, go to Wi-Fi, turn it off and on, then check HomeNet' ':dump goal' Esc >"$T_HOME/keys"
"$AMC" tui --script "$T_HOME/keys" --dump-dir "$T_HOME/dump" --size 80x24 </dev/null
grep -q 'Goal: ….*check HomeNet_' "$T_HOME/dump/goal.txt"
ok_status $? "a long goal in the Launch dialog: its start is marked cut with …"

# A task the operator cancelled did not fail: its box says "Cancelled".
{ printf 'appId: com.android.settings\nname: long-run\n---\n- launchApp\n'
  i=0; while [ $i -lt 60 ]; do printf -- '- tapOn: "Wi-Fi"\n- back\n'; i=$((i + 1)); done; } >"$T_HOME/long.yaml"
"$AMC" run --flow "$T_HOME/long.yaml" >/dev/null 2>&1 &
runner=$!
running() { "$AMC" tasks 2>/dev/null | grep -q 'running.*long-run'; }
wait_for 20 running
kill -INT $runner
wait $runner
is "$?" 130 "amc run: Ctrl-C cancels the run"
printf '%s\n' Enter ':dump cancelled' >"$T_HOME/keys"
"$AMC" tui --script "$T_HOME/keys" --dump-dir "$T_HOME/dump" --size 80x24 </dev/null
grep -q '─ Cancelled ─' "$T_HOME/dump/cancelled.txt" && ! grep -q '─ Error ─' "$T_HOME/dump/cancelled.txt"
ok_status $? "a cancelled task's box is titled Cancelled, not Error"
done_testing
