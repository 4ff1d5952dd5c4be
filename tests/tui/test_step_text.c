/* test_step_text.c - tui/step_text.c: a step's target and matched box read
 * from its record, the error's "on screen" list one item a line, the flow's
 * source around the step's line (marked, neighbours numbered; from the copy
 * kept with the task when it has one, else the file), wrapping that cuts
 * nothing and sanitizes device text. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "storage/sources.h"
#include "tui/step_text.h"
#include "tui/text.h"
#include "tui/theme.h"
#include "util/strbuf.h"

#define SRC_COL 8 /* where a source row's text starts after ">NNNN | " */

static int has(const amc_tui_lines *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

/* The source from the copy kept with the task: a flow sent as text (no
 * file) and a file edited since the run show the lines that ran, drawn
 * sanitized. */
static void test_stored(void)
{
	const char *home = test_home("steptext");
	amc_store *st;
	amc_err e;
	if (amc_store_open(home, &st, &e) != 0) {
		ok(0, "store: %s", e.msg);
		return;
	}
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/f.yaml", home);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs("appId: a\n---\n- back\n- back\n- tapOn: \"Edited since\"\n", f);
		fclose(f);
	}
	amc_store_source src[] = {
		{ path, "appId: a\n---\n- launchApp\n- tapOn: \"Ran \033[2Jthis\"\n- back\n" },
		{ "/srv/sent/flow.yaml", "appId: a\n---\n- tapOn: \"Sent as text\"\n" },
	};
	const char *id = "0123456789abcdef";
	ok(amc_store_put_sources(st, id, src, 2, &e) == 0, "the task's sources stored");
	amc_step_row s;
	memset(&s, 0, sizeof s);
	s.task_id = (char *)id;
	char reason[sizeof path + 32];
	snprintf(reason, sizeof reason, "flow command at %s:4", path);
	s.reasoning = reason;
	amc_tui_lines l = { NULL, 0 }, rows = { NULL, 0 };
	amc_tui_steptext_add_source(&l, st, &s);
	ok(has(&l, ">   4 | - tapOn: \"Ran \033[2Jthis\""), "an edited file: the line that ran, marked");
	ok(!has(&l, "    5 | - tapOn: \"Edited since\""), "not the file's line now");
	amc_tui_steptext_free(&rows);
	for (size_t i = 0; i < l.n; i++)
		amc_tui_steptext_wrap_source(&rows, l.v[i], 200);
	int esc = 0;
	for (size_t i = 0; i < rows.n; i++)
		esc |= strchr(rows.v[i], '\033') != NULL;
	ok(rows.n && !esc, "its bytes are sanitized when wrapped for drawing");
	amc_tui_steptext_free(&rows);
	amc_tui_steptext_free(&l);
	s.reasoning = "flow command at /srv/sent/flow.yaml:3";
	amc_tui_steptext_add_source(&l, st, &s);
	ok(has(&l, ">   3 | - tapOn: \"Sent as text\""), "a flow sent as text: its line, from no file");
	amc_tui_steptext_free(&l);
	s.reasoning = "flow command at /srv/other.yaml:3";
	amc_tui_steptext_add_source(&l, st, &s);
	ok(l.n == 2 && strstr(l.v[1], "not readable here"), "a path the task has no copy of: read from disk");
	amc_tui_steptext_free(&l);
	amc_store_close(st);
}

/* Over 120 lines: one straight list of checks, each building its own rows
 * and reading them back; splitting it would only pass the fixtures around. */
int main(void)
{
	amc_step_row s;
	memset(&s, 0, sizeof s);
	s.result = "{\"matched\":{\"text\":\"Save\",\"bounds\":[10,20,110,60]}}";
	int x = 0, y = 0, box[4] = { 0 };
	ok(amc_tui_steptext_target(&s, &x, &y) && x == 60 && y == 40, "the target is the match's centre (%d,%d)", x, y);
	ok(amc_tui_steptext_target_box(&s, box) && box[0] == 10 && box[3] == 60, "the matched box");
	s.result = "{\"matched\":{\"bounds\":[10,20,\"x\",60]}}";
	ok(!amc_tui_steptext_target_box(&s, box), "a malformed box is none");
	s.result = NULL;
	s.args = "{\"x\":5,\"y\":7}";
	ok(amc_tui_steptext_target(&s, &x, &y) && x == 5 && y == 7, "a coordinate tap's target");
	int p[4];
	ok(!amc_tui_steptext_swipe(&s, p), "not a swipe");
	s.args = "{\"x1\":1,\"y1\":2,\"x2\":3,\"y2\":4}";
	ok(amc_tui_steptext_swipe(&s, p) && p[3] == 4, "a swipe's path");

	amc_tui_lines l = { NULL, 0 };
	amc_tui_steptext_add_error(&l, "error: ", "no element matches text=\"X\"; on screen: 'A', 'B, c', 'D'", "  ");
	ok(l.n == 5, "message, label, three items (%zu lines)", l.n);
	ok(has(&l, "error: no element matches text=\"X\""), "the message without the list");
	ok(has(&l, "    'B, c'"), "an item with a comma inside stays whole");
	amc_tui_steptext_free(&l);

	char path[] = "/tmp/amc-steptext-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		tap_skip_all("cannot write a temporary file");
		return 0;
	}
	fputs("appId: a\n---\n- launchApp\n- tapOn: \"One\"\n- tapOn: \"Two\"\n- back\n", f);
	fclose(f);
	char reason[256];
	snprintf(reason, sizeof reason, "flow command at %s:5", path);
	s.reasoning = reason;
	amc_tui_steptext_add_source(&l, NULL, &s);
	char want[300];
	snprintf(want, sizeof want, "source: %s:5", path);
	ok(l.n >= 2 && !strcmp(l.v[0], want), "source: FILE:LINE first");
	ok(has(&l, ">   5 | - tapOn: \"Two\""), "the step's line marked");
	ok(has(&l, "    4 | - tapOn: \"One\""), "the line before it numbered");
	ok(has(&l, "    6 | - back"), "the line after it");
	amc_tui_steptext_free(&l);
	unlink(path);
	s.reasoning = "flow command at /nonexistent/x.yaml:3";
	amc_tui_steptext_add_source(&l, NULL, &s);
	ok(l.n == 2 && strstr(l.v[1], "not readable here"), "an unreadable flow says so");
	amc_tui_steptext_free(&l);
	test_stored();
	s.reasoning = "the model thought so";
	amc_tui_steptext_add_source(&l, NULL, &s);
	ok(l.n == 0, "a goal step has no source");

	amc_tui_steptext_wrap(&l, "  a long line of words that does not fit \033[2J in twenty columns", 20);
	int widest = 0, esc = 0;
	amc_sb all;
	amc_sb_init(&all);
	for (size_t i = 0; i < l.n; i++) {
		int w = 0; /* columns: UTF-8 continuation bytes take none (the stand-ins are narrow) */
		for (const char *c = l.v[i]; *c; c++)
			w += ((unsigned char)*c & 0xC0) != 0x80;
		widest = w > widest ? w : widest;
		esc |= strchr(l.v[i], '\033') != NULL;
		amc_sb_puts(&all, l.v[i]);
	}
	ok(l.n > 2 && widest <= 20, "wrapped to 20 columns (%zu rows, widest %d)", l.n, widest);
	ok(!esc, "sanitized");
	ok(strstr(amc_sb_str(&all), "columns") != NULL, "nothing cut: the last word is there");
	ok(l.n > 1 && !strncmp(l.v[1], "    ", 4), "continuation rows indented under the first");
	amc_sb_free(&all);
	amc_tui_steptext_free(&l);

	/* A flow line's trailing comment is never wrapped onto a row of its own
	 * (it read as another line of the flow): the code stays whole on the
	 * row, the comment is cut with "~" (C locale here) or "…". */
	setlocale(LC_ALL, "C");
	amc_tui_text_init();
	ok(amc_tui_steptext_is_source(">   7 | - tapOn: x") && amc_tui_steptext_is_source("   12 | x") &&
	   !amc_tui_steptext_is_source("  'Wi-Fi'") && !amc_tui_steptext_is_source("error: 7 | x") &&
	   !amc_tui_steptext_is_source(" 1 2 | x"), "source lines are told from the other lines");
	amc_tui_steptext_wrap_source(&l, "    5 | - tapOn: \"Wi-Fi\"          # open Wi-Fi settings", 30);
	ok(l.n == 1, "code that fits: one row (%zu)", l.n);
	ok(l.n == 1 && !strcmp(l.v[0], "    5 | - tapOn: \"Wi-Fi\" # op~"), "the comment cut, the code whole: '%s'", l.n ? l.v[0] : "");
	amc_tui_steptext_free(&l);
	amc_tui_steptext_wrap_source(&l, "    5 | - tapOn: \"Wi-Fi\" # x", 24);
	ok(l.n == 1 && !strcmp(l.v[0], "    5 | - tapOn: \"Wi-Fi\""), "no room for the comment: the code alone, its quote kept");
	amc_tui_steptext_free(&l);
	amc_tui_steptext_wrap_source(&l, ">   7 | - tapOn: \"Pair new device # not a comment\" # this element does not exist", 24);
	int comment_row = 0, numbered = 0;
	for (size_t i = 0; i < l.n; i++) {
		comment_row |= l.v[i][SRC_COL] == '#';
		numbered += amc_tui_steptext_is_source(l.v[i]) && strncmp(l.v[i], "      | ", 8);
	}
	ok(l.n >= 3 && !strncmp(l.v[0], ">   7 | - tapOn:", 16), "long code wraps (%zu rows)", l.n);
	ok(!comment_row, "no row starts with the comment");
	ok(numbered == 1 && !strncmp(l.v[1], "      | ", 8), "continuation rows have the gutter and no number");
	ok(l.n && strstr(l.v[l.n - 1], "# this element") != NULL, "the comment follows the code's last row");
	amc_tui_steptext_free(&l);
	amc_tui_steptext_wrap_source(&l, ">   7 | - tapOn: \"A # B\" # c", 24);
	ok(l.n == 1 && !strcmp(l.v[0], ">   7 | - tapOn: \"A # B\""), "a '#' inside quotes is the code's, not a comment");
	amc_tui_steptext_free(&l);
	amc_tui_steptext_wrap_source(&l, "error: a long message that is not a source line at all", 20);
	ok(l.n > 1 && !strncmp(l.v[1], "  ", 2), "other lines wrap as before");
	amc_tui_steptext_free(&l);

	/* The Error box names the flow file without its folder. */
	s.reasoning = "flow command at /a very/long dir/f.yaml:7";
	char *e = amc_tui_steptext_short_error("step 4: /a very/long dir/f.yaml:7: tapOn: no element matches", &s);
	is_str(e, "step 4: f.yaml:7: tapOn: no element matches", "the folder of the step's flow left out");
	free(e);
	e = amc_tui_steptext_short_error("step 4: /other/g.yaml:2: tapOn: x", &s);
	is_str(e, "step 4: /other/g.yaml:2: tapOn: x", "another path is left as it is");
	free(e);
	s.reasoning = "the model thought so";
	e = amc_tui_steptext_short_error("no element", &s);
	is_str(e, "no element", "a goal's error as it is");
	free(e);

	/* Each wrapped row keeps its line's colour: a long error is red to its end. */
	amc_tui_lines op = { NULL, 0 }, rows = { NULL, 0 };
	amc_tui_steptext_add(&op, "step 4  tap  failed");
	amc_tui_steptext_add(&op, "error: f.yaml:7: tapOn: no element matches text=\"Pair new device\" after 5.0 s");
	amc_tui_steptext_add(&op, ">   7 | - tapOn: \"Pair new device with a long name\" # c");
	amc_tui_steptext_add(&op, "result: not ok");
	signed char *els = amc_tui_steptext_rows(&op, 20, 1, &rows);
	int all_red = rows.n > 6, last_normal = rows.n && els[rows.n - 1] == AMC_EL_NORMAL;
	for (size_t i = 1; i + 1 < rows.n; i++)
		all_red &= els[i] == AMC_EL_ERROR;
	ok(all_red, "the error's and the failing line's continuation rows are red too (%zu rows)", rows.n);
	ok(last_normal && els[0] == AMC_EL_TITLE, "the heading and the other lines keep theirs");
	free(els);
	amc_tui_steptext_free(&rows);
	amc_tui_steptext_free(&op);

	/* The running step's row: a stale phase (of a step already in the
	 * timeline) is not shown as if that step still ran. */
	char row[96];
	amc_tui_steptext_phase_row(row, sizeof row, "plan", 4, 3, "running");
	ok(strstr(row, "  4 ") && strstr(row, "plan ..."), "the next step's phase: '%s'", row);
	amc_tui_steptext_phase_row(row, sizeof row, "record", 3, 3, "running");
	is_str(row, "     running", "a recorded step's phase is not shown again");
	amc_tui_steptext_phase_row(row, sizeof row, NULL, 0, 0, "queued");
	is_str(row, "     queued", "no phase: the status");
	return done_testing();
}
