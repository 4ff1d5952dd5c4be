#!/bin/sh
# test_report_browser.sh - `amc export --html` reports loaded in a real
# browser: Debian's chromium, headless, driven over the DevTools protocol by
# tests/report/browser_check.mjs (Node only, no npm package), every request
# but the report's own file and data: URLs blocked and counted. For a
# succeeded run, a failed one and one full of hostile text: no request left
# the page, the DOM has the task's steps, every image decoded at its size, no
# console error, a Content-Security-Policy meta tag, no injected script ran,
# and a screenshot was taken. Laid out 1400 px wide: the step index shows
# every step's thumbnail and status within the first 900 px, the page is at
# most 6,000 px tall with 14 steps (diffs collapsed; 12,950 px for 13 before the
# index), a failed run's "jump to the failure" is in the first screen, and
# the report file follows the user's umask.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
command -v node >/dev/null 2>&1 || skip_all "node is missing (it drives the browser)"
CHROME=${AMC_CHROMIUM:-}
for c in chromium chromium-browser google-chrome; do
	[ -z "$CHROME" ] && CHROME=$(command -v "$c" 2>/dev/null || true)
done
[ -n "$CHROME" ] || skip_all "chromium is not installed (apt-get install chromium; ./build.sh check installs it)"
"$CHROME" --headless=new --no-sandbox --disable-gpu --dump-dom about:blank >/dev/null 2>"$T_HOME/chromium.err" ||
	skip_all "chromium cannot run here: $(tail -n 1 "$T_HOME/chromium.err" | tr -cd '[:print:]' | head -c 200)"
CHECK="$AMC_TEST_SRCDIR/tests/report/browser_check.mjs"
export AMC_OCR_POLICY=off TZ=UTC
F=$AMC_TEST_SRCDIR/data/flows

# check NAME ID: export task ID, load it, judge what the browser did
check() {
	"$AMC" export "$2" --html "$T_HOME/$1.html" 2>/dev/null; ok_status $? "$1: exported"
	steps=$("$AMC" show "$2" --json | sed -n 's/^[[:space:]]*"steps":[[:space:]]*\([0-9]*\),*$/\1/p' | head -n 1)
	j=$(node "$CHECK" "$CHROME" "$T_HOME/$1.html" "$T_HOME/$1.png" "$T_HOME/$1-top.png"); ok_status $? "$1: loaded in headless chromium"
	diag "$1: $(printf '%s' "$j" | head -c 400)"
	like "$j" '"blocked":\[\]' "$1: no request other than the file and data: URLs"
	like "$j" '"console_errors":\[\],"exceptions":\[\]' "$1: no console error, no exception"
	like "$j" "\"steps_dom\":$steps,\"steps_attr\":$steps," "$1: the DOM has the task's $steps steps"
	like "$j" '"images":\[\[true,[1-9]' "$1: images are there"
	ok_status $(printf '%s' "$j" | grep -qE '\[(false,|true,0,)'; echo $((! $?))) "$1: every image decoded with its natural size"
	like "$j" "\"csp\":\"default-src 'none'" "$1: the CSP meta tag is in force"
	like "$j" '"pwned":null' "$1: no injected script ran"
	like "$j" '"scripts":0,"injected":0' "$1: no script, handler, frame or svg element in the DOM"
	like "$j" '"screenshot_bytes":[1-9][0-9]{3,}' "$1: a screenshot was taken"
	[ -s "$T_HOME/$1.png" ] && [ "$(head -c 4 "$T_HOME/$1.png" | od -An -c | tr -d ' ')" = '211PNG' ]
	ok_status $? "$1: the screenshot is a PNG"
	num() { printf '%s' "$j" | sed -n "s/.*\"$1\":\(-*[0-9]*\).*/\1/p"; }
	h=$(num page_height) items=$(num index_items) thumbs=$(num index_thumbs) st=$(num index_status) ib=$(num index_bottom)
	diag "$1: $steps steps at 1400 px wide: page $h px tall, index ends at $ib px, $items entries, $thumbs thumbnails, $st statuses"
	[ "$items" = "$steps" ] && [ "$thumbs" = "$steps" ] && [ "$st" = "$steps" ]; ok_status $? "$1: the index has every step's thumbnail and status"
	[ "${ib:-99999}" -le 900 ]; ok_status $? "$1: the index ends within the first 900 px ($ib)"
	[ "${h:-99999}" -le 6000 ]; ok_status $? "$1: the page is at most 6,000 px tall ($h)"
	[ -s "$T_HOME/$1-top.png" ]; ok_status $? "$1: the first screen is captured ($1-top.png)"
}
# The checker itself: a page that asks the network and runs a script is
# caught (so the checks above can fail).
printf '<!doctype html><title>t</title><img src="http://192.0.2.1/x.png"><script>window.__amc_pwned=7</script><section class="step"></section>' >"$T_HOME/bad.html"
j=$(node "$CHECK" "$CHROME" "$T_HOME/bad.html" "$T_HOME/bad.png")
like "$j" '"blocked":\["http://192\.0\.2\.1/x\.png"\]' "control: a request to the network is blocked and counted"
like "$j" '"pwned":"7"' "control: a script that runs is seen"
like "$j" '\[false,0,0\]|\[true,0,0\]' "control: an image that did not load is seen"
last() { "$AMC" tasks --json | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1; }

"$AMC" sim reset >/dev/null
"$AMC" run --flow "$F/add-contact.yaml" >/dev/null 2>&1; ok_status $? "add-contact ran"
check succeeded "$(last)"
[ "$steps" = 14 ]; ok_status $? "add-contact made 14 steps (the issue's 13, and clearState first)"
m=$(stat -c %a "$T_HOME/succeeded.html")
(umask 027 && "$AMC" export "$(last)" --html "$T_HOME/u027.html" 2>/dev/null)
m2=$(stat -c %a "$T_HOME/u027.html")
diag "report modes: $m with the test's umask $(umask), $m2 with umask 027"
[ "$m2" = 640 ]; ok_status $? "the report follows the user's umask (027 -> $m2)"

printf 'appId: com.android.settings\n---\n- launchApp\n- tapOn: "Wi-Fi"\n- assertVisible: "Unicorn"\n' >"$T_HOME/fails.yaml"
"$AMC" run --flow "$T_HOME/fails.yaml" >/dev/null 2>&1
check failed "$(last)"
jb=$(printf '%s' "$j" | sed -n 's/.*"jump_bottom":\(-*[0-9]*\).*/\1/p')
[ "${jb:--1}" -gt 0 ] && [ "$jb" -le 900 ]; ok_status $? "failed: the jump to the failure is in the first screen ($jb px)"
like "$(cat "$T_HOME/failed.html")" 'class="jump" href="#step-3">jump to the failure: step 3' "failed: it links to the failed step"

# Hostile text through UI text (typed into a contact's name), the flow's
# commands and its name: markup that would run if it were not escaped.
cat >"$T_HOME/hostile.yaml" <<'Y'
appId: com.android.contacts
name: "</title><script>window.__amc_pwned=1</script>"
---
- launchApp:
    clearState: true
- tapOn: "Add contact"
- tapOn:
    id: name
- inputText: "<script>window.__amc_pwned=2</script>\"><img src=x onerror=window.__amc_pwned=3>"
- tapOn:
    id: phone
- inputText: "</style><svg onload=window.__amc_pwned=4>"
- hideKeyboard
- tapOn: Save
- assertVisible: "\u202Egnp.exe<iframe src=javascript:window.__amc_pwned=5>"
Y
"$AMC" sim reset >/dev/null
"$AMC" run --flow "$T_HOME/hostile.yaml" >/dev/null 2>&1
check hostile "$(last)"
done_testing
