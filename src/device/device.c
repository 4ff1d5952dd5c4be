#include "device/device.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>


#include "image/framebuf.h"
#include "util/clock.h"
#include "util/lockfile.h"
#include "util/sanitize.h"

static const struct {
	const char *name;     /* amc's */
	const char *maestro;  /* Maestro's pressKey name */
	int android;          /* KeyEvent code */
} KEYS[AMC_KEY_COUNT] = {
	[AMC_KEY_BACK] = { "back", "Back", 4 },
	[AMC_KEY_HOME] = { "home", "Home", 3 },
	[AMC_KEY_ENTER] = { "enter", "Enter", 66 },
	[AMC_KEY_DELETE] = { "delete", "Backspace", 67 },
	[AMC_KEY_TAB] = { "tab", "Tab", 61 },
	[AMC_KEY_ESCAPE] = { "escape", "Escape", 111 },
	[AMC_KEY_LOCK] = { "lock", "Lock", 276 },
	[AMC_KEY_POWER] = { "power", "Power", 26 },
	[AMC_KEY_VOLUME_UP] = { "volume_up", "Volume Up", 24 },
	[AMC_KEY_VOLUME_DOWN] = { "volume_down", "Volume Down", 25 },
	[AMC_KEY_DPAD_UP] = { "dpad_up", "Remote Dpad Up", 19 },
	[AMC_KEY_DPAD_DOWN] = { "dpad_down", "Remote Dpad Down", 20 },
	[AMC_KEY_DPAD_LEFT] = { "dpad_left", "Remote Dpad Left", 21 },
	[AMC_KEY_DPAD_RIGHT] = { "dpad_right", "Remote Dpad Right", 22 },
	[AMC_KEY_DPAD_CENTER] = { "dpad_center", "Remote Dpad Center", 23 },
	[AMC_KEY_MEDIA_PLAY_PAUSE] = { "media_play_pause", "Remote Media Play Pause", 85 },
	[AMC_KEY_MEDIA_STOP] = { "media_stop", "Remote Media Stop", 86 },
	[AMC_KEY_MEDIA_NEXT] = { "media_next", "Remote Media Next", 87 },
	[AMC_KEY_MEDIA_PREVIOUS] = { "media_previous", "Remote Media Previous", 88 },
	[AMC_KEY_MEDIA_REWIND] = { "media_rewind", "Remote Media Rewind", 89 },
	[AMC_KEY_MEDIA_FAST_FORWARD] = { "media_fast_forward", "Remote Media Fast Forward", 90 },
	[AMC_KEY_HIDE_KEYBOARD] = { "hide_keyboard", "hide_keyboard", -1 },
	/* not one of Maestro's pressKey names: amc's name only */
	[AMC_KEY_APP_SWITCH] = { "app_switch", "app_switch", 187 },
};

int amc_key_parse(const char *s, amc_key *out)
{
	if (!s)
		return -1;
	for (int k = 0; k < AMC_KEY_COUNT; k++) {
		if (!strcasecmp(s, KEYS[k].name) || !strcasecmp(s, KEYS[k].maestro)) {
			*out = (amc_key)k;
			return 0;
		}
	}
	if (!strcasecmp(s, "backspace")) {
		*out = AMC_KEY_DELETE;
		return 0;
	}
	return -1;
}

const char *amc_key_name(amc_key k)
{
	return (int)k >= 0 && k < AMC_KEY_COUNT ? KEYS[k].name : "?";
}

int amc_key_android_code(amc_key k)
{
	return (int)k >= 0 && k < AMC_KEY_COUNT ? KEYS[k].android : -1;
}

static const char *const APP_OPS[] = { "clear_state", "stop", "kill", "open_link" };

int amc_app_op_parse(const char *s, amc_app_op *out)
{
	for (int i = 0; s && i <= AMC_APP_OPEN_LINK; i++) {
		if (!strcmp(s, APP_OPS[i])) {
			*out = (amc_app_op)i;
			return 0;
		}
	}
	return -1;
}

static const char *const SETTINGS[AMC_SET_COUNT] = { "orientation", "airplane", "location", "add_media",
								      "dark_mode" };

int amc_dev_setting_parse(const char *s, amc_dev_setting *out)
{
	for (int i = 0; s && i < AMC_SET_COUNT; i++) {
		if (!strcmp(s, SETTINGS[i])) {
			*out = (amc_dev_setting)i;
			return 0;
		}
	}
	return -1;
}

const char *amc_dev_setting_name(amc_dev_setting s)
{
	return s >= 0 && s < AMC_SET_COUNT ? SETTINGS[s] : "?";
}

int amc_dev_switch_parse(amc_dev_setting what, const char *value, amc_err *e)
{
	if (value && !strcmp(value, "on"))
		return 1;
	if (value && !strcmp(value, "off"))
		return 0;
	if (value && !strcmp(value, "toggle"))
		return AMC_SWITCH_TOGGLE;
	return amc_err_set(e, AMC_EUSAGE, "%s must be on, off or toggle",
			   what == AMC_SET_AIRPLANE ? "airplane mode" : "dark mode");
}

/* Maestro's DeviceOrientation: PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT,
 * UPSIDE_DOWN (also camelCase); landscape left is the top of the phone to
 * the left, a quarter turn counter-clockwise (Android's ROTATION_90). */
int amc_orientation_parse(const char *s)
{
	char k[32];
	size_t n = 0;
	for (; s && *s && n + 1 < sizeof k; s++)
		if (*s != '_' && *s != ' ')
			k[n++] = (char)tolower((unsigned char)*s);
	k[n] = '\0';
	if (!s || *s)
		return -1;
	static const char *const KEYS[4] = { "portrait", "landscaperight", "upsidedown", "landscapeleft" };
	static const int Q[4] = { 0, 3, 2, 1 };
	for (int i = 0; i < 4; i++)
		if (!strcmp(k, KEYS[i]))
			return Q[i];
	return -1;
}

const char *amc_orientation_name(int quarter)
{
	static const char *const N[4] = { "portrait", "landscape_left", "upside_down", "landscape_right" };
	return quarter >= 0 && quarter < 4 ? N[quarter] : "?";
}

int amc_location_parse(const char *s, double *lat, double *lon)
{
	char *end;
	if (!s || strlen(s) > 64)
		return -1;
	errno = 0;
	double a = strtod(s, &end);
	while (*end == ' ')
		end++;
	if (end == s || *end != ',' || errno)
		return -1;
	const char *p = end + 1;
	double b = strtod(p, &end);
	while (*end == ' ')
		end++;
	if (end == p || *end || errno || !(a >= -90 && a <= 90) || !(b >= -180 && b <= 180))
		return -1;
	*lat = a;
	*lon = b;
	return 0;
}

void amc_device_close(amc_device *d)
{
	int held = d && d->holds_framebuf;
	if (d && d->ops && d->ops->close)
		d->ops->close(d);
	if (held)
		amc_framebuf_release(); /* the kept frame buffers go with the last device */
}

void amc_device_lock_name(const char *device_id, char *out, size_t n)
{
	snprintf(out, n, "device-%s", device_id);
}

/* A lock's note ("<task id> pid <pid>", written by amc_device_lock) into the
 * task id (sanitized; "" for none) and the pid. */
static void parse_holder(const char *holder, char *task, size_t n, long *pid)
{
	char t[64];
	const char *sp;
	size_t tl = strcspn(holder, " ");
	if (tl >= sizeof t)
		tl = sizeof t - 1;
	memcpy(t, holder, tl);
	t[tl] = '\0';
	*pid = (sp = strstr(holder, " pid ")) ? atol(sp + 5) : 0;
	char *c = amc_sanitize_dup(t);
	snprintf(task, n, "%s", strcmp(c, "-") ? c : "");
	free(c);
}

int amc_device_lock(const char *home, const char *device_id, const char *task_id,
		    amc_lock **out, amc_err *e)
{
	char name[200], note[128], holder[256];
	amc_device_lock_name(device_id, name, sizeof name);
	snprintf(note, sizeof note, "%s pid %ld", task_id ? task_id : "-", (long)getpid());
	int rc = amc_lock_try(home, name, note, out, holder, sizeof holder, e);
	if (rc == 1) {
		char task[64];
		long pid;
		parse_holder(holder, task, sizeof task, &pid);
		if (task[0])
			amc_err_set(e, AMC_EENV, "device %s is busy with task %s (pid %ld); wait for it or cancel it", device_id, task, pid);
		else
			amc_err_set(e, AMC_EENV, "device %s is busy (held by pid %ld); try again in a moment", device_id, pid);
		return -1;
	}
	return rc;
}

int amc_device_holder(const char *home, const char *device_id, char *task, size_t n)
{
	char name[200], holder[256] = "";
	long pid;
	amc_device_lock_name(device_id, name, sizeof name);
	if (n)
		task[0] = '\0';
	if (amc_lock_is_held(home, name, holder, sizeof holder) != 1)
		return 0;
	parse_holder(holder, task, n, &pid);
	return 1;
}

void amc_device_unlock(amc_lock *l)
{
	amc_lock_release(l);
}
