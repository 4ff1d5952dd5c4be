/* Fuzz target: what adb prints, read by amc (device/adb.c, adb_list.c,
 * adb_caps.c): `adb devices -l`, `wm size`, `dumpsys window` and `pm list
 * packages` (list_apps, and a fleet host's capability values made of it:
 * devcaps.c). The same bytes go to
 * each parser; what they return is made terminal-safe as `amc devices` and
 * the error messages do. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "device/adb.h"
#include "fleet/fleet.h"
#include "host/devcaps.h"
#include "device/adb_list.h"
#include "device/device.h"
#include "util/sanitize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	amc_adb_entry *list = NULL;
	size_t n = 0;
	if (amc_adb_parse_devices(s, &list, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			free(amc_sanitize_dup(list[i].serial));
			free(amc_sanitize_dup(list[i].state));
			free(amc_sanitize_dup(list[i].model));
			(void)amc_adb_serial_valid(list[i].serial);
		}
	}
	free(list);
	int w = 0, h = 0;
	if (amc_adb_parse_wm_size(s, &w, &h) == 0 && (w < 1 || h < 1 || w > 100000 || h > 100000))
		abort(); /* a size out of range must be refused */
	char *pkg = amc_adb_parse_focus(s);
	free(pkg);
	free(amc_adb_quote_input_text(s));
	char **apps = NULL;
	size_t na = 0;
	amc_adb_parse_packages(s, &apps, &na, AMC_DEVCAPS_MAX);
	amc_devcaps dc = { .n = 0 };
	amc_devcaps_add(&dc, "model", s); /* a model or version as the phone says it */
	for (size_t i = 0; i < na; i++) {
		if (!apps[i][0] || apps[i][0] == '-' || strpbrk(apps[i], " \t\r\n"))
			abort(); /* only ids amc could launch */
		amc_devcaps_add(&dc, "app", apps[i]);
		free(apps[i]);
	}
	free(apps);
	for (size_t i = 0; i < dc.n; i++)
		if (!amc_fleet_need_ok(dc.v[i]))
			abort(); /* every capability is one the database takes */
	/* list_apps: every id it keeps is one amc hands to am/pm as it is */
	char *ids = amc_adb_package_lines(s);
	int k = 0;
	for (char *p = ids, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			abort(); /* every id ends its line */
		*nl = '\0';
		if (!amc_adb_app_id_valid(p) || strchr(p, '/') || ++k > AMC_APPS_MAX)
			abort();
	}
	free(ids);
	free(s);
	return 0;
}
