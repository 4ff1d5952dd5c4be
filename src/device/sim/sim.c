/* sim.c - the simulated phone as an amc device: the vtable, argument checks,
 * sim time, fault injection and persistence around every call. Just over 800
 * lines since list_apps came in: the app operations (launch, manage, list,
 * links) are the part to move into a file of their own next. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "device/sim/ambient.h"
#include "device/sim/input.h"
#include "device/sim/sim_int.h"
#include "image/png.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"

/* Sim time each call costs, in ms. Time moves only through calls, so a run is
 * reproducible; the numbers are close to a mid-range phone's and are what the
 * runner's settling sees (a 300 ms transition spans two or three captures):
 *   screenshot 120, ui_tree 350, tap 80, long_press 80 + its duration,
 *   swipe 50 + its duration, type_text 40 + 15 per character, key 60,
 *   launch_app 450, wait: its argument; info and health cost nothing.
 * An action happens at the start of its call; a capture shows the moment the
 * call starts. Fault latency (sim.faults "latency:MS") is added to every call. */
enum {
	COST_SCREENSHOT = 120,
	COST_UI_TREE = 350,
	COST_TAP = 80,
	COST_SWIPE = 50,
	COST_TYPE = 40,
	COST_TYPE_CHAR = 15,
	COST_KEY = 60,
	COST_LAUNCH = 450,
	MAX_GESTURE_MS = 60000,
	MAX_WAIT_MS = 3600000,
	MAX_LATENCY_MS = 10000,
	MAX_VANISH_CALLS = 1000000,
	MAX_VANISH_MS = 600000,
	DEFAULT_VANISH_MS = 2000
};

static sim *S(amc_device *d)
{
	return d->impl;
}

/* ---- faults ---- */

static int parse_faults(const char *spec, sim *s, amc_err *e)
{
	/* the parts with a whole number: name, largest value, where it goes */
	const struct {
		const char *name;
		long max;
		int *to;
	} whole[] = { { "latency", MAX_LATENCY_MS, &s->latency_ms },
		      { "vanish", MAX_VANISH_CALLS, &s->vanish_after },
		      { "vanish_ms", MAX_VANISH_MS, &s->vanish_ms } };
	s->fault_screenshot = s->fault_ui_tree = 0;
	s->latency_ms = 0;
	s->vanish_after = 0;
	s->vanish_ms = DEFAULT_VANISH_MS;
	s->vanished_at = -1;
	if (!spec)
		return 0;
	const char *p = spec;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char part[128];
		/* Trim the part; an empty part (",,") is harmless. */
		while (n && (*p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n >= sizeof part)
			n = sizeof part - 1;
		memcpy(part, p, n);
		part[n] = '\0';
		if (n) {
			char *colon = strchr(part, ':');
			char *endp = NULL;
			int ok = 0;
			if (colon) {
				*colon = '\0';
				const char *val = colon + 1;
				errno = 0;
				if (!strcmp(part, "screenshot") || !strcmp(part, "ui_tree")) {
					double v = strtod(val, &endp);
					if (*val && endp && !*endp && !errno && v >= 0 && v <= 1) {
						*(part[0] == 's' ? &s->fault_screenshot : &s->fault_ui_tree) = v;
						ok = 1;
					}
				}
				for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
					if (strcmp(part, whole[i].name))
						continue;
					long v = strtol(val, &endp, 10);
					if (*val && endp && !*endp && !errno && v >= 0 && v <= whole[i].max) {
						*whole[i].to = (int)v;
						ok = 1;
					}
				}
				*colon = ':';
			}
			if (!ok) {
				char *bad = amc_sanitize_dup(part);
				amc_err_set(e, AMC_EUSAGE,
					    "sim.faults: bad part '%s': write NAME:VALUE, comma-separated, with NAME "
					    "screenshot or ui_tree (a probability from 0 to 1), latency (ms, 0-%d), "
					    "vanish (the device is gone after this many calls, 0-%d) or vanish_ms (for "
					    "this long, 0-%d; default %d), e.g. screenshot:0.2,ui_tree:0.1,latency:200",
					    bad, MAX_LATENCY_MS, MAX_VANISH_CALLS, MAX_VANISH_MS, DEFAULT_VANISH_MS);
				free(bad);
				return -1;
			}
		}
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

/* xorshift64*: small, seeded from the sim's seed, state kept in state.json. */
static double next_unit(sim *s)
{
	uint64_t x = s->st.rng ? s->st.rng : 0x2545F4914F6CDD1Dull;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	s->st.rng = x;
	return (double)((x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

static int injected(sim *s, double p)
{
	return p > 0 && next_unit(s) < p;
}

/* ---- per-call frame ---- */

/* Another process (a CLI command, a runner) may have changed this sim since we
 * last read or wrote its state: pick that up first. */
static int reload(sim *s, amc_err *e)
{
	struct stat st;
	if (stat(s->path, &st) != 0)
		return 0;
	if (st.st_ino == s->seen.st_ino && st.st_size == s->seen.st_size && st.st_mtim.tv_sec == s->seen.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == s->seen.st_mtim.tv_nsec)
		return 0;
	return sim_state_load(s, e) < 0 ? -1 : 0;
}

/* sim.faults vanish: after N calls the device is gone for vanish_ms of sim
 * time, then back, as a phone whose cable is pulled and plugged in again.
 * The sim's clock goes on meanwhile: waits pass (op_wait), nothing else does. */
static int present(sim *s, amc_err *e)
{
	if (s->vanish_after <= 0 || ++s->calls <= s->vanish_after)
		return 0;
	if (s->vanished_at < 0)
		s->vanished_at = s->st.time_ms;
	long long gone = s->st.time_ms - s->vanished_at;
	if (gone >= s->vanish_ms)
		return 0;
	return amc_err_set(e, AMC_EENV, "sim:%d: the device is gone (vanish in sim.faults; back %lld ms later)", s->index,
			   s->vanish_ms - gone);
}

static int refresh(sim *s, amc_err *e)
{
	if (present(s, e) != 0 || reload(s, e) != 0)
		return -1;
	sim_ambient_catch_up(s);
	return 0;
}

static int finish(sim *s, long long cost, amc_err *e)
{
	if (s->latency_ms > 0) {
		amc_sleep_ms(s->latency_ms);
		cost += s->latency_ms;
	}
	s->st.time_ms += cost;
	sim_ambient_called(s);
	if (s->st.tr_kind != TR_NONE && s->st.time_ms - s->st.tr_start >= SIM_TRANSITION_MS)
		s->st.tr_kind = TR_NONE;
	return sim_state_save(s, e);
}

static int check_point(sim *s, const char *what, int x, int y, amc_err *e)
{
	if (x < 0 || y < 0 || x >= s->w || y >= s->h)
		return amc_err_set(e, AMC_EUSAGE,
				   "%s at (%d,%d) is outside the sim:%d screen (%dx%d): x must be 0-%d and y 0-%d", what, x, y,
				   s->index, s->w, s->h, s->w - 1, s->h - 1);
	return 0;
}

static int check_ms(const char *what, int ms, int max, amc_err *e)
{
	if (ms < 0 || ms > max)
		return amc_err_set(e, AMC_EUSAGE, "%s duration %d ms is out of range (0-%d)", what, ms, max);
	return 0;
}

/* ---- the vtable ---- */

static int op_info(amc_device *d, amc_device_info *out, amc_err *e)
{
	(void)e;
	sim *s = S(d);
	memset(out, 0, sizeof *out);
	snprintf(out->id, sizeof out->id, "sim:%d", s->index);
	snprintf(out->kind, sizeof out->kind, "sim");
	snprintf(out->model, sizeof out->model, "amc sim");
	out->width = s->w;
	out->height = s->h;
	out->status_bar_px = (int)lround(32 * s->dp);
	return 0;
}

static int op_frame(amc_device *d, amc_image *img, amc_err *e)
{
	sim *s = S(d);
	memset(img, 0, sizeof *img);
	if (refresh(s, e) != 0)
		return -1;
	if (injected(s, s->fault_screenshot)) {
		if (finish(s, COST_SCREENSHOT, e) != 0)
			return -1;
		return amc_err_set(e, AMC_EENV, "sim:%d: injected screenshot failure (sim.faults)", s->index);
	}
	if (sim_render_frame(s, img, e) != 0)
		return -1;
	sim_record_frame(s, img);
	if (finish(s, COST_SCREENSHOT, e) != 0) {
		amc_image_free(img);
		return -1;
	}
	return 0;
}

static int op_screenshot(amc_device *d, unsigned char **png, size_t *len, amc_err *e)
{
	*png = NULL;
	*len = 0;
	amc_image img;
	if (op_frame(d, &img, e) != 0)
		return -1;
	int rc = amc_png_encode(&img, AMC_PNG_CAPTURE_LEVEL, png, len, e);
	amc_image_free(&img);
	return rc;
}

static int op_ui_tree(amc_device *d, char **xml, size_t *len, amc_err *e)
{
	sim *s = S(d);
	*xml = NULL;
	*len = 0;
	if (refresh(s, e) != 0)
		return -1;
	if (injected(s, s->fault_ui_tree)) {
		if (finish(s, COST_UI_TREE, e) != 0)
			return -1;
		return amc_err_set(e, AMC_EENV, "sim:%d: injected ui_tree failure (sim.faults)", s->index);
	}
	char *x = sim_dump_xml(s, len);
	if (finish(s, COST_UI_TREE, e) != 0) {
		free(x);
		*len = 0;
		return -1;
	}
	*xml = x;
	return 0;
}

static int op_tap(amc_device *d, int x, int y, amc_err *e)
{
	sim *s = S(d);
	if (check_point(s, "tap", x, y, e) != 0 || refresh(s, e) != 0)
		return -1;
	sim_tap_at(s, x, y, 0);
	return finish(s, COST_TAP, e);
}

/* both taps in one call: no frame, no capture between them */
static int op_double_tap(amc_device *d, int x, int y, amc_err *e)
{
	sim *s = S(d);
	if (check_point(s, "double tap", x, y, e) != 0 || refresh(s, e) != 0)
		return -1;
	sim_tap_at(s, x, y, 0);
	sim_tap_at(s, x, y, 0);
	return finish(s, COST_TAP, e);
}

static int op_long_press(amc_device *d, int x, int y, int ms, amc_err *e)
{
	sim *s = S(d);
	if (check_point(s, "long press", x, y, e) != 0 || check_ms("long press", ms, MAX_GESTURE_MS, e) != 0 ||
	    refresh(s, e) != 0)
		return -1;
	sim_tap_at(s, x, y, 1);
	return finish(s, COST_TAP + ms, e);
}

static int op_swipe(amc_device *d, int x1, int y1, int x2, int y2, int ms, amc_err *e)
{
	sim *s = S(d);
	if (check_point(s, "swipe start", x1, y1, e) != 0 || check_point(s, "swipe end", x2, y2, e) != 0 ||
	    check_ms("swipe", ms, MAX_GESTURE_MS, e) != 0 || refresh(s, e) != 0)
		return -1;
	sim_swipe(s, x1, y1, x2, y2);
	return finish(s, COST_SWIPE + ms, e);
}

static int op_type_text(amc_device *d, const char *utf8, amc_err *e)
{
	sim *s = S(d);
	if (!utf8)
		return amc_err_set(e, AMC_EUSAGE, "no text given to type");
	size_t len = strlen(utf8);
	if (len > SIM_TYPE_MAX)
		return amc_err_set(e, AMC_EUSAGE, "text of %zu bytes is too long: the sim types at most %d bytes per call",
				   len, SIM_TYPE_MAX);
	long long chars = 0;
	for (size_t i = 0; i < len;) {
		unsigned cp;
		size_t n = amc_utf8_decode((const unsigned char *)utf8 + i, len - i, &cp);
		if (cp == 0xFFFD && !(n == 3 && !memcmp(utf8 + i, "\xef\xbf\xbd", 3)))
			return amc_err_set(e, AMC_EUSAGE, "text is not valid UTF-8 (bad byte at offset %zu)", i);
		i += n;
		chars++;
	}
	if (refresh(s, e) != 0)
		return -1;
	int rc = sim_type(s, utf8);
	if (finish(s, COST_TYPE + COST_TYPE_CHAR * chars, e) != 0)
		return -1;
	if (rc == -1)
		return amc_err_set(e, AMC_EFAIL, "no text field has focus; tap one first");
	if (rc == -2)
		return amc_err_set(e, AMC_EFAIL, "the focused field is full (%d bytes at most); nothing was typed",
				   s->st.focus == F_BODY ? SIM_BODY_MAX : SIM_FIELD_MAX);
	return 0;
}

static int op_key(amc_device *d, amc_key k, amc_err *e)
{
	sim *s = S(d);
	if (k != AMC_KEY_BACK && k != AMC_KEY_HOME && k != AMC_KEY_ENTER && k != AMC_KEY_DELETE &&
	    k != AMC_KEY_HIDE_KEYBOARD && k != AMC_KEY_VOLUME_UP && k != AMC_KEY_VOLUME_DOWN)
		return amc_err_set(e, AMC_EUSAGE, "the sim has no %s key (it has back, home, enter, delete, volume_up "
				   "and volume_down)", amc_key_name(k));
	if (refresh(s, e) != 0)
		return -1;
	sim_key(s, k);
	return finish(s, COST_KEY, e);
}

static int op_launch_app(amc_device *d, const char *app_id, amc_err *e)
{
	sim *s = S(d);
	const sim_app *app = sim_app_of(app_id);
	if (!app) {
		char *bad = amc_sanitize_dup(app_id ? app_id : "");
		amc_sb inst;
		amc_sb_init(&inst);
		size_t n;
		const sim_app *all = sim_apps(&n);
		for (size_t i = 0; i < n; i++)
			amc_sb_printf(&inst, "%s%s", i ? ", " : "", all[i].pkg);
		amc_err_set(e, AMC_EUSAGE, "app '%.200s' is not installed on sim:%d (installed: %s)", bad, s->index,
			    amc_sb_str(&inst));
		amc_sb_free(&inst);
		free(bad);
		return -1;
	}
	int screen = app->screen;
	if (refresh(s, e) != 0)
		return -1;
	sim_launch(s, screen);
	return finish(s, COST_LAUNCH, e);
}

static int app_screen(const char *app_id)
{
	const sim_app *app = sim_app_of(app_id);
	return app ? app->screen : -1;
}

/* The app on screen: the package of the top screen. */
static int in_front(const sim *s, const char *app_id)
{
	return !strcmp(sim_screen_package(s->st.stack[s->st.depth - 1].screen), app_id);
}

/* Links: "sim://PACKAGE" (or the app's last name: "sim://contacts") opens the app. */
static int open_link(sim *s, const char *link, amc_err *e)
{
	const char *rest = link && !strncmp(link, "sim://", 6) ? link + 6 : NULL;
	int screen = -1;
	size_t napps;
	const sim_app *apps = sim_apps(&napps);
	for (size_t i = 0; rest && i < napps; i++) {
		const char *last = strrchr(apps[i].pkg, '.');
		if (!strcmp(rest, apps[i].pkg) || (last && !strcmp(rest, last + 1)))
			screen = apps[i].screen;
	}
	if (screen < 0) {
		char *bad = amc_sanitize_dup(link ? link : "");
		amc_err_set(e, AMC_EUSAGE, "sim:%d cannot open '%.200s': the sim opens sim://APP links only "
			    "(sim://contacts, sim://notes, sim://settings)", s->index, bad);
		free(bad);
		return -1;
	}
	sim_launch(s, screen);
	return 0;
}

static int op_manage_app(amc_device *d, const char *app_id, amc_app_op op, const char *arg, amc_err *e)
{
	sim *s = S(d);
	if (op == AMC_APP_INSTALL)
		return amc_err_set(e, AMC_EUSAGE, "sim:%d cannot install packages: its apps are built in (list_apps "
				   "names them); install_app needs an adb or Appium device", s->index);
	if (op != AMC_APP_OPEN_LINK && app_screen(app_id) < 0) {
		char *bad = amc_sanitize_dup(app_id ? app_id : "");
		amc_err_set(e, AMC_EUSAGE, "app '%.200s' is not installed on sim:%d", bad, s->index);
		free(bad);
		return -1;
	}
	if (refresh(s, e) != 0)
		return -1;
	switch (op) {
	case AMC_APP_CLEAR_STATE:
		if (in_front(s, app_id))
			sim_launch(s, SCR_LAUNCHER);
		sim_state_clear_app(&s->st, app_id);
		break;
	case AMC_APP_STOP:
	case AMC_APP_KILL:
		if (in_front(s, app_id))
			sim_launch(s, SCR_LAUNCHER);
		break;
	case AMC_APP_OPEN_LINK:
		if (open_link(s, arg, e) != 0)
			return -1;
		break;
	case AMC_APP_INSTALL: /* refused above */
		break;
	case AMC_APP_PERMISSIONS:
	case AMC_APP_LAUNCH_ARGS: {
		/* kept per app in the state, where a flow's test can read them */
		/* bounded before it is parsed; too long reads as no object */
		cJSON *v = arg && strlen(arg) <= 16384 ? cJSON_Parse(arg) : NULL;
		char **slot = op == AMC_APP_PERMISSIONS ? &s->st.permissions : &s->st.launch_args;
		cJSON *all = *slot ? cJSON_Parse(*slot) : NULL;
		if (!cJSON_IsObject(v)) {
			cJSON_Delete(v);
			cJSON_Delete(all);
			return amc_err_set(e, AMC_EUSAGE, "%s must be a JSON object of at most 16 KiB",
					   op == AMC_APP_PERMISSIONS ? "permissions" : "launch arguments");
		}
		if (!cJSON_IsObject(all)) {
			cJSON_Delete(all);
			all = cJSON_CreateObject();
		}
		cJSON_DeleteItemFromObjectCaseSensitive(all, app_id);
		cJSON_AddItemToObject(all, app_id, v);
		free(*slot);
		*slot = cJSON_PrintUnformatted(all);
		cJSON_Delete(all);
		if (op == AMC_APP_LAUNCH_ARGS)
			sim_launch(s, app_screen(app_id));
		break;
	}
	}
	return finish(s, COST_LAUNCH, e);
}

/* list_apps: the sim's built-in apps (it installs none: install_app says so). */
static int op_list_apps(amc_device *d, char **ids, amc_err *e)
{
	(void)d, (void)e;
	amc_sb sb;
	amc_sb_init(&sb);
	size_t n;
	const sim_app *all = sim_apps(&n);
	for (size_t i = 0; i < n; i++)
		amc_sb_printf(&sb, "%s\n", all[i].pkg);
	*ids = amc_sb_detach(&sb);
	return 0;
}

/* set_device: the sim models each setting so a flow can assert its effect:
 * a rotation swaps the screen's size (screenshots, tree bounds, taps), airplane
 * mode is the Settings toggle (and the status bar's plane), a location is kept
 * in the state, a media file shows in the Files app. */
static int op_set(amc_device *d, amc_dev_setting what, const char *value, amc_err *e)
{
	sim *s = S(d);
	if (!value)
		return amc_err_set(e, AMC_EUSAGE, "set_device %s needs a value", amc_dev_setting_name(what));
	if (refresh(s, e) != 0)
		return -1;
	switch (what) {
	case AMC_SET_ORIENTATION: {
		int q = amc_orientation_parse(value);
		if (q < 0)
			return amc_err_set(e, AMC_EUSAGE, "orientation must be portrait, landscape_left, "
					   "landscape_right or upside_down");
		if ((q & 1) != (s->st.orientation & 1)) {
			int t = s->w;
			s->w = s->h;
			s->h = t;
		}
		s->st.orientation = q;
		break;
	}
	case AMC_SET_AIRPLANE:
	case AMC_SET_DARK_MODE: { /* dark mode is Settings' Dark theme: every screen's palette */
		int *t = &s->st.toggles[what == AMC_SET_AIRPLANE ? TG_AIRPLANE : TG_DARK];
		int v = amc_dev_switch_parse(what, value, e);
		if (v < 0)
			return -1;
		*t = v == AMC_SWITCH_TOGGLE ? !*t : v;
		break;
	}
	case AMC_SET_LOCATION:
		if (amc_location_parse(value, &s->st.lat, &s->st.lon) != 0)
			return amc_err_set(e, AMC_EUSAGE, "a location is \"LATITUDE,LONGITUDE\" in degrees "
					   "(-90..90, -180..180)");
		s->st.has_location = 1;
		break;
	case AMC_SET_ADD_MEDIA: {
		struct stat st;
		const char *base = strrchr(value, '/');
		base = base ? base + 1 : value;
		if (stat(value, &st) != 0 || !S_ISREG(st.st_mode) || !*base || strlen(base) > 200) {
			char *q = amc_sanitize_dup(value);
			amc_err_set(e, AMC_EUSAGE, "addMedia: '%.200s' is not a file", q);
			free(q);
			return -1;
		}
		if (s->st.nfiles >= SIM_MAX_FILES)
			return amc_err_set(e, AMC_EUSAGE, "the sim's Files app is full (%d files)", SIM_MAX_FILES);
		char *name = amc_sanitize_dup(base);
		sim_files_add(&s->st, name, (int)((st.st_size + 1023) / 1024), "added by addMedia");
		free(name);
		break;
	}
	default:
		return amc_err_set(e, AMC_EUSAGE, "unknown device setting");
	}
	return finish(s, COST_TAP, e);
}

static int op_get(amc_device *d, amc_dev_setting what, char *out, size_t n, amc_err *e)
{
	sim *s = S(d);
	if (refresh(s, e) != 0)
		return -1;
	switch (what) {
	case AMC_SET_DARK_MODE:
		snprintf(out, n, "%s", s->st.toggles[TG_DARK] ? "on" : "off");
		break;
	case AMC_SET_AIRPLANE:
		snprintf(out, n, "%s", s->st.toggles[TG_AIRPLANE] ? "on" : "off");
		break;
	case AMC_SET_ORIENTATION:
		snprintf(out, n, "%s", amc_orientation_name(s->st.orientation));
		break;
	default:
		return amc_err_set(e, AMC_EUSAGE, "the sim does not report its %s", amc_dev_setting_name(what));
	}
	return finish(s, 0, e);
}

static int op_wait(amc_device *d, int ms, amc_err *e)
{
	sim *s = S(d);
	if (check_ms("wait", ms, MAX_WAIT_MS, e) != 0 || reload(s, e) != 0)
		return -1;
	sim_ambient_catch_up(s);
	return finish(s, ms, e);
}

static int op_health(amc_device *d, amc_err *e)
{
	(void)d;
	(void)e;
	return 0;
}

static void sim_free(sim *s)
{
	if (!s)
		return;
	sim_record_free(s);
	sim_state_free(&s->st);
	sim_font_close(s->font);
	for (int i = 0; i < s->ndrawn; i++)
		free(s->drawn[i].text);
	free(s->drawn);
	free(s);
}

static void op_close(amc_device *d)
{
	if (!d)
		return;
	sim_free(S(d));
}

static const amc_device_ops SIM_OPS = {
	.kind = "sim",
	.info = op_info,
	.screenshot = op_screenshot,
	.frame = op_frame,
	.ui_tree = op_ui_tree,
	.tap = op_tap,
	.long_press = op_long_press,
	.swipe = op_swipe,
	.type_text = op_type_text,
	.key = op_key,
	.launch_app = op_launch_app,
	.manage_app = op_manage_app,
	.list_apps = op_list_apps,
	.set = op_set,
	.double_tap = op_double_tap,
	.get = op_get,
	.record_start = sim_record_start,
	.record_stop = sim_record_stop,
	.wait = op_wait,
	.health = op_health,
	.close = op_close,
};

/* ---- open, reset ---- */

/* Everything but fonts and the state itself: paths, size, seed, faults. */
static int sim_setup(sim *s, const char *home, int index, const amc_config *cfg_in, amc_err *e)
{
	if (!home || !*home)
		return amc_err_set(e, AMC_EUSAGE, "no AMC_HOME given for sim:%d", index);
	if (index < 0 || index > 9999)
		return amc_err_set(e, AMC_EUSAGE, "sim index %d is out of range (0-9999)", index);
	amc_config *own = NULL;
	const amc_config *cfg = cfg_in;
	if (!cfg)
		cfg = own = amc_config_new();
	s->index = index;
	s->w = (int)amc_config_int(cfg, "sim", "width");
	s->h = (int)amc_config_int(cfg, "sim", "height");
	long seed = amc_config_int(cfg, "sim", "seed");
	s->notify_ms = (int)amc_config_int(cfg, "sim", "notify_ms");
	s->live = !strcmp(amc_config_str(cfg, "sim", "clock"), "live");
	int rc = parse_faults(amc_config_str(cfg, "sim", "faults"), s, e);
	if (own)
		amc_config_free(own);
	if (rc != 0)
		return -1;
	if (s->w < 240 || s->w > 4096 || s->h < 320 || s->h > 8192)
		return amc_err_set(e, AMC_EUSAGE, "sim size %dx%d is out of range (240-4096 x 320-8192)", s->w, s->h);
	s->dp = s->w / 411.43;
	s->st.seed = seed < 0 ? index : seed;
	int n = snprintf(s->dir, sizeof s->dir, "%s/sim/%d", home, index);
	int m = snprintf(s->path, sizeof s->path, "%s/sim/%d/state.json", home, index);
	if (n < 0 || (size_t)n >= sizeof s->dir || m < 0 || (size_t)m >= sizeof s->path)
		return amc_err_set(e, AMC_EUSAGE, "AMC_HOME path is too long: %s", home);
	return 0;
}

int amc_sim_open(const char *home, int index, const amc_config *cfg, amc_device **out, amc_err *e)
{
	*out = NULL;
	sim *s = calloc(1, sizeof *s);
	if (!s)
		return amc_err_set(e, AMC_EENV, "out of memory opening sim:%d", index);
	if (sim_setup(s, home, index, cfg, e) != 0) {
		free(s);
		return -1;
	}
	long long seed = s->st.seed;
	sim_state_factory(&s->st, seed);
	if (amc_mkdir_p(s->dir, 0700, e) != 0) {
		sim_free(s);
		return -1;
	}
	/* A process killed while saving the state leaves its temp file: gone on
	 * the next open (check-hardening's kill -9 part counts them). */
	amc_sweep_dead_tmp(s->dir);
	int rc = sim_state_load(s, e);
	if (rc < 0 || (rc == 1 && sim_state_save(s, e) != 0)) {
		sim_free(s);
		return -1;
	}
	if (sim_font_open(&s->font, e) != 0) {
		sim_free(s);
		return -1;
	}
	s->dev.ops = &SIM_OPS;
	s->dev.impl = s;
	snprintf(s->dev.id, sizeof s->dev.id, "sim:%d", index);
	*out = &s->dev;
	return 0;
}

int amc_sim_reset(const char *home, int index, const amc_config *cfg, amc_err *e)
{
	sim *s = calloc(1, sizeof *s);
	if (!s)
		return amc_err_set(e, AMC_EENV, "out of memory resetting sim:%d", index);
	int rc = sim_setup(s, home, index, cfg, e);
	if (rc == 0) {
		sim_state_factory(&s->st, s->st.seed);
		rc = sim_state_save(s, e);
	}
	sim_free(s);
	return rc;
}

static sim *as_sim(amc_device *d, amc_err *e)
{
	if (!d || amc_device_driver(d) != &SIM_OPS) {
		amc_err_set(e, AMC_EUSAGE, "device %s is not a sim", d ? d->id : "(none)");
		return NULL;
	}
	return d->impl;
}

int amc_sim_state_json(amc_device *d, char **out, amc_err *e)
{
	*out = NULL;
	sim *s = as_sim(d, e);
	if (!s || refresh(s, e) != 0)
		return -1;
	*out = sim_state_to_json(s);
	return 0;
}

int amc_sim_render(amc_device *d, amc_image *out, amc_err *e)
{
	out->w = out->h = 0;
	out->px = NULL;
	sim *s = as_sim(d, e);
	if (!s || refresh(s, e) != 0)
		return -1;
	return sim_render_frame(s, out, e);
}

int amc_sim_drawn_text_json(amc_device *d, char **out, amc_err *e)
{
	*out = NULL;
	sim *s = as_sim(d, e);
	if (!s || refresh(s, e) != 0)
		return -1;
	amc_image img;
	if (sim_render_frame(s, &img, e) != 0)
		return -1;
	amc_image_free(&img);
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < s->ndrawn; i++) {
		const drawn_text *t = &s->drawn[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "text", t->text);
		cJSON_AddNumberToObject(o, "x1", t->x1);
		cJSON_AddNumberToObject(o, "y1", t->y1);
		cJSON_AddNumberToObject(o, "x2", t->x2);
		cJSON_AddNumberToObject(o, "y2", t->y2);
		cJSON_AddBoolToObject(o, "in_tree", t->in_tree);
		cJSON_AddItemToArray(a, o);
	}
	*out = amc_json_print(a);
	cJSON_Delete(a);
	return 0;
}

int amc_sim_set_state(amc_device *d, const char *json, size_t len, amc_err *e)
{
	sim *s = as_sim(d, e);
	if (!s || refresh(s, e) != 0)
		return -1;
	cJSON *in = amc_json_parse(json, len, 32u << 20, e);
	if (!in)
		return amc_err_prefix(e, "sim:%d: the state to set is not JSON", s->index);
	if (!cJSON_IsObject(in)) {
		cJSON_Delete(in);
		return amc_err_set(e, AMC_EUSAGE, "sim:%d: the state to set must be a JSON object (keys of `amc sim state`)",
				   s->index);
	}
	/* Start from the factory state of this sim's seed, at this sim's time. */
	sim base = *s;
	memset(&base.st, 0, sizeof base.st);
	sim_state_factory(&base.st, s->st.seed);
	base.st.time_ms = s->st.time_ms;
	char *fj = sim_state_to_json(&base);
	sim_state_free(&base.st);
	cJSON *full = cJSON_Parse(fj);
	free(fj);
	if (!full) {
		cJSON_Delete(in);
		return amc_err_set(e, AMC_EENV, "out of memory building the sim's state");
	}
	cJSON *it = in->child;
	while (it) {
		cJSON *next = it->next;
		if (it->string) {
			cJSON *copy = cJSON_Duplicate(it, 1);
			if (cJSON_GetObjectItemCaseSensitive(full, it->string))
				cJSON_ReplaceItemInObjectCaseSensitive(full, it->string, copy);
			else
				cJSON_AddItemToObject(full, it->string, copy);
		}
		it = next;
	}
	cJSON_Delete(in);
	/* A set state starts still: no transition from the old screen. */
	cJSON_ReplaceItemInObjectCaseSensitive(full, "transition", cJSON_CreateNull());
	char *text = amc_json_print(full);
	cJSON_Delete(full);
	/* On failure the sim's state is left as it was. */
	int rc = sim_state_from_json(s, text, strlen(text), e);
	free(text);
	if (rc != 0) {
		if (e)
			e->code = AMC_EUSAGE;
		return amc_err_prefix(e, "sim:%d: cannot set that state", s->index);
	}
	return sim_state_save(s, e);
}
