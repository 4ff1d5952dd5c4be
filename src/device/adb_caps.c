/* adb_caps.c - what a phone says of itself for a fleet host's capabilities
 * (host/devcaps.h): its Android version and the apps installed on it. */
#include <stdlib.h>
#include <string.h>

#include "device/adb.h"
#include "device/adb_int.h"
#include "device/adb_list.h"
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

