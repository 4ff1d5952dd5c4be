/* watch.h - the fleet as a screen watches it (the TUI's Fleet view): one
 * connection that LISTENs on amc_fleet_change, the operator's reads of
 * fleet.h over it, and a wait for the next change. Front ends use this and
 * never libpq (issue 25: the view reads through the fleet module's API).
 * One thread at a time per watch. */
#ifndef AMC_FLEET_WATCH_H
#define AMC_FLEET_WATCH_H

#include <cjson/cJSON.h>
#include "util/err.h"

typedef struct amc_fleet_watch amc_fleet_watch;

/* Connect (bounded by timeout_ms), check the schema, LISTEN. 0 with *out, or
 * -1 with e (the database unreachable, no schema, a schema of another
 * version). */
int amc_fleet_watch_open(const char *url, int timeout_ms, amc_fleet_watch **out, amc_err *e);
/* fleet.h's amc_fleet_hosts, amc_fleet_list and amc_fleet_show over the
 * watch's connection (same results; the caller owns them). */
cJSON *amc_fleet_watch_hosts(amc_fleet_watch *w, double down_after_s, amc_err *e);
cJSON *amc_fleet_watch_list(amc_fleet_watch *w, const char *state, int limit, amc_err *e);
cJSON *amc_fleet_watch_show(amc_fleet_watch *w, long long id, int decisions, amc_err *e);
/* Wait up to timeout_ms for a change: 1 when one came (a burst arriving
 * within settle_ms of it is read too, for at most timeout_ms more: a NOTIFY
 * storm cannot hold the caller), 0 when none, -1 when the connection
 * broke (close the watch and open a new one). */
int amc_fleet_watch_wait(amc_fleet_watch *w, int timeout_ms, int settle_ms, amc_err *e);
void amc_fleet_watch_close(amc_fleet_watch *w);

#endif
