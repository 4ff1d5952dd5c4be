/* device_open.c - the device factory: a device id in its one spelling, and
 * the driver that opens it. Apart from device.c (the interface and what the
 * drivers share), so the drivers depend on device.c and this file on them,
 * never the other way round. Declared in device.h. */
#include "device/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/adb.h"
#include "device/appium.h"
#include "device/sim/sim.h"
#include "image/framebuf.h"
#include "util/sanitize.h"

/* http(s)://HOST[:PORT][/PATH]: printable ASCII, no spaces, at most 100 bytes. */
static int valid_url(const char *u)
{
	size_t n = strlen(u);
	if (n > 100 || (strncmp(u, "http://", 7) && strncmp(u, "https://", 8)))
		return 0;
	const char *host = u + (u[4] == 's' ? 8 : 7);
	if (!*host || *host == '/' || *host == ':')
		return 0;
	for (const char *p = u; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || *p == '"' || *p == '\\' || *p == '<' || *p == '>')
			return 0;
	return 1;
}

int amc_device_id_normalize(const char *in, char *out, size_t n, amc_err *e)
{
	if (!strcmp(in, "sim")) {
		snprintf(out, n, "sim:0");
		return 0;
	}
	if (!strncmp(in, "sim:", 4)) {
		const char *d = in + 4;
		size_t len = strlen(d);
		if (len > 0 && len <= 4 && strspn(d, "0123456789") == len) {
			snprintf(out, n, "sim:%d", atoi(d));
			return 0;
		}
	}
	if (!strncmp(in, "adb:", 4) && amc_adb_serial_valid(in + 4) == 0) {
		snprintf(out, n, "%s", in);
		return 0;
	}
	if (!strncmp(in, "appium:", 7) && valid_url(in + 7) && strlen(in) < n) {
		/* One spelling per server: no trailing slash. */
		snprintf(out, n, "%s", in);
		size_t len = strlen(out);
		while (len > 0 && out[len - 1] == '/')
			out[--len] = '\0';
		return 0;
	}
	char *s = amc_sanitize_dup(in);
	amc_err_set(e, AMC_EUSAGE,
		    "unknown device '%.200s': use 'sim', 'sim:N' (N from 0 to 9999), 'adb:SERIAL' (as `adb devices` "
		    "prints it) or 'appium:URL' (http://HOST:PORT of an Appium server)", s);
	free(s);
	return -1;
}

int amc_device_open(const char *id, const char *home, const amc_config *cfg, amc_device **out, amc_err *e)
{
	char canon[128];
	if (amc_device_id_normalize(id, canon, sizeof canon, e) != 0)
		return -1;
	int rc;
	if (!strncmp(canon, "sim:", 4))
		rc = amc_sim_open(home, atoi(canon + 4), cfg, out, e);
	else if (!strncmp(canon, "adb:", 4))
		rc = amc_adb_open(canon + 4, cfg, out, e);
	else if (!strncmp(canon, "appium:", 7))
		rc = amc_appium_open(canon + 7, cfg, out, e);
	else
		return amc_err_set(e, AMC_EUSAGE, "unknown device '%s'", canon);
	if (rc == 0) {
		amc_device_count_calls(*out);
		amc_framebuf_hold(); /* frame buffers are kept while a device is open */
		(*out)->holds_framebuf = 1;
	}
	return rc;
}

