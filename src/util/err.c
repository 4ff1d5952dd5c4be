#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int amc_err_set(amc_err *e, int code, const char *fmt, ...)
{
	if (!e)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	e->code = code;
	return -1;
}

int amc_err_prefix(amc_err *e, const char *fmt, ...)
{
	if (!e)
		return -1;
	char pre[AMC_ERR_MSG_MAX], old[AMC_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof pre, fmt, ap);
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
	if (ol > cap - at)
		ol = cap - at;
	memcpy(e->msg + at, old, ol);
	e->msg[at + ol] = '\0';
	return -1;
}

void amc_err_clear(amc_err *e)
{
	if (e) {
		e->code = AMC_OK;
		e->msg[0] = '\0';
	}
}
