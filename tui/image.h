/* image.h - screenshots as Chafa symbols drawn into ncurses cells: the path that
 * works everywhere (SSH, tmux, capture-pane, tests). Renders are cached per
 * (file, pane size); the cache is main-thread only. */
#ifndef AMC_TUI_IMAGE_H
#define AMC_TUI_IMAGE_H

#include <stdio.h>

/* Draw the PNG at `abspath` fitted into the area (y, x, h, w) of stdscr,
 * centred. When tx,ty >= 0 (image pixels) that point is marked. "none" mode or
 * fewer than 16 colours draws a placeholder with the image size. Returns 0, or
 * -1 when the file cannot be read (a message is drawn instead). */
int amc_tui_image_draw(const char *abspath, int y, int x, int h, int w, int tx, int ty, const char *mode);
/* Bench timing: when f is set, each draw writes "render_cold_us N" (decoded
 * and rendered now) or "render_cached_us N" lines to it. */
void amc_tui_image_timing(FILE *f);
/* Drop every cached render (resize, exit). */
void amc_tui_image_forget(void);

#endif
