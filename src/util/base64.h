/* base64.h - standard base64 (RFC 4648, with padding): screenshots for models
 * and MCP clients, images in HTML reports, text for adb's IME. One encoder. */
#ifndef AMC_BASE64_H
#define AMC_BASE64_H

#include <stddef.h>
#include "util/strbuf.h"

/* n bytes of data as base64, NUL-terminated; the caller frees it. */
char *amc_base64_encode(const void *data, size_t n);
/* The same appended to out. */
void amc_base64_append(amc_sb *out, const void *data, size_t n);

#endif
