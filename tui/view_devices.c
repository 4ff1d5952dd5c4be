/* view_devices.c - the Devices view: every device with its status, and the
 * selected device's screen. The screen is the latest recorded observation of
 * a task on that device (so it follows a running task step by step without
 * touching the device), or a fresh capture on `r` when the device is free. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "device/manager.h"
#include "tui/app.h"
#include "tui/image.h"
#include "tui/text.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

typedef struct devices_view {
	amc_device_entry *dev;
	size_t n;
	long sel;
	int list_y, list_w; /* where the device list was drawn, for clicks */
	int zoom;
	/* Absolute path of the image shown, "" none: an artifact's (store.h
	 * refuses one that does not fit) or a capture's; PATH_MAX, as a longer
	 * path could not be opened anyway. */
	char shot[PATH_MAX];
	char what[256];      /* where it came from */
} devices_view;

static void list(amc_tui_app *a, devices_view *d)
{
	amc_err e;
	char warn[256] = "";
	free(d->dev);
	d->dev = NULL;
	d->n = 0;
	if (amc_devices_list(a->home, a->cfg, &d->dev, &d->n, warn, sizeof warn, &e) != 0)
		amc_tui_message(a, 1, "%s", e.msg);
	if (d->sel >= (long)d->n)
		d->sel = d->n ? (long)d->n - 1 : 0;
}

/* The newest recorded screen of the selected device (read from the store). */
static void latest(amc_tui_app *a, devices_view *d)
{
	d->shot[0] = 0;
	d->what[0] = 0;
	if (!d->n)
		return;
	const char *id = d->dev[d->sel].id;
	amc_task_filter f = { NULL, NULL, 50, 0, AMC_SORT_NEWEST };
	amc_task_row *rows = NULL;
	size_t n = 0;
	amc_err e;
	if (amc_store_list_tasks(a->store, &f, &rows, &n, &e) != 0)
		return;
	for (size_t i = 0; i < n && !d->shot[0]; i++) {
		if (strcmp(rows[i].device, id) != 0)
			continue;
		amc_step_row *steps;
		size_t ns;
		if (amc_store_get_steps(a->store, rows[i].id, &steps, &ns, &e) == 0) {
			for (size_t k = ns; k-- > 0 && !d->shot[0];) {
				const char *rel = steps[k].after_screenshot;
				if (rel && amc_store_artifact_abspath(a->store, rel, d->shot, sizeof d->shot, &e) == 0) {
					char sid[AMC_ID_SIZE];
					snprintf(d->what, sizeof d->what, "after step %d of task %s (%s)", steps[k].step,
						 amc_tui_short_id(a, rows[i].id, sid), rows[i].status);
				} else {
					d->shot[0] = 0;
				}
			}
			amc_step_rows_free(steps, ns);
		}
		break; /* only the newest task of the device */
	}
	amc_task_rows_free(rows, n);
}

/* A fresh screenshot, holding the device lock so no task runs meanwhile. */
static void capture(amc_tui_app *a, devices_view *d)
{
	if (!d->n)
		return;
	const char *id = d->dev[d->sel].id;
	amc_err e;
	amc_lock *lock;
	if (amc_device_lock(a->home, id, "tui-capture", &lock, &e) != 0) {
		amc_tui_message(a, 1, "%s; showing its latest recorded screen", e.msg);
		latest(a, d);
		return;
	}
	amc_device *dev;
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = amc_device_open(id, a->home, a->cfg, &dev, &e);
	if (rc == 0) {
		rc = dev->ops->screenshot(dev, &png, &len, &e);
		amc_device_close(dev);
	}
	amc_device_unlock(lock);
	if (rc != 0) {
		amc_tui_message(a, 1, "%s", e.msg);
		return;
	}
	amc_sb dir;
	amc_sb_init(&dir);
	amc_sb_printf(&dir, "%s/tui", a->home);
	/* One file per device, replaced atomically; the id is canonical (sim:N,
	 * adb:SERIAL, appium:URL) but may hold '/', so it is not used as a name. */
	int n = snprintf(d->shot, sizeof d->shot, "%s/screen-%ld.png", amc_sb_str(&dir), d->sel);
	if (n < 0 || (size_t)n >= sizeof d->shot)
		amc_err_set(&e, AMC_EENV, "cannot keep a capture: the path under %s is too long", amc_sb_str(&dir));
	if (n < 0 || (size_t)n >= sizeof d->shot || amc_mkdir_p(amc_sb_str(&dir), 0700, &e) != 0 ||
	    amc_write_atomic(d->shot, png, len, 0600, &e) != 0) {
		amc_tui_message(a, 1, "%s", e.msg);
		d->shot[0] = 0;
	} else {
		snprintf(d->what, sizeof d->what, "captured now");
	}
	amc_sb_free(&dir);
	free(png);
	amc_tui_image_forget(); /* same path, new pixels */
}

void *amc_tui_devices_new(amc_tui_app *a)
{
	devices_view *d = amc_xcalloc(1, sizeof *d);
	list(a, d);
	latest(a, d);
	return d;
}

static void reload(amc_tui_app *a, amc_tui_view *v)
{
	devices_view *d = v->data;
	if (strcmp(d->what, "captured now") != 0)
		latest(a, d);
}

static void draw(amc_tui_app *a, amc_tui_view *v, int y, int h, int w)
{
	devices_view *d = v->data;
	int lw = d->zoom ? 0 : (w * 45 / 100 < 40 ? 40 : w * 45 / 100);
	if (lw > w - 20)
		lw = w - 20;
	d->list_y = y;
	d->list_w = lw;
	if (!d->zoom) {
		amc_tui_box(y, 0, h, lw, "Devices", 0);
		for (size_t i = 0; i < d->n && (int)i < h - 2; i++) {
			amc_device_entry *de = &d->dev[i];
			int sel = (long)i == d->sel;
			char line[600];
			snprintf(line, sizeof line, "%s%-14s %-7s %-8s %s", sel ? ">" : " ", de->id, de->kind, de->status,
				 de->task[0] ? de->task : de->note);
			amc_tui_put(stdscr, y + 1 + (int)i, 1, lw - 2, line,
				    sel ? amc_tui_attr(AMC_EL_SELECTED) : amc_tui_attr(AMC_EL_NORMAL), 1);
		}
		if (!d->n)
			amc_tui_put(stdscr, y + 1, 1, lw - 2, "no devices", amc_tui_attr(AMC_EL_DIM), 0);
	}
	char title[300];
	snprintf(title, sizeof title, "Screen%s%s", d->what[0] ? ": " : "", d->what);
	amc_tui_box(y, lw, h, w - lw, title, 1);
	if (d->shot[0])
		amc_tui_image_draw(d->shot, y + 1, lw + 1, h - 2, w - lw - 2, -1, -1, NULL, d->zoom, a->graphics);
	else
		amc_tui_put(stdscr, y + 1, lw + 1, w - lw - 2, "(nothing recorded yet: r captures the screen now)",
			    amc_tui_attr(AMC_EL_DIM), 0);
}

static int request(amc_tui_app *a, amc_tui_view *v, amc_tui_req req)
{
	devices_view *d = v->data;
	long old = d->sel;
	switch (req) {
	case AMC_REQ_DOWN: d->sel++; break;
	case AMC_REQ_UP: d->sel--; break;
	case AMC_REQ_TOP: d->sel = 0; break;
	case AMC_REQ_BOTTOM: d->sel = (long)d->n - 1; break;
	case AMC_REQ_ZOOM: d->zoom = !d->zoom; return 1;
	case AMC_REQ_REFRESH:
		list(a, d);
		capture(a, d);
		return 1;
	case AMC_REQ_BACK:
		if (d->zoom) {
			d->zoom = 0;
			return 1;
		}
		return 0;
	default: return 0;
	}
	if (d->sel >= (long)d->n)
		d->sel = (long)d->n - 1;
	if (d->sel < 0)
		d->sel = 0;
	if (d->sel != old)
		latest(a, d);
	return 1;
}

static int live(amc_tui_app *a, amc_tui_view *v)
{
	(void)a;
	devices_view *d = v->data;
	return d->n && !strcmp(d->dev[d->sel].status, "busy");
}

static void vfree(amc_tui_view *v)
{
	devices_view *d = v->data;
	free(d->dev);
	free(d);
}

/* A click on a device selects it; a double click anywhere zooms the screen. */
static void click(amc_tui_app *a, amc_tui_view *v, int y, int x, int twice)
{
	devices_view *d = v->data;
	if (twice) {
		d->zoom = !d->zoom;
		return;
	}
	long row = y - d->list_y - 1;
	if (d->zoom || x >= d->list_w || row < 0 || row >= (long)d->n || row == d->sel)
		return;
	d->sel = row;
	latest(a, d);
}

const amc_tui_view_ops amc_tui_view_devices = {
	"Devices", AMC_VIEW_DEVICES, draw, request, reload, live, NULL, vfree, NULL, click,
};
