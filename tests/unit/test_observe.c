/* test_observe.c - observation and settling on the sim's transitions. */
#include <string.h>

#include "device/device.h"
#include "image/image.h"
#include "image/png.h"
#include "runtime/observe.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"

int main(void)
{
	const char *home = test_home("observe");
	amc_err e;
	amc_config *cfg = amc_config_new();
	amc_device *d;
	if (amc_device_open("sim", home, cfg, &d, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	amc_device_info info;
	d->ops->info(d, &info, &e);
	amc_observation o;
	amc_observe_opts oo = { 0, AMC_OCR_OFF };
	amc_device_calls c0 = amc_device_calls_now(d);
	ok(amc_observe(d, &oo, &o, &e) == 0, "observe the home screen");
	amc_device_calls c1 = amc_device_calls_now(d);
	amc_device_calls dc = amc_device_calls_since(&c1, &c0);
	ok(dc.screenshots.count == 1 && dc.trees.count == 1 && dc.inputs.count == 0,
	   "an observation is one frame and one tree dump (%ld, %ld)", dc.screenshots.count, dc.trees.count);
	ok(o.png_len > 1000 && o.img.w == info.width && o.img.h == info.height, "screenshot decoded at screen size");
	ok(o.tree.count > 3, "tree parsed (%zu nodes)", o.tree.count);
	ok(o.scene.count > 0, "scene built (%zu elements)", o.scene.count);
	ok(o.width == info.width, "observation records its size");

	/* Tap an app icon: the screen slides for ~300 ms; settle must wait it out. */
	int ix = -1, iy = -1;
	for (size_t i = 0; i < o.scene.count; i++)
		if (!strcmp(o.scene.elements[i].text, "Settings")) {
			ix = (o.scene.elements[i].bounds.x1 + o.scene.elements[i].bounds.x2) / 2;
			iy = (o.scene.elements[i].bounds.y1 + o.scene.elements[i].bounds.y2) / 2;
		}
	ok(ix >= 0, "Settings icon found on the home screen");
	ok(d->ops->tap(d, ix, iy, &e) == 0, "tap Settings");
	amc_settle_opts so = { 3000, 100, 0.001, info.status_bar_px };
	oo.retries = 2;
	amc_observation s;
	int frames, settled;
	c0 = amc_device_calls_now(d);
	long dec0 = amc_png_decode_count();
	ok(amc_settle(d, &so, &oo, &s, &frames, &settled, &e) == 0, "settle");
	is_int((int)(amc_png_decode_count() - dec0), 0, "the sim hands over pixels: nothing decoded");
	c1 = amc_device_calls_now(d);
	dc = amc_device_calls_since(&c1, &c0);
	is_int((int)dc.screenshots.count, frames, "settling: one capture per compared frame");
	is_int((int)dc.trees.count, 1, "settling: pixels decide, the tree is dumped once for the kept frame");
	ok(settled, "the screen settled");
	ok(frames >= 3, "settling needed several frames during the transition (%d)", frames);
	int found = 0;
	for (size_t i = 0; i < s.tree.count; i++)
		found |= !strcmp(s.tree.nodes[i].text, "Wi-Fi");
	ok(found, "the settled observation shows Settings");
	/* A second settle on a still screen needs only two frames. */
	amc_observation s2;
	ok(amc_settle(d, &so, &oo, &s2, &frames, &settled, &e) == 0 && settled && frames == 2, "a still screen settles at once");
	ok(amc_image_diff_fraction(&s.img, &s2.img, info.status_bar_px, 8) <= 0.001, "frames equal outside the status bar");

	/* A timeout of 0 takes one frame and reports not settled. */
	amc_observation s3;
	so.timeout_ms = 0;
	ok(amc_settle(d, &so, &oo, &s3, &frames, &settled, &e) == 0 && frames == 1 && !settled, "zero timeout: one frame");
	amc_observation_free(&o);
	amc_observation_free(&s);
	amc_observation_free(&s2);
	amc_observation_free(&s3);

	/* Faults: a certain screenshot failure is reported after the retries. */
	amc_device_close(d);
	amc_config_set(cfg, "sim", "faults", "screenshot:1", "test", &e);
	ok(amc_device_open("sim", home, cfg, &d, &e) == 0, "open with failing screenshots");
	ok(amc_observe(d, &oo, &o, &e) == -1, "observe fails");
	like(e.msg, "after 3 tries", "the message counts the tries");
	amc_device_close(d);
	amc_config_free(cfg);
	return done_testing();
}
