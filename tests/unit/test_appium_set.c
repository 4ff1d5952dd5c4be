/* test_appium_set.c - which `mobile:` command an Appium device's platform
 * gets for airplane mode, dark mode and media, and what is refused before a
 * run (amc flow check) and at run time alike. The requests themselves go to
 * a real Appium server in tests/integration/test_appium.sh. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device/appium.h"
#include "device/appium_int.h"
#include "tap.h"

static const char *of(const char *caps_json, const char *setting)
{
	cJSON *c = cJSON_Parse(caps_json);
	const char *p = amc_appium_platform_of(c, setting);
	cJSON_Delete(c);
	return p;
}

int main(void)
{
	is_str(of("{\"platformName\":\"Android\"}", NULL), "android", "platformName Android");
	is_str(of("{\"platformName\":\"IOS\"}", "auto"), "ios", "platformName iOS, any case; auto reads it");
	is_str(of("{\"platformName\":\"x\",\"appium:automationName\":\"UiAutomator2\"}", NULL), "android",
	       "else automationName UiAutomator2: android");
	is_str(of("{\"automationName\":\"XCUITest\"}", NULL), "ios", "unprefixed XCUITest: ios");
	ok(of("{\"platformName\":\"Fake\",\"appium:automationName\":\"Fake\"}", NULL) == NULL, "Fake: unknown");
	is_str(of("{\"platformName\":\"Fake\"}", "android"), "android", "[appium] platform android wins");
	ok(amc_appium_platform_of(NULL, NULL) == NULL, "no capabilities: unknown");

	ok(amc_appium_cannot_set("android", AMC_SET_AIRPLANE) == NULL, "Android switches airplane mode");
	ok(amc_appium_cannot_set("android", AMC_SET_DARK_MODE) == NULL, "and dark mode");
	ok(amc_appium_cannot_set("android", AMC_SET_ADD_MEDIA) == NULL, "and adds media");
	const char *w = amc_appium_cannot_set("ios", AMC_SET_AIRPLANE);
	ok(w && strstr(w, "iOS (XCUITest) has no command to switch airplane mode"), "iOS: airplane mode refused, why: %s",
	   w ? w : "");
	ok(amc_appium_cannot_set("ios", AMC_SET_DARK_MODE) == NULL, "iOS switches dark mode (setAppearance)");
	ok(amc_appium_cannot_set("ios", AMC_SET_ADD_MEDIA) == NULL, "iOS adds media (push_file)");
	w = amc_appium_cannot_set(NULL, AMC_SET_DARK_MODE);
	ok(w && strstr(w, "platform is unknown") && strstr(w, "mobile: setUiMode") && strstr(w, "mobile: setAppearance"),
	   "unknown platform: dark mode refused, naming both commands and how to name the platform");
	ok(amc_appium_cannot_set(NULL, AMC_SET_LOCATION) == NULL, "location is not this module's (POST /location)");

	ok(amc_appium_kind_cannot("appium-android", AMC_SET_AIRPLANE) == NULL, "kind appium-android: airplane mode");
	ok(amc_appium_kind_cannot("appium-ios", AMC_SET_AIRPLANE) != NULL, "kind appium-ios: none");
	ok(amc_appium_kind_cannot("appium", AMC_SET_ADD_MEDIA) != NULL, "kind appium: platform unknown");

	ok(amc_appium_media_name_ok("cat_1.png"), "a plain file name");
	ok(!amc_appium_media_name_ok("../x.png") && !amc_appium_media_name_ok("-x") && !amc_appium_media_name_ok("a b"),
	   "no path, option or space");
	return done_testing();
}
