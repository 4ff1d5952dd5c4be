/* test_script.c - script mode through amc_tui_main on a virtual screen: keys
 * from a file, dumps to a folder, :resize, :type, mouse lines, the timing
 * file for `make bench`, and errors returned (an unknown key, a missing
 * script). */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testutil.h"
#include "tui/app.h"
#include "tui/script.h"
#include "tui/tui.h"
#include "util/fsutil.h"

static char dir[4200];

/* Run script_text in script mode, dumps into dump_dir. */
static int run_into(const char *script_text, const char *dump_dir, int cols, int rows, amc_err *e)
{
	char script[4300];
	snprintf(script, sizeof script, "%s/script.keys", dir);
	amc_err we;
	amc_write_atomic(script, script_text, strlen(script_text), 0644, &we);
	amc_config *cfg = amc_config_new();
	amc_tui_opts o = { 0 };
	o.home = dir;
	o.cfg = cfg;
	o.theme = "monochrome";
	o.graphics = "symbols";
	o.script = script;
	o.dump_dir = dump_dir;
	o.cols = cols;
	o.rows = rows;
	int rc = amc_tui_main(&o, e);
	amc_config_free(cfg);
	return rc;
}

static int run(const char *script_text, int cols, int rows, amc_err *e)
{
	return run_into(script_text, dir, cols, rows, e);
}

static char *slurp(const char *name)
{
	char p[4300];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "r");
	if (!f)
		return NULL;
	char *b = calloc(1, 65536);
	size_t n = fread(b, 1, 65535, f);
	b[n] = 0;
	fclose(f);
	return b;
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

static void test_main_script(void)
{
	amc_err e;
	int rc = run("# a comment\n\n:dump first\n?\n:dump help\nEsc\n:resize 60x15\n:dump small\n:resize 20x5\n"
		     ":dump tiny\n:resize 80x24\nD\n:dump devices\nq\n:dump after-quit\n", 80, 24, &e);
	is_int(rc, 0, "script mode runs a script to its end");
	char *s = slurp("first.txt");
	ok(s && !strncmp(s, " amc  Tasks", 11), "the first view is Tasks");
	is_int(count_lines(s), 24, "a dump has a line per screen row");
	like(s, "?:help  n:launch  q:quit", "the status line shows the keys");
	free(s);
	s = slurp("help.txt");
	like(s, " amc  Help", "? opens the help view");
	like(s, "Keys of the Tasks view", "for the view it was opened from");
	free(s);
	s = slurp("small.txt");
	is_int(count_lines(s), 15, ":resize gives a smaller screen");
	like(s, " amc  Tasks", "Esc went back to Tasks");
	free(s);
	s = slurp("tiny.txt");
	like(s, "amc: the terminal i", "too small a screen says so (cut to its 20 columns)");
	free(s);
	s = slurp("devices.txt");
	like(s, " amc  Devices", "D opens the Devices view");
	free(s);
	s = slurp("after-quit.txt");
	ok(s == NULL, "q quits: the rest of the script is not run");
	free(s);

	rc = run("j\nNoSuchKey\n:dump never\n", 80, 24, &e);
	is_int(rc, -1, "an unknown key name fails the script");
	like(e.msg, "unknown key 'NoSuchKey'", "naming the key");
	s = slurp("never.txt");
	ok(s == NULL, "and stops there");
	free(s);

	amc_tui_opts o = { 0 };
	amc_config *cfg = amc_config_new();
	o.home = dir;
	o.cfg = cfg;
	o.script = "/nonexistent/script.keys";
	o.cols = 80;
	o.rows = 24;
	is_int(amc_tui_main(&o, &e), -1, "a missing script fails");
	like(e.msg, "cannot read script", "saying it cannot be read");
	amc_config_free(cfg);
}

static void test_more_lines(void)
{
	amc_err e;
	/* :type goes key by key ('/' opens the search dialog, the text is typed
	 * into it); :click and :wheel are what getmouse() would report. */
	int rc = run(":type /abc\n:dump typed\nEsc\n:wheel -1,5\n:click 3,5\n:dclick 3,5\n:settle\n:changes\n"
		     ":dump mouse\n", 80, 24, &e);
	is_int(rc, 0, ":type, the mouse lines, :settle and :changes run");
	char *s = slurp("typed.txt");
	like(s, "abc_", ":type types its text into the open dialog");
	free(s);
	s = slurp("mouse.txt");
	like(s, " amc  Tasks", "Esc closed the dialog; clicks on an empty list keep the Tasks view");
	free(s);

	/* A dump into a folder that cannot be written is logged, not fatal. */
	is_int(run_into(":dump x\nq\n", "/nonexistent/dumps", 80, 24, &e), 0,
	       "a dump that cannot be written does not stop the script");
}

static void test_timing(void)
{
	char tpath[4300];
	snprintf(tpath, sizeof tpath, "%s/timing", dir);
	setenv("AMC_TUI_TIMING", tpath, 1);
	amc_err e;
	int rc = run(":mark down\nj j\n:mark up\nk\n", 80, 24, &e);
	unsetenv("AMC_TUI_TIMING");
	is_int(rc, 0, "a timed script runs");
	char *t = slurp("timing");
	ok(t != NULL, "AMC_TUI_TIMING names the timing file");
	like(t, "first_frame_us ", "it has the first frame's time");
	ok(t && strstr(t, "\nkeys down ") && strstr(t, "\nkeys up "), "a series per :mark");
	int nums = 0;
	const char *down = t ? strstr(t, "keys down ") : NULL;
	if (down)
		for (const char *p = down + 10; *p && *p != '\n'; p++)
			nums += *p == ' ';
	is_int(nums, 1, "the series of two keys has two times");
	like(t, "maxrss_kb ", "and the peak memory at the end");
	free(t);

	/* Without the variable, no file. */
	char t2[4300];
	snprintf(t2, sizeof t2, "%s/timing", dir);
	remove(t2);
	amc_tui_script_timing_begin(NULL);
	amc_tui_script_timing_end();
	t = slurp("timing");
	ok(t == NULL, "timing off: nothing is written");
	free(t);
}

int main(void)
{
	const char *home = test_home("tuiscript");
	snprintf(dir, sizeof dir, "%s", home);
	setenv("TERM", "xterm-256color", 1);
	setenv("AMC_TUI_NOW", "1767229200000", 1);
	setenv("AMC_ADB_PATH", "/nonexistent/adb", 1);
	unsetenv("NO_COLOR");
	test_main_script();
	test_more_lines();
	test_timing();
	return done_testing();
}
