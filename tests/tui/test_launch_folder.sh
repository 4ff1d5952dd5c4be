#!/bin/sh
# Issue 27: the launch dialog takes a folder of flows, as `amc run --flow DIR`
# does (one task per flow); its footer offers j/k only on the lists.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8 AMC_ADB_PATH=/nonexistent/adb
mkdir -p "$T_HOME/suite"
cp "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" "$T_HOME/suite/"
cat >"$T_HOME/k" <<KEYS
n
j j j
:dump list
Tab
:type $T_HOME/suite
:dump folder
Enter
:dump launched
q
KEYS
mkdir -p "$T_HOME/d"
"$AMC" tui --script "$T_HOME/k" --dump-dir "$T_HOME/d" --size 100x30 2>"$T_HOME/err"
ok_status $? "script runs"
grep -q 'j/k: choose' "$T_HOME/d/list.txt"
ok_status $? "on the flow list the footer offers j/k"
grep -q 'type to edit' "$T_HOME/d/folder.txt" && ! grep -q 'j/k' "$T_HOME/d/folder.txt"
ok_status $? "in the file field it does not"
grep -q 'Launch a task' "$T_HOME/d/launched.txt"
ok_status $(( ! $? )) "the folder is accepted: the dialog closed"
wait_for 60 sh -c "'$AMC' tasks 2>/dev/null | grep -q 'succeeded.*Turn Wi-Fi'"
ok_status $? "the folder's flow ran as a task"
done_testing
