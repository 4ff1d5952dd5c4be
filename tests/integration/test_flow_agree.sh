#!/bin/sh
# test_flow_agree.sh - `amc flow check` and `amc run` agree (docs/flow-tools.md):
# every flow of the shared corpora that `amc flow check -d sim` accepts (clean,
# or with warnings about undefined names only) is run on the sim, and the run
# must not refuse it, neither before it starts (exit 2: load, resolve, device
# check, the JavaScript helper) nor on the way for a reason check could have
# seen (a command the device cannot do, a script that does not parse). The sim
# lacks the corpus's apps, so runs fail on their first tap or assertion: that
# is allowed, and counted apart. Prints "# agree (CORPUS): ..." per corpus.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export AMC_JS="$AMC_TEST_BUILDDIR/amc-js"
AMC_OCR_POLICY=off; export AMC_OCR_POLICY
AMC_FLOW_WAIT_TIMEOUT_MS=200; export AMC_FLOW_WAIT_TIMEOUT_MS # nothing of the corpus's apps is there

agree() { # NAME DIR
	name=$1; dir=$2
	if [ ! -d "$dir" ]; then
		echo "# SKIP agree ($name): $dir is absent -- NOT measured"
		ok 1 "# SKIP $name is absent"
		return
	fi
	accepted=0; ran=0; passed=0; refused=0; checkrefused=0; checkenv=0
	find "$dir" \( -name '*.yaml' -o -name '*.yml' \) ! -name config.yaml ! -name 'config.yml' | sort >"$T_HOME/files"
	while IFS= read -r f; do
		"$AMC" flow check -d sim "$f" >"$T_HOME/check" 2>&1 </dev/null; crc=$?
		if [ $crc -eq 2 ]; then
			checkrefused=$((checkrefused + 1))
			continue
		elif [ $crc -ne 0 ]; then # the environment (exit 3): said, not counted as agreement
			checkenv=$((checkenv + 1))
			[ $checkenv -le 3 ] && sed 's/^/# check: /' "$T_HOME/check" | tail -n 2
			continue
		fi
		accepted=$((accepted + 1))
		"$AMC" sim reset >/dev/null 2>&1
		"$AMC" run --flow "$f" -d sim -m 40 >"$T_HOME/out" 2>&1 </dev/null; rc=$?
		if [ $rc -eq 2 ] || grep -Eq 'not available on this device|unknown command|SyntaxError|amc-js' "$T_HOME/out"; then
			refused=$((refused + 1))
			echo "# refused by run, accepted by check: $f"
			sed 's/^/#   /' "$T_HOME/out" | grep -E 'amc:|error|refused|not available' | head -n 3
		else
			ran=$((ran + 1))
			[ $rc -eq 0 ] && passed=$((passed + 1))
		fi
	done <"$T_HOME/files"
	echo "# agree ($name): $accepted flows accepted by check -d sim ($checkrefused refused or lacking sub-flow/script files, $checkenv not checked: environment); run refused $refused of them; $ran ran ($passed passed, the rest failed on the sim's missing apps)"
	is "$refused" 0 "$name: no flow accepted by check is refused by run"
	is "$checkenv" 0 "$name: every flow checked (none stopped by the environment)"
}

agree "maestro" "${AMC_MAESTRO_CORPUS:-$AMC_TEST_SRCDIR/../shared/corpus/maestro}"
agree "repositories" "${AMC_MAESTRO_REPOS:-$AMC_TEST_SRCDIR/../shared/corpus/maestro-repos}"
# a corpus kept outside every checkout (docs/flows.md, "Flows from the wild"): only when given
[ -n "${AMC_MAESTRO_WILD:-}" ] && agree "wild" "$AMC_MAESTRO_WILD"
done_testing
