#!/bin/sh
# test_cmd_doctor.sh - `amc doctor`: each check ok, warn or fail with its fix,
# exit 0 when nothing failed and 3 otherwise, --json, and keys never printed.
# Phones come from the adb stand-in (first on PATH as `adb`).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
mkdir -p "$T_HOME/bin"
ln -s "$AMC_TEST_BUILDDIR/tests/tools/adb-standin" "$T_HOME/bin/adb"
PATH="$T_HOME/bin:$PATH"; export PATH
AMC_ADB_STANDIN_SERIALS=emulator-5554; export AMC_ADB_STANDIN_SERIALS
unset ANTHROPIC_API_KEY AMC_APPIUM_ENDPOINTS AMC_LLM_ANTHROPIC_KEY_FILE AMC_ADB_PATH
no_secret() { # no_secret TEXT NAME
	ok_status $(printf '%s' "$1" | grep -q 'secret-do-not-print'; [ $? -ne 0 ]; echo $?) "$2"
}

"$AMC" tasks >/dev/null  # creates amc.db, which doctor checks but never creates

# An unauthorized phone, an Appium endpoint nobody listens on, a key.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 1)
AMC_APPIUM_ENDPOINTS="http://127.0.0.1:$port"; export AMC_APPIUM_ENDPOINTS
AMC_ADB_STANDIN_UNAUTHORIZED=R58M123ABC; export AMC_ADB_STANDIN_UNAUTHORIZED
ANTHROPIC_API_KEY=sk-ant-secret-do-not-print; export ANTHROPIC_API_KEY
out=$("$AMC" doctor 2>&1); rc=$?
is $rc 3 "doctor exits 3 when something failed"
like "$out" 'ok +adb +.*adb' "adb found"
like "$out" 'ok +adb:emulator-5554 +connected and authorized' "the phone is fine"
like "$out" 'fail +adb:R58M123ABC +unauthorized' "the unauthorized phone fails"
like "$out" "Allow USB debugging" "with the fix"
like "$out" "fail +appium +http://127.0.0.1:$port does not answer" "unreachable Appium endpoint"
like "$out" 'ok +anthropic key +set in ANTHROPIC_API_KEY \(not shown\)' "key present"
no_secret "$out" "the key itself is never printed"
like "$out" 'ok +database +amc.db quick_check: ok' "database checked"
like "$out" 'ok +javascript +amc-js at .*/amc-js runs a script in its sandbox' "amc-js found beside amc and runs"
AMC_JS=/nonexistent/amc-js "$AMC" doctor >"$T_HOME/out" 2>&1
like "$(cat "$T_HOME/out")" 'fail +javascript +the helper amc-js is not at /nonexistent/amc-js' "a missing amc-js fails"
like "$(cat "$T_HOME/out")" 'set AMC_JS' "with the fix"
like "$out" '^2 problems, [0-9]+ warnings?$' "a summary line counts the problems"
json=$("$AMC" doctor --json 2>/dev/null)
like "$json" '"ok":[[:space:]]*false' "doctor --json says not ok"
like "$json" '"name":[[:space:]]*"locale"' "and lists the checks"
no_secret "$json" "no key in the JSON either"
unset AMC_APPIUM_ENDPOINTS AMC_ADB_STANDIN_UNAUTHORIZED ANTHROPIC_API_KEY
AMC_ADB_PATH=/nonexistent/adb "$AMC" doctor >"$T_HOME/out" 2>&1; rc=$?
like "$(cat "$T_HOME/out")" "warn +adb +adb program '/nonexistent/adb' not found" "missing adb is a warning"
like "$(cat "$T_HOME/out")" "apt install adb" "with the package to install"

# --- warnings only: exit 0 ---------------------------------------------------------------------
AMC_ADB_PATH=/nonexistent/adb; export AMC_ADB_PATH
out=$(TERM=dumb "$AMC" doctor); is $? 0 "only warnings: exit 0"
like "$out" '^0 problems, [1-9][0-9]* warnings?$' "the summary says no problems"
like "$out" 'warn +anthropic key +no Anthropic API key: goal tasks .* flows can' "no key is a warning"
like "$out" 'fix: export ANTHROPIC_API_KEY=sk-ant-' "saying how to set one"
like "$out" 'warn +terminal +TERM=dumb' "TERM=dumb is a warning"
like "$out" 'fix: the TUI needs a real terminal' "with the fix"
like "$out" "ok +home +$AMC_HOME, mode 700" "the data folder is fine"
like "$out" 'ok +locale +character set UTF-8' "the UTF-8 locale is fine"
json=$("$AMC" doctor --json); is $? 0 "--json with warnings only: exit 0"
like "$json" '"ok":[[:space:]]*true' "--json says ok"
one=$(printf '%s\n' "$json" | tr -d '\n\t' | grep -o '{"name":[[:space:]]*"locale"[^}]*}')
like "$one" '"status":[[:space:]]*"ok",[[:space:]]*"detail":[[:space:]]*"character set UTF-8",[[:space:]]*"fix":[[:space:]]*null' "--json: a check with name, status, detail and a null fix"
out=$(LC_ALL=C "$AMC" doctor); like "$out" 'warn +locale +character set ' "a non-UTF-8 locale is a warning"
like "$out" 'export LANG=C.UTF-8' "with the fix"

# --- failures: the data folder, the database, the key file ---------------------------------------------
chmod 755 "$AMC_HOME"
out=$("$AMC" doctor); like "$out" "warn +home +$AMC_HOME, mode 755" "a data folder others can read is a warning"
like "$out" "fix: screenshots may show private data: chmod 700 $AMC_HOME" "with the chmod"
chmod 700 "$AMC_HOME"
mv "$AMC_HOME/amc.db" "$T_HOME/amc.db.good"
i=0; while [ $i -lt 200 ]; do printf 'not a database '; i=$((i + 1)); done >"$AMC_HOME/amc.db"
out=$("$AMC" doctor); is $? 3 "a corrupt database: exit 3"
like "$out" 'fail +database +amc.db quick_check: file is not a database' "a corrupt database fails"
like "$out" "sqlite3 amc.db '.recover'" "with how to recover it"
mv "$T_HOME/amc.db.good" "$AMC_HOME/amc.db"
KEYFILE="$T_HOME/anthropic.key"
out=$(AMC_LLM_ANTHROPIC_KEY_FILE="$KEYFILE" "$AMC" doctor); is $? 3 "a missing key file: exit 3"
like "$out" "fail +anthropic key +llm.anthropic_key_file $KEYFILE does not exist" "a missing key file fails"
printf 'sk-ant-secret-do-not-print\n' >"$KEYFILE"; chmod 644 "$KEYFILE"
out=$(AMC_LLM_ANTHROPIC_KEY_FILE="$KEYFILE" "$AMC" doctor); is $? 3 "a key file others can read: exit 3"
like "$out" "fail +anthropic key +llm.anthropic_key_file $KEYFILE is readable by others" "says so"
like "$out" "fix: chmod 600 $KEYFILE" "with the chmod"
chmod 600 "$KEYFILE"
out=$(AMC_LLM_ANTHROPIC_KEY_FILE="$KEYFILE" "$AMC" doctor); is $? 0 "a 0600 key file: exit 0"
like "$out" "ok +anthropic key +in $KEYFILE \(not shown\)" "the key file is fine"
no_secret "$out" "the key from the file is never printed"

out=$("$AMC" doctor extra 2>&1); is $? 2 "an extra argument -> 2"
like "$out" "unexpected argument 'extra'" "the extra argument is named"

# Issue 27: the graphics protocol is named, and how to get real pixels.
out=$(env -u TMUX -u KITTY_WINDOW_ID -u TERM_PROGRAM TERM=xterm-256color "$AMC" doctor 2>&1)
like "$out" 'screenshots as symbols only: this terminal offers no sixel or kitty graphics' "no protocol: said so"
like "$out" 'xterm -ti vt340' "... with how to get sixel"
out=$(env -u TMUX TERM=xterm-kitty "$AMC" doctor 2>&1)
like "$out" 'screenshots as kitty graphics protocol' "kitty named"
out=$(env -u TMUX -u KITTY_WINDOW_ID -u TERM_PROGRAM TERM=foot "$AMC" doctor 2>&1)
like "$out" 'screenshots as sixel' "foot: sixel"
out=$(TMUX=/tmp/x,1,0 TERM=screen-256color "$AMC" doctor 2>&1)
like "$out" 'inside tmux' "inside tmux: said why symbols"

done_testing
