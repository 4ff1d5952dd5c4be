#!/bin/sh
# test_cmd_providers.sh - `amc providers --offline`: what each provider offers
# as a user reads it (text and JSON), where the key came from (never the key),
# and models from a fresh cache only. Online catalogs against the mock server:
# test_agent_run.sh.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
unset ANTHROPIC_API_KEY ANTHROPIC_BASE_URL AMC_OPENAI_BASE_URL OPENAI_API_KEY AMC_LLM_ANTHROPIC_KEY_FILE
no_secret() { # no_secret TEXT NAME
	ok_status $(printf '%s' "$1" | grep -q 'secret-do-not-print'; [ $? -ne 0 ]; echo $?) "$2"
}
# The block of one provider in the text view.
block() { printf '%s\n' "$2" | sed -n "/^$1\$/,/^\$/p"; }

# --- nothing configured -------------------------------------------------------------------
out=$("$AMC" providers --offline); ok_status $? "providers --offline exits 0 with nothing configured"
a=$(block anthropic "$out")
like "$a" "^  configured +no$" "anthropic: not configured"
like "$a" "^  to set up +no API key: set ANTHROPIC_API_KEY" "anthropic: says how to set it up"
like "$a" "^  detail +not checked \(--offline\)$" "anthropic: not checked offline"
like "$a" "^  models +unknown$" "anthropic: models unknown"
o=$(block openai-compatible "$out")
like "$o" "^  configured +no$" "openai-compatible: not configured"
like "$o" "^  to set up +no OpenAI-compatible server: set AMC_OPENAI_BASE_URL" "openai-compatible: says what to set"

# --- configured from the environment and from a key file --------------------------------------
out=$(ANTHROPIC_API_KEY=sk-ant-secret-do-not-print AMC_OPENAI_BASE_URL=http://127.0.0.1:9/v1 "$AMC" providers -o)
a=$(block anthropic "$out")
like "$a" "^  configured +yes$" "key in the environment: configured"
like "$a" "^  source +env ANTHROPIC_API_KEY$" "the source names the variable"
like "$a" "^  base url +https://api.anthropic.com$" "the default base url"
like "$a" "^  billing +api-key \(pay-as-you-go" "billed per token"
no_secret "$out" "the key is never printed"
o=$(block openai-compatible "$out")
like "$o" "^  base url +http://127.0.0.1:9/v1$" "openai-compatible: the server's url"
like "$o" "^  auth +none$" "openai-compatible: no key, no auth"
printf 'sk-ant-secret-do-not-print\n' >"$T_HOME/key"; chmod 600 "$T_HOME/key"
json=$(AMC_LLM_ANTHROPIC_KEY_FILE="$T_HOME/key" "$AMC" providers --offline --json); ok_status $? "--json with a key file"
one=$(printf '%s\n' "$json" | tr -d '\n\t' | grep -o '{"name":[[:space:]]*"anthropic"[^}]*}')
like "$one" '"configured":[[:space:]]*true' "json: the key file configures anthropic"
like "$one" '"source":[[:space:]]*"file llm.anthropic_key_file"' "json: the source names the setting"
like "$one" '"health":[[:space:]]*null' "json: unknown health is null"
like "$one" '"models":[[:space:]]*null' "json: unknown models are null"
no_secret "$json" "no key in the JSON"

# --- models from a fresh cache (offline reads only the cache) ----------------------------------
now=$(($(date +%s) * 1000))
mkdir -p "$AMC_HOME"
printf '{"anthropic":{"observed_at_ms":%s,"expires_at_ms":%s,"models":["claude-test-1","claude-test-2"]}}\n' \
	"$now" $((now + 3600000)) >"$AMC_HOME/providers-cache.json"
out=$(ANTHROPIC_API_KEY=sk-ant-secret-do-not-print "$AMC" providers --offline)
a=$(block anthropic "$out")
like "$a" "^  models +claude-test-1, claude-test-2$" "a fresh cache gives the models"
like "$a" "^  health +ok$" "and the health it saw"
like "$a" "^  expires +[0-9]{4}-" "with when it expires"
printf '{"anthropic":{"observed_at_ms":%s,"expires_at_ms":%s,"models":["claude-old"]}}\n' \
	$((now - 7200000)) $((now - 3600000)) >"$AMC_HOME/providers-cache.json"
out=$(ANTHROPIC_API_KEY=sk-ant-secret-do-not-print "$AMC" providers --offline)
like "$(block anthropic "$out")" "^  models +unknown$" "an expired cache is not used"
printf 'not json' >"$AMC_HOME/providers-cache.json"
"$AMC" providers --offline >/dev/null; ok_status $? "a corrupt cache is ignored"

# --- bad usage -----------------------------------------------------------------------------------
out=$("$AMC" providers extra 2>&1); is $? 2 "an extra argument -> 2"
like "$out" "unexpected argument 'extra'" "the extra argument is named"
"$AMC" providers --online >/dev/null 2>&1; is $? 2 "an unknown option -> 2"

done_testing
