/* view_help.c - the Help view: the keys of the view it was opened from, and
 * of the dialogs it opens, generated from the keymap table. */
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/text.h"
#include "util/strbuf.h"

typedef struct help_view {
	unsigned of;
	char **lines;
	size_t n;
	long top;
	int page;
	long nrows;     /* rows once wrapped to the width last drawn */
} help_view;

/* The keys of `view` under a heading, after a blank line. */
static void add_section(help_view *h, const char *heading, unsigned view)
{
	size_t n;
	char **tl = amc_tui_keymap_lines(view, &n);
	h->lines = amc_xrealloc(h->lines, (h->n + n + 2) * sizeof *h->lines);
	h->lines[h->n++] = amc_xstrdup("");
	h->lines[h->n++] = amc_xstrdup(heading);
	memcpy(h->lines + h->n, tl, n * sizeof *tl);
	h->n += n;
	free(tl);
}

void *amc_tui_help_new(amc_tui_app *a, unsigned view)
{
	(void)a;
	help_view *h = amc_xcalloc(1, sizeof *h);
	h->of = view;
	h->lines = amc_tui_keymap_lines(view, &h->n);
	if (view & AMC_VIEW_TASK)
		add_section(h, "In the UI tree pane:", AMC_VIEW_TREE); /* the tree pane's own keys */
	/* Every view opens dialogs (n launches, c and / ask): their keys too. */
	add_section(h, "In dialogs (in a text field a letter is typed):", AMC_VIEW_DIALOG);
	return h;
}

/* A row of the table is "KEYS (16 columns) DESCRIPTION": where the width is
 * too narrow for a description it wraps under itself, so nothing is cut at
 * 80 columns (a heading or a blank line is drawn as it is). */
static void draw(amc_tui_app *a, amc_tui_view *v, int y, int hgt, int w)
{
	(void)a;
	help_view *h = v->data;
	h->page = hgt - 2;
	int room = w - 4, ind = 17;
	long row = 0;
	for (size_t i = 0; i < h->n; i++) {
		const char *ln = h->lines[i];
		int table = strlen(ln) > (size_t)ind && ln[ind - 1] == ' ' && room > ind + 10;
		const char *p = table ? ln + ind : ln;
		int first = 1;
		do {
			int col = first ? 0 : ind, wd = table ? room - ind : room;
			size_t next, take = table ? amc_tui_wrap_take(p, wd, &next) : strlen(p);
			if (!table)
				next = take;
			long r = row - h->top;
			if (r >= 0 && r < h->page) {
				amc_sb sb;
				amc_sb_init(&sb);
				if (first && table)
					amc_sb_printf(&sb, "%.*s", ind, ln);
				amc_sb_printf(&sb, "%.*s", (int)take, p);
				amc_tui_put(stdscr, y + 2 + (int)r, 2 + col, room - col, amc_sb_str(&sb),
					    amc_tui_attr(AMC_EL_NORMAL), 0);
				amc_sb_free(&sb);
			}
			row++;
			p += next;
			first = 0;
		} while (*p);
	}
	h->nrows = row;
	/* the title last: it says whether keys lie below or above the page (at
	 * 80x24 a third of them do, and nothing else would tell) */
	char title[192];
	const char *more = h->top + h->page < row ? (h->top > 0 ? "; more above and below: k/j, PgUp/PgDn" : "; more below: j, PgDn")
			   : h->top > 0 ? "; more above: k, PgUp" : "";
	snprintf(title, sizeof title, "Keys of the %s view (Esc: back%s)", amc_tui_keymap_view_name(h->of), more);
	amc_tui_put(stdscr, y, 1, w - 2, title, amc_tui_attr(AMC_EL_TITLE), 1);
}

static int request(amc_tui_app *a, amc_tui_view *v, amc_tui_req req)
{
	(void)a;
	help_view *h = v->data;
	long n = h->nrows ? h->nrows : (long)h->n;
	long max = n - h->page > 0 ? n - h->page : 0;
	switch (req) {
	case AMC_REQ_DOWN: h->top++; break;
	case AMC_REQ_UP: h->top--; break;
	case AMC_REQ_PAGE_DOWN: h->top += h->page; break;
	case AMC_REQ_PAGE_UP: h->top -= h->page; break;
	case AMC_REQ_TOP: h->top = 0; break;
	case AMC_REQ_BOTTOM: h->top = max; break;
	default: return 0;
	}
	if (h->top > max)
		h->top = max;
	if (h->top < 0)
		h->top = 0;
	return 1;
}

static void vfree(amc_tui_view *v)
{
	help_view *h = v->data;
	amc_tui_keymap_lines_free(h->lines, h->n);
	free(h);
}

const amc_tui_view_ops amc_tui_view_help = {
	"Help", AMC_VIEW_HELP, draw, request, NULL, NULL, NULL, vfree, NULL, NULL,
};
