/* test_text.c - terminal-safe text: control bytes, escape sequences, invalid
 * UTF-8, wide and zero-width characters, cutting to a cell width without
 * splitting a wide character or touching cells past the width. */
#include <curses.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tuitest.h"
#include "tui/text.h"

#define W 40

/* Fill row y with 'X' so untouched cells show. */
static void fill(int y)
{
	for (int x = 0; x < COLS; x++)
		mvaddch(y, x, 'X');
}

/* 1 when row y has no C0/C1 control, DEL or ESC in any cell. */
static int row_clean(int y)
{
	wchar_t line[1024];
	int n = mvwinnwstr(stdscr, y, 0, line, COLS);
	for (int i = 0; i < n; i++)
		if (line[i] < 0x20 || line[i] == 0x7f || (line[i] >= 0x80 && line[i] < 0xa0))
			return 0;
	return 1;
}

static void test_width(void)
{
	is_int(amc_tui_width("abc"), 3, "ASCII: one column each");
	is_int(amc_tui_width(""), 0, "empty string");
	is_int(amc_tui_width(NULL), 0, "NULL is empty");
	is_int(amc_tui_width("日本語"), 6, "CJK: two columns each");
	is_int(amc_tui_width("é"), 1, "precomposed accent: one column");
	/* Combining marks would share a cell with the character before;
	 * they are drawn as '?' so every cell is accounted for. */
	is_int(amc_tui_width("e\xcc\x81"), 2, "a combining mark takes its own cell");
	is_int(amc_tui_width("\xff\xfe"), 2, "invalid bytes: one replacement cell each");
	is_int(amc_tui_width("\xe6\x97"), 2, "a truncated sequence is replaced, not swallowed");
	ok(amc_tui_width("a\x1b[31mb") >= 2, "an escape sequence is shown, not interpreted");
	ok(amc_tui_width("\t") >= 1, "a tab takes a cell");
	ok(amc_tui_width("\xe2\x80\xae") >= 1, "a bidi override (RLO) is made visible");
	is_int(amc_tui_width("\xc2\x9b"), amc_tui_width("\xc2\x9c"), "C1 controls (CSI, ST) are replaced alike");
}

static void test_put(void)
{
	fill(0);
	int n = amc_tui_put(stdscr, 0, 0, 10, "hello", A_NORMAL, 1);
	is_int(n, 10, "padded: every column of the width is drawn");
	is_str(tt_row(0), "hello     XXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "padding stops at the width");

	fill(1);
	n = amc_tui_put(stdscr, 1, 2, 10, "hello", A_NORMAL, 0);
	is_int(n, 5, "unpadded: returns the columns of the text");
	is_str(tt_row(1), "XXhelloXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "unpadded: the rest is untouched");

	fill(2);
	n = amc_tui_put(stdscr, 2, 0, 5, "abcdefghij", A_NORMAL, 0);
	is_int(n, 5, "a cut string fills the width");
	is_str(tt_row(2), "abcd…XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "a cut string ends in an ellipsis");

	fill(3);
	n = amc_tui_put(stdscr, 3, 0, 5, "日本語", A_NORMAL, 0);
	is_int(n, 5, "wide: 2+2 columns and the ellipsis");
	is_str(tt_row(3), "日本…XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "a wide character is not split");

	fill(4);
	n = amc_tui_put(stdscr, 4, 0, 4, "日本語", A_NORMAL, 0);
	is_int(n, 3, "width 4: one wide character and the ellipsis (no half character)");
	is_str(tt_row(4), "日…XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "the cell past the cut is untouched");

	fill(5);
	n = amc_tui_put(stdscr, 5, 0, 6, "日本語", A_NORMAL, 0);
	is_int(n, 6, "exactly fitting: no ellipsis");
	is_str(tt_row(5), "日本語XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "exactly fitting text is whole");

	fill(6);
	is_int(amc_tui_put(stdscr, 6, 0, 0, "abc", A_NORMAL, 1), 0, "width 0 draws nothing");
	is_int(amc_tui_put(stdscr, 6, 0, -3, "abc", A_NORMAL, 1), 0, "a negative width draws nothing");
	is_str(tt_row(6), "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "and touches nothing");

	fill(7);
	n = amc_tui_put(stdscr, 7, 0, 1, "abc", A_NORMAL, 0);
	is_int(n, 1, "width 1: the ellipsis alone");
	is_str(tt_row(7), "…XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "width 1 shows that text was cut");

	fill(8);
	n = amc_tui_put(stdscr, 8, 0, 10, NULL, A_NORMAL, 1);
	is_int(n, 10, "NULL is drawn as empty, padded");
}

static void test_hostile(void)
{
	static const char *const evil[] = {
		"\x1b]0;owned\x07title",            /* OSC: set the window title */
		"\x1b[2J\x1b[Hclear",               /* clear screen, home */
		"\x1bPq#0;2;0;0;0\x1b\\sixel",      /* DCS (a sixel) */
		"line1\nline2\rline3",              /* newlines and CR */
		"\x9b" "31mc1",                      /* raw C1 CSI byte */
		"\xc2\x9b" "31mc1utf8",              /* C1 CSI encoded as UTF-8 */
		"bell\x07\x08\x7f",                  /* BEL, BS, DEL */
		"\xed\xa0\x80surrogate",             /* UTF-16 surrogate in UTF-8 */
		"\xc0\xafoverlong",                  /* overlong '/' */
		"\xf4\x90\x80\x80toolarge",          /* past U+10FFFF */
		"abc\xe2\x80\xaeRTL\xe2\x81\xa6iso", /* bidi override and isolate */
	};
	for (size_t i = 0; i < sizeof evil / sizeof evil[0]; i++) {
		int y = 10 + (int)i;
		fill(y);
		int n = amc_tui_put(stdscr, y, 0, 30, evil[i], A_NORMAL, 0);
		int want = amc_tui_width(evil[i]) > 30 ? 30 : amc_tui_width(evil[i]);
		ok(row_clean(y), "hostile %zu: no control character reaches a cell", i);
		is_int(n, want, "hostile %zu: the columns drawn are its width", i);
		/* Everything past the drawn columns is still the filler. */
		const char *r = tt_row(y);
		ok(strlen(r) >= 10 && !strcmp(r + strlen(r) - 10, "XXXXXXXXXX"), "hostile %zu: nothing past 30 columns", i);
	}
	fill(22);
	amc_tui_put(stdscr, 22, 0, 30, "\x1b]0;owned\x07title", A_NORMAL, 0);
	like(tt_row(22), "title", "the text around an escape sequence stays readable");
}

static void test_not_utf8(void)
{
	/* Outside a UTF-8 locale, non-ASCII is '?' and the cut mark is '~'. */
	ok(amc_tui_utf8(), "the test runs in a UTF-8 locale (LC_ALL=C.UTF-8)");
	setlocale(LC_ALL, "C");
	amc_tui_text_init();
	is_int(amc_tui_utf8(), 0, "C locale: not UTF-8");
	is_int(amc_tui_width("日本"), 2, "C locale: one '?' cell per character");
	fill(23);
	int n = amc_tui_put(stdscr, 23, 0, 4, "abcdef", A_NORMAL, 0);
	is_int(n, 4, "C locale: cut to the width");
	like(tt_row(23), "abc~X", "C locale: the cut mark is '~'");
	setlocale(LC_ALL, "");
	amc_tui_text_init();
	is_int(amc_tui_utf8(), 1, "back in UTF-8 after init");
}

static void test_row_text(void)
{
	erase();
	mvaddstr(3, 0, "  two spaces in, ");
	amc_tui_put(stdscr, 3, 20, 10, "日本", A_NORMAL, 0);
	char *r = amc_tui_row_text(stdscr, 3, COLS);
	is_str(r, "  two spaces in,    日本", "a row reads back as UTF-8, leading spaces kept, trailing ones dropped");
	free(r);
	r = amc_tui_row_text(stdscr, 3, 6);
	is_str(r, "  two", "only its first columns when asked");
	free(r);
	r = amc_tui_row_text(stdscr, 4, COLS);
	is_str(r, "", "an empty row is an empty string");
	free(r);
}

int main(void)
{
	if (tt_screen(W, 24) != 0)
		tap_skip_all("ncurses cannot start an xterm-256color screen");
	test_width();
	test_put();
	test_hostile();
	test_not_utf8();
	test_row_text();
	tt_screen_end();
	return done_testing();
}
