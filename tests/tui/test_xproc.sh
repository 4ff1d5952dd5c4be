#!/bin/sh
# Cross-process liveness: 200 commits by another process, made while both cores
# are busy, all reach the screen of an idle interface running its real loop
# (inotify on the data folder + PRAGMA data_version, no polling while idle).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed (apt-get install tmux)"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8
COMMITTER="$AMC_TEST_BUILDDIR/tests/tui/committer"
sock=amc-xproc-$$
"$AMC" tasks >/dev/null   # create the database first
tmux -L "$sock" -f /dev/null new-session -d -x 150 -y 40 \
	"env AMC_HOME='$AMC_HOME' XDG_CONFIG_HOME='$XDG_CONFIG_HOME' TERM=xterm-256color '$AMC'"
stop_tmux() { tmux -L "$sock" kill-server 2>/dev/null; }
screen() { tmux -L "$sock" capture-pane -p 2>/dev/null; }
wait_for 10 sh -c "tmux -L '$sock' capture-pane -p | grep -q 'Tasks'"
ok_status $? "the interface is up"

# Load both cores while the other process commits.
hogs=""
for i in 1 2; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
done
"$COMMITTER" "$AMC_HOME" 200 5
ok_status $? "another process made 200 commits under CPU load"
# shellcheck disable=SC2086
kill $hogs 2>/dev/null

# The idle interface must show the last commit and all 200 tasks.
wait_for 20 sh -c "tmux -L '$sock' capture-pane -p | grep -q 'commit 200'"
ok_status $? "the last commit reached the screen"
s=$(screen)
like "$s" "/200( |$)" "the list counts all 200 tasks"
like "$(printf '%s\n' "$s" | sed -n 3p)" "commit 200" "the newest task is on top"
stop_tmux
done_testing
