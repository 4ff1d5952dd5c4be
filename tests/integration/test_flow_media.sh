#!/bin/sh
# test_flow_media.sh - what the screen looks like, as flows ask for it:
# startRecording/stopRecording (the sim's frames as an animated PNG; adb's
# screenrecord pulled at the stop, through the stand-in), takeScreenshot with
# cropOn, assertScreenshot (reference, cropOn, thresholdPercentage) and the
# appearance commands setDarkMode, toggleDarkMode, assertDarkMode,
# assertLightMode - each passing only when the command had its effect - and
# the files shown by amc show and the HTML report.
# Maestro's readers and runners: YamlStartRecording/YamlStopRecording,
# YamlTakeScreenshot (cropOn), YamlAssertScreenshot (path,
# thresholdPercentage default 95, cropOn), Orchestra's takeScreenshotCommand
# and assertScreenshotCommand, ScreenshotMatch (the per-pixel tolerance 0.1,
# sizes must match), YamlSetDarkMode (enabled|disabled or {value}),
# MaestroFlowParser's stringCommands (toggleDarkMode, assertDarkMode,
# assertLightMode) - maestro-orchestra/.../orchestra/.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
PNGCHECK="$AMC_TEST_BUILDDIR/tests/tools/pngcheck"
AMC_OCR_POLICY=off; export AMC_OCR_POLICY
W="$T_HOME/flows"; mkdir -p "$W" "$T_HOME/bin"
task_of() { sed -n 's/.*task \([0-9a-z]*\) \(succeeded\|failed\).*/\1/p' "$1" | head -n 1; }

# ---- a recording on the sim: every distinct frame, in order ----
cat >"$W/rec.yaml" <<'Y'
appId: com.android.settings
---
- launchApp
- startRecording: checkout
- tapOn: "Network & internet"
- tapOn: "Airplane mode"
- back
- stopRecording
Y
"$AMC" flow check -d sim "$W/rec.yaml" >"$T_HOME/out" 2>&1; is $? 0 "flow check: startRecording/stopRecording accepted for the sim"
"$AMC" run --flow "$W/rec.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "sim: a flow with a recording runs"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
tid=$(task_of "$T_HOME/out")
rec=$(ls "$AMC_HOME/artifacts/$tid"/rec-checkout.apng 2>/dev/null)
ok "$([ -n "$rec" ] && echo 1 || echo 0)" "the recording is the task's artifact rec-checkout.apng"
info=$("$PNGCHECK" "$rec")
like "$info" '^1080x2400 .* frames=' "it is a PNG every viewer opens (the first frame), 1080x2400"
frames=$(printf '%s' "$info" | sed -n 's/.*frames=\([0-9]*\).*/\1/p')
distinct=$(printf '%s' "$info" | sed -n 's/.*distinct=\([0-9]*\).*/\1/p')
ok "$([ "${frames:-0}" -ge 4 ] && echo 1 || echo 0)" "it holds the flow's screens: $frames frames (launcher, Settings, Network, toggled, back)"
is "$distinct" "$frames" "and no two frames are the same (an unchanged screen is kept once)"
show=$("$AMC" show "$tid")
like "$show" "video +$AMC_HOME/artifacts/$tid/rec-checkout.apng" "amc show lists the recording's path"
like "$("$AMC" show "$tid" --json)" '"file":[[:space:]]*"[^"]*rec-checkout.apng"' "and --json gives it"
exp=$("$AMC" export "$tid" --flow)
like "$exp" '- startRecording: "?checkout' "export --flow writes startRecording back"
like "$exp" '- stopRecording' "  and stopRecording"
"$AMC" export "$tid" --html "$T_HOME/r.html" >/dev/null 2>&1
like "$(grep -o '<img class="shot" alt="recording" src="data:image/apng;base64,' "$T_HOME/r.html" | head -n 1)" 'apng' \
	"the HTML report plays it (an animated PNG in an <img>)"

# a flow that fails before its stopRecording: the recording is kept all the same
printf 'appId: com.android.settings\n---\n- launchApp\n- startRecording: failing\n- tapOn: "Network & internet"\n- assertVisible: {text: "Nowhere", optional: false}\n- stopRecording\n' >"$W/fail.yaml"
AMC_FLOW_WAIT_TIMEOUT_MS=300 "$AMC" run --flow "$W/fail.yaml" >"$T_HOME/out" 2>&1; is $? 1 "a recorded flow that fails, fails"
like "$(cat "$T_HOME/out")" 'failed after [0-9]+ steps: step [0-9]+: .*assertVisible' "the task's error is still the failed assertion"
tid=$(task_of "$T_HOME/out")
like "$("$AMC" show "$tid")" 'stopRecording failing \(the flow ended while recording\)' "its recording is stopped at the end, said in the step"
like "$("$PNGCHECK" "$AMC_HOME/artifacts/$tid/rec-failing.apng")" 'frames=[2-9]' "and the file holds the screens up to the failure"

# stopRecording without a start: the step fails, saying so
printf 'appId: com.android.settings\n---\n- launchApp\n- stopRecording\n' >"$W/norec.yaml"
"$AMC" run --flow "$W/norec.yaml" >"$T_HOME/out" 2>&1; is $? 1 "stopRecording with no recording fails"
like "$(cat "$T_HOME/out")" 'is not recording \(startRecording first\)' "saying why"
printf 'appId: com.a\n---\n- startRecording\n' >"$W/bare.yaml"
"$AMC" flow check "$W/bare.yaml" >"$T_HOME/out" 2>&1; is $? 2 "startRecording needs a path (YamlStartRecording's path is required)"

# ---- takeScreenshot cropOn and assertScreenshot ----
cat >"$W/shot.yaml" <<'Y'
appId: com.android.settings
---
- launchApp
- takeScreenshot:
    path: net
    cropOn: {text: "Network & internet"}
- assertScreenshot:
    path: net
    cropOn: "Network & internet"
- assertScreenshot:
    path: ref/whole.png
    thresholdPercentage: 99.5
Y
mkdir -p "$W/ref"
"$AMC" sim screenshot "$W/ref/whole.png" >/dev/null 2>&1
"$AMC" flow check -d sim "$W/shot.yaml" >"$T_HOME/out" 2>&1; is $? 0 "flow check: takeScreenshot cropOn and assertScreenshot accepted"
"$AMC" run --flow "$W/shot.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "sim: the screen matches the element it was cropped to, and a reference beside the flow"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
tid=$(task_of "$T_HOME/out")
crop=$("$PNGCHECK" "$AMC_HOME/artifacts/$tid/shot-net.png")
like "$crop" '^[0-9]+x[0-9]+ ' "cropOn kept shot-net.png"
ok "$(printf '%s' "$crop" | grep -q '^1080x2400 ' && echo 0 || echo 1)" "  cropped: smaller than the screen ($crop)"

# a changed screen fails the comparison and keeps the differences
cat >"$W/diff.yaml" <<'Y'
appId: com.android.settings
---
- launchApp
- tapOn: "Network & internet"
- assertScreenshot: ref/whole
Y
"$AMC" run --flow "$W/diff.yaml" >"$T_HOME/out" 2>&1; is $? 1 "another screen does not match the reference"
like "$(cat "$T_HOME/out")" 'matches .*ref/whole.png at [0-9.]+ %, below the threshold of 95 %' "saying how much matched (95 % by default)"
tid=$(task_of "$T_HOME/out")
like "$("$AMC" show "$tid")" "diff +$AMC_HOME/artifacts/$tid/diff-ref_whole.png" "amc show lists the diff image"
printf 'appId: com.android.settings\n---\n- launchApp\n- assertScreenshot:\n    path: ref/whole.png\n    cropOn: "Network & internet"\n' >"$W/size.yaml"
"$AMC" run --flow "$W/size.yaml" >"$T_HOME/out" 2>&1; is $? 1 "a reference of another size fails"
like "$(cat "$T_HOME/out")" 'size mismatch: .*1080x2400, the screen cropped' "as Maestro's SizeMismatch"
printf 'appId: com.a\n---\n- assertScreenshot: {path: x, thresholdPercentage: 120}\n' >"$W/thr.yaml"
"$AMC" flow check "$W/thr.yaml" >"$T_HOME/out" 2>&1; is $? 2 "a threshold over 100 is refused"
printf 'appId: com.a\n---\n- assertScreenshot: {path: missing}\n' >"$W/miss.yaml"
"$AMC" run --flow "$W/miss.yaml" >"$T_HOME/out" 2>&1; is $? 1 "a missing reference fails the step"
like "$(cat "$T_HOME/out")" 'no reference image; looked for .*missing.png' "naming where it looked"

# ---- dark mode: the sim's Dark theme row and its palette ----
cat >"$W/dark.yaml" <<'Y'
appId: com.android.settings
---
- launchApp
- setDarkMode: enabled
- assertDarkMode
- tapOn: "Display"
- assertVisible: "Dark theme"
- toggleDarkMode
- assertLightMode
- setDarkMode: {value: enabled}
Y
"$AMC" run --flow "$W/dark.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "sim: setDarkMode, assertDarkMode, toggleDarkMode, assertLightMode"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
like "$("$AMC" sim state)" '"dark_theme":[[:space:]]*true' "the sim's Dark theme toggle is on"
tid=$(task_of "$T_HOME/out")
exp=$("$AMC" export "$tid" --flow)
like "$exp" '- setDarkMode: enabled' "export --flow writes setDarkMode back"
like "$exp" '- toggleDarkMode' "  toggleDarkMode"
like "$exp" '- assertLightMode' "  and the assertions"
printf 'appId: com.android.settings\n---\n- setDarkMode: disabled\n- assertDarkMode\n' >"$W/light.yaml"
"$AMC" run --flow "$W/light.yaml" >"$T_HOME/out" 2>&1; is $? 1 "assertDarkMode fails in light mode"
like "$(cat "$T_HOME/out")" 'dark_mode is off, expected on' "saying so"
printf 'appId: com.a\n---\n- setDarkMode: maybe\n' >"$W/bad.yaml"
"$AMC" flow check "$W/bad.yaml" >"$T_HOME/out" 2>&1; is $? 2 "setDarkMode takes enabled or disabled only"
"$AMC" flow check --device-kind appium "$W/dark.yaml" >"$T_HOME/out" 2>&1; is $? 2 "Appium: dark mode refused before the run"
like "$(cat "$T_HOME/out")" "not available on appium devices: the Appium platform is unknown.*mobile: setUiMode.*mobile: setAppearance" "naming why (no platform configured) and both commands"
printf '{"platformName":"iOS"}\n' >"$T_HOME/ios.json"
AMC_APPIUM_CAPS="$T_HOME/ios.json" "$AMC" flow check --device-kind appium "$W/dark.yaml" >"$T_HOME/out" 2>&1; is $? 0 "Appium on iOS: dark mode accepted (mobile: setAppearance, getAppearance)"

# ---- adb, through the stand-in: screenrecord pulled at the stop, cmd uimode ----
ln -s "$AMC_TEST_BUILDDIR/tests/tools/adb-standin" "$T_HOME/bin/adb"
PATH="$T_HOME/bin:$PATH"; export PATH
cat >"$W/adb.yaml" <<'Y'
appId: com.android.settings
---
- launchApp
- startRecording: {path: adbclip}
- setDarkMode: enabled
- assertDarkMode
- toggleDarkMode
- assertLightMode
- stopRecording
Y
"$AMC" run --flow "$W/adb.yaml" -d adb:emulator-5554 >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "adb: a recording and the dark-mode commands run"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
log=$(cat "$AMC_HOME/adb-standin/log")
like "$log" 'COMMAND \[screenrecord\] \[--time-limit\] \[180\] \[/sdcard/amc-recording.mp4\]' "adb: screenrecord on the phone"
like "$log" 'COMMAND \[pkill\] \[-INT\] \[screenrecord\]' "adb: stopped with SIGINT (screenrecord finishes its MP4)"
like "$log" 'PULL /sdcard/amc-recording.mp4 ' "adb: the file pulled"
like "$log" 'COMMAND \[cmd\] \[uimode\] \[night\] \[yes\]' "adb: setDarkMode is cmd uimode night yes"
like "$log" 'COMMAND \[cmd\] \[uimode\] \[night\] \[no\]' "adb: toggleDarkMode read the mode and turned it off"
tid=$(task_of "$T_HOME/out")
like "$(od -c "$AMC_HOME/artifacts/$tid/rec-adbclip.mp4" | head -n 1)" 'f   t   y   p' "adb: the task keeps the phone's MP4 as rec-adbclip.mp4"

# check and run agree on every file here
for f in rec shot dark; do
	"$AMC" flow check -d sim "$W/$f.yaml" >/dev/null 2>&1; is $? 0 "check: $f.yaml clean for the sim"
done
done_testing
