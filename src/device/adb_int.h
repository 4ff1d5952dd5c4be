/* adb_int.h - what adb.c and adb_list.c share; nothing outside
 * src/device/adb*.c includes it. */
#ifndef AMC_ADB_INT_H
#define AMC_ADB_INT_H

#include <stddef.h>
#include "device/device.h"

/* Bounds on what one adb call may print (text) and on its error output. */
#define ADB_MAX_TEXT (4u * 1024u * 1024u)
#define ADB_MAX_ERR (64u * 1024u)

/* First line of a program's message, bounded to 200 bytes and terminal-safe,
 * into out (n bytes). */
void amc_adb_first_line(const char *s, char *out, size_t n);

/* 1 when `s` can name an app or activity for am/pm: letters, digits and
 * . _ / $, not starting with '-', at most 255 bytes. */
int amc_adb_app_id_valid(const char *s);

/* `adb -s SERIAL shell WORDS...` (words already safe for the phone's shell)
 * and `adb -s SERIAL push LOCAL REMOTE`, as adb.c runs them. */
int amc_adb_shell(amc_device *d, const char *const *words, char **out, amc_err *e);
int amc_adb_push(amc_device *d, const char *local, const char *remote, amc_err *e);
/* The phone now turns `quarter` (0-3) from portrait: the screen size swaps. */
void amc_adb_rotated(amc_device *d, int quarter);
/* launchApp's permissions ({"NAME": "allow"|"deny"|"unset"}) and launch
 * arguments ({"KEY": "VALUE"}), JSON text (adb_set.c). */
int amc_adb_permissions(amc_device *d, const char *app, const char *json, amc_err *e);
int amc_adb_launch_args(amc_device *d, const char *app, const char *json, amc_err *e);
/* doubleTapOn: both `input tap`s in one adb shell call (adb_set.c). */
int amc_adb_double_tap(amc_device *d, int x, int y, amc_err *e);
/* The driver's set_device (adb_set.c): orientation, airplane mode, media. */
int amc_adb_set(amc_device *d, amc_dev_setting what, const char *value, amc_err *e);

#endif
