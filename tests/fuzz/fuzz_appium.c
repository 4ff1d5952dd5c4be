/* Fuzz target: an Appium server's WebDriver answers (device/appium.c,
 * amc_appium_answer): any body with a few HTTP statuses. A "value" handed
 * back must be an item of its own, and an error's message must fit. The
 * same bytes as JSON are read as mobile: listApps' value. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device/appium.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const long STATUS[] = { 200, 404, 500 };
	for (size_t i = 0; i < sizeof STATUS / sizeof STATUS[0]; i++) {
		cJSON *v = NULL;
		amc_err e;
		int rc = amc_appium_answer("http://127.0.0.1:4723", "POST", "/session/x/element", STATUS[i],
					   (const char *)data, size, &v, &e);
		if (rc == 0) {
			char *t = cJSON_PrintUnformatted(v);
			cJSON_free(t);
			cJSON_Delete(v);
		} else if (strlen(e.msg) >= sizeof e.msg) {
			__builtin_trap();
		}
	}
	/* mobile: listApps' value: only app-id characters come out */
	cJSON *j = cJSON_ParseWithLength((const char *)data, size);
	char *ids = amc_appium_parse_apps(j);
	if (strspn(ids, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-\n") != strlen(ids))
		__builtin_trap();
	free(ids);
	cJSON_Delete(j);
	return 0;
}
