/* device.h - the driver vtable every device implements (sim, adb, appium).
 *
 * Calls are synchronous and bounded in time; a failure fills the amc_err with a
 * message that says what to do (AMC_EENV for an unavailable device). A device
 * handle is used by one thread at a time. Returned buffers are malloc'd and owned
 * by the caller. */
#ifndef AMC_DEVICE_H
#define AMC_DEVICE_H

#include <stddef.h>
#include "image/image.h"
#include "util/config.h"
#include "util/err.h"
#include "util/lockfile.h"

/* The keys a driver may be asked for. Every driver sends back, home, enter
 * and delete (backspace); the sim also the volume keys; adb and Appium
 * (Android) send the rest; a driver
 * without a key says so (AMC_EUSAGE naming the key). */
typedef enum amc_key {
	AMC_KEY_BACK,
	AMC_KEY_HOME,
	AMC_KEY_ENTER,
	AMC_KEY_DELETE,
	AMC_KEY_TAB,
	AMC_KEY_ESCAPE,
	AMC_KEY_LOCK,
	AMC_KEY_POWER,
	AMC_KEY_VOLUME_UP,
	AMC_KEY_VOLUME_DOWN,
	AMC_KEY_DPAD_UP,
	AMC_KEY_DPAD_DOWN,
	AMC_KEY_DPAD_LEFT,
	AMC_KEY_DPAD_RIGHT,
	AMC_KEY_DPAD_CENTER,
	AMC_KEY_MEDIA_PLAY_PAUSE,
	AMC_KEY_MEDIA_STOP,
	AMC_KEY_MEDIA_NEXT,
	AMC_KEY_MEDIA_PREVIOUS,
	AMC_KEY_MEDIA_REWIND,
	AMC_KEY_MEDIA_FAST_FORWARD,
	AMC_KEY_HIDE_KEYBOARD,  /* not a key: dismiss the soft keyboard if it is up (Maestro's hideKeyboard) */
	AMC_KEY_APP_SWITCH,     /* the recent apps (Android's overview button; mobile-mcp offers it) */
	AMC_KEY_COUNT
} amc_key;

/* amc's names ("back", "delete", "volume_up"), case-insensitive, and
 * Maestro's pressKey names ("Back", "Backspace", "Volume Up", "Remote Dpad
 * Up", "Remote Media Play Pause", ...). */
int amc_key_parse(const char *s, amc_key *out);
const char *amc_key_name(amc_key k);   /* amc's name: "volume_up" */
int amc_key_android_code(amc_key k);    /* Android KeyEvent code: 4 for back */

/* What manage_app does to an app. */
typedef enum amc_app_op {
	AMC_APP_CLEAR_STATE, /* the app's data back to a fresh install (sim: factory data of that app) */
	AMC_APP_STOP,        /* stop it (adb am force-stop; Appium terminateApp) */
	AMC_APP_KILL,        /* kill its process as the system would (adb am kill, then force-stop) */
	AMC_APP_OPEN_LINK,   /* open a link (deep link or URL); app_id may be NULL */
	/* For a flow's launchApp only (not named by amc_app_op_parse): */
	AMC_APP_PERMISSIONS, /* arg: {"NAME": "allow"|"deny"|"unset"} as JSON; NAME Maestro's
			      * (all, camera, location, ...) or an Android permission */
	AMC_APP_LAUNCH_ARGS, /* start the app with arg: {"KEY": "VALUE"} as JSON (intent extras) */
	/* For install_app only: arg is a package file's path on amc's host (an
	 * .apk; Appium: what its driver installs), app_id NULL. Keeps the data of
	 * an installed app of the same id (adb install -r), never downgrades. */
	AMC_APP_INSTALL
} amc_app_op;
int amc_app_op_parse(const char *s, amc_app_op *out);

/* What set_device changes: Maestro's setOrientation, setAirplaneMode and
 * toggleAirplaneMode, setLocation and travel, addMedia, setDarkMode and
 * toggleDarkMode. */
typedef enum amc_dev_setting {
	AMC_SET_ORIENTATION, /* "portrait", "landscape_left", "landscape_right", "upside_down" */
	AMC_SET_AIRPLANE,    /* "on", "off", "toggle" */
	AMC_SET_LOCATION,    /* "LAT,LON" in degrees */
	AMC_SET_ADD_MEDIA,   /* a local file's path (a picture or a video) */
	AMC_SET_DARK_MODE,   /* "on", "off", "toggle" (Maestro's setDarkMode, toggleDarkMode) */
	AMC_SET_COUNT
} amc_dev_setting;
/* "orientation", "airplane", "location", "add_media", "dark_mode". */
int amc_dev_setting_parse(const char *s, amc_dev_setting *out);
const char *amc_dev_setting_name(amc_dev_setting s);
/* An on/off setting's value (AMC_SET_AIRPLANE, AMC_SET_DARK_MODE): 1 "on",
 * 0 "off", AMC_SWITCH_TOGGLE "toggle" (the driver reads the current state);
 * -1 with e set for anything else, the same message for every device kind. */
#define AMC_SWITCH_TOGGLE 2
int amc_dev_switch_parse(amc_dev_setting what, const char *value, amc_err *e);
/* An orientation name, amc's ("landscape_left") or Maestro's
 * ("LANDSCAPE_LEFT", "landscapeLeft"), as Android's user_rotation: 0
 * portrait, 1 landscape left (ROTATION_90), 2 upside down, 3 landscape right;
 * -1 if none. */
int amc_orientation_parse(const char *s);
const char *amc_orientation_name(int quarter);
/* "LAT,LON" (spaces allowed) within -90..90, -180..180: 0 and the two. */
int amc_location_parse(const char *s, double *lat, double *lon);

typedef struct amc_device_info {
	char id[128];       /* canonical id: "sim:0" */
	char kind[16];      /* "sim" */
	char model[64];     /* "amc sim" */
	int width, height;  /* screen size in pixels */
	int status_bar_px;  /* height of the status bar, ignored when comparing frames */
} amc_device_info;

typedef struct amc_device amc_device;

/* An element as a flow names it: by resource id / accessibility id, or by its
 * exact text (label, value, content-desc); the index-th match (0-based). */
typedef struct amc_element_ref {
	const char *id;    /* may be NULL */
	const char *text;  /* may be NULL; at least one of id, text is set */
	int index;
} amc_element_ref;

typedef struct amc_device_ops {
	const char *kind;
	int (*info)(amc_device *d, amc_device_info *out, amc_err *e);
	int (*screenshot)(amc_device *d, unsigned char **png, size_t *len, amc_err *e);
	/* The screen's pixels without the PNG round trip (caller frees img), for
	 * in-process devices (the sim); NULL elsewhere. Same timing and faults as
	 * screenshot: settling compares many frames and keeps one, so only the
	 * kept frame need be encoded. */
	int (*frame)(amc_device *d, amc_image *img, amc_err *e);
	int (*ui_tree)(amc_device *d, char **xml, size_t *len, amc_err *e);
	int (*tap)(amc_device *d, int x, int y, amc_err *e);
	int (*long_press)(amc_device *d, int x, int y, int ms, amc_err *e);
	int (*swipe)(amc_device *d, int x1, int y1, int x2, int y2, int ms, amc_err *e);
	int (*type_text)(amc_device *d, const char *utf8, amc_err *e);
	int (*key)(amc_device *d, amc_key k, amc_err *e);
	int (*launch_app)(amc_device *d, const char *app_id, amc_err *e);
	/* Let `ms` of device time pass (the sim advances its clock; real devices sleep). */
	int (*wait)(amc_device *d, int ms, amc_err *e);
	/* 0 when the device answers. */
	int (*health)(amc_device *d, amc_err *e);
	void (*close)(amc_device *d);
	/* Element operations, for drivers that can address elements themselves
	 * (Appium); NULL where the driver has none, and callers then use
	 * coordinates. AMC_EFAIL "no element matches ..." when nothing matches. */
	int (*tap_element)(amc_device *d, const amc_element_ref *el, amc_err *e);
	int (*set_value)(amc_device *d, const amc_element_ref *el, const char *utf8, amc_err *e);
	/* Clear an app's data, stop or kill it, or open a link (`arg`: the link;
	 * app_id may be NULL for a link). NULL where the driver has none. */
	int (*manage_app)(amc_device *d, const char *app_id, amc_app_op op, const char *arg, amc_err *e);
	/* Change a device setting (amc_dev_setting, the value as documented
	 * there); NULL where the driver has none. AMC_EUSAGE naming what the
	 * driver cannot do of the rest. */
	int (*set)(amc_device *d, amc_dev_setting what, const char *value, amc_err *e);
	/* Two taps at x,y as one gesture, within the platform's double-tap
	 * window (doubleTapOn); NULL: callers tap twice back to back. */
	int (*double_tap)(amc_device *d, int x, int y, amc_err *e);
	/* A setting's state now, as set takes it ("on"/"off" for dark mode)
	 * into out (n bytes): what assertDarkMode reads. NULL where the driver
	 * has none; AMC_EUSAGE for a setting it cannot read. */
	int (*get)(amc_device *d, amc_dev_setting what, char *out, size_t n, amc_err *e);
	/* Screen recording (startRecording/stopRecording): record_start begins
	 * one (AMC_EUSAGE when one is running); record_stop ends it and hands
	 * over the file's bytes (*data, caller frees), its extension in ext
	 * ("apng" from the sim, "mp4" from a phone) and its frame count (-1
	 * unknown). NULL where the driver cannot record. */
	int (*record_start)(amc_device *d, amc_err *e);
	int (*record_stop)(amc_device *d, unsigned char **data, size_t *len, char *ext, size_t extn, int *frames,
			   amc_err *e);
	/* The ids of the apps installed (launchable where the driver can tell),
	 * one a line, each checked as an app id, at most AMC_APPS_MAX of them;
	 * *ids malloc'd, the caller's. NULL where the driver cannot list them. */
	int (*list_apps)(amc_device *d, char **ids, amc_err *e);
} amc_device_ops;

/* The most app ids list_apps returns (a phone has a few hundred packages). */
#define AMC_APPS_MAX 2000

/* What a device's calls cost: how many and their wall time, by kind. A step
 * on a real phone is mostly device time (a screenshot 150-400 ms, a tree dump
 * 1-3 s), so each step records these to show where its time went. */
typedef struct amc_call_tally {
	long count;
	double ms;
} amc_call_tally;

typedef struct amc_device_calls {
	amc_call_tally screenshots; /* screenshot and frame */
	amc_call_tally trees;       /* ui_tree */
	amc_call_tally inputs;      /* tap, long press, swipe, text, key, app launch, element ops */
	amc_call_tally waits;       /* device time let pass (settling's pauses): not a call, but not amc's time */
} amc_device_calls;

struct amc_device {
	const amc_device_ops *ops;  /* what callers call: `counted` once amc_device_open returned */
	void *impl;
	char id[128];
	/* Call counting (calls.c): the driver's own table, and the counting
	 * table that wraps it. Drivers recognize their devices by `driver`. */
	const amc_device_ops *driver;
	amc_device_ops counted;
	amc_device_calls calls;     /* since the device was opened */
	/* 1 when amc_device_open holds the frame-buffer cache for it
	 * (image/framebuf.h); amc_device_close releases it. */
	int holds_framebuf;
};

/* The factory (device_open.c, above the drivers).
 * Canonical form of a device id: "sim" -> "sim:0", "sim:3" -> "sim:3".
 * Unknown kinds or malformed ids are AMC_EUSAGE errors that list the valid forms. */
int amc_device_id_normalize(const char *in, char *out, size_t n, amc_err *e);
/* Open a device by id; `home` is $AMC_HOME (the sim keeps its state there). */
int amc_device_open(const char *id, const char *home, const amc_config *cfg, amc_device **out, amc_err *e);
void amc_device_close(amc_device *d);

/* Count the device's calls from now on (amc_device_open does this; drivers
 * opened directly can be wrapped too). Idempotent. */
void amc_device_count_calls(amc_device *d);
/* Replace the driver's op table (a driver that drops an optional op at run
 * time, e.g. adb giving up raw frames); counting goes on. */
void amc_device_set_driver(amc_device *d, const amc_device_ops *ops);
/* The driver's own op table, whether or not calls are counted. */
const amc_device_ops *amc_device_driver(const amc_device *d);
/* The calls made since the device was opened (zeros when not counted). */
amc_device_calls amc_device_calls_now(const amc_device *d);
/* later - earlier, kind by kind: the calls made in between. */
amc_device_calls amc_device_calls_since(const amc_device_calls *later, const amc_device_calls *earlier);
/* Add a step's calls, as recorded in its timings JSON ({"device": {"screenshots":
 * {"count", "ms"}, "trees": ..., "inputs": ...}}), to *sum. 0: added; -1: the
 * timings hold no device calls (steps recorded before they were counted);
 * "waits" is optional. */
int amc_device_calls_add_json(amc_device_calls *sum, const char *timings);
/* "3 screenshots 412 ms, 1 tree 1210 ms, 2 inputs 31 ms" into out, and
 * ", 2 waits 200 ms" when there were any. */
void amc_device_calls_format(const amc_device_calls *c, char *out, size_t n);

/* Hold a device for a task: a flock named after the device, released by the
 * kernel if the process dies. 0: taken; AMC_EENV error naming the holding task
 * ("device sim:0 is busy with task 01j... (pid 123)") when someone else has it. */
int amc_device_lock(const char *home, const char *device_id, const char *task_id,
		    amc_lock **out, amc_err *e);
void amc_device_unlock(amc_lock *l);
/* 1 when some process holds the device now, with the holding task's id in
 * task ("" when the holder has no task yet); 0 when free. For a front end
 * that says who holds a device after amc_device_lock failed: read from the
 * lock, never from the error's words. */
int amc_device_holder(const char *home, const char *device_id, char *task, size_t n);
/* The lock name used for a device (stored with a running task). */
void amc_device_lock_name(const char *device_id, char *out, size_t n);

#endif
