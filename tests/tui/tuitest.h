/* tuitest.h - helpers for the TUI's C unit tests: an ncurses screen of a fixed
 * size that writes to /dev/null (no terminal needed), and its rows read back as
 * UTF-8, as the script mode's dumps read them. */
#ifndef AMC_TUITEST_H
#define AMC_TUITEST_H

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/text.h"
#include "tui/theme.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static SCREEN *tt_scr;
static FILE *tt_in, *tt_out;

/* A cols x rows xterm-256color screen on /dev/null, monochrome theme (so
 * attributes are plain and the test does not depend on colours). Returns 0,
 * or -1 when ncurses cannot start (no terminfo entry). */
static inline int tt_screen(int cols, int rows)
{
	char c[16], r[16];
	setlocale(LC_ALL, "");
	snprintf(c, sizeof c, "%d", cols);
	snprintf(r, sizeof r, "%d", rows);
	setenv("COLUMNS", c, 1);
	setenv("LINES", r, 1);
	tt_in = fopen("/dev/null", "r");
	tt_out = fopen("/dev/null", "w");
	if (!tt_in || !tt_out)
		return -1;
	tt_scr = newterm("xterm-256color", tt_out, tt_in);
	if (!tt_scr)
		return -1;
	set_term(tt_scr);
	amc_tui_text_init();
	amc_tui_theme t;
	amc_tui_theme_mono(&t);
	amc_tui_theme_apply(&t);
	return 0;
}

static inline void tt_screen_end(void)
{
	if (tt_scr) {
		endwin();
		delscreen(tt_scr);
		tt_scr = NULL;
	}
	if (tt_in)
		fclose(tt_in);
	if (tt_out)
		fclose(tt_out);
	tt_in = tt_out = NULL;
}

/* Row y of stdscr as UTF-8, trailing spaces removed; a static buffer (the
 * last 4 calls stay valid). */
static inline const char *tt_row(int y)
{
	static char bufs[4][4096];
	static int k;
	char *out = bufs[k++ & 3];
	char *row = amc_tui_row_text(stdscr, y, COLS);
	snprintf(out, sizeof bufs[0], "%s", row);
	free(row);
	return out;
}

/* 1 when any row of the screen contains `needle`. */
static inline int tt_screen_has(const char *needle)
{
	for (int y = 0; y < LINES; y++)
		if (strstr(tt_row(y), needle))
			return 1;
	return 0;
}

/* The row holding `needle`, or -1. */
static inline int tt_find_row(const char *needle)
{
	for (int y = 0; y < LINES; y++)
		if (strstr(tt_row(y), needle))
			return y;
	return -1;
}

#endif
