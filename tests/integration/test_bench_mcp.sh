#!/bin/sh
# test_bench_mcp.sh - a short run of bench/bench_mcp (`make bench` runs it with
# 50 round trips), only to check that it drives `amc mcp` and prints its
# figures with their targets; the figures of a short run mean nothing.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
B="$AMC_TEST_BUILDDIR/bench"

out=$(TMPDIR="$T_HOME" AMC_DATA_DIR="$AMC_TEST_SRCDIR/data" "$B/bench_mcp" "$AMC" 3 2>&1)
is $? 0 "bench_mcp runs (3 round trips)"
like "$out" "observe +round trip on the sim: median [0-9.]+ ms, p99 [0-9.]+ ms \(n=3\) +median <= 40 ms (met|MISSED) +p99 <= 2x median \([0-9.]+ ms\) (met|MISSED)" \
	"observe: median and p99 with their targets"
like "$out" "act +round trip on the sim: median [0-9.]+ ms, p99 [0-9.]+ ms \(n=3\) +median <= 80 ms (met|MISSED)" \
	"act: median and p99 with their targets"
like "$out" "observe after a pause captures again: median [0-9.]+ ms" "the observe that captures again, for information"
is "$(ls "$T_HOME" | grep -c bench-mcp)" 0 "its scratch AMC_HOME is gone"
out=$("$B/bench_mcp" "$AMC" 1 2>&1); is $? 2 "N below 2: usage"
out=$(TMPDIR="$T_HOME" "$B/bench_mcp" /nonexistent/amc 2 2>&1); is $? 1 "no amc binary: it fails"
done_testing
