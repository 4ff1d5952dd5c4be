#!/bin/sh
# test_cmd_retention.sh - `amc retention`: removes the oldest tasks beyond
# --keep and those older than --max-age, with their steps and artifact files;
# --dry-run only says so; the configured retention also applies when any
# command opens the database. Checked with `amc tasks` and the artifact folder.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
AMC_OCR_POLICY=off; export AMC_OCR_POLICY
ids() { sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p'; }
count() { "$AMC" tasks --json | ids | wc -l | tr -d ' '; }

printf 'appId: com.android.settings\nname: Open settings\n---\n- launchApp\n' >"$T_HOME/one.yaml"
for i in 1 2 3 4; do
	"$AMC" run --flow "$T_HOME/one.yaml" >/dev/null 2>&1 || diag "run $i failed"
done
is "$(count)" 4 "four tasks recorded"
oldest=$("$AMC" tasks --json | ids | sed -n 4p)
ok_status $([ -d "$AMC_HOME/artifacts/$oldest" ]; echo $?) "the oldest task has artifacts"
newest=$("$AMC" tasks --json | ids | sed -n 1p)
# A frame stored once for two tasks: the newest task's first record names the
# oldest task's screenshot (what amc_store_put_frame does for an unchanged frame).
shared=
if command -v sqlite3 >/dev/null 2>&1; then
	shared=$(cd "$AMC_HOME" && ls artifacts/"$oldest"/*.png | grep -v '\.thumb\.png$' | sed -n 1p)
	sqlite3 "$AMC_HOME/amc.db" "UPDATE timeline SET before_screenshot = '$shared' WHERE task_id = '$newest' AND step = (SELECT min(step) FROM timeline WHERE task_id = '$newest')"
	ok_status $([ -n "$shared" ] && [ -f "$AMC_HOME/$shared" ]; echo $?) "the newest task names the oldest's frame ($shared)"
fi

# --- --dry-run removes nothing ---------------------------------------------------------
out=$("$AMC" retention --keep 3 --dry-run); ok_status $? "--dry-run exits 0"
like "$out" "^would remove 1 task, 1 step, [1-9][0-9]* files \([0-9.]+ MB\) \(keeping the newest 3 tasks and 30 days\)$" "--dry-run says what it would remove"
is "$(count)" 4 "--dry-run removed no task"
ok_status $([ -d "$AMC_HOME/artifacts/$oldest" ]; echo $?) "--dry-run removed no file"

# --- --keep ----------------------------------------------------------------------------------
json=$("$AMC" retention --keep 3 --json); ok_status $? "--keep 3 --json exits 0"
like "$json" '"dry_run":[[:space:]]*false' "json: not a dry run"
like "$json" '"keep":[[:space:]]*3,' "json: keep"
like "$json" '"max_age_days":[[:space:]]*30,' "json: the configured age"
like "$json" '"tasks":[[:space:]]*1,' "json: one task removed"
like "$json" '"steps":[[:space:]]*1,' "json: with its step"
like "$json" '"bytes":[[:space:]]*[1-9]' "json: and its bytes"
is "$(count)" 3 "three tasks left"
ok_status $("$AMC" tasks --json | grep -q "\"$oldest\""; [ $? -ne 0 ]; echo $?) "the oldest is gone from amc tasks"
if [ -n "$shared" ]; then
	ok_status $([ -f "$AMC_HOME/$shared" ]; echo $?) "the frame a kept task shares survives"
	ok_status $(n=$(ls "$AMC_HOME/artifacts/$oldest" | wc -l); [ "$n" -le 2 ]; echo $?) "with at most its thumbnail beside it"
	"$AMC" show "$newest" --json >/dev/null 2>&1; is $? 0 "the task that shares it still shows"
else
	ok_status $([ ! -e "$AMC_HOME/artifacts/$oldest" ]; echo $?) "its artifacts are gone"
fi
"$AMC" show "$oldest" >/dev/null 2>&1; is $? 2 "amc show no longer finds it"
out=$("$AMC" retention --keep 3); like "$out" "^removed 0 tasks, 0 steps, 0 files" "a second pass removes nothing"

# --- --max-age: a task made 40 days old --------------------------------------------------------
if command -v sqlite3 >/dev/null 2>&1; then
	old=$("$AMC" tasks --json | ids | sed -n 2p)
	sqlite3 "$AMC_HOME/amc.db" "UPDATE tasks SET created_ms = created_ms - 40*86400000 WHERE id = '$old'"
	out=$("$AMC" retention --max-age 41 --json); like "$out" '"tasks":[[:space:]]*0,' "--max-age 41 keeps a 40-day-old task"
	out=$("$AMC" retention --max-age 39); like "$out" "^removed 1 task, 1 step, .*39 days\)$" "--max-age 39 removes it"
	ok_status $("$AMC" tasks --json | grep -q "\"$old\""; [ $? -ne 0 ]; echo $?) "the old task is gone from amc tasks"
	is "$(count)" 2 "the two recent tasks stay"
else
	diag "no sqlite3 command: --max-age not checked"
	"$AMC" retention --keep 2 >/dev/null
fi

# --- the configured retention applies at start-up ----------------------------------------------------
mkdir -p "$XDG_CONFIG_HOME/amc"
printf '[retention]\nkeep = 1\n' >"$XDG_CONFIG_HOME/amc/config"
# (the environment beats the file: this listing still sees both tasks)
both=$(AMC_RETENTION_KEEP=1000 "$AMC" tasks --json | ids)
is "$(printf '%s\n' "$both" | wc -l | tr -d ' ')" 2 "AMC_RETENTION_KEEP=1000 overrides the file's keep"
newest=$(printf '%s\n' "$both" | sed -n 1p)
is "$(count)" 1 "retention.keep = 1 in the config: amc tasks leaves one task"
is "$("$AMC" tasks --json | ids)" "$newest" "the newest"
[ -z "$shared" ] || ok_status $([ -f "$AMC_HOME/$shared" ]; echo $?) "the shared frame is still there for it"
out=$("$AMC" retention --dry-run); like "$out" "keeping the newest 1 tasks" "amc retention defaults to the configured keep"
rm -f "$XDG_CONFIG_HOME/amc/config"

# --- bad usage ------------------------------------------------------------------------------------------
out=$("$AMC" retention --keep 0 2>&1); is $? 2 "--keep 0 -> 2"
like "$out" "--keep takes a whole number from 1" "the range of --keep"
out=$("$AMC" retention --max-age soon 2>&1); is $? 2 "--max-age soon -> 2"
like "$out" "--max-age takes a whole number from 1 to 36500" "the range of --max-age"
"$AMC" retention now >/dev/null 2>&1; is $? 2 "an extra argument -> 2"
is "$(count)" 1 "bad usage removed nothing"

done_testing
