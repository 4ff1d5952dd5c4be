/* text.c - width-correct, terminal-safe text drawing (see text.h). */
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "tui/text.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static int utf8_locale = -1;

void amc_tui_text_init(void)
{
	const char *cs = nl_langinfo(CODESET);
	utf8_locale = cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

int amc_tui_utf8(void)
{
	if (utf8_locale < 0)
		amc_tui_text_init();
	return utf8_locale;
}

/* Next displayable character of sanitized UTF-8 and its width: zero-width and
 * unprintable characters become '?' (width 1) so every cell is accounted for. */
static size_t next_char(const unsigned char *p, size_t len, wchar_t *wc, int *wd)
{
	unsigned cp;
	size_t n = amc_utf8_decode(p, len, &cp);
	if (!amc_tui_utf8() && cp >= 0x80)
		cp = '?';
	int w = cp < 0x80 ? (cp >= 0x20 && cp != 0x7f) : wcwidth((wchar_t)cp);
	if (w <= 0 || w > 2) {
		cp = '?';
		w = 1;
	}
	*wc = (wchar_t)cp;
	*wd = w;
	return n;
}

int amc_tui_width(const char *s)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_line(s ? s : "", s ? strlen(s) : 0, &sb);
	const unsigned char *p = (const unsigned char *)amc_sb_str(&sb);
	size_t len = sb.len;
	int total = 0;
	for (size_t i = 0; i < len;) {
		wchar_t wc;
		int wd;
		i += next_char(p + i, len - i, &wc, &wd);
		total += wd;
	}
	amc_sb_free(&sb);
	return total;
}

int amc_tui_put(WINDOW *w, int y, int x, int width, const char *s, attr_t attr, int pad)
{
	if (width <= 0)
		return 0;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_line(s ? s : "", s ? strlen(s) : 0, &sb);
	const unsigned char *p = (const unsigned char *)amc_sb_str(&sb);
	size_t len = sb.len;
	int total = amc_tui_width(s);
	int room = total > width ? width - 1 : width; /* leave a cell for the ellipsis */
	int col = 0;
	wmove(w, y, x);
	for (size_t i = 0; i < len;) {
		wchar_t wc[2] = { 0, 0 };
		int wd;
		i += next_char(p + i, len - i, &wc[0], &wd);
		if (col + wd > room)
			break;
		cchar_t cc;
		setcchar(&cc, wc, attr, PAIR_NUMBER(attr), NULL);
		mvwadd_wch(w, y, x + col, &cc);
		col += wd;
	}
	if (total > width) {
		wchar_t el[2] = { amc_tui_utf8() ? 0x2026 : '~', 0 };
		cchar_t cc;
		setcchar(&cc, el, attr, PAIR_NUMBER(attr), NULL);
		mvwadd_wch(w, y, x + col, &cc);
		col++;
	}
	if (pad) {
		wattrset(w, attr);
		for (; col < width; col++)
			mvwaddch(w, y, x + col, ' ');
		wattrset(w, A_NORMAL);
	}
	amc_sb_free(&sb);
	return col;
}

char *amc_tui_row_text(WINDOW *w, int y, int cols)
{
	wchar_t line[1024];
	int n = mvwinnwstr(w, y, 0, line, cols < 1023 ? cols : 1023);
	if (n < 0)
		n = 0;
	line[n] = 0;
	while (n > 0 && line[n - 1] == L' ')
		line[--n] = 0;
	amc_sb sb;
	amc_sb_init(&sb);
	for (int i = 0; i < n; i++)
		amc_utf8_encode((unsigned)line[i], &sb);
	return amc_sb_detach(&sb);
}

/* The columns of the UTF-8 character at s + at; its end in *next. */
static int char_cols(const char *s, size_t n, size_t at, size_t *next)
{
	size_t nx = at + 1;
	while (nx < n && ((unsigned char)s[nx] & 0xC0) == 0x80)
		nx++;
	char ch[8];
	snprintf(ch, sizeof ch, "%.*s", (int)(nx - at), s + at);
	*next = nx;
	return amc_tui_width(ch);
}

size_t amc_tui_fit_bytes(const char *s, int cols)
{
	size_t take = 0, n = strlen(s), nx;
	for (int used = 0, w; take < n && used + (w = char_cols(s, n, take, &nx)) <= cols; used += w)
		take = nx;
	return take;
}

size_t amc_tui_wrap_take(const char *s, int w, size_t *next)
{
	size_t n = strlen(s), take = 0, lastsp = 0;
	int cols = 0;
	while (take < n) {
		size_t nx;
		int cw = char_cols(s, n, take, &nx);
		if (cols + cw > w)
			break;
		cols += cw;
		take = nx;
		if (s[take] == ' ')
			lastsp = take;
	}
	if (take == 0 && n > 0) {
		take = 1; /* a character wider than the room: one anyway */
		while (take < n && ((unsigned char)s[take] & 0xC0) == 0x80)
			take++;
	}
	if (lastsp > 0 && take < n)
		take = lastsp;
	size_t nx = take;
	while (s[nx] == ' ')
		nx++;
	*next = nx;
	return take;
}

/* Split s into lines of at most w columns, breaking at spaces where it can;
 * draws them from row y when draw is set. Returns the number of lines. */
int amc_tui_wrap(const char *s, int y, int x, int w, int max, attr_t at, int draw)
{
	int lines = 0;
	if (w < 1)
		return 0;
	while (*s && lines < max) {
		size_t next, take = amc_tui_wrap_take(s, w, &next);
		if (draw) {
			char part[2048];
			snprintf(part, sizeof part, "%.*s", (int)(take < sizeof part - 1 ? take : sizeof part - 1), s);
			amc_tui_put(stdscr, y + lines, x, w, part, at, 1);
		}
		lines++;
		s += next;
	}
	return lines;
}
