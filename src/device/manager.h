/* manager.h - every device amc can drive from this host.
 *
 * The sims (sim:0 always; sim:N once it has state under $AMC_HOME/sim/N), the
 * phones `adb devices -l` lists (adb:SERIAL), and the Appium servers named in
 * [appium] endpoints (appium:URL). For each: kind, model, screen size, status
 * and the task holding it (from the device lock, so tasks of other amc
 * processes count too). A busy device is described without being touched. */
#ifndef AMC_MANAGER_H
#define AMC_MANAGER_H

#include <stddef.h>
#include "util/config.h"
#include "util/err.h"

typedef struct amc_device_entry {
	char id[128];
	char kind[16];       /* sim, adb, appium */
	char model[64];      /* "" when unknown */
	int width, height;   /* 0 when unknown */
	char status[16];     /* online, offline, busy */
	char task[64];       /* the task holding it, "" when none */
	char note[256];      /* why offline, e.g. "unauthorized: accept the prompt on the phone"; terminal-safe */
} amc_device_entry;

/* List them. *out (caller frees) holds *n entries, sims first, then adb, then
 * appium. A missing adb is not an error (no adb entries; `amc doctor` says
 * why); `warn` (optional, n bytes) gets such a remark. */
int amc_devices_list(const char *home, const amc_config *cfg, amc_device_entry **out, size_t *n,
		     char *warn, size_t warn_n, amc_err *e);

/* Whether `id` names a sim that exists yet: 1 for "sim", "sim:0" and sim:N
 * with state under HOME/sim/N; 0 for a sim:N that opening would create (in
 * its factory state); -1 when `id` is not a sim id. `known` (n bytes,
 * optional) gets the existing sims as "sim:0, sim:1". */
int amc_sim_exists(const char *home, const char *id, char *known, size_t n);

#endif
