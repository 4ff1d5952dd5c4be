/* log.h - a log file under $AMC_HOME (amc.log). Nothing is written to the
 * terminal from here unless amc_log_set_stderr() asked for it (CLI -v). */
#ifndef AMC_LOG_H
#define AMC_LOG_H

#include "util/err.h"

enum { AMC_LOG_ERROR, AMC_LOG_WARN, AMC_LOG_INFO, AMC_LOG_DEBUG };

/* Open (append) the log file; safe to call again (the old one is closed). */
int amc_log_open(const char *path, amc_err *e);
void amc_log_close(void);
void amc_log_set_level(int level);
/* Echo messages at or above `level` to stderr (-1: never). */
void amc_log_set_stderr(int level);
void amc_log(int level, const char *fmt, ...) AMC_PRINTF(2, 3);

#define amc_log_error(...) amc_log(AMC_LOG_ERROR, __VA_ARGS__)
#define amc_log_warn(...)  amc_log(AMC_LOG_WARN, __VA_ARGS__)
#define amc_log_info(...)  amc_log(AMC_LOG_INFO, __VA_ARGS__)
#define amc_log_debug(...) amc_log(AMC_LOG_DEBUG, __VA_ARGS__)

#endif
