/* adb_set.c - the adb driver's set_device: what adb can change on a phone
 * without an app of amc's on it.
 *
 * Orientation: auto-rotate off, then the user rotation (settings put system
 * accelerometer_rotation 0; user_rotation N), as Maestro's Android driver
 * does through its instrumentation. Airplane mode: `cmd connectivity
 * airplane-mode enable|disable` (Android 11+; older phones refuse it and the
 * error says so). Media: pushed to /sdcard/Pictures, then the media scanner
 * is told so the gallery lists it. A location needs a mock-location app on a
 * real phone: refused here (amc flow check refuses it before a run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/adb_int.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* A file name safe for the phone's shell and its media store. */
static int media_name_ok(const char *n)
{
	size_t len = strlen(n);
	if (len == 0 || len > 120 || n[0] == '.' || n[0] == '-')
		return 0;
	for (const char *c = n; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
		      *c == '_' || *c == '-'))
			return 0;
	return 1;
}

static int airplane(amc_device *d, const char *value, amc_err *e)
{
	int on;
	if (!strcmp(value, "toggle")) {
		char *out = NULL;
		const char *w[] = { "settings", "get", "global", "airplane_mode_on", NULL };
		if (amc_adb_shell(d, w, &out, e) != 0)
			return -1;
		on = !(out && out[0] == '1');
		free(out);
	} else if (!strcmp(value, "on") || !strcmp(value, "off")) {
		on = !strcmp(value, "on");
	} else {
		return amc_err_set(e, AMC_EUSAGE, "airplane mode must be on, off or toggle");
	}
	char *out = NULL;
	const char *w[] = { "cmd", "connectivity", "airplane-mode", on ? "enable" : "disable", NULL };
	int rc = amc_adb_shell(d, w, &out, e);
	if (rc == 0 && out && (strstr(out, "Unknown command") || strstr(out, "Error"))) {
		char line[256];
		amc_adb_first_line(out, line, sizeof line);
		rc = amc_err_set(e, AMC_EFAIL, "this phone cannot switch airplane mode through adb (Android 11 or "
				 "later has `cmd connectivity airplane-mode`): %s", line);
	} else if (rc != 0) {
		amc_err_prefix(e, "switching airplane mode needs Android 11 or later");
	}
	free(out);
	return rc;
}

static int add_media(amc_device *d, const char *path, amc_err *e)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!media_name_ok(base)) {
		char *q = amc_sanitize_dup(base);
		amc_err_set(e, AMC_EUSAGE, "addMedia: '%.120s' cannot be a file name on the phone (letters, digits, "
			    ". _ - only)", q);
		free(q);
		return -1;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		char *q = amc_sanitize_dup(path);
		amc_err_set(e, AMC_EUSAGE, "addMedia: '%.200s' cannot be read", q);
		free(q);
		return -1;
	}
	fclose(f);
	char remote[160], uri[176];
	snprintf(remote, sizeof remote, "/sdcard/Pictures/%s", base);
	snprintf(uri, sizeof uri, "file://%s", remote);
	if (amc_adb_push(d, path, remote, e) != 0)
		return -1;
	const char *w[] = { "am", "broadcast", "-a", "android.intent.action.MEDIA_SCANNER_SCAN_FILE", "-d", uri, NULL };
	char *out = NULL;
	int rc = amc_adb_shell(d, w, &out, e);
	free(out);
	return rc;
}

int amc_adb_set(amc_device *d, amc_dev_setting what, const char *value, amc_err *e)
{
	if (!value)
		return amc_err_set(e, AMC_EUSAGE, "set_device %s needs a value", amc_dev_setting_name(what));
	switch (what) {
	case AMC_SET_ORIENTATION: {
		int q = amc_orientation_parse(value);
		if (q < 0)
			return amc_err_set(e, AMC_EUSAGE, "orientation must be portrait, landscape_left, "
					   "landscape_right or upside_down");
		char n[2] = { (char)('0' + q), '\0' };
		const char *off[] = { "settings", "put", "system", "accelerometer_rotation", "0", NULL };
		const char *rot[] = { "settings", "put", "system", "user_rotation", n, NULL };
		if (amc_adb_shell(d, off, NULL, e) != 0 || amc_adb_shell(d, rot, NULL, e) != 0)
			return -1;
		amc_adb_rotated(d, q);
		return 0;
	}
	case AMC_SET_AIRPLANE:
		return airplane(d, value, e);
	case AMC_SET_ADD_MEDIA:
		return add_media(d, value, e);
	case AMC_SET_LOCATION:
		return amc_err_set(e, AMC_EUSAGE, "adb cannot set a phone's location without a mock-location app");
	default:
		return amc_err_set(e, AMC_EUSAGE, "unknown device setting");
	}
}
