/* Fuzz target: the simulated phone's state.json (device/sim/state.c), a file
 * in $AMC_HOME anyone with the account can edit. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/sim/sim_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sim s;
	memset(&s, 0, sizeof s);
	s.index = 0;
	s.w = 1080;
	s.h = 2400;
	s.dp = s.w / 411.43;
	snprintf(s.path, sizeof s.path, "/nonexistent/state.json");
	sim_state_factory(&s.st, 0);
	amc_err e;
	(void)sim_state_from_json(&s, (const char *)data, size, &e);
	char *j = sim_state_to_json(&s);
	free(j);
	sim_state_free(&s.st);
	return 0;
}
