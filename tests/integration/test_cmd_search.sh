#!/bin/sh
# test_cmd_search.sh - `amc search`: bundled flows on the sim, then what a user
# types: Wi-Fi as words (no FTS syntax needed), --fts phrases, prefixes and
# a syntax error (exit 2), --task/--status/--since/--limit, --json, newest
# first, terminal-safe output, and a typed secret that is nowhere in the index.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
AMC_OCR_POLICY=off; export AMC_OCR_POLICY
FLOWS="$AMC_TEST_SRCDIR/data/flows"
ids() { sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p'; }

out=$("$AMC" search 2>&1); is $? 2 "no words -> 2"
like "$out" "search for what" "says what is missing"
out=$("$AMC" search --since 3x wifi 2>&1); is $? 2 "a bad duration -> 2"
like "$out" "30m, 2h, 7d" "says what a duration looks like"
out=$("$AMC" search --status nope wifi 2>&1); is $? 2 "an unknown status -> 2"
out=$("$AMC" search --bogus wifi 2>&1); is $? 2 "a bad option -> 2"
is "$(printf '%s\n' "$out" | grep -c 'bogus\|unknown option')" 1 "one error line for a bad option (getopt's), not two"
out=$("$AMC" search Wi-Fi); is $? 1 "no match exits 1, as grep does (scripts: 0 found, 1 none, 2 usage)"
is "$out" "no matches" "and says there is nothing"

"$AMC" run --flow "$FLOWS/add-contact.yaml" >/dev/null 2>&1; ok_status $? "the contact flow ran"
"$AMC" run --flow "$FLOWS/wifi-off-on.yaml" >/dev/null 2>&1; ok_status $? "the Wi-Fi flow ran"
wid=$("$AMC" tasks --json | ids | sed -n 1p)
cid=$("$AMC" tasks --json | ids | sed -n 2p)

out=$("$AMC" search Wi-Fi); ok_status $? "search Wi-Fi"
like "$out" "^  TASK +STEP +FIELD +WHEN +MATCH$" "a header"
like "$out" "$wid +- +goal .*Turn \[Wi-Fi\] off and on" "the goal (flow name), the match in brackets"
like "$out" "$wid +2 +description .*tapOn \"\[Wi-Fi\]\"" "a step's description"
like "$out" "$wid +[0-9]+ +screen .*\[Wi-Fi\] is off" "what was on the screen"
ok "$(printf '%s\n' "$out" | grep -c "$cid" | grep -qx 0 && echo 1 || echo 0)" "the contact task does not match"
first=$(printf '%s\n' "$out" | sed -n 2p)
like "$first" "summary" "newest first: the task's summary was written last"
steps=$(printf '%s\n' "$out" | awk '$3 ~ /^[0-9]+$/ {print $3}' | head -n 5 | tr '\n' ' ')
is "$steps" "$(printf '%s\n' $steps | sort -rn | tr '\n' ' ')" "steps in descending order"
like "$("$AMC" search fi wi)" "$wid +- +goal .*\[Wi\]-\[Fi\]" "two words: each required, in any order"
is "$("$AMC" search 'use wi-fi' | grep -c description)" 2 "'use wi-fi': both tapOn \"Use Wi-Fi\" steps"
out=$("$AMC" search 'NOT' 2>&1); ok_status $? "a bare NOT is a word without --fts"

# --fts
out=$("$AMC" search --fts '"Ada Lovelace"'); ok_status $? "--fts phrase"
like "$out" "$cid .*\[Ada Lovelace\]" "finds the contact task"
out=$("$AMC" search --fts 'Lovel*'); like "$out" "\[Lovelace\]" "--fts prefix"
out=$("$AMC" search --fts 'wifi OR lovelace' --json | grep -c '"task_id"'); ok "$([ "$out" -ge 4 ] && echo 1 || echo 0)" "--fts OR: both tasks ($out hits)"
out=$("$AMC" search --fts 'wi AND NOT' 2>&1); is $? 2 "--fts syntax error -> 2"
like "$out" "bad search expression: fts5: syntax error" "says the expression is bad"
like "$out" "without --fts" "and how to search the words as they are"

# filters
out=$("$AMC" search --task "$(printf %.12s "$cid")" Contacts); ok_status $? "--task by prefix"
ok "$(printf '%s\n' "$out" | grep -c "$wid" | grep -qx 0 && echo 1 || echo 0)" "--task: only that task"
like "$out" "$cid" "--task: that task's hits"
out=$("$AMC" search --status failed Wi-Fi); is $? 1 "--status failed: none, exit 1"
is "$out" "no matches" "--status failed: none"
out=$("$AMC" search --status succeeded Wi-Fi); like "$out" "$wid" "--status succeeded: the Wi-Fi task"
out=$("$AMC" search --since 1h Wi-Fi); like "$out" "$wid" "--since 1h"
out=$("$AMC" search --limit 2 Wi-Fi); is "$(printf '%s\n' "$out" | grep -c " $wid ")" 2 "--limit 2"
like "$out" "the newest 2; --limit N for more" "says there may be more"
out=$("$AMC" search --task nosuchtask Wi-Fi 2>&1); is $? 2 "--task unknown -> 2"

# --json
json=$("$AMC" search --json --limit 3 Wi-Fi); ok_status $? "--json"
like "$json" '"query":[[:space:]]*"Wi-Fi"' "echoes the query"
like "$json" '"field":[[:space:]]*"(summary|screen|description|goal)"' "hits have a field"
like "$json" '"highlights":[[:space:]]*\[\[[0-9]+, ?5\]' "and the byte spans of Wi-Fi (5 bytes)"
like "$json" '"more":[[:space:]]*true' "and say there is more"
if command -v python3 >/dev/null; then
	printf '%s' "$json" | python3 -c 'import json,sys; d=json.load(sys.stdin); h=d["hits"]; assert all(h[i]["id"]>h[i+1]["id"] for i in range(len(h)-1)); s=h[0]["snippet"]; a,l=h[0]["highlights"][0]; assert s.encode()[a:a+l].decode().lower()=="wi-fi", s' 2>&1
	ok_status $? "--json parses: ids descending, a span is the match"
fi

# hostile text from a screen or a goal is terminal-safe
sqlite3_ok=$(command -v sqlite3 || true)
if [ -n "$sqlite3_ok" ]; then
	esc=$(printf '\033]0;pwned\007Kangaroo\033[2J\342\200\256evil')
	sqlite3 "$AMC_HOME/amc.db" "UPDATE tasks SET error = '$esc' WHERE id = '$cid'"
	out=$("$AMC" search Kangaroo); ok_status $? "a hostile task error is found"
	like "$out" "Kangaroo" "the match shows"
	is "$(printf '%s' "$out" | tr -d '\n' | LC_ALL=C grep -c "$(printf '\033')")" 0 "no escape byte reaches the terminal"
	is "$(printf '%s' "$out" | grep -c "$(printf '\342\200\256')")" 0 "no bidi override either"
else
	diag "sqlite3 not installed: the hostile-text check needs it to plant a row"
fi

# a typed secret is masked before it is recorded, so the index never holds it
SECRET=73188642
printf 'appId: com.android.contacts\nname: Secret contact\n---\n- launchApp\n- tapOn: "Add contact"\n- tapOn:\n    id: "name"\n- inputText: "Grace Secret"\n- tapOn:\n    id: "phone"\n- inputText: "{{secret:PHONE}}"\n- tapOn: "Save"\n' >"$T_HOME/secret.yaml"
AMC_OCR_POLICY=full AMC_SECRET_PHONE=$SECRET "$AMC" run --flow "$T_HOME/secret.yaml" >/dev/null 2>&1; ok_status $? "a flow typed a secret (OCR on)"
like "$("$AMC" sim state)" "$SECRET" "the device got the value"
out=$("$AMC" search "$SECRET"); is "$out" "no matches" "searching for the secret finds nothing"
out=$("$AMC" search --fts "${SECRET%????}*"); is "$out" "no matches" "nor does a prefix of it"
like "$("$AMC" search --fts '"Grace Secret"')" "Grace Secret" "the rest of that task is indexed"
like "$("$AMC" search 'secret:PHONE')" "inputText" "the placeholder is what was recorded"

# retention removes the index rows with the task
like "$("$AMC" search "Turn Wi-Fi off")" "goal" "before retention the Wi-Fi task's goal is found"
"$AMC" retention --keep 1 >/dev/null; ok_status $? "retention keeps the newest task"
is "$("$AMC" search "Turn Wi-Fi off")" "no matches" "the removed tasks' texts are gone from the index"
done_testing
