#!/bin/sh
# test_search_crash.sh - the search index (storage/search_schema.h, schema 8:
# FTS5 over the records, no copy of the texts) stays consistent when a writer
# is killed with SIGKILL in the middle of its transactions: bench_search fills
# a scratch database through amc's store (the triggers index every row) and is
# killed at three points; after each kill the database is opened again (the
# journal rolled back) and FTS5's integrity-check compares the index with the
# texts the records hold, every indexed document names an existing record,
# and a search still answers. Then retention removes tasks and the index is
# checked again.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
B="$AMC_TEST_BUILDDIR/bench"
command -v sqlite3 >/dev/null 2>&1 || skip_all "no sqlite3 command"
# bench_search's tasks are dated 2023: no automatic retention by age or count
AMC_RETENTION_MAX_AGE_DAYS=36500 AMC_RETENTION_KEEP=100000000
export AMC_RETENTION_MAX_AGE_DAYS AMC_RETENTION_KEEP
D="$T_HOME/amc-bench-search-400000"
check() { # check WHAT
	ic=$(sqlite3 "$D/amc.db" "PRAGMA integrity_check" 2>&1)
	is "$ic" ok "$1: PRAGMA integrity_check"
	fi=$(sqlite3 "$D/amc.db" "INSERT INTO search_fts (search_fts) VALUES ('integrity-check')" 2>&1)
	is "$fi" "" "$1: the FTS5 index agrees with the records' texts"
	orphans=$(sqlite3 "$D/amc.db" "SELECT count(*) FROM search_map m LEFT JOIN search_doc d ON d.id = m.id
		WHERE d.body IS NULL OR d.body = ''" 2>&1)
	is "$orphans" 0 "$1: every document names a record's text"
	# every (token, document, offset) against an index built now from the
	# records (FTS5's check misses a document kept after its record went)
	diff=$(sqlite3 "$D/amc.db" "CREATE VIRTUAL TABLE temp.r USING fts5(body, content = '', columnsize = 0,
		 tokenize = 'unicode61 remove_diacritics 2');
		INSERT INTO temp.r (rowid, body) SELECT id, body FROM search_doc;
		CREATE VIRTUAL TABLE temp.v1 USING fts5vocab(main, search_fts, instance);
		CREATE VIRTUAL TABLE temp.v2 USING fts5vocab(temp, r, instance);
		SELECT (SELECT count(*) FROM (SELECT term, doc, offset FROM temp.v1 EXCEPT SELECT term, doc, offset FROM temp.v2))
		 + (SELECT count(*) FROM (SELECT term, doc, offset FROM temp.v2 EXCEPT SELECT term, doc, offset FROM temp.v1));" 2>&1)
	is "$diff" 0 "$1: the index holds exactly the records' tokens"
}
kills=0
for delay in 2 8 14; do
	TMPDIR="$T_HOME" "$B/bench_search" 400000 1 >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null && kills=$((kills + 1))
	wait "$pid" 2>/dev/null
	[ -f "$D/amc.db" ] || continue
	# amc opens it (the interrupted transaction rolls back) and searches
	out=$(AMC_HOME="$D" "$AMC" search Settings 2>&1); rc=$?
	n=$(sqlite3 "$D/amc.db" "SELECT count(*) FROM timeline")
	# hits when a transaction had committed, else "no matches" (exit 1)
	if [ "$n" -gt 0 ]; then ok_status $rc "after a kill at ${delay} s: amc search finds hits"
	else is "$rc:$out" "1:no matches" "after a kill at ${delay} s (nothing committed): amc search answers"; fi
	check "after a kill at ${delay} s"
	diag "kill at ${delay} s: $n steps committed"
	rm -rf "$D"
done
ok "$kills" "the writer was killed mid-fill at least once ($kills of 3)"
# retention over a filled database: the removed tasks' documents leave the index
TMPDIR="$T_HOME" "$B/bench_search" 2000 1 >/dev/null 2>&1
D="$T_HOME/amc-bench-search-2000"
AMC_HOME="$D" "$AMC" retention --keep 50 >/dev/null 2>&1
ok_status $? "retention keeps 50 of 200 tasks"
is "$(sqlite3 "$D/amc.db" "SELECT count(*) FROM tasks")" 50 "50 tasks left"
check "after retention"
is "$(sqlite3 "$D/amc.db" "SELECT count(*) FROM search_map WHERE tkey NOT IN (SELECT search_key FROM tasks)")" 0 \
	"no document of a removed task is left"
done_testing
