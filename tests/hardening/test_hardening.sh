#!/bin/sh
# The short version of `make check-hardening` (seconds): 4 kills, a 4 s race of
# two writers, retention and a reader on one database, the hostile text corpus
# through the CLI, one round of faults. Fuzzing's short version is the corpus
# replay (tests/fuzz/replay_*). Each goal of the table is one TAP line.
. "$AMC_TEST_SRCDIR/tests/integration/tap.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "the sqlite3 command (Debian package sqlite3) is missing"
out=$(AMC="$AMC" TOOLS="$AMC_TEST_BUILDDIR" SRC="$AMC_TEST_SRCDIR" HARDEN_QUICK=1 \
	sh "$AMC_TEST_SRCDIR/tests/hardening/run.sh" 2>"$T_HOME/log"); rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
[ $rc -eq 0 ] || sed 's/^/#   /' "$T_HOME/log" | tail -n 30
ok_status $rc "every goal met (exit status)"
row() { printf '%s\n' "$out" | grep "^$1"; }
like "$(row 'crash')" "kills 4 .*corrupt databases 0, not interrupted 0, lost finished steps 0, dangling paths 0, temp files left 0, next task not started 0" "kill -9: consistent"
like "$(row 'two processes')" "'database is locked' 0, other errors 0, .*incomplete 0\)" "two processes: no lock errors, every task complete"
like "$(row 'two processes')" "commits [1-9]" "two processes: commits were made"
like "$(row 'two processes')" "events lost on the TUI's screen 0" "two processes: the TUI's final screen matches the database"
like "$(row 'hostile')" "inputs x surfaces [1-9][0-9]+, control bytes reaching output 0" "hostile text: no control byte reaches the output"
like "$(row 'hostile')" "cells misaligned 0" "hostile text: the TUI keeps every border in its column"
like "$(row 'faults')" "hangs 0, without a reason 0, database not ok 0" "faults: no hang, every end has a reason"
like "$(row 'faults')" "failed\(timeout\) [1-9]" "faults: a slow model ends at the step's time budget"
like "$(row 'faults')" "failed\(device gone\) [1-9]" "faults: a device gone for long ends the task with a reason"
like "$(row 'faults')" "device vanished [1-9][0-9]* times \(next task failed 0\)" "faults: the device comes back and the next task runs"
like "$(row 'faults')" "failed\(disk full\) [1-9]|refused\(disk full\) [1-9]" "faults: the disk full ends the task with a reason"
done_testing
