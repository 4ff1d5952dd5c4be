#include "util/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
	fputs("amc: out of memory\n", stderr);
	abort();
}

void *amc_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *amc_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *amc_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom();
	return q;
}

char *amc_xstrdup(const char *s)
{
	if (!s)
		return NULL;
	return amc_xstrndup(s, strlen(s));
}

char *amc_xstrndup(const char *s, size_t n)
{
	if (!s)
		return NULL;
	size_t len = strnlen(s, n);
	char *p = amc_xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void amc_sb_init(amc_sb *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void amc_sb_free(amc_sb *sb)
{
	free(sb->buf);
	amc_sb_init(sb);
}

void amc_sb_reset(amc_sb *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static void grow(amc_sb *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	sb->buf = amc_xrealloc(sb->buf, cap);
	sb->cap = cap;
}

void amc_sb_append(amc_sb *sb, const void *data, size_t len)
{
	/* `data` may point into the buffer itself (appending a copy of part of it):
	 * growing moves the buffer, so remember the offset. */
	if (len && sb->buf && (uintptr_t)data >= (uintptr_t)sb->buf &&
	    (uintptr_t)data < (uintptr_t)sb->buf + sb->cap) {
		size_t off = (size_t)((uintptr_t)data - (uintptr_t)sb->buf);
		grow(sb, len);
		memmove(sb->buf + sb->len, sb->buf + off, len);
		sb->len += len;
		sb->buf[sb->len] = '\0';
		return;
	}
	grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void amc_sb_puts(amc_sb *sb, const char *s)
{
	amc_sb_append(sb, s, strlen(s));
}

void amc_sb_putc(amc_sb *sb, char c)
{
	amc_sb_append(sb, &c, 1);
}

void amc_sb_vprintf(amc_sb *sb, const char *fmt, va_list ap)
{
	char small[256];
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(small, sizeof small, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		amc_sb_append(sb, small, (size_t)n);
		return;
	}
	/* Format into a separate buffer: an argument may point into sb->buf, which
	 * growing would move. */
	char *tmp = amc_xmalloc((size_t)n + 1);
	int m = vsnprintf(tmp, (size_t)n + 1, fmt, ap);
	if (m > 0)
		amc_sb_append(sb, tmp, (size_t)m < (size_t)n ? (size_t)m : (size_t)n);
	free(tmp);
}

void amc_sb_printf(amc_sb *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	amc_sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

char *amc_sb_detach(amc_sb *sb)
{
	char *p = sb->buf ? sb->buf : amc_xstrdup("");
	amc_sb_init(sb);
	return p;
}

const char *amc_sb_str(const amc_sb *sb)
{
	return sb->buf ? sb->buf : "";
}
