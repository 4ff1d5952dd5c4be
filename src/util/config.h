/* config.h - amc's configuration.
 *
 * The file is $XDG_CONFIG_HOME/amc/config: `key = value` lines under `[section]`
 * headers, `#` or `;` comments. Every key is also settable as AMC_<SECTION>_<KEY>
 * in the environment. Precedence: command line, environment, file, default.
 * Every key is declared once in the table in config.c (type, range, default,
 * help); unknown keys and bad values are errors that name the line or variable. */
#ifndef AMC_CONFIG_H
#define AMC_CONFIG_H

#include <stddef.h>
#include "util/err.h"

#define AMC_CONFIG_MAX_BYTES (256u * 1024u)

typedef struct amc_config amc_config;

typedef struct amc_config_item {
	const char *section;
	const char *key;
	const char *value;   /* effective value */
	const char *origin;  /* "default", "file:LINE", "env:AMC_X_Y", "command line" */
	const char *help;
} amc_config_item;

amc_config *amc_config_new(void); /* defaults only */
void amc_config_free(amc_config *c);
/* Defaults, then the file (when it exists), then the environment. */
int amc_config_load(amc_config **out, amc_err *e);
/* Parse config text; `name` is used in messages ("FILE:LINE: ..."). */
int amc_config_parse(amc_config *c, const char *buf, size_t len, const char *name, amc_err *e);
int amc_config_load_file(amc_config *c, const char *path, amc_err *e);
int amc_config_load_env(amc_config *c, amc_err *e);
/* Set one value (validated). `origin` is copied. */
int amc_config_set(amc_config *c, const char *section, const char *key, const char *value,
		   const char *origin, amc_err *e);

/* Lookups of declared keys; an undeclared key is a programming error (aborts). */
const char *amc_config_str(const amc_config *c, const char *section, const char *key);
long amc_config_int(const amc_config *c, const char *section, const char *key);
double amc_config_double(const amc_config *c, const char *section, const char *key);

size_t amc_config_count(const amc_config *c);
/* Item i in table order; the strings belong to the config. */
amc_config_item amc_config_item_at(const amc_config *c, size_t i);
/* What key i accepts, in words for a manual: "error|warn|info|debug",
 * "1..10000", "true|false", "a number", "text". Writes to the caller's buffer. */
void amc_config_item_values(size_t i, char *buf, size_t n);
/* Path of the file that was read (or would be), "" if unknown. */
const char *amc_config_file_path(const amc_config *c);

#endif
