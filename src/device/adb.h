/* adb.h - Android phones over the `adb` program.
 *
 * Every call runs `adb -s SERIAL ...` through amc_proc_run (argv array, own
 * process group, stdin /dev/null, wall-clock limit [adb] timeout_ms, stdout and
 * stderr apart). Never a host shell. Frames come as raw pixels from `exec-out
 * screencap` or as PNG from `exec-out screencap -p` ([adb] capture = raw, png,
 * or auto: measure both on the first frame and keep the faster); a raw frame
 * that fails the strict checks switches the phone to PNG for good. UI trees from `exec-out uiautomator dump /dev/tty` (falling back to a
 * dump into /sdcard/window_dump.xml read with `exec-out cat`).
 *
 * Text goes through `shell input text` as one single-quoted argument for the
 * device's shell, spaces sent as %s. Text that `input text` cannot type
 * (non-ASCII, a literal "%s", control bytes other than newline and tab) goes
 * through the ADBKeyBoard IME broadcast when that IME is installed; otherwise the
 * call fails saying so. A device that is gone (adb: "device not found", "no
 * devices", "offline") is an AMC_EENV error naming the serial. */
#ifndef AMC_ADB_H
#define AMC_ADB_H

#include <stddef.h>
#include "device/device.h"
#include "device/adb_list.h" /* listing and parsing, no open phone */

/* Open the phone with this serial (as `adb devices` prints it). Checks that it
 * is connected and authorized (AMC_EENV with the fix otherwise). */
int amc_adb_open(const char *serial, const amc_config *cfg, amc_device **out, amc_err *e);

/* How the phone's screen is captured now: "raw", "png", or "auto" before the
 * first frame decided it ("" for a device that is not adb). */
const char *amc_adb_capture_mode(const amc_device *d);

/* 0 when `serial` looks like an adb serial (letters, digits, . _ : -; emulator-5554,
 * 192.168.1.20:5555, R58M123ABC). */
int amc_adb_serial_valid(const char *serial);

/* What the phone says of itself, for a fleet host's capabilities: its
 * Android version (getprop ro.build.version.release, one safe line, into os)
 * and the ids of at most max apps installed beyond the system's (`pm list
 * packages -3`; ids amc could not launch are left out). *apps is malloc'd,
 * each id too (the caller frees them). 0, or -1 with e. */
int amc_adb_describe(amc_device *d, char *os, size_t n, char ***apps, size_t *napps, size_t max, amc_err *e);

/* The foreground app's package ("com.android.settings"), from `dumpsys window`
 * (mCurrentFocus, else mFocusedApp). Caller frees. */
int amc_adb_foreground_app(amc_device *d, char **pkg, amc_err *e);

/* Quote `text` as one argument for the device shell's `input text`: spaces as
 * %s, the whole in single quotes with ' written as '\''. NULL when input text
 * cannot type it (see above). Caller frees. */
char *amc_adb_quote_input_text(const char *text);

#endif
