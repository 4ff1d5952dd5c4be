#!/bin/sh
# Issue 27, pick an element, get the selector: in a Task view's UI-tree tab,
# Y shows the selected node's Maestro command (flow/selgen.c, checked to find
# exactly that node) on the status line and, on a terminal, puts it on the
# clipboard with OSC 52: checked by the bytes amc writes to a pty (script(1)
# gives it one; tmux 3.3a's goldens would not show them).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8 AMC_ADB_PATH=/nonexistent/adb AMC_OCR_POLICY=off
"$AMC" sim reset >/dev/null
"$AMC" run --flow "$AMC_TEST_SRCDIR/data/flows/add-contact.yaml" >/dev/null 2>&1; ok_status $? "add-contact ran"
# step 8 is tapOn "Save": its tree (after) is the contact's page; search for the name
cat >"$T_HOME/k" <<'KEYS'
Enter
j j j j j j j
S-Tab
/
:type Lovelace
Enter
Y
:dump picked
2
Y
:dump none
KEYS
d=$T_HOME/dump
mkdir -p "$d"
"$AMC" tui --script "$T_HOME/k" --dump-dir "$d" --size 200x50 2>"$T_HOME/err"; ok_status $? "the script runs"
line=$(tail -n 1 "$d/picked.txt")
diag "status line: $line"
like "$line" '^ *tapOn: \{(id|text): "' "Y shows the node's Maestro command on the status line"
like "$(tail -n 1 "$d/none.txt")" "select a node in the UI tree" "on another tab it says what to do"
# the bytes on a terminal: script(1) runs amc on a pty and records them
command -v script >/dev/null 2>&1 || { done_testing; exit; }
script -q -e -c "\"$AMC\" tui --script \"$T_HOME/k\" --dump-dir \"$d\" --size 200x50" "$T_HOME/typescript" >/dev/null 2>&1
ok_status $? "the same script on a pty"
sel=$(printf '%s' "$line" | sed 's/^ *//; s/   (copied: OSC 52)$//; s/ *$//')
b64=$(printf '%s' "$sel" | base64 -w 0)
grep -q -F "$(printf '\033]52;c;%s\007' "$b64")" "$T_HOME/typescript"
ok_status $? "OSC 52 with exactly that command in base64 went to the terminal"
grep -c -F "$(printf '\033]52;c;')" "$T_HOME/typescript" >"$T_HOME/n"
is "$(cat "$T_HOME/n")" 1 "once: the Y with nothing selected copies nothing"
done_testing
