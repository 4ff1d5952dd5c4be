/* appium_int.h - what appium.c shares with appium_set.c (the device
 * settings by platform); not for callers outside the Appium driver. */
#ifndef AMC_DEVICE_APPIUM_INT_H
#define AMC_DEVICE_APPIUM_INT_H

#include <cjson/cJSON.h>

#include "device/device.h"
#include "util/err.h"

/* What appium_set.c is handed of an open session, so that it never names
 * appium.c (which calls it): the device, its platform ("android", "ios", or
 * NULL: unknown) and one request under the session (`sub` after
 * /session/ID; *value, caller frees, the answer's value; 0, or -1 with e). */
typedef struct amc_appium_link {
	amc_device *d;
	const char *platform;
	int (*sreq)(amc_device *d, const char *method, const char *sub, const cJSON *in, cJSON **value,
		    amc_err *e);
} amc_appium_link;
/* set_device and get for airplane mode, dark mode and media (appium_set.c). */
int amc_appium_set_setting(const amc_appium_link *l, amc_dev_setting what, const char *value, amc_err *e);
int amc_appium_get_setting(const amc_appium_link *l, amc_dev_setting what, char *out, size_t n, amc_err *e);
/* A file name safe on the device and in its media store. */
int amc_appium_media_name_ok(const char *n);

#endif
