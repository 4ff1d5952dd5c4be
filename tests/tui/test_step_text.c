/* test_step_text.c - tui/step_text.c: a step's target and matched box read
 * from its record, the error's "on screen" list one item a line, the flow's
 * source around the step's line (marked, neighbours numbered), wrapping that
 * cuts nothing and sanitizes device text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tui/step_text.h"
#include "util/strbuf.h"

static int has(const amc_tui_lines *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

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
	amc_tui_steptext_add_source(&l, &s);
	char want[300];
	snprintf(want, sizeof want, "source: %s:5", path);
	ok(l.n >= 2 && !strcmp(l.v[0], want), "source: FILE:LINE first");
	ok(has(&l, ">   5 | - tapOn: \"Two\""), "the step's line marked");
	ok(has(&l, "    4 | - tapOn: \"One\""), "the line before it numbered");
	ok(has(&l, "    6 | - back"), "the line after it");
	amc_tui_steptext_free(&l);
	unlink(path);
	s.reasoning = "flow command at /nonexistent/x.yaml:3";
	amc_tui_steptext_add_source(&l, &s);
	ok(l.n == 2 && strstr(l.v[1], "not readable here"), "an unreadable flow says so");
	amc_tui_steptext_free(&l);
	s.reasoning = "the model thought so";
	amc_tui_steptext_add_source(&l, &s);
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
	return done_testing();
}
