#!/bin/sh
# Ownership (docs/architecture.md): a live run stays `running` while other amc
# commands run; the device is busy for other tasks; after kill -9 the next
# command marks it `interrupted` with its finished steps, and the sim is free.
# Cancellation: SIGINT ends a run as `cancelled` with exit 130.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"

# Real latency per sim call makes a flow take several seconds. The variable is
# given on the command line itself so that $! is amc's own pid.
flow="$AMC_TEST_SRCDIR/data/flows/add-contact.yaml"

running_id() { "$AMC" tasks --status running --json | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1; }
has_running() { [ -n "$(running_id)" ]; }
steps_of() { "$AMC" show "$1" --json | grep -c '"step":'; }

AMC_SIM_FAULTS=latency:120 "$AMC" run --flow "$flow" >"$T_HOME/run1.out" 2>&1 &
pid=$!
wait_for 30 has_running; ok_status $? "the task shows up as running"
id=$(running_id)
wait_for 30 sh -c "[ \$(\"$AMC\" show $id --json | grep -c '\"step\":') -ge 2 ]"; ok_status $? "steps stream in while it runs"

# Other commands open the store meanwhile; the live task must stay running.
"$AMC" tasks >/dev/null; "$AMC" devices >/dev/null; "$AMC" show "$id" >/dev/null
st=$("$AMC" show "$id" --json | sed -n 's/.*"status":[[:space:]]*"\([a-z_]*\)".*/\1/p' | head -n 1)
is "$st" running "a live task stays running while other commands run"
out=$("$AMC" devices); like "$out" "sim:0 .*busy +$id" "devices shows the sim busy with the task"

out=$("$AMC" run --flow "$flow" 2>&1); rc=$?
is $rc 3 "a second task on the busy sim -> exit 3"
like "$out" "busy with task $id" "the busy message names the running task"
out=$("$AMC" sim tap 500 500 2>&1); is $? 3 "a direct sim action on the busy sim -> exit 3"

kill -9 $pid; wait $pid 2>/dev/null
done_steps=$(steps_of "$id")
st=$("$AMC" show "$id" --json | sed -n 's/.*"status":[[:space:]]*"\([a-z_]*\)".*/\1/p' | head -n 1)
is "$st" interrupted "after kill -9 the next command marks it interrupted"
ok_status $([ "$done_steps" -ge 2 ]; echo $?) "its finished steps are intact ($done_steps)"
out=$("$AMC" show "$id"); like "$out" "stopped before it finished" "the error says the owner died"
"$AMC" sim tap 540 1200 >/dev/null 2>&1; is $? 0 "the sim is free again"

# Cancellation with SIGINT.
AMC_SIM_FAULTS=latency:120 "$AMC" run --flow "$flow" >"$T_HOME/run2.out" 2>&1 &
pid=$!
wait_for 30 has_running; ok_status $? "second run is running"
id=$(running_id)
wait_for 30 sh -c "[ \$(\"$AMC\" show $id --json | grep -c '\"step\":') -ge 1 ]"
kill -INT $pid; wait $pid; rc=$?
is $rc 130 "SIGINT -> exit 130"
st=$("$AMC" show "$id" --json | sed -n 's/.*"status":[[:space:]]*"\([a-z_]*\)".*/\1/p' | head -n 1)
is "$st" cancelled "SIGINT -> cancelled"
n=$("$AMC" tasks --status running --json | grep -c '"id"'); is "$n" 0 "no task left running"

done_testing
