/* err.h - errors that carry an exit class and a message a user can act on.
 *
 * Every fallible function in amc takes an `amc_err *` (may be NULL) and returns
 * -1 on failure after filling it. The code is the exit status the CLI uses. */
#ifndef AMC_ERR_H
#define AMC_ERR_H

#include <stddef.h>

enum {
	AMC_OK = 0,
	AMC_EFAIL = 1,     /* the task failed */
	AMC_EUSAGE = 2,    /* bad usage or bad input */
	AMC_EENV = 3,      /* environment: missing dependency, device unavailable or busy */
	AMC_ECANCEL = 130  /* cancelled */
};

#define AMC_ERR_MSG_MAX 1024

typedef struct amc_err {
	int code;
	char msg[AMC_ERR_MSG_MAX];
} amc_err;

#if defined(__GNUC__)
#define AMC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define AMC_PRINTF(a, b)
#endif

/* Fill `e` (if not NULL) and return -1, so callers can `return amc_err_set(...)`. */
int amc_err_set(amc_err *e, int code, const char *fmt, ...) AMC_PRINTF(3, 4);
/* Prepend "context: " to an existing message, keeping the code. Returns -1. */
int amc_err_prefix(amc_err *e, const char *fmt, ...) AMC_PRINTF(2, 3);
void amc_err_clear(amc_err *e);

/* clang --analyze reads one file at a time and cannot see that these always
 * return -1; without this it walks "failed but returned 0" paths that do not
 * exist. Only the analyzer sees these macros (err.c names the functions in parentheses). */
#if defined(__clang_analyzer__)
#define amc_err_set(...) __extension__({ (void)amc_err_set(__VA_ARGS__); -1; })
#define amc_err_prefix(...) __extension__({ (void)amc_err_prefix(__VA_ARGS__); -1; })
#endif

#endif
