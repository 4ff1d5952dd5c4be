/* host.h - the fleet host agent (`amc host`): registers itself and its
 * devices in the fleet database, runs one slot (slot.h) per device, wakes
 * them on NOTIFY amc_fleet_work (a slow poll is the fallback), forwards
 * NOTIFY amc_fleet_cancel to the slot that runs the assignment, marks itself
 * seen and runs the reaper every fleet.reap_s, and on *stop drains: it
 * claims nothing more, lets running tasks finish within
 * fleet.stop_timeout_s and hands back what did not finish (attempt
 * `released`). */
#ifndef AMC_FLEET_HOST_H
#define AMC_FLEET_HOST_H

#include <stdatomic.h>
#include <stdio.h>
#include "util/config.h"
#include "util/err.h"

/* At most this many devices per host. */
#define AMC_HOST_DEVICES_MAX 64

typedef struct amc_host_cfg {
	const char *url;      /* the fleet database (fleet.url) */
	const char *home;     /* $AMC_HOME: each slot opens the store there */
	const amc_config *cfg;
	const char *label;    /* --name; NULL: the machine's host name */
	const char *devices;  /* "sim:0,sim:1,adb:SERIAL"; NULL: "sim:0" */
} amc_host_cfg;

/* Split and check a --devices list: *n canonical ids written to ids (each
 * 128 bytes, at most max); "adb:*" is kept as it is for
 * amc_host_expand_devices. 0, or -1 with e (AMC_EUSAGE). */
int amc_host_parse_devices(const char *list, char (*ids)[128], size_t max, size_t *n, amc_err *e);
/* Replace "adb:*" by every phone `adb devices -l` lists as ready ("device"),
 * in its order, skipping one named already; unauthorized and offline phones
 * are left out (logged). The list is taken once, when the host starts.
 * 0, or -1 with e: AMC_EENV when adb cannot be run or lists no ready phone,
 * AMC_EUSAGE past max. Without "adb:*" nothing happens. */
int amc_host_expand_devices(const amc_config *cfg, char (*ids)[128], size_t max, size_t *n, amc_err *e);

/* Run until *stop is set, then drain and return. A summary (claims, claim
 * latency p50/p99, renewals, leases lost) is written to `out` at the end
 * (NULL: none). 0 on a clean stop, -1 with e when the host could not start. */
int amc_host_run(const amc_host_cfg *hc, atomic_int *stop, FILE *out, amc_err *e);

#endif
