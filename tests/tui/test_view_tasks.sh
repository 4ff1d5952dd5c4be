#!/bin/sh
# The Tasks view (tui/view_tasks.c) as golden screens: keyset paging both ways,
# selection, the status filter, search, the sort orders.
. "$AMC_TEST_SRCDIR/tests/tui/screens.sh"
run_screens tasks
d=$T_HOME/dump-tasks
# Content checks beside the goldens: what the screens must say whatever the layout.
rows() { grep -E '^[> ] [^ ]+ +[a-z]+ +t[0-9a-f]{7} ' "$1"; }
started() { rows "$1" | grep -oE '([0-9]{4}-)?[0-9]{2}-[0-9]{2} [0-9:]{5}(:[0-9]{2})?$'; }  # short under 130 columns
grep -q '^ amc  Tasks' "$d/tasks.txt"
ok_status $? "the title bar names the view"
is "$(rows "$d/tasks.txt" | wc -l)" 27 "a page fills the 27 rows between the header and the status line"
is "$(rows "$d/tasks.txt" | grep -c '^>')" 1 "one row is selected"
is "$(started "$d/tasks.txt" | wc -l)" 27 "every row has a start time"
started "$d/tasks.txt" | sort -c -r
ok_status $? "newest first by default"
started "$d/tasks-sort-oldest.txt" | sort -c
ok_status $? "s: oldest first"
rows "$d/tasks-sort-duration.txt" | grep -oE '[0-9.]+s [0-9]{4}-' | sed 's/s .*//' | sort -c -r -n
ok_status $? "s s s: longest first"
rows "$d/tasks-sort-status.txt" | cut -c3- | awk '{print $2}' | uniq | sort | uniq -d | grep -q .
ok_status $((! $?)) "s s: by status, each status in one run"
grep -q 'status=running' "$d/tasks-filter-running.txt" && ! rows "$d/tasks-filter-running.txt" | grep -qv ' running '
ok_status $? "f: the running filter is shown and lists no task of another status"
n=$(rows "$d/tasks-filter-succeeded.txt" | wc -l)
[ "$n" -gt 0 ] && ! rows "$d/tasks-filter-succeeded.txt" | grep -qv ' succeeded '
ok_status $? "f f: the succeeded filter shows $n succeeded tasks only"
n=$(rows "$d/tasks-search.txt" | wc -l)
[ "$n" -gt 0 ] && ! rows "$d/tasks-search.txt" | grep -qv 'Wi-Fi'
ok_status $? "/Wi-Fi shows the $n tasks that match only"
sel=$(rows "$d/tasks-pgdn.txt" | grep '^>' | grep -oE 't[0-9a-f]{7}')
[ -n "$sel" ] && ! grep -q "$sel" "$d/tasks.txt"
ok_status $? "PgDn selects a task ($sel) that was not on the first page"
sel=$(rows "$d/tasks-end.txt" | grep '^>' | grep -oE 't[0-9a-f]{7}')
is "$sel" "$(rows "$d/tasks-sort-oldest.txt" | head -1 | grep -oE 't[0-9a-f]{7}')" "G selects the oldest task"

# Short ids as git abbreviates them (issue 27): two tasks whose ids share 8
# characters are shown with 9, in the list and in the Task view's header.
AMC_HOME=$T_HOME/collide
"$AMC_TEST_BUILDDIR/tests/tui/mkfixture" "$AMC_HOME" --collide
ok_status $? "fixture with two ids alike in 8 characters"
printf 'g\n:dump collide-list\nEnter\n:dump collide-task\n' >"$T_HOME/collide.keys"
mkdir -p "$T_HOME/dump-collide"
"$AMC" tui --script "$T_HOME/collide.keys" --dump-dir "$T_HOME/dump-collide" --size 100x30 2>/dev/null
ok_status $? "the script runs"
grep -q ' t03000001 ' "$T_HOME/dump-collide/collide-list.txt" && grep -q ' t03000000 ' "$T_HOME/dump-collide/collide-list.txt"
ok_status $? "the list shows 9 characters, enough to tell them apart"
sed -n 2p "$T_HOME/dump-collide/collide-task.txt" | grep -q '  t0300000[01]  '
ok_status $? "so does the Task view's header"
done_testing
