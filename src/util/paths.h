/* paths.h - where amc keeps its data, finds its bundled data and reads its config. */
#ifndef AMC_PATHS_H
#define AMC_PATHS_H

#include <stddef.h>
#include "util/err.h"

/* $AMC_HOME, else $XDG_DATA_HOME/amc, else ~/.local/share/amc. Created 0700 when
 * missing. Environment values are validated (absolute path, sane length). */
int amc_paths_home(char *out, size_t n, amc_err *e);
/* Bundled data: $AMC_DATA_DIR, else the source tree's data/ when this binary runs
 * from its build folder, else the installed $(pkgdatadir). */
int amc_paths_data_dir(char *out, size_t n, amc_err *e);
/* $XDG_CONFIG_HOME/amc/config, else ~/.config/amc/config (may not exist). */
int amc_paths_config_file(char *out, size_t n, amc_err *e);
/* The folder of the config file ($XDG_CONFIG_HOME/amc). */
int amc_paths_config_dir(char *out, size_t n, amc_err *e);

#endif
