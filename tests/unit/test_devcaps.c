/* test_devcaps.c - what a fleet host states of each device (host/devcaps.h):
 * values made capability values, the sim's kind, platform, model, screen
 * and apps, a phone's (through the adb stand-in, tests/tools/adb-standin)
 * Android version and installed apps with an id amc cannot use left out,
 * and an Appium device's platform from the configuration without opening it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet/fleet.h"
#include "host/devcaps.h"
#include "tap.h"
#include "testutil.h"
#include "adbtest.h"

static int has(const amc_devcaps *c, const char *kv)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i], kv))
			return 1;
	return 0;
}

static void test_values(void)
{
	amc_devcaps c = { .n = 0 };
	ok(amc_devcaps_add(&c, "model", "Pixel 8 Pro (GB)"), "a model is added");
	is_str(c.v[0], "model=pixel_8_pro_gb", "lower-case, spaces and brackets one '_' each, none at the end");
	ok(!amc_devcaps_add(&c, "model", "Pixel 8 Pro (GB)"), "the same one is not added twice");
	ok(!amc_devcaps_add(&c, "os", "  "), "an empty value is not added");
	ok(!amc_devcaps_add(&c, "model", "\xc3\xa9"), "nor one of only other characters");
	char longv[200];
	memset(longv, 'a', sizeof longv - 1);
	longv[sizeof longv - 1] = 0;
	ok(amc_devcaps_add(&c, "app", longv) && strlen(c.v[1]) == 64, "a long value is cut to 64 bytes in all");
	ok(amc_fleet_need_ok(c.v[1]), "and is still a valid capability");
	ok(!amc_devcaps_add_raw(&c, "Bad=Cap"), "an entry as written must be valid");
	for (int i = 0; i < AMC_DEVCAPS_MAX + 5; i++) {
		char v[16];
		snprintf(v, sizeof v, "a%d", i);
		amc_devcaps_add(&c, "app", v);
	}
	is_int(c.n, AMC_DEVCAPS_MAX, "the list stops at AMC_DEVCAPS_MAX");
	char *lit = amc_devcaps_literal(&c);
	ok(lit[0] == '{' && strstr(lit, ",model=") == NULL && strstr(lit, "model=pixel_8_pro_gb,"), "an array literal");
	free(lit);
}

int main(void)
{
	const char *home = test_home("devcaps");
	if (adb_standin_on_path(home) != 0)
		return 1;
	amc_config *cfg;
	amc_err e;
	if (amc_config_load(&cfg, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	test_values();

	amc_devcaps c = { .n = 0 };
	ok(amc_devcaps_probe(cfg, home, "sim:0", &c, &e) == 0, "sim:0 is probed");
	ok(has(&c, "kind=sim") && has(&c, "platform=android"), "its kind and platform");
	ok(has(&c, "model=amc_sim"), "its model");
	int screen = 0;
	for (size_t i = 0; i < c.n; i++)
		screen |= !strncmp(c.v[i], "screen=", 7) && strchr(c.v[i], 'x');
	ok(screen, "its screen size");
	ok(has(&c, "app=com.android.settings") && has(&c, "app=com.amc.notes"), "the sim's apps");

	amc_devcaps a = { .n = 0 };
	ok(amc_devcaps_probe(cfg, home, "adb:emulator-5554", &a, &e) == 0, "a phone is probed (adb stand-in)");
	ok(has(&a, "kind=adb") && has(&a, "platform=android") && has(&a, "os=14"), "kind, platform, Android version");
	ok(has(&a, "model=amc_sim_adb_stand-in"), "the model getprop says");
	ok(has(&a, "app=com.amc.notes") && has(&a, "app=com.amc.messages"), "the apps pm lists beyond the system's");
	ok(!has(&a, "app=bad_app"), "an app id amc cannot launch is left out");

	amc_devcaps p = { .n = 0 };
	amc_config_set(cfg, "appium", "capabilities", "{\"platformName\":\"iOS\"}", "test", &e);
	ok(amc_devcaps_probe(cfg, home, "appium:http://127.0.0.1:9/wd/hub", &p, &e) == 0 && has(&p, "kind=appium") &&
		   has(&p, "platform=ios") && p.n == 2,
	   "an Appium device: kind and the configured platform, not opened");
	amc_config_free(cfg);
	return done_testing();
}
