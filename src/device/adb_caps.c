/* adb_caps.c - what a phone says of itself for a fleet host's capabilities
 * (host/devcaps.h): its Android version and the apps installed on it. */
#include <stdlib.h>
#include <string.h>

#include "device/adb.h"
#include "device/adb_int.h"
#include "util/strbuf.h"

int amc_adb_describe(amc_device *d, char *os, size_t n, char ***apps, size_t *napps, size_t max, amc_err *e)
{
	*apps = NULL;
	*napps = 0;
	if (n)
		os[0] = 0;
	char *out = NULL;
	const char *ver[] = { "getprop", "ro.build.version.release", NULL };
	if (amc_adb_sh(adb_of(d), ver, &out, e) != 0)
		return -1;
	amc_adb_first_line(out, os, n);
	free(out);
	out = NULL;
	/* -3: the apps beyond the system's, which is what work asks for */
	const char *pm[] = { "pm", "list", "packages", "-3", NULL };
	if (amc_adb_sh(adb_of(d), pm, &out, e) != 0)
		return -1;
	amc_adb_parse_packages(out, apps, napps, max);
	free(out);
	return 0;
}

void amc_adb_parse_packages(const char *text, char ***apps, size_t *napps, size_t max)
{
	*apps = NULL;
	*napps = 0;
	char *copy = amc_xstrdup(text ? text : "");
	char *save = NULL;
	for (char *l = strtok_r(copy, "\r\n", &save); l && *napps < max; l = strtok_r(NULL, "\r\n", &save)) {
		if (strncmp(l, "package:", 8) != 0 || !amc_adb_app_id_valid(l + 8))
			continue;
		*apps = amc_xrealloc(*apps, (*napps + 1) * sizeof **apps);
		(*apps)[(*napps)++] = amc_xstrdup(l + 8);
	}
	free(copy);
}
