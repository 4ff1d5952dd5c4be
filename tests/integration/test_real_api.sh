#!/bin/sh
# REAL-API TEST: talks to the real Anthropic API (costs some cents: a run and
# four task-suite runs). Runs only when ANTHROPIC_API_KEY is set; skipped
# otherwise. Cost is capped with planner.max_cost_usd and the step count with
# --max-steps (the suite: each template's max_steps).
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

# The task suite with the real model (docs/tasks.md): two one-screen runs and
# a question, each capped by the template's max_steps and max_cost_usd above.
for glob in settings-wifi info-build-number; do
	out=$(setsid -w "$AMC" bench tasks --planner llm --tasks "$glob" --seeds 2 -q </dev/null 2>"$T_HOME/berr"); rc=$?
	ok_status $([ "$rc" -le 1 ]; echo $?) "bench tasks --planner llm --tasks $glob ran to a verdict (exit $rc)"
	like "$out" "overall +2 " "$glob: the table counts both seeds"
	diag "$glob, the real model's pass@1: $(printf '%s\n' "$out" | grep '^overall')"
done
is "$(grep -rl -- "$ANTHROPIC_API_KEY" "$AMC_HOME" 2>/dev/null | wc -l)" "0" "the key is stored nowhere"
done_testing
