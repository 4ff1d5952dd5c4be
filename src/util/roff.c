/* roff.c - text made safe for a man page (roff.h). */
#include "util/roff.h"

void amc_roff_put(FILE *f, const char *s, size_t n)
{
	if (n && (*s == '.' || *s == '\''))
		fputs("\\&", f);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\')
			fputs("\\e", f);
		else if (s[i] == '-')
			fputs("\\-", f);
		else
			fputc(s[i], f);
	}
}
