/* test_status.c - the one table of task statuses. */
#include "tap.h"
#include "util/status.h"

int main(void)
{
	is_int((int)amc_status_count(), 7, "seven statuses");
	const char *order[] = { "queued", "running", "succeeded", "failed", "cancelled", "interrupted", "waiting_user" };
	for (int i = 0; i < 7; i++) {
		is_str(amc_status_at((size_t)i)->name, order[i], "status %d in table order", i);
		is_int(amc_status_index(order[i]), i, "index of %s", order[i]);
		ok(amc_status_find(order[i]) == amc_status_at((size_t)i), "find %s", order[i]);
		like(amc_status_names(), order[i], "the names list has %s", order[i]);
		ok(amc_status_at((size_t)i)->symbol[0] && amc_status_at((size_t)i)->ascii[0] &&
			   (unsigned char)amc_status_at((size_t)i)->ascii[0] < 0x80,
		   "%s has a symbol and an ASCII one", order[i]);
	}
	ok(amc_status_at(7) == NULL, "no row past the end");
	ok(amc_status_find("ok") == NULL && amc_status_find(NULL) == NULL, "unknown names and NULL have no row");
	is_int(amc_status_index("Queued"), -1, "names are case-sensitive");
	is_str(amc_status_find("succeeded")->symbol, "✓", "succeeded is a tick");
	is_str(amc_status_find("failed")->ascii, "x", "failed without UTF-8 is x");
	ok(amc_status_is_terminal("succeeded") && amc_status_is_terminal("failed") &&
		   amc_status_is_terminal("cancelled") && amc_status_is_terminal("interrupted"),
	   "the four final statuses are terminal");
	ok(!amc_status_is_terminal("queued") && !amc_status_is_terminal("running") &&
		   !amc_status_is_terminal("waiting_user") && !amc_status_is_terminal(NULL) &&
		   !amc_status_is_terminal("bogus"),
	   "the others, NULL and unknown names are not");
	return done_testing();
}
