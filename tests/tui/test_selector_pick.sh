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
# step 9 is tapOn "Save" (step 1 clears Contacts' state): its tree (after) is
# the contact's page; search for the name
cat >"$T_HOME/k" <<'KEYS'
Enter
j j j j j j j j
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

# --- picking on the screenshot (issue 27): p picks the first element of the
# After image, j the next; a click on the After image picks the element under
# it; x zooms both screenshots to it. At 200x50 the After pane of this task
# spans columns 130-199 and rows 3-29 (timeline 60 columns wide): row 12 of
# column 165 is the contact page's Edit button, row 15 the bare card.
cat >"$T_HOME/k2" <<'KEYS'
Enter
j j j j j j j j
p
:dump p-first
j
:dump p-next
Esc
:click 15,165
:dump p-click-none
:click 12,165
:dump p-click
x
:dump p-zoom
Y
:dump p-copied
2
:dump p-ocr-recorded
R
:dump p-ocr-full
KEYS
d2=$T_HOME/dump2
mkdir -p "$d2"
"$AMC" tui --script "$T_HOME/k2" --dump-dir "$d2" --size 200x50 2>"$T_HOME/err2"; ok_status $? "the picking script runs"
sed -n 4p "$d2/p-first.txt" | grep -q '─ After · pick ─'
ok_status $? "p: the After pane says it is picking"
first=$(tail -n 1 "$d2/p-first.txt")
next=$(tail -n 1 "$d2/p-next.txt")
diag "p: $first"
diag "j: $next"
like "$first" '^tapOn: \{.*\}  <- ' "p shows the first element's selector and what it is"
[ "$first" != "$next" ]
ok_status $? "j picks another element"
clicked=$(tail -n 1 "$d2/p-click.txt")
diag "click: $clicked"
like "$clicked" '^tapOn: \{.*<- Button "Edit"' "a click on the After image picks the element under it (the Edit button)"
like "$(tail -n 1 "$d2/p-click-none.txt")" '^no element to pick at [0-9]+,[0-9]+ ' "a click on a bare part says so, with the pixel"
grep -q '┌' "$d2/p-click.txt"
ok_status $? "and outlines it"
sed -n 4p "$d2/p-zoom.txt" | grep -q 'Before · zoom' && sed -n 4p "$d2/p-zoom.txt" | grep -q 'After · zoom · pick'
ok_status $? "x zooms both screenshots"
like "$(tail -n 1 "$d2/p-copied.txt")" "^tapOn: " "Y copies the picked element's command"
# --- the OCR tab says what it shows; R reads the whole stored screen now
grep -q 'OCR of Before: 0 words (R: full), ocr.policy off' "$d2/p-ocr-recorded.txt"
ok_status $? "the OCR tab names the screen, the policy (off here) and R"
n=$(sed -n 's/.*OCR of Before: \([0-9]*\) words\{0,1\}, full OCR read now.*/\1/p' "$d2/p-ocr-full.txt" | head -n 1)
diag "full OCR read ${n:-no} words"
[ "${n:-0}" -gt 5 ]
ok_status $? "R: full OCR of the stored Before screen, labelled as read now"
done_testing
