/* step_text.c - a step as text for the Task view (see step_text.h). */
#include "tui/step_text.h"

#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "tui/app.h"
#include "tui/text.h"
#include "util/fsutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

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

/* The flow's source around the step's line (as a trace viewer shows the
 * failing line): "source: FILE:LINE", then up to three amc_tui_lines either side,
 * numbered, the step's line marked with ">". The place comes from the
 * step's reasoning ("flow command at FILE:LINE", the sub-flow's file for a
 * sub-flow's command). Nothing for goal steps or an unreadable file. */
void amc_tui_steptext_add_source(amc_tui_lines *l, const amc_step_row *s)
{
	static const char AT[] = "flow command at ";
	if (!s->reasoning || strncmp(s->reasoning, AT, sizeof AT - 1))
		return;
	const char *where = s->reasoning + sizeof AT - 1;
	const char *colon = strrchr(where, ':');
	long line = colon ? strtol(colon + 1, NULL, 10) : 0;
	if (line <= 0 || colon == where)
		return;
	char *path = amc_xstrndup(where, (size_t)(colon - where));
	char *buf = NULL;
	size_t len = 0;
	amc_err e;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "source: %s:%ld", path, line);
	amc_tui_steptext_add(l, amc_sb_str(&sb));
	if (amc_read_file(path, 1 << 20, &buf, &len, &e) != 0) {
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "  (not readable here: %s)", e.msg);
		amc_tui_steptext_add(l, amc_sb_str(&sb));
	} else {
		long no = 1;
		const char *p = buf, *end = buf + len;
		while (p < end && no <= line + 3) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
			if (no >= line - 3) {
				amc_sb_reset(&sb);
				amc_sb_printf(&sb, "%s%4ld | %.*s", no == line ? ">" : " ", no, (int)n, p);
				amc_tui_steptext_add(l, amc_sb_str(&sb));
			}
			no++;
			p = nl ? nl + 1 : end;
		}
	}
	free(buf);
	free(path);
	amc_sb_free(&sb);
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

/* The task's error in its own box under the header, drawn before the panes
 * so nothing pushes it off screen: the message wrapped, then what was on
 * screen one item a line, in as many columns as the width allows. At most
 * a third of the rows (at least 5); what does not fit is counted ("z on the
 * Operation pane shows all"). Returns the rows used. */
int amc_tui_steptext_error_box(const char *err, int y, int w, int h)
{
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
	int maxh = h / 3 > 5 ? h / 3 : 5;
	int item_rows = nitems ? (int)((nitems + (size_t)ncols - 1) / (size_t)ncols) + 1 : 0;
	int inner = (int)msg.n + item_rows, cap = maxh - 2;
	if (inner > cap)
		inner = cap;
	int mrows = (int)msg.n < inner ? (int)msg.n : inner - (nitems ? 2 : 0);
	if (mrows < 1)
		mrows = 1;
	amc_tui_box(y, 0, inner + 2, w, "Error", 0);
	attr_t ea = amc_tui_attr(AMC_EL_ERROR);
	for (int i = 0; i < mrows && i < (int)msg.n; i++)
		amc_tui_put(stdscr, y + 1 + i, 2, w - 4, msg.v[i], ea, 1);
	int row = mrows;
	if (nitems && row < inner) {
		amc_tui_put(stdscr, y + 1 + row, 2, w - 4, "on screen:", amc_tui_attr(AMC_EL_DIM), 1);
		row++;
		int rows_left = inner - row;
		size_t fit = (size_t)rows_left * (size_t)ncols;
		for (size_t k = 0; k < nitems && k < fit; k++) {
			int r = (int)(k % (size_t)rows_left), c = (int)(k / (size_t)rows_left);
			const char *txt = l.v[2 + k];
			char more[64];
			if (k == fit - 1 && nitems > fit) {
				snprintf(more, sizeof more, "+%zu more: z on Operation", nitems - fit + 1);
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
