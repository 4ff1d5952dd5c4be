#!/bin/sh
# The Appium driver against a real Appium 3 server with @appium/fake-driver.
# Appium is installed from the committed lockfile (tests/appium/package-lock.json)
# with `npm ci` into the BUILD directory (tests/appium-env; `make clean` removes
# it), reused while the lockfile is unchanged, started on 127.0.0.1 on a free
# port, waited for through /status, and stopped at the end. Skips only when
# node or npm is missing or node is older than 20.19.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"

command -v node >/dev/null 2>&1 || skip_all "node is not installed (Appium 3 needs Node.js >= 20.19)"
command -v npm >/dev/null 2>&1 || skip_all "npm is not installed (needed to install Appium 3)"
nv=$(node -p 'process.versions.node' 2>/dev/null)
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
	skip_all "node $nv is older than 20.19 (Appium 3 needs >= 20.19)"

env_dir="$AMC_TEST_BUILDDIR/tests/appium-env"
src="$AMC_TEST_SRCDIR/tests/appium"
npm_env "$src" "$env_dir" node_modules/appium/index.js
rc=$?
if [ $rc -ne 0 ]; then
	sed 's/^/# /' "$T_HOME/npm.log" | tail -n 20
	ok 0 "npm ci of appium and the fake driver (exit $rc)"
	done_testing
	exit 1
fi
ok 1 "appium and the fake driver installed in the build directory"

port=$(node -e 'const s=require("net").createServer(); s.listen(0,"127.0.0.1",()=>{console.log(s.address().port); s.close();})')
APPIUM_HOME="$env_dir"; export APPIUM_HOME
node "$env_dir/node_modules/appium/index.js" server --address 127.0.0.1 --port "$port" --log-no-colors \
	>"$T_HOME/appium.log" 2>&1 &
pid=$!
status_ok() { node -e 'fetch(process.argv[1]).then(r=>r.json()).then(j=>process.exit(j.value?0:1)).catch(()=>process.exit(1))' "http://127.0.0.1:$port/status"; }
wait_for 30 status_ok
ok_status $? "Appium answers /status on 127.0.0.1:$port"

# the recording's success path: a WebDriver stand-in (the fake driver has none)
node "$src/recording-stub.js" "$T_HOME/stub.port" >"$T_HOME/stub.log" 2>&1 &
stub_pid=$!
stub_ready() { test -s "$T_HOME/stub.port"; }
wait_for 10 stub_ready
AMC_TEST_APPIUM_STUB_URL="http://127.0.0.1:$(cat "$T_HOME/stub.port" 2>/dev/null)" \
AMC_TEST_APPIUM_URL="http://127.0.0.1:$port" AMC_TEST_APPIUM_APP="$src/app.xml" AMC_TEST_APPIUM_FLOW="$src/sign-in.yaml" \
	"$AMC_TEST_BUILDDIR/tests/unit/test_appium" >"$T_HOME/c.out" 2>&1
rc=$?
tap_relay "$T_HOME/c.out"
ok_status $rc "test_appium exited 0"
# What amc asked for the settings the fake driver lacks (appium_set.c), read
# back from Appium's log: the script and its arguments as amc sent them.
grep -q 'mobile: setConnectivity.*"airplaneMode":true' "$T_HOME/appium.log"
ok_status $? "Appium got mobile: setConnectivity {airplaneMode: true}"
grep -q 'mobile: getConnectivity.*"services":\["airplaneMode"\]' "$T_HOME/appium.log"
ok_status $? "and mobile: getConnectivity {services: [airplaneMode]} for the toggle"
grep -q 'mobile: setUiMode.*"mode":"night","value":"yes"' "$T_HOME/appium.log"
ok_status $? "Appium got mobile: setUiMode {mode: night, value: yes}"
grep -q 'mobile: setAppearance.*"style":"light"' "$T_HOME/appium.log"
ok_status $? "Appium got mobile: setAppearance {style: light}"
grep -q 'push_file\|pushFile' "$T_HOME/appium.log"
ok_status $? "Appium got appium/device/push_file for addMedia"
[ $rc -eq 0 ] || tail -n 30 "$T_HOME/appium.log" | sed 's/^/# appium: /'

# Through the binary: the endpoint is listed, and a flow runs on appium:URL
# with capabilities from the file AMC_APPIUM_CAPS names.
out=$(AMC_APPIUM_ENDPOINTS="http://127.0.0.1:$port" "$AMC" devices --json)
like "$out" "\"id\":[[:space:]]*\"appium:http://127.0.0.1:$port\"" "amc devices lists the Appium endpoint"
like "$out" '"status":[[:space:]]*"online"' "as online"
printf '{"platformName":"Fake","appium:automationName":"Fake","appium:app":"%s"}\n' "$src/app.xml" >"$T_HOME/caps.json"
out=$(AMC_OCR_POLICY=off AMC_APPIUM_CAPS="$T_HOME/caps.json" "$AMC" run --flow "$src/sign-in.yaml" --device "appium:http://127.0.0.1:$port" --json 2>"$T_HOME/err"); rc=$?
is $rc 0 "amc run --device appium:URL runs the flow"
like "$out" '"status":[[:space:]]*"succeeded"' "and it succeeds"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/err"

grep -q '^POST /session/stub-1/appium/stop_recording_screen' "$T_HOME/stub.log"
ok_status $? "the stub was asked to stop the recording"
kill "$stub_pid" 2>/dev/null
wait "$stub_pid" 2>/dev/null
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
port_open() { node -e 'const c=require("net").connect(+process.argv[1],"127.0.0.1",()=>process.exit(0)); c.on("error",()=>process.exit(1))' "$port"; }
! kill -0 "$pid" 2>/dev/null && ! port_open
ok_status $? "Appium stopped: its process is gone and port $port is closed"
done_testing
