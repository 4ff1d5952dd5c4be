#!/bin/sh
# test_fleet_attack.sh - the fleet as an attacker with a host role's
# credentials (a member of amc_fleet_host, NOSUPERUSER NOBYPASSRLS, what one
# phone host has) or an operator's (amc_fleet_operator) sees it, every
# connection over TLS with sslmode=verify-full: escalation (roles, RLS,
# functions, search_path), other hosts' rows, stopping other hosts (advisory
# locks, a long transaction, a NOTIFY storm, huge or poisoned values),
# values that would break the CLI (terminal escapes, a shell command built
# from a host's name), a payload's scripts reaching the network, and the TLS
# refusals (plaintext, wrong CA, wrong name, expired certificate). Every check
# fails when its attack succeeds (docs/fleet.md, "Security").
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
command -v openssl >/dev/null 2>&1 || skip_all "openssl is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed for the local HTTP server"
pg_tls_certs expired; ok_status $? "a CA, a server certificate and an expired one"
SSLON="-c ssl=on -c ssl_cert_file=$TLS/server.crt -c ssl_key_file=$TLS/server.key"
PG_TCP=1 PG_OPTS="$SSLON" pg_start
export AMC_FLEET_LEASE_S=3 AMC_FLEET_RENEW_S=1 AMC_FLEET_REAP_S=1 AMC_FLEET_REAP_GRACE_S=0 AMC_FLEET_POLL_S=30
export AMC_OCR_POLICY=off
url_of() { echo "postgresql://$1@localhost:$PG_PORT/fleet?sslmode=verify-full&sslrootcert=$TLS/ca.crt"; }
export AMC_FLEET_URL="$(url_of amc)"
"$AMC" fleet init >/dev/null; ok_status $? "fleet init over TLS (verify-full), as the owner"
pg_sql "CREATE ROLE host_a LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_host;
	CREATE ROLE host_b LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_host;
	CREATE ROLE op1 LOGIN NOSUPERUSER NOBYPASSRLS IN ROLE amc_fleet_operator" >/dev/null
ok_status $? "two host roles and an operator role"
# psql as ROLE over TLS, the certificate and name verified
as() { _u=$1; shift; $PG_RUN "$PG_BIN/psql" \
	"host=localhost port=$PG_PORT dbname=fleet user=$_u sslmode=verify-full sslrootcert=$TLS/ca.crt" \
	-qAt -v ON_ERROR_STOP=1 -c "$1" 2>&1; }
is "$(as host_a "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")" t "host_a's psql session is TLS"
ha=$(as host_a "SELECT amc_fleet.register_host('A', 'a.example', 1)")
hb=$(as host_b "SELECT amc_fleet.register_host('B', 'b.example', 2)")
as host_a "SELECT amc_fleet.add_device($ha, 'sim:0', 'sim')" >/dev/null
as host_b "SELECT amc_fleet.add_device($hb, 'sim:0', 'sim'); SELECT amc_fleet.add_device($hb, 'sim:1', 'sim')" >/dev/null
is "$ha:$hb" "1:2" "each host role registered its host and devices"
OPURL=$(url_of op1)
submit() { AMC_FLEET_URL="$OPURL" "$AMC" fleet submit "$@" --json | sed -n 's/.*"id":[[:space:]]*\([0-9]*\).*/\1/p'; }

## 1. Escalation: a host role changes no schema, role, policy or setting.
like "$(as host_a "CREATE ROLE evil LOGIN SUPERUSER")" "permission denied|must be superuser" "host role: CREATE ROLE refused"
like "$(as host_a "CREATE ROLE evil LOGIN")" "permission denied" "nor a plain one"
like "$(as host_a "GRANT amc_fleet_operator TO host_a")" "permission denied|must have admin option" \
	"nor grant itself the operator role"
like "$(as host_a "SET ROLE amc_fleet_operator")" "permission denied" "nor SET ROLE to it"
like "$(as host_a "SET SESSION AUTHORIZATION host_b")" "permission denied" \
	"nor become host_b (session_user, the identity every function checks)"
like "$(as host_a "ALTER TABLE amc_fleet.assignment DISABLE ROW LEVEL SECURITY")" "must be owner" \
	"nor disable row-level security"
like "$(as host_a "DROP POLICY claimable_or_ran ON amc_fleet.assignment")" "must be owner" "nor drop a policy"
like "$(as host_a "ALTER TABLE amc_fleet.attempt ADD COLUMN x int")" "must be owner" "nor alter a table"
like "$(as host_a "CREATE FUNCTION amc_fleet.x() RETURNS int LANGUAGE sql AS 'SELECT 1'")" "permission denied" \
	"nor create a function in amc_fleet"
like "$(as host_a "CREATE TABLE public.t (x int)")" "permission denied" "nor a table in public"
like "$(as host_a "CREATE OR REPLACE FUNCTION amc_fleet.claim(p_host bigint, p_device text, p_kind text,
	p_lease double precision) RETURNS TABLE (attempt_id bigint, assignment_id bigint, n int, token bigint,
	payload text, max_steps int, timeout_s double precision) LANGUAGE sql AS 'SELECT 1,1,1,1,NULL,1,1.0'")" \
	"permission denied|must be owner" "nor replace the claim function"
like "$(as host_a "UPDATE amc_fleet.setting SET lease_max_s = 3600")" "permission denied" "nor raise its limits"
for f in "after_failure(1, 'x', false)" "granted('{a=b}')" "limits()" "check_lease(1)" "own_host($hb)" \
	"own_attempt(1, 1)" "reap(0, 1, 1)" "notify()"; do
	like "$(as host_a "SELECT amc_fleet.$f")" "permission denied|trigger functions can only be called" \
		"host role may not call amc_fleet.${f%%(*}"
done
is "$(pg_sql "SELECT string_agg(p.proname, ',') FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
	WHERE n.nspname = 'amc_fleet' AND p.prosecdef
	  AND NOT EXISTS (SELECT 1 FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=pg_catalog, pg_temp')")" "" \
	"every SECURITY DEFINER function pins search_path to pg_catalog, pg_temp"
is "$(pg_sql "SELECT string_agg(p.proname, ',') FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
	WHERE n.nspname = 'amc_fleet' AND has_function_privilege('public', p.oid, 'EXECUTE')
	  AND p.prorettype <> 'trigger'::regtype")" "" \
	"no amc_fleet function but the trigger's is executable by PUBLIC"
# Temporary tables would fill the server's disk (and shadow names on a
# search_path): init took TEMPORARY from PUBLIC.
like "$(as host_a "CREATE TEMP TABLE host AS SELECT repeat('x', 1000) AS x FROM generate_series(1, 100000)")" \
	"permission denied to create temporary tables" "host role: no temporary tables (no disk to fill)"
is "$(as host_a "SET search_path = public, amc_fleet; SELECT amc_fleet.register_host('A', 'a.example', 1)")" "$ha" \
	"a search_path of its own changes nothing in the functions"

## 2. Other hosts' rows: neither read nor changed, nor cancelled.
idb=$(submit --host B --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml")
set -- $(as host_b "SELECT attempt_id || ' ' || token FROM amc_fleet.claim($hb, 'sim:0', 'sim', 30)")
batt=$1 btok=$2
is "$(as host_a "SELECT count(*) FROM amc_fleet.assignment WHERE id = $idb")" 0 "host_a cannot read B's pinned work"
is "$(as host_a "SELECT count(*) FROM amc_fleet.attempt") $(as host_a "SELECT count(*) FROM amc_fleet.host")" "0 1" \
	"nor B's attempt or host row"
like "$(as host_a "UPDATE amc_fleet.assignment SET cancel_requested = true WHERE id = $idb")" "permission denied" \
	"nor cancel B's work"
like "$(as host_a "DELETE FROM amc_fleet.assignment")" "permission denied" "nor delete the queue"
like "$(as host_a "SELECT amc_fleet.finish($batt, $btok, 'cancelled', 'x')")" "belongs to another host role" \
	"nor end B's attempt, even with its token"
like "$(as op1 "UPDATE amc_fleet.attempt SET state = 'succeeded' WHERE id = $batt")" "permission denied" \
	"the operator cannot forge a host's result"
like "$(as host_a "SELECT amc_fleet.register_host('B', 'x', 9)")" "registered by another role" \
	"host_a cannot take host B's name (its pinned work)"
like "$(as host_a "SELECT * FROM amc_fleet.claim($hb, 'sim:0', 'sim', 30)")" "registered by another role" \
	"nor claim as B's host row"
like "$(as host_a "SELECT amc_fleet.heartbeat($hb, true)")" "registered by another role" "nor mark B stopped"

# an attempt of host_b whose lease ended an hour ago, on its own assignment
expired() {
	_x=$(pg_sql "INSERT INTO amc_fleet.assignment (kind, title, payload, state, max_attempts)
		VALUES ('goal', 'expired', '{}', 'leased', 1) RETURNING id")
	pg_sql "INSERT INTO amc_fleet.attempt (assignment_id, n, host_id, host_label, host_role, device, started_at, lease_until)
		VALUES ($_x, 1, $hb, 'B', 'host_b', '$1', now() - interval '1 h', now() - interval '1 h')" >/dev/null
}
## 3. Stopping other hosts: advisory locks anyone may take, a long transaction.
# Session advisory locks need no privilege: host_a takes the keys that the
# fleet's functions would wait on (host_b's device, host name, role, the
# reaper); host_b must still claim, register and reap.
hold() { as host_a "SELECT pg_advisory_lock(hashtext('$1')); SELECT pg_sleep(60)" >/dev/null & }
hold "amc_fleet.device:$hb:sim:1"; hold "amc_fleet.host:B"; hold "amc_fleet.role:host_b"; hold "amc_fleet.reap"
hold "amc_fleet.schema"
held() { [ "$(pg_sql "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")" -ge 5 ]; }
wait_for 10 held; ok_status $? "host_a holds five advisory locks"
out=$(timeout 25 "$AMC" fleet init 2>&1); rc=$?
is "$rc" 3 "amc fleet init does not hang on the schema's lock held by a host role"
like "$out" "lock is held \(role host_a pid [0-9]+\)" "it names who holds it"
out=$(as host_b "SET statement_timeout = 3000; SELECT count(*) FROM amc_fleet.claim($hb, 'sim:1', 'sim', 30)")
is "$out" 0 "host_b still claims for its device (not waiting on host_a's lock)"
out=$(as host_b "SET statement_timeout = 3000; SELECT amc_fleet.register_host('B', 'b.example', 2)")
is "$out" "$hb" "host_b still registers its name"
out=$(as host_b "SET statement_timeout = 3000; SELECT amc_fleet.register_host('B2', 'b.example', 3) > 0")
is "$out" t "and a new name of its role"
expired sim:9
is "$(as host_b "SET statement_timeout = 3000; SELECT amc_fleet.reap_stored()")" 1 \
	"host_b's reaper still reaps while host_a holds the reaper's key"
pg_sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'host_a'" >/dev/null
# A name whose host rows the operator deleted may be taken by another role.
as op1 "DELETE FROM amc_fleet.host WHERE label = 'B2'" >/dev/null
like "$(as host_a "SELECT amc_fleet.register_host('B2', 'a', 1)")" "^[0-9]+$" \
	"host_a takes B2 once the operator deleted host_b's rows of it"
like "$(as host_b "SELECT amc_fleet.register_host('B2', 'b', 1)")" "registered by another role" "and it is host_a's now"
# A reaper call left open in a transaction holds only what it reaped then;
# a later one in the same transaction is refused.
expired sim:8
as host_a "BEGIN; SELECT amc_fleet.reap_stored(); SELECT pg_sleep(60)" >/dev/null &
open_tx() { [ "$(pg_sql "SELECT count(*) FROM pg_stat_activity WHERE usename = 'host_a' AND query LIKE '%pg_sleep%'")" = 1 ]; }
wait_for 10 open_tx
expired sim:7
is "$(as host_b "SET statement_timeout = 3000; SELECT amc_fleet.reap_stored()")" 1 \
	"an attempt expired later is reaped while host_a's reaper transaction stays open"
pg_sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'host_a'" >/dev/null
like "$(as host_a "BEGIN; SELECT pg_sleep(3); SELECT amc_fleet.reap_stored()")" "its own short transaction" \
	"reap_stored in a transaction that has been open for a while is refused"

## 4. Values that break what shows them: escapes, bad UTF-8, huge strings.
ESC=$(printf '\033') BEL=$(printf '\007') CSI=$(printf '\302\233')
ida=$(submit --host A --flow "$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml")
like "$(as host_a "SELECT amc_fleet.register_host(E'A\\033[2J', 'a', 1)")" "no control characters" \
	"a host name with a terminal escape is refused"
like "$(as host_a "SELECT amc_fleet.add_device($ha, E'sim:\\033[31mred', 'sim')")" "no control characters" \
	"and a device name with one"
is "$(as host_a "SELECT amc_fleet.register_host('A', E'-oProxyCommand=sh -c id;\\033]0;owned\\007\\302\\233[2J', 1);
	SELECT amc_fleet.add_device($ha, 'sim:0', 'sim');
	SELECT hostname FROM amc_fleet.host WHERE id = $ha")" "$ha

-oProxyCommand=sh -c id;]0;owned[2J" "control characters in a hostname are dropped"
set -- $(as host_a "SELECT attempt_id || ' ' || token FROM amc_fleet.claim($ha, 'sim:0', 'sim', 30)")
aatt=$1 atok=$2
is "$(as host_a "SELECT count(*) FROM amc_fleet.renew($aatt, $atok, 30, 1, E'\\033[2J\\033[H', E'\\302\\233' || 'x' || repeat('y', 5000000))")" 1 \
	"host_a renews with escapes in its step status and a 5 MB summary"
is "$(pg_sql "SELECT length(progress_summary) <= 1000 FROM amc_fleet.attempt WHERE id = $aatt")" t "the summary is cut to 1000"
is "$(as host_a "SELECT amc_fleet.publish($aatt, $atok, 'x;touch /tmp/pwned2')")" t "and names its local task with a shell command"
like "$(as host_a "SELECT amc_fleet.publish($aatt, $atok, E'\\377\\376')")" "invalid byte sequence" \
	"bad UTF-8 is refused by the database"
for c in "ls" "show $ida" "hosts"; do
	# shellcheck disable=SC2086
	out=$(AMC_FLEET_URL="$OPURL" "$AMC" fleet $c 2>&1); rc=$?
	n=$(printf '%s' "$out" | LC_ALL=C grep -c -e "$ESC" -e "$BEL" -e "$CSI")
	is "$rc:$n" "0:0" "amc fleet $c shows the hostile values without a terminal escape"
done
out=$(AMC_FLEET_URL="$OPURL" "$AMC" fleet show "$ida" --json)
insp=$(printf '%s' "$out" | sed -n 's/.*"inspect":[[:space:]]*"\([^"]*\)".*/\1/p')
case "$insp" in
*ProxyCommand*|*";"*) ok 0 "the ssh command fleet show builds carries no option or command from the host ($insp)" ;;
*) ok 1 "the ssh command fleet show builds carries no option or command from the host" ;;
esac
like "$(AMC_FLEET_URL="$OPURL" "$AMC" fleet metrics)" "amc_fleet_hosts" "fleet metrics still works"
as host_a "SELECT amc_fleet.finish($aatt, $atok, 'succeeded', NULL)" >/dev/null

## 5. The operator's payloads: bounded, and a poisoned one crashes no host.
like "$(as op1 "INSERT INTO amc_fleet.assignment (kind, title, payload) VALUES ('flow', 't', repeat('x', 20000000))")" \
	"violates check constraint" "a 20 MB payload is refused by the database"
like "$(as op1 "INSERT INTO amc_fleet.assignment (kind, title, payload) VALUES ('flow', repeat('t', 100000), '{}')")" \
	"violates check constraint" "and a 100 kB title"
as op1 "INSERT INTO amc_fleet.assignment (kind, title, payload, priority) VALUES
	('flow', 'p1', '{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"../../etc/x.yaml\",\"text\":\"a\"}}', 9),
	('flow', 'p2', '{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"x.yaml\",\"text\":\"' || repeat('[', 100000) || '\"}}', 9),
	('goal', 'p3', '{\"v\":9,' || repeat('{\"a\":', 10000), 9),
	('flow', 'p4', '{\"v\":1,\"kind\":\"flow\",\"flow\":{\"name\":\"bomb.yaml\",\"text\":\"appId: a\\n---\\n'
	  || '- &a [x, x, x, x, x, x, x, x, x]\\n- &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\\n'
	  || '- &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\\n- [*c, *c, *c, *c, *c, *c, *c, *c, *c]\\n\"}}', 9)" >/dev/null
ok_status $? "the operator queues four poisoned payloads directly (a bad name, deep YAML, deep JSON, a YAML alias bomb)"

## 6. A NOTIFY storm (any role may NOTIFY) makes no host hammer the database;
## the poisoned payloads fail and the host goes on; a payload's script
## reaches no address the host's configuration does not list.
W="$T_HOME/flows"; mkdir -p "$W/www"
echo secret >"$W/www/secret.txt"
python3 -c '
import http.server, socketserver, sys, os, functools
class H(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        open(sys.argv[3], "a").write(self.path + "\n")
h = functools.partial(H, directory=sys.argv[1])
with socketserver.TCPServer(("127.0.0.1", 0), h) as s:
    open(sys.argv[2] + ".tmp", "w").write(str(s.server_address[1]))
    os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    s.serve_forever()
' "$W/www" "$T_HOME/port" "$T_HOME/http.log" &
pyp=$!
wait_for 10 test -s "$T_HOME/port"
PORT=$(cat "$T_HOME/port")
printf 'const r = http.get("http://127.0.0.1:%s/secret.txt");\noutput.got = r.body;\n' "$PORT" >"$W/probe.js"
printf 'appId: com.android.settings\nname: probe\n---\n- runScript: probe.js\n- assertTrue: ${output.got === "secret\\n"}\n' >"$W/probe.yaml"
idh=$(submit --host A --flow "$W/probe.yaml")
mkdir -p "$T_HOME/ha"
AMC_HOME="$T_HOME/ha" AMC_FLEET_URL="$(url_of host_a)" "$AMC" host --devices sim:0 --name A >"$T_HOME/ha.out" 2>&1 &
ph=$!
idle() { [ "$(pg_sql "SELECT count(*) FROM amc_fleet.assignment WHERE state IN ('queued','leased') AND (want_host IS NULL OR want_host = 'A')")" = 0 ]; }
wait_for 40 idle; ok_status $? "host A ran or failed everything queued for it"
is "$(pg_sql "SELECT string_agg(state, ',' ORDER BY id) FROM amc_fleet.assignment WHERE title IN ('p1','p2','p3','p4')")" \
	"failed,failed,failed,failed" "the four poisoned payloads failed their attempts"
like "$(pg_sql "SELECT error FROM amc_fleet.assignment WHERE title = 'p4'")" "alias|anchor" "the alias bomb is refused as such"
is "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $idh")" failed \
	"the payload's http.get to 127.0.0.1 failed: not in the host's js_http_hosts"
like "$(pg_sql "SELECT error FROM amc_fleet.assignment WHERE id = $idh")" "not allowed" "saying the host is not allowed"
is "$(cat "$T_HOME/http.log" 2>/dev/null | wc -l)" 0 "and the server got no request"
kill -0 $ph 2>/dev/null; ok_status $? "host A is still running"
sleep 2
c0=$(pg_sql "SELECT claim_latency[1]::bigint FROM amc_fleet.host WHERE id = $ha")
i=0; while [ $i -lt 3000 ]; do echo "SELECT pg_notify('amc_fleet_work', 'sim');"; i=$((i + 1)); done >"$T_HOME/storm.sql"
t0=$(date +%s)
$PG_RUN "$PG_BIN/psql" "host=localhost port=$PG_PORT dbname=fleet user=host_b sslmode=verify-full sslrootcert=$TLS/ca.crt" \
	-qAt -f - <"$T_HOME/storm.sql" >/dev/null 2>&1
t1=$(date +%s)
kill -TERM $ph; wait $ph; ok_status $? "host A stops cleanly after the storm"
c1=$(pg_sql "SELECT claim_latency[1]::bigint FROM amc_fleet.host WHERE id = $ha")
n=$((c1 - c0))
diag "NOTIFY storm: 3000 notifies from host_b in $((t1 - t0)) s: host A made $n claims (before: $c0)"
ok $((n <= t1 - t0 + 6)) "3000 NOTIFYs make host A claim about once a second, not once a NOTIFY ($n claims)"
# The Fleet view (TUI) during a storm: it draws the operator's and hosts'
# values without their escapes, and quits while the storm still blows.
as op1 "INSERT INTO amc_fleet.assignment (kind, title, payload, want_host) VALUES
	('goal', E'\\033]52;c;aGk=\\007\\033[2Jevil title', '{}', 'nobody')" >/dev/null
i=0; while [ $i -lt 30000 ]; do echo "SELECT pg_notify('amc_fleet_change', 'x');"; i=$((i + 1)); done >"$T_HOME/storm2.sql"
$PG_RUN "$PG_BIN/psql" "host=localhost port=$PG_PORT dbname=fleet user=host_b sslmode=verify-full sslrootcert=$TLS/ca.crt" \
	-qAt -f - <"$T_HOME/storm2.sql" >/dev/null 2>&1 &
pst=$!
sleep 1
printf 'F\n:drain\n:dump fleet\n' >"$T_HOME/fleet.keys"
mkdir -p "$T_HOME/dump"
TERM=xterm-256color LC_ALL=C.UTF-8 AMC_FLEET_URL="$OPURL" timeout 60 "$AMC" tui --script "$T_HOME/fleet.keys" \
	--dump-dir "$T_HOME/dump" --size 120x30 --tty-output "$T_HOME/tty" >/dev/null 2>&1
ok_status $? "the TUI's Fleet view opens and quits during a NOTIFY storm"
kill -0 $pst 2>/dev/null; ok_status $? "it quit while the storm was still on (it does not wait for the storm to settle)"
pg_sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'host_b'" >/dev/null
wait $pst
like "$(cat "$T_HOME/dump/fleet.txt")" "evil title" "the Fleet view lists the hostile title"
n=$(LC_ALL=C grep -c -e "$(printf '\033]')" -e "$BEL" -e "$CSI" -e "$(printf '\033\\[2Jevil')" "$T_HOME/tty")
is "$n" 0 "and no escape from the data reaches the terminal"
# the host's configuration lists the address: the same payload runs
idh2=$(submit --host A --flow "$W/probe.yaml")
AMC_FLEET_JS_HTTP_HOSTS=127.0.0.1 AMC_HOME="$T_HOME/ha" AMC_FLEET_URL="$(url_of host_a)" \
	"$AMC" host --devices sim:0 --name A >"$T_HOME/ha2.out" 2>&1 &
ph=$!
done2() { [ "$(pg_sql "SELECT state FROM amc_fleet.assignment WHERE id = $idh2")" = succeeded ]; }
wait_for 30 done2; ok_status $? "with fleet.js_http_hosts = 127.0.0.1 the payload's http.get runs"
kill -TERM $ph; wait $ph

## 7. TLS: what amc refuses under verify-full.
out=$(AMC_FLEET_URL="$(url_of host_a | sed "s|$TLS/ca.crt|$TLS/other.crt|")" "$AMC" host --name A 2>&1); rc=$?
is "$rc" 3 "a host with the wrong CA does not start"
like "$out" "certificate verify failed" "saying the certificate did not verify"
out=$(AMC_FLEET_URL="postgresql://host_a@127.0.0.1:$PG_PORT/fleet?sslmode=verify-full&sslrootcert=$TLS/ca.crt" \
	"$AMC" host --name A 2>&1); rc=$?
is "$rc" 3 "nor with a host name the certificate does not name"
like "$out" "does not match host name" "saying so"
pg_down
PG_OPTS="-c ssl=on -c ssl_cert_file=$TLS/expired.crt -c ssl_key_file=$TLS/server.key"
pg_up
out=$(AMC_FLEET_URL="$(url_of op1)" "$AMC" fleet ls 2>&1); rc=$?
is "$rc" 3 "a server certificate that expired is refused"
like "$out" "certificate verify failed|expired" "saying it did not verify"
pg_down
PG_OPTS="-c ssl=off"
pg_up
out=$(AMC_FLEET_URL="$(url_of op1)" "$AMC" fleet ls 2>&1); rc=$?
is "$rc" 3 "a server without TLS is refused under verify-full (no plaintext fallback)"
like "$out" "does not support SSL|SSL" "saying the server offers no TLS"
out=$(AMC_FLEET_URL="postgresql://op1@localhost:$PG_PORT/fleet?sslmode=prefer" "$AMC" fleet ls 2>&1); rc=$?
is "$rc" 0 "sslmode=prefer to localhost is loopback: plaintext allowed (fleet.require_tls covers remote hosts only)"
kill $pyp 2>/dev/null
rm -rf "$TLS"
done_testing
