#!/bin/sh
# test_fleet_tls.sh - the fleet database over TLS through libpq: the test
# makes a CA and a server certificate for "localhost" with openssl, starts
# the private server with ssl on over 127.0.0.1; sslmode=verify-full with the
# right CA connects, a wrong CA or a host name the certificate does not name
# is refused with a message that says so.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
. "$AMC_TEST_SRCDIR/tests/integration/pgserver.sh"
command -v openssl >/dev/null 2>&1 || skip_all "openssl is not installed"
pg_tls_certs; ok_status $? "a CA and a server certificate for localhost"
PG_TCP=1 PG_OPTS="-c ssl=on -c ssl_cert_file=$TLS/server.crt -c ssl_key_file=$TLS/server.key" pg_start
url="postgresql://amc@localhost:$PG_PORT/fleet?sslmode=verify-full&sslrootcert=$TLS/ca.crt"
# verify-full never falls back to a connection without TLS.
out=$(AMC_FLEET_URL="$url" "$AMC" fleet init 2>&1); ok_status $? "verify-full with the right CA connects"
like "$out" "version 6" "and the schema is made"
out=$(AMC_FLEET_URL="$url" "$AMC" fleet ls --json 2>&1); ok_status $? "fleet ls over TLS"
out=$(AMC_FLEET_URL="postgresql://amc@localhost:$PG_PORT/fleet?sslmode=verify-full&sslrootcert=$TLS/other.crt" \
	"$AMC" fleet ls 2>&1); is $? 3 "a wrong CA is refused"
like "$out" "certificate verify failed" "saying the certificate did not verify"
out=$(AMC_FLEET_URL="postgresql://amc@127.0.0.1:$PG_PORT/fleet?sslmode=verify-full&sslrootcert=$TLS/ca.crt" \
	"$AMC" fleet ls 2>&1); is $? 3 "a host name the certificate does not name is refused"
like "$out" "does not match host name" "saying the name does not match"
# fleet.require_tls (issue 26): the host prints what its connection is.
export AMC_OCR_POLICY=off
AMC_FLEET_URL="$url" "$AMC" host --name tls >"$T_HOME/h.out" 2>&1 &
ph=$!
wait_for 20 grep -q "fleet database:" "$T_HOME/h.out"
kill -TERM $ph; wait $ph
like "$(cat "$T_HOME/h.out")" "fleet database: TLS \(TLSv1\.[23]\) to localhost, server certificate verified \(CA and host name\), sslmode=verify-full" \
	"amc host prints TLS and that the certificate was verified"
out=$(AMC_FLEET_URL="$url" "$AMC" doctor 2>&1)
like "$out" "fleet database: TLS \(TLSv1\.[23]\) to localhost, server certificate verified" \
	"amc doctor prints the fleet connection's TLS state"
# Plaintext to a host that is not local is refused before connecting.
out=$(AMC_FLEET_URL="postgresql://amc@192.0.2.77:$PG_PORT/fleet?sslmode=disable&connect_timeout=2" "$AMC" fleet ls 2>&1)
is $? 2 "sslmode=disable to a remote host: refused"
like "$out" "fleet.require_tls is on" "naming the setting"
out=$(PGSSLMODE=allow AMC_FLEET_URL="postgresql://amc@192.0.2.77:$PG_PORT/fleet" "$AMC" fleet ls 2>&1)
like "$out" "sslmode=allow would send" "PGSSLMODE=allow is refused too"
# A non-loopback address of this machine: sslmode unset becomes require.
ip=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9.]+$' | grep -v '^127\.' | head -1)
if [ -n "$ip" ]; then
	$PG_RUN sh -c "echo 'host all all $ip/32 trust' >>'$PG_DIR/data/pg_hba.conf'"
	pg_down
	PG_LISTEN="127.0.0.1,$ip" PG_OPTS="-c ssl=on -c ssl_cert_file=$TLS/server.crt -c ssl_key_file=$TLS/server.key"
	pg_up
	AMC_FLEET_URL="postgresql://amc@$ip:$PG_PORT/fleet" "$AMC" host --name tls >"$T_HOME/h2.out" 2>&1 &
	ph=$!
	wait_for 20 grep -q "fleet database:" "$T_HOME/h2.out"
	kill -TERM $ph; wait $ph
	like "$(cat "$T_HOME/h2.out")" "fleet database: TLS \(TLSv1\.[23]\) to $ip, server certificate NOT verified, sslmode=require" \
		"no sslmode to $ip: amc asked for TLS before connecting (the server would take plaintext)"
	AMC_FLEET_REQUIRE_TLS=off AMC_FLEET_URL="postgresql://amc@$ip:$PG_PORT/fleet?sslmode=disable" \
		"$AMC" host --name tls >"$T_HOME/h3.out" 2>&1 &
	ph=$!
	wait_for 20 grep -q "fleet database:" "$T_HOME/h3.out"
	kill -TERM $ph; wait $ph
	like "$(cat "$T_HOME/h3.out")" "fleet database: no TLS to $ip \(NOT local: plaintext; sslmode=disable\)" \
		"fleet.require_tls = off allows plaintext, and the host says so"
else
	diag "this machine has no non-loopback IPv4 address: the remote-host checks are not run"
fi
rm -rf "$TLS"
done_testing
