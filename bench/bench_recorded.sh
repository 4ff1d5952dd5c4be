#!/bin/sh
# bench_recorded.sh AMC DATA_DIR: what a recorded step costs on disk as amc
# really records it (frames stored once, thumbnails, trees), on the bundled
# flows and on one seed of the task suite, each in a scratch AMC_HOME.
# bench_store's (2b) prices one distinct screen; this prices real runs, where
# an unchanged frame is stored once. Target (issue 31): <= 80 KB per step.
AMC=$1
AMC_DATA_DIR=$(cd "$2" && pwd)
export AMC_DATA_DIR
AMC_OCR_POLICY=off
export AMC_OCR_POLICY
rc=0
measure() { # measure NAME HOME
	steps=$(sqlite3 "$2/amc.db" "SELECT count(*) FROM timeline")
	bytes=$(du -sb "$2/artifacts" 2>/dev/null | cut -f1)
	shots=$(find "$2/artifacts" -name '*.png' ! -name '*.thumb.png' | wc -l)
	[ "${steps:-0}" -gt 0 ] && [ -d "$2/artifacts" ] || { echo "    $1: no steps recorded"; rc=1; return; }
	awk -v n="$1" -v s="$steps" -v b="${bytes:-0}" -v f="$shots" 'BEGIN {
		k = b / s / 1024
		printf "    %-22s %4d steps, %3d screenshot files, %8.1f KB on disk: %.1f KB per recorded step [<= 80 KB] %s\n",
			n, s, f, b / 1024, k, (k <= 80 ? "met" : "MISSED") }'
}
echo "(2c) bytes per recorded step as amc records them (artifacts/ of a scratch AMC_HOME):"
h=$(mktemp -d)
for f in "$AMC_DATA_DIR"/flows/*.yaml; do
	AMC_HOME=$h "$AMC" run --flow "$f" >/dev/null 2>&1 || { echo "    $(basename "$f") failed"; rc=1; }
done
measure "bundled flows" "$h"
rm -rf "$h"
[ "${BENCH_RECORDED_QUICK:-0}" = 1 ] && exit $rc   # make check: the flows only
h=$(mktemp -d)
AMC_HOME=$h "$AMC" bench tasks --seeds 1 --sims 2 -q >/dev/null 2>&1
measure "task suite (1 seed)" "$h"
rm -rf "$h"
exit $rc
