#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* When a message was cut at `len` bytes, drop a UTF-8 sequence left incomplete at
 * the end so the message stays valid UTF-8. */
static void trim_partial_utf8(char *s, size_t len)
{
	size_t i = len, back = 0;
	while (i > 0 && back < 4 && ((unsigned char)s[i - 1] & 0xC0) == 0x80) {
		i--;
		back++;
	}
	if (i == 0)
		return;
	unsigned char lead = (unsigned char)s[i - 1];
	size_t need = (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : (lead & 0xF8) == 0xF0 ? 4 : 1;
	if (need > 1 && back + 1 < need)
		s[i - 1] = '\0';
}

/* The names in parentheses: err.h's macros of the same names (for clang
 * --analyze only) must not expand in the definitions. */
int (amc_err_set)(amc_err *e, int code, const char *fmt, ...)
{
	if (!e)
		return -1;
	/* Format into a temporary first: callers may pass e->msg as an argument
	 * ("context: %s", e->msg), and vsnprintf must not read what it writes. */
	char buf[AMC_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		buf[0] = '\0';
	else if ((size_t)n >= sizeof buf)
		trim_partial_utf8(buf, sizeof buf - 1);
	memcpy(e->msg, buf, sizeof e->msg);
	e->code = code;
	return -1;
}

int (amc_err_prefix)(amc_err *e, const char *fmt, ...)
{
	if (!e)
		return -1;
	char pre[AMC_ERR_MSG_MAX], old[AMC_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	if (vsnprintf(pre, sizeof pre, fmt, ap) < 0)
		pre[0] = '\0';
	va_end(ap);
	memcpy(old, e->msg, sizeof old);
	old[sizeof old - 1] = '\0';
	size_t pl = strlen(pre), ol = strlen(old), cap = sizeof e->msg - 1;
	if (pl > cap)
		pl = cap;
	memcpy(e->msg, pre, pl);
	size_t at = pl;
	if (at + 2 <= cap) {
		memcpy(e->msg + at, ": ", 2);
		at += 2;
	}
	int cut = ol > cap - at;
	if (cut)
		ol = cap - at;
	memcpy(e->msg + at, old, ol);
	e->msg[at + ol] = '\0';
	if (cut || at + ol == cap)
		trim_partial_utf8(e->msg, at + ol);
	return -1;
}

void amc_err_clear(amc_err *e)
{
	if (e) {
		e->code = AMC_OK;
		e->msg[0] = '\0';
	}
}
