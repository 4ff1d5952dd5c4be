/* test_calls.c - counting a device's calls (src/device/calls.c): every call
 * through d->ops is tallied by kind with its time, the driver still finds its
 * device behind the counting table, a driver can swap its table, and stored
 * timings add up for `amc show`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "device/sim/sim.h"
#include "tap.h"
#include "testutil.h"

static const char *home;

/* Every call through d->ops is counted by kind with its time; the driver
 * still recognizes its device behind the counting table. */
static void test_call_counting(void)
{
	amc_err e;
	amc_device *d = NULL;
	if (amc_device_open("sim:5", home, NULL, &d, &e) != 0) {
		ok(0, "open sim:5: %s", e.msg);
		return;
	}
	amc_device_calls z = amc_device_calls_now(d);
	ok(z.screenshots.count == 0 && z.trees.count == 0 && z.inputs.count == 0, "a fresh device has made no calls");
	ok(amc_device_driver(d) != d->ops, "calls go through the counting table");
	unsigned char *png = NULL;
	size_t len = 0;
	amc_image img = { 0 };
	char *xml = NULL;
	ok(d->ops->screenshot(d, &png, &len, &e) == 0 && d->ops->frame(d, &img, &e) == 0, "screenshot and frame");
	ok(d->ops->ui_tree(d, &xml, &len, &e) == 0, "tree");
	ok(d->ops->tap(d, 10, 10, &e) == 0 && d->ops->key(d, AMC_KEY_HOME, &e) == 0 &&
	   d->ops->wait(d, 50, &e) == 0, "tap, key and a wait");
	free(png);
	free(xml);
	amc_image_free(&img);
	amc_device_calls c = amc_device_calls_now(d);
	is_int((int)c.screenshots.count, 2, "screenshot and frame count as screenshots");
	is_int((int)c.trees.count, 1, "one tree dump");
	is_int((int)c.inputs.count, 2, "tap and key are inputs");
	is_int((int)c.waits.count, 1, "a wait is tallied apart: device time, not a call");
	ok(c.screenshots.ms > 0 && c.trees.ms > 0, "their time is measured");
	amc_device_calls since = amc_device_calls_since(&c, &z);
	is_int((int)since.inputs.count, 2, "calls_since subtracts");
	char *js = NULL;
	ok(amc_sim_state_json(d, &js, &e) == 0 && js, "the sim still knows its device behind the counting table");
	free(js);
	ok(d->ops->tap_element == NULL, "an op the driver lacks stays NULL");
	amc_device_count_calls(d);
	ok(d->ops == &d->counted, "counting twice wraps once");

	amc_device_calls sum = { 0 };
	ok(amc_device_calls_add_json(&sum, "{\"device\":{\"screenshots\":{\"count\":3,\"ms\":12.5},"
				     "\"trees\":{\"count\":1,\"ms\":40},\"inputs\":{\"count\":1,\"ms\":2}}}") == 0 &&
	   amc_device_calls_add_json(&sum, "{\"device\":{\"screenshots\":{\"count\":2,\"ms\":7.5},"
				     "\"trees\":{\"count\":1,\"ms\":10},\"inputs\":{\"count\":0,\"ms\":0}}}") == 0,
	   "two steps' calls add up");
	char line[160];
	amc_device_calls_format(&sum, line, sizeof line);
	is_str(line, "5 screenshots 20 ms, 2 trees 50 ms, 1 input 2 ms", "formatted for show and the TUI");
	ok(amc_device_calls_add_json(&sum, "{\"device\":{\"screenshots\":{\"count\":0,\"ms\":0},"
				     "\"trees\":{\"count\":0,\"ms\":0},\"inputs\":{\"count\":0,\"ms\":0},"
				     "\"waits\":{\"count\":2,\"ms\":200}}}") == 0, "waits add up too");
	amc_device_calls_format(&sum, line, sizeof line);
	is_str(line, "5 screenshots 20 ms, 2 trees 50 ms, 1 input 2 ms, 2 waits 200 ms", "waits shown when there were any");
	ok(amc_device_calls_add_json(&sum, "{\"observe_ms\":3}") == -1 && sum.screenshots.count == 5,
	   "timings without device calls (older records) add nothing");
	ok(amc_device_calls_add_json(&sum, "{\"device\":{\"screenshots\":{\"count\":1,\"ms\":1}}}") == -1 &&
	   sum.screenshots.count == 5, "a partial record adds nothing");
	ok(amc_device_calls_add_json(&sum, NULL) == -1 && amc_device_calls_add_json(&sum, "not json") == -1,
	   "no timings, or not JSON: nothing");
	amc_device_close(d);
}


/* A driver that drops an optional op at run time (adb giving up raw frames)
 * swaps its table; counting goes on through the new one. */
static int n_frames;
static int f_frame(amc_device *d, amc_image *img, amc_err *e)
{
	(void)d; (void)img; (void)e;
	n_frames++;
	return 0;
}
static int f_tap(amc_device *d, int x, int y, amc_err *e)
{
	(void)d; (void)x; (void)y; (void)e;
	return 0;
}
static const amc_device_ops WITH_FRAME = { .kind = "fake", .frame = f_frame, .tap = f_tap };
static const amc_device_ops NO_FRAME = { .kind = "fake", .tap = f_tap };

static void test_set_driver(void)
{
	amc_device d;
	memset(&d, 0, sizeof d);
	d.ops = &WITH_FRAME;
	amc_device_set_driver(&d, &WITH_FRAME);
	ok(d.ops == &WITH_FRAME && amc_device_driver(&d) == &WITH_FRAME, "uncounted: the table is simply replaced");
	amc_device_count_calls(&d);
	amc_err e;
	amc_image img;
	ok(d.ops->frame && d.ops->frame(&d, &img, &e) == 0 && n_frames == 1, "counted frame reaches the driver");
	amc_device_set_driver(&d, &NO_FRAME);
	ok(d.ops->frame == NULL, "after the swap the dropped op is NULL for callers");
	ok(amc_device_driver(&d) == &NO_FRAME, "the driver table is the new one");
	ok(d.ops->tap(&d, 1, 2, &e) == 0, "other calls still work");
	amc_device_calls c = amc_device_calls_now(&d);
	is_int((int)c.screenshots.count, 1, "the frame was counted");
	is_int((int)c.inputs.count, 1, "and the tap after the swap");
}

int main(void)
{
	home = test_home("calls");
	test_call_counting();
	test_set_driver();
	return done_testing();
}
