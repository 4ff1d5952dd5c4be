/* Fuzz target: HTTP response header lines from a model provider
 * (llm/http.c, amc_http_parse_header): retry-after(-ms) and request-id.
 * The input is split into lines as libcurl hands them over; a delay is
 * never negative but -1 (none) and the request id stays NUL-terminated. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "llm/http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_http_hdrs h = { -1, -1, "" };
	const char *p = (const char *)data, *end = p + size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		amc_http_parse_header(p, n, &h);
		p += n;
	}
	if (h.retry_after_ms < -1 || h.retry_after_s_ms < -1 || !memchr(h.request_id, 0, sizeof h.request_id))
		__builtin_trap();
	(void)amc_http_backoff_ms(3, h.retry_after_ms >= 0 ? h.retry_after_ms : h.retry_after_s_ms, 0.5);
	return 0;
}
