#!/bin/sh
# test_selgen.sh - selector honesty over real trees: the bundled flows run
# as a suite (`amc run --flow data/flows`), and every UI tree their runs
# recorded, the test data's dumps (tests/data/uitree) and the shared sample
# dumps (../shared/samples/uitree, when beside the source tree) go through
# tests/unit/test_selgen, which generates a selector for each node
# (flow/selgen.c) and checks with amc's selector engine that it finds
# exactly that node. The counts are printed in this test's log.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
export AMC_OCR_POLICY=off
SELGEN="$AMC_TEST_BUILDDIR/tests/unit/test_selgen"
[ -x "$SELGEN" ] || skip_all "tests/unit/test_selgen is not built"
"$AMC" sim reset >/dev/null
"$AMC" run --flow "$AMC_TEST_SRCDIR/data/flows" --device sim >/dev/null 2>&1; ok_status $? "the bundled flows ran as a suite"
set -- $(find "$AMC_HOME/artifacts" -name '*-tree.json' | sort)
n_rec=$#
[ "$n_rec" -ge 20 ]; ok_status $? "their runs recorded $n_rec trees"
for f in "$AMC_TEST_SRCDIR"/tests/data/uitree/*.xml "$AMC_TEST_SRCDIR"/../shared/samples/uitree/*.xml; do
	[ -f "$f" ] && set -- "$@" "$f"
done
diag "$n_rec recorded trees and $(($# - n_rec)) dumps"
out=$("$SELGEN" "$@" 2>&1); rc=$?
printf '%s\n' "$out" | grep -E '^not ok|^# ' | head -n 40 | while IFS= read -r l; do diag "$l"; done
ok_status $rc "every generated selector finds exactly its node (test_selgen exit $rc)"
like "$out" "^# selectors: $# trees, [0-9]+ nodes: [0-9]+ selectors .* 0 wrong; .* 0 missed" "the counts, over all $# trees"
done_testing
