#!/bin/sh
# Issue 27, failures you can read: a flow that fails on the sim, opened in
# the TUI (script mode) at 80x24 and 200x50. The failing step is selected,
# the error has its own box with what was on screen one item a line, the
# zoomed Operation pane wraps the whole error and shows the flow's source
# around the step's line; the bundled add-contact's step 4 (tapOn id="name"
# on the focused field) is not flagged "changed nothing".
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8 AMC_ADB_PATH=/nonexistent/adb
unset DISPLAY WAYLAND_DISPLAY
flow=$T_HOME/bt.yaml
cat >"$flow" <<'YAML'
appId: com.android.settings
name: Find Bluetooth pairing
---
- launchApp
- tapOn: "Wi-Fi"
- assertVisible: "HomeNet"
- tapOn: "Pair a new Bluetooth device with a very long name that does not exist anywhere"
- assertVisible: "Paired"
YAML
"$AMC" run --flow "$flow" >"$T_HOME/run.out" 2>&1
[ $? -ne 0 ]
ok_status $? "the flow fails"
cat >"$T_HOME/k" <<'KEYS'
:dump list
Enter
:dump open
Tab Tab Tab
z
:dump zoom
j j j j j j j j j j j j j j j j
:dump zoom-source
Esc
S-Tab
z
:dump zoom-images
Esc
O
:dump open-image
Esc
Enter
x
:dump crop
KEYS
for size in 80x24 200x50; do
	d=$T_HOME/dump-$size
	mkdir -p "$d"
	"$AMC" tui --script "$T_HOME/k" --dump-dir "$d" --size $size 2>"$T_HOME/err"
	ok_status $? "script runs at $size"
	grep -q ' sim:0  *4 ' "$d/list.txt"
	ok_status $? "$size: the DEVICE column shows the whole device"
	[ $size = 80x24 ] && { grep -qE ' [0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}$' "$d/list.txt"; ok_status $? "80x24: STARTED is short"; }
	grep -q '^│>  4 ✗' "$d/open.txt"
	ok_status $? "$size: the failing step 4 is selected on opening"
	grep -q '─ Error ─' "$d/open.txt"
	ok_status $? "$size: the error has its own box"
	grep -q 'on screen:' "$d/open.txt" && grep -q "'Navigate up'" "$d/open.txt"
	ok_status $? "$size: what was on screen is in the box"
	grep -q 'does not exist anywhere"' "$d/zoom.txt"
	ok_status $? "$size: the zoomed Operation pane wraps the whole error"
	grep -q "^│    'Wi-Fi' *│" "$d/zoom.txt" || grep -q "^│    'Wi-Fi' *│" "$d/zoom-source.txt"
	ok_status $? "$size: one on-screen item a line"
	cat "$d/zoom.txt" "$d/zoom-source.txt" | grep -q "source: .*bt.yaml:7"
	ok_status $? "$size: the step's source file and line"
	cat "$d/zoom.txt" "$d/zoom-source.txt" | grep -q '^│>   7 | - tapOn: "Pair'
	ok_status $? "$size: the step's line marked among its neighbours"
	cat "$d/zoom.txt" "$d/zoom-source.txt" | grep -q '^│    6 | - assertVisible: "HomeNet"'
	ok_status $? "$size: the line before it shown"
	grep -q '─ Before ─' "$d/zoom-images.txt" && grep -q '─ After ─' "$d/zoom-images.txt" && ! grep -q '─ Timeline ─' "$d/zoom-images.txt"
	ok_status $? "$size: a zoomed screenshot shows before and after side by side, on the whole terminal"
	grep -q 'screenshot: .*/obs-[0-9]*\.png' "$d/open-image.txt"
	ok_status $? "$size: O without a desktop shows the screenshot's path"
	grep -q 'zoomed to the .*no target' "$d/crop.txt"
	ok_status $? "$size: x on a step without a target says so, not 'the step's target'"
done
[ -n "${AMC_TEST_VERBOSE:-}" ] && cat "$T_HOME/dump-80x24/open.txt"

"$AMC" run --flow "$AMC_TEST_SRCDIR/data/flows/add-contact.yaml" >"$T_HOME/run2.out" 2>&1
ok_status $? "bundled add-contact passes"
"$AMC" show "$(awk '/task [0-9a-z]* succeeded/ { print $3 }' "$T_HOME/run2.out")" >"$T_HOME/show" 2>&1
ok_status $? "amc show it"
grep -q 'changed nothing' "$T_HOME/show"
[ $? -ne 0 ]
ok_status $? "no step of add-contact is flagged 'changed nothing' (step 5 taps the focused field)"

# The bundled flows start from a known state: add-contact clears Contacts
# first, so a second run leaves one "Ada Lovelace", not two.
"$AMC" run --flow "$AMC_TEST_SRCDIR/data/flows/add-contact.yaml" >"$T_HOME/run3.out" 2>&1
ok_status $? "add-contact passes a second time"
n=$("$AMC" sim state | sed -n '/"contacts":/,$p' | grep -c '"name":[[:space:]]*"Ada Lovelace"')
is "$n" 1 "after two runs the sim holds one Ada Lovelace"
done_testing
