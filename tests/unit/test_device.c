/* test_device.c - the device interface (src/device/device.c): key names, id
 * normalization and its errors, opening by id with dispatch to the right driver
 * (the sim, and the adb driver through the adb stand-in), closing, and the
 * per-device task lock. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/device.h"
#include "device/sim/sim.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"

static const char *home;

static void test_keys(void)
{
	amc_key k = AMC_KEY_HOME;
	ok(amc_key_parse("back", &k) == 0 && k == AMC_KEY_BACK, "back parses");
	ok(amc_key_parse("Home", &k) == 0 && k == AMC_KEY_HOME, "Maestro's Home parses");
	ok(amc_key_parse("ENTER", &k) == 0 && k == AMC_KEY_ENTER, "case-insensitive");
	k = AMC_KEY_BACK;
	ok(amc_key_parse("menu", &k) == -1 && k == AMC_KEY_BACK, "unknown key refused, output untouched");
	ok(amc_key_parse("", &k) == -1, "empty key refused");
	ok(amc_key_parse("back ", &k) == -1, "no trailing junk");
	amc_key all[] = {AMC_KEY_BACK, AMC_KEY_HOME, AMC_KEY_ENTER};
	int round = 0;
	for (size_t i = 0; i < 3; i++) {
		amc_key back;
		round += amc_key_parse(amc_key_name(all[i]), &back) == 0 && back == all[i];
	}
	is_int(round, 3, "every key's name parses back to it");
	is_str(amc_key_name((amc_key)42), "?", "out-of-range key has a placeholder name");
}

static int norm(const char *in, char *out, size_t n, amc_err *e)
{
	out[0] = '\0';
	return amc_device_id_normalize(in, out, n, e);
}

static void test_normalize(void)
{
	char out[128];
	amc_err e;
	static const struct {
		const char *in, *want;
	} good[] = {
		{"sim", "sim:0"},
		{"sim:0", "sim:0"},
		{"sim:3", "sim:3"},
		{"sim:0007", "sim:7"},
		{"sim:9999", "sim:9999"},
		{"adb:emulator-5554", "adb:emulator-5554"},
		{"adb:192.168.1.20:5555", "adb:192.168.1.20:5555"},
		{"adb:R58M_12.ab", "adb:R58M_12.ab"},
		{"appium:http://127.0.0.1:4723", "appium:http://127.0.0.1:4723"},
		{"appium:http://127.0.0.1:4723/", "appium:http://127.0.0.1:4723"},
		{"appium:https://grid.example/wd/hub//", "appium:https://grid.example/wd/hub"},
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		int rc = norm(good[i].in, out, sizeof out, &e);
		ok(rc == 0 && !strcmp(out, good[i].want), "'%s' -> '%s' (got '%s')", good[i].in, good[i].want,
		   rc == 0 ? out : e.msg);
	}
	static const char *bad[] = {
		"", "SIM", "sim:", "sim:-1", "sim:10000", "sim:1a", "sim: 1", "sim:0x1", "sim0", "simulator",
		"adb:", "adb:-serial", "adb:has space", "adb:a/b", "adb:semi;colon", "adb",
		"appium:", "appium:ftp://host", "appium:http://", "appium:http:///path", "appium:http://:4723",
		"appium:http://a b", "appium:http://h\"q", "appium:http://h<x>", "appium:localhost:4723",
		"usb:1", "ios:booted", "sim:0:1",
	};
	int refused = 0, usage = 0, listed = 0;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = norm(bad[i], out, sizeof out, &e);
		if (!ok(rc == -1, "'%s' refused", bad[i]))
			diag("normalized to '%s'", out);
		refused += rc == -1;
		usage += rc == -1 && e.code == AMC_EUSAGE;
		listed += rc == -1 && strstr(e.msg, "'sim:N'") && strstr(e.msg, "'adb:SERIAL'") && strstr(e.msg, "'appium:URL'");
	}
	is_int(usage, (int)(sizeof bad / sizeof bad[0]), "every refusal is a usage error");
	is_int(listed, refused, "every refusal lists the valid forms");
	ok(norm("bogus", out, sizeof out, &e) == -1 && strstr(e.msg, "unknown device 'bogus'"), "message names the id: %s",
	   e.msg);

	/* Over-long ids: a serial of 120+ bytes, a URL over 100 bytes. */
	char serial[200] = "adb:";
	memset(serial + 4, 'a', 130);
	serial[134] = '\0';
	ok(norm(serial, out, sizeof out, &e) == -1, "adb serial of 130 bytes refused");
	char url[200] = "appium:http://h/";
	memset(url + 16, 'p', 100);
	url[116] = '\0';
	ok(norm(url, out, sizeof out, &e) == -1, "Appium URL over 100 bytes refused");
	/* An Appium id that fits the id but not the caller's buffer is refused, not truncated. */
	char small[16];
	ok(amc_device_id_normalize("appium:http://127.0.0.1:4723", small, sizeof small, &e) == -1,
	   "appium id longer than the output buffer refused");

	/* Hostile ids are echoed sanitized and bounded. */
	ok(norm("evil\x1b[2J\x07id", out, sizeof out, &e) == -1 && !strchr(e.msg, '\x1b') && !strchr(e.msg, '\x07'),
	   "control characters in a bad id are not echoed raw");
	char huge[5000];
	memset(huge, 'x', sizeof huge - 1);
	huge[sizeof huge - 1] = '\0';
	ok(norm(huge, out, sizeof out, &e) == -1 && strlen(e.msg) < 600, "a 5000-byte id gives a bounded message (%zu)",
	   strlen(e.msg));
}

static void test_open_sim(void)
{
	amc_device *d = NULL;
	amc_err e;
	amc_device_info info;
	ok(amc_device_open("sim", home, NULL, &d, &e) == 0 && d, "open 'sim'");
	if (!d)
		return;
	is_str(d->id, "sim:0", "canonical id on the handle");
	is_str(d->ops->kind, "sim", "dispatched to the sim driver");
	ok(d->ops->info(d, &info, &e) == 0, "info through the vtable");
	is_str(info.id, "sim:0", "info id");
	is_str(info.kind, "sim", "info kind");
	ok(info.width == 1080 && info.height == 2400, "default size %dx%d", info.width, info.height);
	ok(d->ops->tap_element == NULL && d->ops->set_value == NULL, "the sim has no element operations");
	ok(d->ops->health(d, &e) == 0, "health");
	ok(d->ops->launch_app(d, "com.android.contacts", &e) == 0, "launch through the vtable");
	char *js = NULL;
	ok(amc_sim_state_json(d, &js, &e) == 0 && js && strstr(js, "\"app\":\"com.android.contacts\""),
	   "the call reached the sim's state");
	free(js);
	amc_device_close(d);

	char dir[PATH_MAX];
	struct stat st;
	d = NULL;
	ok(amc_device_open("sim:0042", home, NULL, &d, &e) == 0 && d, "open 'sim:0042'");
	if (d) {
		is_str(d->id, "sim:42", "leading zeros dropped");
		ok(d->ops->info(d, &info, &e) == 0 && !strcmp(info.id, "sim:42"), "info says sim:42");
		amc_device_close(d);
	}
	snprintf(dir, sizeof dir, "%s/sim/42/state.json", home);
	ok(stat(dir, &st) == 0, "sim:42 keeps its state under sim/42");

	/* Configuration reaches the driver. */
	amc_config *c = amc_config_new();
	ok(amc_config_set(c, "sim", "width", "720", "test", &e) == 0 && amc_config_set(c, "sim", "height", "1600", "test", &e) == 0,
	   "config 720x1600");
	d = NULL;
	ok(amc_device_open("sim:7", home, c, &d, &e) == 0 && d, "open sim:7 with a config");
	if (d) {
		ok(d->ops->info(d, &info, &e) == 0 && info.width == 720 && info.height == 1600, "configured size %dx%d",
		   info.width, info.height);
		amc_device_close(d);
	}
	amc_config_free(c);

	d = (amc_device *)&d; /* a sentinel: a failed open must not hand out a device */
	amc_device *keep = d;
	ok(amc_device_open("nope:1", home, NULL, &d, &e) == -1 && e.code == AMC_EUSAGE, "unknown scheme refused");
	ok(d == keep, "no device handed out for a malformed id");
	d = NULL;
	ok(amc_device_open("sim:1", "", NULL, &d, &e) == -1 && d == NULL && strstr(e.msg, "AMC_HOME"),
	   "sim without a home refused: %s", e.msg);
	amc_device_close(NULL); /* no effect to see: a crash here fails the plan */
}

static void test_open_adb(void)
{
	const char *build = getenv("AMC_TEST_BUILDDIR");
	char prog[PATH_MAX];
	snprintf(prog, sizeof prog, "%s/tests/tools/adb-standin", build && *build ? build : ".");
	if (access(prog, X_OK) != 0) {
		diag("adb stand-in not built: adb dispatch not checked");
		return;
	}
	amc_err e;
	amc_config *c = amc_config_new();
	amc_config_set(c, "adb", "path", prog, "test", &e);
	unsetenv("AMC_ADB_STANDIN_SERIALS");
	amc_device *d = NULL;
	ok(amc_device_open("adb:emulator-5554", home, c, &d, &e) == 0 && d, "open adb:emulator-5554 (stand-in)");
	if (d) {
		is_str(d->ops->kind, "adb", "dispatched to the adb driver");
		is_str(d->id, "adb:emulator-5554", "id on the handle");
		amc_device_info info;
		ok(d->ops->info(d, &info, &e) == 0 && info.width == 1080, "adb info through the vtable (%d)", info.width);
		amc_device_close(d);
	}
	d = NULL;
	ok(amc_device_open("adb:nosuchphone", home, c, &d, &e) == -1 && d == NULL && e.code == AMC_EENV,
	   "an absent serial is an environment error: %s", e.msg);
	amc_config_set(c, "adb", "path", "/nonexistent/adb", "test", &e);
	ok(amc_device_open("adb:emulator-5554", home, c, &d, &e) == -1 && d == NULL, "missing adb program: %s", e.msg);
	amc_config_free(c);
}

static void test_open_appium(void)
{
	amc_err e;
	amc_device *d = NULL;
	amc_config *c = amc_config_new();
	amc_config_set(c, "appium", "timeout_ms", "2000", "test", &e);
	amc_config_set(c, "appium", "capabilities", "{\"platformName\":\"Android\"}", "test", &e);
	unsetenv("AMC_APPIUM_CAPS");
	/* Port 1 on loopback: nothing listens, the connection is refused at once. */
	ok(amc_device_open("appium:http://127.0.0.1:1/", home, c, &d, &e) == -1 && d == NULL, "unreachable Appium refused");
	ok(e.code == AMC_EENV && !strstr(e.msg, "unknown device"), "by the Appium driver, as an environment error: %s",
	   e.msg);
	amc_config_free(c);
}

static void test_lock(void)
{
	char name[256];
	amc_err e;
	amc_device_lock_name("sim:0", name, sizeof name);
	is_str(name, "device-sim:0", "lock name");
	amc_device_lock_name("appium:http://h:1/x", name, sizeof name);
	is_str(name, "device-appium:http://h:1/x", "lock name of an Appium device");
	char tiny[8];
	amc_device_lock_name("sim:1234", tiny, sizeof tiny);
	is_int(strlen(tiny), sizeof tiny - 1, "lock name truncated to the buffer");

	amc_lock *a = NULL, *b = NULL;
	ok(amc_device_lock(home, "sim:0", "01jtask", &a, &e) == 0 && a, "lock sim:0");
	ok(amc_device_lock(home, "sim:0", "01jother", &b, &e) == -1 && b == NULL, "second holder refused");
	is_int(e.code, AMC_EENV, "as an environment error");
	char want[128];
	snprintf(want, sizeof want, "device sim:0 is busy with task 01jtask (pid %ld)", (long)getpid());
	like(e.msg, want, "message names the holding task and pid");
	amc_lock *c = NULL;
	ok(amc_device_lock(home, "sim:1", "01jother", &c, &e) == 0 && c, "another device is independent");
	amc_device_unlock(c);
	amc_device_unlock(a);
	ok(amc_device_lock(home, "sim:0", "01jother", &b, &e) == 0 && b, "free again after unlock");
	amc_device_unlock(b);

	/* Held with no task: the message says so instead of naming one. */
	ok(amc_device_lock(home, "sim:2", NULL, &a, &e) == 0, "lock with no task id");
	ok(amc_device_lock(home, "sim:2", "x", &b, &e) == -1 && strstr(e.msg, "device sim:2 is busy (held by pid"),
	   "anonymous holder: %s", e.msg);
	amc_device_unlock(a);
	/* A hostile task id is not echoed raw. */
	ok(amc_device_lock(home, "sim:3", "ev\x1bil", &a, &e) == 0, "lock with a hostile task id");
	ok(amc_device_lock(home, "sim:3", "x", &b, &e) == -1 && !strchr(e.msg, '\x1b'), "holder sanitized: %s", e.msg);
	amc_device_unlock(a);
	amc_device_unlock(NULL);
	ok(amc_device_lock(home, "sim:3", "y", &a, &e) == 0, "unlocked (and unlocking NULL touched no lock): sim:3 is free");
	amc_device_unlock(a);
}

/* set_device's values: Maestro's orientation names as Android's rotation. */
static void test_settings(void)
{
	amc_dev_setting s;
	ok(amc_dev_setting_parse("add_media", &s) == 0 && s == AMC_SET_ADD_MEDIA, "add_media");
	ok(amc_dev_setting_parse("gps", &s) == -1, "an unknown setting");
	is_str(amc_dev_setting_name(AMC_SET_AIRPLANE), "airplane", "its name");
	ok(amc_orientation_parse("PORTRAIT") == 0 && amc_orientation_parse("LANDSCAPE_LEFT") == 1 &&
	   amc_orientation_parse("upside_down") == 2 && amc_orientation_parse("landscapeRight") == 3,
	   "Maestro's and amc's names: user_rotation 0-3");
	ok(amc_orientation_parse("sideways") == -1 && amc_orientation_parse("") == -1, "others: -1");
	is_str(amc_orientation_name(1), "landscape_left", "amc's name");
	double la, lo;
	ok(amc_location_parse("52.52, 13.40", &la, &lo) == 0 && la > 52.5 && lo < 13.5, "LAT, LON");
	ok(amc_location_parse("91,0", &la, &lo) == -1 && amc_location_parse("1,181", &la, &lo) == -1 &&
	   amc_location_parse("1", &la, &lo) == -1 && amc_location_parse("1,2x", &la, &lo) == -1,
	   "out of range or not numbers: refused");
	/* on/off/toggle: one reading and one message for the sim, adb and Appium */
	amc_err e = { 0 };
	ok(amc_dev_switch_parse(AMC_SET_AIRPLANE, "on", &e) == 1 && amc_dev_switch_parse(AMC_SET_DARK_MODE, "off", &e) == 0 &&
	   amc_dev_switch_parse(AMC_SET_DARK_MODE, "toggle", &e) == AMC_SWITCH_TOGGLE, "on, off, toggle");
	ok(amc_dev_switch_parse(AMC_SET_AIRPLANE, "ON", &e) == -1, "a value in capitals is refused");
	is_str(e.msg, "airplane mode must be on, off or toggle", "says what it takes");
	ok(amc_dev_switch_parse(AMC_SET_DARK_MODE, NULL, &e) == -1 && strstr(e.msg, "dark mode"), "no value: refused, named");
}

int main(void)
{
	test_settings();
	home = test_home("device");
	test_keys();
	test_normalize();
	test_open_sim();
	test_open_adb();
	test_open_appium();
	test_lock();
	return done_testing();
}
