/* sanitize.h - make untrusted text safe for a terminal.
 *
 * Output is valid UTF-8 with no C0 controls (except where allowed), no DEL, no C1
 * controls (U+0080..U+009F, including the one-byte CSI U+009B), no bidi override or
 * isolate controls, and no escape sequences: every removed character is replaced by
 * a visible stand-in so nothing silently disappears. Invalid UTF-8 becomes U+FFFD. */
#ifndef AMC_SANITIZE_H
#define AMC_SANITIZE_H

#include <stddef.h>
#include "util/strbuf.h"

/* One line: newlines and tabs are shown as "\n" / a space. */
void amc_sanitize_line(const char *in, size_t len, amc_sb *out);
/* Multi-line text: '\n' is kept, tabs become spaces, everything else as above. */
void amc_sanitize_text(const char *in, size_t len, amc_sb *out);
/* Convenience: returns a new string (caller frees). */
char *amc_sanitize_dup(const char *in);
/* Decode one UTF-8 code point; returns bytes consumed (>=1) and sets *cp, or
 * sets *cp = 0xFFFD for an invalid sequence (consuming one byte). */
size_t amc_utf8_decode(const unsigned char *s, size_t len, unsigned *cp);
void amc_utf8_encode(unsigned cp, amc_sb *out);
/* 1 when the NUL-terminated `s` is valid UTF-8 (U+FFFD itself is fine). */
int amc_utf8_valid(const char *s);
/* The length of s cut to at most max bytes without splitting a UTF-8
 * sequence (a message quoting a long value cuts it there, not inside a
 * character that would then show as U+FFFD). */
size_t amc_utf8_cut(const char *s, size_t max);

#endif
