/* test_host.c - fleet/host.c without a server: the --devices list. (The
 * agent itself is tested against a real PostgreSQL by
 * tests/integration/test_fleet.sh and test_fleet_hosts.sh.) */
#include "fleet/host.h"
#include "tap.h"

int main(void)
{
	char ids[4][128];
	size_t n;
	amc_err e;
	ok(amc_host_parse_devices("sim:0,sim:1", ids, 4, &n, &e) == 0 && n == 2, "two sims");
	is_str(ids[1], "sim:1", "canonical ids");
	ok(amc_host_parse_devices(NULL, ids, 4, &n, &e) == 0 && n == 1, "none: sim:0");
	is_str(ids[0], "sim:0", "the default");
	ok(amc_host_parse_devices("sim, adb:emulator-5554", ids, 4, &n, &e) == 0 && n == 2, "sim and an adb serial");
	is_str(ids[0], "sim:0", "sim is sim:0");
	ok(amc_host_parse_devices("sim:0,sim", ids, 4, &n, &e) == -1, "a device named twice is refused");
	like(e.msg, "twice", "saying so");
	ok(amc_host_parse_devices("sim:0,sim:1,sim:2,sim:3,sim:4", ids, 4, &n, &e) == -1, "more than the limit");
	ok(amc_host_parse_devices("pixel", ids, 4, &n, &e) == -1, "an unknown device");
	like(e.msg, "--devices", "the option is named");
	ok(amc_host_parse_devices("adb:*", ids, 4, &n, &e) == -1, "adb:* is refused for now");
	ok(amc_host_parse_devices(",,", ids, 4, &n, &e) == -1, "an empty list");
	return done_testing();
}
