/* appium_int.h - what appium.c shares with appium_set.c (the device
 * settings by platform); not for callers outside the Appium driver. */
#ifndef AMC_DEVICE_APPIUM_INT_H
#define AMC_DEVICE_APPIUM_INT_H

#include <cjson/cJSON.h>

#include "device/device.h"
#include "util/err.h"

/* One request under the session (`sub` after /session/ID); *value (caller
 * frees) gets the answer's value. 0, or -1 with e filled. */
int amc_appium_sreq(amc_device *d, const char *method, const char *sub, const cJSON *in, cJSON **value,
		    amc_err *e);
/* "android", "ios", or NULL (unknown) for an open Appium device. */
const char *amc_appium_dev_platform(amc_device *d);
/* set_device and get for airplane mode, dark mode and media (appium_set.c). */
int amc_appium_set_setting(amc_device *d, amc_dev_setting what, const char *value, amc_err *e);
int amc_appium_get_setting(amc_device *d, amc_dev_setting what, char *out, size_t n, amc_err *e);
/* A file name safe on the device and in its media store. */
int amc_appium_media_name_ok(const char *n);

#endif
