/* strbuf.h - a growable, always NUL-terminated byte buffer.
 * The buffer owns `buf`; amc_sb_detach() hands it to the caller (free()). */
#ifndef AMC_STRBUF_H
#define AMC_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include "util/err.h"

typedef struct amc_sb {
	char *buf;
	size_t len;
	size_t cap;
} amc_sb;

void amc_sb_init(amc_sb *sb);
void amc_sb_free(amc_sb *sb);
void amc_sb_reset(amc_sb *sb);
/* Allocation failure aborts: amc treats out-of-memory as fatal, like SQLite's default. */
void amc_sb_append(amc_sb *sb, const void *data, size_t len);
void amc_sb_puts(amc_sb *sb, const char *s);
void amc_sb_putc(amc_sb *sb, char c);
void amc_sb_printf(amc_sb *sb, const char *fmt, ...) AMC_PRINTF(2, 3);
void amc_sb_vprintf(amc_sb *sb, const char *fmt, va_list ap);
/* Returns the buffer (never NULL; "" when empty); the caller frees it. */
char *amc_sb_detach(amc_sb *sb);
const char *amc_sb_str(const amc_sb *sb);

/* xmalloc-style helpers that abort on out-of-memory. */
void *amc_xmalloc(size_t n);
void *amc_xcalloc(size_t n, size_t size);
void *amc_xrealloc(void *p, size_t n);
char *amc_xstrdup(const char *s);          /* NULL -> NULL */
char *amc_xstrndup(const char *s, size_t n);

#endif
