/* proc.h - run a program as a bounded subprocess (adb and other helpers).
 *
 * Never through a shell: `argv` is passed to execve as is (argv[0] is looked up
 * in PATH when it has no '/'). The child runs in its own process group with
 * stdin from /dev/null, stdout and stderr captured separately through pipes,
 * OMP_THREAD_LIMIT and AMC_OMP_SET removed from its environment, and a
 * wall-clock limit: on timeout the whole group gets SIGKILL. Output beyond the
 * caps is discarded (and flagged), never grown without bound. Safe to call from
 * several threads at once. */
#ifndef AMC_PROC_H
#define AMC_PROC_H

#include <stdatomic.h>
#include <stddef.h>
#include "util/err.h"

typedef struct amc_proc_result {
	int exit_code;          /* 0-255 when the program exited; 128+N when killed by signal N; -1 on timeout */
	int timed_out;          /* 1 when the wall-clock limit killed it */
	unsigned char *out;     /* stdout, NUL-terminated (the NUL is not counted); owned, free with amc_proc_result_free */
	size_t out_len;
	int out_truncated;
	char *err;              /* stderr, NUL-terminated; owned */
	size_t err_len;
	int err_truncated;
} amc_proc_result;

/* Run argv (NULL-terminated) for at most timeout_ms, keeping at most max_out
 * bytes of stdout and max_err bytes of stderr. 0 when the program ran (whatever
 * its exit code, or a timeout: see r); -1 with AMC_EENV when it could not be
 * started (not found, not executable), the message naming the program. */
int amc_proc_run(const char *const argv[], long timeout_ms, size_t max_out, size_t max_err,
		 amc_proc_result *r, amc_err *e);
void amc_proc_result_free(amc_proc_result *r);

/* What amc_proc_run_opts adds to amc_proc_run (a coding agent's CLI). */
typedef struct amc_proc_opts {
	long timeout_ms;
	size_t max_out, max_err;
	/* The child's whole environment (NULL-terminated "NAME=VALUE"), used as
	 * is (nothing stripped); NULL: amc's own, as amc_proc_run passes it. */
	char *const *env;
	const char *cwd;        /* the child's working folder; NULL: amc's */
	/* Polled every 20 ms: once set, the group gets SIGTERM, then SIGKILL
	 * after term_ms (<= 0: 2000). r->exit_code is then 128+signal. */
	const atomic_int *cancel;
	long term_ms;
	/* 1: when the program has exited, whatever is left of its process group
	 * (helpers it started and did not end) gets SIGKILL too. */
	int kill_group;
	/* Called on the caller's thread with every chunk of stdout as it is
	 * read (also the bytes past max_out): a stream read while the program
	 * runs (an agent CLI's events). NULL: none. */
	void (*on_out)(const char *buf, size_t n, void *ud);
	void *on_out_ud;
} amc_proc_opts;

/* amc_proc_run with the options above. */
int amc_proc_run_opts(const char *const argv[], const amc_proc_opts *o, amc_proc_result *r, amc_err *e);

/* Start argv as a grandchild in its own session, stdio on /dev/null, and
 * return without waiting for it (the middle child is reaped at once, so no
 * zombie is left): the TUI's folder runs and its image viewer. env_name, when
 * not NULL, is set to env_value in the child. -1 with AMC_EENV when fork
 * fails; an exec failure is only the grandchild's exit status 127. */
int amc_proc_detach(const char *const argv[], const char *env_name, const char *env_value, amc_err *e);

/* Find an executable: a name with '/' is checked as is, otherwise each PATH
 * entry is tried. 0 and the path in out; -1 when not found. */
int amc_proc_which(const char *name, char *out, size_t n);

#endif
