/* test_fleet.c - fleet/fleet.c without a server: assignment ids as typed.
 * (The queries are tested against a real PostgreSQL by
 * tests/integration/test_fleet.sh and test_fleet_hosts.sh.) */
#include "fleet/fleet.h"
#include "tap.h"

int main(void)
{
	long long id = 0;
	amc_err e;
	ok(amc_fleet_parse_id("17", &id, &e) == 0 && id == 17, "17");
	ok(amc_fleet_parse_id("#17", &id, &e) == 0 && id == 17, "#17");
	ok(amc_fleet_parse_id("0", &id, &e) == -1, "0 is no id");
	ok(amc_fleet_parse_id("-3", &id, &e) == -1, "nor -3");
	ok(amc_fleet_parse_id("12x", &id, &e) == -1, "nor 12x");
	ok(amc_fleet_parse_id("", &id, &e) == -1, "nor nothing");
	ok(amc_fleet_parse_id("99999999999999999999999", &id, &e) == -1, "nor a number too big");
	like(e.msg, "amc fleet ls", "the message says where ids are");
	is_int(e.code, AMC_EUSAGE, "a usage error");
	return done_testing();
}
