/* script.c - the JavaScript engine client (see script.h). */
#include "flow/script.h"

#include <errno.h>
#include <fcntl.h>
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
	long timeout_ms;
};

int amc_script_open(const char *helper, const char *platform, amc_script **out, amc_err *e)
{
	*out = NULL;
	char def[PATH_MAX];
	if (!helper || !*helper)
		helper = getenv("AMC_JS");
	if (!helper || !*helper) {
		/* beside the running executable first (the build folder, where the
		 * README runs ./build/amc), then where `make install` puts it */
		char self[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
		char *slash = n > 0 ? (self[n] = '\0', strrchr(self, '/')) : NULL;
		if (slash && (size_t)(slash - self) + sizeof "/amc-js" <= sizeof def) {
			snprintf(def, sizeof def, "%.*s/amc-js", (int)(slash - self), self);
			if (access(def, X_OK) == 0)
				helper = def;
		}
	}
	if (!helper || !*helper) {
		snprintf(def, sizeof def, "%s/amc-js", AMC_PKGLIBEXECDIR);
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
	s->timeout_ms = AMC_SCRIPT_TIMEOUT_MS;
	*out = s;
	return 0;
}

void amc_script_close(amc_script *s)
{
	if (!s)
		return;
	free(s->helper);
	free(s->platform);
	free(s->copied);
	free(s->output);
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

/* Run the helper with `req` on its stdin; its stdout (bounded) in *resp.
 * 0, or -1 (timeout: AMC_EFAIL; cannot start: AMC_EENV). */
static int exchange(amc_script *s, const char *req, amc_sb *resp, amc_err *e)
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
	/* A child that exits early must not kill amc with SIGPIPE: blocked in this
	 * thread for the exchange, a pending one consumed, the mask restored. */
	sigset_t pipe_set, old_mask;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
	size_t off = 0, total = strlen(req);
	int wfd = in[1], rfd = out[0], timed_out = 0, too_big = 0;
	fcntl(wfd, F_SETFL, O_NONBLOCK);
	long long deadline = now_ms() + s->timeout_ms;
	if (total == 0) {
		close(wfd);
		wfd = -1;
	}
	while (rfd >= 0) {
		struct pollfd p[2];
		int np = 0;
		p[np++] = (struct pollfd){ rfd, POLLIN, 0 };
		if (wfd >= 0)
			p[np++] = (struct pollfd){ wfd, POLLOUT, 0 };
		long long left = deadline - now_ms();
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		int r = poll(p, (nfds_t)np, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (wfd >= 0 && p[1].revents) {
			ssize_t w = write(wfd, req + off, total - off);
			if (w > 0)
				off += (size_t)w;
			if (w < 0 && errno != EAGAIN && errno != EINTR)
				off = total; /* the child went away: its exit status says why */
			if (off >= total) {
				close(wfd);
				wfd = -1;
			}
		}
		if (p[0].revents) {
			char buf[8192];
			ssize_t n = read(rfd, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(rfd);
				rfd = -1;
				break;
			}
			if (resp->len + (size_t)n > AMC_SCRIPT_RESPONSE_MAX) {
				too_big = 1;
				break;
			}
			amc_sb_append(resp, buf, (size_t)n);
		}
	}
	if (wfd >= 0)
		close(wfd);
	if (rfd >= 0)
		close(rfd);
	sigset_t pending;
	if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE)) {
		struct timespec zero = { 0, 0 };
		sigtimedwait(&pipe_set, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	if (timed_out || too_big)
		kill(pid, SIGKILL);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (timed_out)
		return amc_err_set(e, AMC_EFAIL, "the script ran longer than %ld ms and was stopped",
				   s->timeout_ms);
	if (too_big)
		return amc_err_set(e, AMC_EFAIL, "the script's answer is larger than %u bytes",
				   AMC_SCRIPT_RESPONSE_MAX);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && resp->len == 0)
		return amc_err_set(e, AMC_EENV, "the JavaScript helper could not be started");
	if (WIFSIGNALED(st) && resp->len == 0) {
		int sig = WTERMSIG(st);
		if (sig == SIGXCPU || sig == SIGKILL)
			return amc_err_set(e, AMC_EFAIL, "the script used too much CPU time and was stopped");
		if (sig == SIGSYS || sig == SIGKILL)
			return amc_err_set(e, AMC_EFAIL, "the script tried something scripts may not do");
		return amc_err_set(e, AMC_EFAIL, "the script engine stopped (signal %d)", sig);
	}
	return 0;
}

/* Does a source that failed to parse use ES2015+ syntax? Names what it saw. */
static const char *es2015_feature(const char *src)
{
	static const struct { const char *needle; const char *what; } F[] = {
		{ "=>", "arrow functions" }, { "`", "template literals" },
		{ "let ", "let declarations" }, { "class ", "classes" },
		{ "...", "spread/rest syntax" }, { "async ", "async functions" },
		{ "await ", "await" }, { "of ", "for...of loops" },
	};
	for (size_t i = 0; i < sizeof F / sizeof F[0]; i++)
		if (strstr(src, F[i].needle))
			return F[i].what;
	return NULL;
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
	char *text = cJSON_PrintUnformatted(req);
	cJSON_Delete(req);
	if (!text)
		return amc_err_set(e, AMC_EENV, "out of memory building the script request");
	amc_sb resp;
	amc_sb_init(&resp);
	int rc = exchange(s, text, &resp, e);
	free(text);
	if (rc != 0) {
		amc_sb_free(&resp);
		return -1;
	}
	int ok;
	char *val, *output;
	rc = amc_script_parse_response(resp.buf ? resp.buf : "", resp.len, &ok, &val, &output, e);
	amc_sb_free(&resp);
	if (rc != 0)
		return -1;
	if (output) {
		free(s->output);
		s->output = output;
	}
	if (!ok) {
		const char *feat = strstr(val, "SyntaxError") ? es2015_feature(source) : NULL;
		if (feat)
			amc_err_set(e, AMC_EFAIL, "%s uses ES2015+ syntax (%s), which amc's ES5 engine "
				    "(Duktape) cannot run: %s", filename ? filename : "the script",
				    feat, val);
		else
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
