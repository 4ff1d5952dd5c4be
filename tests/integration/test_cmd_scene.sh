# test_cmd_scene.sh - `amc scene` on captured files: the three tree formats, OCR
# policies, the sim's keyboard as one element, exit 2 on hostile, huge or
# corrupt input, and the OMP_THREAD_LIMIT
# re-exec (threads during recognition; children do not inherit the limit).
. "${AMC_TEST_SRCDIR:-.}/tests/integration/tap.sh"
D="$AMC_TEST_SRCDIR/tests/data/uitree"
W="$T_HOME/work"
mkdir -p "$W"

# --- the three formats --------------------------------------------------------
for f in adb-uiautomator-dump_nexuslauncher.xml appium-uiautomator2-source_miui-settings.xml \
	 appium-xcuitest-source_ios-settings.xml; do
	out=$("$AMC" scene --ui "$D/$f" --json 2>&1); rc=$?
	is "$rc" 0 "scene of $f"
	like "$out" '"elements"' "$f: JSON scene"
done
out=$("$AMC" scene --ui "$D/appium-uiautomator2-source_miui-settings.xml")
like "$out" 'tree: uiautomator2' "text output names the detected format"
like "$out" '"Rename phone"' "text output lists the elements"

# --- bad input: exit 2 -----------------------------------------------------------
printf '<hierarchy><node text="a"></hierarchy>' >"$W/bad.xml"
"$AMC" scene --ui "$W/bad.xml" >/dev/null 2>"$W/err"; is "$?" 2 "malformed XML: exit 2"
like "$(cat "$W/err")" 'malformed UI tree XML' "malformed XML: says so"
cp "$AMC_TEST_SRCDIR/tests/fuzz/corpus/uitree/billion-laughs.xml" "$W/laughs.xml"
"$AMC" scene --ui "$W/laughs.xml" >/dev/null 2>"$W/err"; is "$?" 2 "entity expansion: exit 2"
like "$(cat "$W/err")" 'DOCTYPE' "entity expansion: refused for its DOCTYPE"
printf '<?xml version="1.0"?>\n<!DOCTYPE h [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<hierarchy><node text="&x;"/></hierarchy>\n' >"$W/xxe.xml"
"$AMC" scene --ui "$W/xxe.xml" >"$W/out" 2>"$W/err"; is "$?" 2 "external entity: exit 2"
is "$(grep -c root: "$W/out" "$W/err" | awk -F: '{s+=$2} END {print s}')" 0 "no file content leaks"
truncate -s 17M "$W/huge.xml"
"$AMC" scene --ui "$W/huge.xml" >/dev/null 2>"$W/err"; is "$?" 2 "UI dump over 16 MiB: exit 2"
like "$(cat "$W/err")" 'over the limit' "huge dump: says it is over the limit"
"$AMC" sim screenshot "$W/s.png" >/dev/null
"$AMC" sim ui >"$W/s.xml"
head -c 3000 "$W/s.png" >"$W/cut.png"
"$AMC" scene --ui "$W/s.xml" --screenshot "$W/cut.png" >/dev/null 2>"$W/err"; is "$?" 2 "truncated PNG: exit 2"
printf 'not a png at all' >"$W/junk.png"
"$AMC" scene --ui "$W/s.xml" --screenshot "$W/junk.png" >/dev/null 2>&1; is "$?" 2 "corrupt PNG: exit 2"
truncate -s 65M "$W/big.png"
"$AMC" scene --ui "$W/s.xml" --screenshot "$W/big.png" >/dev/null 2>"$W/err"; is "$?" 2 "PNG over 64 MiB: exit 2"
like "$(cat "$W/err")" 'over the limit' "oversized PNG refused before decoding"
"$AMC" scene --ui "$W/s.xml" --ocr sometimes >/dev/null 2>&1; is "$?" 2 "unknown OCR policy: exit 2"
"$AMC" scene --ui "$W/s.xml" --ocr full >/dev/null 2>&1; is "$?" 2 "--ocr full without a screenshot: exit 2"
"$AMC" scene >/dev/null 2>&1; is "$?" 2 "no --ui: exit 2"

# --- OCR on a sim screen ------------------------------------------------------------
out=$("$AMC" scene --ui "$W/s.xml" --screenshot "$W/s.png" --ocr gaps); is "$?" 0 "scene with gaps OCR"
like "$out" 'ocr +[0-9.]+ "09:41"' "gaps: the status-bar clock (pixels only) is an ocr element"
out=$("$AMC" scene --ui "$W/s.xml" --screenshot "$W/s.png" --ocr full --json); is "$?" 0 "scene with full OCR"
like "$out" '"source":[[:space:]]*"fused"' "full: tree text confirmed by OCR is fused"
out=$("$AMC" scene --ui "$W/s.xml" --screenshot "$W/s.png" --ocr off); is "$?" 0 "scene with OCR off"
is "$(printf '%s' "$out" | grep -c ' ocr ')" 0 "off: no ocr elements"

# --- the sim's keyboard: one element, not its keys (pixels only: the sim, like
# adb's uiautomator dump, leaves the IME out of the tree) -------------------------
"$AMC" sim launch com.android.contacts >/dev/null
"$AMC" sim tap 540 335 >/dev/null   # the search field: the keyboard comes up
"$AMC" sim screenshot "$W/kb.png" >/dev/null
"$AMC" sim ui >"$W/kb.xml"
for p in gaps full; do
	out=$("$AMC" scene --ui "$W/kb.xml" --screenshot "$W/kb.png" --ocr $p); is "$?" 0 "keyboard screen, $p OCR"
	is "$(printf '%s\n' "$out" | grep -c ' keyboard  ')" 1 "$p: one keyboard element"
	like "$out" 'keyboard +\[0,16[0-9][0-9]\]\[1080,2400\] ocr +[0-9.]+ "keyboard \(QWERTY\)"' "$p: its box and layout"
	# no other element starts on the keyboard (y1 >= 1600): no 'Oo', 'kK'
	is "$(printf '%s\n' "$out" | grep -v ' keyboard  ' | sed -n 's/^e[0-9a-f]* *[a-z_]* *\[[0-9]*,\([0-9]*\)\].*/\1/p' |
		awk '$1 >= 1600' | wc -l)" 0 "$p: no key as a word of its own"
	like "$out" 'input .*"Search contacts"' "$p: the field to type in stays"
done
"$AMC" sim reset >/dev/null

# --- OMP_THREAD_LIMIT -------------------------------------------------------------
# Without the variable amc re-executes itself with OMP_THREAD_LIMIT=1: one
# thread while tesseract recognizes (counted in /proc/self/task from inside).
err=$(env -u OMP_THREAD_LIMIT AMC_TEST_OCR_THREADS=1 "$AMC" scene --ui "$W/s.xml" --screenshot "$W/s.png" --ocr full 2>&1 >/dev/null)
like "$err" 'ocr threads: 1$' "env -u OMP_THREAD_LIMIT: one thread during recognition"
# A limit the user set is kept; with it above 1, OpenMP does start workers on a
# multi-core machine, which shows the count above is not vacuous.
if [ "$(nproc)" -ge 2 ]; then
	err=$(OMP_THREAD_LIMIT=4 AMC_TEST_OCR_THREADS=1 "$AMC" scene --ui "$W/s.xml" --screenshot "$W/s.png" --ocr full 2>&1 >/dev/null)
	n=$(printf '%s' "$err" | sed -n 's/.*ocr threads: \([0-9]*\).*/\1/p')
	ok_status "$([ "${n:-0}" -gt 1 ] && echo 0 || echo 1)" "control: OMP_THREAD_LIMIT=4 set by the user gives $n threads"
fi
# Children amc starts (here the adb program behind `amc devices`) get the
# user's environment: neither the limit amc added nor its marker.
cat >"$W/fake-adb" <<EOF
#!/bin/sh
env >"$W/child-env"
echo "List of devices attached"
EOF
chmod +x "$W/fake-adb"
env -u OMP_THREAD_LIMIT AMC_ADB_PATH="$W/fake-adb" "$AMC" devices >/dev/null 2>&1
ok_status "$([ -s "$W/child-env" ] && echo 0 || echo 1)" "amc devices ran the adb program"
is "$(grep -cE '^(OMP_THREAD_LIMIT|AMC_OMP_SET)=' "$W/child-env")" 0 "a child does not inherit the limit amc added"

# --- the benchmark runs (the full one is `make bench`) --------------------------------
out=$("$AMC_TEST_BUILDDIR/bench/bench_ocr" --quick 2>&1); is "$?" 0 "bench_ocr --quick runs"
like "$out" 'recall against' "bench_ocr prints recall"
like "$out" "\\(2r\\) raw frame, full" "bench_ocr prints the raw-frame row"
done_testing
