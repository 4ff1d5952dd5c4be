/* appium_set.c - the Appium driver's device settings that exist only as
 * per-platform `mobile:` scripts, chosen by the session's platform.
 *
 * Android (UiAutomator2, appium-android-driver): airplane mode with
 * `mobile: setConnectivity {airplaneMode}` and read with `mobile:
 * getConnectivity {services: ["airplaneMode"]}`; dark mode with `mobile:
 * setUiMode {mode: "night", value: "yes"|"no"}` and read with `mobile:
 * getUiMode {mode: "night"}` (the driver runs `cmd uimode night`, Android 10+).
 * iOS (XCUITest): dark mode with `mobile: setAppearance {style}` and read
 * with `mobile: getAppearance`; iOS lets no test switch airplane mode, so
 * that is refused, naming why. Media on both: POST appium/device/push_file;
 * UiAutomator2 scans what lands in /sdcard/Pictures into the gallery,
 * XCUITest adds a file pushed without an @bundle: prefix to a simulator's
 * Photos (simctl addmedia). The platform comes from the capabilities
 * (platformName, else automationName) or [appium] platform; an unknown one
 * is refused, saying how to name it. The same rules answer `amc flow check`
 * before a run (amc_appium_kind_cannot), so check and run agree. */
#include "device/appium.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "device/appium_int.h"
#include "util/base64.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"

#define AP_MAX_MEDIA (64u * 1024u * 1024u)

const char *amc_appium_platform_of(const cJSON *caps, const char *setting)
{
	if (setting && (!strcmp(setting, "android") || !strcmp(setting, "ios")))
		return setting;
	const char *p = caps ? amc_json_str(caps, "platformName") : NULL;
	if (p && !strcasecmp(p, "android"))
		return "android";
	if (p && !strcasecmp(p, "ios"))
		return "ios";
	const char *a = caps ? amc_json_str(caps, "appium:automationName") : NULL;
	if (!a && caps)
		a = amc_json_str(caps, "automationName");
	if (a && (!strcasecmp(a, "UiAutomator2") || !strcasecmp(a, "Espresso")))
		return "android";
	if (a && !strcasecmp(a, "XCUITest"))
		return "ios";
	return NULL;
}

const char *amc_appium_cannot_set(const char *platform, amc_dev_setting what)
{
	if (what != AMC_SET_AIRPLANE && what != AMC_SET_DARK_MODE && what != AMC_SET_ADD_MEDIA)
		return NULL;
	if (!platform)
		return what == AMC_SET_AIRPLANE
			       ? "the Appium platform is unknown: name it (platformName Android or iOS in [appium] "
				 "capabilities, or [appium] platform); Android switches airplane mode with UiAutomator2's "
				 "`mobile: setConnectivity`, iOS cannot"
		       : what == AMC_SET_DARK_MODE
			       ? "the Appium platform is unknown: name it (platformName Android or iOS in [appium] "
				 "capabilities, or [appium] platform); Android uses UiAutomator2's `mobile: setUiMode`, iOS "
				 "XCUITest's `mobile: setAppearance`"
			       : "the Appium platform is unknown: name it (platformName Android or iOS in [appium] "
				 "capabilities, or [appium] platform) so amc knows where a pushed file lands in the gallery";
	if (!strcmp(platform, "ios") && what == AMC_SET_AIRPLANE)
		return "iOS (XCUITest) has no command to switch airplane mode: iOS lets no test change it";
	return NULL;
}

const char *amc_appium_kind_cannot(const char *kind, amc_dev_setting what)
{
	const char *p = !strcmp(kind, "appium-android") ? "android" : !strcmp(kind, "appium-ios") ? "ios" : NULL;
	return amc_appium_cannot_set(p, what);
}

/* One `mobile:` script with one argument object (taken); its answer in *value. */
static int exec(const amc_appium_link *l, const char *script, cJSON *arg, cJSON **value, amc_err *e)
{
	cJSON *in = cJSON_CreateObject();
	cJSON_AddStringToObject(in, "script", script);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(in, "args"), arg);
	int rc = l->sreq(l->d, "POST", "/execute/sync", in, value, e);
	cJSON_Delete(in);
	return rc == 0 ? 0 : amc_err_prefix(e, "%s", script);
}

int amc_appium_get_setting(const amc_appium_link *l, amc_dev_setting what, char *out, size_t n, amc_err *e)
{
	const char *p = l->platform;
	const char *why = amc_appium_cannot_set(p, what);
	if (why)
		return amc_err_set(e, AMC_EUSAGE, "%s", why);
	cJSON *v = NULL, *arg = cJSON_CreateObject();
	int on = -1;
	if (what == AMC_SET_AIRPLANE) {
		cJSON_AddItemToArray(cJSON_AddArrayToObject(arg, "services"), cJSON_CreateString("airplaneMode"));
		if (exec(l, "mobile: getConnectivity", arg, &v, e) != 0)
			return -1;
		const cJSON *a = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "airplaneMode") : NULL;
		on = cJSON_IsBool(a) ? cJSON_IsTrue(a) : -1;
	} else if (what == AMC_SET_DARK_MODE && !strcmp(p, "android")) {
		cJSON_AddStringToObject(arg, "mode", "night");
		if (exec(l, "mobile: getUiMode", arg, &v, e) != 0)
			return -1;
		const char *s = cJSON_IsString(v) ? v->valuestring : "";
		on = !strcmp(s, "yes") ? 1 : !strcmp(s, "no") ? 0 : -1;
	} else if (what == AMC_SET_DARK_MODE) {
		if (exec(l, "mobile: getAppearance", arg, &v, e) != 0)
			return -1;
		const char *s = cJSON_IsObject(v) ? amc_json_str(v, "style") : NULL;
		on = s && !strcmp(s, "dark") ? 1 : s && !strcmp(s, "light") ? 0 : -1;
	} else {
		cJSON_Delete(arg);
		return amc_err_set(e, AMC_EUSAGE, "amc does not read the %s through Appium", amc_dev_setting_name(what));
	}
	cJSON_Delete(v);
	if (on < 0)
		return amc_err_set(e, AMC_EFAIL, "the device's %s is neither on nor off", amc_dev_setting_name(what));
	snprintf(out, n, "%s", on ? "on" : "off");
	return 0;
}

static int push_media(const amc_appium_link *l, const char *platform, const char *path, amc_err *e)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!amc_appium_media_name_ok(base)) {
		char *q = amc_sanitize_dup(base);
		amc_err_set(e, AMC_EUSAGE, "addMedia: '%.120s' cannot be a file name on the device (letters, digits, "
			    ". _ - only)", q);
		free(q);
		return -1;
	}
	char *data = NULL;
	size_t len = 0;
	if (amc_read_file(path, AP_MAX_MEDIA, &data, &len, e) != 0)
		return amc_err_prefix(e, "addMedia");
	char *b64 = amc_base64_encode(data, len);
	free(data);
	char remote[160];
	/* Android: the gallery's folder (the driver scans it in); iOS: a bare
	 * name, which XCUITest adds to the Photos library */
	snprintf(remote, sizeof remote, "%s%s", !strcmp(platform, "android") ? "/sdcard/Pictures/" : "", base);
	cJSON *in = cJSON_CreateObject();
	cJSON_AddStringToObject(in, "path", remote);
	cJSON_AddStringToObject(in, "data", b64);
	free(b64);
	int rc = l->sreq(l->d, "POST", "/appium/device/push_file", in, NULL, e);
	cJSON_Delete(in);
	return rc == 0 ? 0 : amc_err_prefix(e, "addMedia (appium/device/push_file)");
}

int amc_appium_set_setting(const amc_appium_link *l, amc_dev_setting what, const char *value, amc_err *e)
{
	const char *p = l->platform;
	const char *why = amc_appium_cannot_set(p, what);
	if (why)
		return amc_err_set(e, AMC_EUSAGE, "%s", why);
	if (what == AMC_SET_ADD_MEDIA)
		return push_media(l, p, value, e);
	if (what != AMC_SET_AIRPLANE && what != AMC_SET_DARK_MODE)
		return amc_err_set(e, AMC_EUSAGE, "amc's Appium driver cannot change the %s", amc_dev_setting_name(what));
	int on = amc_dev_switch_parse(what, value, e);
	if (on < 0)
		return -1;
	if (on == AMC_SWITCH_TOGGLE) {
		char now[8];
		if (amc_appium_get_setting(l, what, now, sizeof now, e) != 0)
			return -1;
		on = strcmp(now, "on") != 0;
	}
	cJSON *arg = cJSON_CreateObject();
	if (what == AMC_SET_AIRPLANE) {
		cJSON_AddBoolToObject(arg, "airplaneMode", on);
		return exec(l, "mobile: setConnectivity", arg, NULL, e);
	}
	if (!strcmp(p, "android")) {
		cJSON_AddStringToObject(arg, "mode", "night");
		cJSON_AddStringToObject(arg, "value", on ? "yes" : "no");
		return exec(l, "mobile: setUiMode", arg, NULL, e);
	}
	cJSON_AddStringToObject(arg, "style", on ? "dark" : "light");
	return exec(l, "mobile: setAppearance", arg, NULL, e);
}

int amc_appium_media_name_ok(const char *n)
{
	size_t len = strlen(n);
	if (len == 0 || len > 120 || n[0] == '.' || n[0] == '-')
		return 0;
	for (const char *c = n; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
		      *c == '_' || *c == '-'))
			return 0;
	return 1;
}
