#!/bin/sh
# The Search view (tui/view_hits.c): S then / in the Tasks view searches
# inside every step; the hits name task, step and field with a terminal-safe
# snippet, Enter opens the task at that step, a secret typed in a task is not
# found, a search without hits says so, and the hits follow the database
# (another process's new steps appear, retention's removals go).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8 AMC_TUI_NOW=1767229200000
export AMC_OCR_POLICY=off
d=$T_HOME/dump
mkdir -p "$d"
F=$AMC_TEST_SRCDIR/data/flows
"$AMC" sim reset >/dev/null
"$AMC" run --flow "$F/wifi-off-on.yaml" >/dev/null 2>&1; ok_status $? "a flow through Settings ran"
wid=$("$AMC" tasks --json | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1)
"$AMC" sim reset >/dev/null
"$AMC" run --flow "$F/add-contact.yaml" >/dev/null 2>&1; ok_status $? "a flow through Contacts ran"
# A secret typed into a field, and hostile text in a flow's command.
cat >"$T_HOME/secret.yaml" <<'Y'
appId: com.amc.notes
---
- launchApp:
    clearState: true
- tapOn: "New note"
- inputText: "{{secret:NOTE_PIN}}"
- back
- back
Y
"$AMC" sim reset >/dev/null
AMC_SECRET_NOTE_PIN=Xq9secretpin "$AMC" run --flow "$T_HOME/secret.yaml" >/dev/null 2>&1
ok_status $? "a flow typing a secret ran"
printf 'appId: com.android.settings\n---\n- launchApp\n- assertVisible: "Unicorn\033]52;c;aGk=\007\033[31mred"\n' >"$T_HOME/hostile.yaml"
"$AMC" run --flow "$T_HOME/hostile.yaml" >/dev/null 2>&1

keys() { printf '%s\n' "$@" >"$T_HOME/keys"; }
# the step where wifi-off-on tapped Wi-Fi: the hit opens it
keys S ':dump hits-mode' / ':type HomeNet' Enter ':dump hits' Enter ':dump hits-open'
"$AMC" tui --script "$T_HOME/keys" --dump-dir "$d" --size 140x30 </dev/null; ok_status $? "amc tui in script mode"
like "$(cat "$d/hits-mode.txt")" "/=steps" "S: the Tasks view says / searches steps"
h=$(cat "$d/hits.txt")
like "$h" 'Search in steps: "HomeNet"  [0-9]+ hits' "the Search view names the query and counts the hits"
like "$h" "${wid%????????} +[0-9]+ screen" "a hit names the task, the step and the field"
# the first hit (selected): the row after the column header
first=$(printf '%s\n' "$h" | sed -n '/TASK *STEP FIELD/{n;p;q}')
tid=$(printf '%s\n' "$first" | awk '{print $1}')
step=$(printf '%s\n' "$first" | awk '{print $2}')
diag "first hit: $first"
like "$(sed -n 2p "$d/hits-open.txt")" " $tid " "Enter opens the task of the hit ($tid)"
is "$(grep -cE '│> +'"$step"' ' "$d/hits-open.txt")" 1 "at its step ($step)"
# no hits, the secret, hostile text
keys S / ':type Xq9secretpin' Enter ':dump hits-secret' Esc / ':type nosuchwordanywhere' Enter ':dump hits-none' \
	Esc / ':type Unicorn' Enter ':dump hits-hostile'
"$AMC" tui --script "$T_HOME/keys" --dump-dir "$d" --size 140x30 </dev/null
like "$(cat "$d/hits-secret.txt")" "no step matches" "a typed secret is not found"
like "$(cat "$d/hits-none.txt")" "no step matches" "a search without hits says so"
like "$(cat "$d/hits-hostile.txt")" "Unicorn" "a hit in hostile text is listed"
ok_status $(grep -q "$(printf '\033')" "$d/hits-hostile.txt"; echo $((! $?))) "and its escape bytes never reach the screen"

# The hits follow the database: the TUI's script comes through a FIFO so that
# another process can write between two screens.
mkfifo "$T_HOME/live.keys"
"$AMC" tui --script "$T_HOME/live.keys" --dump-dir "$d" --size 140x30 </dev/null & tpid=$!
exec 7>"$T_HOME/live.keys"
printf '%s\n' S / ':type HomeNet' Enter ':dump live-before' >&7
wait_for 10 test -s "$d/live-before.txt"
n0=$(sed -n 's/.*"HomeNet"  \([0-9]*\) hits.*/\1/p' "$d/live-before.txt")
"$AMC" sim reset >/dev/null
"$AMC" run --flow "$F/wifi-off-on.yaml" >/dev/null 2>&1
printf '%s\n' ':changes' ':dump live-more' >&7
wait_for 10 test -s "$d/live-more.txt"
n1=$(sed -n 's/.*"HomeNet"  \([0-9]*\) hits.*/\1/p' "$d/live-more.txt")
ok "$([ -n "$n0" ] && [ -n "$n1" ] && [ "$n1" -gt "$n0" ]; echo $((! $?)))" \
	"another process's new steps are found without a new search ($n0 -> $n1 hits)"
"$AMC" retention --keep 1 >/dev/null 2>&1
printf '%s\n' ':changes' ':dump live-kept' Enter ':dump live-open' q >&7
exec 7>&-
wait $tpid
newest=$("$AMC" tasks --json | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1)
others=$(sed -n '/TASK *STEP FIELD/,$p' "$d/live-kept.txt" | awk 'NR > 1 && $1 ~ /^[0-9a-z]+$/ {print $1}' | grep -vc "^${newest%????????}$")
is "$others" 0 "the hits of tasks retention removed are gone"
like "$(sed -n 2p "$d/live-open.txt")" " ${newest%????????} " "Enter opens a task that is there"
done_testing
