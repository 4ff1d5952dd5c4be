/* text.h - drawing untrusted text: every string is made terminal-safe
 * (util/sanitize.h) and cut by display width (wcwidth), so a wide character is
 * never split and nothing past the given width is touched. */
#ifndef AMC_TUI_TEXT_H
#define AMC_TUI_TEXT_H

#include <curses.h>
#include <stddef.h>

/* Draw `s` (UTF-8, any bytes) at y,x in at most `width` columns with `attr`
 * (pair included), padding the rest with spaces when `pad`. A cut string ends
 * in "…" ("~" without UTF-8). Returns the columns drawn. */
int amc_tui_put(WINDOW *w, int y, int x, int width, const char *s, attr_t attr, int pad);
/* Split s (already terminal-safe) into at most `max` lines of at most w
 * columns, breaking at spaces where it can; draws them on stdscr from row y,
 * column x with `at` when draw is set. Returns the number of lines. */
int amc_tui_wrap(const char *s, int y, int x, int w, int max, attr_t at, int draw);
/* The bytes of s (terminal-safe) that fill one line of at most w columns,
 * broken at a space where it can; *next is where the next line starts (the
 * spaces at the break skipped). */
size_t amc_tui_wrap_take(const char *s, int w, size_t *next);
/* The bytes of s that fill at most `cols` columns, no character split. */
size_t amc_tui_fit_bytes(const char *s, int cols);
/* Display width of the sanitized form of `s`. */
int amc_tui_width(const char *s);
/* Row y of w, its first `cols` columns (at most 1023), as UTF-8 with the
 * trailing spaces dropped: what a screen dump or a test reads back. Returns a
 * malloc'd string; the caller frees it. */
char *amc_tui_row_text(WINDOW *w, int y, int cols);
/* 1 when the locale's codeset is UTF-8 (set once at start-up). */
int amc_tui_utf8(void);
void amc_tui_text_init(void);

#endif
