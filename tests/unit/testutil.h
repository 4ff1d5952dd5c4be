/* testutil.h - shared helpers for amc's C tests: a private AMC_HOME per test and
 * paths to the source tree. */
#ifndef AMC_TESTUTIL_H
#define AMC_TESTUTIL_H

#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/err.h"
#include "util/fsutil.h"

/* Make a fresh AMC_HOME under /tmp, export it, and return it (static buffer).
 * Removed at exit unless AMC_TEST_KEEP is set. */
static char test_home_buf[PATH_MAX];
static void test_home_cleanup(void)
{
	if (test_home_buf[0] && !getenv("AMC_TEST_KEEP"))
		amc_rm_rf(test_home_buf);
}
static inline const char *test_home(const char *name)
{
	char tmpl[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	snprintf(tmpl, sizeof tmpl, "%s/amc-test-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
	if (!mkdtemp(tmpl)) {
		perror("mkdtemp");
		exit(99);
	}
	snprintf(test_home_buf, sizeof test_home_buf, "%s", tmpl);
	setenv("AMC_HOME", test_home_buf, 1);
	/* Keep the user's config out of tests. */
	char cfg[PATH_MAX + 16];
	snprintf(cfg, sizeof cfg, "%s/config", test_home_buf);
	setenv("XDG_CONFIG_HOME", cfg, 1);
	unsetenv("AMC_SIM_FAULTS");
	atexit(test_home_cleanup);
	return test_home_buf;
}

/* Path of a file in the source tree (AMC_TEST_SRCDIR, set by the test harness). */
static inline const char *test_src(const char *rel)
{
	static char buf[4][PATH_MAX];
	static int k;
	const char *src = getenv("AMC_TEST_SRCDIR");
	char *b = buf[k++ & 3];
	snprintf(b, PATH_MAX, "%s/%s", src && *src ? src : ".", rel);
	return b;
}

/* snprintf into a path buffer; a path that does not fit ends the test
 * ("Bail out!") rather than testing a cut path. */
static inline void pathf(char *out, size_t n, const char *fmt, ...) AMC_PRINTF(3, 4);
static inline void pathf(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(out, n, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= n) {
		printf("Bail out! path too long\n");
		exit(1);
	}
}

/* How many file descriptors are open: compare before and after to show
 * that nothing leaked one. */
static inline int test_open_fds(void)
{
	long max = sysconf(_SC_OPEN_MAX);
	int n = 0;
	if (max < 0 || max > 4096)
		max = 4096;
	for (int fd = 0; fd < max; fd++)
		if (fcntl(fd, F_GETFD) != -1)
			n++;
	return n;
}

#endif
