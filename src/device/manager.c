#include "device/manager.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/adb.h"
#include "device/appium.h"
#include "device/device.h"
#include "util/lockfile.h"
#include "util/sanitize.h"

#define MAX_SIMS 256

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* sim:0 always; other sims once they have state under $AMC_HOME/sim/N. */
static int list_sims(const char *home, int *ids, int max)
{
	int n = 0;
	ids[n++] = 0;
	char dir[PATH_MAX];
	if ((size_t)snprintf(dir, sizeof dir, "%s/sim", home) >= sizeof dir)
		return n;
	DIR *d = opendir(dir);
	if (!d)
		return n;
	struct dirent *de;
	while ((de = readdir(d)) && n < max) {
		size_t len = strlen(de->d_name);
		if (len == 0 || len > 4 || strspn(de->d_name, "0123456789") != len)
			continue;
		int id = atoi(de->d_name);
		if (id != 0)
			ids[n++] = id;
	}
	closedir(d);
	qsort(ids, (size_t)n, sizeof *ids, cmp_int);
	return n;
}

int amc_sim_exists(const char *home, const char *id, char *known, size_t n)
{
	int ids[MAX_SIMS];
	int ns = list_sims(home, ids, MAX_SIMS);
	if (known && n) {
		known[0] = '\0';
		size_t used = 0;
		for (int i = 0; i < ns && used < n; i++) {
			int w = snprintf(known + used, n - used, "%ssim:%d", i ? ", " : "", ids[i]);
			if (w < 0)
				break;
			used += (size_t)w;
		}
	}
	if (!strcmp(id, "sim"))
		return 1;
	if (strncmp(id, "sim:", 4) || !id[4] || strspn(id + 4, "0123456789") != strlen(id + 4) || strlen(id + 4) > 4)
		return -1;
	int want = atoi(id + 4);
	for (int i = 0; i < ns; i++)
		if (ids[i] == want)
			return 1;
	return 0;
}

/* The task holding the device lock, or "" (1 when held). */
static int holder(const char *home, const char *id, char *task, size_t n)
{
	char lock[200], h[256] = "";
	amc_device_lock_name(id, lock, sizeof lock);
	task[0] = '\0';
	if (amc_lock_is_held(home, lock, h, sizeof h) != 1)
		return 0;
	h[strcspn(h, " ")] = '\0';
	if (strcmp(h, "-")) {
		char *s = amc_sanitize_dup(h);
		snprintf(task, n, "%s", s);
		free(s);
	}
	return 1;
}

static void describe(const char *home, const amc_config *cfg, amc_device_entry *en)
{
	if (holder(home, en->id, en->task, sizeof en->task)) {
		snprintf(en->status, sizeof en->status, "busy");
		/* A busy device is someone else's: describe it without calling it
		 * (the sim only reads its state, so it is safe to open). */
		if (strcmp(en->kind, "sim"))
			return;
	}
	amc_device *dev = NULL;
	amc_device_info info;
	amc_err e;
	if (amc_device_open(en->id, home, cfg, &dev, &e) != 0 || dev->ops->info(dev, &info, &e) != 0) {
		if (!en->status[0])
			snprintf(en->status, sizeof en->status, "offline");
		char *s = amc_sanitize_dup(e.msg);
		snprintf(en->note, sizeof en->note, "%s", s);
		free(s);
	} else {
		if (!en->status[0])
			snprintf(en->status, sizeof en->status, "online");
		char *s = amc_sanitize_dup(info.model);
		snprintf(en->model, sizeof en->model, "%s", s);
		free(s);
		en->width = info.width;
		en->height = info.height;
	}
	amc_device_close(dev);
}

static amc_device_entry *grow(amc_device_entry **v, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		amc_device_entry *nv = realloc(*v, *cap * sizeof *nv);
		if (!nv)
			return NULL;
		*v = nv;
	}
	amc_device_entry *en = &(*v)[(*n)++];
	memset(en, 0, sizeof *en);
	return en;
}

int amc_devices_list(const char *home, const amc_config *cfg, amc_device_entry **out, size_t *n,
		     char *warn, size_t warn_n, amc_err *e)
{
	*out = NULL;
	*n = 0;
	if (warn && warn_n)
		warn[0] = '\0';
	size_t cap = 0;
	int ids[MAX_SIMS];
	int ns = list_sims(home, ids, MAX_SIMS);
	for (int i = 0; i < ns; i++) {
		amc_device_entry *en = grow(out, n, &cap);
		if (!en)
			goto oom;
		snprintf(en->id, sizeof en->id, "sim:%d", ids[i]);
		snprintf(en->kind, sizeof en->kind, "sim");
		describe(home, cfg, en);
	}
	amc_adb_entry *adb = NULL;
	size_t na = 0;
	amc_err ae;
	if (amc_adb_list(cfg, &adb, &na, &ae) != 0) {
		if (warn && warn_n)
			snprintf(warn, warn_n, "no adb devices listed: %s", ae.msg);
	}
	for (size_t i = 0; i < na; i++) {
		if (amc_adb_serial_valid(adb[i].serial) != 0)
			continue;
		amc_device_entry *en = grow(out, n, &cap);
		if (!en) {
			free(adb);
			goto oom;
		}
		snprintf(en->id, sizeof en->id, "adb:%.120s", adb[i].serial);
		snprintf(en->kind, sizeof en->kind, "adb");
		snprintf(en->model, sizeof en->model, "%s", adb[i].model);
		if (!strcmp(adb[i].state, "device")) {
			describe(home, cfg, en);
		} else {
			snprintf(en->status, sizeof en->status, "offline");
			if (!strcmp(adb[i].state, "unauthorized"))
				snprintf(en->note, sizeof en->note,
					 "unauthorized: unlock the phone and accept the 'Allow USB debugging' prompt");
			else if (!strcmp(adb[i].state, "no permissions"))
				snprintf(en->note, sizeof en->note,
					 "no permissions: add a udev rule for the phone or join the plugdev group");
			else
				snprintf(en->note, sizeof en->note, "adb says '%s': reconnect the cable, then `adb reconnect`",
					 adb[i].state);
		}
	}
	free(adb);
	/* Appium servers from the config: asked for /status only (a session would
	 * start apps on the phone behind it). */
	const char *list = cfg ? amc_config_str(cfg, "appium", "endpoints") : "";
	for (const char *p = list ? list : ""; *p;) {
		size_t len = strcspn(p, ",");
		char raw[160], id[160];
		snprintf(raw, sizeof raw, "appium:%.*s", (int)(len < 140 ? len : 140), p + strspn(p, " "));
		raw[strcspn(raw, " ")] = '\0';
		p += len;
		if (*p == ',')
			p++;
		amc_err ie;
		if (amc_device_id_normalize(raw, id, sizeof id, &ie) != 0) {
			if (warn && warn_n)
				snprintf(warn, warn_n, "[appium] endpoints: %s", ie.msg);
			continue;
		}
		amc_device_entry *en = grow(out, n, &cap);
		if (!en)
			goto oom;
		snprintf(en->id, sizeof en->id, "%.120s", id);
		snprintf(en->kind, sizeof en->kind, "appium");
		if (holder(home, en->id, en->task, sizeof en->task)) {
			snprintf(en->status, sizeof en->status, "busy");
		} else if (amc_appium_status(id + 7, 5000, &ie) == 0) {
			snprintf(en->status, sizeof en->status, "online");
		} else {
			snprintf(en->status, sizeof en->status, "offline");
			char *s = amc_sanitize_dup(ie.msg);
			snprintf(en->note, sizeof en->note, "%s", s);
			free(s);
		}
	}
	return 0;
oom:
	free(*out);
	*out = NULL;
	*n = 0;
	return amc_err_set(e, AMC_EENV, "out of memory listing devices");
}
