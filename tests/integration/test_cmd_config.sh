#!/bin/sh
# test_cmd_config.sh - `amc config`: every setting with its value and where it
# came from (default, FILE:LINE, env:AMC_SECTION_KEY), file errors named with
# their line, where the file and the data folder are looked for, and --json.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
CFG="$XDG_CONFIG_HOME/amc/config"
mkdir -p "$XDG_CONFIG_HOME/amc"

# --- no file: defaults ---------------------------------------------------------------
out=$("$AMC" config); ok_status $? "config exits 0"
like "$out" "^# config file: $CFG \(not present: defaults apply\)" "names the missing file"
like "$out" "^# data: $AMC_HOME$" "names the data folder"
like "$out" "^# precedence: command line, environment" "states the precedence"
like "$out" "^\[runner\]$" "settings are grouped by section"
like "$out" "^max_steps = 50 +# from default$" "a default value and its origin"
like "$out" "^# a task fails when it reaches this many steps$" "each setting has its help line"

# --- the file: value and FILE:LINE --------------------------------------------------------
printf '# my settings\n[runner]\nmax_steps = 7\n\n[retention]\nkeep = 5\n' >"$CFG"
out=$("$AMC" config); ok_status $? "config with a file exits 0"
like "$out" "^# config file: $CFG$" "the file is named without the 'not present' note"
like "$out" "^max_steps = 7 +# from $CFG:3$" "file value with its line"
like "$out" "^keep = 5 +# from $CFG:6$" "a second section's value with its line"
like "$out" "^max_age_days = 30 +# from default$" "keys not in the file keep their default"

# --- the environment beats the file ------------------------------------------------------------
out=$(AMC_RUNNER_MAX_STEPS=9 "$AMC" config)
like "$out" "^max_steps = 9 +# from env:AMC_RUNNER_MAX_STEPS$" "environment beats the file"
like "$out" "^keep = 5 +# from $CFG:6$" "other file values stay"
out=$(AMC_SIM_FAULTS=latency:5 "$AMC" config)
like "$out" "^faults = latency:5 +# from env:AMC_SIM_FAULTS$" "any key can come from AMC_SECTION_KEY"
out=$(AMC_PLANNER_MODEL=qwen3-8b "$AMC" config)
like "$out" "^model = qwen3-8b +# from env:AMC_PLANNER_MODEL$" "AMC_PLANNER_MODEL is reported as the planner model's source"

# --- --json ------------------------------------------------------------------------------------------
json=$(AMC_RUNNER_MAX_STEPS=9 "$AMC" config --json); ok_status $? "config --json exits 0"
like "$json" "\"file\":[[:space:]]*\"$CFG\"" "json: the file"
like "$json" '"file_exists":[[:space:]]*true' "json: the file exists"
like "$json" "\"home\":[[:space:]]*\"$AMC_HOME\"" "json: the data folder"
one=$(printf '%s\n' "$json" | tr -d '\n\t ' | grep -o '{"section":"retention","key":"keep"[^}]*}')
like "$one" "\"value\":\"5\",\"origin\":\"$CFG:6\"" "json: a file value with its origin"
one=$(printf '%s\n' "$json" | tr -d '\n\t ' | grep -o '{"section":"runner","key":"max_steps"[^}]*}')
like "$one" '"value":"9","origin":"env:AMC_RUNNER_MAX_STEPS"' "json: an env value with its origin"
one=$(printf '%s\n' "$json" | tr -d '\n\t ' | grep -o '{"section":"core","key":"log_level"[^}]*}')
like "$one" '"value":"info","origin":"default","help":"' "json: a default with its help"

# --- bad values and bad files: exit 2, named with the line -------------------------------------------
out=$(AMC_RUNNER_MAX_STEPS=-4 "$AMC" config 2>&1); is $? 2 "bad env value -> 2"
like "$out" "AMC_RUNNER_MAX_STEPS" "bad env value names the variable"
bad() { # bad CONTENT PATTERN NAME
	printf "$1" >"$CFG"
	_o=$("$AMC" config 2>&1); is $? 2 "$3 -> 2"
	like "$_o" "$2" "$3: named with file and line"
}
bad '[runner]\nmax_steps = lots\n' "^amc: $CFG:2: .*max_steps.*not a whole number" "a value that is not a number"
bad '# c\n[runner]\nbogus = 1\n' "^amc: $CFG:3: unknown setting 'runner.bogus'" "an unknown setting"
bad '[nosuch]\nx = 1\n' "^amc: $CFG:1: unknown section \[nosuch\]" "an unknown section"
bad '[runner]\njust words\n' "^amc: $CFG:2: expected 'key = value'" "a line without ="
bad '[runner\n' "^amc: $CFG:1: a section header looks like \[name\]" "a broken section header"
bad '[core]\nlog_level = loud\n' "^amc: $CFG:2: .*'loud' is not one of error[|]warn[|]info[|]debug" "a value not in the list"
rm -f "$CFG"

# --- where the file and the data folder are looked for --------------------------------------------------
out=$(env -u XDG_CONFIG_HOME HOME="$T_HOME/user" "$AMC" config)
like "$out" "^# config file: $T_HOME/user/.config/amc/config " "without XDG_CONFIG_HOME: ~/.config/amc/config"
out=$(env -u AMC_HOME XDG_DATA_HOME="$T_HOME/xdgdata" "$AMC" config)
like "$out" "^# data: $T_HOME/xdgdata/amc$" "without AMC_HOME: \$XDG_DATA_HOME/amc"

"$AMC" config --bogus >/dev/null 2>&1; is $? 2 "unknown option -> 2"
out=$("$AMC" config extra 2>&1); is $? 2 "an extra argument -> 2"
like "$out" "unexpected argument 'extra'" "the extra argument is named"

done_testing
