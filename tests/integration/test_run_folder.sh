# test_run_folder.sh - `amc run --flow DIR` on the sim: every flow below the
# folder as its own task, tags selecting them, a JUnit report, exit 1 on a failure.
. "${AMC_TEST_SRCDIR:-.}/tests/integration/tap.sh"
D="$T_HOME/suite"
mkdir -p "$D/more"
cp "$AMC_TEST_SRCDIR/data/flows/add-contact.yaml" "$D/a.yaml"
printf 'appId: com.android.contacts\nname: Fails <on purpose>\ntags: [smoke, broken]\n---\n- assertVisible: "No such text"\n' >"$D/more/b.yaml"
printf 'appId: com.android.contacts\ntags: [smoke]\n---\n- assertVisible: "Contacts"\n' >"$D/more/c.yml"
printf 'flows:\n  - "*"\n  - "more/*"\n' >"$D/config.yaml"

"$AMC" run --flow "$D" --device sim --format junit --output "$T_HOME/j.xml" 2>"$T_HOME/err"; rc=$?
is "$rc" 1 "one flow fails: exit 1"
like "$(cat "$T_HOME/err")" '2 of 3 flows passed' "every flow below the folder ran (not config.yaml)"
j=$(cat "$T_HOME/j.xml")
like "$j" '<testsuite name="[^"]*" tests="3" failures="1"' "JUnit: counts"
like "$j" 'name="Fails &lt;on purpose&gt;"' "JUnit: names XML-escaped"
like "$j" '<failure message="step 1: [^"]*b\.yaml:5: assertVisible' "JUnit: the failure names file and line"
like "$j" 'system-out>amc task [0-9a-z]+' "JUnit: the task of each flow"

out=$("$AMC" run --flow "$D" --device sim --include-tags smoke --exclude-tags broken --json); rc=$?
is "$rc" 0 "tags: the failing flow excluded"
like "$out" '"flows":[[:space:]]*1' "tags: only c.yml"
like "$out" '"passed":[[:space:]]*true' "it passed"
"$AMC" run --flow "$D" --device sim --include-tags nothing-has-this >/dev/null 2>&1; is "$?" 2 "no flow matches: exit 2"
"$AMC" run --flow "$D" --format junit >/dev/null 2>&1; is "$?" 2 "--format junit needs --output"
"$AMC" run --flow "$D/a.yaml" --include-tags x >/dev/null 2>&1; is "$?" 2 "tags go with a folder"
# Maestro's workspace: top-level flows only without a config; executionOrder
E="$T_HOME/ws"; mkdir -p "$E/sub"
cp "$D/more/c.yml" "$E/sub/c.yml"
"$AMC" run --flow "$E" --device sim >/dev/null 2>"$T_HOME/err"; is "$?" 2 "no top-level flow: exit 2"
like "$(cat "$T_HOME/err")" 'has no top-level flows' "saying Maestro runs the top level only"
cp "$D/more/b.yaml" "$E/b.yaml"; cp "$D/more/c.yml" "$E/c.yml"; cp "$D/more/c.yml" "$E/d.yml"
printf 'executionOrder:\n  continueOnFailure: false\n  flowsOrder: [Fails <on purpose>, c, d]\n' >"$E/config.yaml"
out=$("$AMC" run --flow "$E" --device sim --json 2>/dev/null); is "$?" 1 "executionOrder: its first flow fails"
like "$(printf '%s' "$out" | tr -d '\n\t ')" '"results":\[\{"flow":"[^"]*/b.yaml"' "flowsOrder: by name, first"
like "$out" 'not run: an earlier flow of executionOrder failed' "continueOnFailure: false stops the sequence"
n=$("$AMC" tasks --json | grep -c '"id"')
ok $((n >= 4)) "each flow is its own recorded task ($n)"
done_testing
