/* batch.h - `amc fleet submit --batch`: many assignments from one JSON
 * object a line, every line checked before anything is queued, then queued
 * in one transaction per AMC_FLEET_BATCH_CHUNK (issue 26: bulk submit).
 *
 * A line: {"goal": "..."} or {"flow": "path.yaml"} (relative to the current
 * folder), with optional "device_kind", "host", "priority", "max_steps",
 * "max_attempts", "retries", "backoff", "timeout" (seconds), "not_before"
 * (as --not-before), "needs" (an array of KEY=VALUE), "agent", "model". An
 * unknown key is an error (a typo must not queue work that ignores it).
 * Blank lines and lines starting with '#' are skipped. */
#ifndef AMC_FLEET_BATCH_H
#define AMC_FLEET_BATCH_H

#include <libpq-fe.h>
#include <stddef.h>
#include "fleet/fleet.h"
#include "util/err.h"

#define AMC_FLEET_BATCH_CHUNK 1000
/* One line at most this long (a goal is short; a flow travels by path). */
#define AMC_FLEET_BATCH_LINE_MAX 65536

typedef struct amc_fleet_batch_item {
	amc_fleet_submit_req req;  /* its strings point into the item; req.needs at needv
	                            * (set it again if the item is moved) */
	char *payload, *title, *device_kind, *host, *not_before;
	char *needs[AMC_FLEET_NEEDS_MAX + 1];
	const char *needv[AMC_FLEET_NEEDS_MAX + 1];
} amc_fleet_batch_item;

/* Parse one line into *it (zeroed first; free with amc_fleet_batch_item_free
 * whatever the result). 0, or -1 with e (AMC_EUSAGE) saying what is wrong. */
int amc_fleet_batch_parse_line(const char *line, size_t len, amc_fleet_batch_item *it, amc_err *e);
void amc_fleet_batch_item_free(amc_fleet_batch_item *it);

/* Queue n requests, one transaction per AMC_FLEET_BATCH_CHUNK: ids[i] gets
 * each id. *done gets how many were committed (chunks before a failure
 * stay queued; the failed chunk is rolled back). 0, or -1 with e. */
int amc_fleet_submit_many(PGconn *c, const amc_fleet_submit_req *const *v, size_t n, long long *ids, size_t *done,
			  amc_err *e);

#endif
