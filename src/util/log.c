#include "util/log.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = -1;
static int log_level = AMC_LOG_INFO;
static int stderr_level = -1;

int amc_log_open(const char *path, amc_err *e)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return amc_err_set(e, AMC_EENV, "cannot open log file '%s': %s", path, strerror(errno));
	pthread_mutex_lock(&mu);
	if (log_fd >= 0)
		close(log_fd);
	log_fd = fd;
	pthread_mutex_unlock(&mu);
	return 0;
}

void amc_log_close(void)
{
	pthread_mutex_lock(&mu);
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
	pthread_mutex_unlock(&mu);
}

void amc_log_set_level(int level) { log_level = level; }
void amc_log_set_stderr(int level) { stderr_level = level; }

static const char *names[] = { "error", "warn", "info", "debug" };

void amc_log(int level, const char *fmt, ...)
{
	if (level < AMC_LOG_ERROR)
		level = AMC_LOG_ERROR;
	if (level > AMC_LOG_DEBUG)
		level = AMC_LOG_DEBUG;
	if (level > log_level && level > stderr_level)
		return;
	amc_sb raw, line;
	amc_sb_init(&raw);
	amc_sb_init(&line);
	va_list ap;
	va_start(ap, fmt);
	amc_sb_vprintf(&raw, fmt, ap);
	va_end(ap);
	/* Messages may quote device or file text: keep the log terminal-safe too. */
	amc_sanitize_line(raw.buf ? raw.buf : "", raw.len, &line);
	char ts[32];
	amc_format_time(amc_now_ms(), ts, sizeof ts);
	amc_sb full;
	amc_sb_init(&full);
	amc_sb_printf(&full, "%s [%d] %s: %s\n", ts, (int)getpid(), names[level], amc_sb_str(&line));
	pthread_mutex_lock(&mu);
	if (log_fd >= 0 && level <= log_level)
		(void)!write(log_fd, full.buf, full.len);
	pthread_mutex_unlock(&mu);
	if (stderr_level >= 0 && level <= stderr_level)
		fprintf(stderr, "amc: %s: %s\n", names[level], amc_sb_str(&line));
	amc_sb_free(&raw);
	amc_sb_free(&line);
	amc_sb_free(&full);
}
