#!/bin/sh
# test_bench.sh - short runs of bench/bench_store, bench_device and
# bench_search, only
# to check that they run and print their figures (`make bench` runs them in
# full; the figures of a short run mean nothing).
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
B="$AMC_TEST_BUILDDIR/bench"

out=$("$B/bench_store" 200 300 20 2>&1); is $? 0 "bench_store runs (200 commits, 300 tasks, 20 removed)"
like "$out" "journal_mode=wal" "it prints amc's pragmas"
like "$out" "p50 [0-9.]+ ms   p99 [0-9.]+ ms" "commit percentiles"
like "$out" "removed 20 tasks, 20 steps, 38 files" "retention removed the oldest tasks and their files (2 frames shared with kept tasks stay)"
like "$out" "shared frames .*: 2 of 2 kept  \\[all\\] met" "a frame a kept task names survives retention"
like "$out" "mean [0-9.]+ KB per step" "bytes per recorded step"
like "$out" "WAL checkpoints: [0-9]+ by the background thread" "checkpoints counted"
like "$out" "the file system alone" "beside the file system's own time"
like "$out" "removed tasks' folders left: 2, 0 of them with more than the shared frame  \\[2 and 0\\] met" "and nothing else of the removed tasks stays"
like "$out" "retention total: [0-9]+ ms" "retention's total"
like "$out" "the file system's part \\(inside its 38 unlinks and 20 rmdirs\\): [0-9]+ ms" "its file system's part"
like "$out" "amc's own part \\(the total less the file system's part\\): -?[0-9]+ ms" "and amc's own part"
out=$("$B/bench_store" 10 5 5 2>&1); is $? 2 "REMOVE must be below TASKS"

out=$(BENCH_LATENCY=input_ms=0 AMC_DATA_DIR="$AMC_TEST_SRCDIR/data" \
	"$B/bench_device" "$AMC_TEST_BUILDDIR/tests/tools/adb-standin" \
	"$AMC_TEST_SRCDIR/data/flows/wifi-off-on.yaml" 2>&1); is $? 0 "bench_device runs a flow over the stand-in"
like "$out" "wifi-off-on.yaml +1 launch_app +[0-9]+ +2 +1" "step 1: its screenshots, two tree dumps, one input"
like "$out" "7 steps: amc's own time is" "the summary"
like "$out" "with zero latency amc's own time totals" "and amc's own time at zero latency"
like "$out" "action steps \\(a device input\\): amc's own time [0-9.]+ %" "issue 31: the action steps' share"
like "$out" "target: amc's own time <= 3 % of every action step: (met|MISSED) \\([0-9]+ of [0-9]+ over\\)" "with its target"
like "$out" "target: amc's own time <= 3 % of the total: (met|MISSED)" "and the total's"
like "$out" "3 steps read the observation they had" "steps with no device call apart"
like "$out" "target: settling decodes at most one full frame an action step .*: met \([0-9]+ PNG decodes: 1 for the tasks' first observations, [0-9]+ in 4 action steps; [0-9]+ probes\)" "the settling's decodes, counted: at most one an action step"
like "$out" "target: the zero-latency total halved \(issue 31: 4595 ms for 29 steps, <= 79.2 ms a step\): (met|MISSED) \([0-9]+ ms for 7 steps" "and the zero-latency total's"
out=$("$B/bench_device" /nonexistent 2>&1); is $? 2 "no stand-in: usage"
# bench_search on 20,000 steps in a scratch TMPDIR: every query finds its planted rows
out=$(TMPDIR="$T_HOME" "$B/bench_search" 20000 5 2>&1); is $? 0 "bench_search runs (20,000 steps, 5 rounds)"
like "$out" "filled 20000 steps \(2000 tasks\)" "it fills the database through the store"
like "$out" "the FTS5 index [0-9.]+ MB, its documents \(search_map\) [0-9.]+ MB" "it prints the index's size"
like "$out" "search storage: index plus documents [0-9.]+ % of the database's pages in use \[<= 20 %\] (met|MISSED)" \
	"and their share of the database with its target"
like "$out" "rare term \(Quetzalcoatl, 1 in 10,000\) +2 " "the rare term: its two planted rows"
like "$out" "phrase \(\"Payment failed\", 1 %\) +20 " "the phrase fills the first page"
like "$out" "p99 ms +\[p99 <= 1.62 ms over 1M steps\]" "the queries' p99 target is printed"
like "$out" "prefix \(Blue\*, 3 %\) +20 +[0-9.]+ +[0-9.]+ +not this run's size" "a short run gives no verdict"
out=$(TMPDIR="$T_HOME" "$B/bench_search" 20000 5 2>&1); like "$out" "reusing" "a second run reuses the database"
out=$("$B/bench_search" 5 2>&1); is $? 2 "too few steps: usage"
# bench_recorded.sh on the bundled flows: what a recorded step costs on disk
out=$(BENCH_RECORDED_QUICK=1 TMPDIR="$T_HOME" sh "$AMC_TEST_SRCDIR/bench/bench_recorded.sh" "$AMC" "$AMC_TEST_SRCDIR/data" 2>&1)
is $? 0 "bench_recorded.sh runs the bundled flows"
like "$out" "bundled flows +[0-9]+ steps, +[0-9]+ screenshot files, .* KB per recorded step \\[<= 80 KB\\] (met|MISSED)" "and prints the bytes per recorded step with its target"
done_testing
