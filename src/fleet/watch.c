/* watch.c - see watch.h. */
#include <stdlib.h>

#include "fleet/fleet.h"
#include "fleet/pq.h"
#include "fleet/schema.h"
#include "fleet/watch.h"
#include "util/clock.h"
#include "util/strbuf.h"

struct amc_fleet_watch {
	PGconn *c;
};

int amc_fleet_watch_open(const char *url, int timeout_ms, amc_fleet_watch **out, amc_err *e)
{
	*out = NULL;
	PGconn *c = NULL;
	if (!url || !*url)
		return amc_err_set(e, AMC_EUSAGE, "no fleet database: set url under [fleet] or AMC_FLEET_URL");
	if (amc_pq_connect(url, timeout_ms, &c, e) != 0)
		return -1;
	if (amc_fleet_schema_check(c, e) != 0 || amc_pq_script(c, "LISTEN amc_fleet_change", e) != 0) {
		PQfinish(c);
		return -1;
	}
	amc_fleet_watch *w = amc_xcalloc(1, sizeof *w);
	w->c = c;
	*out = w;
	return 0;
}

cJSON *amc_fleet_watch_hosts(amc_fleet_watch *w, double down_after_s, amc_err *e)
{
	return amc_fleet_hosts(w->c, down_after_s, e);
}

cJSON *amc_fleet_watch_list(amc_fleet_watch *w, const char *state, int limit, amc_err *e)
{
	return amc_fleet_list(w->c, state, limit, e);
}

cJSON *amc_fleet_watch_show(amc_fleet_watch *w, long long id, int decisions, amc_err *e)
{
	return amc_fleet_show(w->c, id, decisions, e);
}

int amc_fleet_watch_wait(amc_fleet_watch *w, int timeout_ms, int settle_ms, amc_err *e)
{
	char *ch = NULL, *pl = NULL;
	int r = amc_pq_wait_notify(w->c, timeout_ms, &ch, &pl, e);
	free(ch);
	free(pl);
	if (r != 1)
		return r < 0 ? -1 : 0;
	/* let a burst of changes settle, then the caller reads once; but for
	 * no longer than timeout_ms: any role may NOTIFY, and a storm that
	 * never settles must neither freeze the view nor keep its thread from
	 * stopping (test_fleet_attack.sh) */
	long long until = amc_mono_ms() + (timeout_ms > settle_ms ? timeout_ms : settle_ms);
	while (amc_mono_ms() < until && amc_pq_wait_notify(w->c, settle_ms, &ch, &pl, e) == 1) {
		free(ch);
		free(pl);
	}
	return 1;
}

void amc_fleet_watch_close(amc_fleet_watch *w)
{
	if (!w)
		return;
	PQfinish(w->c);
	free(w);
}
