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

	/* The same over PNG screenshots (as adb -p and Appium send them): the sim
	 * without its pixel hand-over. Frames are probed, not decoded; only the
	 * kept frame is decoded, and the transition is waited out all the same. */
	{
		const amc_device_ops *orig = amc_device_driver(d);
		amc_device_ops png_ops = *orig;
		png_ops.frame = NULL;
		amc_device_set_driver(d, &png_ops);
		amc_observation h, p1, after;
		ok(d->ops->key(d, AMC_KEY_HOME, &e) == 0, "home");
		so.timeout_ms = 3000;
		ok(amc_settle(d, &so, &oo, &h, &frames, &settled, &e) == 0 && settled, "PNG settle on home");
		ok(d->ops->tap(d, ix, iy, &e) == 0, "tap Settings again");
		c0 = amc_device_calls_now(d);
		dec0 = amc_png_decode_count();
		long pr0 = amc_png_probe_count();
		ok(amc_settle(d, &so, &oo, &p1, &frames, &settled, &e) == 0 && settled, "PNG settle after the tap");
		c1 = amc_device_calls_now(d);
		dc = amc_device_calls_since(&c1, &c0);
		is_int((int)(amc_png_decode_count() - dec0), 1, "one full decode for the whole settle (%d frames)", frames);
		is_int((int)(amc_png_probe_count() - pr0), frames, "each frame compared by a probe");
		is_int((int)dc.screenshots.count, frames, "one screenshot per compared frame");
		ok(frames >= 3, "the slide was waited out over PNGs (%d frames)", frames);
		/* never settled on a moving screen: a later frame shows the same */
		ok(amc_observe(d, &oo, &after, &e) == 0, "observe after settling");
		ok(amc_image_diff_fraction(&p1.img, &after.img, info.status_bar_px, 8) <= 0.001,
		   "what settling kept is what the screen still shows");
		amc_observation_free(&h);
		amc_observation_free(&p1);
		amc_observation_free(&after);
		amc_device_set_driver(d, orig);
	}

	/* amc_settle_same: the clock alone does not count; a real change does,
	 * even one small enough to slip between sampled rows and columns when it
	 * is over the tolerance, and one of a single pixel row never counts as equal
	 * when the tolerance is 0. */
	{
		amc_image a;
		amc_image_alloc(&a, 1080, 2400, &e);
		/* thousands of colours, like a phone's frame (no palette) */
		for (size_t i = 0; i < (size_t)1080 * 2400; i++) {
			size_t x = i % 1080, y = i / 1080;
			a.px[i * 4] = (unsigned char)(x / 5);
			a.px[i * 4 + 1] = (unsigned char)(y % 200);
			a.px[i * 4 + 2] = (unsigned char)((x + y) / 16);
			a.px[i * 4 + 3] = 255;
		}
		unsigned char *pa, *pb;
		size_t la, lb;
		amc_png_encode(&a, 6, &pa, &la, &e);
		amc_settle_opts st = { 1000, 100, 0.001, 84 };
		amc_png_probe A, B;
		ok(amc_png_probe_read(pa, la, AMC_SETTLE_SAMPLE_STEP, &A, &e) == 0, "probe a frame");
		/* the clock ticks: pixels inside the status bar change */
		for (int y = 10; y < 60; y++)
			for (int x = 900; x < 1000; x++)
				memset(a.px + ((size_t)y * 1080 + x) * 4, 0, 3);
		amc_png_encode(&a, 6, &pb, &lb, &e);
		amc_png_probe_read(pb, lb, AMC_SETTLE_SAMPLE_STEP, &B, &e);
		ok(amc_png_probe_same(&A, &B, 84) && amc_settle_same(&A, &B, &st), "a clock tick is the same screen");
		ok(!amc_png_probe_same(&A, &B, 0), "but the frames differ");
		free(pb);
		amc_png_probe_free(&B);
		/* a 60x60 box changes below the bar: 3600 px, 0.14 % of the frame */
		for (int y = 1001; y < 1061; y++)
			for (int x = 301; x < 361; x++)
				memset(a.px + ((size_t)y * 1080 + x) * 4, 0, 3);
		amc_png_encode(&a, 6, &pb, &lb, &e);
		amc_png_probe_read(pb, lb, AMC_SETTLE_SAMPLE_STEP, &B, &e);
		ok(!amc_settle_same(&A, &B, &st), "a change over the tolerance is never taken as settled");
		free(pb);
		amc_png_probe_free(&B);
		/* one odd pixel row (between the sampled rows): exact compare sees it */
		for (int x = 0; x < 1080; x++)
			memset(a.px + ((size_t)2001 * 1080 + x) * 4, 7, 3);
		amc_png_encode(&a, 6, &pb, &lb, &e);
		amc_png_probe_read(pb, lb, AMC_SETTLE_SAMPLE_STEP, &B, &e);
		st.tolerance = 0;
		ok(!amc_png_probe_same(&A, &B, 84) && !amc_settle_same(&A, &B, &st),
		   "with no tolerance, a one-row change between sampled rows is a change");
		free(pb);
		free(pa);
		amc_png_probe_free(&A);
		amc_png_probe_free(&B);
		amc_image_free(&a);
	}

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
