/* devcaps.h - what one device of a fleet host is and can do, as the
 * capabilities (KEY=VALUE, fleet.h's needs) its device row carries (schema
 * version 4; a claim for that device takes only work whose needs they
 * cover):
 *
 *   kind=sim|adb|appium, platform=android|ios, os=VERSION (adb), model=...,
 *   screen=WIDTHxHEIGHT, app=ID (one per installed app the driver can list:
 *   the sim's apps, a phone's apps beyond the system's; Appium lists none)
 *
 * plus the host's own, which every device of the host has: fleet.capabilities,
 * agent=claude/codex where that CLI runs, planner=on when a model planner is
 * configured (host.c). Values are made lower-case, characters outside
 * a-z 0-9 _.:/- become '_'. The database keeps only what the host role was
 * granted (`amc fleet grant`). */
#ifndef AMC_HOST_DEVCAPS_H
#define AMC_HOST_DEVCAPS_H

#include <stddef.h>
#include "util/config.h"
#include "util/err.h"

/* At most this many capabilities per device (the database's bound too). */
#define AMC_DEVCAPS_MAX 128

typedef struct amc_devcaps {
	char v[AMC_DEVCAPS_MAX][65];
	size_t n;
} amc_devcaps;

/* Add KEY=VALUE with VALUE made a capability's value (lower-case, others
 * '_', at most 64 bytes in all); nothing when the value is empty, the entry
 * is there already or the list is full. Returns 1 when added. */
int amc_devcaps_add(amc_devcaps *c, const char *key, const char *value);
/* Add an entry as written (KEY=VALUE, amc_fleet_need_ok): 1 added, 0 not. */
int amc_devcaps_add_raw(amc_devcaps *c, const char *kv);

/* Probe device `id` and add what it is to c. The sim and adb devices are
 * opened for it (each answers within a second or two: a phone runs three
 * shell commands); an Appium device is not (a session costs seconds and
 * often a licence): its platform comes from the configuration. 0, or -1
 * with e when the device does not answer (the host still registers it, with
 * its kind only). */
int amc_devcaps_probe(const amc_config *cfg, const char *home, const char *id, amc_devcaps *c, amc_err *e);

/* The list as a PostgreSQL array literal (malloc'd). */
char *amc_devcaps_literal(const amc_devcaps *c);

#endif
