/* test_adb_raw.c - the adb driver's raw frames (adb.capture) against the adb
 * stand-in: both header layouts and the pixel formats decode pixel-identical
 * to the PNG of the same screen; a truncated or lying frame is refused and the
 * phone falls back to PNG for good; auto keeps the faster capture; png never
 * asks for raw frames. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/adb.h"
#include "image/png.h"
#include "runtime/observe.h"
#include "tap.h"
#include "testutil.h"
#include "adbtest.h"
#include "util/fsutil.h"

static const char *home;
static amc_config *cfg;

static amc_device *open_with(const char *capture)
{
	amc_device *d = NULL;
	amc_err e;
	amc_config_set(cfg, "adb", "capture", capture, "test", &e);
	if (amc_device_open("adb:emulator-5554", home, cfg, &d, &e) != 0)
		diag("open: %s", e.msg);
	return d;
}

/* The frame the driver hands over equals the stand-in's PNG of that screen. */
static int same_as_png(amc_device *d, const amc_image *img)
{
	unsigned char *png = NULL;
	size_t len = 0;
	amc_image p = { 0 };
	amc_err e;
	int same = d->ops->screenshot(d, &png, &len, &e) == 0 && amc_png_decode(png, len, &p, &e) == 0 &&
		   p.w == img->w && p.h == img->h && !memcmp(p.px, img->px, (size_t)p.w * p.h * 4);
	free(png);
	amc_image_free(&p);
	return same;
}

static void test_layouts(void)
{
	static const char *const hdr[] = { "12", "16" };
	static const char *const fmt[] = { "rgba", "rgbx", "565" };
	for (int h = 0; h < 2; h++)
		for (int f = 0; f < 3; f++) {
			setenv("AMC_ADB_STANDIN_RAW_HEADER", hdr[h], 1);
			setenv("AMC_ADB_STANDIN_RAW_FORMAT", fmt[f], 1);
			amc_device *d = open_with("raw");
			amc_image img = { 0 };
			amc_err e;
			ok(d && d->ops->frame && d->ops->frame(d, &img, &e) == 0 && img.w == 1080 && img.h == 2400,
			   "%s-byte header, %s: a raw frame", hdr[h], fmt[f]);
			ok(d && same_as_png(d, &img), "%s-byte header, %s: pixel-identical to the PNG", hdr[h], fmt[f]);
			is_str(d ? amc_adb_capture_mode(d) : "", "raw", "still raw afterwards");
			amc_image_free(&img);
			amc_device_close(d);
		}
	unsetenv("AMC_ADB_STANDIN_RAW_HEADER");
	unsetenv("AMC_ADB_STANDIN_RAW_FORMAT");
}

static void test_refused(void)
{
	static const char *const faults[] = { "truncated", "lying" };
	for (int i = 0; i < 2; i++) {
		setenv("AMC_ADB_STANDIN_RAW_FAULT", faults[i], 1);
		amc_device *d = open_with("raw");
		amc_image img = { 0 };
		amc_err e;
		ok(d && d->ops->frame(d, &img, &e) == 0, "%s raw frame: the capture still succeeds", faults[i]);
		is_str(d ? amc_adb_capture_mode(d) : "", "png", "%s raw frame: the phone is PNG from now on", faults[i]);
		ok(d && d->ops->frame == NULL && d->ops->screenshot, "%s: observing now takes the phone's PNG", faults[i]);
		ok(d && same_as_png(d, &img), "%s: the frame handed over is the PNG's pixels", faults[i]);
		amc_device_calls c = d ? amc_device_calls_now(d) : (amc_device_calls){ 0 };
		is_int((int)c.screenshots.count, 2, "%s: counted once each (the refused try is part of the frame)", faults[i]);
		amc_image_free(&img);
		amc_device_close(d);
	}
	unsetenv("AMC_ADB_STANDIN_RAW_FAULT");
}

static void test_modes(void)
{
	amc_device *d = open_with("png");
	ok(d && d->ops->frame == NULL, "capture = png: no raw frames asked for");
	is_str(d ? amc_adb_capture_mode(d) : "", "png", "mode png");
	amc_device_close(d);

	/* auto keeps what the measurement favours, by a wide margin either way */
	setenv("AMC_ADB_STANDIN_LATENCY", "raw_ms=1500", 1);
	d = open_with("auto");
	is_str(d ? amc_adb_capture_mode(d) : "", "auto", "auto before the first frame");
	amc_image img = { 0 };
	amc_err e;
	ok(d && d->ops->frame(d, &img, &e) == 0 && img.w == 1080, "auto: first frame");
	is_str(d ? amc_adb_capture_mode(d) : "", "png", "slow raw frames: auto keeps PNG");
	ok(d && d->ops->frame == NULL, "and observes through the PNG");
	amc_image_free(&img);
	amc_device_close(d);
	setenv("AMC_ADB_STANDIN_LATENCY", "png_ms=1500", 1);
	d = open_with("auto");
	ok(d && d->ops->frame(d, &img, &e) == 0, "auto: first frame");
	is_str(d ? amc_adb_capture_mode(d) : "", "raw", "slow PNGs: auto keeps raw");
	amc_image_free(&img);
	amc_device_close(d);
	unsetenv("AMC_ADB_STANDIN_LATENCY");

	/* an observation over raw frames: only the kept frame is encoded, no
	 * PNG is decoded; settling compares pixels */
	d = open_with("raw");
	amc_observation o, s;
	amc_observe_opts oo = { 0, AMC_OCR_OFF };
	long dec0 = amc_png_decode_count();
	ok(d && amc_observe(d, &oo, &o, &e) == 0, "observe over raw frames");
	amc_settle_opts so = { 500, 10, 0.001, 84 };
	int frames = 0, settled = 0;
	ok(d && amc_settle(d, &so, &oo, &s, &frames, &settled, &e) == 0 && frames >= 2, "settle over raw frames");
	is_int((int)(amc_png_decode_count() - dec0), 0, "raw frames: no PNG decoded to observe and settle");
	if (d)
		amc_observation_free(&s);
	amc_image back = { 0 };
	ok(d && o.png && amc_png_decode(o.png, o.png_len, &back, &e) == 0 &&
	   !memcmp(back.px, o.img.px, (size_t)o.img.w * o.img.h * 4), "the kept frame's PNG holds its pixels");
	amc_image_free(&back);
	if (d)
		amc_observation_free(&o);
	amc_device_close(d);

	/* over PNG: the frames the phone sends are probed (compared without a
	 * decode); only the kept one is decoded, once */
	d = open_with("png");
	dec0 = amc_png_decode_count();
	long pr0 = amc_png_probe_count();
	ok(d && amc_settle(d, &so, &oo, &s, &frames, &settled, &e) == 0, "settle over PNG screenshots");
	is_int((int)(amc_png_decode_count() - dec0), 1, "one decode per settle: the kept frame (%d frames)", frames);
	is_int((int)(amc_png_probe_count() - pr0), frames, "every frame compared by a probe");
	if (d)
		amc_observation_free(&s);
	amc_device_close(d);
}

int main(void)
{
	home = test_home("adb_raw");
	if (adb_standin_on_path(home) != 0)
		return 1;
	amc_err e;
	if (amc_config_load(&cfg, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	test_layouts();
	test_refused();
	test_modes();
	amc_config_free(cfg);
	return done_testing();
}
