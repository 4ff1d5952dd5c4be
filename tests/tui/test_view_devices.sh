#!/bin/sh
# The Devices view (tui/view_devices.c) as golden screens: the device list,
# the selected device's screen, a fresh capture (r), zoom, back to Tasks.
. "$AMC_TEST_SRCDIR/tests/tui/screens.sh"
run_screens devices
d=$T_HOME/dump-devices
grep -q '^ amc  Devices' "$d/devices.txt"
ok_status $? "the title bar names the view"
grep -q 'sim' "$d/devices.txt"
ok_status $? "the simulated phone is listed"
done_testing
