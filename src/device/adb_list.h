/* adb_list.h - what adb prints, parsed (adb_list.c): the phones adb can see,
 * the screen size, the focused app. Needs no open phone. */
#ifndef AMC_ADB_LIST_H
#define AMC_ADB_LIST_H

#include <stddef.h>
#include "util/config.h"
#include "util/err.h"

typedef struct amc_adb_entry {
	char serial[128];
	char state[32];   /* "device", "unauthorized", "offline", "no permissions", ... */
	char model[64];   /* from model:..., "" when absent */
} amc_adb_entry;

/* `adb devices -l`. *out (caller frees) holds *n entries. AMC_EENV when adb is
 * missing or fails. */
int amc_adb_list(const amc_config *cfg, amc_adb_entry **out, size_t *n, amc_err *e);
/* The screen size from `wm size` output (Override size, else Physical
 * size): 0, or -1 when neither is there or it is out of range. */
int amc_adb_parse_wm_size(const char *out, int *w, int *h);
/* The focused app's package from `dumpsys window` output (mCurrentFocus,
 * else mFocusedApp), malloc'd; NULL when none. */
char *amc_adb_parse_focus(const char *out);
/* 1 when `s` can name an app or activity for am/pm: letters, digits and
 * . _ / $, not starting with '-', at most 255 bytes. */
int amc_adb_app_id_valid(const char *s);
/* The app ids `pm list packages` prints ("package:ID" lines), each a valid
 * app id (amc_adb_app_id_valid, no '/'; other lines are skipped), at most
 * max: *apps and each id malloc'd, the caller's. The one reader of that
 * output, for list_apps and a fleet host's capabilities. */
void amc_adb_parse_packages(const char *text, char ***apps, size_t *napps, size_t max);
/* The same ids one a line, at most AMC_APPS_MAX; malloc'd, never NULL. */
char *amc_adb_package_lines(const char *out);
/* Parse the text `adb devices -l` prints (exposed for tests). */
int amc_adb_parse_devices(const char *text, amc_adb_entry **out, size_t *n);

#endif
