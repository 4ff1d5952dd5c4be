#!/bin/sh
# test_main.sh - src/cli/main.c: usage, --help/--version, the command table,
# unknown commands, the retired runtime settings, start-up checks (config,
# AMC_HOME) and the exit statuses main passes on (0 ok, 2 usage, 3 environment;
# 1, a failed task, is checked in test_cmd_run.sh).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"

# --- usage and version ---------------------------------------------------------
out=$("$AMC" --help); ok_status $? "--help exits 0"
like "$out" "^usage: amc \[--help\] \[--version\] COMMAND" "--help starts with the usage line"
like "$out" "run +run a task" "--help lists run"
like "$out" "retention" "--help lists retention"
for alias in -h help; do
	is "$("$AMC" $alias)" "$out" "'amc $alias' is --help"
done
out=$("$AMC" --version); ok_status $? "--version exits 0"
like "$out" "^amc [0-9]+\.[0-9]+" "--version prints the version"
is "$("$AMC" -V)" "$out" "-V is --version"

# Every command in the table answers --help with its own usage, before any
# start-up work (so it works even with a broken config, below).
usage=$("$AMC" --help)
for c in run tasks show devices sim retention config scene tui doctor providers; do
	h=$("$AMC" "$c" --help); rc=$?
	is "$rc" 0 "$c --help exits 0"
	like "$h" "^usage: amc $c" "$c --help shows its usage"
	like "$usage" "^  $c " "--help lists $c"
done
out=$("$AMC" run --help); like "$out" "--flow FILE" "run --help shows options"
out=$("$AMC" tasks --status bogus --help); ok_status $? "--help anywhere wins over bad options"
like "$out" "^usage: amc tasks" "and shows that command's help"

# --- unknown command: exit 2, named, usage on stderr only --------------------------
"$AMC" frobnicate >"$T_HOME/out" 2>"$T_HOME/err"; is $? 2 "unknown command -> 2"
like "$(cat "$T_HOME/err")" "unknown command 'frobnicate'" "unknown command is named"
like "$(cat "$T_HOME/err")" "^Commands:" "the usage follows on stderr"
is "$(cat "$T_HOME/out")" "" "nothing on stdout"
out=$("$AMC" "$(printf 'x\033[2Jy')" 2>&1)
ok_status $(printf '%s' "$out" | grep -q "$(printf '\033')"; [ $? -ne 0 ]; echo $?) "a command name with escapes is printed terminal-safe"

# `amc` alone opens the TUI, which needs a terminal (here: none).
out=$("$AMC" </dev/null 2>&1); is $? 2 "amc with no command and no terminal -> 2"
like "$out" "needs a terminal" "and says why"

# --- the retired runtime service settings are refused --------------------------------
for v in HOST_AGENT_RUNTIME_SUPERVISED HOST_AGENT_RUNTIME_HOST HOST_AGENT_RUNTIME_PORT; do
	out=$(env "$v=1" "$AMC" tasks 2>&1); rc=$?
	is $rc 2 "$v set -> exit 2"
	like "$out" "retired.*Unset HOST_AGENT_RUNTIME_SUPERVISED" "$v: migration message"
	like "$out" "^amc: $v is set" "$v: names the variable that is set"
done
ok_status $([ ! -e "$AMC_HOME/amc.db" ]; echo $?) "refused before the database is created"

# --- start-up: the configuration is loaded for every command -------------------------
mkdir -p "$XDG_CONFIG_HOME/amc"
printf '[runner]\nmax_steps = lots\n' > "$XDG_CONFIG_HOME/amc/config"
# (the messages for each kind of mistake: test_cmd_config.sh)
for c in tasks devices; do
	out=$("$AMC" $c 2>&1); is $? 2 "a malformed config stops amc $c -> 2"
	like "$out" "^amc: $XDG_CONFIG_HOME/amc/config:2: " "amc $c names the config file and line"
done
rm -f "$XDG_CONFIG_HOME/amc/config"
out=$(AMC_CORE_LOG_LEVEL=loud "$AMC" tasks 2>&1); is $? 2 "bad core.log_level -> 2"
like "$out" "AMC_CORE_LOG_LEVEL.*'loud'.*error[|]warn[|]info[|]debug" "the bad log level lists the choices"

# --- start-up: the data folder --------------------------------------------------------
out=$(AMC_HOME=relative/path "$AMC" tasks 2>&1); is $? 2 "relative AMC_HOME -> 2"
like "$out" "AMC_HOME" "relative AMC_HOME: names the variable"
: >"$T_HOME/a-file"
out=$(AMC_HOME="$T_HOME/a-file" "$AMC" tasks 2>&1); is $? 3 "AMC_HOME that is a file -> 3 (environment)"
like "$out" "set AMC_HOME to a writable folder.*not a folder" "and says what to do"
out=$("$AMC" tasks); ok_status $? "a normal start exits 0"
# data folder modes (CI runs as root: check modes, not access)
mode=$(stat -c %a "$AMC_HOME"); is "$mode" 700 "AMC_HOME is 0700"
mode=$(stat -c %a "$AMC_HOME/amc.db"); is "$mode" 600 "amc.db is 0600"
ok_status $([ -f "$AMC_HOME/amc.log" ]; echo $?) "the log is opened in AMC_HOME"

done_testing
