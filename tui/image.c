/* image.c - Chafa symbols through ncurses (see image.h).
 *
 * Chafa 1.12's INDEXED_240 canvas maps to terminal colours 16..255, which leaves
 * the 16 themeable colours alone; each cell's pens become a pair from
 * alloc_pair(), which ncurses recycles least-recently-used.
 *
 * Decoding and Chafa run on one worker thread, never on the key path: a draw
 * that misses the cache queues a job (the newest first; the oldest beyond
 * JOBS are dropped, they are no longer on screen), shows a placeholder, and
 * the worker puts the result into the cache and writes a byte to the app's
 * wake pipe, which redraws. Panes read the thumbnail beside the capture,
 * making it on first use (store.h); the zoomed view reads the full capture. */
#include <limits.h>
#include <chafa.h>
#include <curses.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "image/image.h"
#include "image/png.h"
#include "storage/store.h"
#include "tui/image.h"
#include "tui/pixels.h"
#include "tui/text.h"
#include "tui/theme.h"
#include "util/strbuf.h"

typedef struct cell {
	wchar_t ch;
	short fg, bg;
} cell;

typedef struct render {
	char *path;
	int thumb;           /* 1: the thumbnail was asked for (path is the full image's) */
	int w, h;            /* pane size asked for */
	int fw, fh;          /* the full image's size (target marks are in its pixels) */
	int cw, ch;          /* canvas size in cells */
	int iw, ih;          /* image size in pixels */
	int mode;            /* 0 = 240 colours, 1 = 16, 2 = placeholder, 3 = symbols without colour */
	int bad;             /* the file could not be read or decoded */
	int from_thumb;      /* the thumbnail was read */
	int crop[4];         /* the part of the full image shown {x1, y1, x2, y2}; all 0: the whole */
	int crop_key[4];     /* the crop asked for (the cache's key) */
	cell *cells;
	unsigned long used;
} render;

#define CACHE 16
static FILE *timing_f;

void amc_tui_image_timing(FILE *f)
{
	timing_f = f;
}

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}
static render cache[CACHE];
static unsigned long tick;


/* The full image's size from its header: 24 bytes, no decode. */
static int full_size(const char *path, int *w, int *h)
{
	unsigned char b[64];
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t n = fread(b, 1, sizeof b, f);
	fclose(f);
	amc_err e;
	return amc_png_info(b, n, w, h, &e);
}

int amc_tui_image_size(const char *abspath, int *w, int *h)
{
	return full_size(abspath, w, h);
}

static int do_render(render *r, const char *path, int thumb, int w, int h, int mode, const int crop[4])
{
	amc_image img;
	amc_err e;
	char tp[PATH_MAX]; /* a longer path could not be opened anyway */
	int got = -1;
	if (thumb && amc_store_thumb_current(path, tp, sizeof tp) && full_size(path, &r->fw, &r->fh) == 0)
		got = amc_png_decode_file(tp, &img, &e);
	r->from_thumb = got == 0;
	if (got != 0) {
		if (amc_png_decode_file(path, &img, &e) != 0)
			return -1;
		r->fw = img.w;
		r->fh = img.h;
		/* no thumbnail yet (the runner writes none): make it from the
		 * pixels just decoded, for this pane and the next reader */
		amc_image small;
		if (thumb && amc_store_thumb_get(path, &img, &small, NULL, &e) == 0) {
			amc_image_free(&img);
			img = small;
			r->from_thumb = 1;
		}
	}
	if (crop && crop[2] > crop[0] && crop[3] > crop[1]) {
		/* zoom to a part: cut from the full capture (the thumbnail has too
		 * few pixels), clamped to it */
		int x1 = crop[0] < 0 ? 0 : crop[0], y1 = crop[1] < 0 ? 0 : crop[1];
		int x2 = crop[2] > img.w ? img.w : crop[2], y2 = crop[3] > img.h ? img.h : crop[3];
		amc_image part;
		if (r->from_thumb || x2 <= x1 || y2 <= y1 || amc_image_crop(&img, x1, y1, x2 - x1, y2 - y1, &part, &e) != 0) {
			amc_image_free(&img);
			return -1;
		}
		amc_image_free(&img);
		img = part;
		r->crop[0] = x1;
		r->crop[1] = y1;
		r->crop[2] = x2;
		r->crop[3] = y2;
	}
	r->iw = img.w;
	r->ih = img.h;
	r->mode = mode;
	if (mode == 2) {
		amc_image_free(&img);
		return 0;
	}
	gint cw = w, ch = h;
	chafa_calc_canvas_geometry(img.w, img.h, &cw, &ch, 0.5f, FALSE, FALSE);
	if (cw < 1)
		cw = 1;
	if (ch < 1)
		ch = 1;
	ChafaSymbolMap *sm = chafa_symbol_map_new();
	chafa_symbol_map_add_by_tags(sm, amc_tui_utf8() ? (CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE)
							 : (CHAFA_SYMBOL_TAG_ASCII | CHAFA_SYMBOL_TAG_SPACE));
	ChafaCanvasConfig *cfg = chafa_canvas_config_new();
	chafa_canvas_config_set_geometry(cfg, cw, ch);
	chafa_canvas_config_set_canvas_mode(cfg, mode == 0   ? CHAFA_CANVAS_MODE_INDEXED_240
						 : mode == 1 ? CHAFA_CANVAS_MODE_INDEXED_16
							     : CHAFA_CANVAS_MODE_FGBG);
	chafa_canvas_config_set_symbol_map(cfg, sm);
	chafa_canvas_config_set_work_factor(cfg, 0.2f);
	ChafaCanvas *cv = chafa_canvas_new(cfg);
	chafa_canvas_draw_all_pixels(cv, CHAFA_PIXEL_RGBA8_UNASSOCIATED, img.px, img.w, img.h, img.w * 4);
	r->cw = cw;
	r->ch = ch;
	r->cells = amc_xcalloc((size_t)cw * (size_t)ch, sizeof *r->cells);
	for (int yy = 0; yy < ch; yy++)
		for (int xx = 0; xx < cw; xx++) {
			cell *c = &r->cells[yy * cw + xx];
			gint fg, bg;
			c->ch = (wchar_t)chafa_canvas_get_char_at(cv, xx, yy);
			chafa_canvas_get_raw_colors_at(cv, xx, yy, &fg, &bg);
			c->fg = (short)fg;
			c->bg = (short)bg;
		}
	chafa_canvas_unref(cv);
	chafa_canvas_config_unref(cfg);
	chafa_symbol_map_unref(sm);
	amc_image_free(&img);
	return 0;
}

/* ---- the cache (main thread and worker, under mu) and the worker ---- */

typedef struct job {
	char *path;
	int thumb, w, h, mode;
	unsigned long gen;
	int crop[4];
} job;

#define JOBS 4
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_t worker;
static int started, stopping, busy, wake_fd = -1;
static job jobs[JOBS]; /* jobs[0] is the newest */
static int njobs;
static unsigned long gen;

/* The crop asked for (all 0: none) is the key, as the render keeps the
 * clamped one. */
static int same(const render *c, const char *path, int thumb, int w, int h, int mode, const int crop[4])
{
	return c->path && c->w == w && c->h == h && c->mode == mode && c->thumb == thumb &&
	       !memcmp(c->crop_key, crop, sizeof c->crop_key) && !strcmp(c->path, path);
}

static render *find(const char *path, int thumb, int w, int h, int mode, const int crop[4])
{
	for (int i = 0; i < CACHE; i++)
		if (same(&cache[i], path, thumb, w, h, mode, crop)) {
			cache[i].used = ++tick;
			return &cache[i];
		}
	return NULL;
}

/* Put a finished render into the least recently used slot (under mu). */
static void insert(const render *r)
{
	render *lru = &cache[0];
	for (int i = 0; i < CACHE; i++)
		if (cache[i].used < lru->used)
			lru = &cache[i];
	free(lru->path);
	free(lru->cells);
	*lru = *r;
	lru->used = ++tick;
}

/* Decode and render outside the lock; NULL cells + path on failure means
 * "unreadable" (cached too, so a bad file is not retried on every frame). */
static void render_job(const job *j, render *out)
{
	memset(out, 0, sizeof *out);
	long long t0 = now_us();
	if (do_render(out, j->path, j->thumb, j->w, j->h, j->mode, j->crop) != 0) {
		free(out->cells);
		memset(out, 0, sizeof *out);
		out->bad = 1;
	} else if (timing_f) {
		fprintf(timing_f, "render_cold_us %lld %dx%d %s\n", now_us() - t0, j->w, j->h,
			out->from_thumb ? "thumbnail" : "full");
	}
	out->path = amc_xstrdup(j->path);
	out->thumb = j->thumb;
	out->w = j->w;
	out->h = j->h;
	out->mode = j->mode;
	memcpy(out->crop_key, j->crop, sizeof out->crop_key);
}

static void *work(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	for (;;) {
		while (!njobs && !stopping)
			pthread_cond_wait(&cv, &mu);
		if (stopping)
			break;
		job j = jobs[0];
		memmove(jobs, jobs + 1, sizeof jobs[0] * (size_t)--njobs);
		busy = 1;
		pthread_mutex_unlock(&mu);
		render r;
		render_job(&j, &r);
		pthread_mutex_lock(&mu);
		busy = 0;
		if (j.gen == gen && !find(r.path, r.thumb, r.w, r.h, r.mode, r.crop_key)) {
			insert(&r);
		} else {
			free(r.path);
			free(r.cells);
		}
		free(j.path);
		pthread_cond_broadcast(&cv);
		if (wake_fd >= 0) {
			char b = 3; /* session.c: a render is ready */
			ssize_t wr = write(wake_fd, &b, 1); /* nonblocking: a full pipe already wakes */
			(void)wr;
		}
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

int amc_tui_image_start(int fd)
{
	if (started)
		return 0;
	wake_fd = fd;
	stopping = 0;
	if (pthread_create(&worker, NULL, work, NULL) != 0)
		return -1;
	started = 1;
	return 0;
}

void amc_tui_image_stop(void)
{
	if (!started)
		return;
	pthread_mutex_lock(&mu);
	stopping = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(worker, NULL);
	started = 0;
	wake_fd = -1;
	for (int i = 0; i < njobs; i++)
		free(jobs[i].path);
	njobs = 0;
}

int amc_tui_image_settle(void)
{
	if (!started)
		return 0;
	pthread_mutex_lock(&mu);
	int waited = njobs || busy;
	while (njobs || busy)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return waited;
}

/* Queue a render unless it is queued already (main thread, under mu). */
static void enqueue(const char *path, int thumb, int w, int h, int mode, const int crop[4])
{
	for (int i = 0; i < njobs; i++)
		if (jobs[i].w == w && jobs[i].h == h && jobs[i].mode == mode && jobs[i].thumb == thumb &&
		    !memcmp(jobs[i].crop, crop, sizeof jobs[i].crop) && !strcmp(jobs[i].path, path)) {
			job j = jobs[i];
			memmove(jobs + 1, jobs, sizeof jobs[0] * (size_t)i);
			jobs[0] = j;
			return;
		}
	if (njobs == JOBS)
		free(jobs[--njobs].path);
	memmove(jobs + 1, jobs, sizeof jobs[0] * (size_t)njobs);
	jobs[0] = (job){ amc_xstrdup(path), thumb, w, h, mode, gen, { crop[0], crop[1], crop[2], crop[3] } };
	njobs++;
	pthread_cond_signal(&cv);
}

void amc_tui_image_forget(void)
{
	pthread_mutex_lock(&mu);
	gen++; /* a render under way now is for the old pixels or size */
	for (int i = 0; i < njobs; i++)
		free(jobs[i].path);
	njobs = 0;
	for (int i = 0; i < CACHE; i++) {
		free(cache[i].path);
		free(cache[i].cells);
		memset(&cache[i], 0, sizeof cache[i]);
	}
	pthread_mutex_unlock(&mu);
}

/* The character of cell (xx, yy) on the outline of cells (bx1, by1)-(bx2, by2), or 0. */
static wchar_t outline(int xx, int yy, const int b[4])
{
	int u = amc_tui_utf8();
	int left = xx == b[0], right = xx == b[2], top = yy == b[1], bottom = yy == b[3];
	if (xx < b[0] || xx > b[2] || yy < b[1] || yy > b[3] || !(left || right || top || bottom))
		return 0;
	if ((left && right) || (top && bottom))
		return u ? (left && right && top && bottom ? 0x25A1 : (left && right) ? 0x2502 : 0x2500) /* □ │ ─ */
			 : (left && right && top && bottom ? '#' : (left && right) ? '|' : '-');
	if ((left || right) && (top || bottom))
		return u ? (top ? (left ? 0x250C : 0x2510) : (left ? 0x2514 : 0x2518)) : '+'; /* ┌ ┐ └ ┘ */
	return u ? (top || bottom ? 0x2500 : 0x2502) : (top || bottom ? '-' : '|');
}

/* The part of the full image a render shows: its origin and size in pixels. */
static void shown_part(const render *r, int *x0, int *y0, int *pw, int *ph)
{
	int c = r->crop[2] > r->crop[0];
	*x0 = c ? r->crop[0] : 0;
	*y0 = c ? r->crop[1] : 0;
	*pw = c ? r->crop[2] - r->crop[0] : r->fw;
	*ph = c ? r->crop[3] - r->crop[1] : r->fh;
}

/* A cell of the full image's pixel (px, py) in a render of r->cw x r->ch
 * cells (a point outside a crop lands on its edge). */
static void to_cell(const render *r, int px, int py, int *cx, int *cy)
{
	int x0, y0, pw, ph;
	shown_part(r, &x0, &y0, &pw, &ph);
	long vx = (long)(px - x0) * r->cw / (pw > 0 ? pw : 1), vy = (long)(py - y0) * r->ch / (ph > 0 ? ph : 1);
	*cx = vx < 0 ? 0 : vx >= r->cw ? r->cw - 1 : (int)vx;
	*cy = vy < 0 ? 0 : vy >= r->ch ? r->ch - 1 : (int)vy;
}

/* The marks as one overlay of characters (0: the image shows), so drawing
 * asks one cell at a time. Later marks win: the box, then a swipe's path,
 * then the target. */
static wchar_t *mark_cells(const render *r, const amc_tui_marks *m)
{
	if (!m || r->fw <= 0 || r->fh <= 0 || r->cw <= 0 || r->ch <= 0)
		return NULL;
	int u = amc_tui_utf8();
	wchar_t *ov = amc_xcalloc((size_t)r->cw * (size_t)r->ch, sizeof *ov);
	if (m->box) {
		int b[4];
		to_cell(r, m->box[0], m->box[1], &b[0], &b[1]);
		to_cell(r, m->box[2], m->box[3], &b[2], &b[3]);
		for (int yy = 0; yy < r->ch; yy++)
			for (int xx = 0; xx < r->cw; xx++)
				ov[yy * r->cw + xx] = outline(xx, yy, b);
	}
	if (m->swipe) {
		/* Bresenham from the start cell to the end cell: dots, an arrow head
		 * pointing the way the finger moved. */
		int x0, y0, x1, y1;
		to_cell(r, m->sx1, m->sy1, &x0, &y0);
		to_cell(r, m->sx2, m->sy2, &x1, &y1);
		int dx = x1 > x0 ? x1 - x0 : x0 - x1, dy = -(y1 > y0 ? y1 - y0 : y0 - y1);
		int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy, cx = x0, cy = y0;
		for (;;) {
			ov[cy * r->cw + cx] = u ? 0x00B7 : '.'; /* · */
			if (cx == x1 && cy == y1)
				break;
			int e2 = 2 * err;
			if (e2 >= dy) {
				err += dy;
				cx += sx;
			}
			if (e2 <= dx) {
				err += dx;
				cy += sy;
			}
		}
		int horiz = dx >= -dy;
		wchar_t head = horiz ? (x1 >= x0 ? (u ? 0x2192 : '>') : (u ? 0x2190 : '<'))   /* → ← */
				     : (y1 >= y0 ? (u ? 0x2193 : 'v') : (u ? 0x2191 : '^')); /* ↓ ↑ */
		ov[y1 * r->cw + x1] = head;
	}
	int x0, y0, pw, ph;
	shown_part(r, &x0, &y0, &pw, &ph);
	if (m->tx >= x0 && m->ty >= y0 && m->tx < x0 + pw && m->ty < y0 + ph) {
		int cx, cy;
		to_cell(r, m->tx, m->ty, &cx, &cy);
		ov[cy * r->cw + cx] = u ? 0x25CE : '@'; /* ◎ */
	}
	return ov;
}

static int draw_cells(const render *r, int y, int x, int h, int w, const amc_tui_marks *m)
{
	if (r->bad) {
		amc_tui_put(stdscr, y, x, w, "(screenshot missing or unreadable)", amc_tui_attr(AMC_EL_DIM), 0);
		return -1;
	}
	if (r->mode == 2) {
		char s[64];
		snprintf(s, sizeof s, "[screenshot %dx%d]", r->iw, r->ih);
		amc_tui_put(stdscr, y + h / 2, x + (w - (int)strlen(s) > 0 ? (w - (int)strlen(s)) / 2 : 0), w, s,
			    amc_tui_attr(AMC_EL_DIM), 0);
		return 0;
	}
	int ox = x + (w - r->cw) / 2, oy = y;
	wchar_t *ov = mark_cells(r, m);
	for (int yy = 0; yy < r->ch; yy++)
		for (int xx = 0; xx < r->cw; xx++) {
			cell *c = &r->cells[yy * r->cw + xx];
			wchar_t wc[2] = { c->ch ? c->ch : L' ', 0 };
			cchar_t cc;
			wchar_t ow = ov ? ov[yy * r->cw + xx] : 0;
			if (ow) {
				wc[0] = ow;
				setcchar(&cc, wc, amc_tui_attr(AMC_EL_TARGET) & ~A_COLOR,
					 (short)PAIR_NUMBER(amc_tui_attr(AMC_EL_TARGET)), NULL);
			} else if (r->mode == 3) {
				setcchar(&cc, wc, A_NORMAL, 0, NULL); /* the shapes in the terminal's own colours */
			} else {
				int pair = alloc_pair(c->fg >= 0 ? c->fg : -1, c->bg >= 0 ? c->bg : -1);
				setcchar(&cc, wc, A_NORMAL, (short)(pair > 0 && pair < 32768 ? pair : 0), NULL);
			}
			mvadd_wch(oy + yy, ox + xx, &cc);
		}
	free(ov);
	/* The phone's edge: a white screen on a light terminal would have none
	 * (issue 27), so a thin frame in the theme's border colour goes round
	 * the image where the pane has room beside and below it. */
	attr_t fa = amc_tui_attr(AMC_EL_BORDER);
	int utf8 = amc_tui_utf8();
	if (ox - 1 >= x && ox + r->cw < x + w) {
		for (int yy = 0; yy < r->ch; yy++) {
			amc_tui_put(stdscr, oy + yy, ox - 1, 1, utf8 ? "\xe2\x94\x82" : "|", fa, 0);
			amc_tui_put(stdscr, oy + yy, ox + r->cw, 1, utf8 ? "\xe2\x94\x82" : "|", fa, 0);
		}
		if (r->ch < h) {
			amc_tui_put(stdscr, oy + r->ch, ox - 1, 1, utf8 ? "\xe2\x94\x94" : "+", fa, 0);
			for (int xx = 0; xx < r->cw; xx++)
				amc_tui_put(stdscr, oy + r->ch, ox + xx, 1, utf8 ? "\xe2\x94\x80" : "-", fa, 0);
			amc_tui_put(stdscr, oy + r->ch, ox + r->cw, 1, utf8 ? "\xe2\x94\x98" : "+", fa, 0);
		}
	}
	return 0;
}

/* Where images were drawn (the newest first), so a click on one can be
 * turned into the screenshot's pixel: the canvas's cell origin and size and
 * the part of the full image it shows. Main thread only. */
#define AREAS 8
static struct area {
	int y, x, cw, ch;       /* the canvas on screen */
	int x0, y0, pw, ph;     /* the part of the full image it shows */
} areas[AREAS];
static int nareas;

static void note_area(const render *r, int y, int x, int w)
{
	struct area a = { y, x + (w - r->cw) / 2, r->cw, r->ch, 0, 0, 0, 0 };
	shown_part(r, &a.x0, &a.y0, &a.pw, &a.ph);
	int i = 0;
	while (i < nareas && (areas[i].y != a.y || areas[i].x != a.x))
		i++;
	if (i == nareas && nareas < AREAS)
		nareas++;
	if (i == AREAS)
		i = AREAS - 1;
	memmove(areas + 1, areas, sizeof areas[0] * (size_t)i);
	areas[0] = a;
}

int amc_tui_image_pixel_at(int row, int col, int *px, int *py)
{
	for (int i = 0; i < nareas; i++) {
		const struct area *a = &areas[i];
		if (row < a->y || row >= a->y + a->ch || col < a->x || col >= a->x + a->cw)
			continue;
		/* the centre of the cell, in the full image's pixels */
		*px = a->x0 + (int)(((long)(col - a->x) * 2 + 1) * a->pw / (2L * a->cw));
		*py = a->y0 + (int)(((long)(row - a->y) * 2 + 1) * a->ph / (2L * a->ch));
		return 1;
	}
	return 0;
}

int amc_tui_image_draw(const char *abspath, int y, int x, int h, int w, int tx, int ty, const int *box, int full,
		       const char *mode_name)
{
	amc_tui_marks m = { tx, ty, box, 0, 0, 0, 0, 0, { 0, 0, 0, 0 } };
	return amc_tui_image_draw_marked(abspath, y, x, h, w, &m, full, mode_name);
}

int amc_tui_image_draw_marked(const char *abspath, int y, int x, int h, int w, const amc_tui_marks *m, int full,
			       const char *mode_name)
{
	if (h < 1 || w < 1)
		return 0;
	static const int whole[4] = { 0, 0, 0, 0 };
	const int *crop = m && m->crop[2] > m->crop[0] && m->crop[3] > m->crop[1] ? m->crop : whole;
	/* Real pixels where the terminal has them (the cells stay blank; the
	 * image is written after doupdate()). The target mark is symbols-only.
	 * Panes show the thumbnail beside the capture, a few milliseconds to
	 * decode on the key path (made once, on first use); only the zoomed view
	 * pays for the full capture every time. */
	if (strcmp(mode_name, "none") != 0 && crop == whole) { /* a crop is drawn in symbols */
		char tp[PATH_MAX];
		const char *src = abspath;
		if (!full) {
			/* made here, once, when the runner wrote none */
			amc_image small;
			amc_err e;
			if (!amc_store_thumb_current(abspath, tp, sizeof tp) &&
			    amc_store_thumb_get(abspath, NULL, &small, NULL, &e) == 0)
				amc_image_free(&small);
			if (amc_store_thumb_current(abspath, tp, sizeof tp))
				src = tp;
		}
		if (amc_tui_pixels_place(src, y, x, h, w) == 0)
			return 0;
	}
	/* without colours (NO_COLOR, a terminal of fewer than 16) the picture is
	 * still drawn, in the shapes of the symbols: a placeholder there hid what
	 * the screen looked like. "none" asks for the placeholder. */
	int mode = 2;
	if (strcmp(mode_name, "none") != 0)
		mode = has_colors() && COLORS >= 256 ? 0 : has_colors() && COLORS >= 16 ? 1 : 3;
	int thumb = !full && crop == whole; /* a part is cut from the full capture */
	long long t0 = timing_f ? now_us() : 0;
	/* mu is held while the cells are drawn: the worker's insert may
	 * otherwise evict them under us (it waits a millisecond at most). */
	pthread_mutex_lock(&mu);
	render *r = find(abspath, thumb, w, h, mode, crop);
	int cold = 0;
	if (!r && started) {
		enqueue(abspath, thumb, w, h, mode, crop);
		pthread_mutex_unlock(&mu);
		/* a placeholder until the worker has it (it wakes the loop) */
		const char *s = "rendering...";
		int sl = (int)strlen(s);
		amc_tui_put(stdscr, y + h / 2, x + (w - sl > 0 ? (w - sl) / 2 : 0), w, s, amc_tui_attr(AMC_EL_DIM), 0);
		return 0;
	}
	if (!r) {
		/* no worker (not started): render here, as before */
		job j = { (char *)abspath, thumb, w, h, mode, 0, { crop[0], crop[1], crop[2], crop[3] } };
		render nr;
		render_job(&j, &nr);
		insert(&nr);
		r = find(abspath, thumb, w, h, mode, crop);
		cold = 1;
	}
	int rc = r ? draw_cells(r, y, x, h, w, m) : -1;
	if (r && !r->bad && r->mode != 2)
		note_area(r, y, x, w);
	pthread_mutex_unlock(&mu);
	if (timing_f && !cold)
		fprintf(timing_f, "render_cached_us %lld %dx%d\n", now_us() - t0, w, h);
	return rc;
}
