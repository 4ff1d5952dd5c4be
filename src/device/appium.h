/* appium.h - any device an Appium server drives (Android UiAutomator2, iOS
 * XCUITest, the fake driver), over W3C WebDriver with libcurl.
 *
 * The device id is appium:URL (URL = the server's base, http://HOST:PORT or
 * with a path such as /wd/hub). A session is created on open with
 * {"capabilities":{"alwaysMatch":CAPS,"firstMatch":[{}]}} where CAPS is the
 * JSON object in the file named by AMC_APPIUM_CAPS, else [appium] capabilities;
 * vendor capabilities need their prefix ("appium:automationName"). Every
 * request has the wall-clock limit [appium] timeout_ms and is sent with
 * Content-Type: application/json. Errors are read from value.error (never the
 * HTTP status alone) and become messages naming the server and what to do; a
 * session the server forgot (invalid session id) is created again once.
 *
 * tap/long_press/swipe are W3C pointer actions (touch); back is POST /back,
 * falling back to the Android BACK key event when the driver answers unknown
 * method/command. tap_element and set_value find the element (xpath over id,
 * resource-id, name, accessibility id, text, label, value) and click it or
 * send it the text. Sizes are the window rect (points on iOS). */
#ifndef AMC_APPIUM_H
#define AMC_APPIUM_H

#include <cjson/cJSON.h>

#include "device/device.h"

/* Open a session on the server at `url`. AMC_EENV when the server does not
 * answer or refuses the session; AMC_EUSAGE when no capabilities are set or
 * they are not a JSON object. */
int amc_appium_open(const char *url, const amc_config *cfg, amc_device **out, amc_err *e);

/* 0 when the server at `url` answers GET /status with a WebDriver value
 * (no session is created). AMC_EENV with the reason otherwise. */
int amc_appium_status(const char *url, long timeout_ms, amc_err *e);

/* A WebDriver answer (HTTP `status`, `body` of `len` bytes, untrusted) to
 * METHOD PATH on the server at `url`: 0 and *value (caller frees; NULL when
 * value is NULL) the answer's "value"; -1 a failure, -2 the session is gone,
 * -3 the server does not know the method, each with e saying so (a body
 * that is not a WebDriver answer is AMC_EENV). Exposed for the fuzz target. */
struct cJSON;
int amc_appium_answer(const char *url, const char *method, const char *path, long status, const char *body,
		      size_t len, struct cJSON **value, amc_err *e);

/* The app ids in `mobile: listApps`' value (an object keyed by bundle id,
 * as XCUITest answers, or a list of ids), one a line, each of app-id
 * characters and at most 255 bytes, at most AMC_APPS_MAX; malloc'd, never
 * NULL. Exposed for the fuzz target. */
char *amc_appium_parse_apps(const struct cJSON *value);

/* The session id of an open Appium device ("" for other devices). */
const char *amc_appium_session(amc_device *d);
/* The platform the configured capabilities ([appium] capabilities or
 * AMC_APPIUM_CAPS) ask for, as Maestro names it: "ios" when platformName is
 * iOS (any case), else "android" (also when they cannot be read). Static. */
const char *amc_appium_platform(const amc_config *cfg);
/* The platform of the configured capabilities when it can be told:
 * [appium] platform (android|ios), else platformName, else automationName
 * (UiAutomator2/Espresso: android, XCUITest: ios); NULL when unknown. */
const char *amc_appium_platform_known(const amc_config *cfg);
/* The same from capabilities and an [appium] platform value (NULL or "auto"). */
const char *amc_appium_platform_of(const cJSON *caps, const char *setting);
/* Why an Appium device of this platform ("android", "ios", NULL unknown)
 * cannot change or read `what` (airplane mode, dark mode, media), NULL when
 * it can: iOS has no airplane-mode command; an unknown platform cannot be
 * chosen for. Static text. */
const char *amc_appium_cannot_set(const char *platform, amc_dev_setting what);
/* The device kind a check uses for Appium: "appium-android", "appium-ios"
 * when the configured platform is known, else "appium". */
const char *amc_appium_kind_for(const amc_config *cfg);
/* amc_appium_cannot_set for such a kind ("appium": platform unknown). */
const char *amc_appium_kind_cannot(const char *kind, amc_dev_setting what);

#endif
