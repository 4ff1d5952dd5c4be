/* test_watch.c - fleet/watch.c without a server: what the Fleet view gets
 * when there is no database (the reads over a real one run in
 * tests/tui/ and tests/integration/test_fleet*.sh through the same fleet.h
 * queries). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fleet/watch.h"
#include "tap.h"

int main(void)
{
	amc_fleet_watch *w = (amc_fleet_watch *)1;
	amc_err e;
	amc_err_clear(&e);
	ok(amc_fleet_watch_open("", 1000, &w, &e) == -1 && w == NULL, "no URL: refused, no watch");
	is_int(e.code, AMC_EUSAGE, "a usage error");
	like(e.msg, "AMC_FLEET_URL", "saying where the URL goes");
	char url[160];
	snprintf(url, sizeof url, "postgresql:///fleet?host=/nonexistent-%d&port=1", (int)getpid());
	amc_err_clear(&e);
	ok(amc_fleet_watch_open(url, 1000, &w, &e) == -1 && w == NULL, "no server: refused, no watch");
	like(e.msg, "cannot connect", "saying it cannot connect");
	amc_fleet_watch_close(NULL);
	ok(1, "closing no watch is fine");
	return done_testing();
}
