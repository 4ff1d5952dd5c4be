#!/bin/sh
# test_fleet_needs.sh - capability matching (issues 26, 28), every check as a
# host role or the operator role, never as the owner: an assignment's --needs
# are claimed only by a host whose stated capabilities have them all; a role
# given a grant (amc fleet grant) can state only what was granted, and work
# needing anything else is neither visible to nor claimable by it; a host
# cannot write its capabilities around set_caps. Schema version 4: each
# device row carries its own capabilities (set_device_caps), a claim for a
# device takes only work its host's and its own cover (the grant still
# filters them), fleet ls names the live device that comes closest and what
# it lacks, and the real host states what each sim is (kind, apps, ...).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
pg_start
export AMC_FLEET_LEASE_S=3 AMC_FLEET_RENEW_S=1 AMC_FLEET_REAP_S=1 AMC_FLEET_POLL_S=1
export AMC_OCR_POLICY=off
FLOW="$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml"
"$AMC" fleet init >/dev/null; ok_status $? "fleet init (as the owner)"
pg_sql "CREATE ROLE host_a LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_host;
	CREATE ROLE host_b LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_host;
	CREATE ROLE op1 LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_operator" >/dev/null
ok_status $? "two host roles and an operator role"
is "$(pg_sql "SELECT count(*) FROM pg_roles WHERE rolname IN ('host_a','host_b','op1') AND NOT rolsuper AND NOT rolbypassrls")" 3 \
	"none superuser nor BYPASSRLS"
url() { echo "postgresql:///fleet?host=$PG_SOCK&port=$PG_PORT&user=$1"; }
export AMC_FLEET_URL="$(url op1)"
as() { _u=$1; shift; $PG_RUN "$PG_BIN/psql" -h "$PG_SOCK" -p "$PG_PORT" -U "$_u" -d fleet -qAt -v ON_ERROR_STOP=1 -c "$1" 2>&1; }
sid() { sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p'; }

out=$("$AMC" fleet submit --needs 'App=X y' "Turn Wi-Fi off" 2>&1); is $? 2 "a malformed need: bad usage"
like "$out" "KEY=VALUE" "saying what a need is"
id1=$("$AMC" fleet submit --needs app=com.example --flow "$FLOW" --json | sid)
id2=$("$AMC" fleet submit --flow "$FLOW" --json | sid)
id3=$("$AMC" fleet submit --needs platform=android --needs os=14 --flow "$FLOW" --json | sid)
[ -n "$id1" ] && [ -n "$id2" ] && [ -n "$id3" ]; ok_status $? "the operator role queues work with needs ($id1 $id2 $id3)"
is "$(as op1 "SELECT array_to_string(needs, ',') FROM amc_fleet.assignment WHERE id = $id3")" "platform=android,os=14" \
	"the needs are stored"
like "$("$AMC" fleet show "$id3")" "needs: platform=android,os=14" "fleet show prints them"

# host_a by hand: a host without capabilities claims only work that needs nothing.
ha=$(as host_a "SELECT amc_fleet.register_host('A', 'x', 1)")
as host_a "SELECT amc_fleet.add_device($ha, 'sim:0', 'sim')" >/dev/null
is "$(as host_a "SELECT array_length(amc_fleet.set_caps($ha, '{}'), 1)")" "" "host_a states no capabilities"
is "$(as host_a "SELECT assignment_id FROM amc_fleet.claim($ha, 'sim:0', 'sim', 600)")" "$id2" \
	"a host without capabilities skips work that needs some and claims the one that needs none"
set -- $(as op1 "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE assignment_id = $id2")
is "$(as host_a "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)")" t "and ends it"
is "$(as host_a "SELECT count(*) FROM amc_fleet.claim($ha, 'sim:0', 'sim', 600)")" 0 \
	"then finds nothing it can do (app=com.example and platform=android are not its)"
like "$(as host_a "UPDATE amc_fleet.host SET caps = '{app=com.example}'")" "permission denied" \
	"host_a cannot write its capabilities around set_caps"
like "$(as host_a "SELECT amc_fleet.set_caps($ha, '{\"Bad Cap\"}')")" "a capability is KEY=VALUE" \
	"a malformed capability is refused"
is "$(as host_a "SELECT array_to_string(amc_fleet.set_caps($ha, '{app=com.example}'), ',')")" "app=com.example" \
	"host_a (no grant: trusted) states app=com.example"
is "$(as host_a "SELECT assignment_id FROM amc_fleet.claim($ha, 'sim:0', 'sim', 600)")" "$id1" \
	"and claims the work that needs it"
set -- $(as op1 "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE assignment_id = $id1")
as host_a "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)" >/dev/null

# A grant: host_b may state platform=* only.
out=$("$AMC" fleet grant host_b 'Bad Cap' 2>&1); is $? 2 "a malformed grant: bad usage"
out=$("$AMC" fleet grant host_b 'platform=*' os=14 2>&1); ok_status $? "the operator grants host_b platform=* and os=14"
like "$(as host_b "INSERT INTO amc_fleet.role_caps VALUES ('host_b', '{app=com.example}')")" "permission denied" \
	"host_b cannot grant itself more"
like "$(as host_b "UPDATE amc_fleet.role_caps SET caps = '{app=com.example}'")" "permission denied" "nor widen its grant"
hb=$(as host_b "SELECT amc_fleet.register_host('B', 'x', 1)")
as host_b "SELECT amc_fleet.add_device($hb, 'sim:0', 'sim')" >/dev/null
like "$(as host_b "SELECT amc_fleet.set_caps($ha, '{app=com.example}')")" "registered by another role" \
	"host_b cannot set host_a's capabilities"
is "$(as host_b "SELECT array_to_string(amc_fleet.set_caps($hb, '{app=com.example,platform=android,os=14}'), ',')")" \
	"platform=android,os=14" "host_b claims app=com.example too, but keeps only what was granted"
is "$(as op1 "SELECT array_to_string(caps_refused, ',') FROM amc_fleet.host WHERE id = $hb")" "app=com.example" \
	"the refused capability is kept for the operator"
id4=$("$AMC" fleet submit --needs app=com.example --priority 10 --flow "$FLOW" --json | sid)
is "$(as host_b "SELECT count(*) FROM amc_fleet.assignment WHERE id = $id4")" 0 \
	"host_b cannot even read work that needs what it was not granted"
is "$(as host_a "SELECT count(*) FROM amc_fleet.assignment WHERE id = $id4")" 1 "host_a (no grant) can"
is "$(as host_b "SELECT assignment_id FROM amc_fleet.claim($hb, 'sim:0', 'sim', 600)")" "$id3" \
	"host_b claims the platform=android work, not the higher-priority app=com.example work (lying got it nothing)"
set -- $(as op1 "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE assignment_id = $id3")
as host_b "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)" >/dev/null
# A grant withdrawn applies at once, even to capabilities already stored.
pg_sql "UPDATE amc_fleet.host SET caps = '{app=com.example}' WHERE id = $hb" >/dev/null
is "$(as host_b "SELECT count(*) FROM amc_fleet.claim($hb, 'sim:0', 'sim', 600)")" 0 \
	"a stored capability outside the grant does not count in a claim"

# The real host agent as host_b: it says what was refused and runs only what
# it may.
id5=$("$AMC" fleet submit --needs platform=android --flow "$FLOW" --json | sid)
mkdir -p "$T_HOME/b"
AMC_HOME="$T_HOME/b" AMC_FLEET_URL="$(url host_b)" AMC_FLEET_CAPABILITIES="app=com.example,platform=android" \
	AMC_AGENT_CLAUDE_PATH=/nonexistent/claude AMC_AGENT_CODEX_PATH=/nonexistent/codex \
	"$AMC" host --devices sim:0 --name B >"$T_HOME/b.out" 2>&1 &
pb=$!
done5() { [ "$(as op1 "SELECT state FROM amc_fleet.assignment WHERE id = $id5")" = succeeded ]; }
wait_for 40 done5; ok_status $? "host B (amc host as host_b) runs the platform=android work"
like "$(cat "$T_HOME/b.out")" "refused: app=com.example" "and says the capability it was not granted was refused"
is "$(as op1 "SELECT state FROM amc_fleet.assignment WHERE id = $id4")" queued "the app=com.example work stays queued"
like "$("$AMC" fleet hosts)" "refused \(not granted to its role\): app=com.example" "fleet hosts shows the refusal"
kill -TERM $pb; wait $pb; ok_status $? "host B stopped cleanly"
# --any: the role is trusted with what it states again.
"$AMC" fleet grant host_b --any >/dev/null; ok_status $? "fleet grant --any"
is "$(as host_b "SELECT count(*) FROM amc_fleet.assignment WHERE id = $id4")" 1 "host_b now sees the work"
# An --agent goal needs agent=claude: a host where Claude Code cannot run
# never claims it (the claude CLI probe is in test_fleet.sh).
id6=$("$AMC" fleet submit --agent claude --json "Turn Wi-Fi off" | sid)
is "$(as op1 "SELECT array_to_string(needs, ',') FROM amc_fleet.assignment WHERE id = $id6")" "agent=claude" \
	"--agent claude: the assignment needs agent=claude"
is "$(as host_a "SELECT assignment_id FROM amc_fleet.claim($ha, 'sim:0', 'sim', 600)")" "$id4" \
	"host_a (app=com.example) claims the app work queued before it"
# a device runs one attempt at a time (schema version 5): end it first
set -- $(as op1 "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE assignment_id = $id4")
as host_a "SELECT amc_fleet.finish($1, $2, 'succeeded', NULL)" >/dev/null
is "$(as host_a "SELECT count(*) FROM amc_fleet.claim($ha, 'sim:0', 'sim', 600)")" 0 \
	"but not the agent goal (no agent=claude)"
# fleet ls says why queued work waits.
id7=$("$AMC" fleet submit --needs gpu=h100 --flow "$FLOW" --json | sid)
id8=$("$AMC" fleet submit --not-before +1h --flow "$FLOW" --json | sid)
ls=$("$AMC" fleet ls --state queued)
like "$(printf '%s\n' "$ls" | grep "^$id7 ")" "\(no live host can claim it: none up with sim devices has gpu=h100; closest: A sim:0 lacks gpu=h100\)" \
	"fleet ls: work no live host can do says why (and which live device comes closest)"
like "$(printf '%s\n' "$ls" | grep "^$id8 ")" "\(not before [0-9-]+ [0-9:]+ UTC\)" "and work waiting for its time says until when"
is "$("$AMC" fleet ls --json | grep -c '"waiting":')" "$("$AMC" fleet ls --json | grep -c '"id":')" "--json has waiting on every row"
# The Fleet view reads through the fleet module (fleet/watch.h), as the
# operator role: the hosts with their capabilities and the queued work.
printf 'F\n:drain\n:dump fleet\n' >"$T_HOME/fleet.keys"
mkdir -p "$T_HOME/tui" "$T_HOME/dumps"
TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8 AMC_HOME="$T_HOME/tui" \
	"$AMC" tui --script "$T_HOME/fleet.keys" --dump-dir "$T_HOME/dumps" --size 140x40 >/dev/null 2>&1
ok_status $? "the Fleet view script runs"
like "$(cat "$T_HOME/dumps/fleet.txt")" "Turn Wi-Fi off" "the Fleet view lists the assignments"
like "$(cat "$T_HOME/dumps/fleet.txt")" "B " "and the hosts"
like "$(cat "$T_HOME/dumps/fleet.txt")" "\(no live host can claim it: none up with sim devices has gpu=h100" \
	"and why queued work waits"

# Capabilities per device (schema version 4).
as host_a "SELECT amc_fleet.add_device($ha, 'sim:1', 'sim')" >/dev/null
is "$(as host_a "SELECT array_to_string(amc_fleet.set_device_caps($ha, 'sim:1', '{app=com.only.one,screen=1080x2400}'), ',')")" \
	"app=com.only.one,screen=1080x2400" "host_a states what its sim:1 has"
like "$(as host_a "UPDATE amc_fleet.device SET caps = '{gpu=h100}'")" "permission denied" \
	"a host cannot write a device's capabilities around set_device_caps"
like "$(as host_b "SELECT amc_fleet.set_device_caps($ha, 'sim:1', '{gpu=h100}')")" "registered by another role" \
	"nor state another role's device's"
like "$(as host_a "SELECT amc_fleet.set_device_caps($ha, 'sim:9', '{gpu=h100}')")" "not registered" \
	"nor a device it did not register"
like "$(as host_a "SELECT amc_fleet.set_device_caps($ha, 'sim:1', '{\"Bad Cap\"}')")" "a capability is KEY=VALUE" \
	"a malformed device capability is refused"
id9=$("$AMC" fleet submit --needs app=com.only.one --priority 20 --flow "$FLOW" --json | sid)
is "$(as host_a "SELECT count(*) FROM amc_fleet.claim($ha, 'sim:0', 'sim', 600)")" 0 \
	"host_a's sim:0 (without the app) does not claim work that needs it"
is "$(as host_a "SELECT assignment_id FROM amc_fleet.claim($ha, 'sim:1', 'sim', 600)")" "$id9" \
	"host_a's sim:1 (with it) does"
# a grant filters device capabilities as it does the host's
"$AMC" fleet grant host_b 'platform=*' >/dev/null; ok_status $? "host_b may state platform=* again"
is "$(as host_b "SELECT array_to_string(amc_fleet.set_device_caps($hb, 'sim:0', '{platform=android,app=com.only.one}'), ',')")" \
	"platform=android" "host_b's device keeps only what was granted"
is "$(as op1 "SELECT array_to_string(caps_refused, ',') FROM amc_fleet.device WHERE host_id = $hb AND device = 'sim:0'")" \
	"app=com.only.one" "the refused device capability is kept for the operator"
id10=$("$AMC" fleet submit --needs app=com.only.one --flow "$FLOW" --json | sid)
pg_sql "UPDATE amc_fleet.device SET caps = caps || '{app=com.only.one}' WHERE host_id = $hb" >/dev/null
is "$(as host_b "SELECT count(*) FROM amc_fleet.claim($hb, 'sim:0', 'sim', 600)")" 0 \
	"a stored device capability outside the grant does not count in a claim"
# fleet ls: the live device that comes closest, and what it lacks
as host_a "SELECT amc_fleet.heartbeat($ha, false)" >/dev/null
like "$("$AMC" fleet ls --state queued | grep "^$id7 ")" \
	"\(no live host can claim it: none up with sim devices has gpu=h100; closest: A sim:0 lacks gpu=h100\)" \
	"fleet ls names the closest live device and what it lacks"
# A goal needs a planner: planner=on, which a host states when one is configured.
id12=$("$AMC" fleet submit --json "Turn Wi-Fi on" | sid)
is "$(as op1 "SELECT array_to_string(needs, ',') FROM amc_fleet.assignment WHERE id = $id12")" "planner=on" \
	"a goal needs planner=on"
is "$(as host_a "SELECT count(*) FROM amc_fleet.claim($ha, 'sim:0', 'sim', 600)")" 0 \
	"a host without a planner does not claim it"
as host_a "SELECT amc_fleet.set_caps($ha, '{app=com.example,planner=on}')" >/dev/null
is "$(as host_a "SELECT assignment_id FROM amc_fleet.claim($ha, 'sim:0', 'sim', 600)")" "$id12" \
	"one that states planner=on does"
set -- $(as op1 "SELECT id || ' ' || token FROM amc_fleet.attempt WHERE assignment_id = $id12")
as host_a "SELECT amc_fleet.finish($1, $2, 'cancelled', 'test')" >/dev/null
# The real host states each device's capabilities; work needing one of its
# sim's apps runs there.
"$AMC" fleet grant host_b --any >/dev/null
id11=$("$AMC" fleet submit --needs app=com.amc.files --needs kind=sim --needs platform=android --flow "$FLOW" --json | sid)
AMC_HOME="$T_HOME/b" AMC_FLEET_URL="$(url host_b)" \
	AMC_AGENT_CLAUDE_PATH=/nonexistent/claude AMC_AGENT_CODEX_PATH=/nonexistent/codex \
	"$AMC" host --devices sim:0 --name B >"$T_HOME/b2.out" 2>&1 &
pb=$!
done11() { [ "$(as op1 "SELECT state FROM amc_fleet.assignment WHERE id = $id11")" = succeeded ]; }
wait_for 40 done11; ok_status $? "host B runs work that needs its sim's app, kind and platform"
dcaps=$(as op1 "SELECT array_to_string(caps, ',') FROM amc_fleet.device WHERE host_id = $hb AND device = 'sim:0'")
like "$dcaps" "kind=sim" "its device row states the kind"
like "$dcaps" "model=amc_sim" "the model"
like "$dcaps" "screen=[0-9]+x[0-9]+" "the screen size"
like "$dcaps" "app=com.android.settings" "and the installed apps"
like "$("$AMC" fleet hosts)" "    capabilities: .*app=com.amc.files" "fleet hosts shows each device's capabilities"
kill -TERM $pb; wait $pb; ok_status $? "host B stopped cleanly again"
done_testing
