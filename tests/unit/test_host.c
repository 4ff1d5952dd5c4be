/* test_host.c - fleet/host.c without a server: the --devices list and
 * adb:* expanded over the adb stand-in. (The agent itself is tested against a
 * real PostgreSQL by tests/integration/test_fleet.sh and test_fleet_hosts.sh.) */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/host.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"
#include "util/fsutil.h"

/* adb:* over the stand-in, first on PATH as adb: two ready phones and an
 * unauthorized one. */
static void test_adb_star(void)
{
	const char *home = test_home("host");
	const char *build = getenv("AMC_TEST_BUILDDIR");
	char bin[PATH_MAX + 8], link[PATH_MAX + 16], target[PATH_MAX + 64], path[16384];
	amc_err e;
	snprintf(bin, sizeof bin, "%s/bin", home);
	snprintf(link, sizeof link, "%s/adb", bin);
	snprintf(target, sizeof target, "%s/tests/tools/adb-standin", build && *build ? build : ".");
	ok(amc_mkdir_p(bin, 0700, &e) == 0 && symlink(target, link) == 0, "the adb stand-in on PATH");
	snprintf(path, sizeof path, "%s:%s", bin, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	setenv("AMC_ADB_STANDIN_SERIALS", "emulator-5554,emulator-5556", 1);
	setenv("AMC_ADB_STANDIN_UNAUTHORIZED", "R58NOTALLOWED", 1);
	unsetenv("AMC_ADB_PATH");
	amc_config *cfg = NULL;
	ok(amc_config_load(&cfg, &e) == 0, "config");
	char ids[8][128];
	size_t n;
	ok(amc_host_parse_devices("sim:0,adb:*", ids, 8, &n, &e) == 0 && n == 2, "adb:* is accepted");
	ok(amc_host_expand_devices(cfg, ids, 8, &n, &e) == 0, "and expanded: %s", e.code ? e.msg : "");
	is_int((int)n, 3, "to the two ready phones, beside sim:0");
	is_str(ids[0], "sim:0", "sim:0 first");
	is_str(ids[1], "adb:emulator-5554", "then each phone adb lists");
	is_str(ids[2], "adb:emulator-5556", "in its order (the unauthorized one left out)");
	ok(amc_host_parse_devices("adb:emulator-5556,adb:*", ids, 8, &n, &e) == 0 &&
	   amc_host_expand_devices(cfg, ids, 8, &n, &e) == 0 && n == 2, "a phone named already is not added twice");
	ok(amc_host_parse_devices("adb:*", ids, 1, &n, &e) == 0 && amc_host_expand_devices(cfg, ids, 1, &n, &e) == -1 &&
	   e.code == AMC_EUSAGE, "more phones than the limit is refused");
	setenv("AMC_ADB_STANDIN_SERIALS", "emulator-5554", 1);
	ok(amc_host_parse_devices("adb:emulator-5554,adb:*", ids, 8, &n, &e) == 0 &&
	   amc_host_expand_devices(cfg, ids, 8, &n, &e) == -1 && e.code == AMC_EENV,
	   "no ready phone beyond those named is an environment error");
	like(e.msg, "no phone ready", "saying what to do");
	ok(amc_host_parse_devices("sim:1", ids, 8, &n, &e) == 0 && amc_host_expand_devices(cfg, ids, 8, &n, &e) == 0 &&
	   n == 1, "without adb:* nothing is listed");
	amc_config_free(cfg);
}

int main(void)
{
	char ids[4][128];
	size_t n;
	amc_err e;
	ok(amc_host_parse_devices("sim:0,sim:1", ids, 4, &n, &e) == 0 && n == 2, "two sims");
	is_str(ids[1], "sim:1", "canonical ids");
	ok(amc_host_parse_devices(NULL, ids, 4, &n, &e) == 0 && n == 1, "none: sim:0");
	is_str(ids[0], "sim:0", "the default");
	ok(amc_host_parse_devices("sim, adb:emulator-5554", ids, 4, &n, &e) == 0 && n == 2, "sim and an adb serial");
	is_str(ids[0], "sim:0", "sim is sim:0");
	ok(amc_host_parse_devices("sim:0,sim", ids, 4, &n, &e) == -1, "a device named twice is refused");
	like(e.msg, "twice", "saying so");
	ok(amc_host_parse_devices("sim:0,sim:1,sim:2,sim:3,sim:4", ids, 4, &n, &e) == -1, "more than the limit");
	ok(amc_host_parse_devices("pixel", ids, 4, &n, &e) == -1, "an unknown device");
	like(e.msg, "--devices", "the option is named");
	ok(amc_host_parse_devices("adb:*,adb:*", ids, 4, &n, &e) == -1, "adb:* twice is refused");
	ok(amc_host_parse_devices(",,", ids, 4, &n, &e) == -1, "an empty list");
	test_adb_star();
	return done_testing();
}
