/* test_tui_image.c - tui/image.c (named so beside tests/unit/test_image.c,
 * which is src/image's): screenshots drawn as Chafa symbols into ncurses
 * cells. The placeholder modes, unreadable files, drawing only inside the
 * pane, the target mark and box, the thumbnail for panes and the full image
 * for zoom, the render cache and the worker thread. */
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "tuitest.h"
#include "image/image.h"
#include "image/png.h"
#include "storage/store.h"
#include "tui/image.h"
#include "util/fsutil.h"

static char full_png[4200], thumbed_png[4200];

static void write_png(const char *path, int w, int h)
{
	amc_image img;
	amc_err e;
	amc_image_alloc(&img, w, h, &e);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			unsigned char *p = img.px + (y * w + x) * 4;
			p[0] = y < h / 2 ? 255 : 0; /* top red, bottom blue */
			p[2] = y < h / 2 ? 0 : 255;
			p[3] = 255;
		}
	unsigned char *buf;
	size_t len;
	amc_png_encode(&img, 6, &buf, &len, &e);
	amc_write_atomic(path, buf, len, 0644, &e);
	free(buf);
	amc_image_free(&img);
}

/* Fill the screen with '.', so every cell a draw touches shows. */
static void dots(void)
{
	for (int y = 0; y < LINES; y++)
		for (int x = 0; x < COLS; x++)
			mvaddch(y, x, '.');
}

/* 1 when every cell outside (y, x, h, w) is still '.'. */
static int outside_untouched(int y, int x, int h, int w)
{
	for (int r = 0; r < LINES; r++)
		for (int c = 0; c < COLS; c++) {
			if (r >= y && r < y + h && c >= x && c < x + w)
				continue;
			if ((mvinch(r, c) & A_CHARTEXT) != '.')
				return 0;
		}
	return 1;
}

/* Cells inside the area that changed from '.'. */
static int changed_inside(int y, int x, int h, int w)
{
	int n = 0;
	for (int r = y; r < y + h; r++)
		for (int c = x; c < x + w; c++)
			if ((mvinch(r, c) & A_CHARTEXT) != '.')
				n++;
	return n;
}

/* Row and column of the first cell holding wide character ch, or -1. */
static int find_cell(wchar_t ch, int *col)
{
	for (int r = 0; r < LINES; r++)
		for (int c = 0; c < COLS; c++) {
			cchar_t cc;
			wchar_t wc[CCHARW_MAX + 1];
			attr_t at;
			short pair;
			if (mvin_wch(r, c, &cc) == OK && getcchar(&cc, wc, &at, &pair, NULL) == OK && wc[0] == ch) {
				*col = c;
				return r;
			}
		}
	return -1;
}

static char timing_buf[8192];
static FILE *timing;

static const char *timing_text(void)
{
	fflush(timing);
	long n = ftell(timing);
	rewind(timing);
	size_t got = fread(timing_buf, 1, n > 0 && n < (long)sizeof timing_buf ? (size_t)n : 0, timing);
	timing_buf[got] = 0;
	rewind(timing);
	if (ftruncate(fileno(timing), 0) != 0)
		timing_buf[0] = 0;
	return timing_buf;
}

static void test_placeholders(void)
{
	dots();
	is_int(amc_tui_image_draw(full_png, 2, 4, 6, 30, -1, -1, NULL, 0, "none"), 0, "none: drawn");
	like(tt_row(5), "[screenshot 8x16]", "none: a placeholder with the image size, mid-pane");
	ok(outside_untouched(2, 4, 6, 30), "none: nothing outside the pane");

	dots();
	is_int(amc_tui_image_draw("/nonexistent/shot.png", 2, 4, 6, 40, -1, -1, NULL, 0, "symbols"), -1,
	       "a missing file: -1");
	like(tt_row(2), "(screenshot missing or unreadable)", "and says so in the pane");

	dots();
	is_int(amc_tui_image_draw(full_png, 0, 0, 0, 10, -1, -1, NULL, 0, "symbols"), 0, "a pane of 0 rows: nothing to do");
	is_int(amc_tui_image_draw(full_png, 0, 0, 5, 0, -1, -1, NULL, 0, "symbols"), 0, "a pane of 0 columns: nothing to do");
	ok(outside_untouched(0, 0, 0, 0), "and nothing is drawn");
}

static void test_symbols(void)
{
	dots();
	is_int(amc_tui_image_draw(full_png, 3, 10, 8, 20, -1, -1, NULL, 1, "symbols"), 0, "symbols: drawn");
	ok(changed_inside(3, 10, 8, 20) > 0, "symbols: cells inside the pane are drawn (%d)", changed_inside(3, 10, 8, 20));
	ok(outside_untouched(3, 10, 8, 20), "symbols: nothing outside the pane is touched");
	like(timing_text(), "render_cold_us ", "the first draw renders (cold)");
	amc_tui_image_draw(full_png, 3, 10, 8, 20, -1, -1, NULL, 1, "symbols");
	like(timing_text(), "render_cached_us ", "the same draw again comes from the cache");
	amc_tui_image_forget();
	amc_tui_image_draw(full_png, 3, 10, 8, 20, -1, -1, NULL, 1, "symbols");
	like(timing_text(), "render_cold_us ", "after forget it renders again");

	/* The target mark: full-image pixels, the bottom-right pixel. */
	dots();
	amc_tui_image_draw(full_png, 3, 10, 8, 20, 7, 15, NULL, 1, "symbols");
	int c, r = find_cell(0x25CE, &c);
	ok(r >= 3 && r < 11 && c >= 10 && c < 30, "the target mark is inside the pane (%d,%d)", r, c);
	int mr = r, mc = c;
	dots();
	amc_tui_image_draw(full_png, 3, 10, 8, 20, 0, 0, NULL, 1, "symbols");
	r = find_cell(0x25CE, &c);
	ok(r >= 3 && r < mr && c < mc, "a target at pixel 0,0 is above and left of the bottom-right one");

	/* A box over the whole image: its outline has all four corners. */
	dots();
	int box[4] = { 0, 0, 7, 15 };
	amc_tui_image_draw(full_png, 3, 10, 8, 20, -1, -1, box, 1, "symbols");
	int c1, c2;
	int r1 = find_cell(0x250C, &c1), r2 = find_cell(0x2518, &c2);
	ok(r1 >= 3 && r2 > r1 && c2 > c1 && r2 < 11, "a box is outlined from ┌ to ┘ inside the pane");
	ok(find_cell(0x2510, &c) >= 0 && find_cell(0x2514, &c) >= 0, "with all four corners");
	ok(outside_untouched(3, 10, 8, 20), "the box stays inside the pane");
}

static void test_thumbnail(void)
{
	/* Panes read the small thumbnail beside the capture, zoom the full one. */
	dots();
	amc_tui_image_draw(thumbed_png, 2, 4, 6, 30, -1, -1, NULL, 0, "none");
	like(tt_row(5), "[screenshot 40x80]", "a pane uses the thumbnail");
	dots();
	amc_tui_image_draw(thumbed_png, 2, 4, 6, 30, -1, -1, NULL, 1, "none");
	like(tt_row(5), "[screenshot 80x160]", "the zoomed pane uses the full image");
	timing_text();
	dots();
	amc_tui_image_draw(thumbed_png, 3, 10, 8, 20, 60, 150, NULL, 0, "symbols");
	like(timing_text(), "thumbnail", "the timing line says the thumbnail was drawn");
	int tc, tr = find_cell(0x25CE, &tc);
	dots();
	amc_tui_image_draw(thumbed_png, 3, 10, 8, 20, 60, 150, NULL, 1, "symbols");
	like(timing_text(), "full", "and the full image for zoom");
	int fc, fr = find_cell(0x25CE, &fc);
	ok(tr >= 0 && tr == fr && tc == fc, "a target in full-image pixels marks the same cell on the thumbnail");
}

/* A capture without a thumbnail (the runner writes none): the first pane
 * that shows it makes the thumbnail beside it and draws from it. */
static void test_thumbnail_made(const char *home)
{
	char shot[4200], tp[4200];
	snprintf(shot, sizeof shot, "%s/bare.png", home);
	write_png(shot, 1000, 1000);
	ok(amc_store_thumb_path(shot, tp, sizeof tp) == 0 && access(tp, F_OK) != 0, "a capture with no thumbnail");
	timing_text();
	dots();
	amc_tui_image_draw(shot, 3, 10, 8, 20, -1, -1, NULL, 0, "symbols");
	like(timing_text(), "thumbnail", "the pane is drawn from a thumbnail");
	int w = 0, h = 0;
	ok(access(tp, R_OK) == 0 && amc_tui_image_size(tp, &w, &h) == 0 && w == AMC_STORE_THUMB_SIDE &&
		   h == AMC_STORE_THUMB_SIDE,
	   "made beside the capture (%dx%d)", w, h);
	/* the capture rewritten under its name (the device view's): a new one */
	write_png(shot, 1000, 500);
	/* later than the thumbnail, as a capture rewritten by the device view
	 * is: written at once, both could share one tick of the file clock */
	struct stat ts;
	if (stat(tp, &ts) == 0) {
		struct timespec t[2] = { ts.st_mtim, ts.st_mtim };
		t[0].tv_sec++;
		t[1].tv_sec++;
		utimensat(AT_FDCWD, shot, t, 0);
	}
	amc_tui_image_forget();
	dots();
	amc_tui_image_draw(shot, 3, 10, 8, 20, -1, -1, NULL, 0, "symbols");
	ok(amc_tui_image_size(tp, &w, &h) == 0 && w == AMC_STORE_THUMB_SIDE && h == AMC_STORE_THUMB_SIDE / 2,
	   "a rewritten capture gets a new thumbnail (%dx%d)", w, h);
}

static void test_worker(void)
{
	int wake[2];
	if (pipe(wake) != 0)
		return;
	fcntl(wake[1], F_SETFL, O_NONBLOCK);
	is_int(amc_tui_image_settle(), 0, "no worker: nothing to settle");
	is_int(amc_tui_image_start(wake[0] >= 0 ? wake[1] : -1), 0, "the worker starts");
	is_int(amc_tui_image_start(wake[1]), 0, "starting twice is fine");
	amc_tui_image_forget();
	dots();
	is_int(amc_tui_image_draw(full_png, 3, 10, 8, 20, -1, -1, NULL, 1, "symbols"), 0, "a cold draw returns at once");
	ok(tt_screen_has("rendering..."), "with a placeholder while the worker renders");
	/* settle's return says whether a render was still under way, which
	 * depends on the worker's speed: only what follows it is asserted. */
	amc_tui_image_settle();
	struct pollfd p = { wake[0], POLLIN, 0 };
	char b = 0;
	ok(poll(&p, 1, 30000) == 1 && read(wake[0], &b, 1) == 1 && b == 3, "the worker wakes the loop with byte 3");
	dots();
	amc_tui_image_draw(full_png, 3, 10, 8, 20, -1, -1, NULL, 1, "symbols");
	ok(!tt_screen_has("rendering...") && changed_inside(3, 10, 8, 20) > 0, "the next draw shows the image");
	is_int(amc_tui_image_settle(), 0, "nothing left to settle");
	amc_tui_image_stop();
	amc_tui_image_stop();
	/* Stopped (twice): a render not in the cache is made on the calling thread. */
	amc_tui_image_forget();
	dots();
	amc_tui_image_draw(full_png, 3, 10, 8, 20, -1, -1, NULL, 1, "symbols");
	ok(!tt_screen_has("rendering...") && changed_inside(3, 10, 8, 20) > 0,
	   "after stopping twice, a draw renders at once");
	p.revents = 0;
	is_int(poll(&p, 1, 0), 0, "and no worker wakes the loop any more");
	close(wake[0]);
	close(wake[1]);
}

/* Distinct colour pairs among the cells of an area. */
static int pairs_inside(int y, int x, int h, int w)
{
	short seen[64];
	int n = 0;
	for (int r = y; r < y + h; r++)
		for (int c = x; c < x + w; c++) {
			cchar_t cc;
			wchar_t wc[CCHARW_MAX + 1];
			attr_t at;
			short pair;
			if (mvin_wch(r, c, &cc) != OK || getcchar(&cc, wc, &at, &pair, NULL) != OK || wc[0] == L'.')
				continue;
			int k = 0;
			while (k < n && seen[k] != pair)
				k++;
			if (k == n && n < 64)
				seen[n++] = pair;
		}
	return n;
}

/* Zoom to a target (issue 27): a crop of the full capture fills the pane,
 * marks land inside it, and a cell maps back to the image's pixel. */
static void test_crop(void)
{
	int w = 0, h = 0;
	ok(amc_tui_image_size(thumbed_png, &w, &h) == 0 && w == 80 && h == 160, "the size from the header (%dx%d)", w, h);
	dots();
	amc_tui_image_draw(thumbed_png, 2, 5, 8, 20, -1, -1, NULL, 0, "symbols");
	int whole = pairs_inside(2, 5, 8, 20);
	timing_text();
	dots();
	amc_tui_marks m = { 40, 130, NULL, 0, 0, 0, 0, 0, { 0, 100, 80, 160 } };
	is_int(amc_tui_image_draw_marked(thumbed_png, 2, 5, 8, 20, &m, 0, "symbols"), 0, "a crop is drawn");
	like(timing_text(), "full", "a crop is cut from the full capture, not the thumbnail");
	ok(whole >= 2 && pairs_inside(2, 5, 8, 20) <= 2, "the bottom part only (blue): %d colour pairs, the whole image %d",
	   pairs_inside(2, 5, 8, 20), whole);
	ok(outside_untouched(2, 5, 8, 20), "inside the pane");
	int c, r = find_cell(0x25CE, &c);
	ok(r >= 2 && r < 10, "the target inside the crop is marked (row %d)", r);
	int first = -1;
	for (int cc = 5; cc < 25 && first < 0; cc++)
		if ((mvinch(2, cc) & A_CHARTEXT) != '.')
			first = cc;
	int px = -1, py = -1;
	ok(first >= 0 && amc_tui_image_pixel_at(2, first, &px, &py), "a cell of the crop maps to a pixel");
	ok(px >= 0 && px < 20 && py >= 100 && py < 115, "the top-left cell is the crop's top-left pixels (%d,%d)", px, py);
	ok(!amc_tui_image_pixel_at(20, 70, &px, &py), "a cell off every image maps to none");
	dots();
	amc_tui_marks m2 = { 40, 20, NULL, 0, 0, 0, 0, 0, { 0, 100, 80, 160 } };
	amc_tui_image_draw_marked(thumbed_png, 2, 5, 8, 20, &m2, 0, "symbols");
	ok(find_cell(0x25CE, &c) < 0, "a target outside the crop is not marked on its edge");
}

int main(void)
{
	const char *home = test_home("tuiimage");
	if (tt_screen(80, 24) != 0)
		tap_skip_all("ncurses cannot start an xterm-256color screen");
	start_color();
	use_default_colors();
	ok(COLORS >= 256, "a 256-colour screen (symbols are drawn in colour)");
	snprintf(full_png, sizeof full_png, "%s/full.png", home);
	write_png(full_png, 8, 16);
	snprintf(thumbed_png, sizeof thumbed_png, "%s/shot.png", home);
	/* Both larger than the pane, as real captures and thumbnails are (an
	 * image smaller than the pane is drawn at its own size). */
	write_png(thumbed_png, 80, 160);
	char tp[4200];
	ok(amc_store_thumb_path(thumbed_png, tp, sizeof tp) == 0, "the thumbnail's path");
	write_png(tp, 40, 80);
	timing = tmpfile();
	amc_tui_image_timing(timing);
	test_placeholders();
	test_symbols();
	test_thumbnail();
	test_thumbnail_made(home);
	test_crop();
	test_worker();
	amc_tui_image_timing(NULL);
	fclose(timing);
	amc_tui_image_forget();
	tt_screen_end();
	return done_testing();
}
