#!/bin/sh
# `amc run "GOAL"` end to end on the sim against the local fake Anthropic API
# (tests/tools/mockllm): every request is checked against the protocol rules,
# scripted agents add a contact, ask the operator, hit a refused irreversible
# action, run out of budget and meet API failures; a planted key appears nowhere.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
KEY="sk-ant-PLANTED-KEY-7f3a9c21e5"
mkdir -p "$XDG_CONFIG_HOME/amc"
unset ANTHROPIC_BASE_URL AMC_PLANNER_MODEL

# amc run without a terminal (setsid: no controlling tty), stdin closed.
run_goal() {
	ANTHROPIC_API_KEY="$KEY" setsid -w "$AMC" run "$@" </dev/null >"$T_HOME/out" 2>"$T_HOME/err"
}
field() { sed -n "s/.*\"$1\":[[:space:]]*\"\{0,1\}\([^\",}]*\).*/\1/p" "$T_HOME/out" | head -n 1; }

# 1. no key: exit class 3 and what to set; nothing recorded
env -u ANTHROPIC_API_KEY "$AMC" run "Add a contact" </dev/null >/dev/null 2>"$T_HOME/err"; rc=$?
is "$rc" 3 "no key: exit status 3"
like "$(cat "$T_HOME/err")" "set ANTHROPIC_API_KEY" "no key: says what to set"

# 2. a scripted agent adds a contact
start_mock "launch com.android.contacts
tap Add contact
tap Name
type Ada Lovelace
tap Phone
type 555-0100
tap Save
finish true Added Ada Lovelace, 555-0100"
run_goal "Add a contact for Ada Lovelace, 555-0100" --json; rc=$?
stop_mock
is "$rc" 0 "goal run succeeds"
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$T_HOME/err"
is "$(field status)" "succeeded" "status succeeded"
is "$(field steps)" "7" "seven steps"
is "$(field input_tokens)" "8000" "input tokens summed over 8 calls"
is "$(field output_tokens)" "800" "output tokens summed"
like "$(field cost_usd)" "^0\.0[0-9]*" "cost computed from the price table"
like "$(field summary)" "Added Ada Lovelace" "summary from finish"
id=$(field id)
state=$("$AMC" sim state)
like "$state" '"name":[[:space:]]*"Ada Lovelace"' "sim state has the new contact"
like "$state" '"phone":[[:space:]]*"555-0100"' "and its phone number"
ok_status "$([ -s "$LOGS/violations.txt" ]; echo $((1 - $?)))" "every request kept the protocol rules"
[ -s "$LOGS/violations.txt" ] && sed 's/^/#   /' "$LOGS/violations.txt"
show=$("$AMC" show "$id")
like "$show" "scripted step" "show prints each step's reasoning"
like "$show" 'usage   1 model call, 1000 tokens in, 100 tokens out, [$]0\.0' "show prints each step's usage and cost"
like "$(printf '%s\n' "$show" | grep -A1 'end (model call' | tr -d '\n')" \
	'end [(]model call 8, no step of its own[)] +usage   1 model call, 1000 tokens in, 100 tokens out, [$]0\.0' \
	"show prints the finishing call's usage"
st=$("$AMC" show "$id" --step 1)
like "$st" 'usage   1 model call, 1000 tokens in, 100 tokens out, [$]0\.0[0-9]*' "show --step prints the step's model calls, tokens and cost"
stj=$("$AMC" show "$id" --step 1 --json | tr -d '\n\t ')
like "$stj" '"usage":\{"model_calls":1,"input_tokens":1000,"output_tokens":100,"cost_usd":0\.0' "show --step --json has the step's usage"
sj=$("$AMC" show "$id" --json | tr -d '\n\t ')
is "$(printf '%s' "$sj" | grep -o '"usage":{"model_calls":1,"input_tokens":1000,"output_tokens":100,' | wc -l)" "7" "show --json has each step's usage"
dec=$("$AMC" show "$id" --decisions)
like "$dec" "launch_app" "show --decisions lists the tool calls"
like "$dec" "Goal: Add a contact" "show --decisions has the prompt text"
decj=$("$AMC" show "$id" --decisions --json)
n=$(printf '%s' "$decj" | grep -o '"outcome"' | wc -l)
is "$n" "8" "eight decisions recorded (7 actions + finish)"

# 3. ask_user with no terminal fails the task clearly
: > "$LOGS/violations.txt"
start_mock "ask Which phone number should I use?"
run_goal "Call Ada" --json; rc=$?
stop_mock
is "$rc" 1 "ask_user without a terminal: exit 1"
is "$(field status)" "failed" "task failed"
like "$(cat "$T_HOME/out")" "no terminal" "the error says there is no terminal"

# 4. an irreversible tap is refused (nobody to confirm) and told to the model
start_mock "launch com.android.contacts
tap Ada Lovelace
tap Delete
expect irreversible
finish false the operator did not allow deleting"
run_goal "Delete Ada" --json; rc=$?
stop_mock
is "$rc" 1 "refused delete: the agent gives up, exit 1"
like "$(cat "$T_HOME/out")" "gave up" "the task ends as the agent said"
ok_status "$([ -s "$LOGS/violations.txt" ]; echo $((1 - $?)))" "the refusal reached the model as the tool result"
like "$("$AMC" sim state)" '"name":[[:space:]]*"Ada Lovelace"' "the contact was not deleted"
like "$("$AMC" show "$(field id)" --json)" '"status":[[:space:]]*"refused"' "the step is recorded as refused"

# 5. budget exhaustion
printf '[planner]\nmax_input_tokens = 1500\n' > "$XDG_CONFIG_HOME/amc/config"
start_mock "launch com.android.contacts
key back
key back"
run_goal "Look around" --json; rc=$?
stop_mock
rm -f "$XDG_CONFIG_HOME/amc/config"
is "$rc" 1 "budget: exit 1"
like "$(cat "$T_HOME/out")" "input token budget exhausted" "budget: says which budget"
is "$(field steps)" "2" "budget: stops after the call that crossed it"

# 6. API failures end the task as the rules say, with no hang
for case in "http 400|HTTP 400" "http 529 0|HTTP 529 overloaded_error" "http 429 0 spend|spend limit" \
	    "stop refusal|refused" "stop max_tokens|max_tokens" "malformed|malformed"; do
	script=${case%%|*}; want=${case#*|}
	start_mock "$script
$script
$script"
	run_goal "Anything" --json; rc=$?
	stop_mock
	is "$rc" 1 "$script: the task fails"
	like "$(cat "$T_HOME/out")" "$want" "$script: error says '$want'"
done
# a 429 with retry-after 0 is retried and the run goes on
start_mock "http 429 0
finish true done after a retry"
run_goal "Anything" --json; rc=$?
stop_mock
is "$rc" 0 "429 then success: the task succeeds"

# 7. a secret is typed on the device and masked everywhere else
SECRET="731-88642-SECRET"
: > "$LOGS/violations.txt"
start_mock "launch com.android.contacts
tap Add contact
tap Name
type Grace Secret
tap Phone
type {{secret:PHONE}}
tap Save
finish true saved"
AMC_SECRET_PHONE="$SECRET" run_goal "Add Grace Secret with phone {{secret:PHONE}}" --json; rc=$?
stop_mock
is "$rc" 0 "secret run succeeds"
like "$("$AMC" sim state)" "$SECRET" "the device got the value"
like "$(cat "$LOGS/requests.jsonl")" 'secret:PHONE' "the model saw the placeholder"
hits=$(grep -rl -- "$SECRET" "$AMC_HOME" "$LOGS" "$T_HOME/out" "$T_HOME/err" 2>/dev/null | grep -v "/sim/" | wc -l)
is "$hits" "0" "the value is in no database row, artifact, log or request (the sim's own state aside)"
grep -rl -- "$SECRET" "$AMC_HOME" "$LOGS" 2>/dev/null | grep -v "/sim/" | sed 's/^/#   /'
ANTHROPIC_API_KEY="$KEY" "$AMC" run "Type {{secret:PIN}}" </dev/null >/dev/null 2>"$T_HOME/err"; rc=$?
like "$(cat "$T_HOME/err")" "AMC_SECRET_PIN" "an unset secret says what to set"
# a later task that names no secret: the value typed above is on its screen
# (the contact's own page) and is masked all the same, as every known value is
: > "$LOGS/requests.jsonl"
start_mock "launch com.android.contacts
tap Grace Secret
finish true looked"
AMC_SECRET_PHONE="$SECRET" run_goal "Look at the contact Grace Secret" --json; rc=$?
stop_mock
is "$rc" 0 "a run naming no secret succeeds"
like "$(cat "$LOGS/requests.jsonl")" 'Grace Secret' "its requests showed the contact"
like "$(cat "$LOGS/requests.jsonl")" 'secret:PHONE' "with the value masked as its placeholder (the goal names none)"
hits=$(grep -rl -- "$SECRET" "$AMC_HOME" "$LOGS" "$T_HOME/out" "$T_HOME/err" 2>/dev/null | grep -v "/sim/" | wc -l)
is "$hits" "0" "a run naming no secret: the value is in no row, artifact, log or request"
grep -rl -- "$SECRET" "$AMC_HOME" "$LOGS" "$T_HOME/out" "$T_HOME/err" 2>/dev/null | grep -v "/sim/" | sed 's/^/#   /'

# 8. semantic enrichment: one SemanticScene per observation, stored per step, sent to the planner
printf '[semantic]\nenrich = on\n' > "$XDG_CONFIG_HOME/amc/config"
: > "$LOGS/requests.jsonl"
start_mock "launch com.android.contacts
finish true looked"
run_goal "Look at contacts" --json; rc=$?
stop_mock
rm -f "$XDG_CONFIG_HOME/amc/config"
is "$rc" 0 "enriched run succeeds"
sj=$("$AMC" show "$(field id)" --json)
like "$(printf '%s' "$sj" | tr -d '\n\t ')" '"semantic_scene":\{"page":"mockpage"' "the step stores its SemanticScene"
ok_status "$(printf '%s' "$sj" | grep -q e_invented; echo $((1 - $?)))" "widgets with unknown ids were dropped"
is "$(grep -c output_config "$LOGS/requests.jsonl")" "2" "one enrichment call per observation (2 observations)"
like "$(cat "$LOGS/requests.jsonl")" "SemanticScene" "the planner got the SemanticScene beside the Scene"

# 8b. enrichment through a local OpenAI-compatible server (no Anthropic key)
printf '[semantic]\nenrich = on\n' > "$XDG_CONFIG_HOME/amc/config"
: > "$LOGS/requests.jsonl"
: > "$LOGS/violations.txt"
start_mock "launch com.android.contacts
finish true looked locally"
env -u ANTHROPIC_API_KEY AMC_OPENAI_BASE_URL="$ANTHROPIC_BASE_URL/v1" AMC_PLANNER_MODEL=qwen3-8b AMC_SEMANTIC_MODEL=qwen3-4b \
	setsid -w "$AMC" run "Look at contacts locally" --json </dev/null >"$T_HOME/out" 2>"$T_HOME/err"; rc=$?
stop_mock
rm -f "$XDG_CONFIG_HOME/amc/config"
is "$rc" 0 "locally enriched run succeeds"
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$T_HOME/err" "$T_HOME/out"
sj=$("$AMC" show "$(field id)" --json)
like "$(printf '%s' "$sj" | tr -d '\n\t ')" '"semantic_scene":\{"page":"mockpage"' "the local server's SemanticScene is stored per step"
ok_status "$(printf '%s' "$sj" | grep -q e_invented; echo $((1 - $?)))" "local server: widgets with unknown ids were dropped"
nsem=$(grep -c '"name":"semantic_scene"' "$LOGS/requests.jsonl")
is "$nsem" "$(grep -c '"name":"amc_action"' "$LOGS/requests.jsonl")" "one chat enrichment per observation"
is "$nsem" "2" "two observations, two enrichment chats"
is "$(grep '"name":"semantic_scene"' "$LOGS/requests.jsonl" | grep -c '"model":"qwen3-4b"')" "2" "the enrichment model comes from AMC_SEMANTIC_MODEL"
ok_status "$([ -s "$LOGS/violations.txt" ]; echo $((1 - $?)))" "every chat request kept the rules"
[ -s "$LOGS/violations.txt" ] && sed 's/^/#   /' "$LOGS/violations.txt"
is "$(grep -c output_config "$LOGS/requests.jsonl")" "0" "nothing went to the Anthropic API"

# 9. amc providers: a passive snapshot, unknown is null, catalogs cached
pj=$(env -u ANTHROPIC_API_KEY -u AMC_OPENAI_BASE_URL "$AMC" providers --json --offline); rc=$?
is "$rc" 0 "providers --offline runs with nothing configured"
pjf=$(printf '%s' "$pj" | tr -d '\n\t ')
like "$pjf" '"name":"anthropic","configured":false' "anthropic not configured"
like "$pjf" '"models":null' "unknown models are null"
like "$pjf" 'setANTHROPIC_API_KEY' "and it says what to set"
start_mock "finish true unused"
pj=$(ANTHROPIC_API_KEY="$KEY" AMC_OPENAI_BASE_URL="$ANTHROPIC_BASE_URL/v1" "$AMC" providers --json); rc=$?
pjf=$(printf '%s' "$pj" | tr -d '\n\t ')
is "$rc" 0 "providers reads the catalogs"
like "$pjf" '"billing_mode":"api-key\(pay-as-you-go' "an API key is said to be pay-as-you-go"
like "$pjf" '"health":"ok".*"models":\["claude-sonnet-5","claude-haiku-4-5"\],"models_from":"network"' "anthropic models from GET /v1/models"
like "$pjf" '"name":"openai-compatible","configured":true' "the local server is configured"
like "$pjf" '"openai-compatible".*"billing_mode":null' "its billing is unknown (null)"
pj=$(ANTHROPIC_API_KEY="$KEY" AMC_OPENAI_BASE_URL="$ANTHROPIC_BASE_URL/v1" "$AMC" providers --json --offline)
like "$(printf '%s' "$pj" | tr -d '\n\t ')" '"models_from":"cache"' "--offline uses the fresh cache, reads nothing"
stop_mock
ok_status "$(grep -rq -- "$KEY" "$AMC_HOME/providers-cache.json"; echo $((1 - $?)))" "the cache holds no key"
like "$(ANTHROPIC_API_KEY="$KEY" "$AMC" providers --offline)" "pay-as-you-go" "the text view says so too"

# 10. a local OpenAI-compatible server plans the same way (json_schema answers)
: > "$LOGS/violations.txt"
start_mock "launch com.android.contacts
tap Add contact
tap Name
type Local Model
tap Save
finish true added by a local model"
env -u ANTHROPIC_API_KEY AMC_OPENAI_BASE_URL="$ANTHROPIC_BASE_URL/v1" AMC_PLANNER_MODEL=qwen3-8b \
	setsid -w "$AMC" run "Add a contact named Local Model" --json </dev/null >"$T_HOME/out" 2>"$T_HOME/err"; rc=$?
stop_mock
is "$rc" 0 "the local server's run succeeds"
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$T_HOME/err" "$T_HOME/out"
like "$("$AMC" sim state)" '"name":[[:space:]]*"Local Model"' "the contact is on the device"
ok_status "$([ -s "$LOGS/violations.txt" ]; echo $((1 - $?)))" "every chat request kept the rules (nested json_schema, no tools)"
is "$(field cost_usd)" "null" "a model without a price has an unknown cost"
is "$(field input_tokens)" "6000" "usage from prompt_tokens (6 calls)"
like "$("$AMC" show "$(field id)" --step 2)" "usage   1 model call, 1000 tokens in, 100 tokens out, cost unknown" "show --step: an unknown cost stays unknown"
like "$("$AMC" show "$(field id)" --step 2 --json | tr -d '\n\t ')" '"usage":\{"model_calls":1,"input_tokens":1000,"output_tokens":100,"cost_usd":null\}' "and null in JSON, never 0"
# a call whose output tokens were not reported: unknown, not 0 (sqlite3 plants it)
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$AMC_HOME/amc.db" "UPDATE planner_decisions SET output_tokens = NULL WHERE task_id = '$(field id)' AND step = 3"
	like "$("$AMC" show "$(field id)" --step 3)" "usage   1 model call, 1000 tokens in, tokens out unknown, cost unknown" "show --step: unreported tokens stay unknown"
	like "$("$AMC" show "$(field id)" --json | tr -d '\n\t ')" '"step":3,.*"usage":\{"model_calls":1,"input_tokens":1000,"output_tokens":null,"cost_usd":null\}' "and null in show --json"
else
	diag "no sqlite3 command: unreported tokens not checked"
fi
fid=$(ANTHROPIC_API_KEY="$KEY" "$AMC" run --flow add-contact --json </dev/null 2>/dev/null | sed -n 's/.*"id":[[:space:]]*"\([^"]*\)".*/\1/p' | head -n 1)
like "$("$AMC" show "$fid" --step 1)" "usage   no model call recorded" "show --step of a flow step: no model call"
like "$("$AMC" show "$fid" --step 1 --json | tr -d '\n\t ')" '"usage":null' "and usage null in JSON"

# 10b. screenshots go to a local server too (planner.vision), as image_url data URIs
printf '[planner]\nvision = on\nvision_max_edge = 1200\n' > "$XDG_CONFIG_HOME/amc/config"
: > "$LOGS/violations.txt"
: > "$LOGS/requests.jsonl"
start_mock "key home
tap_xy 270 600
finish true looked"
env -u ANTHROPIC_API_KEY AMC_OPENAI_BASE_URL="$ANTHROPIC_BASE_URL/v1" AMC_PLANNER_MODEL=qwen2.5-vl \
	setsid -w "$AMC" run "Look at the home screen" --json </dev/null >"$T_HOME/out" 2>"$T_HOME/err"; rc=$?
stop_mock
is "$rc" 0 "vision on a local server: the run succeeds"
[ "$rc" -eq 0 ] || { sed 's/^/#   /' "$T_HOME/err" | tail -n 20; grep '"error"' "$T_HOME/out" | sed 's/^/#   /'; }
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$T_HOME/err"
is "$(grep -c '"image_url":{"url":"data:image/png;base64,' "$LOGS/requests.jsonl")" "3" "every planning call carried the screenshot"
ok_status "$([ -s "$LOGS/violations.txt" ]; echo $((1 - $?)))" "each image_url is a whole base64 PNG"
like "$("$AMC" show "$(field id)" --step 2)" "tap at 540,1200" "image coordinates 270,600 tapped device 540,1200 (x2)"
# a server whose model reads text only refuses the screenshot as llama.cpp does
start_mock "textonly
finish true never"
env -u ANTHROPIC_API_KEY AMC_OPENAI_BASE_URL="$ANTHROPIC_BASE_URL/v1" \
	setsid -w "$AMC" run "Look" --json </dev/null >"$T_HOME/out" 2>"$T_HOME/err"; rc=$?
stop_mock
rm -f "$XDG_CONFIG_HOME/amc/config"
is "$rc" 1 "vision = on with a text-only model: the task fails"
like "$(cat "$T_HOME/out")" "serve a vision model [(]llama.cpp: --mmproj[)] or set planner.vision = auto or off" "saying what to do"

# 11. the planted key is in no database row, artifact, log line or request body
hits=$(grep -rl "$KEY" "$AMC_HOME" "$LOGS" 2>/dev/null | wc -l)
is "$hits" "0" "the API key appears nowhere under AMC_HOME or in the requests"
grep -l "$KEY" "$T_HOME/err" >/dev/null 2>&1; is $? 1 "nor on stderr"
done_testing
