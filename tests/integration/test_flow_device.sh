#!/bin/sh
# test_flow_device.sh - Maestro's device commands run by `amc run --flow`:
# setOrientation, setAirplaneMode, toggleAirplaneMode, setLocation, travel and
# addMedia on the sim (each asserted by its effect: the screenshot's size, the
# Settings toggle, the state's location, the Files app) and on adb through the
# stand-in (the real adb commands, which the stand-in applies to its sim);
# what a device kind cannot do is refused before the run, naming why.
# Maestro's readers: YamlSetAirplaneMode(Deserializer), YamlSetLocation,
# YamlTravelCommand, YamlAddMedia (maestro-orchestra/.../orchestra/yaml/).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
PNGCHECK="$AMC_TEST_BUILDDIR/tests/tools/pngcheck"
AMC_OCR_POLICY=off; export AMC_OCR_POLICY
W="$T_HOME/flows"; mkdir -p "$W/assets" "$T_HOME/bin"
printf 'not really a jpeg\n' >"$W/assets/photo_1.jpg"

cat >"$W/sim.yaml" <<'Y'
appId: com.android.settings
---
- launchApp
- setOrientation: LANDSCAPE_LEFT
- takeScreenshot: land
- assertVisible: "Wi-Fi"
- setAirplaneMode: enabled
- tapOn: "Network & internet"
- setLocation: {latitude: 52.52, longitude: "13.40"}
- travel: {points: ["52.52,13.40", "48.85,2.35"], speed: 30}
- addMedia: ["assets/photo_1.jpg"]
Y
"$AMC" flow check -d sim "$W/sim.yaml" >"$T_HOME/out" 2>&1; is $? 0 "flow check: the device commands are accepted for the sim"
"$AMC" run --flow "$W/sim.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "sim: a flow with setOrientation, setAirplaneMode, setLocation, travel, addMedia runs"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
"$AMC" sim screenshot "$T_HOME/land.png" >/dev/null 2>&1
like "$("$PNGCHECK" "$T_HOME/land.png")" '^2400x1080 ' "setOrientation LANDSCAPE_LEFT: the sim's screen is 2400x1080 (1080x2400 in portrait)"
state=$("$AMC" sim state)
like "$state" '"orientation":[[:space:]]*"landscape_left"' "the state says landscape_left"
like "$state" '"airplane_mode":[[:space:]]*true' "setAirplaneMode enabled: the Settings toggle is on"
like "$state" '"latitude":[[:space:]]*48.85' "travel ends at its last point"
like "$state" '"name":[[:space:]]*"photo_1.jpg"' "addMedia: the file is in the Files app (relative to the flow file)"
like "$("$AMC" sim ui)" 'Airplane mode' "the Network page is drawn in landscape"
tid=$(sed -n 's/.*task \([0-9a-z]*\) succeeded.*/\1/p' "$T_HOME/out")
exp=$("$AMC" export "$tid" --flow)
like "$exp" '- setOrientation: LANDSCAPE_LEFT' "export --flow writes setOrientation back"
like "$exp" '- setAirplaneMode: enabled' "and setAirplaneMode"
like "$exp" 'latitude: 48.850000' "and the location"

printf 'appId: com.android.settings\n---\n- toggleAirplaneMode\n- setOrientation: {orientation: PORTRAIT}\n' >"$W/toggle.yaml"
"$AMC" run --flow "$W/toggle.yaml" >"$T_HOME/out" 2>&1; is $? 0 "toggleAirplaneMode and setOrientation {orientation}"
state=$("$AMC" sim state)
like "$state" '"airplane_mode":[[:space:]]*false' "toggleAirplaneMode: off again"
"$AMC" sim screenshot "$T_HOME/port.png" >/dev/null 2>&1
like "$("$PNGCHECK" "$T_HOME/port.png")" '^1080x2400 ' "PORTRAIT: back to 1080x2400"

# doubleTapOn: one tap step of count 2, the two taps in one driver call
printf 'appId: com.android.settings\n---\n- launchApp\n- tapOn: "Network & internet"\n- doubleTapOn: "Airplane mode"\n' >"$W/dbl.yaml"
"$AMC" run --flow "$W/dbl.yaml" >"$T_HOME/out" 2>&1; is $? 0 "sim: doubleTapOn"
like "$("$AMC" sim state)" '"airplane_mode":[[:space:]]*false' "the toggle tapped twice is back off"
tid=$(sed -n 's/.*task \([0-9a-z]*\) succeeded.*/\1/p' "$T_HOME/out")
like "$("$AMC" show "$tid" --json)" '"count":[[:space:]]*2' "one tap step of count 2"
like "$("$AMC" export "$tid" --flow)" '- doubleTapOn:' "exported as doubleTapOn"

# launchApp permissions and arguments (Orchestra: setPermissions, then the
# launch with its arguments): the sim keeps them where a test reads them
cat >"$W/args.yaml" <<'Y'
appId: com.amc.notes
env:
  KEY: rc_key
---
- launchApp:
    permissions: {camera: allow, location: deny}
    arguments:
      apiKey: ${KEY}
      isE2E: true
      store: ${STORE || 'test_store'}
Y
"$AMC" run --flow "$W/args.yaml" >"$T_HOME/out" 2>&1; is $? 0 "sim: launchApp with permissions and arguments"
state=$("$AMC" sim state)
like "$state" '"apiKey":[[:space:]]*"rc_key"' "the app got its arguments, \${KEY} filled"
like "$state" '"camera":[[:space:]]*"allow"' "and its permissions"
like "$state" '"store":[[:space:]]*"test_store"' "an argument's \${expression} (the engine started for it, STORE undefined as in Maestro)"
like "$state" '"app":[[:space:]]*"com.amc.notes"' "and is in front"
"$AMC" flow check --device-kind appium "$W/args.yaml" >"$T_HOME/out" 2>&1; is $? 2 "Appium: launchApp arguments refused before the run"
like "$(cat "$T_HOME/out")" "does not set an app's permissions or launch arguments yet" "saying why"

# setPermissions (Maestro 2.1, written by Rocket.Chat.ReactNative's helpers):
# launchApp's permissions without the launch; the sim keeps them, the app
# in front stays in front
cat >"$W/perm.yaml" <<'Y'
appId: com.amc.notes
---
- launchApp: com.android.settings
- setPermissions:
    permissions:
      camera: deny
      location: allow
- assertVisible: "Wi-Fi"
Y
"$AMC" run --flow "$W/perm.yaml" >"$T_HOME/out" 2>&1; is $? 0 "sim: setPermissions"
state=$("$AMC" sim state)
like "$state" '"camera":[[:space:]]*"deny"' "the flow's app got its permissions"
like "$state" '"location":[[:space:]]*"allow"' "  every one of them"
like "$state" '"app":[[:space:]]*"com.android.settings"' "and nothing was launched"
"$AMC" flow check --device-kind appium "$W/perm.yaml" >"$T_HOME/out" 2>&1; is $? 2 "Appium: setPermissions refused before the run"
like "$(cat "$T_HOME/out")" "setPermissions camera=deny, location=allow: not available on appium devices: amc's Appium driver does not set an app's permissions yet" "saying why"

# what a device kind cannot do: refused before the run, naming why
# (recordings, screenshots and dark mode: test_flow_media.sh)
printf 'appId: com.a\n---\n- setOrientation: SIDEWAYS\n' >"$W/bad.yaml"
"$AMC" flow check "$W/bad.yaml" >"$T_HOME/out" 2>&1; is $? 2 "an orientation Maestro does not know is refused"
like "$(cat "$T_HOME/out")" 'PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN' "listing the four"
"$AMC" flow check --device-kind appium "$W/sim.yaml" >"$T_HOME/out" 2>&1; is $? 2 "Appium: refused before the run"
like "$(cat "$T_HOME/out")" "setAirplaneMode: not available on appium devices: the Appium platform is unknown" "naming the kind and why (no platform configured)"
# with the platform known from the capabilities (appium_set.c): Android has
# UiAutomator2's mobile: setConnectivity, iOS no airplane-mode command at all
printf '{"platformName":"iOS","appium:automationName":"XCUITest"}\n' >"$T_HOME/ios.json"
printf '{"platformName":"Android","appium:automationName":"UiAutomator2"}\n' >"$T_HOME/android.json"
printf 'appId: com.a\n---\n- setAirplaneMode: enabled\n- toggleAirplaneMode\n' >"$W/air.yaml"
AMC_APPIUM_CAPS="$T_HOME/ios.json" "$AMC" flow check --device-kind appium "$W/air.yaml" >"$T_HOME/out" 2>&1; is $? 2 "Appium on iOS: airplane mode refused before the run"
like "$(cat "$T_HOME/out")" "not available on appium-ios devices: iOS .XCUITest. has no command to switch airplane mode" "  naming the platform and why"
AMC_APPIUM_CAPS="$T_HOME/android.json" "$AMC" flow check --device-kind appium "$W/air.yaml" >"$T_HOME/out" 2>&1; is $? 0 "Appium on Android: airplane mode accepted (mobile: setConnectivity)"
AMC_APPIUM_CAPS="$T_HOME/android.json" "$AMC" flow check -d "appium:http://127.0.0.1:9" "$W/air.yaml" >"$T_HOME/out" 2>&1; is $? 0 "  -d appium:URL reads the same capabilities"
out=$("$AMC" flow check --device-kind appium "$W/sim.yaml" 2>&1)
ok $(printf '%s' "$out" | grep -q 'setOrientation\|setLocation' && echo 0 || echo 1) "Appium: setOrientation LANDSCAPE_LEFT and setLocation are accepted (POST /orientation, /location)"
printf 'appId: com.a\n---\n- setOrientation: UPSIDE_DOWN\n' >"$W/ud.yaml"
"$AMC" flow check --device-kind appium "$W/ud.yaml" >"$T_HOME/out" 2>&1; is $? 2 "Appium: UPSIDE_DOWN refused before the run"
like "$(cat "$T_HOME/out")" "PORTRAIT or LANDSCAPE \\(LANDSCAPE_LEFT\\) only" "as Appium's orientation endpoint has two"

# adb, through the stand-in: the real commands, applied to its sim
"$AMC" sim reset >/dev/null 2>&1
ln -s "$AMC_TEST_BUILDDIR/tests/tools/adb-standin" "$T_HOME/bin/adb"
PATH="$T_HOME/bin:$PATH"; export PATH
AMC_ADB_STANDIN_SERIALS=emulator-5554; export AMC_ADB_STANDIN_SERIALS
cat >"$W/adb.yaml" <<'Y'
appId: com.android.settings
---
- launchApp
- setOrientation: LANDSCAPE_RIGHT
- assertVisible: "Wi-Fi"
- setAirplaneMode: enabled
- addMedia: {files: ["assets/photo_1.jpg"]}
- toggleAirplaneMode
Y
"$AMC" run --flow "$W/adb.yaml" -d adb:emulator-5554 >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "adb: setOrientation, setAirplaneMode, addMedia, toggleAirplaneMode run"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
log=$(cat "$AMC_HOME/adb-standin/log")
like "$log" 'COMMAND \[settings\] \[put\] \[system\] \[accelerometer_rotation\] \[0\]' "adb: auto-rotate off"
like "$log" 'COMMAND \[settings\] \[put\] \[system\] \[user_rotation\] \[3\]' "adb: user_rotation 3 (LANDSCAPE_RIGHT)"
like "$log" 'COMMAND \[cmd\] \[connectivity\] \[airplane-mode\] \[enable\]' "adb: airplane mode on"
like "$log" 'COMMAND \[settings\] \[get\] \[global\] \[airplane_mode_on\]' "adb: toggle reads the setting"
like "$log" 'COMMAND \[cmd\] \[connectivity\] \[airplane-mode\] \[disable\]' "then switches it off"
like "$log" 'PUSH [^ ]*assets/photo_1.jpg /sdcard/Pictures/photo_1.jpg' "adb: addMedia pushes the file"
like "$log" 'MEDIA_SCANNER_SCAN_FILE\] \[-d\] \[file:///sdcard/Pictures/photo_1.jpg\]' "and tells the media scanner"
state=$("$AMC" sim state)
like "$state" '"orientation":[[:space:]]*"landscape_right"' "the phone turned"
like "$state" '"name":[[:space:]]*"photo_1.jpg"' "the picture is on the phone"
: >"$AMC_HOME/adb-standin/log"
"$AMC" run --flow "$W/dbl.yaml" -d adb:emulator-5554 >"$T_HOME/out" 2>&1; is $? 0 "adb: doubleTapOn"
n=$(grep -c 'COMMAND \[input\] \[tap\]' "$AMC_HOME/adb-standin/log")
is "$n" 3 "a tap and a double tap: three input taps"
"$AMC" run --flow "$W/args.yaml" -d adb:emulator-5554 >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "adb: launchApp with permissions and arguments"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
log=$(cat "$AMC_HOME/adb-standin/log")
like "$log" 'COMMAND \[pm\] \[grant\] \[com.amc.notes\] \[android.permission.CAMERA\]' "adb: camera: allow is pm grant CAMERA"
like "$log" 'COMMAND \[pm\] \[revoke\] \[com.amc.notes\] \[android.permission.ACCESS_COARSE_LOCATION\]' "location: deny revokes both location permissions"
like "$log" 'COMMAND \[am\] \[start\] \[-W\] \[-n\] \[com.amc.notes/.MainActivity\] \[--es\] \[apiKey\] \[rc_key\] \[--ez\] \[isE2E\] \[true\] \[--es\] \[store\] \[test_store\]' "arguments are the launcher intent's extras, typed"
like "$("$AMC" sim state)" '"isE2E":[[:space:]]*"true"' "the phone's app got them"
: >"$AMC_HOME/adb-standin/log"
"$AMC" run --flow "$W/perm.yaml" -d adb:emulator-5554 >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "adb: setPermissions"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
log=$(cat "$AMC_HOME/adb-standin/log")
like "$log" 'COMMAND \[pm\] \[revoke\] \[com.amc.notes\] \[android.permission.CAMERA\]' "adb: setPermissions camera: deny is pm revoke CAMERA"
like "$log" 'COMMAND \[pm\] \[grant\] \[com.amc.notes\] \[android.permission.ACCESS_FINE_LOCATION\]' "  location: allow grants it"
printf 'appId: com.amc.notes\n---\n- launchApp: {permissions: {all: allow}}\n' >"$W/all.yaml"
"$AMC" run --flow "$W/all.yaml" -d adb:emulator-5554 >"$T_HOME/out" 2>&1; is $? 0 "adb: permissions all: allow"
like "$(cat "$AMC_HOME/adb-standin/log")" 'COMMAND \[pm\] \[grant\] \[com.amc.notes\] \[android.permission.ACCESS_FINE_LOCATION\]' "grants what dumpsys package lists as requested"
printf 'appId: com.a\n---\n- setLocation: {latitude: 1, longitude: 2}\n' >"$W/loc.yaml"
"$AMC" flow check --device-kind adb "$W/loc.yaml" >"$T_HOME/out" 2>&1; is $? 2 "adb: setLocation refused before the run"
like "$(cat "$T_HOME/out")" 'without a mock-location app' "saying why"
done_testing
