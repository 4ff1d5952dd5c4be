/* hyperlink.h - OSC 8 hyperlinks: a file's path made clickable in terminals
 * that support it (ESC ] 8 ; ; file://HOST/PATH ESC \ TEXT ESC ] 8 ; ; ESC \),
 * left plain where they may not.
 *
 * Whether to write them: AMC_HYPERLINKS=on|off|auto (default auto). auto is
 * on only for a terminal that says it supports them and is not behind a
 * multiplexer that may drop or mangle them: a tty, TMUX and STY unset, TERM
 * not dumb, linux or screen*, and one of TERM_PROGRAM WezTerm, iTerm.app,
 * vscode, ghostty or Tabby; LC_TERMINAL iTerm2; VTE_VERSION >= 5000 (GNOME
 * Terminal and other VTE terminals); KONSOLE_VERSION, KITTY_WINDOW_ID or
 * WT_SESSION set; TERM xterm-kitty, foot*, alacritty, wezterm, xterm-ghostty
 * or contour. Plain xterm and tmux 3.3 get plain text. on writes them to any
 * stream (a pager with -R), off never. */
#ifndef AMC_HYPERLINK_H
#define AMC_HYPERLINK_H

#include <stdio.h>
#include "util/strbuf.h"

/* 1 when links should be written to fd (see above). `getenv_fn` reads the
 * environment (NULL: getenv), so tests pass their own. */
int amc_hyperlink_supported(int fd, const char *(*getenv_fn)(const char *));
/* "file://HOST/PATH" for an absolute path, every byte outside
 * [A-Za-z0-9-._~/] percent-encoded (HOST from gethostname, empty when it
 * cannot be read), appended to out. -1 (nothing appended) when path is not
 * absolute. */
int amc_hyperlink_file_uri(const char *abspath, amc_sb *out);
/* `shown` (sanitized here) as a link to abspath appended to out: the OSC 8
 * opener, the text, the closer; only the text when abspath is not absolute. */
void amc_hyperlink_wrap(const char *abspath, const char *shown, amc_sb *out);
/* Print abspath to f sanitized, as a link to itself when `link`. */
void amc_hyperlink_put_path(FILE *f, const char *abspath, int link);

#endif
