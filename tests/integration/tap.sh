# tap.sh - TAP helpers for amc's shell tests. Source it, then use ok/ok_status/is/like/done_testing.
# `ok COND NAME` reads COND as the C helper (tests/unit/tap.h) reads its first
# argument: nonzero passes, 0 fails. An exit status has the opposite sense,
# so it goes to `ok_status STATUS NAME` (0 passes), never to `ok`.
# Every test gets its own AMC_HOME and config folder, removed at exit.
set -u
T_N=0
T_FAILED=0
AMC=${AMC_BIN:?AMC_BIN must point at the amc binary}
T_HOME=$(mktemp -d "${TMPDIR:-/tmp}/amc-it-XXXXXX")
export AMC_HOME="$T_HOME/home"
export XDG_CONFIG_HOME="$T_HOME/config"
unset AMC_SIM_FAULTS HOST_AGENT_RUNTIME_SUPERVISED HOST_AGENT_RUNTIME_HOST HOST_AGENT_RUNTIME_PORT
cleanup() {
	# Stop anything a test left running, then remove its files.
	jobs -p | xargs -r kill -9 2>/dev/null
	[ -n "${AMC_TEST_KEEP:-}" ] || rm -rf "$T_HOME"
}
trap cleanup EXIT

ok() { # ok COND NAME  (COND nonzero: pass, as in C)
	T_N=$((T_N + 1))
	if [ "$1" -ne 0 ]; then
		echo "ok $T_N - $2"
	else
		T_FAILED=$((T_FAILED + 1))
		echo "not ok $T_N - $2"
	fi
}
ok_status() { # ok_status EXIT_STATUS NAME  (0: pass, as a shell command's status)
	[ "$1" -eq 0 ]
	ok $((! $?)) "$2"
}
is() { # is GOT WANT NAME
	T_N=$((T_N + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $T_N - $3"
	else
		T_FAILED=$((T_FAILED + 1))
		echo "not ok $T_N - $3"
		echo "#   got '$1', want '$2'"
	fi
}
like() { # like TEXT PATTERN NAME  (grep -E)
	T_N=$((T_N + 1))
	if printf '%s' "$1" | grep -Eq -- "$2"; then
		echo "ok $T_N - $3"
	else
		T_FAILED=$((T_FAILED + 1))
		echo "not ok $T_N - $3"
		printf '%s\n' "$1" | head -n 20 | sed 's/^/#   /'
		echo "#   does not match /$2/"
	fi
}
diag() { echo "# $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
done_testing() {
	echo "1..$T_N"
	[ "$T_FAILED" -eq 0 ]
}
# Wait until COMMAND succeeds, up to SECONDS (polling every 0.1 s).
wait_for() { # wait_for SECONDS COMMAND...
	_limit=$(( $1 * 10 )); shift
	_i=0
	while [ $_i -lt $_limit ]; do
		if "$@" >/dev/null 2>&1; then return 0; fi
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

# The fake Anthropic API (tests/tools/mockllm) playing a script: start_mock
# SCRIPT_TEXT exports ANTHROPIC_BASE_URL; requests go to $LOGS/requests.jsonl,
# protocol violations to $LOGS/violations.txt.
MOCK="$AMC_TEST_BUILDDIR/tests/tools/mockllm"
LOGS="$T_HOME/mock"
MPID=
start_mock() { # start_mock SCRIPT_TEXT
	mkdir -p "$LOGS"
	printf '%s\n' "$1" > "$T_HOME/script"
	rm -f "$T_HOME/port"
	"$MOCK" "$T_HOME/script" "$T_HOME/port" "$LOGS" &
	MPID=$!
	wait_for 10 test -s "$T_HOME/port" || { diag "mock did not start"; return 1; }
	ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$T_HOME/port")"
	export ANTHROPIC_BASE_URL
}
stop_mock() {
	[ -n "$MPID" ] && kill "$MPID" 2>/dev/null && wait "$MPID" 2>/dev/null
	MPID=
}

# npm_env SRC DIR MARKER: the npm packages pinned in SRC (package.json and
# package-lock.json) installed with `npm ci` into DIR, unless DIR already has
# that lockfile and MARKER (a file below DIR). Under a lock on DIR.lock, so
# two tests that share DIR (make check -j) never run npm in it at once.
# npm's output goes to $T_HOME/npm.log; returns npm's exit status.
npm_env() {
	mkdir -p "$2"
	(
		flock 9
		if ! cmp -s "$1/package-lock.json" "$2/package-lock.json" || [ ! -f "$2/$3" ]; then
			cp "$1/package.json" "$1/package-lock.json" "$2/" &&
				chmod u+w "$2/package.json" "$2/package-lock.json" &&
				cd "$2" && npm ci --no-fund --no-audit --loglevel=error
		fi
	) 9>"$2.lock" >"$T_HOME/npm.log" 2>&1
}

# tap_relay FILE: another TAP producer's checks (a C program, a node script)
# renumbered into this test's plan; its comments passed on.
tap_relay() {
	while IFS= read -r _line; do
		case "$_line" in
		"ok "*) ok 1 "${_line#ok * - }" ;;
		"not ok "*) ok 0 "${_line#not ok * - }" ;;
		"#"*) echo "$_line" ;;
		esac
	done <"$1"
}

# mcp_clients: the MCP clients pinned in tests/mcp installed with npm_env
# into the build folder; sets src and env_dir. Skips when node is missing,
# or npm while nothing is installed yet; a failed install fails the test.
mcp_clients() {
	command -v node >/dev/null 2>&1 || skip_all "node is not installed (the MCP clients need Node.js >= 20)"
	env_dir="$AMC_TEST_BUILDDIR/tests/mcp-env"
	src="$AMC_TEST_SRCDIR/tests/mcp"
	[ -f "$env_dir/node_modules/@modelcontextprotocol/sdk/package.json" ] || command -v npm >/dev/null 2>&1 ||
		skip_all "npm is not installed (needed to install the MCP clients)"
	npm_env "$src" "$env_dir" node_modules/@modelcontextprotocol/sdk/package.json && return 0
	sed 's/^/# /' "$T_HOME/npm.log" | tail -n 20
	ok 0 "npm ci of the MCP clients"
	done_testing
	exit 1
}

# node_tap SCRIPT SECONDS WHAT: tests/mcp/SCRIPT run by node beside the
# clients (after mcp_clients), its checks relayed, its exit status one more
# check (WHAT), its stderr shown when it failed or wrote any. Output in
# $T_HOME/sdk.out; returns the script's exit status.
node_tap() {
	cp "$src/$1" "$env_dir/" && chmod u+w "$env_dir/$1"
	AMC="$AMC" timeout "$2" node "$env_dir/$1" >"$T_HOME/sdk.out" 2>"$T_HOME/sdk.err"
	_rc=$?
	tap_relay "$T_HOME/sdk.out"
	ok_status $_rc "$3"
	[ $_rc -eq 0 ] && [ ! -s "$T_HOME/sdk.err" ] || sed 's/^/# stderr: /' "$T_HOME/sdk.err" | tail -n 20
	return $_rc
}
