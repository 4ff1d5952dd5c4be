/* tap.h - a tiny Test Anything Protocol emitter for amc's C tests.
 * Each check prints "ok N - name" or "not ok N - name"; done_testing() prints the plan
 * and returns the exit status (0 only when every check passed).
 * ok(cond, ...) passes when cond is nonzero; the shell helper (tests/integration/
 * tap.sh) reads `ok COND NAME` the same way and takes exit statuses in ok_status. */
#ifndef AMC_TAP_H
#define AMC_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) do { long long g_ = (long long)(got), w_ = (long long)(want); \
	if (!ok(g_ == w_, __VA_ARGS__)) printf("#   got %lld, want %lld\n", g_, w_); } while (0)
#define is_str(got, want, ...) do { const char *g_ = (got), *w_ = (want); \
	if (!ok(g_ && w_ && !strcmp(g_, w_), __VA_ARGS__)) printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); } while (0)
#define like(got, needle, ...) do { const char *g_ = (got), *n_ = (needle); \
	if (!ok(g_ && strstr(g_, n_), __VA_ARGS__)) printf("#   '%s' does not contain '%s'\n", g_ ? g_ : "(null)", n_); } while (0)

static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}
#define diag tap_diag

static inline void tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(0);
}

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
