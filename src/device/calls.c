/* calls.c - counting a device's calls: every opened device's op table is
 * wrapped so screenshots, tree dumps, inputs and waits are counted with their
 * time, whoever calls them (the runner records them per step). Apart from
 * device.c because drivers call in here (amc_device_set_driver,
 * amc_device_driver) while device.c calls the drivers (open). */
#include "device/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/clock.h"

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
static int c_manage_app(amc_device *d, const char *app_id, amc_app_op op, const char *arg, amc_err *e)
{
	COUNTED(inputs, manage_app(d, app_id, op, arg, e));
}
static int c_double_tap(amc_device *d, int x, int y, amc_err *e)
{
	COUNTED(inputs, double_tap(d, x, y, e));
}
static int c_set(amc_device *d, amc_dev_setting what, const char *value, amc_err *e)
{
	COUNTED(inputs, set(d, what, value, e));
}
static int c_get(amc_device *d, amc_dev_setting what, char *out, size_t n, amc_err *e)
{
	COUNTED(inputs, get(d, what, out, n, e));
}
static int c_record_start(amc_device *d, amc_err *e)
{
	COUNTED(inputs, record_start(d, e));
}
static int c_record_stop(amc_device *d, unsigned char **data, size_t *len, char *ext, size_t extn, int *frames,
			 amc_err *e)
{
	COUNTED(inputs, record_stop(d, data, len, ext, extn, frames, e));
}
static int c_list_apps(amc_device *d, char **ids, amc_err *e)
{
	COUNTED(inputs, list_apps(d, ids, e));
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
		.manage_app = o->manage_app ? c_manage_app : NULL,
		.set = o->set ? c_set : NULL,
		.double_tap = o->double_tap ? c_double_tap : NULL,
		.get = o->get ? c_get : NULL,
		.record_start = o->record_start ? c_record_start : NULL,
		.record_stop = o->record_stop ? c_record_stop : NULL,
		.list_apps = o->list_apps ? c_list_apps : NULL,
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
