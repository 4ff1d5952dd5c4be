/* image.h - screenshots as Chafa symbols drawn into ncurses cells: the path that
 * works everywhere (SSH, tmux, capture-pane, tests). Renders are cached per
 * (file, thumbnail or full, pane size); decoding and rendering run on a
 * worker thread, drawing on the main thread. */
#ifndef AMC_TUI_IMAGE_H
#define AMC_TUI_IMAGE_H

#include <stdio.h>

/* Draw the PNG at `abspath` fitted into the area (y, x, h, w) of stdscr,
 * centred. When tx,ty >= 0 (pixels of the full image) that point is marked;
 * when `box` is set ({x1, y1, x2, y2}, full-image pixels), that rectangle's
 * outline (at least one cell) is drawn over the image.
 * Unless `full`, the thumbnail beside it (store.h) is read when there is one.
 * "none" mode or fewer than 16 colours draws a placeholder with the image
 * size. With the worker started, a render not in the cache is queued and a
 * placeholder drawn; the worker wakes the loop when it is ready. Returns 0,
 * or -1 when the file cannot be read (a message is drawn instead). */
int amc_tui_image_draw(const char *abspath, int y, int x, int h, int w, int tx, int ty, const int *box, int full,
		       const char *mode);
/* What is marked over a screenshot, in full-image pixels. */
typedef struct amc_tui_marks {
	int tx, ty;             /* the target point (<0: none), drawn as ◎ (@) */
	const int *box;         /* {x1, y1, x2, y2} outlined, or NULL */
	int swipe;              /* 1: a swipe's path from (sx1, sy1) to (sx2, sy2), dots and an arrow head */
	int sx1, sy1, sx2, sy2;
	int crop[4];            /* {x1, y1, x2, y2}: show only this part of the full capture, at the
				   pane's size (zoom to a target); all 0: the whole image */
} amc_tui_marks;
/* amc_tui_image_draw with any of the marks (m may be NULL). */
int amc_tui_image_draw_marked(const char *abspath, int y, int x, int h, int w, const amc_tui_marks *m, int full,
			      const char *mode);
/* The size in pixels of the PNG at abspath (its header only); 0 or -1. */
int amc_tui_image_size(const char *abspath, int *w, int *h);
/* The pixel of the full screenshot under screen cell (row, col), from the
 * images drawn so far (a cropped one maps into its part): 1 when the cell is
 * on one, with *px, *py set. Symbols only (pixel protocols are not mapped). */
int amc_tui_image_pixel_at(int row, int col, int *px, int *py);
/* Start the render worker; it writes a byte to `wake_fd` after each render.
 * Without it, draws render on the calling thread. Stop joins it. */
int amc_tui_image_start(int wake_fd);
void amc_tui_image_stop(void);
/* Wait until no render is queued or under way; 1 when there was one. */
int amc_tui_image_settle(void);
/* Bench timing: when f is set, each draw writes "render_cold_us N" (decoded
 * and rendered now) or "render_cached_us N" lines to it. */
void amc_tui_image_timing(FILE *f);
/* Drop every cached render (resize, exit). */
void amc_tui_image_forget(void);

#endif
