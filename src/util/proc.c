/* posix_spawn_file_actions_addchdir_np (glibc 2.29+, musl, macOS): a
 * working folder for the spawned child (amc_proc_opts.cwd). */
#define _GNU_SOURCE
#include "util/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/sanitize.h"

extern char **environ;

/* The OCR engine's thread limit reaches children only when the user set it:
 * when amc set it for itself (marked by AMC_OMP_SET, see main.c) both go.
 * main.c normally removes them after its re-exec already; this covers any
 * other program built on libamc. */
static const char *const STRIP_ENV[] = { "OMP_THREAD_LIMIT=", "AMC_OMP_SET=" };

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int amc_proc_which(const char *name, char *out, size_t n)
{
	if (!name || !*name)
		return -1;
	if (strchr(name, '/')) {
		if (access(name, X_OK) != 0)
			return -1;
		snprintf(out, n, "%s", name);
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		char cand[PATH_MAX];
		int w = snprintf(cand, sizeof cand, "%.*s/%s", (int)(len ? len : 1), len ? path : ".", name);
		struct stat st;
		if (w > 0 && (size_t)w < sizeof cand && stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0) {
			snprintf(out, n, "%s", cand);
			return 0;
		}
		path += len;
		if (*path == ':')
			path++;
	}
	return -1;
}

static char **child_env(void)
{
	size_t n = 0;
	for (char **p = environ; p && *p; p++)
		n++;
	char **env = calloc(n + 1, sizeof *env);
	if (!env)
		return NULL;
	size_t k = 0;
	int amc_set = getenv("AMC_OMP_SET") != NULL;
	for (char **p = environ; p && *p; p++) {
		int skip = 0;
		for (size_t i = amc_set ? 0 : 1; i < sizeof STRIP_ENV / sizeof STRIP_ENV[0]; i++)
			if (!strncmp(*p, STRIP_ENV[i], strlen(STRIP_ENV[i])))
				skip = 1;
		if (!skip)
			env[k++] = *p;
	}
	env[k] = NULL;
	return env;
}

typedef struct sink {
	unsigned char *buf;
	size_t len, cap, max;
	int truncated;
	int fd;
	/* every byte read, as it arrives (stdout only; amc_proc_opts.on_out) */
	void (*on_data)(const char *buf, size_t n, void *ud);
	void *ud;
} sink;

/* Read what is there; 1 on EOF or error, 0 otherwise. */
static int drain(sink *s)
{
	for (;;) {
		unsigned char tmp[65536];
		ssize_t got = read(s->fd, tmp, sizeof tmp);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : 1;
		if (got == 0)
			return 1;
		if (s->on_data)
			s->on_data((const char *)tmp, (size_t)got, s->ud);
		size_t keep = (size_t)got;
		if (s->len + keep > s->max) {
			keep = s->max - s->len;
			s->truncated = 1;
		}
		if (keep) {
			if (s->len + keep + 1 > s->cap) {
				size_t cap = s->cap ? s->cap : 8192;
				while (cap < s->len + keep + 1)
					cap *= 2;
				unsigned char *nb = realloc(s->buf, cap);
				if (!nb) {
					s->truncated = 1;
					continue;
				}
				s->buf = nb;
				s->cap = cap;
			}
			memcpy(s->buf + s->len, tmp, keep);
			s->len += keep;
		}
	}
}

/* pipe(2) with both ends close-on-exec (POSIX; pipe2 is not everywhere). */
static int cloexec_pipe(int p[2])
{
	if (pipe(p) != 0)
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Start prog with stdin from /dev/null, stdout and stderr on the pipes'
 * write ends, in its own process group, every signal at its default and
 * none blocked, in `cwd` when set. posix_spawn, not fork: glibc starts the
 * child with a vfork-like clone that borrows amc's memory until the exec, so
 * an adb call no longer copies amc's page tables and then throws them away
 * (fork and the child's teardown of the copy were ~8 % of amc's CPU in
 * bench_device, more the bigger amc is: OCR data, kept frames). An exec
 * failure comes back as posix_spawn's error. 0 and *pid, or an errno. */
static int spawn(const char *prog, const char *const argv[], char *const *env, const char *cwd, int out_fd,
		 int err_fd, pid_t *pid)
{
	posix_spawnattr_t at;
	posix_spawn_file_actions_t fa;
	int rc = posix_spawnattr_init(&at);
	if (rc)
		return rc;
	if ((rc = posix_spawn_file_actions_init(&fa))) {
		posix_spawnattr_destroy(&at);
		return rc;
	}
	sigset_t all, none;
	sigfillset(&all);
	sigdelset(&all, SIGKILL);
	sigdelset(&all, SIGSTOP);
	sigemptyset(&none);
	if (!(rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)) &&
	    !(rc = posix_spawnattr_setpgroup(&at, 0)) && !(rc = posix_spawnattr_setsigdefault(&at, &all)) &&
	    !(rc = posix_spawnattr_setsigmask(&at, &none)) &&
	    !(rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)) &&
	    !(rc = posix_spawn_file_actions_adddup2(&fa, out_fd, 1)) &&
	    !(rc = posix_spawn_file_actions_adddup2(&fa, err_fd, 2)) &&
	    !(rc = cwd ? posix_spawn_file_actions_addchdir_np(&fa, cwd) : 0))
		rc = posix_spawn(pid, prog, &fa, &at, (char *const *)argv, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return rc;
}

/* Read the child's output until it exits or timeout_ms passes. 1: it exited
 * (*status set); 0: it is still running. A set cancel flag sends the group
 * SIGTERM once, then SIGKILL term_ms later. */
static int collect(pid_t pid, sink *so, sink *se, const amc_proc_opts *o, int *status)
{
	long long deadline = mono_ms() + (o->timeout_ms > 0 ? o->timeout_ms : 1);
	long long kill_at = 0;
	for (;;) {
		if (o->cancel && atomic_load(o->cancel) && !kill_at) {
			kill(-pid, SIGTERM);
			kill_at = mono_ms() + (o->term_ms > 0 ? o->term_ms : 2000);
		}
		if (kill_at && mono_ms() >= kill_at) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		pid_t w = waitpid(pid, status, WNOHANG);
		if (w == pid) {
			/* What the program wrote is in the pipes now; a grandchild that
			 * keeps them open (a daemon) must not hold us. */
			if (so->fd >= 0)
				drain(so);
			if (se->fd >= 0)
				drain(se);
			return 1;
		}
		long long left = deadline - mono_ms();
		if (left <= 0)
			return 0;
		struct pollfd pfd[2];
		int np = 0;
		if (so->fd >= 0)
			pfd[np++] = (struct pollfd){ so->fd, POLLIN, 0 };
		if (se->fd >= 0)
			pfd[np++] = (struct pollfd){ se->fd, POLLIN, 0 };
		int wait_ms = left < 20 ? (int)left : 20;
		if (np == 0) {
			struct timespec ts = { 0, (long)wait_ms * 1000000L };
			nanosleep(&ts, NULL);
			continue;
		}
		if (poll(pfd, (nfds_t)np, wait_ms) < 0 && errno != EINTR)
			return 0;
		if (so->fd >= 0 && drain(so))
			close_fd(&so->fd);
		if (se->fd >= 0 && drain(se))
			close_fd(&se->fd);
	}
}

int amc_proc_run(const char *const argv[], long timeout_ms, size_t max_out, size_t max_err,
		 amc_proc_result *r, amc_err *e)
{
	amc_proc_opts o = { .timeout_ms = timeout_ms, .max_out = max_out, .max_err = max_err };
	return amc_proc_run_opts(argv, &o, r, e);
}

int amc_proc_run_opts(const char *const argv[], const amc_proc_opts *o, amc_proc_result *r, amc_err *e)
{
	memset(r, 0, sizeof *r);
	r->exit_code = -1;
	if (!argv || !argv[0])
		return amc_err_set(e, AMC_EUSAGE, "no program to run");
	char prog[PATH_MAX];
	if (amc_proc_which(argv[0], prog, sizeof prog) != 0) {
		char *s = amc_sanitize_dup(argv[0]);
		amc_err_set(e, AMC_EENV, "program '%s' not found or not executable%s", s,
			    strchr(argv[0], '/') ? "" : " (searched PATH)");
		free(s);
		return -1;
	}
	char **env = o->env ? NULL : child_env();
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 };
	if ((!o->env && !env) || cloexec_pipe(po) != 0 || cloexec_pipe(pe) != 0) {
		int err = errno;
		free(env);
		close_fd(&po[0]), close_fd(&po[1]), close_fd(&pe[0]), close_fd(&pe[1]);
		return amc_err_set(e, AMC_EENV, "cannot create pipes to run %s: %s", argv[0], strerror(err));
	}
	pid_t pid;
	int err = spawn(prog, argv, o->env ? o->env : env, o->cwd, po[1], pe[1], &pid);
	free(env);
	close_fd(&po[1]);
	close_fd(&pe[1]);
	if (err) {
		close_fd(&po[0]);
		close_fd(&pe[0]);
		char *s = amc_sanitize_dup(argv[0]);
		amc_err_set(e, AMC_EENV, "cannot run %s: %s", s, strerror(err));
		free(s);
		return -1;
	}
	fcntl(po[0], F_SETFL, fcntl(po[0], F_GETFL) | O_NONBLOCK);
	fcntl(pe[0], F_SETFL, fcntl(pe[0], F_GETFL) | O_NONBLOCK);
	sink so = { NULL, 0, 0, o->max_out, 0, po[0], o->on_out, o->on_out_ud },
	     se = { NULL, 0, 0, o->max_err, 0, pe[0], NULL, NULL };
	int status = 0;
	int exited = collect(pid, &so, &se, o, &status);
	if (!exited) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		r->timed_out = 1;
		r->exit_code = -1;
	} else if (WIFEXITED(status)) {
		r->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		r->exit_code = 128 + WTERMSIG(status);
	}
	if (o->kill_group)
		kill(-pid, SIGKILL); /* helpers the program left behind (ESRCH when none) */
	close_fd(&so.fd);
	close_fd(&se.fd);
	if (!so.buf)
		so.buf = calloc(1, 1);
	else
		so.buf[so.len] = '\0';
	if (!se.buf)
		se.buf = calloc(1, 1);
	else
		se.buf[se.len] = '\0';
	r->out = so.buf;
	r->out_len = so.len;
	r->out_truncated = so.truncated;
	r->err = (char *)se.buf;
	r->err_len = se.len;
	r->err_truncated = se.truncated;
	return 0;
}

void amc_proc_result_free(amc_proc_result *r)
{
	if (!r)
		return;
	free(r->out);
	free(r->err);
	r->out = NULL;
	r->err = NULL;
	r->out_len = r->err_len = 0;
}

int amc_proc_detach(const char *const argv[], const char *env_name, const char *env_value, amc_err *e)
{
	pid_t pid = fork();
	if (pid < 0)
		return amc_err_set(e, AMC_EENV, "cannot start %s: %s", argv[0], strerror(errno));
	if (pid == 0) {
		if (fork() != 0)
			_exit(0);
		setsid();
		int fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
		if (env_name)
			setenv(env_name, env_value ? env_value : "", 1);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return 0;
}
