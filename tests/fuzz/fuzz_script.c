/* Fuzz target: the script bridge protocol, amc's side (flow/script.c): the
 * response amc-js writes on its stdout is untrusted bytes, and so is an http
 * request a script asks amc to make (flow/script_http.c, parsed only: no
 * request is made here). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flow/script.h"
#include "flow/script_http.h"

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
	amc_script_http_req rq;
	if (amc_script_http_parse((const char *)data, size, &rq, &e) == 0) {
		for (size_t i = 0; i < rq.nheaders; i++)
			(void)strlen(rq.headers[i]);
		amc_script_http_req_free(&rq);
	}
	return 0;
}
