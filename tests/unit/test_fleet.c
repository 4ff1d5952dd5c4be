/* test_fleet.c - fleet/fleet.c without a server: assignment ids as typed.
 * (The queries are tested against a real PostgreSQL by
 * tests/integration/test_fleet.sh and test_fleet_hosts.sh.) */
#include <stdlib.h>
#include <string.h>

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

	/* needs and capabilities (schema version 3) */
	ok(amc_fleet_need_ok("app=com.example"), "app=com.example is a need");
	ok(amc_fleet_need_ok("os=14"), "os=14");
	ok(amc_fleet_need_ok("platform=android"), "platform=android");
	ok(!amc_fleet_need_ok("App=x"), "not App=x (upper case)");
	ok(!amc_fleet_need_ok("app"), "nor app (no value)");
	ok(!amc_fleet_need_ok("app="), "nor app= (empty value)");
	ok(!amc_fleet_need_ok("=x"), "nor =x (no key)");
	ok(!amc_fleet_need_ok("1a=x"), "nor 1a=x (a key starts with a letter)");
	ok(!amc_fleet_need_ok("a=b=c"), "nor a=b=c");
	ok(!amc_fleet_need_ok("a=b,c"), "nor a=b,c (no comma: array literals stay unquoted)");
	ok(!amc_fleet_need_ok("a=\"x\""), "nor quotes");
	ok(!amc_fleet_need_ok(NULL), "nor NULL");
	char big[80];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = 0;
	big[3] = '=';
	ok(!amc_fleet_need_ok(big), "nor over 64 bytes");
	const char *v[] = { "a=b", "c=d" };
	char *lit = amc_fleet_needs_literal(v, 2);
	is_str(lit, "{a=b,c=d}", "an array literal");
	free(lit);
	lit = amc_fleet_needs_literal(NULL, 0);
	is_str(lit, "{}", "the empty array");
	free(lit);
	ok(amc_fleet_when_ok("+30s") && amc_fleet_when_ok("2026-12-05T14:00:00Z") && amc_fleet_when_ok("+5 min"),
	   "not-before: +30s, a timestamp, +5 min");
	ok(!amc_fleet_when_ok("now'); drop") && !amc_fleet_when_ok("") && !amc_fleet_when_ok(NULL),
	   "not quotes, semicolons or nothing");
	return done_testing();
}
