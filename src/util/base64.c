/* base64.c - standard base64 with padding (base64.h). */
#include "util/base64.h"

void amc_base64_append(amc_sb *out, const void *data, size_t n)
{
	static const char T[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);
		char q[4] = { T[v >> 18 & 63], T[v >> 12 & 63], i + 1 < n ? T[v >> 6 & 63] : '=',
			      i + 2 < n ? T[v & 63] : '=' };
		amc_sb_append(out, q, 4);
	}
}

char *amc_base64_encode(const void *data, size_t n)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_base64_append(&sb, data, n);
	return amc_sb_detach(&sb);
}
