# pgserver.sh - a private PostgreSQL 15 server for the fleet tests. Source it
# after tap.sh, then call `pg_start` (it sets PG_URL, PG_DIR, PG_SOCK, PG_PORT
# and PG_RUN, a prefix that runs a command as the server's user); the server
# is stopped and its folder removed when the test exits.
#
# PostgreSQL refuses to run as root, and CI runs as root: the server then
# runs as the unprivileged `postgres` user (runuser), with its data folder and
# Unix socket in a fresh temporary folder that user owns. By default it
# listens only on that socket; PG_TCP=1 adds 127.0.0.1 on a free port (the
# TLS test). PG_OPTS adds server options (-c name=value ...).
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_DIR=""
PG_RUN=""
pg_stop() {
	if [ -n "$PG_DIR" ] && [ -f "$PG_DIR/data/postmaster.pid" ]; then
		$PG_RUN "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
	fi
	[ -n "$PG_DIR" ] && [ -z "${AMC_TEST_KEEP:-}" ] && rm -rf "$PG_DIR"
}
trap 'pg_stop; cleanup' EXIT
pg_start() {
	[ -x "$PG_BIN/initdb" ] || skip_all "PostgreSQL 15 server not installed ($PG_BIN/initdb; apt-get install postgresql-15)"
	PG_DIR=$(mktemp -d /tmp/amc-pg-XXXXXX)
	chmod 0755 "$PG_DIR"
	if [ "$(id -u)" = 0 ]; then
		id postgres >/dev/null 2>&1 || skip_all "running as root and there is no unprivileged 'postgres' user to run the server"
		chown postgres "$PG_DIR"
		# from / : the postgres user may not enter the build folder (a
		# checkout under a private folder), and psql says so on stderr
		PG_RUN="runuser -u postgres -- env --chdir=/"
	fi
	$PG_RUN "$PG_BIN/initdb" -D "$PG_DIR/data" -U amc -A trust -E UTF8 --no-locale >"$PG_DIR/initdb.log" 2>&1 ||
		{ sed 's/^/# /' "$PG_DIR/initdb.log"; echo "Bail out! initdb failed"; exit 1; }
	listen="''"
	PG_PORT=$(( 20000 + $$ % 20000 ))
	if [ -n "${PG_TCP:-}" ]; then
		listen=127.0.0.1
		# a free port: the first nobody answers on
		while (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null; do PG_PORT=$((PG_PORT + 1)); done
	fi
	PG_SOCK=$PG_DIR
	PG_LISTEN=$listen
	pg_up
	$PG_RUN "$PG_BIN/psql" -h "$PG_SOCK" -p "$PG_PORT" -U amc -d postgres -qAt -c "CREATE DATABASE fleet" >/dev/null ||
		{ echo "Bail out! createdb failed"; exit 1; }
	PG_URL="postgresql:///fleet?host=$PG_SOCK&port=$PG_PORT&user=amc"
	export AMC_FLEET_URL="$PG_URL"
}
# Start the server (again) on the same folder, port and options.
pg_up() {
	# shellcheck disable=SC2086
	$PG_RUN "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 start \
		-o "-c listen_addresses=$PG_LISTEN -p $PG_PORT -c unix_socket_directories=$PG_DIR \
		    -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 \
		    ${PG_OPTS:-}" >"$PG_DIR/pg_ctl.log" 2>&1 ||
		{ sed 's/^/# /' "$PG_DIR/pg_ctl.log" "$PG_DIR/server.log"; echo "Bail out! the PostgreSQL server did not start"; exit 1; }
}
# Stop the server (the database "goes away"; pg_up brings it back).
pg_down() {
	$PG_RUN "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
}
# psql as the superuser on the fleet database: pg_sql "SQL" (tuples only, | separated)
pg_sql() {
	$PG_RUN "$PG_BIN/psql" -h "$PG_SOCK" -p "$PG_PORT" -U amc -d fleet -qAt -v ON_ERROR_STOP=1 -c "$1"
}

# pg_tls_certs: a test CA, another CA, and a server certificate for
# "localhost" the first signs, made with openssl in a new folder $TLS
# (openssl's output in $TLS/openssl.log); with `expired`, also
# $TLS/expired.crt, the same name and CA but valid until yesterday. The
# server's files are readable by the postgres user when running as root.
# Returns non-zero when a certificate could not be made.
pg_tls_certs() {
	TLS=$(mktemp -d /tmp/amc-tls-XXXXXX)
	ssl() { openssl "$@" >>"$TLS/openssl.log" 2>&1; }
	ssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=amc test CA" -keyout "$TLS/ca.key" -out "$TLS/ca.crt"
	ssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=other CA" -keyout "$TLS/other.key" -out "$TLS/other.crt"
	ssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$TLS/server.key" -out "$TLS/server.csr"
	printf 'subjectAltName=DNS:localhost\n' >"$TLS/ext"
	ssl x509 -req -in "$TLS/server.csr" -CA "$TLS/ca.crt" -CAkey "$TLS/ca.key" -CAcreateserial -days 2 \
		-extfile "$TLS/ext" -out "$TLS/server.crt"
	[ "${1:-}" != expired ] || ssl x509 -req -in "$TLS/server.csr" -CA "$TLS/ca.crt" -CAkey "$TLS/ca.key" \
		-CAcreateserial -days -1 -extfile "$TLS/ext" -out "$TLS/expired.crt"
	chmod 0755 "$TLS"; chmod 0644 "$TLS"/*.crt; chmod 0600 "$TLS/server.key"
	[ "$(id -u)" != 0 ] || chown postgres "$TLS/server.key" "$TLS"/*.crt
	[ -s "$TLS/server.crt" ] && { [ "${1:-}" != expired ] || [ -s "$TLS/expired.crt" ]; }
}
