/* devcaps.c - a device's capabilities for the fleet (see devcaps.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/adb.h"
#include "device/appium.h"
#include "device/device.h"
#include "device/sim/sim.h"
#include "fleet/fleet.h"
#include "host/devcaps.h"

int amc_devcaps_add_raw(amc_devcaps *c, const char *kv)
{
	if (!kv || !amc_fleet_need_ok(kv) || c->n >= AMC_DEVCAPS_MAX)
		return 0;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i], kv))
			return 0;
	snprintf(c->v[c->n++], sizeof c->v[0], "%s", kv);
	return 1;
}

int amc_devcaps_add(amc_devcaps *c, const char *key, const char *value)
{
	char kv[65];
	size_t k = (size_t)snprintf(kv, sizeof kv, "%s=", key);
	if (k >= sizeof kv - 1)
		return 0;
	size_t n = k;
	for (const unsigned char *p = (const unsigned char *)(value ? value : ""); *p && n < sizeof kv - 1; p++) {
		int ch = tolower(*p);
		if (!(isalnum(ch) && ch < 128) && !strchr("_.:/-", ch))
			ch = '_';
		if (ch == '_' && n > k && kv[n - 1] == '_')
			continue;
		kv[n++] = (char)ch;
	}
	while (n > k && kv[n - 1] == '_')
		n--;
	kv[n] = 0;
	if (n == k)
		return 0;
	return amc_devcaps_add_raw(c, kv);
}

int amc_devcaps_probe(const amc_config *cfg, const char *home, const char *id, amc_devcaps *c, amc_err *e)
{
	const char *kind = !strncmp(id, "sim:", 4) ? "sim" : !strncmp(id, "adb:", 4) ? "adb" : "appium";
	amc_devcaps_add(c, "kind", kind);
	if (!strcmp(kind, "appium")) {
		amc_devcaps_add(c, "platform", amc_appium_platform(cfg));
		return 0;
	}
	/* the sim renders an Android phone and runs Android flows */
	amc_devcaps_add(c, "platform", "android");
	amc_device *d = NULL;
	if (amc_device_open(id, home, cfg, &d, e) != 0)
		return -1;
	amc_device_info info;
	int rc = d->ops->info(d, &info, e);
	if (rc == 0) {
		char screen[32];
		snprintf(screen, sizeof screen, "%dx%d", info.width, info.height);
		amc_devcaps_add(c, "model", info.model);
		amc_devcaps_add(c, "screen", screen);
	}
	if (rc == 0 && !strcmp(kind, "sim")) {
		for (size_t i = 0; amc_sim_app_id(i); i++)
			amc_devcaps_add(c, "app", amc_sim_app_id(i));
	} else if (rc == 0) {
		char os[64];
		char **apps = NULL;
		size_t na = 0;
		rc = amc_adb_describe(d, os, sizeof os, &apps, &na, AMC_DEVCAPS_MAX, e);
		if (rc == 0)
			amc_devcaps_add(c, "os", os);
		for (size_t i = 0; i < na; i++) {
			amc_devcaps_add(c, "app", apps[i]);
			free(apps[i]);
		}
		free(apps);
	}
	amc_device_close(d);
	return rc;
}

char *amc_devcaps_literal(const amc_devcaps *c)
{
	const char *v[AMC_DEVCAPS_MAX];
	for (size_t i = 0; i < c->n; i++)
		v[i] = c->v[i];
	return amc_fleet_needs_literal(v, c->n);
}
