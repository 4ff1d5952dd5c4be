#!/bin/sh
# Many devices and the doctor through the real binary: `amc devices` lists the
# sims and the phones of the adb stand-in (first on PATH as `adb`), a bundled
# flow runs unchanged on adb:SERIAL, and `amc doctor` explains an unauthorized
# phone and an unreachable Appium server without ever printing a key.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
mkdir -p "$T_HOME/bin"
ln -s "$AMC_TEST_BUILDDIR/tests/tools/adb-standin" "$T_HOME/bin/adb"
PATH="$T_HOME/bin:$PATH"; export PATH
AMC_ADB_STANDIN_SERIALS=emulator-5554; export AMC_ADB_STANDIN_SERIALS
# OCR is not under test here; it would only cost time on every capture.
AMC_OCR_POLICY=off; export AMC_OCR_POLICY

out=$("$AMC" devices); ok $? "devices"
like "$out" 'sim:0 +sim +amc sim +1080x2400 +online' "sim:0 listed"
like "$out" 'adb:emulator-5554 +adb .*1080x2400 +online' "the adb phone listed with its screen"
json=$("$AMC" devices --json); ok $? "devices --json"
like "$json" '"id":[[:space:]]*"adb:emulator-5554"' "json has the adb id"
like "$json" '"kind":[[:space:]]*"adb"' "json has the kind"

out=$("$AMC" run --flow create-note --device adb:emulator-5554 --json 2>"$T_HOME/err"); rc=$?
is $rc 0 "create-note flow runs unchanged on adb:emulator-5554"
like "$out" '"status":[[:space:]]*"succeeded"' "and succeeds"
like "$("$AMC" sim state)" '"body":[[:space:]]*"Milk, eggs, bread"' "the phone (sim:0 behind the stand-in) has the note"
"$AMC" run --flow create-note --device 'adb:x;reboot' >/dev/null 2>"$T_HOME/err"; rc=$?
is $rc 2 "a malformed adb id is a usage error"
like "$(cat "$T_HOME/err")" 'adb:SERIAL' "naming the valid forms"
AMC_ADB_STANDIN_SERIALS=other-1 "$AMC" run --flow create-note --device adb:emulator-5554 >/dev/null 2>"$T_HOME/err"; rc=$?
is $rc 3 "a phone that is not connected is an environment error"
like "$(cat "$T_HOME/err")" 'not connected' "saying so"

# Doctor: an unauthorized phone, an Appium endpoint nobody listens on, a key.
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
ok $(printf '%s' "$out" | grep -q 'secret-do-not-print'; [ $? -ne 0 ]; echo $?) "the key itself is never printed"
like "$out" 'ok +database +amc.db quick_check: ok' "database checked"
json=$("$AMC" doctor --json 2>/dev/null)
like "$json" '"ok":[[:space:]]*false' "doctor --json says not ok"
like "$json" '"name":[[:space:]]*"locale"' "and lists the checks"
ok $(printf '%s' "$json" | grep -q 'secret-do-not-print'; [ $? -ne 0 ]; echo $?) "no key in the JSON either"
unset AMC_APPIUM_ENDPOINTS AMC_ADB_STANDIN_UNAUTHORIZED ANTHROPIC_API_KEY
AMC_ADB_PATH=/nonexistent/adb "$AMC" doctor >"$T_HOME/out" 2>&1; rc=$?
like "$(cat "$T_HOME/out")" "warn +adb +adb program '/nonexistent/adb' not found" "missing adb is a warning"
like "$(cat "$T_HOME/out")" "apt install adb" "with the package to install"
done_testing
