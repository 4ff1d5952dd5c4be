/* script.c - the JavaScript engine client (see script.h). */
#include "flow/script.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "flow/script_http.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#ifndef AMC_PKGLIBEXECDIR
#define AMC_PKGLIBEXECDIR "/usr/local/libexec/amc"
#endif

struct amc_script {
	char *helper;
	char *platform;
	char *copied;   /* maestro.copiedText, NULL when none */
	char *output;   /* the output object as JSON text */
	char *log;      /* console.log of the last evaluation */
	char *hosts;    /* http policy (script_http.h); NULL: any host */
	long timeout_ms;
	int maestro_names;
	int spawns;
	pid_t pid;      /* the engine process, 0 when none */
	int wfd, rfd;
	amc_sb rbuf;    /* bytes read past the last line */
};

int amc_script_find_helper(char *buf, size_t n)
{
	const char *env = getenv("AMC_JS");
	if (env && *env) {
		snprintf(buf, n, "%s", env);
		return access(buf, X_OK) == 0 ? 0 : -1;
	}
	/* beside the executable: ./build/amc finds ./build/amc-js */
	char self[PATH_MAX];
	ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
	if (l > 0) {
		self[l] = '\0';
		snprintf(buf, n, "%s/amc-js", dirname(self));
		if (access(buf, X_OK) == 0)
			return 0;
	}
	snprintf(buf, n, "%s/amc-js", AMC_PKGLIBEXECDIR);
	return access(buf, X_OK) == 0 ? 0 : -1;
}

int amc_script_open(const char *helper, const char *platform, amc_script **out, amc_err *e)
{
	*out = NULL;
	char def[PATH_MAX];
	if (!helper || !*helper) {
		(void)amc_script_find_helper(def, sizeof def);
		helper = def;
	}
	if (access(helper, X_OK) != 0) {
		char *safe = amc_sanitize_dup(helper);
		amc_err_set(e, AMC_EENV, "the JavaScript helper %s cannot be run (%s); reinstall amc "
			    "or set AMC_JS to amc-js", safe, strerror(errno));
		free(safe);
		return -1;
	}
	amc_script *s = amc_xcalloc(1, sizeof *s);
	s->helper = amc_xstrdup(helper);
	s->platform = amc_xstrdup(platform ? platform : "android");
	s->output = amc_xstrdup("{}");
	s->log = amc_xstrdup("");
	s->timeout_ms = AMC_SCRIPT_TIMEOUT_MS;
	s->wfd = s->rfd = -1;
	amc_sb_init(&s->rbuf);
	*out = s;
	return 0;
}

/* End the engine process (it may be mid-script: killed, not asked). */
static void stop(amc_script *s)
{
	if (s->wfd >= 0)
		close(s->wfd);
	if (s->rfd >= 0)
		close(s->rfd);
	s->wfd = s->rfd = -1;
	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	s->pid = 0;
	amc_sb_reset(&s->rbuf);
}

void amc_script_close(amc_script *s)
{
	if (!s)
		return;
	stop(s);
	amc_sb_free(&s->rbuf);
	free(s->helper);
	free(s->platform);
	free(s->copied);
	free(s->output);
	free(s->log);
	free(s->hosts);
	free(s);
}

int amc_script_set_copied_text(amc_script *s, const char *text, amc_err *e)
{
	if (text && strlen(text) > AMC_SCRIPT_RESULT_MAX)
		return amc_err_set(e, AMC_EUSAGE, "the copied text is longer than %u bytes",
				   AMC_SCRIPT_RESULT_MAX);
	free(s->copied);
	s->copied = amc_xstrdup(text);
	return 0;
}

void amc_script_set_timeout(amc_script *s, long ms)
{
	s->timeout_ms = ms > 0 ? ms : AMC_SCRIPT_TIMEOUT_MS;
}

void amc_script_set_maestro_names(amc_script *s, int on)
{
	s->maestro_names = on != 0;
}

void amc_script_set_http_hosts(amc_script *s, const char *hosts)
{
	free(s->hosts);
	s->hosts = amc_xstrdup(hosts);
}

const char *amc_script_log(const amc_script *s)
{
	return s->log;
}

int amc_script_spawns(const amc_script *s)
{
	return s->spawns;
}

const char *amc_script_output(const amc_script *s)
{
	return s->output;
}

int amc_script_parse_response(const char *buf, size_t len, int *ok, char **text,
			      char **output, amc_err *e)
{
	*text = NULL;
	*output = NULL;
	*ok = 0;
	if (len > AMC_SCRIPT_RESPONSE_MAX)
		return amc_err_set(e, AMC_EENV, "the script engine's answer is too large");
	cJSON *j = cJSON_ParseWithLength(buf, len);
	const cJSON *okj = cJSON_GetObjectItemCaseSensitive(j, "ok");
	if (!cJSON_IsObject(j) || !cJSON_IsBool(okj)) {
		cJSON_Delete(j);
		return amc_err_set(e, AMC_EENV, "the script engine gave an answer amc cannot read");
	}
	*ok = cJSON_IsTrue(okj);
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, *ok ? "result" : "error");
	const cJSON *ty = cJSON_GetObjectItemCaseSensitive(j, "type");
	if (!cJSON_IsString(t) || strlen(t->valuestring) > AMC_SCRIPT_RESULT_MAX) {
		cJSON_Delete(j);
		return amc_err_set(e, AMC_EENV, "the script engine's %s is missing or too long",
				   *ok ? "result" : "error");
	}
	/* undefined is the text "undefined", as Maestro's Value.toString()
	 * gives it for ${...} (Env.evaluateScripts) */
	if (*ok && cJSON_IsString(ty) && strcmp(ty->valuestring, "undefined") == 0)
		*text = amc_xstrdup("undefined");
	else if (*ok)
		*text = amc_xstrdup(t->valuestring); /* data: the caller types or compares it */
	else
		*text = amc_sanitize_dup(t->valuestring);
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, "output");
	if (cJSON_IsObject(o)) {
		char *p = cJSON_PrintUnformatted(o);
		if (p && strlen(p) <= AMC_SCRIPT_OUTPUT_MAX)
			*output = p;
		else
			free(p);
	}
	cJSON_Delete(j);
	if (!*output && !*ok)
		return 0; /* the engine stopped before it could answer with output: kept as it was */
	if (!*output) {
		free(*text);
		*text = NULL;
		return amc_err_set(e, AMC_EENV, "the script engine's output object is missing or "
				   "larger than %u bytes", AMC_SCRIPT_OUTPUT_MAX);
	}
	return 0;
}

static int cloexec_pipe(int p[2])
{
	if (pipe(p) != 0)
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int spawn(amc_script *s, amc_err *e)
{
	int in[2], out[2];
	if (cloexec_pipe(in) != 0)
		return amc_err_set(e, AMC_EENV, "cannot start the script engine: %s", strerror(errno));
	if (cloexec_pipe(out) != 0) {
		close(in[0]);
		close(in[1]);
		return amc_err_set(e, AMC_EENV, "cannot start the script engine: %s", strerror(errno));
	}
	pid_t pid = fork();
	if (pid < 0) {
		close(in[0]); close(in[1]); close(out[0]); close(out[1]);
		return amc_err_set(e, AMC_EENV, "cannot start the script engine: %s", strerror(errno));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || null < 0 || dup2(null, 2) < 0)
			_exit(127);
		char *const argv[] = { s->helper, NULL };
		char *const envp[] = { NULL };
		execve(s->helper, argv, envp);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	s->pid = pid;
	s->wfd = in[1];
	s->rfd = out[0];
	s->spawns++;
	return 0;
}

/* The engine's resident memory in bytes (0 when unknown). */
static unsigned long long rss_of(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
	FILE *f = fopen(path, "r");
	unsigned long long size = 0, res = 0;
	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return res * (unsigned long long)sysconf(_SC_PAGESIZE);
}

enum { X_OK_, X_TIMEOUT, X_BIG, X_MEMORY, X_GONE };

/* Write `text` and a newline, or read one line into *line (malloc'd), within
 * *deadline; the engine's memory is watched meanwhile. X_OK_ or why not. */
static int pump(amc_script *s, const char *text, char **line, long long deadline)
{
	size_t off = 0, total = text ? strlen(text) + 1 : 0;
	for (;;) {
		if (text && off >= total)
			return X_OK_;
		if (!text) {
			char *nl = s->rbuf.len ? memchr(s->rbuf.buf, '\n', s->rbuf.len) : NULL;
			if (nl) {
				size_t n = (size_t)(nl - s->rbuf.buf);
				*line = amc_xstrndup(s->rbuf.buf, n);
				memmove(s->rbuf.buf, nl + 1, s->rbuf.len - n - 1);
				s->rbuf.len -= n + 1;
				s->rbuf.buf[s->rbuf.len] = '\0';
				return X_OK_;
			}
			if (s->rbuf.len > AMC_SCRIPT_RESPONSE_MAX)
				return X_BIG;
		}
		long long left = deadline - now_ms();
		if (left <= 0)
			return X_TIMEOUT;
		if (rss_of(s->pid) > AMC_SCRIPT_RSS_MAX)
			return X_MEMORY;
		struct pollfd p = { text ? s->wfd : s->rfd, text ? POLLOUT : POLLIN, 0 };
		int r = poll(&p, 1, left < 20 ? (int)left : 20); /* 20 ms: the memory watch's pace */
		if (r < 0 && errno != EINTR)
			return X_GONE;
		if (r <= 0)
			continue;
		if (text) {
			const char *src = off < total - 1 ? text + off : "\n";
			size_t n = off < total - 1 ? total - 1 - off : 1;
			ssize_t w = write(s->wfd, src, n);
			if (w > 0)
				off += (size_t)w;
			else if (w < 0 && errno != EAGAIN && errno != EINTR)
				return X_GONE;
		} else {
			char buf[16384];
			ssize_t n = read(s->rfd, buf, sizeof buf);
			if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
				return X_GONE;
			if (n > 0)
				amc_sb_append(&s->rbuf, buf, (size_t)n);
		}
	}
}

/* Why the engine went away without answering, as an error. */
static int gone(amc_script *s, int why, amc_err *e)
{
	pid_t pid = s->pid;
	int st = 0, have = 0;
	if (why == X_GONE && pid > 0) {
		/* it is ending: its status says why (give it a moment, then kill) */
		for (int i = 0; i < 50 && !have; i++) {
			pid_t r = waitpid(pid, &st, WNOHANG);
			if (r == pid)
				have = 1;
			else
				nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
		}
		if (have)
			s->pid = 0;
	}
	stop(s);
	switch (why) {
	case X_TIMEOUT:
		return amc_err_set(e, AMC_EFAIL, "the script ran longer than %ld ms and was stopped",
				   s->timeout_ms);
	case X_BIG:
		return amc_err_set(e, AMC_EFAIL, "the script's answer is larger than %u bytes",
				   AMC_SCRIPT_RESPONSE_MAX);
	case X_MEMORY:
		return amc_err_set(e, AMC_EFAIL, "the script used more than %u MiB of memory and was stopped",
				   AMC_SCRIPT_RSS_MAX >> 20);
	default:
		break;
	}
	if (have && WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);
		if (sig == SIGXCPU)
			return amc_err_set(e, AMC_EFAIL, "the flow's scripts used too much CPU time and were stopped");
		if (sig == SIGSYS)
			return amc_err_set(e, AMC_EFAIL, "the script tried something scripts may not do");
		if (sig == SIGABRT || sig == SIGSEGV || sig == SIGBUS)
			return amc_err_set(e, AMC_EFAIL, "the script engine stopped (signal %d): out of memory "
					   "or an internal limit", sig);
		return amc_err_set(e, AMC_EFAIL, "the script engine stopped (signal %d)", sig);
	}
	if (have && WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return amc_err_set(e, AMC_EENV, "the JavaScript helper could not be started");
	char *safe = amc_sanitize_dup(s->helper);
	amc_err_set(e, AMC_EENV, "the JavaScript helper %s stopped without answering (is it amc-js?)", safe);
	free(safe);
	return -1;
}

static void set_log(amc_script *s, const cJSON *j)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(j, "log");
	free(s->log);
	if (cJSON_IsString(l)) {
		size_t n = strlen(l->valuestring);
		amc_sb sb;
		amc_sb_init(&sb);
		amc_sanitize_text(l->valuestring, n > AMC_SCRIPT_LOG_MAX ? AMC_SCRIPT_LOG_MAX : n, &sb);
		s->log = amc_sb_detach(&sb);
	} else {
		s->log = amc_xstrdup("");
	}
}

/* One exchange: the request line out, http requests answered, the answer in.
 * 0 and *line (malloc'd), or -1 (the process is gone). */
static int exchange(amc_script *s, const char *req, char **line, amc_err *e)
{
	*line = NULL;
	if (s->pid == 0 && spawn(s, e) != 0)
		return -1;
	/* A child that exits early must not kill amc with SIGPIPE: blocked in this
	 * thread for the exchange, a pending one consumed, the mask restored. */
	sigset_t pipe_set, old_mask;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
	long long deadline = now_ms() + s->timeout_ms;
	int why = pump(s, req, NULL, deadline), rc = -1;
	while (why == X_OK_) {
		char *l = NULL;
		why = pump(s, NULL, &l, deadline);
		if (why != X_OK_)
			break;
		cJSON *j = cJSON_Parse(l);
		const cJSON *op = cJSON_GetObjectItemCaseSensitive(j, "op");
		const cJSON *hr = cJSON_GetObjectItemCaseSensitive(j, "request");
		if (cJSON_IsString(op) && strcmp(op->valuestring, "http") == 0) {
			/* made here, for the script; its time is not the script's */
			long long t0 = now_ms();
			char *hj = hr ? cJSON_PrintUnformatted(hr) : NULL;
			char *ans = amc_script_http_do(s->hosts, hj ? hj : "", hj ? strlen(hj) : 0, 0);
			free(hj);
			deadline += now_ms() - t0;
			why = pump(s, ans, NULL, deadline);
			free(ans);
			cJSON_Delete(j);
			free(l);
			continue;
		}
		set_log(s, j);
		cJSON_Delete(j);
		*line = l;
		rc = 0;
		break;
	}
	sigset_t pending;
	if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE)) {
		struct timespec zero = { 0, 0 };
		sigtimedwait(&pipe_set, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	if (rc != 0)
		return gone(s, why, e);
	return 0;
}

static int request(amc_script *s, const char *op, const char *source, const char *filename,
		   const amc_script_var *vars, size_t n, char **result, amc_err *e)
{
	if (result)
		*result = NULL;
	if (!source)
		source = "";
	if (strlen(source) > AMC_SCRIPT_SOURCE_MAX)
		return amc_err_set(e, AMC_EUSAGE, "the script is longer than %u bytes",
				   AMC_SCRIPT_SOURCE_MAX);
	int check = strcmp(op, "check") == 0;
	cJSON *req = cJSON_CreateObject();
	cJSON_AddStringToObject(req, "op", op);
	cJSON_AddStringToObject(req, "source", source);
	cJSON_AddStringToObject(req, "filename", filename ? filename : "script");
	cJSON *v = cJSON_AddObjectToObject(req, "vars");
	for (size_t i = 0; i < n; i++)
		if (vars[i].name && vars[i].value)
			cJSON_AddStringToObject(v, vars[i].name, vars[i].value);
	cJSON_AddStringToObject(req, "output", s->output);
	if (s->copied)
		cJSON_AddStringToObject(req, "copiedText", s->copied);
	else
		cJSON_AddNullToObject(req, "copiedText");
	cJSON_AddStringToObject(req, "platform", s->platform);
	cJSON_AddBoolToObject(req, "maestroNames", s->maestro_names);
	char *text = cJSON_PrintUnformatted(req);
	cJSON_Delete(req);
	if (!text)
		return amc_err_set(e, AMC_EENV, "out of memory building the script request");
	char *line = NULL;
	int rc = exchange(s, text, &line, e);
	free(text);
	if (rc != 0)
		return -1;
	int ok;
	char *val, *output;
	rc = amc_script_parse_response(line, strlen(line), &ok, &val, &output, e);
	free(line);
	if (rc != 0) {
		stop(s); /* it no longer speaks the protocol */
		return -1;
	}
	if (output && !check) {
		free(s->output);
		s->output = output;
	} else {
		free(output);
	}
	if (!ok) {
		amc_err_set(e, AMC_EFAIL, "%s", val);
		free(val);
		return -1;
	}
	if (result)
		*result = val;
	else
		free(val);
	return 0;
}

int amc_script_eval(amc_script *s, const char *source, const char *filename,
		    const amc_script_var *vars, size_t n, char **result, amc_err *e)
{
	return request(s, "eval", source, filename, vars, n, result, e);
}

int amc_script_check(amc_script *s, const char *source, const char *filename, amc_err *e)
{
	return request(s, "check", source, filename, NULL, 0, NULL, e);
}
