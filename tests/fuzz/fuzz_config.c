/* Fuzz target: the config file parser (util/config.c). */
#include <stddef.h>
#include <stdint.h>

#include "util/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_config *c = amc_config_new();
	amc_err e;
	(void)amc_config_parse(c, (const char *)data, size, "fuzz", &e);
	for (size_t i = 0; i < amc_config_count(c); i++)
		(void)amc_config_item_at(c, i);
	amc_config_free(c);
	return 0;
}
