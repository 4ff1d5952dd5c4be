#include "device/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "device/adb.h"
#include "device/appium.h"
#include "device/sim/sim.h"
#include "util/clock.h"
#include "util/lockfile.h"
#include "util/sanitize.h"

int amc_key_parse(const char *s, amc_key *out)
{
	if (!strcasecmp(s, "back"))
		*out = AMC_KEY_BACK;
	else if (!strcasecmp(s, "home"))
		*out = AMC_KEY_HOME;
	else if (!strcasecmp(s, "enter"))
		*out = AMC_KEY_ENTER;
	else
		return -1;
	return 0;
}

const char *amc_key_name(amc_key k)
{
	switch (k) {
	case AMC_KEY_BACK: return "back";
	case AMC_KEY_HOME: return "home";
	case AMC_KEY_ENTER: return "enter";
	}
	return "?";
}

/* http(s)://HOST[:PORT][/PATH]: printable ASCII, no spaces, at most 100 bytes. */
static int valid_url(const char *u)
{
	size_t n = strlen(u);
	if (n > 100 || (strncmp(u, "http://", 7) && strncmp(u, "https://", 8)))
		return 0;
	const char *host = u + (u[4] == 's' ? 8 : 7);
	if (!*host || *host == '/' || *host == ':')
		return 0;
	for (const char *p = u; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || *p == '"' || *p == '\\' || *p == '<' || *p == '>')
			return 0;
	return 1;
}

int amc_device_id_normalize(const char *in, char *out, size_t n, amc_err *e)
{
	if (!strcmp(in, "sim")) {
		snprintf(out, n, "sim:0");
		return 0;
	}
	if (!strncmp(in, "sim:", 4)) {
		const char *d = in + 4;
		size_t len = strlen(d);
		if (len > 0 && len <= 4 && strspn(d, "0123456789") == len) {
			snprintf(out, n, "sim:%d", atoi(d));
			return 0;
		}
	}
	if (!strncmp(in, "adb:", 4) && amc_adb_serial_valid(in + 4) == 0) {
		snprintf(out, n, "%s", in);
		return 0;
	}
	if (!strncmp(in, "appium:", 7) && valid_url(in + 7) && strlen(in) < n) {
		/* One spelling per server: no trailing slash. */
		snprintf(out, n, "%s", in);
		size_t len = strlen(out);
		while (len > 0 && out[len - 1] == '/')
			out[--len] = '\0';
		return 0;
	}
	char *s = amc_sanitize_dup(in);
	amc_err_set(e, AMC_EUSAGE,
		    "unknown device '%.200s': use 'sim', 'sim:N' (N from 0 to 9999), 'adb:SERIAL' (as `adb devices` "
		    "prints it) or 'appium:URL' (http://HOST:PORT of an Appium server)", s);
	free(s);
	return -1;
}

int amc_device_open(const char *id, const char *home, const amc_config *cfg, amc_device **out, amc_err *e)
{
	char canon[128];
	if (amc_device_id_normalize(id, canon, sizeof canon, e) != 0)
		return -1;
	int rc;
	if (!strncmp(canon, "sim:", 4))
		rc = amc_sim_open(home, atoi(canon + 4), cfg, out, e);
	else if (!strncmp(canon, "adb:", 4))
		rc = amc_adb_open(canon + 4, cfg, out, e);
	else if (!strncmp(canon, "appium:", 7))
		rc = amc_appium_open(canon + 7, cfg, out, e);
	else
		return amc_err_set(e, AMC_EUSAGE, "unknown device '%s'", canon);
	if (rc == 0)
		amc_device_count_calls(*out);
	return rc;
}

/* ---- call counting ----
 * A wrapper table at the vtable boundary: every caller (observing, settling,
 * tools, the TUI) goes through d->ops, so counting here sees every call
 * without each caller keeping books. Failed calls count: they cost time too. */

static double mono_ms(void)
{
	return (double)amc_mono_us() / 1e3;
}

static int tally(amc_call_tally *t, double t0, int rc)
{
	t->count++;
	t->ms += mono_ms() - t0;
	return rc;
}

#define COUNTED(kind, call) \
	do { \
		double t0_ = mono_ms(); \
		return tally(&d->calls.kind, t0_, d->driver->call); \
	} while (0)

static int c_info(amc_device *d, amc_device_info *out, amc_err *e)
{
	return d->driver->info(d, out, e);
}
static int c_screenshot(amc_device *d, unsigned char **png, size_t *len, amc_err *e)
{
	COUNTED(screenshots, screenshot(d, png, len, e));
}
static int c_frame(amc_device *d, amc_image *img, amc_err *e)
{
	COUNTED(screenshots, frame(d, img, e));
}
static int c_ui_tree(amc_device *d, char **xml, size_t *len, amc_err *e)
{
	COUNTED(trees, ui_tree(d, xml, len, e));
}
static int c_tap(amc_device *d, int x, int y, amc_err *e)
{
	COUNTED(inputs, tap(d, x, y, e));
}
static int c_long_press(amc_device *d, int x, int y, int ms, amc_err *e)
{
	COUNTED(inputs, long_press(d, x, y, ms, e));
}
static int c_swipe(amc_device *d, int x1, int y1, int x2, int y2, int ms, amc_err *e)
{
	COUNTED(inputs, swipe(d, x1, y1, x2, y2, ms, e));
}
static int c_type_text(amc_device *d, const char *utf8, amc_err *e)
{
	COUNTED(inputs, type_text(d, utf8, e));
}
static int c_key(amc_device *d, amc_key k, amc_err *e)
{
	COUNTED(inputs, key(d, k, e));
}
static int c_launch_app(amc_device *d, const char *app_id, amc_err *e)
{
	COUNTED(inputs, launch_app(d, app_id, e));
}
static int c_tap_element(amc_device *d, const amc_element_ref *el, amc_err *e)
{
	COUNTED(inputs, tap_element(d, el, e));
}
static int c_set_value(amc_device *d, const amc_element_ref *el, const char *utf8, amc_err *e)
{
	COUNTED(inputs, set_value(d, el, utf8, e));
}
static int c_wait(amc_device *d, int ms, amc_err *e)
{
	COUNTED(waits, wait(d, ms, e));
}
static int c_health(amc_device *d, amc_err *e)
{
	return d->driver->health(d, e);
}
static void c_close(amc_device *d)
{
	d->driver->close(d);
}

static void wrap(amc_device *d, const amc_device_ops *o)
{
	d->driver = o;
	/* optional ops stay NULL so callers still see what the driver lacks */
	d->counted = (amc_device_ops){
		.kind = o->kind,
		.info = o->info ? c_info : NULL,
		.screenshot = o->screenshot ? c_screenshot : NULL,
		.frame = o->frame ? c_frame : NULL,
		.ui_tree = o->ui_tree ? c_ui_tree : NULL,
		.tap = o->tap ? c_tap : NULL,
		.long_press = o->long_press ? c_long_press : NULL,
		.swipe = o->swipe ? c_swipe : NULL,
		.type_text = o->type_text ? c_type_text : NULL,
		.key = o->key ? c_key : NULL,
		.launch_app = o->launch_app ? c_launch_app : NULL,
		.wait = o->wait ? c_wait : NULL,
		.health = o->health ? c_health : NULL,
		.close = o->close ? c_close : NULL,
		.tap_element = o->tap_element ? c_tap_element : NULL,
		.set_value = o->set_value ? c_set_value : NULL,
	};
	d->ops = &d->counted;
}

void amc_device_count_calls(amc_device *d)
{
	if (d && !d->driver)
		wrap(d, d->ops);
}

void amc_device_set_driver(amc_device *d, const amc_device_ops *ops)
{
	if (d->driver)
		wrap(d, ops);
	else
		d->ops = ops;
}

const amc_device_ops *amc_device_driver(const amc_device *d)
{
	return d->driver ? d->driver : d->ops;
}

amc_device_calls amc_device_calls_now(const amc_device *d)
{
	return d->calls;
}

static amc_call_tally tally_sub(amc_call_tally a, amc_call_tally b)
{
	return (amc_call_tally){ a.count - b.count, a.ms - b.ms };
}

amc_device_calls amc_device_calls_since(const amc_device_calls *later, const amc_device_calls *earlier)
{
	return (amc_device_calls){ tally_sub(later->screenshots, earlier->screenshots),
				   tally_sub(later->trees, earlier->trees),
				   tally_sub(later->inputs, earlier->inputs),
				   tally_sub(later->waits, earlier->waits) };
}

void amc_device_close(amc_device *d)
{
	if (d && d->ops && d->ops->close)
		d->ops->close(d);
}

void amc_device_lock_name(const char *device_id, char *out, size_t n)
{
	snprintf(out, n, "device-%s", device_id);
}

int amc_device_lock(const char *home, const char *device_id, const char *task_id,
		    amc_lock **out, amc_err *e)
{
	char name[200], note[128], holder[256];
	amc_device_lock_name(device_id, name, sizeof name);
	snprintf(note, sizeof note, "%s pid %ld", task_id ? task_id : "-", (long)getpid());
	int rc = amc_lock_try(home, name, note, out, holder, sizeof holder, e);
	if (rc == 1) {
		char task[64] = "", *sp;
		long pid = 0;
		size_t tl = strcspn(holder, " ");
		if (tl >= sizeof task)
			tl = sizeof task - 1;
		memcpy(task, holder, tl);
		task[tl] = '\0';
		if ((sp = strchr(task, ' ')))
			*sp = '\0';
		if ((sp = strstr(holder, " pid ")))
			pid = atol(sp + 5);
		char *t = amc_sanitize_dup(task);
		if (t[0] && strcmp(t, "-"))
			amc_err_set(e, AMC_EENV, "device %s is busy with task %s (pid %ld); wait for it or cancel it", device_id, t, pid);
		else
			amc_err_set(e, AMC_EENV, "device %s is busy (held by pid %ld); try again in a moment", device_id, pid);
		free(t);
		return -1;
	}
	return rc;
}

void amc_device_unlock(amc_lock *l)
{
	amc_lock_release(l);
}

static int tally_from_json(amc_call_tally *sum, const cJSON *dev, const char *name)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(dev, name);
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(t, "count");
	const cJSON *ms = cJSON_GetObjectItemCaseSensitive(t, "ms");
	if (!cJSON_IsNumber(n) || !cJSON_IsNumber(ms) || n->valuedouble < 0 || ms->valuedouble < 0)
		return -1;
	sum->count += (long)n->valuedouble;
	sum->ms += ms->valuedouble;
	return 0;
}

int amc_device_calls_add_json(amc_device_calls *sum, const char *timings)
{
	cJSON *j = timings ? cJSON_Parse(timings) : NULL;
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device");
	amc_device_calls c = { 0 };
	int rc = -1;
	if (cJSON_IsObject(dev) && tally_from_json(&c.screenshots, dev, "screenshots") == 0 &&
	    tally_from_json(&c.trees, dev, "trees") == 0 && tally_from_json(&c.inputs, dev, "inputs") == 0) {
		(void)tally_from_json(&c.waits, dev, "waits");
		amc_call_tally *to[] = { &sum->screenshots, &sum->trees, &sum->inputs, &sum->waits };
		const amc_call_tally *from[] = { &c.screenshots, &c.trees, &c.inputs, &c.waits };
		for (int i = 0; i < 4; i++) {
			to[i]->count += from[i]->count;
			to[i]->ms += from[i]->ms;
		}
		rc = 0;
	}
	cJSON_Delete(j);
	return rc;
}

void amc_device_calls_format(const amc_device_calls *c, char *out, size_t n)
{
	int l = snprintf(out, n, "%ld screenshot%s %.0f ms, %ld tree%s %.0f ms, %ld input%s %.0f ms",
			 c->screenshots.count, c->screenshots.count == 1 ? "" : "s", c->screenshots.ms,
			 c->trees.count, c->trees.count == 1 ? "" : "s", c->trees.ms,
			 c->inputs.count, c->inputs.count == 1 ? "" : "s", c->inputs.ms);
	if (c->waits.count && l > 0 && (size_t)l < n)
		snprintf(out + l, n - (size_t)l, ", %ld wait%s %.0f ms", c->waits.count,
			 c->waits.count == 1 ? "" : "s", c->waits.ms);
}
