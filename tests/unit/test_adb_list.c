/* test_adb_list.c - the phones adb can see (src/device/adb_list.c): parsing
 * `adb devices -l` as real adb prints it, untrusted text made terminal-safe,
 * and a missing or failing adb reported with what to do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "device/adb.h"
#include "device/adb_int.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"

static void test_parse_devices(void)
{
	amc_adb_entry *v = NULL;
	size_t n = 0;
	const char *text = "* daemon not running; starting now at tcp:5037\n* daemon started successfully\n"
			   "List of devices attached\n"
			   "R58M123ABC             device usb:1-1 product:beyond1 model:SM_G973F device:beyond1 transport_id:3\n"
			   "192.168.1.20:5555      unauthorized transport_id:4\n"
			   "0123456789ABCDEF       no permissions (user in plugdev group; are your udev rules wrong?); see [http://developer.android.com/tools/device.html]\n"
			   "emulator-5556\toffline\n\n";
	ok(amc_adb_parse_devices(text, &v, &n) == 0, "parse adb devices -l");
	is_int(n, 4, "four devices");
	if (n == 4) {
		is_str(v[0].serial, "R58M123ABC", "serial");
		is_str(v[0].state, "device", "state");
		is_str(v[0].model, "SM_G973F", "model");
		is_str(v[1].state, "unauthorized", "unauthorized");
		is_str(v[2].state, "no permissions", "no permissions");
		is_str(v[3].serial, "emulator-5556", "tab-separated serial");
		is_str(v[3].state, "offline", "offline");
	}
	free(v);
	ok(amc_adb_parse_devices("garbage", &v, &n) == -1, "text without the header refused");
	ok(v == NULL && n == 0, "and nothing returned");

	ok(amc_adb_parse_devices("List of devices attached\n", &v, &n) == 0 && n == 0, "no phones: an empty list");
	free(v);

	/* A phone's model is whatever its vendor (or an attacker) wrote. */
	ok(amc_adb_parse_devices("List of devices attached\nX1 device model:\x1b]52;c;AAAA\x07evil\n", &v, &n) == 0 && n == 1,
	   "a hostile model is read");
	if (n == 1)
		ok(!strchr(v[0].model, 0x1b) && !strchr(v[0].model, 0x07), "and made terminal-safe: '%s'", v[0].model);
	free(v);

	char big[600];
	memset(big, 'S', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	char t[800];
	snprintf(t, sizeof t, "List of devices attached\n%s device\nOK1 device\n", big);
	ok(amc_adb_parse_devices(t, &v, &n) == 0 && n == 1 && !strcmp(v[0].serial, "OK1"),
	   "a serial too long for the table is skipped, the next line read");
	free(v);
}

static void test_first_line(void)
{
	char out[64];
	amc_adb_first_line("\n  error: device 'x' not found\nmore", out, sizeof out);
	is_str(out, "error: device 'x' not found", "the first non-blank line");
	amc_adb_first_line("bad\x1b[2Jthing", out, sizeof out);
	ok(!strchr(out, 0x1b), "made terminal-safe");
	amc_adb_first_line(NULL, out, sizeof out);
	is_str(out, "", "NULL is empty");
	char big[400];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	char wide[400];
	amc_adb_first_line(big, wide, sizeof wide);
	is_int(strlen(wide), 200, "bounded to 200 bytes");
}

static void test_list_errors(const char *home)
{
	amc_config *cfg = amc_config_new();
	amc_err e;
	amc_adb_entry *v = NULL;
	size_t n = 0;
	amc_config_set(cfg, "adb", "path", "/nonexistent/adb", "test", &e);
	ok(amc_adb_list(cfg, &v, &n, &e) == -1 && v == NULL && n == 0, "a missing adb is an error");
	like(e.msg, "install the Debian package 'adb'", "saying how to get it");

	char script[4200];
	snprintf(script, sizeof script, "%s/fake-adb", home);
	FILE *f = fopen(script, "w");
	fputs("#!/bin/sh\necho 'adb: server version (41) does not match' >&2\nexit 1\n", f);
	fclose(f);
	chmod(script, 0700);
	amc_config_set(cfg, "adb", "path", script, "test", &e);
	ok(amc_adb_list(cfg, &v, &n, &e) == -1 && v == NULL, "a failing adb is an error");
	like(e.msg, "`adb devices -l` failed", "naming the command");
	like(e.msg, "server version (41) does not match", "with adb's own words");

	f = fopen(script, "w");
	fputs("#!/bin/sh\necho 'List of devices attached'\necho 'ABC device model:P7'\n", f);
	fclose(f);
	ok(amc_adb_list(cfg, &v, &n, &e) == 0 && n == 1 && !strcmp(v[0].model, "P7"), "a working adb lists its phone");
	free(v);
	amc_config_free(cfg);
}

int main(void)
{
	const char *home = test_home("adblist");
	test_parse_devices();
	test_first_line();
	test_list_errors(home);
	return done_testing();
}
