#!/bin/sh
# test_fleet_decisions.sh - a goal run by a fleet host (the planner is the
# mock Anthropic endpoint, tests/tools/mockllm) with fleet.decisions = on:
# every planner decision is also written to the fleet database with its
# attempt-scoped step index, `amc fleet show --decisions` prints them, and a
# scan of the whole database dump finds no screenshot bytes (PNG signature,
# base64 or bytea PNG), not the API key and not the secret value the task
# typed.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
pg_start
MOCK="$AMC_TEST_BUILDDIR/tests/tools/mockllm"
KEY="sk-ant-PLANTED-KEY-7f3a9c21e5"
export AMC_FLEET_LEASE_S=3 AMC_FLEET_RENEW_S=1 AMC_FLEET_POLL_S=2 AMC_FLEET_DECISIONS=on
unset ANTHROPIC_BASE_URL AMC_PLANNER_MODEL
"$AMC" fleet init >/dev/null; ok_status $? "fleet init"
mkdir -p "$T_HOME/mock"
printf '%s\n' "launch com.android.contacts
tap Add contact
tap Name
type Ada Lovelace
tap Phone
type {{secret:PHONE}}
tap Save
finish true Added Ada Lovelace" >"$T_HOME/script"
SECRET="731-88642-SECRET"
"$MOCK" "$T_HOME/script" "$T_HOME/port" "$T_HOME/mock" &
mp=$!
wait_for 10 test -s "$T_HOME/port"; ok_status $? "the mock model is up"
id=$("$AMC" fleet submit --json "Add a contact for Ada Lovelace, phone {{secret:PHONE}}" | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p')
is "$id" 1 "the goal is queued"
mkdir -p "$T_HOME/g1"
AMC_HOME="$T_HOME/g1" AMC_SECRET_PHONE="$SECRET" ANTHROPIC_API_KEY="$KEY" ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$T_HOME/port")" \
	setsid "$AMC" host --name g1 </dev/null >"$T_HOME/g1.out" 2>&1 &
hp=$!
ended() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id")" = succeeded ]; }
wait_for 40 ended; ok_status $? "the goal succeeded on the host"
[ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id")" = succeeded ] ||
	pg_sql "SELECT error FROM amc_fleet.attempt" | sed 's/^/#   /'
kill -TERM $hp; wait $hp
kill $mp; wait $mp 2>/dev/null
n=$(pg_sql "SELECT count(*) FROM amc_fleet.decision WHERE assignment_id = $id AND attempt = 1")
ok_status $([ "$n" -ge 8 ]; echo $?) "every decision is in the fleet database ($n)"
is "$(pg_sql "SELECT string_agg(step::text, ',' ORDER BY step) FROM amc_fleet.decision WHERE assignment_id = $id")" \
	"$(seq -s, 1 "$n")" "with attempt-scoped step indexes"
like "$(pg_sql "SELECT tool FROM amc_fleet.decision WHERE assignment_id = $id AND step = 2")" "tap" "and the tool called"
like "$(pg_sql "SELECT count(*) FROM amc_fleet.decision WHERE system_prompt <> '' AND user_prompt <> ''")" "^[1-9]" \
	"and the prompt texts"
show=$("$AMC" fleet show "$id" --decisions); ok_status $? "fleet show --decisions"
like "$show" "decision attempt 1 step 2: tap" "prints them"
l=$(pg_sql "SELECT local_task_id FROM amc_fleet.attempt WHERE assignment_id = $id")
like "$(AMC_HOME="$T_HOME/g1" "$AMC" show "$l" --json)" '"source_task_id":[[:space:]]*"1"' "the local task is correlated"
like "$(AMC_HOME="$T_HOME/g1" "$AMC" sim state)" "$SECRET" "the host's device got the secret value"
like "$(pg_sql "SELECT string_agg(args, ' ') FROM amc_fleet.decision")" "secret:PHONE" "the decisions keep the placeholder"
$PG_RUN "$PG_BIN/pg_dump" -h "$PG_SOCK" -p "$PG_PORT" -U amc -d fleet >"$T_HOME/dump.sql"; ok_status $? "pg_dump"
ok_status $([ -s "$T_HOME/dump.sql" ]; echo $?) "the dump is not empty"
png=$(printf '\211PNG')
for pat in "$png" "iVBORw0KGgo" "89504e470d0a1a0a" "$KEY" "$SECRET"; do
	c=$(grep -c -a -i -F -- "$pat" "$T_HOME/dump.sql")
	is "$c" 0 "no '$(printf '%s' "$pat" | tr -c '[:alnum:]' .)' in the database"
done
# Retention: the history of ended assignments is bounded by age (and count).
out=$("$AMC" fleet reap); ok_status $? "fleet reap"
is "$(pg_sql "SELECT count(*) FROM amc_fleet.decision")" "$n" "a recent assignment keeps its decisions"
pg_sql "UPDATE amc_fleet.assignment SET finished_at = now() - interval '31 days' WHERE id = $id" >/dev/null
"$AMC" fleet reap >/dev/null
is "$(pg_sql "SELECT count(*) FROM amc_fleet.decision")" 0 "one ended longer ago than decisions_max_age_days loses them"
is "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $id")" succeeded "the assignment itself stays"
done_testing
