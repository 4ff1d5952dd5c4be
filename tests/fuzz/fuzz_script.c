/* Fuzz target: the script bridge protocol, amc's side (flow/script.c): the
 * response amc-js writes on its stdout is untrusted bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flow/script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int ok;
	char *text, *output;
	amc_err e;
	if (amc_script_parse_response((const char *)data, size, &ok, &text, &output, &e) == 0) {
		if (text)
			(void)strlen(text);
		if (output)
			(void)strlen(output);
		free(text);
		free(output);
	}
	return 0;
}
