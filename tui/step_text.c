/* step_text.c - a step as text for the Task view (see step_text.h). */
#include "tui/step_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "storage/sources.h"
#include "tui/app.h"
#include "tui/text.h"
#include "tui/theme.h"
#include "util/fsutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* ">%4ld | ": the mark, the line number, the bar (amc_tui_steptext_add_source) */
#define SRC_GUTTER 8

/* A swipe's x1,y1 -> x2,y2 arguments; 1 when the step has them. */
int amc_tui_steptext_swipe(const amc_step_row *s, int p[4])
{
	static const char *const keys[4] = { "x1", "y1", "x2", "y2" };
	cJSON *aj = s->args ? cJSON_Parse(s->args) : NULL;
	int found = aj != NULL;
	for (int i = 0; i < 4 && found; i++) {
		cJSON *v = cJSON_GetObjectItemCaseSensitive(aj, keys[i]);
		found = cJSON_IsNumber(v);
		p[i] = found ? v->valueint : 0;
	}
	cJSON_Delete(aj);
	return found;
}

/* The action's target in image pixels: the matched element's centre, or the
 * x/y arguments of a coordinate tap. */
int amc_tui_steptext_target(const amc_step_row *s, int *x, int *y)
{
	int box[4], found = amc_tui_steptext_target_box(s, box);
	if (found) {
		*x = (box[0] + box[2]) / 2;
		*y = (box[1] + box[3]) / 2;
	}
	if (!found && s->args) {
		cJSON *aj = cJSON_Parse(s->args);
		cJSON *jx = aj ? cJSON_GetObjectItemCaseSensitive(aj, "x") : NULL;
		cJSON *jy = aj ? cJSON_GetObjectItemCaseSensitive(aj, "y") : NULL;
		if (cJSON_IsNumber(jx) && cJSON_IsNumber(jy)) {
			*x = jx->valueint;
			*y = jy->valueint;
			found = 1;
		}
		cJSON_Delete(aj);
	}
	return found;
}

int amc_tui_steptext_target_box(const amc_step_row *s, int box[4])
{
	int found = 0;
	cJSON *r = s->result ? cJSON_Parse(s->result) : NULL;
	cJSON *m = r ? cJSON_GetObjectItemCaseSensitive(r, "matched") : NULL;
	cJSON *b = m ? cJSON_GetObjectItemCaseSensitive(m, "bounds") : NULL;
	if (cJSON_IsArray(b) && cJSON_GetArraySize(b) == 4) {
		found = 1;
		for (int i = 0; i < 4; i++) {
			cJSON *v = cJSON_GetArrayItem(b, i);
			found &= cJSON_IsNumber(v);
			box[i] = found ? v->valueint : 0;
		}
	}
	cJSON_Delete(r);
	return found && box[2] > box[0] && box[3] > box[1];
}

void amc_tui_steptext_add(amc_tui_lines *l, const char *s)
{
	l->v = amc_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = amc_xstrdup(s);
}

void amc_tui_steptext_add_multi(amc_tui_lines *l, const char *label, const char *text)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s:", label);
	amc_tui_steptext_add(l, amc_sb_str(&sb));
	amc_sb_free(&sb);
	const char *p = text;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *one = amc_xstrndup(p, n);
		amc_sb_init(&sb);
		amc_sb_printf(&sb, "  %s", one);
		amc_tui_steptext_add(l, amc_sb_str(&sb));
		amc_sb_free(&sb);
		free(one);
		p = nl ? nl + 1 : NULL;
	}
}

/* A step's or task's error as amc_tui_lines: the message, and when it lists what
 * was on screen ("...; on screen: 'a', 'b', ...") that list one item a
 * line, so a long list is read down, not cut at the pane's edge. */
void amc_tui_steptext_add_error(amc_tui_lines *l, const char *label, const char *err, const char *indent)
{
	amc_sb sb;
	amc_sb_init(&sb);
	const char *os = strstr(err, "on screen: ");
	size_t head = os ? (size_t)(os - err) : strlen(err);
	while (head > 0 && (err[head - 1] == ' ' || err[head - 1] == ';'))
		head--;
	amc_sb_printf(&sb, "%s%.*s", label, (int)head, err);
	amc_tui_steptext_add(l, amc_sb_str(&sb));
	if (os) {
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "%son screen:", indent);
		amc_tui_steptext_add(l, amc_sb_str(&sb));
		const char *p = os + strlen("on screen: ");
		while (*p) {
			/* an item is 'quoted' (quotes inside were kept): cut at "', '" */
			const char *end = strstr(p, "', ");
			size_t n = end ? (size_t)(end - p) + 1 : strlen(p);
			amc_sb_reset(&sb);
			amc_sb_printf(&sb, "%s  %.*s", indent, (int)n, p);
			amc_tui_steptext_add(l, amc_sb_str(&sb));
			p += n;
			while (*p == ',' || *p == ' ')
				p++;
		}
	}
	amc_sb_free(&sb);
}

/* The last stored copy read, by home, task and path: the Task view builds
 * the Operation pane on every redraw, and a task's copies never change once
 * written. A file on disk (a task recorded before copies were kept) is read
 * each time, as before: it may change. */
static struct {
	char *key, *text;
	size_t len;
} last_copy;

static int source_text(const amc_store *st, const char *task_id, const char *path, char **text, size_t *len,
		       amc_err *e)
{
	char *key = NULL;
	if (st && task_id) {
		amc_sb k;
		amc_sb_init(&k);
		amc_sb_printf(&k, "%s\n%s\n%s", amc_store_home(st), task_id, path);
		key = amc_sb_detach(&k);
		if (last_copy.key && !strcmp(last_copy.key, key)) {
			free(key);
			*text = amc_xstrndup(last_copy.text, last_copy.len);
			*len = last_copy.len;
			return 0;
		}
	}
	int stored = 0;
	if (amc_store_source_read(st, task_id, path, text, len, &stored, e) != 0) {
		free(key);
		return -1;
	}
	if (!stored || !key) {
		free(key);
		return 0;
	}
	free(last_copy.key);
	free(last_copy.text);
	last_copy.key = key;
	last_copy.text = amc_xstrndup(*text, *len);
	last_copy.len = *len;
	return 0;
}

typedef struct source_rows {
	amc_tui_lines *l;
	long line;
	amc_sb sb;
} source_rows;

static void add_source_line(void *ud, long no, const char *text, size_t n)
{
	source_rows *r = ud;
	amc_sb_reset(&r->sb);
	amc_sb_printf(&r->sb, "%s%4ld | %.*s", no == r->line ? ">" : " ", no, (int)n, text);
	amc_tui_steptext_add(r->l, amc_sb_str(&r->sb));
}

/* The flow's source around the step's line (as a trace viewer shows the
 * failing line): "source: FILE:LINE", then up to three amc_tui_lines either side,
 * numbered, the step's line marked with ">". The place comes from the
 * step's reasoning ("flow command at FILE:LINE", the sub-flow's file for a
 * sub-flow's command); the text from the copy stored with the task (the
 * lines that ran, also of a flow sent as text), else from the file as it is
 * now (a task recorded before copies were kept). Nothing for goal steps. */
void amc_tui_steptext_add_source(amc_tui_lines *l, const amc_store *st, const amc_step_row *s)
{
	char *path, *buf = NULL;
	long line;
	if (!amc_store_step_source_place(s->reasoning, &path, &line))
		return;
	size_t len = 0;
	amc_err e;
	source_rows r = { l, line, { 0 } };
	amc_sb_init(&r.sb);
	amc_sb_printf(&r.sb, "source: %s:%ld", path, line);
	amc_tui_steptext_add(l, amc_sb_str(&r.sb));
	if (source_text(st, s->task_id, path, &buf, &len, &e) != 0) {
		amc_sb_reset(&r.sb);
		amc_sb_printf(&r.sb, "  (not readable here: %s)", e.msg);
		amc_tui_steptext_add(l, amc_sb_str(&r.sb));
	} else {
		amc_store_source_lines(buf, len, line - 3, line + 3, add_source_line, &r);
	}
	free(buf);
	free(path);
	amc_sb_free(&r.sb);
}

void amc_tui_steptext_add_json(amc_tui_lines *l, const char *label, const char *json)
{
	cJSON *j = json ? cJSON_Parse(json) : NULL;
	char *pretty = j ? cJSON_Print(j) : NULL;
	amc_tui_steptext_add_multi(l, label, pretty ? pretty : json ? json : "null");
	free(pretty);
	cJSON_Delete(j);
}

/* "target: "Battery" [60,300][210,360]", "target: x 135, y 330" or a swipe's path. */
void amc_tui_steptext_add_target(const amc_step_row *s, amc_tui_lines *l)
{
	amc_sb sb;
	amc_sb_init(&sb);
	int p[4], x, y;
	cJSON *r = s->result ? cJSON_Parse(s->result) : NULL;
	cJSON *m = r ? cJSON_GetObjectItemCaseSensitive(r, "matched") : NULL;
	const char *mt = m ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "text")) : NULL;
	if (amc_tui_steptext_swipe(s, p))
		amc_sb_printf(&sb, "target: swipe %d,%d %s %d,%d", p[0], p[1], amc_tui_utf8() ? "\xe2\x86\x92" : "->", p[2], p[3]);
	else if (amc_tui_steptext_target(s, &x, &y)) {
		amc_sb_puts(&sb, "target: ");
		if (mt && *mt)
			amc_sb_printf(&sb, "\"%s\" ", mt);
		amc_sb_printf(&sb, "at %d,%d", x, y);
	}
	cJSON_Delete(r);
	if (sb.len)
		amc_tui_steptext_add(l, amc_sb_str(&sb));
	amc_sb_free(&sb);
}

void amc_tui_steptext_free(amc_tui_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0; /* empty again: the array may be reused */
}

/* `s` (raw; sanitized here) as rows of at most w columns into `out`, the
 * continuation rows indented as the first one (plus two). */
void amc_tui_steptext_wrap(amc_tui_lines *out, const char *s, int w)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_line(s, strlen(s), &sb);
	const char *p = amc_sb_str(&sb);
	size_t ind = strspn(p, " ");
	int first = 1;
	if (!*p)
		amc_tui_steptext_add(out, "");
	while (*p) {
		int room = first ? w : w - (int)ind - 2;
		if (room < 8)
			room = w > 0 ? w : 1;
		size_t next, take = amc_tui_wrap_take(p, room, &next);
		amc_sb one;
		amc_sb_init(&one);
		amc_sb_printf(&one, "%*s%.*s", first ? 0 : (int)ind + 2, "", (int)take, p);
		amc_tui_steptext_add(out, amc_sb_str(&one));
		amc_sb_free(&one);
		p += next;
		first = 0;
	}
	amc_sb_free(&sb);
}

/* 1 when `s` is one of amc_tui_steptext_add_source's numbered lines
 * ("> 123 | code" or "  123 | code": a mark, the number right-aligned in
 * four columns, " | "): the only lines of the Operation pane in that form. */
int amc_tui_steptext_is_source(const char *s)
{
	if (strlen(s) < SRC_GUTTER || (s[0] != '>' && s[0] != ' ') || strncmp(s + 5, " | ", 3))
		return 0;
	int digits = 0;
	for (int i = 1; i < 5; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else if (s[i] != ' ' || digits)
			return 0;
	}
	return digits > 0;
}

/* Where a YAML line's comment starts ('#' at the start or after a blank,
 * outside quotes), or NULL. */
static const char *yaml_comment(const char *code)
{
	char q = 0;
	for (const char *p = code; *p; p++) {
		if (q == '"' && *p == '\\' && p[1])
			p++;
		else if (q && *p == q)
			q = 0;
		else if (!q && (*p == '"' || *p == '\''))
			q = *p;
		else if (!q && *p == '#' && (p == code || p[-1] == ' '))
			return p;
	}
	return NULL;
}

/* A flow source line as rows of at most w columns: the YAML is never broken
 * before its trailing comment (a comment wrapped onto a row of its own reads
 * as another line of the flow): a line whose code fits stays one row and the
 * comment is cut with "…" where it is drawn; a longer code wraps under the
 * gutter ("      | ", no number: the same line), its comment after it. */
void amc_tui_steptext_wrap_source(amc_tui_lines *out, const char *s, int w)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_line(s, strlen(s), &sb);
	const char *p = amc_sb_str(&sb);
	int room = w - SRC_GUTTER;
	if (amc_tui_width(p) <= w || room < 8 || !amc_tui_steptext_is_source(p)) {
		amc_tui_steptext_wrap(out, s, w);
		amc_sb_free(&sb);
		return;
	}
	const char *code = p + SRC_GUTTER, *cm = yaml_comment(code);
	size_t clen = cm ? (size_t)(cm - code) : strlen(code);
	while (clen > 0 && code[clen - 1] == ' ')
		clen--;
	char *c = amc_xstrndup(code, clen);
	int cw = amc_tui_width(c);
	if (cw <= room) {
		/* the code whole, then as much of the comment as fits, cut with "…" */
		amc_sb row;
		amc_sb_init(&row);
		amc_sb_printf(&row, "%.*s%s", SRC_GUTTER, p, c);
		int rest = room - cw - 1;
		if (cm && rest >= 2) {
			size_t n = amc_tui_fit_bytes(cm, rest - 1);
			amc_sb_printf(&row, " %.*s%s", (int)n, cm, amc_tui_utf8() ? "\xe2\x80\xa6" : "~");
		}
		amc_tui_steptext_add(out, amc_sb_str(&row));
		amc_sb_free(&row);
	} else {
		const char *q = c;
		int first = 1;
		while (*q) {
			size_t next, take = amc_tui_wrap_take(q, room, &next);
			amc_sb row;
			amc_sb_init(&row);
			amc_sb_printf(&row, "%.*s%.*s", SRC_GUTTER, first ? p : "      | ", (int)take, q);
			q += next;
			if (!*q && cm)
				amc_sb_printf(&row, " %s", cm);
			amc_tui_steptext_add(out, amc_sb_str(&row));
			amc_sb_free(&row);
			first = 0;
		}
	}
	free(c);
	amc_sb_free(&sb);
}

/* The error with the flow file's folder left out where the step's source
 * names it ("step 4: /very/long/dir/f.yaml:7: ..." -> "step 4: f.yaml:7:
 * ..."): at 80 columns a deep path would take the rows the message needs;
 * the Operation pane's "source:" line has the whole path. */
char *amc_tui_steptext_short_error(const char *err, const amc_step_row *s)
{
	char *path = NULL;
	long line;
	if (s)
		amc_store_step_source_place(s->reasoning, &path, &line);
	const char *slash = path ? strrchr(path, '/') : NULL;
	const char *at = slash ? strstr(err, path) : NULL;
	if (!at) {
		free(path);
		return amc_xstrdup(err);
	}
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%.*s%s%s", (int)(at - err), err, slash + 1, at + strlen(path));
	free(path);
	return amc_sb_detach(&sb);
}

/* The task's error in its own box under the header, drawn before the panes
 * so nothing pushes it off screen: the message wrapped, then what was on
 * screen one item a line, in as many columns as the width allows. At most
 * a third of the rows (at least 5). The message comes first: it takes the
 * rows it needs but one, and one cut short ends in "…"; the screen list
 * gets what is left (one row: inline), what does not fit counted
 * ("z on the Operation pane shows all"). Returns the rows used. */
int amc_tui_steptext_error_box(const char *err, const char *status, int y, int w, int h)
{
	/* a task stopped by the operator or by a dead process did not fail:
	 * the box says which ("cancelled by the operator" under "Error" misled) */
	const char *title = status && !strcmp(status, "cancelled") ? "Cancelled"
			    : status && !strcmp(status, "interrupted") ? "Interrupted" : "Error";
	amc_tui_lines l = { NULL, 0 }, msg = { NULL, 0 };
	amc_tui_steptext_add_error(&l, "", err, "");
	amc_tui_steptext_wrap(&msg, l.v[0], w - 4);
	size_t nitems = l.n > 2 ? l.n - 2 : 0;
	int colw = 0;
	for (size_t i = 2; i < l.n; i++) {
		int cw = amc_tui_width(l.v[i]) + 2;
		colw = cw > colw ? cw : colw;
	}
	if (colw > w - 4)
		colw = w - 4;
	int ncols = colw > 0 ? (w - 4) / colw : 1;
	if (ncols < 1)
		ncols = 1;
	int maxh = h / 3 > 5 ? h / 3 : 5, cap = maxh - 2;
	int item_rows = nitems ? (int)((nitems + (size_t)ncols - 1) / (size_t)ncols) + 1 : 0;
	int mrows = (int)msg.n;
	if (mrows > cap - (nitems ? 1 : 0))
		mrows = cap - (nitems ? 1 : 0);
	if (mrows < 1)
		mrows = 1;
	int irows = item_rows < cap - mrows ? item_rows : cap - mrows;
	if (nitems && irows < 1)
		irows = 1;
	int inner = mrows + irows;
	amc_tui_box(y, 0, inner + 2, w, title, 0);
	attr_t ea = amc_tui_attr(AMC_EL_ERROR);
	const char *ell = amc_tui_utf8() ? "\xe2\x80\xa6" : "~";
	for (int i = 0; i < mrows && i < (int)msg.n; i++) {
		if (i == mrows - 1 && mrows < (int)msg.n) {
			/* cut: say so where the reader stops */
			char *row = amc_xstrndup(msg.v[i], amc_tui_fit_bytes(msg.v[i], w - 6));
			amc_sb sb;
			amc_sb_init(&sb);
			amc_sb_printf(&sb, "%s %s", row, ell);
			amc_tui_put(stdscr, y + 1 + i, 2, w - 4, amc_sb_str(&sb), ea, 1);
			amc_sb_free(&sb);
			free(row);
		} else {
			amc_tui_put(stdscr, y + 1 + i, 2, w - 4, msg.v[i], ea, 1);
		}
	}
	int row = mrows;
	if (nitems && irows == 1) {
		/* one row: "on screen: 'a'  'b'  +N more: Tab to Operation, z" */
		amc_sb sb;
		amc_sb_init(&sb);
		amc_sb_puts(&sb, "on screen:");
		size_t k = 0;
		for (; k < nitems; k++) {
			char more[64];
			snprintf(more, sizeof more, "  +%zu more: Tab to Operation, z", nitems - k - 1);
			int need = amc_tui_width(amc_sb_str(&sb)) + 2 + amc_tui_width(l.v[2 + k]);
			if (need + (k + 1 < nitems ? amc_tui_width(more) : 0) > w - 4)
				break;
			amc_sb_printf(&sb, "  %s", l.v[2 + k]);
		}
		if (k < nitems)
			amc_sb_printf(&sb, "  +%zu more: Tab to Operation, z", nitems - k);
		amc_tui_put(stdscr, y + 1 + row, 2, w - 4, amc_sb_str(&sb), amc_tui_attr(AMC_EL_NORMAL), 1);
		amc_sb_free(&sb);
	} else if (nitems) {
		amc_tui_put(stdscr, y + 1 + row, 2, w - 4, "on screen:", amc_tui_attr(AMC_EL_DIM), 1);
		row++;
		int rows_left = inner - row;
		size_t fit = (size_t)rows_left * (size_t)ncols;
		for (size_t k = 0; k < nitems && k < fit; k++) {
			int r = (int)(k % (size_t)rows_left), c = (int)(k / (size_t)rows_left);
			const char *txt = l.v[2 + k];
			char more[64];
			if (k == fit - 1 && nitems > fit) {
				snprintf(more, sizeof more, "+%zu more: Tab to Operation, z", nitems - fit + 1);
				txt = more;
			}
			int cw = txt == more ? w - 4 - c * colw : colw; /* the count may use the rest of the row */
			amc_tui_put(stdscr, y + 1 + row + r, 2 + c * colw, cw, txt, amc_tui_attr(AMC_EL_NORMAL), 0);
		}
	}
	amc_tui_steptext_free(&msg);
	amc_tui_steptext_free(&l);
	return inner + 2;
}

/* The running step's row under the timeline: " 4 ▶ plan ...". A phase of a
 * step the timeline already has (its record was read before the runner's
 * next event) is stale: it showed "3 ▶ record ..." under a finished step 3;
 * then only the task's status. */
void amc_tui_steptext_phase_row(char *buf, size_t n, const char *phase, int step, int last_recorded, const char *status)
{
	if (phase && step > last_recorded)
		snprintf(buf, n, " %3d %s %s ...", step, amc_tui_status_symbol("running"), phase);
	else
		snprintf(buf, n, "     %s", status ? status : "");
}

/* The Operation pane's lines as rows of w columns: long texts wrap (an
 * error, its screen list, a warning): none is cut; a flow source line keeps
 * its trailing comment with it. Each row takes the colour of the line it came
 * from, so a wrapped error is red to its end. */
signed char *amc_tui_steptext_rows(const amc_tui_lines *l, int w, int failed, amc_tui_lines *rows)
{
	signed char *els = amc_xmalloc(1);
	for (size_t i = 0; i < l->n; i++) {
		const char *r = l->v[i];
		size_t before = rows->n;
		amc_tui_steptext_wrap_source(rows, r, w);
		/* the flow's line of this step ("> 19 | ...") in red only when it failed */
		int el = i == 0 ? AMC_EL_TITLE
			 : !strncmp(r, "error:", 6) || (r[0] == '>' && failed) ? AMC_EL_ERROR
			 : r[0] == '>' ? AMC_EL_TITLE : r[0] == '!' ? AMC_EL_WARN : AMC_EL_NORMAL;
		els = amc_xrealloc(els, rows->n ? rows->n : 1);
		for (size_t k = before; k < rows->n; k++)
			els[k] = (signed char)el;
	}
	return els;
}

/* A pane that holds more than it shows (at 80x24 the Operation pane shows
 * four of a failed step's twenty rows) says so on its bottom edge, and which
 * way: " more ↓ ", " ↑ more ↓ ", " ↑ more ". */
void amc_tui_steptext_more(int y, int x, int w, long top, int page, size_t n, int focused)
{
	int below = top + page < (long)n, above = top > 0, u = amc_tui_utf8();
	if ((!below && !above) || w <= 16)
		return;
	const char *m = below && above ? (u ? " \xe2\x86\x91 more \xe2\x86\x93 " : " ^ more v ")
			: below	       ? (u ? " more \xe2\x86\x93 " : " more v ")
				       : (u ? " \xe2\x86\x91 more " : " ^ more ");
	int mw = amc_tui_width(m);
	amc_tui_put(stdscr, y, x + w - 2 - mw, mw, m, amc_tui_attr(focused ? AMC_EL_FOCUS : AMC_EL_BORDER), 0);
}
