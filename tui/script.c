/* script.c - script mode (see script.h): every line is keys by name or a
 * `:command`; the app is driven through screen.h as the loop drives it. */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tui/image.h"
#include "tui/script.h"
#include "tui/screen.h"
#include "tui/session.h"
#include "tui/text.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/strbuf.h"

/* Timing for `make bench` (AMC_TUI_TIMING=FILE, script mode): the first
 * frame, then per key the time from handling it to the frame being out,
 * grouped by `:mark NAME` lines; image renders come from image.c. */
typedef struct timing {
	FILE *f;
	long long t0;
	char series[64];
	long long *v;
	size_t n;
} timing;
static timing tm;

static long long mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void timing_flush(void)
{
	if (!tm.f || !tm.n)
		return;
	fprintf(tm.f, "keys %s", tm.series);
	for (size_t i = 0; i < tm.n; i++)
		fprintf(tm.f, " %lld", tm.v[i]);
	fputc('\n', tm.f);
	tm.n = 0;
}

static void dump_screen(amc_tui_app *a, const char *dir, const char *name)
{
	amc_sb path;
	amc_sb_init(&path);
	amc_sb_printf(&path, "%s/%s.txt", dir, name);
	FILE *f = fopen(amc_sb_str(&path), "w");
	if (!f)
		amc_log_error("tui: cannot write %s", amc_sb_str(&path));
	amc_sb_free(&path);
	if (!f)
		return;
	for (int y = 0; y < a->rows; y++) {
		char *row = amc_tui_row_text(curscr, y, a->cols);
		fprintf(f, "%s\n", row);
		free(row);
	}
	fclose(f);
}

/* Wait until every runner is idle, then take in its events and commits. */
static void script_wait(amc_tui_app *a, long long *dv)
{
	amc_tui_session_wait_idle(a, 120000);
	amc_tui_screen_take(a);
	*dv = amc_tui_session_data_version(a);
	amc_tui_screen_reload(a);
}

/* Draw, then wait for the screenshot renders that drawing asked for and draw
 * again until none is left (script mode: dumps are deterministic). */
static void settle_renders(amc_tui_app *a)
{
	amc_tui_screen_draw(a);
	while (amc_tui_image_settle()) {
		amc_tui_screen_take(a);
		amc_tui_screen_draw(a);
	}
}

int amc_tui_script_run(amc_tui_app *a, const amc_tui_opts *o, amc_err *e)
{
	FILE *f = fopen(o->script, "r");
	if (!f)
		return amc_err_set(e, AMC_EUSAGE, "cannot read script %s", o->script);
	char line[1024];
	long long dv = amc_tui_session_data_version(a);
	int rc = 0;
	amc_tui_screen_draw(a);
	if (tm.f)
		fprintf(tm.f, "first_frame_us %lld\n", mono_us() - tm.t0);
	while (!a->quit && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		if (!strncmp(line, ":mark ", 6)) {
			timing_flush();
			snprintf(tm.series, sizeof tm.series, "%.60s", line + 6);
		} else if (!strncmp(line, ":dump ", 6)) {
			/* A dump shows the screen once the renders it asked for are in. */
			settle_renders(a);
			dump_screen(a, o->dump_dir ? o->dump_dir : ".", line + 6);
		} else if (!strcmp(line, ":settle")) {
			settle_renders(a);
		} else if (!strncmp(line, ":resize ", 8)) {
			int c, r;
			if (sscanf(line + 8, "%dx%d", &c, &r) == 2) {
				resizeterm(r, c);
				amc_tui_image_forget();
				a->dirty = 1;
			}
		} else if (!strncmp(line, ":click ", 7) || !strncmp(line, ":dclick ", 8) || !strncmp(line, ":wheel ", 7)) {
			/* Mouse events at row,col: what getmouse() would report. */
			int y, x;
			char what[16];
			if (sscanf(line + 1, "%15s %d,%d", what, &y, &x) == 3)
				amc_tui_screen_mouse(a, y, x, !strcmp(what, "click") ? BUTTON1_CLICKED :
					       !strcmp(what, "dclick") ? BUTTON1_DOUBLE_CLICKED :
					       y < 0 ? BUTTON4_PRESSED : BUTTON5_PRESSED);
		} else if (!strcmp(line, ":wait")) {
			script_wait(a, &dv);
		} else if (!strcmp(line, ":ask")) {
			/* wait up to 10 s for an operator question to be on screen */
			long long until = amc_mono_ms() + 10000;
			while (!amc_tui_screen_asking(a) && amc_mono_ms() < until) {
				amc_tui_screen_questions(a); /* another process's (no inotify here) */
				if (amc_tui_screen_asking(a))
					break;
				struct pollfd p = { a->wake[0], POLLIN, 0 };
				if (poll(&p, 1, 200) > 0 && amc_tui_screen_take(a))
					amc_tui_screen_reload(a);
			}
		} else if (!strcmp(line, ":drain")) {
			struct pollfd p = { a->wake[0], POLLIN, 0 };
			if (poll(&p, 1, 10000) > 0 && amc_tui_screen_take(a))
				amc_tui_screen_reload(a);
		} else if (!strcmp(line, ":changes")) {
			/* What the loop does after an inotify wake: compare data_version. */
			long long nv = amc_tui_session_data_version(a);
			if (nv != dv) {
				dv = nv;
				amc_tui_screen_reload(a);
			}
		} else if (!strncmp(line, ":type ", 6)) {
			for (const char *p = line + 6; *p; p++)
				amc_tui_screen_key(a, (unsigned char)*p);
		} else {
			char *save = NULL;
			for (char *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
				int k = amc_tui_keymap_parse_key(tok);
				if (k < 0) {
					rc = amc_err_set(e, AMC_EUSAGE, "script %s: unknown key '%s'", o->script, tok);
					break;
				}
				long long k0 = tm.f ? mono_us() : 0;
				amc_tui_screen_key(a, k);
				if (amc_tui_screen_take(a))
					amc_tui_screen_reload(a);
				if (a->quit)
					break;
				if (tm.f) {
					if (a->dirty)
						amc_tui_screen_draw(a);
					tm.v = amc_xrealloc(tm.v, (tm.n + 1) * sizeof *tm.v);
					tm.v[tm.n++] = mono_us() - k0;
				}
			}
			if (rc)
				break;
		}
		if (a->dirty)
			amc_tui_screen_draw(a);
	}
	fclose(f);
	return rc;
}


void amc_tui_script_timing_begin(const char *path)
{
	if (!path)
		return;
	tm.f = fopen(path, "w");
	tm.t0 = mono_us();
	amc_tui_image_timing(tm.f);
}

void amc_tui_script_timing_end(void)
{
	if (!tm.f)
		return;
	timing_flush();
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(tm.f, "maxrss_kb %ld\n", ru.ru_maxrss);
	amc_tui_image_timing(NULL);
	fclose(tm.f);
	free(tm.v);
	memset(&tm, 0, sizeof tm);
}
