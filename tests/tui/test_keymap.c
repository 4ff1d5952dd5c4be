/* test_keymap.c - the one keymap table drives key handling, the help screen
 * and amc(1): every row is complete, no key is bound twice in a view, lookup
 * honours the tree pane's precedence, and help lines and the man page list
 * every row. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tui/keymap.h"

static const unsigned VIEW_BITS[] = { AMC_VIEW_TASKS, AMC_VIEW_TASK, AMC_VIEW_DEVICES,
				      AMC_VIEW_HELP, AMC_VIEW_DIALOG, AMC_VIEW_TREE, AMC_VIEW_FLEET, AMC_VIEW_HITS };
#define NBITS (sizeof VIEW_BITS / sizeof VIEW_BITS[0])
#define KNOWN_BITS (AMC_VIEW_TASKS | AMC_VIEW_TASK | AMC_VIEW_DEVICES | AMC_VIEW_HELP | AMC_VIEW_DIALOG | AMC_VIEW_TREE | \
		    AMC_VIEW_FLEET | AMC_VIEW_HITS)

static size_t nrows(void)
{
	size_t n = 0;
	while (amc_tui_keymap_at(n))
		n++;
	return n;
}

/* Distinct requests bound in `view`. */
static size_t distinct_reqs(unsigned view)
{
	int seen[AMC_REQ__COUNT] = { 0 };
	size_t n = nrows(), k = 0;
	for (size_t i = 0; i < n; i++) {
		const amc_tui_binding *b = amc_tui_keymap_at(i);
		if ((b->views & view) && !seen[b->req]) {
			seen[b->req] = 1;
			k++;
		}
	}
	return k;
}

static void test_rows(void)
{
	size_t n = nrows();
	ok(n > 40, "the table has rows (%zu)", n);
	ok(amc_tui_keymap_at(n) == NULL && amc_tui_keymap_at(n + 1000) == NULL, "past the end is NULL");
	int complete = 1, dup = 0;
	for (size_t i = 0; i < n; i++) {
		const amc_tui_binding *b = amc_tui_keymap_at(i);
		if (!b->keyname || !*b->keyname || !b->help || !*b->help || b->req <= AMC_REQ_NONE ||
		    b->req >= AMC_REQ__COUNT || !b->views || (b->views & ~(unsigned)KNOWN_BITS) || strchr(b->help, '\n')) {
			complete = 0;
			diag("row %zu (%s) is incomplete", i, b->keyname ? b->keyname : "?");
		}
		for (size_t j = i + 1; j < n; j++) {
			const amc_tui_binding *c = amc_tui_keymap_at(j);
			if (c->key == b->key && (c->views & b->views)) {
				dup++;
				diag("key %s bound twice in views 0x%x", b->keyname, c->views & b->views);
			}
		}
	}
	ok(complete, "every row has a key name, a known request, views and a one-line help");
	is_int(dup, 0, "no key is bound twice within one view");
}

static void test_lookup(void)
{
	size_t n = nrows();
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		const amc_tui_binding *b = amc_tui_keymap_at(i);
		for (size_t k = 0; k < NBITS; k++)
			if ((b->views & VIEW_BITS[k]) && amc_tui_keymap_lookup(b->key, VIEW_BITS[k]) != b->req) {
				bad++;
				diag("lookup(%s, %s) is not the row's request", b->keyname,
				     amc_tui_keymap_view_name(VIEW_BITS[k]));
			}
	}
	is_int(bad, 0, "every row is found by its key in each of its views");
	is_int(amc_tui_keymap_lookup('n', AMC_VIEW_TASK), AMC_REQ_LAUNCH, "n launches in the Task view");
	is_int(amc_tui_keymap_lookup('n', AMC_VIEW_TASK | AMC_VIEW_TREE), AMC_REQ_SEARCH_NEXT,
	       "n is the next match while the tree pane has focus (its rows win)");
	is_int(amc_tui_keymap_lookup('n', AMC_VIEW_DIALOG), AMC_REQ_NO, "n is no in a dialog");
	is_int(amc_tui_keymap_lookup('q', AMC_VIEW_TASK | AMC_VIEW_TREE), AMC_REQ_QUIT,
	       "keys the tree pane does not bind fall through to the Task view");
	is_int(amc_tui_keymap_lookup('h', AMC_VIEW_TASK), AMC_REQ_PAN_LEFT, "outside the tree pane h pans a zoomed screenshot");
	is_int(amc_tui_keymap_lookup('h', AMC_VIEW_TASKS), AMC_REQ_NONE, "h does nothing in the Tasks view");
	is_int(amc_tui_keymap_lookup('p', AMC_VIEW_TASK), AMC_REQ_PICK, "p picks on the screenshot");
	is_int(amc_tui_keymap_lookup('x', AMC_VIEW_TASK), AMC_REQ_CROP, "x zooms to the target");
	is_int(amc_tui_keymap_lookup('R', AMC_VIEW_TASK), AMC_REQ_OCR_FULL, "R runs full OCR");
	is_int(amc_tui_keymap_lookup('/', AMC_VIEW_TASKS), AMC_REQ_SEARCH, "/ searches the Tasks view");
	is_int(amc_tui_keymap_lookup('/', AMC_VIEW_DEVICES), AMC_REQ_NONE, "/ is unbound in the Devices view");
	is_int(amc_tui_keymap_lookup('X', AMC_VIEW_ALL), AMC_REQ_NONE, "an unbound key is NONE");
	is_int(amc_tui_keymap_lookup('j', 0), AMC_REQ_NONE, "no view: nothing is bound");
	is_int(amc_tui_keymap_lookup(AMC_KEY_META('-'), AMC_VIEW_TREE), AMC_REQ_COLLAPSE_ALL, "M-- collapses all");
	is_int(amc_tui_keymap_lookup('\r', AMC_VIEW_TASKS), AMC_REQ_ENTER, "CR is Enter too");
	is_int(amc_tui_keymap_lookup(KEY_ENTER, AMC_VIEW_TASKS), AMC_REQ_ENTER, "keypad Enter is Enter too");
	/* The dialog context (tui/dialog.c looks its keys up here). */
	is_int(amc_tui_keymap_lookup(KEY_ENTER, AMC_VIEW_DIALOG), AMC_REQ_ENTER, "keypad Enter accepts in a dialog");
	is_int(amc_tui_keymap_lookup('\t', AMC_VIEW_DIALOG), AMC_REQ_NEXT_PANE, "Tab: a dialog's next field");
	is_int(amc_tui_keymap_lookup(KEY_BTAB, AMC_VIEW_DIALOG), AMC_REQ_PREV_PANE, "S-Tab: its previous field");
	is_int(amc_tui_keymap_lookup('j', AMC_VIEW_DIALOG), AMC_REQ_DOWN, "j: the next choice");
	is_int(amc_tui_keymap_lookup('k', AMC_VIEW_DIALOG), AMC_REQ_UP, "k: the previous choice");
	is_int(amc_tui_keymap_lookup(27, AMC_VIEW_DIALOG), AMC_REQ_BACK, "Esc closes a dialog");
	is_int(amc_tui_keymap_lookup('q', AMC_VIEW_DIALOG), AMC_REQ_NONE, "q does not quit from a dialog");
}

static void test_view_names(void)
{
	is_str(amc_tui_keymap_view_name(AMC_VIEW_TASKS), "Tasks", "Tasks view name");
	is_str(amc_tui_keymap_view_name(AMC_VIEW_TASK), "Task", "Task view name");
	is_str(amc_tui_keymap_view_name(AMC_VIEW_DEVICES), "Devices", "Devices view name");
	is_str(amc_tui_keymap_view_name(AMC_VIEW_HELP), "Help", "Help view name");
	is_str(amc_tui_keymap_view_name(AMC_VIEW_DIALOG), "Dialogs", "Dialogs name");
	is_str(amc_tui_keymap_view_name(AMC_VIEW_TREE), "UI tree", "tree pane name");
	is_str(amc_tui_keymap_view_name(AMC_VIEW_TASKS | AMC_VIEW_TASK), "?", "a mask of two views has no name");
}

static void test_lines(void)
{
	size_t n = nrows();
	for (size_t k = 0; k < NBITS; k++) {
		unsigned v = VIEW_BITS[k];
		size_t nl;
		char **lines = amc_tui_keymap_lines(v, &nl);
		is_int(nl, distinct_reqs(v), "%s: one help line per request", amc_tui_keymap_view_name(v));
		int missing = 0;
		for (size_t i = 0; i < n; i++) {
			const amc_tui_binding *b = amc_tui_keymap_at(i);
			if (!(b->views & v))
				continue;
			/* One line per request: its help is that of the request's
			 * first row in the view (C-l in the Devices view reads as r's
			 * "list the devices again", which is what it does there). */
			const amc_tui_binding *first = NULL;
			for (size_t j = 0; j <= i && !first; j++) {
				const amc_tui_binding *c = amc_tui_keymap_at(j);
				if ((c->views & v) && c->req == b->req)
					first = c;
			}
			int found = 0;
			for (size_t l = 0; l < nl; l++) {
				/* "KEYS  help": the key list is the part before the help text. */
				const char *h = strstr(lines[l], first->help);
				if (!h)
					continue;
				char keys[256];
				snprintf(keys, sizeof keys, "%.*s", (int)(h - lines[l]), lines[l]);
				for (char *t = strtok(keys, ", "); t; t = strtok(NULL, ", "))
					if (!strcmp(t, b->keyname))
						found = 1;
			}
			if (!found) {
				missing++;
				diag("%s: %s has no help line", amc_tui_keymap_view_name(v), b->keyname);
			}
		}
		is_int(missing, 0, "%s: every binding has a help line naming its key", amc_tui_keymap_view_name(v));
		amc_tui_keymap_lines_free(lines, nl);
	}
	size_t nl;
	char **lines = amc_tui_keymap_lines(AMC_VIEW_TASKS, &nl);
	const char *enter = NULL;
	for (size_t l = 0; l < nl; l++)
		if (strstr(lines[l], "open the selected task"))
			enter = lines[l];
	ok(enter && !strncmp(enter, "Enter ", 6) && !strstr(enter + 1, "Enter"),
	   "Enter (three key codes) is listed once: '%s'", enter ? enter : "");
	const char *down = NULL;
	for (size_t l = 0; l < nl; l++)
		if (strstr(lines[l], "next row"))
			down = lines[l];
	ok(down && !strncmp(down, "j, Down ", 8), "keys of one request are joined: '%s'", down ? down : "");
	amc_tui_keymap_lines_free(lines, nl);
	lines = amc_tui_keymap_lines(0, &nl);
	is_int(nl, 0, "no view: no lines");
	amc_tui_keymap_lines_free(lines, nl);
}

static void test_parse_key(void)
{
	/* Every key name shown in help can be typed in a script and means the
	 * same request there. */
	size_t n = nrows();
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		const amc_tui_binding *b = amc_tui_keymap_at(i);
		int k = amc_tui_keymap_parse_key(b->keyname);
		unsigned v = b->views & AMC_VIEW_TREE ? AMC_VIEW_TREE : b->views;
		if (k < 0 || amc_tui_keymap_lookup(k, v) != b->req) {
			bad++;
			diag("key name %s does not parse back to its request", b->keyname);
		}
	}
	is_int(bad, 0, "every key name parses to a key with the row's request");
	is_int(amc_tui_keymap_parse_key("Enter"), '\n', "Enter");
	is_int(amc_tui_keymap_parse_key("Esc"), 27, "Esc");
	is_int(amc_tui_keymap_parse_key("S-Tab"), KEY_BTAB, "S-Tab");
	is_int(amc_tui_keymap_parse_key("Space"), ' ', "Space");
	is_int(amc_tui_keymap_parse_key("F1"), KEY_F(1), "F1");
	is_int(amc_tui_keymap_parse_key("C-l"), 12, "C-l is ^L");
	is_int(amc_tui_keymap_parse_key("M-+"), AMC_KEY_META('+'), "M-+");
	is_int(amc_tui_keymap_parse_key("G"), 'G', "a single character is itself");
	is_int(amc_tui_keymap_parse_key("-"), '-', "'-' alone is itself");
	is_int(amc_tui_keymap_parse_key("Bogus"), -1, "unknown name");
	is_int(amc_tui_keymap_parse_key(""), -1, "empty name");
	is_int(amc_tui_keymap_parse_key("C-1"), -1, "C- needs a letter");
	is_int(amc_tui_keymap_parse_key("C-ab"), -1, "C- takes one letter");
	is_int(amc_tui_keymap_parse_key("M-"), -1, "M- needs a key");
	is_int(amc_tui_keymap_parse_key("enter"), -1, "names are case-sensitive");
}

static char *man_text(void)
{
	FILE *f = tmpfile();
	if (!f)
		return NULL;
	amc_tui_keymap_write_man(f);
	long len = ftell(f);
	rewind(f);
	char *buf = calloc(1, (size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len)
		buf[0] = 0;
	fclose(f);
	return buf;
}

/* The roff form of a help text (what write_man prints). */
static void roffed(const char *s, char *out, size_t n)
{
	size_t o = 0;
	for (; *s && o + 3 < n; s++) {
		if (*s == '-' || *s == '\\')
			out[o++] = '\\';
		out[o++] = *s == '\\' ? 'e' : *s;
	}
	out[o] = 0;
}

static void test_man(void)
{
	char *m = man_text();
	ok(m && !strncmp(m, ".\\\"", 3), "the man page starts with a roff comment");
	like(m, ".TH AMC 1", "it has a title line");
	const char *keys = strstr(m, "\n.SH KEYS\n");
	ok(keys != NULL, "it has a KEYS section");
	const char *end = keys ? strstr(keys + 1, "\n.SH ") : NULL;
	ok(end != NULL, "a section follows KEYS");
	if (!keys || !end) {
		free(m);
		return;
	}
	char *sec = strndup(keys, (size_t)(end - keys));
	size_t want = 0, got = 0;
	for (size_t k = 0; k < NBITS; k++) {
		char ss[64];
		snprintf(ss, sizeof ss, "\n.SS %s\n", amc_tui_keymap_view_name(VIEW_BITS[k]));
		ok(strstr(sec, ss) != NULL, "KEYS has a %s subsection", amc_tui_keymap_view_name(VIEW_BITS[k]));
		want += distinct_reqs(VIEW_BITS[k]);
	}
	for (const char *p = sec; (p = strstr(p, "\n.TP\n.B ")) != NULL; p++)
		got++;
	is_int(got, want, "one .TP entry per request and view");
	int missing = 0;
	for (size_t i = 0; i < nrows(); i++) {
		char r[512];
		roffed(amc_tui_keymap_at(i)->help, r, sizeof r);
		if (!strstr(sec, r)) {
			missing++;
			diag("help '%s' is not in the man page", amc_tui_keymap_at(i)->help);
		}
	}
	is_int(missing, 0, "every row's help is in the man page, roff-escaped");
	ok(strstr(sec, ".B M\\-\\-\n") != NULL, "key names are escaped too (M--)");
	/* No text line may start with '.' or '\'' unless it is a request we wrote. */
	int stray = 0;
	for (const char *p = m; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (*p == '\'')
			stray++;
	is_int(stray, 0, "no line starts with a quote (a roff control)");
	free(sec);
	free(m);
}

int main(void)
{
	test_rows();
	test_lookup();
	test_view_names();
	test_lines();
	test_parse_key();
	test_man();
	return done_testing();
}
