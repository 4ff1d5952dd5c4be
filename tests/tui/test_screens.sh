#!/bin/sh
# Golden screens that cross views: resizing at any moment, the Launch dialog,
# the mouse and clicks. Each view's own screens are in test_view_NAME.sh; the
# fixture and the comparison are in screens.sh.
. "$AMC_TEST_SRCDIR/tests/tui/screens.sh"
run_screens resize dialogs mouse clicks
done_testing
