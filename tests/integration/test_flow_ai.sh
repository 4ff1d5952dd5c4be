#!/bin/sh
# test_flow_ai.sh - a flow's AI commands (assertWithAI, assertNoDefectsWithAI,
# extractTextWithAI) answered by amc's model client, on the sim, against the
# fake Anthropic API (tests/tools/mockllm): verdicts, defects, an extracted
# text used as ${NAME} later, optional and required assertions, a model that
# fails, no model at all, and `amc flow check` with and without a model.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export AMC_JS="$AMC_TEST_BUILDDIR/amc-js"
export AMC_FLOW_WAIT_TIMEOUT_MS=1500
unset ANTHROPIC_BASE_URL AMC_PLANNER_MODEL AMC_OPENAI_BASE_URL
KEY="sk-ant-PLANTED-KEY-4c1d"
F="$T_HOME/flows"
mkdir -p "$F"
cat > "$F/ai.yaml" <<'YAML'
appId: com.android.contacts
---
- launchApp
- assertWithAI: "the contacts list is shown"
- extractTextWithAI:
    query: "the name of the first contact"
    outputVariable: first
- assertVisible: ${first}
- tapOn: ${first}
- assertNoDefectsWithAI
YAML
cat > "$F/strict.yaml" <<'YAML'
appId: com.android.contacts
---
- launchApp
- assertWithAI:
    assertion: "a login form is shown"
    optional: false
- tapOn: "Add contact"
YAML
cat > "$F/defects.yaml" <<'YAML'
appId: com.android.contacts
---
- launchApp
- assertNoDefectsWithAI:
    optional: false
YAML
run_flow() { # run_flow FILE: amc run --flow FILE --json, no terminal
	ANTHROPIC_API_KEY="$KEY" setsid -w "$AMC" run --flow "$1" --json </dev/null >"$T_HOME/out" 2>"$T_HOME/err"
}
field() { sed -n "s/.*\"$1\":[[:space:]]*\"\{0,1\}\([^\",}]*\).*/\1/p" "$T_HOME/out" | head -n 1; }

# 1. no model: refused before the run, naming the file, the line and what to set
env -u ANTHROPIC_API_KEY "$AMC" run --flow "$F/ai.yaml" </dev/null >/dev/null 2>"$T_HOME/err"; rc=$?
is "$rc" 3 "no model: exit status 3 (the environment)"
like "$(cat "$T_HOME/err")" "ai.yaml:4: assertWithAI .*AI commands need a model.*set ANTHROPIC_API_KEY" \
	"no model: FILE:LINE, the command and what to set"
is "$("$AMC" tasks --json | grep -c '"id"')" 0 "no model: nothing recorded"

# 2. every AI command answered; the extracted name is typed into the next commands
first="Alan Turing" # the first contact of the sim's list
start_mock "verdict true
extract $first
defects none"
run_flow "$F/ai.yaml"; rc=$?
stop_mock
is "$rc" 0 "a flow with AI commands succeeds"
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$T_HOME/err" | tail -n 8
is "$(field status)" "succeeded" "status succeeded"
id=$(field id)
is "$(grep -c . "$LOGS/requests.jsonl")" 3 "one model call per AI command"
ok_status "$([ -s "$LOGS/violations.txt" ]; echo $((1 - $?)))" "every request kept the protocol rules"
[ -s "$LOGS/violations.txt" ] && sed 's/^/#   /' "$LOGS/violations.txt"
like "$(sed -n 1p "$LOGS/requests.jsonl")" '"name":"report_assertion"' "assertWithAI offers report_assertion"
like "$(sed -n 1p "$LOGS/requests.jsonl")" 'Assertion: the contacts list is shown' "with the assertion"
like "$(sed -n 1p "$LOGS/requests.jsonl")" '"type":"image"' "and the screenshot"
like "$(sed -n 2p "$LOGS/requests.jsonl")" 'Query: the name of the first contact' "extractTextWithAI sends the query"
like "$(sed -n 3p "$LOGS/requests.jsonl")" '"name":"report_defects"' "assertNoDefectsWithAI offers report_defects"
json=$("$AMC" show "$id" --json | tr -d '\n\t ')
like "$json" '"tool":"assert_with_ai"' "the assertion is a step of its own"
like "$json" '"tool":"extract_text_with_ai"' "so is the extraction"
like "$json" '"tool":"assert_no_defects_with_ai"' "and the defects check"
like "$json" '"output_variable":"first"' "the extraction names its variable"
like "$json" '"usage":\{"model_calls":1,"input_tokens":1000,"output_tokens":100' "each AI step records its usage"
like "$json" '"step":5,"tool":"tap","args":\{"flow_line":9,"x":[0-9]+,"y":[0-9]+,"selector":"text=\\"AlanTuring\\""' \
	"\${first} was the extracted text: tapOn \${first} tapped it"
dec=$("$AMC" show "$id" --decisions)
like "$dec" "report_assertion" "show --decisions lists the AI calls"

# 3. an optional assertion (the default) that is false: the flow goes on
start_mock "verdict false
extract $first
defects none"
run_flow "$F/ai.yaml"; rc=$?
stop_mock
is "$rc" 0 "a false optional assertion does not fail the flow"
like "$("$AMC" show "$(field id)")" "the model judged the assertion false" "but its step says the model's verdict"

# 4. a required assertion that is false fails the flow at its line
start_mock "verdict false"
run_flow "$F/strict.yaml"; rc=$?
stop_mock
is "$(field status)" "failed" "a false required assertion fails the flow"
like "$(cat "$T_HOME/out" "$T_HOME/err")" "strict.yaml:4: assertWithAI: the model judged the assertion false: scripted step" \
	"naming FILE:LINE and the model's reason"

# 5. defects found, required: the flow fails with the first one
start_mock "defects layout the title is cut off"
run_flow "$F/defects.yaml"; rc=$?
stop_mock
is "$(field status)" "failed" "defects found fail a required check"
like "$(cat "$T_HOME/out" "$T_HOME/err")" "1 defect; the first: layout: the title is cut off" "and name the first"

# 6. the model fails: the step fails with the reason, the run ends
start_mock "http 400
http 400"
run_flow "$F/strict.yaml"; rc=$?
stop_mock
is "$(field status)" "failed" "a model that answers nothing fails a required assertion"
like "$(cat "$T_HOME/out" "$T_HOME/err")" "strict.yaml:4: assertWithAI: the model gave no answer" "saying so at its line"

# 7. hostile model text: kept off the terminal
start_mock "defects layout $(printf 'evil\033]52;c;AAAA\007 \033[2J')"
run_flow "$F/defects.yaml"
stop_mock
"$AMC" show "$(field id)" >"$T_HOME/show" 2>&1
is "$(tr -d '\n' <"$T_HOME/show" | tr -dc '\033\007' | wc -c)" 0 "the model's text reaches amc show without control bytes"

# 8. amc flow check: AI commands are a problem only without a model
env -u ANTHROPIC_API_KEY "$AMC" flow check --device-kind sim "$F/ai.yaml" >"$T_HOME/out" 2>&1; rc=$?
is "$rc" 2 "flow check without a model: exit 2"
like "$(cat "$T_HOME/out")" "ai.yaml:4:1: assertWithAI .*needs a model .*MAESTRO_CLI_AI_KEY.* \\[needs-model\\]" \
	"naming the AI command, as an external input (needs-model), not a device problem"
like "$(tail -n 1 "$T_HOME/out")" "0 of 1 flow files check clean .*; 1 more only lack external inputs .*; 0 refused" \
	"counted with the files that only lack external inputs, not refused"
ANTHROPIC_API_KEY="$KEY" "$AMC" flow check --device-kind sim "$F/ai.yaml" >"$T_HOME/out" 2>&1; rc=$?
is "$rc" 0 "flow check with a model configured: clean"
done_testing
