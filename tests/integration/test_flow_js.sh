#!/bin/sh
# test_flow_js.sh - a flow's JavaScript as real teams write it, run by
# `amc run --flow` on the sim: a runScript file with template literals, arrow
# functions, destructuring, ?. and ??, const/let, and Maestro's http.get +
# json() against a local HTTP server this test starts (amc makes the request
# for amc-js, which has no network); console.log does not break a run; two
# scripts may declare the same const; `flow check` and `run` from the build
# folder find amc-js by themselves.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export AMC_FLOW_WAIT_TIMEOUT_MS=1500
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed for the local HTTP server"

W="$T_HOME/flows"
mkdir -p "$W/www"
printf '{"first":"Dorothy","last":"Vaughan","tags":["nasa","fortran"]}\n' >"$W/www/person.json"
python3 -c '
import http.server, socketserver, sys, os, functools
os.chdir(sys.argv[1])
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
h.log_message = lambda *a: None
with socketserver.TCPServer(("127.0.0.1", 0), h) as s:
    open(sys.argv[2] + ".tmp", "w").write(str(s.server_address[1]))
    os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    s.serve_forever()
' "$W/www" "$T_HOME/port" &
wait_for 10 test -s "$T_HOME/port" || { ok 0 "the local HTTP server started"; done_testing; exit 1; }
PORT=$(cat "$T_HOME/port")

cat >"$W/modern.js" <<'JS'
const r = http.get(`${BASE}/person.json`);
const { first, last, tags } = json(r.body);
const upper = (s) => s?.toUpperCase() ?? '';
let count = tags?.length ?? 0;
output.name = `${first} ${last}`;
output.count = count;
output.initials = [first, last].map((s) => upper(s[0])).join('');
output.missing = r.json().nothing?.deeper ?? 'none';
console.log('fetched', r.status, output.name);
JS
cat >"$W/again.js" <<'JS'
const count = 7; // the same name as in modern.js: each script has its own globals
output.again = count;
JS
cat >"$W/modern.yaml" <<Y
appId: com.android.contacts
---
- launchApp:
    clearState: true
- runScript:
    file: modern.js
    env:
      BASE: http://127.0.0.1:$PORT
- runScript: again.js
- evalScript: \${output.phone = \`555-\${[1, 2, 3].map((x) => x * 3).join('')}\`}
- assertTrue: \${output.name === 'Dorothy Vaughan' && output.count === 2 && output.again === 7}
- assertTrue: \${output.initials === 'DV' && output.missing === 'none'}
- tapOn: "Add contact"
- tapOn:
    id: name
- inputText: \${output.name}
- tapOn:
    id: phone
- inputText: \${output.phone ?? 'no phone'}
- hideKeyboard
- tapOn: "Save"
Y

(unset AMC_JS; "$AMC" flow check "$W/modern.yaml" >"$T_HOME/out" 2>&1); rc=$?
is $rc 0 "flow check: ES2020 scripts parse (amc-js found beside amc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 5
(unset AMC_JS; "$AMC" run --flow "$W/modern.yaml" >"$T_HOME/out" 2>&1); rc=$?
is $rc 0 "a flow with ES2020 scripts and http.get runs on the sim"
[ $rc -eq 0 ] || sed 's/^/# /' "$T_HOME/out" | tail -n 15
state=$("$AMC" sim state)
like "$state" '"name":[[:space:]]*"Dorothy Vaughan"' "the name fetched by http.get and built with a template literal was typed"
like "$state" '"phone":[[:space:]]*"555-369"' "the phone computed by an arrow function was typed"

# the engine process has no network of its own: only amc's bridge reaches the server
printf 'appId: a\n---\n- evalScript: ${output.t = typeof fetch + typeof XMLHttpRequest + typeof require}\n- assertTrue: ${output.t === "undefinedundefinedundefined"}\n' >"$W/nonet.yaml"
"$AMC" run --flow "$W/nonet.yaml" >"$T_HOME/out" 2>&1; rc=$?
is $rc 0 "no fetch, XMLHttpRequest or require inside the engine"
done_testing
