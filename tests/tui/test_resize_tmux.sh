#!/bin/sh
# Issue 27: the TUI redraws on a terminal resize without waiting for a key.
# tmux resize-window sends SIGWINCH; the screen must fill the new width.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed (apt-get install tmux)"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8
sock=amc-resize-$$
"$AMC" run --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" >/dev/null 2>&1 # a row: the title shows its counter
tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 \
	"env AMC_HOME='$AMC_HOME' XDG_CONFIG_HOME='$XDG_CONFIG_HOME' TERM=xterm-256color '$AMC'"
screen() { tmux -L "$sock" capture-pane -p | head -3 | sed "s/^/# /"; }
stop() { tmux -L "$sock" kill-server 2>/dev/null; }
# the Tasks view's title row ends with its page counter at the right edge
right_edge_at() { tmux -L "$sock" capture-pane -p | head -1 | awk -v w="$1" '{ exit !(length($0) >= w - 2 && length($0) <= w) }'; }
wait_for 10 right_edge_at 80
ok_status $? "drawn at 80 columns"
screen
tmux -L "$sock" resize-window -x 150 -y 40
wait_for 5 right_edge_at 150
ok_status $? "redrawn at 150 columns after resize-window, no key pressed"
tmux -L "$sock" resize-window -x 200 -y 50
wait_for 5 right_edge_at 200
ok_status $? "and again at 200x50"
stop
done_testing
