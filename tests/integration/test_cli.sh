#!/bin/sh
# The command line: help, version, and bad input everywhere a user can give it
# -> a clear message and exit 2 (3 for the environment), never a crash.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"

out=$("$AMC" --help); ok $? "--help exits 0"
like "$out" "run +run a task" "--help lists run"
like "$out" "retention" "--help lists retention"
out=$("$AMC" --version); ok $? "--version exits 0"
like "$out" "^amc [0-9]+\.[0-9]+" "--version prints the version"
out=$("$AMC" run --help); like "$out" "--flow FILE" "run --help shows options"

"$AMC" frobnicate >/dev/null 2>&1; is $? 2 "unknown command -> 2"
out=$("$AMC" frobnicate 2>&1); like "$out" "unknown command 'frobnicate'" "unknown command is named"

# Seed 000 D8: the retired runtime service settings are refused with a migration message.
for v in HOST_AGENT_RUNTIME_SUPERVISED HOST_AGENT_RUNTIME_HOST HOST_AGENT_RUNTIME_PORT; do
	out=$(env "$v=1" "$AMC" tasks 2>&1); rc=$?
	is $rc 2 "$v set -> exit 2"
	like "$out" "retired.*Unset HOST_AGENT_RUNTIME_SUPERVISED" "$v: migration message"
done

# run: bad usage and bad input
"$AMC" run >/dev/null 2>&1; is $? 2 "run without --flow -> 2"
out=$("$AMC" run --flow /nonexistent/flow.yaml 2>&1); is $? 2 "missing flow file -> 2"
like "$out" "nonexistent/flow.yaml" "missing flow file is named"
printf 'appId: x\n---\n- tapOn: [unclosed\n' > "$T_HOME/bad.yaml"
out=$("$AMC" run --flow "$T_HOME/bad.yaml" 2>&1); is $? 2 "malformed flow -> 2"
like "$out" "bad.yaml:[0-9]+" "malformed flow error has file:line"
printf 'appId: com.android.settings\n---\n- launchApp\n- flyAway: now\n' > "$T_HOME/unknown.yaml"
out=$("$AMC" run --flow "$T_HOME/unknown.yaml" 2>&1); is $? 2 "unknown flow command -> 2"
like "$out" "unknown.yaml:4.*flyAway" "unknown command error names file, line and command"
out=$("$AMC" run --flow add-contact --device phone:9 2>&1); is $? 2 "unknown device -> 2"
like "$out" "unknown device 'phone:9'" "unknown device is named"
out=$("$AMC" run --flow add-contact --max-steps zero 2>&1); is $? 2 "bad --max-steps -> 2"
out=$(env -u ANTHROPIC_API_KEY "$AMC" run "Add a contact" 2>&1 </dev/null); is $? 3 "free goal without a key -> 3"
like "$out" "set ANTHROPIC_API_KEY" "free goal message says what to set"
out=$("$AMC" run 2>&1); is $? 2 "nothing to run -> 2"

# show / tasks
out=$("$AMC" show 0000nosuchtask 2>&1); is $? 2 "unknown task id -> 2"
like "$out" "no task" "unknown task message"
out=$("$AMC" show '../../etc' 2>&1); is $? 2 "path-like task id -> 2"
"$AMC" tasks --status bogus >/dev/null 2>&1; is $? 2 "unknown status -> 2"
out=$("$AMC" tasks); ok $? "tasks on an empty history exits 0"
like "$out" "no tasks" "empty history says so"
out=$("$AMC" tasks --json); is "$out" "[]" "tasks --json on an empty history"

# config
mkdir -p "$XDG_CONFIG_HOME/amc"
printf '[runner]\nmax_steps = lots\n' > "$XDG_CONFIG_HOME/amc/config"
out=$("$AMC" tasks 2>&1); is $? 2 "malformed config -> 2"
like "$out" "config:2: .*max_steps.*not a whole number" "malformed config names line and key"
printf '[runner]\nmax_steps = 7\n' > "$XDG_CONFIG_HOME/amc/config"
out=$("$AMC" config); ok $? "config exits 0"
like "$out" "max_steps = 7 +# from .*config:2" "config shows file value and origin"
out=$(AMC_RUNNER_MAX_STEPS=9 "$AMC" config)
like "$out" "max_steps = 9 +# from env:AMC_RUNNER_MAX_STEPS" "environment beats the file"
out=$(AMC_RUNNER_MAX_STEPS=-4 "$AMC" config 2>&1); is $? 2 "bad env value -> 2"
like "$out" "AMC_RUNNER_MAX_STEPS" "bad env value names the variable"
rm -f "$XDG_CONFIG_HOME/amc/config"

out=$(AMC_HOME=relative/path "$AMC" tasks 2>&1); is $? 2 "relative AMC_HOME -> 2"

# sim direct actions: bad input
"$AMC" sim tap 1 >/dev/null 2>&1; is $? 2 "sim tap with one coordinate -> 2"
"$AMC" sim tap 99999 5 >/dev/null 2>&1; is $? 2 "sim tap outside the screen -> 2"
"$AMC" sim key sideways >/dev/null 2>&1; is $? 2 "sim key unknown -> 2"
"$AMC" sim launch com.example.nothere >/dev/null 2>&1; is $? 2 "sim launch unknown app -> 2"
"$AMC" sim --device sim:x state >/dev/null 2>&1; is $? 2 "sim bad device -> 2"

# data folder modes (CI runs as root: check modes, not access)
mode=$(stat -c %a "$AMC_HOME"); is "$mode" 700 "AMC_HOME is 0700"
mode=$(stat -c %a "$AMC_HOME/amc.db"); is "$mode" 600 "amc.db is 0600"

done_testing
