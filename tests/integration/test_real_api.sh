#!/bin/sh
# REAL-API TEST: talks to the real Anthropic API (costs a few cents). Runs only
# when ANTHROPIC_API_KEY is set; skipped otherwise. Cost is capped with
# planner.max_cost_usd and the step count with --max-steps.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
[ -n "${ANTHROPIC_API_KEY:-}" ] || skip_all "real-API test: ANTHROPIC_API_KEY is not set"
mkdir -p "$XDG_CONFIG_HOME/amc"
printf '[planner]\nmax_cost_usd = 0.25\n' > "$XDG_CONFIG_HOME/amc/config"

pj=$("$AMC" providers --json | tr -d '\n\t ')
like "$pj" '"name":"anthropic","configured":true' "providers: anthropic configured"
like "$pj" '"health":"ok"' "providers: the model catalog was read"

setsid -w "$AMC" run "Open the Settings app and then the Wi-Fi screen" --max-steps 8 --json </dev/null \
	>"$T_HOME/out" 2>"$T_HOME/err"; rc=$?
diag "amc run exit $rc: $(tr -d '\n' < "$T_HOME/out" | head -c 400)"
like "$(cat "$T_HOME/out")" '"status":[[:space:]]*"(succeeded|failed)"' "the task reached a terminal state"
like "$(cat "$T_HOME/out")" '"input_tokens":[[:space:]]*[1-9]' "usage recorded"
id=$(sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' "$T_HOME/out" | head -n 1)
dec=$("$AMC" show "$id" --decisions --json)
like "$dec" '"stop_reason":[[:space:]]*"tool_use"' "the model answered with a forced tool call"
is "$(grep -rl -- "$ANTHROPIC_API_KEY" "$AMC_HOME" 2>/dev/null | wc -l)" "0" "the key is stored nowhere"
done_testing
