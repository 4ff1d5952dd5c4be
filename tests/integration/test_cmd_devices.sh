#!/bin/sh
# test_cmd_devices.sh - many devices through the real binary: `amc devices`
# lists the sims and the phones of the adb stand-in (first on PATH as `adb`),
# and a bundled flow runs unchanged on adb:SERIAL. (`amc doctor` explaining
# the same phones: test_cmd_doctor.sh.)
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
mkdir -p "$T_HOME/bin"
ln -s "$AMC_TEST_BUILDDIR/tests/tools/adb-standin" "$T_HOME/bin/adb"
PATH="$T_HOME/bin:$PATH"; export PATH
AMC_ADB_STANDIN_SERIALS=emulator-5554; export AMC_ADB_STANDIN_SERIALS
# OCR is not under test here; it would only cost time on every capture.
AMC_OCR_POLICY=off; export AMC_OCR_POLICY

out=$("$AMC" devices); ok_status $? "devices"
like "$out" 'sim:0 +sim +amc sim +1080x2400 +online' "sim:0 listed"
like "$out" 'adb:emulator-5554 +adb .*1080x2400 +online' "the adb phone listed with its screen"
json=$("$AMC" devices --json); ok_status $? "devices --json"
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

# sim:N appears once it has been used; sims stay online without adb.
"$AMC" sim --device sim:2 state >/dev/null
out=$("$AMC" devices); like "$out" 'sim:2 +sim +amc sim +1080x2400 +online +-' "sim:2 listed once used"
ok_status $(printf '%s' "$out" | grep -q '^sim:1 '; [ $? -ne 0 ]; echo $?) "an unused sim:1 is not"
one=$("$AMC" devices --json | tr -d '\n\t ' | grep -o '{"id":"sim:0"[^}]*}')
like "$one" '"kind":"sim","model":"amcsim","width":1080,"height":2400,"status":"online","task":null' "json: sim:0 with screen, status and no task"
if PATH=/usr/bin:/bin command -v adb >/dev/null 2>&1; then
	diag "adb is installed in /usr/bin: a missing default adb not checked"
else
	out=$(PATH=/usr/bin:/bin "$AMC" devices 2>"$T_HOME/err"); is $? 0 "no adb on PATH: still exit 0"
	like "$out" '^sim:0 ' "the sims are still listed"
	is "$(cat "$T_HOME/err")" "" "and a missing default adb is not worth a warning"
fi
AMC_ADB_PATH=/nonexistent/adb "$AMC" devices >/dev/null 2>"$T_HOME/err"; is $? 0 "a missing adb the user named: exit 0"
like "$(cat "$T_HOME/err")" "^amc devices: no adb devices listed: .*'/nonexistent/adb' not found" "but a warning names it"
out=$("$AMC" devices extra 2>&1); is $? 2 "an extra argument -> 2"
like "$out" "unexpected argument 'extra'" "the extra argument is named"
# --device sim:N for a sim that does not exist yet: run creates it, and says so
printf 'appId: com.android.settings\n---\n- launchApp\n' >"$T_HOME/one.yaml"
AMC_OCR_POLICY=off "$AMC" run --device sim:97 --flow "$T_HOME/one.yaml" >/dev/null 2>"$T_HOME/err"; is $? 0 "run on a new sim:97 runs"
diag "$(head -n 1 "$T_HOME/err")"
like "$(cat "$T_HOME/err")" "^amc: creating sim:97: a new simulated phone in its factory state \(existing sims: sim:0" "it says it creates sim:97, naming the existing sims"
AMC_OCR_POLICY=off "$AMC" run --device sim:97 --flow "$T_HOME/one.yaml" >/dev/null 2>"$T_HOME/err"; is $? 0 "a second run on sim:97"
case "$(cat "$T_HOME/err")" in *creating*) r=1 ;; *) r=0 ;; esac
ok_status $r "says nothing about creating it (it exists now)"
like "$("$AMC" devices)" "^sim:97 " "and devices lists it"
done_testing
