/* theme.h - colour themes read from plain text files.
 *
 * A theme file has one `element = FG BG [ATTR...]` line per element (# starts a
 * comment). Colours: default, black, red, green, yellow, blue, magenta, cyan,
 * white, bright-RED etc., or a number 0..255. Attributes: bold, dim, reverse,
 * underline, standout. Elements not named keep the monochrome look.
 * Themes are looked up as $XDG_CONFIG_HOME/amc/themes/NAME.theme, then the
 * bundled $(pkgdatadir)/themes/NAME.theme. NO_COLOR (set, any value) means
 * "monochrome". */
#ifndef AMC_TUI_THEME_H
#define AMC_TUI_THEME_H

#include <curses.h>
#include "util/err.h"

typedef enum amc_tui_el {
	AMC_EL_NORMAL, AMC_EL_TITLE, AMC_EL_STATUS, AMC_EL_SELECTED, AMC_EL_BORDER, AMC_EL_FOCUS,
	AMC_EL_DIM, AMC_EL_ERROR, AMC_EL_KEY, AMC_EL_TARGET,
	/* One per task status, in util/status.h's table order. */
	AMC_EL_QUEUED, AMC_EL_RUNNING, AMC_EL_SUCCEEDED, AMC_EL_FAILED, AMC_EL_CANCELLED,
	AMC_EL_INTERRUPTED, AMC_EL_WAITING,
	/* The Diff tab (added +, removed -, changed ~) and the "changed nothing" warning. */
	AMC_EL_ADDED, AMC_EL_REMOVED, AMC_EL_CHANGED, AMC_EL_WARN,
	AMC_EL__COUNT
} amc_tui_el;

typedef struct amc_tui_theme {
	char name[64];
	int fg[AMC_EL__COUNT], bg[AMC_EL__COUNT]; /* -1: terminal default */
	attr_t attr[AMC_EL__COUNT];
	int has_colour[AMC_EL__COUNT];
} amc_tui_theme;

/* Parse theme text into t (which starts as monochrome); errors name "NAME:LINE". */
int amc_tui_theme_parse(amc_tui_theme *t, const char *buf, size_t len, const char *name, amc_err *e);
/* The monochrome theme (attributes only). */
void amc_tui_theme_mono(amc_tui_theme *t);
/* Find and load theme `name`; on any error fill `e` and load "default" (or,
 * failing that, monochrome) into t, returning -1 so the caller can show why. */
int amc_tui_theme_load(amc_tui_theme *t, const char *name, amc_err *e);
/* Make the theme current (needs initscr/newterm done): allocates colour pairs
 * when the terminal has colours. */
void amc_tui_theme_apply(const amc_tui_theme *t);
/* Attribute (pair included) for an element of the current theme. */
attr_t amc_tui_attr(amc_tui_el el);
/* Element for a task status name, and a one-cell symbol that reads without colour. */
amc_tui_el amc_tui_status_el(const char *status);
const char *amc_tui_status_symbol(const char *status);

#endif
