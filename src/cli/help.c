/* help.c - what a person reads about the commands: `--help` folded to the
 * terminal's width, and amc(1): the keymap's pages (tui/keymap.c) with two
 * sections made here from the tables they document, so the manual cannot miss
 * a command, an option or a setting: COMMANDS from the command table (each
 * command's usage and help, the text `amc CMD --help` prints) and
 * CONFIGURATION from the configuration table (src/util/config.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "tui/tui.h"
#include "util/config.h"
#include "util/roff.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* Man pages are read in 80 columns; roff indents .nf text by 7. */
#define MAN_TEXT_COLS 72

/* Columns of a UTF-8 run: one per code point. */
static int cols(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

int amc_cli_term_width(FILE *f)
{
	const char *c = getenv("COLUMNS");
	char *end;
	long v = c && *c ? strtol(c, &end, 10) : 0;
	if (c && *c && !*end && v >= 20 && v <= 1000)
		return (int)v;
	struct winsize ws;
	if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 0;
}

void amc_cli_put_wrapped(FILE *f, const char *s, int col, int indent)
{
	int width = amc_cli_term_width(f);
	char *m = amc_sanitize_dup(s ? s : "");
	if (width <= indent + 10) {
		fputs(m, f); /* not a terminal, or too narrow to wrap usefully */
		free(m);
		return;
	}
	const char *p = m;
	int first = 1;
	while (*p) {
		size_t wl = strcspn(p, " ");
		int wc = cols(p, wl);
		if (!first && col + 1 + wc > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		/* a word longer than a line is cut at the edge, the rest on the next */
		while (col + wc > width && wl > 0) {
			size_t take = 0;
			int tc = 0;
			while (take < wl && col + tc < width) {
				take++;
				while (take < wl && ((unsigned char)p[take] & 0xC0) == 0x80)
					take++;
				tc++;
			}
			fwrite(p, 1, take, f);
			fprintf(f, "\n%*s", indent, "");
			p += take, wl -= take, wc -= tc;
			col = indent;
		}
		fwrite(p, 1, wl, f);
		col += wc;
		p += wl;
		while (*p == ' ')
			p++;
		first = 0;
	}
	free(m);
}

/* The description column of an option row ("  -x, --opt ARG   what it
 * does": after the first run of two or more spaces that follows text), or 0
 * when the line is not one. */
static size_t desc_raw(const char *l, size_t n, size_t *opt_end)
{
	size_t lead = strspn(l, " ");
	for (size_t i = lead; i + 2 < n; i++)
		if (l[i] != ' ' && l[i + 1] == ' ' && l[i + 2] == ' ') {
			size_t j = i + 1;
			while (j < n && l[j] == ' ')
				j++;
			if (opt_end)
				*opt_end = i + 1;
			return j < n ? j : 0;
		}
	return 0;
}

static size_t desc_col(const char *l, size_t n, int width)
{
	size_t j = desc_raw(l, n, NULL);
	return j && cols(l, j) <= width / 2 ? j : 0;
}
typedef struct line {
	const char *s;
	size_t n;
} line;

/* Words of lines[a..b) from byte `from` of the first, folded: the first line
 * keeps its text up to `from`, later ones start at column `hang`. */
static void fold_block(amc_sb *out, const line *v, size_t a, size_t b, size_t from, size_t hang, int width)
{
	/* a block indented past half the width (a description under a long
	 * option, on a narrow terminal) moves left to a quarter of it */
	int blank = strspn(v[a].s, " ") >= from; /* the first line's prefix is spaces only */
	if (blank && from == hang && hang > (size_t)width / 2)
		from = hang = (size_t)width / 4;
	if (blank)
		amc_sb_printf(out, "%*s", (int)from, "");
	else
		amc_sb_append(out, v[a].s, from);
	int col = blank ? (int)from : cols(v[a].s, from), first = 1;
	for (size_t k = a; k < b; k++) {
		size_t p = k == a ? from : 0;
		while (p < v[k].n) {
			while (p < v[k].n && v[k].s[p] == ' ')
				p++;
			if (p >= v[k].n)
				break;
			size_t w = p;
			while (w < v[k].n && v[k].s[w] != ' ')
				w++;
			int wc = cols(v[k].s + p, w - p);
			if (!first && col + 1 + wc > width) {
				amc_sb_printf(out, "\n%*s", (int)hang, "");
				col = (int)hang;
			} else if (!first) {
				amc_sb_append(out, " ", 1);
				col++;
			}
			/* a word longer than a line stays whole: a path or a URL cut
			 * in two could not be copied */
			amc_sb_append(out, v[k].s + p, w - p);
			col += wc;
			first = 0;
			p = w;
		}
	}
	amc_sb_append(out, "\n", 1);
}

/* An option row whose description column is past half the width: the
 * option alone on its line, then its description and the lines that
 * continue it (lines i+1..j) folded under it, indented from the option. */
static void fold_narrow(amc_sb *out, const line *v, size_t i, size_t j, size_t opt_end, size_t desc,
			size_t lead, int width)
{
	amc_sb_append(out, v[i].s, opt_end);
	amc_sb_append(out, "\n", 1);
	size_t hang = lead + 6 < (size_t)width / 2 ? lead + 6 : lead + 2;
	amc_sb first;
	amc_sb_init(&first);
	amc_sb_printf(&first, "%*s", (int)hang, "");
	amc_sb_append(&first, v[i].s + desc, v[i].n - desc);
	line *t = amc_xmalloc((j - i) * sizeof *t);
	t[0].s = amc_sb_str(&first);
	t[0].n = first.len;
	for (size_t k = i + 1; k < j; k++)
		t[k - i] = v[k];
	fold_block(out, t, 0, j - i, hang, hang, width);
	free(t);
	amc_sb_free(&first);
}

/* The end of the lines from `j` that continue a line indented by `lead`:
 * lines all at one deeper indent (at least lead + 4), none an option row. */
static size_t continued(const line *v, size_t nv, size_t j, size_t lead)
{
	size_t at = j < nv ? strspn(v[j].s, " ") : 0;
	if (j >= nv || at >= v[j].n || at < lead + 4)
		return j;
	while (j < nv && strspn(v[j].s, " ") == at && at < v[j].n && !desc_raw(v[j].s, v[j].n, NULL))
		j++;
	return j;
}

/* Help text is written as blocks: an option row and the deeper-indented lines
 * that continue its description, or a paragraph of lines at one indent. A
 * block with a line wider than `width` is folded as a whole (an option's text
 * continues under its description); the others stay as written. */
char *amc_cli_fold(const char *text, int width)
{
	amc_sb out;
	amc_sb_init(&out);
	line *v = NULL;
	size_t nv = 0;
	for (const char *p = text ? text : ""; *p;) {
		size_t n = strcspn(p, "\n");
		v = amc_xrealloc(v, (nv + 1) * sizeof *v);
		v[nv].s = p;
		v[nv++].n = n;
		p += n;
		if (*p == '\n')
			p++;
	}
	for (size_t i = 0; i < nv;) {
		size_t lead = strspn(v[i].s, " ");
		if (lead >= v[i].n) { /* empty line */
			amc_sb_append(&out, v[i].s, v[i].n);
			amc_sb_append(&out, "\n", 1);
			i++;
			continue;
		}
		size_t d = width > 0 ? desc_col(v[i].s, v[i].n, width) : 0, from = lead, hang = lead, j = i + 1;
		if (d) {
			from = hang = d;
			j = continued(v, nv, i + 1, lead);
			if (j > i + 1 && strspn(v[i + 1].s, " ") < hang)
				hang = strspn(v[i + 1].s, " ");
		} else if (lead >= 8) {
			/* a description's lines under a long item: one paragraph
			 * at that indent */
			while (j < nv && strspn(v[j].s, " ") == lead && lead < v[j].n &&
			       !desc_raw(v[j].s, v[j].n, NULL))
				j++;
		} else if (lead) {
			/* an item of a list: alone, continuing under the deeper
			 * lines that follow it when they are near */
			size_t next = i + 1 < nv ? strspn(v[i + 1].s, " ") : 0;
			hang = next >= lead + 4 && next < lead + 12 && next < v[i + 1].n ? next : lead + 4;
		} else {
			/* a paragraph: the lines that follow at the margin */
			if (!strncmp(v[i].s, "usage: ", 7))
				hang = 4;
			while (j < nv && v[j].n && v[j].s[0] != ' ' && !desc_raw(v[j].s, v[j].n, NULL))
				j++;
		}
		size_t opt_end = 0, raw = d || width <= 0 ? 0 : desc_raw(v[i].s, v[i].n, &opt_end);
		if (raw && lead < 8) {
			/* an option row too wide for this terminal's columns: the
			 * description goes under it, a little indented */
			j = continued(v, nv, i + 1, lead);
			int wide = 0;
			for (size_t k = i; k < j; k++)
				wide |= cols(v[k].s, v[k].n) > width;
			if (wide) {
				fold_narrow(&out, v, i, j, opt_end, raw, lead, width);
				i = j;
				continue;
			}
		}
		int wide = 0;
		for (size_t k = i; k < j; k++)
			wide |= width > 0 && cols(v[k].s, v[k].n) > width;
		if (!wide) {
			for (size_t k = i; k < j; k++) {
				amc_sb_append(&out, v[k].s, v[k].n);
				amc_sb_append(&out, "\n", 1);
			}
		} else {
			fold_block(&out, v, i, j, from, hang, width);
		}
		i = j;
	}
	free(v);
	/* text without a final newline keeps it that way */
	char *r = amc_sb_detach(&out);
	size_t rl = strlen(r), tl = text ? strlen(text) : 0;
	if (rl && (!tl || text[tl - 1] != '\n') && r[rl - 1] == '\n')
		r[rl - 1] = 0;
	return r;
}

void amc_cli_put_help(FILE *f, const char *text)
{
	char *s = amc_cli_fold(text, amc_cli_term_width(f));
	fputs(s, f);
	free(s);
}

static void roff(FILE *f, const char *s)
{
	amc_roff_put(f, s, strlen(s));
}

/* A help text as written for the terminal (aligned columns), kept as is but
 * folded to the page's width. */
static void roff_block(FILE *f, const char *text)
{
	char *folded = amc_cli_fold(text, MAN_TEXT_COLS);
	fputs(".nf\n", f);
	const char *p = folded;
	while (*p) {
		size_t n = strcspn(p, "\n");
		amc_roff_put(f, p, n);
		fputc('\n', f);
		p += n;
		if (*p == '\n')
			p++;
	}
	fputs(".fi\n", f);
	free(folded);
}

struct man_cmds {
	const amc_cmd *const *cmds;
	size_t n;
};

static void commands(FILE *f, const amc_cmd *const *cmds, size_t n)
{
	fputs(".SH COMMANDS\n"
	      "Each command's options, as `amc COMMAND \\-\\-help' prints them. Exit status: 0 success, "
	      "1 failure (a task failed), 2 bad usage or input, 3 the environment (a missing dependency, a device unavailable or busy), 130 cancelled.\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs(".SS amc ", f);
		roff(f, cmds[i]->name);
		fputc('\n', f);
		amc_sb u;
		amc_sb_init(&u);
		amc_sb_printf(&u, "amc %s", cmds[i]->usage);
		roff_block(f, amc_sb_str(&u));
		amc_sb_free(&u);
		fputs(".PP\n", f);
		roff(f, cmds[i]->summary);
		fputc('\n', f);
		if (cmds[i]->help && *cmds[i]->help)
			roff_block(f, cmds[i]->help);
	}
}

static void configuration(FILE *f)
{
	amc_config *c = amc_config_new();
	fputs(".SH CONFIGURATION\n"
	      "Settings are `key = value' lines under `[section]' headers in $XDG_CONFIG_HOME/amc/config; "
	      "each is also AMC_SECTION_KEY in the environment. The command line wins over the environment, "
	      "the environment over the file, the file over the default. `amc config' prints the effective "
	      "values and where each came from.\n", f);
	const char *section = "";
	for (size_t i = 0; c && i < amc_config_count(c); i++) {
		amc_config_item it = amc_config_item_at(c, i);
		char values[128];
		amc_config_item_values(i, values, sizeof values);
		if (strcmp(section, it.section)) {
			fputs(".SS [", f);
			roff(f, it.section);
			fputs("]\n", f);
			section = it.section;
		}
		fputs(".TP\n.B ", f);
		roff(f, it.section);
		fputc('.', f);
		roff(f, it.key);
		fputs("\n", f);
		roff(f, it.help);
		fputs(" (", f);
		roff(f, values);
		fputs("; default: ", f);
		roff(f, *it.value ? it.value : "empty");
		fputs(")\n", f);
	}
	amc_config_free(c);
}

static void sections(FILE *f, void *ud)
{
	const struct man_cmds *mc = ud;
	commands(f, mc->cmds, mc->n);
	configuration(f);
}

void amc_cli_write_man(FILE *f, const amc_cmd *const *cmds, size_t n)
{
	struct man_cmds mc = { cmds, n };
	amc_tui_write_man_with(f, sections, &mc);
}
