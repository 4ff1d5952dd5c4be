/* roff.h - text made safe for a man page (roff): amc(1) is written by
 * src/cli/help.c and tui/keymap.c from amc's own tables. */
#ifndef AMC_ROFF_H
#define AMC_ROFF_H

#include <stddef.h>
#include <stdio.h>

/* Write the n bytes of one line of text to f, roff-escaped: a leading '.'
 * or '\'' (a request to roff) gets "\&" before it, '\\' becomes "\e" and '-'
 * becomes "\-" (a hyphen roff would otherwise break or turn into a dash). */
void amc_roff_put(FILE *f, const char *s, size_t n);

#endif
