/* amc_js.c - amc-js, the sandboxed JavaScript evaluator behind flows'
 * evalScript, runScript, assertTrue and ${expression}.
 *
 * One request per process. It reads one bounded JSON request on stdin
 * (script.h documents the protocol), sets resource limits, builds a Duktape
 * heap in a fixed arena, and only then enters seccomp strict mode: from there
 * on the process can read, write the file descriptors it already has, and
 * exit, so a script has no file, network or process access. The wall-clock
 * limit is the parent's (it kills this process); RLIMIT_CPU is a second net.
 * The response is one JSON object on stdout. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/seccomp.h>

#include <cjson/cJSON.h>
#include <duktape.h>

#define REQ_MAX (1024u * 1024u)
#define RESP_MAX (1024u * 1024u)
#define ARENA_BYTES ((size_t)64 * 1024 * 1024)
#define CPU_SECONDS 10

/* ---- a size-class allocator over one arena mapped before the sandbox ---- */

#define NCLASS 27 /* 16 B .. 1 GiB (bounded by the arena anyway) */
typedef struct blk { size_t cls; struct blk *next; } blk; /* header, 16 bytes */
static unsigned char *arena;
static size_t arena_used;
static blk *freelist[NCLASS];

static int size_class(size_t n)
{
	int c = 0;
	size_t s = 16;
	while (s < n) {
		s <<= 1;
		if (++c >= NCLASS)
			return -1;
	}
	return c;
}

static void *a_alloc(void *ud, duk_size_t n)
{
	(void)ud;
	if (n == 0)
		n = 1;
	int c = size_class(n);
	if (c < 0)
		return NULL;
	if (freelist[c]) {
		blk *b = freelist[c];
		freelist[c] = b->next;
		return b + 1;
	}
	size_t need = sizeof(blk) + ((size_t)16 << c);
	if (need > ARENA_BYTES - arena_used)
		return NULL;
	blk *b = (blk *)(arena + arena_used);
	arena_used += need;
	b->cls = (size_t)c;
	return b + 1;
}

static void a_free(void *ud, void *p)
{
	(void)ud;
	if (!p)
		return;
	blk *b = (blk *)p - 1;
	b->next = freelist[b->cls];
	freelist[b->cls] = b;
}

static void *a_realloc(void *ud, void *p, duk_size_t n)
{
	if (!p)
		return a_alloc(ud, n);
	if (n == 0) {
		a_free(ud, p);
		return NULL;
	}
	blk *b = (blk *)p - 1;
	size_t have = (size_t)16 << b->cls;
	if (n <= have)
		return p;
	void *q = a_alloc(ud, n);
	if (!q)
		return NULL;
	memcpy(q, p, have);
	a_free(ud, p);
	return q;
}

/* ---- output without stdio (only write and exit are allowed in the sandbox) ---- */

static void write_all(const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static int sandboxed;

static void finish(int code)
{
	if (sandboxed)
		syscall(SYS_exit, code); /* exit_group is not allowed in strict mode */
	_exit(code);
}

/* An error response before the heap exists (message is plain ASCII from here). */
static void fail_plain(const char *msg)
{
	write_all("{\"ok\":false,\"error\":\"", 21);
	write_all(msg, strlen(msg));
	write_all("\"}\n", 3);
	finish(1);
}

static void fatal_handler(void *ud, const char *msg)
{
	(void)ud;
	(void)msg;
	fail_plain("the script engine stopped: out of memory or an internal limit");
}

/* ---- the script's globals ---- */

static duk_ret_t http_refused(duk_context *ctx)
{
	return duk_error(ctx, DUK_ERR_ERROR,
			 "http.* is not supported by amc: scripts have no network access");
}

static void push_json_text(duk_context *ctx, const char *text)
{
	duk_push_string(ctx, text);
	duk_json_decode(ctx, -1);
}

static duk_ret_t json_decode_safe(duk_context *ctx, void *ud)
{
	push_json_text(ctx, (const char *)ud);
	return 1;
}

static void set_globals(duk_context *ctx, const cJSON *req)
{
	static const char *const HTTP[] = { "get", "post", "put", "delete", "request", NULL };
	const cJSON *vars = cJSON_GetObjectItemCaseSensitive(req, "vars");
	const cJSON *v;
	cJSON_ArrayForEach(v, vars) {
		if (cJSON_IsString(v) && v->string) {
			duk_push_string(ctx, v->valuestring);
			duk_put_global_string(ctx, v->string);
		}
	}
	/* output: the object shared by every script of a flow (JSON between runs) */
	const cJSON *out = cJSON_GetObjectItemCaseSensitive(req, "output");
	if (cJSON_IsString(out) && duk_safe_call(ctx, json_decode_safe, out->valuestring, 0, 1) == 0
	    && duk_is_object(ctx, -1)) {
		/* decoded */
	} else {
		duk_pop(ctx);
		duk_push_object(ctx);
	}
	duk_put_global_string(ctx, "output");

	duk_push_object(ctx);
	const cJSON *ct = cJSON_GetObjectItemCaseSensitive(req, "copiedText");
	if (cJSON_IsString(ct))
		duk_push_string(ctx, ct->valuestring);
	else
		duk_push_null(ctx);
	duk_put_prop_string(ctx, -2, "copiedText");
	const cJSON *pf = cJSON_GetObjectItemCaseSensitive(req, "platform");
	duk_push_string(ctx, cJSON_IsString(pf) ? pf->valuestring : "android");
	duk_put_prop_string(ctx, -2, "platform");
	duk_put_global_string(ctx, "maestro");

	duk_push_object(ctx);
	for (int i = 0; HTTP[i]; i++) {
		duk_push_c_function(ctx, http_refused, DUK_VARARGS);
		duk_put_prop_string(ctx, -2, HTTP[i]);
	}
	duk_put_global_string(ctx, "http");
}

/* ---- evaluation ---- */

#define AMC_JS_MAX_UNDECLARED 32

/* The name of the undeclared identifier the error at the top of the stack
 * complains about ("ReferenceError: identifier 'X' undefined"), into buf;
 * -1 when it is another error.  Makes no system call (the sandbox is on). */
static int undeclared_name(duk_context *ctx, char *buf, size_t cap)
{
	if (!duk_is_error(ctx, -1) || duk_get_error_code(ctx, -1) != DUK_ERR_REFERENCE_ERROR)
		return -1;
	duk_get_prop_string(ctx, -1, "message");
	const char *m = duk_get_string(ctx, -1);
	static const char pre[] = "identifier '", post[] = "' undefined";
	size_t n = m ? strlen(m) : 0, lp = sizeof pre - 1, lq = sizeof post - 1;
	int rc = -1;
	if (n > lp + lq && !strncmp(m, pre, lp) && !strcmp(m + n - lq, post) && n - lp - lq < cap) {
		size_t k = n - lp - lq;
		memcpy(buf, m + lp, k);
		buf[k] = '\0';
		rc = 0;
		for (size_t i = 0; i < k; i++)
			if (!(isalnum((unsigned char)buf[i]) || buf[i] == '_' || buf[i] == '$'))
				rc = -1;
	}
	duk_pop(ctx);
	return rc;
}

struct job { const char *src; size_t len; const char *file; int check; };

/* [ ] -> [ result ]: compile (and run unless checking). */
static duk_ret_t run_job(duk_context *ctx, void *ud)
{
	struct job *j = ud;
	duk_push_string(ctx, j->file);
	duk_compile_lstring_filename(ctx, DUK_COMPILE_EVAL, j->src, j->len);
	if (j->check) {
		duk_pop(ctx);
		duk_push_undefined(ctx);
		return 1;
	}
	duk_call(ctx, 0);
	return 1;
}

/* [ response ] -> [ json ] */
static duk_ret_t encode_resp(duk_context *ctx, void *ud)
{
	(void)ud;
	duk_json_encode(ctx, -1);
	return 1;
}

static void respond(duk_context *ctx, int ok, int result_idx)
{
	duk_push_object(ctx);
	duk_push_boolean(ctx, ok);
	duk_put_prop_string(ctx, -2, "ok");
	if (ok) {
		duk_push_string(ctx, duk_get_type(ctx, result_idx) == DUK_TYPE_UNDEFINED ? "undefined" : "value");
		duk_put_prop_string(ctx, -2, "type");
		duk_dup(ctx, result_idx);
		duk_safe_to_string(ctx, -1);
		duk_put_prop_string(ctx, -2, "result");
	} else {
		duk_dup(ctx, result_idx);
		duk_safe_to_string(ctx, -1);
		duk_put_prop_string(ctx, -2, "error");
	}
	duk_get_global_string(ctx, "output");
	duk_put_prop_string(ctx, -2, "output");
	if (duk_safe_call(ctx, encode_resp, NULL, 1, 1) != 0) {
		/* output is not serialisable (a cycle, a function): say so, keep nothing */
		fail_plain("the output object cannot be kept between scripts (not JSON-serialisable)");
	}
	duk_size_t n;
	const char *s = duk_get_lstring(ctx, -1, &n);
	if (!s || n > RESP_MAX)
		fail_plain("the script's result or output object is too large");
	write_all(s, n);
	write_all("\n", 1);
	finish(ok ? 0 : 1);
}

int main(void)
{
	/* 1. read the request (bounded) */
	static char buf[REQ_MAX + 1];
	size_t len = 0;
	for (;;) {
		ssize_t r = read(0, buf + len, REQ_MAX + 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			fail_plain("cannot read the request");
		if (r == 0)
			break;
		len += (size_t)r;
		if (len > REQ_MAX)
			fail_plain("the request is larger than 1 MiB");
	}
	buf[len] = '\0';
	cJSON *req = cJSON_ParseWithLength(buf, len);
	if (!cJSON_IsObject(req))
		fail_plain("the request is not a JSON object");
	const cJSON *op = cJSON_GetObjectItemCaseSensitive(req, "op");
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(req, "source");
	const cJSON *file = cJSON_GetObjectItemCaseSensitive(req, "filename");
	if (!cJSON_IsString(op) || !cJSON_IsString(src))
		fail_plain("the request needs op and source strings");
	struct job j = { src->valuestring, strlen(src->valuestring),
			 cJSON_IsString(file) ? file->valuestring : "script", 0 };
	if (strcmp(op->valuestring, "check") == 0)
		j.check = 1;
	else if (strcmp(op->valuestring, "eval") != 0)
		fail_plain("unknown op");

	/* 2. limits, the arena and the heap, while allocation still works */
	struct rlimit cpu = { CPU_SECONDS, CPU_SECONDS + 1 };
	setrlimit(RLIMIT_CPU, &cpu);
	arena = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED)
		fail_plain("cannot map the script arena");
	struct rlimit as;
	if (getrlimit(RLIMIT_AS, &as) == 0) {
		rlim_t cap = (rlim_t)512 * 1024 * 1024;
		if (as.rlim_max == RLIM_INFINITY || as.rlim_max > cap)
			as.rlim_max = cap;
		as.rlim_cur = as.rlim_max;
		setrlimit(RLIMIT_AS, &as);
	}
	struct rlimit nf = { 3, 3 };
	setrlimit(RLIMIT_NOFILE, &nf);
	duk_context *ctx = duk_create_heap(a_alloc, a_realloc, a_free, NULL, fatal_handler);
	if (!ctx)
		fail_plain("cannot create the script engine");
	set_globals(ctx, req);
	/* the source stays in buf's cJSON tree, which is not freed: no free() after this */

	/* 3. the sandbox: read, write, exit and sigreturn only */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0) != 0)
		fail_plain("cannot enter the seccomp sandbox; scripts are not run without it");
	sandboxed = 1;

	/* 4. evaluate and answer.  An undeclared name evaluates to undefined,
	 * as in Maestro (GraalJsEngine makes globalThis's prototype a Proxy
	 * whose has() is always true, so `${MY_VAR || 'default'}` works):
	 * on "identifier 'X' undefined" the script runs again in a fresh heap
	 * with X declared undefined.  The heap is rebuilt so that the first
	 * run's changes to output are not kept; scripts cannot reach the
	 * network or files here, so a rerun repeats nothing outside. */
	static char undeclared[AMC_JS_MAX_UNDECLARED][128];
	int nundeclared = 0;
	for (;;) {
		int rc = duk_safe_call(ctx, run_job, &j, 0, 1);
		char name[128];
		if (rc == 0 || j.check || nundeclared >= AMC_JS_MAX_UNDECLARED ||
		    undeclared_name(ctx, name, sizeof name) != 0) {
			respond(ctx, rc == 0, duk_get_top_index(ctx));
			return 0;
		}
		memcpy(undeclared[nundeclared++], name, sizeof name);
		duk_destroy_heap(ctx);
		ctx = duk_create_heap(a_alloc, a_realloc, a_free, NULL, fatal_handler);
		if (!ctx)
			fail_plain("cannot create the script engine");
		set_globals(ctx, req);
		for (int i = 0; i < nundeclared; i++) {
			duk_push_undefined(ctx);
			duk_put_global_string(ctx, undeclared[i]);
		}
	}
}
