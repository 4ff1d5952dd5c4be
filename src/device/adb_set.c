/* adb_set.c - the adb driver's set_device: what adb can change on a phone
 * without an app of amc's on it.
 *
 * Orientation: auto-rotate off, then the user rotation (settings put system
 * accelerometer_rotation 0; user_rotation N), as Maestro's Android driver
 * does through its instrumentation. Airplane mode: `cmd connectivity
 * airplane-mode enable|disable` (Android 11+; older phones refuse it and the
 * error says so). Media: pushed to /sdcard/Pictures, then the media scanner
 * is told so the gallery lists it. A location needs a mock-location app on a
 * real phone: refused here (amc flow check refuses it before a run).
 * launchApp's permissions (pm grant/revoke, Maestro's names translated as
 * its AndroidDriver does) and arguments (intent extras of the launcher
 * activity) are here too, and list_apps (`pm list packages`) and
 * install_app (`adb install -r`: keeps the app's data, never a downgrade). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device/adb_int.h"
#include "device/adb_list.h"
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
	int on = amc_dev_switch_parse(AMC_SET_AIRPLANE, value, e);
	if (on < 0)
		return -1;
	if (on == AMC_SWITCH_TOGGLE) {
		char *out = NULL;
		const char *w[] = { "settings", "get", "global", "airplane_mode_on", NULL };
		if (amc_adb_shell(d, w, &out, e) != 0)
			return -1;
		on = !(out && out[0] == '1');
		free(out);
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
	case AMC_SET_DARK_MODE: {
		/* `cmd uimode night yes|no` (UiModeManager's shell command, Android 10+) */
		int on = amc_dev_switch_parse(AMC_SET_DARK_MODE, value, e);
		if (on < 0)
			return -1;
		if (on == AMC_SWITCH_TOGGLE) {
			char now[8];
			if (amc_adb_get(d, AMC_SET_DARK_MODE, now, sizeof now, e) != 0)
				return -1;
			on = strcmp(now, "on") != 0;
		}
		const char *w[] = { "cmd", "uimode", "night", on ? "yes" : "no", NULL };
		if (amc_adb_shell(d, w, NULL, e) != 0)
			return amc_err_prefix(e, "switching dark mode needs Android 10 or later (`cmd uimode night`)");
		return 0;
	}
	default:
		return amc_err_set(e, AMC_EUSAGE, "unknown device setting");
	}
}

/* A setting's state: dark mode from `cmd uimode night` ("Night mode: yes");
 * "auto" and "custom" (the phone decides by the time of day) are neither on
 * nor off, and said so. */
int amc_adb_get(amc_device *d, amc_dev_setting what, char *out, size_t n, amc_err *e)
{
	if (what != AMC_SET_DARK_MODE)
		return amc_err_set(e, AMC_EUSAGE, "amc does not read a phone's %s through adb",
				   amc_dev_setting_name(what));
	char *text = NULL;
	const char *w[] = { "cmd", "uimode", "night", NULL };
	if (amc_adb_shell(d, w, &text, e) != 0)
		return amc_err_prefix(e, "reading dark mode needs Android 10 or later (`cmd uimode night`)");
	const char *v = text ? strstr(text, "Night mode: ") : NULL;
	int rc = 0;
	if (v && !strncmp(v + 12, "yes", 3))
		snprintf(out, n, "on");
	else if (v && !strncmp(v + 12, "no", 2))
		snprintf(out, n, "off");
	else {
		char line[256];
		amc_adb_first_line(text ? text : "", line, sizeof line);
		rc = amc_err_set(e, AMC_EFAIL, "the phone's dark mode is neither on nor off (`cmd uimode night`: %s)",
				 line);
	}
	free(text);
	return rc;
}

/* doubleTapOn: the phone's shell runs both taps of one adb call, so no adb
 * round trip falls between them (each `input` still starts its own process:
 * on a slow phone the pair may take longer than Android's 300 ms double-tap
 * window; Maestro's driver injects the events from its instrumentation). */
int amc_adb_double_tap(amc_device *d, int x, int y, amc_err *e)
{
	if (x < 0 || y < 0 || x > 100000 || y > 100000)
		return amc_err_set(e, AMC_EUSAGE, "double tap at (%d,%d) is off the screen", x, y);
	char xs[16], ys[16];
	snprintf(xs, sizeof xs, "%d", x);
	snprintf(ys, sizeof ys, "%d", y);
	const char *w[] = { "input", "tap", xs, ys, ";", "input", "tap", xs, ys, NULL };
	return amc_adb_shell(d, w, NULL, e);
}

/* ---- launchApp: permissions and launch arguments ---- */

/* Maestro's permission names (AndroidDriver.translatePermissionName); any
 * other name is an Android permission, cut to [A-Za-z0-9._]. */
static const struct {
	const char *name, *perms;
} PERMS[] = {
	{ "location", "android.permission.ACCESS_FINE_LOCATION android.permission.ACCESS_COARSE_LOCATION" },
	{ "camera", "android.permission.CAMERA" },
	{ "contacts", "android.permission.READ_CONTACTS android.permission.WRITE_CONTACTS" },
	{ "phone", "android.permission.CALL_PHONE android.permission.ANSWER_PHONE_CALLS" },
	{ "microphone", "android.permission.RECORD_AUDIO" },
	{ "bluetooth", "android.permission.BLUETOOTH_CONNECT android.permission.BLUETOOTH_SCAN" },
	{ "storage", "android.permission.WRITE_EXTERNAL_STORAGE android.permission.READ_EXTERNAL_STORAGE" },
	{ "notifications", "android.permission.POST_NOTIFICATIONS" },
	{ "medialibrary", "android.permission.WRITE_EXTERNAL_STORAGE android.permission.READ_EXTERNAL_STORAGE "
			  "android.permission.READ_MEDIA_AUDIO android.permission.READ_MEDIA_IMAGES "
			  "android.permission.READ_MEDIA_VIDEO" },
	{ "calendar", "android.permission.WRITE_CALENDAR android.permission.READ_CALENDAR" },
	{ "sms", "android.permission.READ_SMS android.permission.RECEIVE_SMS android.permission.SEND_SMS" },
};

/* pm grant|revoke, errors ignored as Maestro ignores them (an app that does
 * not request a permission cannot be granted it). */
static void pm_set(amc_device *d, const char *app, const char *perm, const char *verb)
{
	char p[160];
	size_t n = 0;
	for (const char *c = perm; *c && n + 1 < sizeof p; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
		    *c == '_')
			p[n++] = *c;
	p[n] = '\0';
	if (!n)
		return;
	const char *w[] = { "pm", verb, app, p, NULL };
	amc_err ignored;
	char *out = NULL;
	(void)amc_adb_shell(d, w, &out, &ignored);
	free(out);
}

/* Every permission the app requests (`dumpsys package`'s "requested
 * permissions:" block), for Maestro's `all`. */
static void set_all(amc_device *d, const char *app, const char *verb, amc_err *e)
{
	const char *w[] = { "dumpsys", "package", app, NULL };
	char *out = NULL;
	if (amc_adb_shell(d, w, &out, e) != 0 || !out) {
		free(out);
		return;
	}
	char *blk = strstr(out, "requested permissions:");
	if (blk) {
		char *save = NULL;
		char *line = strtok_r(strchr(blk, '\n'), "\n", &save);
		for (int k = 0; line && k < 200; k++, line = strtok_r(NULL, "\n", &save)) {
			char *t = line + strspn(line, " \t");
			if (t == line || strchr(t, ' ') || t[strlen(t) - 1] == ':')
				break; /* the block's end: a header or another section */
			t[strcspn(t, ":")] = '\0';
			pm_set(d, app, t, verb);
		}
	}
	free(out);
}

int amc_adb_permissions(amc_device *d, const char *app, const char *json, amc_err *e)
{
	cJSON *o = json ? cJSON_Parse(json) : NULL;
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return amc_err_set(e, AMC_EUSAGE, "permissions must be a JSON object of NAME: allow|deny|unset");
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, o) {
		const char *v = cJSON_IsString(it) ? it->valuestring : "";
		if (strcmp(v, "allow") && strcmp(v, "deny") && strcmp(v, "unset")) {
			char *q = amc_sanitize_dup(v);
			amc_err_set(e, AMC_EUSAGE, "permission %s: '%.40s' is not allow, deny or unset", it->string, q);
			free(q);
			cJSON_Delete(o);
			return -1;
		}
		const char *verb = !strcmp(v, "allow") ? "grant" : "revoke";
		if (!strcmp(it->string, "all")) {
			amc_err ignored;
			set_all(d, app, verb, &ignored);
			continue;
		}
		const char *list = NULL;
		for (size_t i = 0; i < sizeof PERMS / sizeof PERMS[0]; i++)
			if (!strcmp(it->string, PERMS[i].name))
				list = PERMS[i].perms;
		if (!list) {
			pm_set(d, app, it->string, verb);
			continue;
		}
		char one[96];
		for (const char *p = list; *p;) {
			size_t n = strcspn(p, " ");
			snprintf(one, sizeof one, "%.*s", (int)n, p);
			pm_set(d, app, one, verb);
			p += n + (p[n] == ' ');
		}
	}
	cJSON_Delete(o);
	return 0;
}

/* One word for the phone's shell: single-quoted, ' written as '\''. */
static void quoted(amc_sb *sb, const char *s)
{
	amc_sb_putc(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			amc_sb_puts(sb, "'\\''");
		else
			amc_sb_putc(sb, *s);
	}
	amc_sb_putc(sb, '\'');
}

static int whole_number(const char *s)
{
	size_t n = strlen(s), i = s[0] == '-';
	if (n == i || n - i > 9)
		return 0;
	return strspn(s + i, "0123456789") == n - i;
}

int amc_adb_launch_args(amc_device *d, const char *app, const char *json, amc_err *e)
{
	cJSON *o = json ? cJSON_Parse(json) : NULL;
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return amc_err_set(e, AMC_EUSAGE, "launch arguments must be a JSON object of KEY: VALUE");
	}
	/* the launcher activity: arguments are extras of its intent, as the
	 * Maestro driver's launchApp passes them */
	const char *rw[] = { "cmd", "package", "resolve-activity", "--brief", "-c", "android.intent.category.LAUNCHER",
			     app, NULL };
	char *out = NULL;
	if (amc_adb_shell(d, rw, &out, e) != 0) {
		cJSON_Delete(o);
		return amc_err_prefix(e, "launch arguments need the app's launcher activity");
	}
	char comp[256] = "";
	for (char *l = out; l && *l;) {
		size_t n = strcspn(l, "\r\n");
		if (n < sizeof comp && memchr(l, '/', n) && !memchr(l, ' ', n))
			snprintf(comp, sizeof comp, "%.*s", (int)n, l);
		l += n;
		l += strspn(l, "\r\n");
	}
	free(out);
	if (!comp[0] || !amc_adb_app_id_valid(comp)) {
		cJSON_Delete(o);
		return amc_err_set(e, AMC_EFAIL, "app '%s' has no launcher activity on this phone; is it installed?", app);
	}
	amc_sb ex;
	amc_sb_init(&ex);
	const cJSON *it;
	int bad = 0;
	cJSON_ArrayForEach(it, o) {
		const char *v = cJSON_IsString(it) ? it->valuestring : NULL;
		size_t kn = strlen(it->string);
		if (!v || !kn || kn > 128 || strspn(it->string, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
							   "0123456789_.-") != kn || strlen(v) > 1024 ||
		    strpbrk(v, "\n\r")) {
			bad = 1;
			break;
		}
		/* typed as YAML wrote them: true/false, whole numbers, else text */
		const char *flag = !strcmp(v, "true") || !strcmp(v, "false") ? "--ez" : whole_number(v) ? "--ei" : "--es";
		amc_sb_printf(&ex, "%s%s ", ex.len ? " " : "", flag);
		quoted(&ex, it->string);
		amc_sb_putc(&ex, ' ');
		quoted(&ex, v);
	}
	cJSON_Delete(o);
	if (bad) {
		amc_sb_free(&ex);
		return amc_err_set(e, AMC_EUSAGE, "a launch argument's key must be letters, digits, . _ - (1-128) and "
				   "its value one line of at most 1024 bytes");
	}
	const char *w[] = { "am", "start", "-W", "-n", comp, amc_sb_str(&ex), NULL };
	int rc = amc_adb_shell(d, w, &out, e);
	if (rc == 0 && out && strstr(out, "Error")) {
		char line[256];
		amc_adb_first_line(strstr(out, "Error"), line, sizeof line);
		rc = amc_err_set(e, AMC_EFAIL, "app '%s' could not be started: %s", app, line);
	}
	free(out);
	amc_sb_free(&ex);
	return rc;
}

/* ---- list_apps and install_app ---- */

int amc_adb_list_apps(amc_device *d, char **ids, amc_err *e)
{
	const char *w[] = { "pm", "list", "packages", NULL };
	char *out = NULL;
	if (amc_adb_shell(d, w, &out, e) != 0)
		return -1;
	/* "package:com.android.settings" a line; anything else is skipped */
	*ids = amc_adb_package_lines(out ? out : "");
	free(out);
	return 0;
}

int amc_adb_install(amc_device *d, const char *path, amc_err *e)
{
	adb *a = adb_of(d);
	/* -r: replace an installed app of the same id keeping its data; no -d
	 * (downgrade) nor -g (grant every permission) */
	const char *args[] = { "install", "-r", path, NULL };
	long keep = a->timeout_ms;
	if (a->timeout_ms < ADB_INSTALL_MS)
		a->timeout_ms = ADB_INSTALL_MS; /* a large package takes a while to copy and verify */
	amc_proc_result r;
	int rc = amc_adb_run(a, args, 65536, &r, e);
	a->timeout_ms = keep;
	if (rc != 0)
		return -1;
	const char *txt = r.out_len ? (const char *)r.out : "";
	if (r.exit_code != 0 || !strstr(txt, "Success")) {
		const char *f = strstr(txt, "Failure");
		char line[256];
		amc_adb_first_line(f ? f : r.err_len ? r.err : txt, line, sizeof line);
		rc = amc_err_set(e, AMC_EFAIL, "adb install on %s failed: %s", a->serial, line[0] ? line : "no message");
	}
	amc_proc_result_free(&r);
	return rc;
}
