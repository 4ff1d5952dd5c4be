/* keyboard.c - a soft keyboard recognized as one thing (see keyboard.h). */
#include "perception/keyboard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* ---- the tree: nodes of an input method ---------------------------------- */

static int contains(const char *s, const char *what)
{
	return s && strstr(s, what) != NULL;
}

int amc_keyboard_ime_node(const amc_ui_node *n)
{
	static const char *const packages[] = {
		"com.google.android.inputmethod.", "com.android.inputmethod.", "com.samsung.android.honeyboard",
		"com.sec.android.inputmethod", "com.touchtype.swiftkey", "com.baidu.input", NULL
	};
	if (!n)
		return 0;
	for (const char *const *p = packages; *p; p++)
		if (!strncmp(n->package, *p, strlen(*p)))
			return 1;
	/* other IMEs name themselves (org.pocketworkstation.pckeyboard,
	 * com.menny.android.anysoftkeyboard, com.iflytek.inputmethod) */
	if (contains(n->package, "inputmethod") || contains(n->package, "keyboard"))
		return 1;
	if (!strncmp(n->class_name, "android.inputmethodservice.", 27))
		return 1;
	return !strcmp(n->resource_id, "android:id/inputArea") || contains(n->resource_id, ":id/key_pos_");
}

/* ---- rows of keys ---------------------------------------------------------- */

typedef struct tok {
	size_t i;      /* index into the keys */
	double cx, cy;
} tok;

typedef struct krow {
	size_t first, n; /* a run of the sorted tokens */
	double cy;
	double span;     /* from the first to the last centre, x */
} krow;

static int cmp_cy(const void *a, const void *b)
{
	const tok *x = a, *y = b;
	return x->cy < y->cy ? -1 : x->cy > y->cy ? 1 : x->cx < y->cx ? -1 : x->cx > y->cx;
}

static int cmp_cx(const void *a, const void *b)
{
	const tok *x = a, *y = b;
	return x->cx < y->cx ? -1 : x->cx > y->cx;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The median token height (at least 1). */
static int median_height(const amc_kb_key *keys, const tok *t, size_t n)
{
	int *h = amc_xcalloc(n ? n : 1, sizeof *h);
	for (size_t k = 0; k < n; k++)
		h[k] = keys[t[k].i].box.y2 - keys[t[k].i].box.y1;
	qsort(h, n, sizeof *h, cmp_int);
	int m = n ? h[n / 2] : 1;
	free(h);
	return m > 0 ? m : 1;
}

/* Groups tokens sorted by centre y into rows (each sorted by x); returns the
 * number of rows in *rows (caller frees). */
static size_t group_rows(const amc_kb_key *keys, tok *t, size_t n, krow **rows)
{
	*rows = amc_xcalloc(n ? n : 1, sizeof **rows);
	size_t nr = 0;
	double tol = AMC_KB_ROW_TOLERANCE * median_height(keys, t, n);
	for (size_t k = 0; k < n;) {
		size_t j = k + 1;
		while (j < n && t[j].cy - t[k].cy <= tol)
			j++;
		qsort(t + k, j - k, sizeof *t, cmp_cx);
		krow *r = &(*rows)[nr++];
		r->first = k;
		r->n = j - k;
		double sum = 0;
		for (size_t m = k; m < j; m++)
			sum += t[m].cy;
		r->cy = sum / (double)(j - k);
		r->span = t[j - 1].cx - t[k].cx;
		k = j;
	}
	return nr;
}

static tok *tokens_of(const amc_kb_key *keys, size_t n)
{
	tok *t = amc_xcalloc(n ? n : 1, sizeof *t);
	for (size_t k = 0; k < n; k++) {
		t[k].i = k;
		t[k].cx = (keys[k].box.x1 + keys[k].box.x2) / 2.0;
		t[k].cy = (keys[k].box.y1 + keys[k].box.y2) / 2.0;
	}
	qsort(t, n, sizeof *t, cmp_cy);
	return t;
}

/* ---- layouts ----------------------------------------------------------------- */

static const struct layout {
	const char *name;
	const char *rows[3];
} LAYOUTS[] = {
	{ "QWERTY", { "qwertyuiop", "asdfghjkl", "zxcvbnm" } },
	{ "QWERTZ", { "qwertzuiop", "asdfghjkl", "yxcvbnm" } },
	{ "AZERTY", { "azertyuiop", "qsdfghjklm", "wxcvbn" } },
};

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* A letter for scoring: ASCII letters, and any non-ASCII byte (a Cyrillic
 * or Greek key is a letter no Latin layout holds). */
static int letterish(unsigned char c)
{
	return c >= 0x80 || (lower(c) >= 'a' && lower(c) <= 'z');
}

static size_t row_letters(const amc_kb_key *keys, const tok *t, const krow *r)
{
	size_t n = 0;
	for (size_t m = r->first; m < r->first + r->n; m++)
		for (const unsigned char *p = (const unsigned char *)keys[t[m].i].text; *p; p++)
			n += letterish(*p);
	return n;
}

/* Letters of row r that the layout's row `lr` holds. */
static size_t row_matches(const amc_kb_key *keys, const tok *t, const krow *r, const char *lr)
{
	size_t n = 0;
	for (size_t m = r->first; m < r->first + r->n; m++)
		for (const unsigned char *p = (const unsigned char *)keys[t[m].i].text; *p; p++)
			if (*p < 0x80 && letterish(*p) && strchr(lr, lower(*p)))
				n++;
	return n;
}

/* Digits of a row as a set (bit d), and whether they rise from left to right. */
static unsigned row_digits(const amc_kb_key *keys, const tok *t, const krow *r, int *rising)
{
	unsigned set = 0;
	int last = -1;
	*rising = 1;
	for (size_t m = r->first; m < r->first + r->n; m++)
		for (const char *p = keys[t[m].i].text; *p; p++)
			if (*p >= '0' && *p <= '9') {
				int d = *p - '0';
				set |= 1u << d;
				if (d <= last && !(last == 9 && d == 0)) /* "1234567890" */
					*rising = 0;
				last = d;
			}
	return set;
}

static int bits(unsigned v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static const char *layout_of_rows(const amc_kb_key *keys, const tok *t, const krow *rows, size_t nr)
{
	/* the three rows with letters, top down (a number row above them has none) */
	const krow *lr[3];
	size_t nl = 0, total = 0;
	for (size_t r = 0; r < nr && nl < 3; r++) {
		size_t l = row_letters(keys, t, &rows[r]);
		if (l) {
			lr[nl++] = &rows[r];
			total += l;
		}
	}
	if (nl == 3 && total >= 8) {
		const char *best = NULL;
		double best_score = 0;
		for (size_t k = 0; k < sizeof LAYOUTS / sizeof LAYOUTS[0]; k++) {
			size_t hit = 0;
			for (size_t r = 0; r < 3; r++)
				hit += row_matches(keys, t, lr[r], LAYOUTS[k].rows[r]);
			double score = (double)hit / (double)total;
			if (score > best_score) { /* ties: the first listed, QWERTY */
				best = LAYOUTS[k].name;
				best_score = score;
			}
		}
		if (best_score >= AMC_KB_MIN_LAYOUT_SCORE)
			return best;
	}
	/* a numeric pad: 1-2-3 over 4-5-6 over 7-8-9, at least two of each read;
	 * the symbols board: a rising row of at least six digits over other keys */
	static const unsigned pad[3] = { 0xeu, 0x70u, 0x380u };
	for (size_t r = 0; r + 2 < nr; r++) {
		int ok = 1, rising;
		for (size_t k = 0; k < 3 && ok; k++) {
			unsigned d = row_digits(keys, t, &rows[r + k], &rising);
			ok = bits(d) >= 2 && !(d & ~pad[k]) && !row_letters(keys, t, &rows[r + k]);
		}
		if (ok)
			return "numeric";
	}
	for (size_t r = 0; r + 2 < nr; r++) {
		int rising, below;
		unsigned d = row_digits(keys, t, &rows[r], &rising);
		/* "1234567890" over rows of symbols, not a calendar's week over weeks */
		if (bits(d) >= 6 && (d & 1u) && (d & 0x200u) && rising && !row_letters(keys, t, &rows[r]) &&
		    bits(row_digits(keys, t, &rows[r + 1], &below)) < 2)
			return "symbols";
	}
	return NULL;
}

const char *amc_keyboard_layout(const amc_kb_key *keys, size_t n)
{
	if (!keys || !n)
		return NULL;
	tok *t = tokens_of(keys, n);
	krow *rows;
	size_t nr = group_rows(keys, t, n, &rows);
	const char *l = layout_of_rows(keys, t, rows, nr);
	free(rows);
	free(t);
	return l;
}

/* ---- a grid of OCR words ------------------------------------------------------- */

int amc_keyboard_holds(const amc_bounds *box, const amc_bounds *b)
{
	int cx = (b->x1 + b->x2) / 2, cy = (b->y1 + b->y2) / 2;
	return cx >= box->x1 && cx < box->x2 && cy >= box->y1 && cy < box->y2;
}

static int candidate(const amc_kb_key *k, int height)
{
	size_t len = k->text ? strlen(k->text) : 0;
	int cy = (k->box.y1 + k->box.y2) / 2;
	return len >= 1 && len <= AMC_KB_MAX_LABEL && k->box.x2 > k->box.x1 && k->box.y2 > k->box.y1 &&
	       cy >= AMC_KB_MIN_TOP * height;
}

/* The rows of a grid: enough keys, wide enough. */
static int key_row(const krow *r, int width)
{
	return r->n >= 2 && r->span >= AMC_KB_ROW_MIN_SPAN * width;
}

/* The longest run of key rows at a regular pitch (the lowest of equals):
 * its first row and length in *first, *len; its mean pitch returned. */
static double best_run(const krow *rows, size_t nr, int width, int height, size_t *first, size_t *len)
{
	double best_pitch = 0;
	*first = *len = 0;
	for (size_t a = 0; a < nr; a++) {
		if (!key_row(&rows[a], width))
			continue;
		double lo = 0, hi = 0;
		size_t b = a + 1;
		for (; b < nr && key_row(&rows[b], width); b++) {
			double p = rows[b].cy - rows[b - 1].cy;
			if (p > 0.2 * height)
				break;
			double nlo = b == a + 1 || p < lo ? p : lo, nhi = b == a + 1 || p > hi ? p : hi;
			if (nhi > AMC_KB_PITCH_RATIO * nlo)
				break;
			lo = nlo;
			hi = nhi;
		}
		if (b - a >= *len && b - a >= 2) {
			*first = a;
			*len = b - a;
			best_pitch = (rows[b - 1].cy - rows[a].cy) / (double)(b - a - 1);
		}
	}
	return best_pitch;
}

int amc_keyboard_find(const amc_kb_key *keys, size_t n, int width, int height, amc_bounds *box,
		      const char **layout)
{
	if (!keys || width <= 0 || height <= 0)
		return 0;
	/* the candidates, copied so that rows index them */
	amc_kb_key *c = amc_xcalloc(n ? n : 1, sizeof *c);
	size_t nc = 0;
	for (size_t k = 0; k < n; k++)
		if (candidate(&keys[k], height))
			c[nc++] = keys[k];
	int found = 0;
	if (nc >= 6) {
		tok *t = tokens_of(c, nc);
		krow *rows;
		size_t nr = group_rows(c, t, nc, &rows), first, len;
		double pitch = best_run(rows, nr, width, height, &first, &len);
		const char *l = len >= AMC_KB_MIN_ROWS ? layout_of_rows(c, t, rows + first, len) : NULL;
		size_t keys_in = 0;
		for (size_t r = first; r < first + len; r++)
			keys_in += rows[r].n;
		/* a letter board has many keys; a numeric pad may show only its digits */
		if (l && (keys_in >= 10 || !strcmp(l, "numeric"))) {
			double top = rows[first].cy - 0.6 * pitch, last = rows[first + len - 1].cy;
			/* the row under the letters (?123, space, enter) has few labels */
			for (size_t r = first + len; r < nr && rows[r].cy - last <= 1.5 * pitch; r++)
				last = rows[r].cy;
			double bottom = last + 0.6 * pitch;
			if (height - bottom <= pitch) /* the keyboard reaches the screen's bottom */
				bottom = height;
			box->x1 = 0;
			box->x2 = width; /* soft keyboards span the screen; edge keys often read as nothing */
			box->y1 = top < 0 ? 0 : (int)top;
			box->y2 = bottom > height ? height : (int)bottom;
			*layout = l;
			found = 1;
		}
		free(rows);
		free(t);
	}
	free(c);
	return found;
}

void amc_keyboard_label(const char *layout, char *out, size_t n)
{
	if (layout)
		snprintf(out, n, "keyboard (%s)", layout);
	else
		snprintf(out, n, "keyboard");
}
