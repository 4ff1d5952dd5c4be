/* test_slot.c - fleet/slot.c without a server: text bound for the fleet
 * database is valid UTF-8 without controls and cut at a character boundary.
 * (Claims, renewals, self-fencing and the fenced end are tested against a
 * real PostgreSQL by tests/integration/test_fleet.sh.) */
#include <stdlib.h>
#include <string.h>

#include "host/slot.h"
#include "tap.h"

int main(void)
{
	char *t = amc_fleet_text("hello", 100);
	is_str(t, "hello", "plain text passes");
	free(t);
	t = amc_fleet_text("h\xc3\xa9llo", 2);
	is_str(t, "h", "cut before a split character");
	free(t);
	t = amc_fleet_text("a\x1b[2Jb", 100);
	ok(!strchr(t, 0x1b), "no escape byte survives");
	free(t);
	t = amc_fleet_text("\xff\xfe", 100);
	ok(strlen(t) > 0 && (unsigned char)t[0] != 0xff, "invalid UTF-8 is replaced");
	free(t);
	t = amc_fleet_text(NULL, 10);
	is_str(t, "", "NULL is empty");
	free(t);
	return done_testing();
}
