/* adb_int.h - what the adb driver's files share (adb.c, adb_link.c,
 * adb_list.c, adb_set.c); nothing outside src/device/adb*.c includes it. */
#ifndef AMC_ADB_INT_H
#define AMC_ADB_INT_H

#include <limits.h>
#include <stddef.h>
#include "device/device.h"
#include "device/adb_list.h"
#include "util/proc.h"

/* Bounds on what one adb call may print (text) and on its error output. */
#define ADB_MAX_TEXT (4u * 1024u * 1024u)
#define ADB_MAX_ERR (64u * 1024u)

/* One phone (adb.c opens it; the link and the settings use it). */
typedef struct adb {
	amc_device dev;
	char serial[128];
	char prog[PATH_MAX];
	long timeout_ms;
	int w, h;
	int rot;        /* user_rotation amc set (adb_set.c): `wm size` is the portrait size */
	char model[64];
	/* adb.capture: "raw", "png" or "auto"; "auto" measures once and
	 * becomes one of the others, and a phone whose raw frame is refused is
	 * "png" for the rest of this handle. */
	char capture[8];
	int recording;  /* a `screenrecord` started by amc_adb_record_start runs */
} adb;

static inline adb *adb_of(amc_device *d)
{
	return d->impl;
}

/* Run `adb -s SERIAL args...` (adb_link.c). 0 when adb ran and the phone is
 * there (the exit code is the caller's to judge); -1 with AMC_EENV otherwise. */
int amc_adb_run(adb *a, const char *const *args, size_t max_out, amc_proc_result *r, amc_err *e);
/* `adb shell WORDS...`; the words are already safe for the device's shell.
 * Fails (AMC_EFAIL) when the command exits non-zero. *out (optional) gets
 * stdout (caller frees). */
int amc_adb_sh(adb *a, const char *const *words, char **out, amc_err *e);

/* First line of a program's message, bounded to 200 bytes and terminal-safe,
 * into out (n bytes). */
void amc_adb_first_line(const char *s, char *out, size_t n);

/* amc_adb_app_id_valid: adb_list.h */

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
/* A setting's state (adb_set.c): dark mode only. */
int amc_adb_get(amc_device *d, amc_dev_setting what, char *out, size_t n, amc_err *e);
/* Screen recording through `screenrecord` (adb_rec.c). */
int amc_adb_record_start(amc_device *d, amc_err *e);
int amc_adb_record_stop(amc_device *d, unsigned char **data, size_t *len, char *ext, size_t extn, int *frames,
			amc_err *e);
/* list_apps: `pm list packages`, one id a line (adb_set.c). */
int amc_adb_list_apps(amc_device *d, char **ids, amc_err *e);
/* install_app: `adb install -r PATH` (a checked path on amc's host), with
 * at least ADB_INSTALL_MS to finish. */
#define ADB_INSTALL_MS 180000L
int amc_adb_install(amc_device *d, const char *path, amc_err *e);
/* doubleTapOn: both `input tap`s in one adb shell call (adb_set.c). */
int amc_adb_double_tap(amc_device *d, int x, int y, amc_err *e);
/* The driver's set_device (adb_set.c): orientation, airplane mode, media. */
int amc_adb_set(amc_device *d, amc_dev_setting what, const char *value, amc_err *e);

#endif
