/* script.h - script mode (tests, `make bench`): keys and commands from a
 * file instead of the keyboard, the screen dumped as UTF-8 text; the script
 * language is described at amc_tui_opts.script (tui/tui.h). */
#ifndef AMC_TUI_SCRIPT_H
#define AMC_TUI_SCRIPT_H

#include "tui/app.h"
#include "tui/tui.h"

/* Run o->script against the app until it ends or a key quits. Returns 0, or
 * -1 with e filled (the script cannot be read; an unknown key name). */
int amc_tui_script_run(amc_tui_app *a, const amc_tui_opts *o, amc_err *e);
/* Timing for `make bench` (AMC_TUI_TIMING=FILE): open FILE, the clock of the
 * first frame starts now; image renders are timed by image.c. NULL: off. */
void amc_tui_script_timing_begin(const char *path);
/* Write what is left (and the peak memory) and close the timing file; call
 * once the image worker, which writes to it too, has stopped. */
void amc_tui_script_timing_end(void);

#endif
