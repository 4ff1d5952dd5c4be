/* pixels.h - screenshots as real pixels (sixel, kitty, iTerm2) beside ncurses.
 *
 * ncurses knows nothing about pixels, so images are written straight to the
 * terminal after doupdate(): ESC 7, CSI row;col H, the image, ESC 8, each
 * inside its pane and never on the last row. Panes ask for an image with
 * amc_tui_pixels_place() while drawing; amc_tui_pixels_flush() (after
 * doupdate) sends what changed and removes what went away; overlays and
 * resizes call amc_tui_pixels_hide() first. Main thread only. */
#ifndef AMC_TUI_PIXELS_H
#define AMC_TUI_PIXELS_H

typedef enum amc_tui_pix {
	AMC_PIX_NONE = 0, AMC_PIX_SIXEL, AMC_PIX_KITTY, AMC_PIX_ITERM
} amc_tui_pix;

/* Choose the protocol for a [tui] graphics setting (auto, symbols, sixel,
 * kitty, iterm, none). auto: the environment (libchafa's terminal database;
 * never inside tmux, whose 3.3 passes no images) proposes one, and a query on
 * the terminal (in_fd/out_fd) confirms it within timeout_ms (kitty: a graphics
 * query, sixel: attribute 4 in the DA1 reply; iTerm2 is trusted from
 * LC_TERMINAL/TERM_PROGRAM). An explicit protocol is used as asked.
 * Returns AMC_PIX_NONE for symbols. */
amc_tui_pix amc_tui_pixels_detect(const char *setting, int in_fd, int out_fd, int timeout_ms);
const char *amc_tui_pixels_name(amc_tui_pix p);
/* Start using protocol p on out_fd; cell size in pixels from TIOCGWINSZ
 * (when plausible) or 10x20. */
void amc_tui_pixels_init(amc_tui_pix p, int out_fd);
amc_tui_pix amc_tui_pixels_mode(void);
/* Forget the placements of the frame being drawn; `allow` 0 while an overlay
 * (dialog) is open, so panes fall back to symbols under it. */
void amc_tui_pixels_begin(int allow);
/* Ask for the PNG at abspath in the cells (y, x, h, w). 0 if it will be
 * drawn (the caller leaves the cells blank), -1 if not (draw symbols). */
int amc_tui_pixels_place(const char *abspath, int y, int x, int h, int w);
/* After doupdate(): send new or moved images, remove those that went away. */
void amc_tui_pixels_flush(void);
/* Build escape strings on a worker thread that writes a byte 3 to wake_fd
 * when one is ready (images then appear on the next flush); without it they
 * are built on the key path. No-op for AMC_PIX_NONE. */
int amc_tui_pixels_start(int wake_fd);
void amc_tui_pixels_stop(void);
/* Remove every image from the terminal now (before an overlay, a resize, exit). */
void amc_tui_pixels_hide(void);
/* Put `text` on the terminal's clipboard: OSC 52 ("ESC ] 52 ; c ; BASE64
 * BEL"), written to the terminal directly; terminals that do not allow it
 * ignore it (tmux passes it with set-clipboard on). 0 when written. */
int amc_tui_pixels_osc52(const char *text);
/* After doupdate(): rewrite the file path `abspath` (as drawn) at (row, col)
 * as an OSC 8 link to itself (util/hyperlink.h), cursor and rendition saved
 * and restored around it. The caller decides that the terminal supports it. */
void amc_tui_pixels_osc8(int row, int col, const char *abspath);

#endif
