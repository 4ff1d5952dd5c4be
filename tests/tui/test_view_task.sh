#!/bin/sh
# The Task view (tui/view_task.c) as golden screens: timeline, step detail,
# panes, the OCR box mark, zoom, its evidence pane's tabs (tui/evidence.c) and
# UI-tree tab (tui/tree.c): mode-tree keys, search with n/N, the JSON view.
. "$AMC_TEST_SRCDIR/tests/tui/screens.sh"
run_screens task tree

# With thumbnails beside the screenshots (written ahead, as the TUI makes
# them on first use), the panes read them and the zoomed pane the full
# capture; the screens are those the TUI draws from thumbnails it makes.
th=$T_HOME/thumbs
"$AMC_TEST_BUILDDIR/tests/tui/mkfixture" "$th" --thumbs
ok_status $? "fixture database with thumbnails"
mkdir -p "$T_HOME/dump-thumbs"
AMC_HOME=$th AMC_TUI_TIMING=$T_HOME/timing "$AMC" tui --script "$S/task.keys" --dump-dir "$T_HOME/dump-thumbs" \
	--size 100x30 2>"$T_HOME/err"
ok_status $? "script task runs on it"
for d in task task-zoom-before; do
	diff -u "$G/$d.txt" "$T_HOME/dump-thumbs/$d.txt" >"$T_HOME/diff" 2>&1
	ok_status $? "screen $d drawn from the thumbnails matches golden/$d.txt"
done
grep -q '^render_cold_us [0-9]* [0-9]*x[0-9]* thumbnail$' "$T_HOME/timing"
ok_status $? "the panes read the thumbnails"
grep -q '^render_cold_us [0-9]* [0-9]*x[0-9]* full$' "$T_HOME/timing"
ok_status $? "the zoomed pane reads the full capture"

# The evidence pane on a fixture with UI trees, a swipe and a tap that
# changed nothing (mkfixture --evidence).
AMC_HOME=$T_HOME/evidence
"$AMC_TEST_BUILDDIR/tests/tui/mkfixture" "$AMC_HOME" --evidence
ok_status $? "fixture database with UI trees"
run_screens evidence
done_testing
