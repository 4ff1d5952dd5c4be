/* amc_js.c - amc-js, the sandboxed JavaScript evaluator behind flows'
 * evalScript, runScript, assertTrue and ${expression}.
 *
 * One process per flow (script.h documents the protocol): it reads one
 * request per line on stdin and answers one line on stdout, so a flow with a
 * hundred ${...} pays the engine's start-up once. The engine is JavaScriptCore
 * through its plain C API (Debian's libjavascriptcoregtk-4.1), which speaks
 * current ECMAScript (template literals, arrow functions, ??, ?., let/const),
 * as Maestro's GraalJS does; the JIT is off (no writable-executable memory).
 *
 * The sandbox, set up after the engine exists and before any script runs:
 * RLIMIT_DATA bounds memory (RLIMIT_AS cannot: JavaScriptCore reserves
 * gigabytes of address space and aborts under it), RLIMIT_CPU is a net under
 * the parent's wall clock (the parent kills this process), RLIMIT_FSIZE 0, and
 * a seccomp-bpf allow-list: memory, threads of this process, time, futexes,
 * read/write on the descriptors it has, exit. Everything else (open, socket,
 * execve, kill of another process, ...) fails with EPERM, so a script has no
 * file, network or process access. http.* is made by the parent on the
 * script's behalf over the pipe, under the parent's policy. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <JavaScriptCore/JavaScript.h>
#include <cjson/cJSON.h>
#include <seccomp.h>

#define LINE_MAX_BYTES (1024u * 1024u)     /* a request or an http answer */
#define RESP_MAX (1024u * 1024u)
#define LOG_MAX (64u * 1024u)              /* console.log per evaluation */
#define RESULT_MAX (64u * 1024u)
#ifndef DATA_BYTES
/* JavaScriptCore reserves about 4.3 GiB of (unbacked) address space for its
 * structure heap at start-up, counted by RLIMIT_DATA; what is left above it
 * is the engine's. The resident size is bounded by the parent (script.c). */
#define DATA_BYTES ((rlim_t)5 * 1024 * 1024 * 1024)
#endif
#ifndef CLONE_THREAD
#define CLONE_THREAD 0x00010000 /* <sched.h> has it only with _GNU_SOURCE */
#endif
#define CPU_SECONDS 120                    /* for the whole flow; the wall clock is per evaluation */

/* ---- lines on stdin, bounded ---- */

static char inbuf[LINE_MAX_BYTES + 2];
static size_t inlen;

/* The next line (without its newline, NUL-terminated, in a static buffer) or
 * NULL at end of input. A line over the limit ends the process. */
static char *read_line(size_t *n_out);

static void write_all(const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(1); /* the parent went away */
		s += w;
		n -= (size_t)w;
	}
}

static char line[LINE_MAX_BYTES + 2];

static char *read_line(size_t *n_out)
{
	for (;;) {
		char *nl = memchr(inbuf, '\n', inlen);
		if (nl) {
			size_t n = (size_t)(nl - inbuf);
			memcpy(line, inbuf, n);
			line[n] = '\0';
			memmove(inbuf, nl + 1, inlen - n - 1);
			inlen -= n + 1;
			*n_out = n;
			return line;
		}
		if (inlen > LINE_MAX_BYTES) {
			static const char m[] = "{\"ok\":false,\"error\":\"the request is larger than 1 MiB\"}\n";
			write_all(m, sizeof m - 1);
			_exit(1);
		}
		ssize_t r = read(0, inbuf + inlen, LINE_MAX_BYTES + 1 - inlen);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return NULL;
		inlen += (size_t)r;
	}
}

static void fail_plain(const char *msg)
{
	write_all("{\"ok\":false,\"error\":\"", 21);
	write_all(msg, strlen(msg));
	write_all("\"}\n", 3);
	_exit(1);
}

/* ---- JavaScriptCore helpers ---- */

/* A value as UTF-8 (malloc'd), cut at `max` bytes; NULL if it cannot be. */
static char *to_utf8(JSContextRef ctx, JSValueRef v, size_t max)
{
	JSValueRef ex = NULL;
	JSStringRef s = JSValueToStringCopy(ctx, v, &ex);
	if (!s)
		return NULL;
	size_t cap = JSStringGetMaximumUTF8CStringSize(s);
	if (cap > max + 1)
		cap = max + 1;
	char *out = malloc(cap ? cap : 1);
	if (out)
		JSStringGetUTF8CString(s, out, cap ? cap : 1);
	JSStringRelease(s);
	return out;
}

static JSValueRef make_str(JSContextRef ctx, const char *c)
{
	JSStringRef s = JSStringCreateWithUTF8CString(c);
	JSValueRef v = JSValueMakeString(ctx, s);
	JSStringRelease(s);
	return v;
}

/* ---- what a script reaches of the outside: console.log and http ---- */

static char logbuf[LOG_MAX + 64];
static size_t loglen;
static int http_count;

static JSValueRef nat_log(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
			  const JSValueRef argv[], JSValueRef *ex)
{
	(void)fn;
	(void)self;
	(void)ex;
	if (argc < 1 || loglen >= LOG_MAX)
		return JSValueMakeUndefined(ctx);
	char *s = to_utf8(ctx, argv[0], LOG_MAX);
	if (s) {
		size_t n = strlen(s);
		if (n > LOG_MAX - loglen)
			n = LOG_MAX - loglen;
		memcpy(logbuf + loglen, s, n);
		loglen += n;
		logbuf[loglen++] = '\n';
		free(s);
	}
	return JSValueMakeUndefined(ctx);
}

/* http: the request (JSON text built by the prelude) goes to the parent as
 * {"op":"http","request":...}; its answer line comes back as JSON text. */
static JSValueRef nat_http(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
			   const JSValueRef argv[], JSValueRef *ex)
{
	(void)fn;
	(void)self;
	if (argc < 1 || ++http_count > 100) {
		*ex = make_str(ctx, "http: at most 100 requests per script");
		return JSValueMakeUndefined(ctx);
	}
	char *req = to_utf8(ctx, argv[0], LINE_MAX_BYTES - 64);
	if (!req || strlen(req) >= LINE_MAX_BYTES - 64) {
		free(req);
		*ex = make_str(ctx, "http: the request is larger than 1 MiB");
		return JSValueMakeUndefined(ctx);
	}
	static const char head[] = "{\"op\":\"http\",\"request\":";
	write_all(head, sizeof head - 1);
	write_all(req, strlen(req));
	write_all("}\n", 2);
	free(req);
	size_t n;
	char *ans = read_line(&n);
	if (!ans)
		_exit(1);
	return make_str(ctx, ans);
}

/* The globals of one evaluation, from the request line: variables, output,
 * maestro, console, http, json(), faker. With "maestroNames" an undefined name reads
 * as undefined, as in Maestro: the source runs inside `with (__maestroNames)`,
 * a Proxy of the global object that says every name exists (JavaScriptCore's
 * global object has an immutable prototype, so a Proxy cannot be put on its
 * prototype chain instead). */
static const char PRELUDE[] =
	"(function (h, l, reqText) {\n"
	"  'use strict';\n"
	"  const g = globalThis, req = JSON.parse(reqText);\n"
	"  const vars = req.vars || {};\n"
	"  for (const k of Object.keys(vars)) g[k] = vars[k];\n"
	"  g.output = JSON.parse(typeof req.output === 'string' ? req.output : '{}');\n"
	"  g.maestro = { copiedText: req.copiedText ?? null, platform: req.platform || 'android' };\n"
	"  const show = (x) => { if (typeof x === 'string') return x;\n"
	"    try { const j = JSON.stringify(x); return j === undefined ? String(x) : j; } catch (e) { return String(x); } };\n"
	"  const log = function (...a) { l(a.map(show).join(' ')); };\n"
	"  g.console = { log, info: log, warn: log, error: log, debug: log };\n"
	"  const call = (method, url, o) => {\n"
	"    o = o || {};\n"
	"    let body = o.body ?? null;\n"
	"    if (body !== null && typeof body !== 'string') body = JSON.stringify(body);\n"
	"    const hs = {};\n"
	"    for (const [k, v] of Object.entries(o.headers || {})) hs[String(k)] = String(v);\n"
	"    const r = JSON.parse(h(JSON.stringify({ method: String(method).toUpperCase(), url: String(url),\n"
	"      headers: hs, body })));\n"
	"    if (typeof r.error === 'string') throw new Error(r.error);\n"
	"    r.json = function () { return JSON.parse(this.body); };\n"
	"    return r;\n"
	"  };\n"
	"  g.http = { get: (u, o) => call('GET', u, o), post: (u, o) => call('POST', u, o),\n"
	"    put: (u, o) => call('PUT', u, o), delete: (u, o) => call('DELETE', u, o),\n"
	"    request: (u, o) => call((o && o.method) || 'GET', u, o) };\n"
	"  g.json = (t) => JSON.parse(t);\n"
	"  /* faker: a small subset of Maestro 2.0's DataFaker object (same names). */\n"
	"  const pick = (a) => a[Math.floor(Math.random() * a.length)];\n"
	"  const digits = (n) => { let s = ''; for (let i = 0; i < (n > 0 ? Math.min(n, 1000) : 1); i++)\n"
	"    s += String(Math.floor(Math.random() * 10)); return s; };\n"
	"  const FIRST = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Hedy', 'Tim'];\n"
	"  const LAST = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson',\n"
	"    'Lamarr', 'Berners-Lee'];\n"
	"  const CITY = ['Lisbon', 'Nairobi', 'Osaka', 'Lima', 'Oslo', 'Austin', 'Lyon', 'Pune'];\n"
	"  const COUNTRY = ['Portugal', 'Kenya', 'Japan', 'Peru', 'Norway', 'Canada', 'France', 'India'];\n"
	"  const WORDS = ['alpha', 'river', 'stone', 'cloud', 'maple', 'orbit', 'lumen', 'cedar', 'delta', 'ember'];\n"
	"  const word = () => pick(WORDS);\n"
	"  const sentence = (n) => { const w = []; for (let i = 0; i < (n || 6); i++) w.push(word());\n"
	"    const s = w.join(' '); return s[0].toUpperCase() + s.slice(1) + '.'; };\n"
	"  const user = () => pick(FIRST).toLowerCase() + '.' + pick(LAST).toLowerCase().replace(/[^a-z]/g, '');\n"
	"  const between = (a, b) => { a = Math.ceil(Number(a)); b = Math.floor(Number(b));\n"
	"    return b > a ? a + Math.floor(Math.random() * (b - a)) : a; };\n"
	"  const faker = {\n"
	"    name: () => ({ firstName: () => pick(FIRST), lastName: () => pick(LAST),\n"
	"      fullName: () => pick(FIRST) + ' ' + pick(LAST), name: () => pick(FIRST) + ' ' + pick(LAST),\n"
	"      username: user, prefix: () => pick(['Mr.', 'Ms.', 'Dr.']) }),\n"
	"    internet: () => ({ emailAddress: () => user() + '@example.com',\n"
	"      safeEmailAddress: () => user() + '@example.org',\n"
	"      username: user, password: () => word() + digits(4) + 'A!', url: () => 'https://www.' + word() + '.example',\n"
	"      domainName: () => word() + '.example' }),\n"
	"    number: () => ({ digits: (n) => digits(n), numberBetween: between, randomDigit: () => between(0, 10),\n"
	"      randomNumber: () => between(0, 1000000000), positive: () => between(1, 2147483647) }),\n"
	"    phoneNumber: () => ({ phoneNumber: () => '555-' + digits(3) + '-' + digits(4),\n"
	"      cellPhone: () => '555-' + digits(7) }),\n"
	"    address: () => ({ city: () => pick(CITY), cityName: () => pick(CITY), country: () => pick(COUNTRY),\n"
	"      streetName: () => pick(LAST) + ' Street',\n"
	"      streetAddress: () => between(1, 999) + ' ' + pick(LAST) + ' Street',\n"
	"      zipCode: () => digits(5), postcode: () => digits(5),\n"
	"      fullAddress: () => between(1, 999) + ' ' + pick(LAST) + ' Street, ' + pick(CITY) + ', ' + pick(COUNTRY) }),\n"
	"    color: () => ({ name: () => pick(['red', 'green', 'blue', 'yellow', 'purple', 'orange', 'teal', 'black']) }),\n"
	"    lorem: () => ({ word,\n"
	"      words: (n) => { const w = []; for (let i = 0; i < (n || 3); i++) w.push(word()); return w; },\n"
	"      sentence: (n) => sentence(n), paragraph: () => sentence(6) + ' ' + sentence(8), characters: (n) =>\n"
	"        digits(n).replace(/./g, () => pick('abcdefghijklmnopqrstuvwxyz')) }),\n"
	"    company: () => ({ name: () => pick(LAST) + ' ' + pick(['Inc.', 'Ltd', 'Group', 'Labs']) }),\n"
	"    bool: () => ({ bool: () => Math.random() < 0.5 }),\n"
	"    /* #{provider.method 'arg' ...}: the same methods, looked up without case or '_' */\n"
	"    expression: (e) => String(e).replace(/#\\{\\s*(\\w+)\\.(\\w+)((?:\\s+'[^']*')*)\\s*\\}/g, (m, p, f, a) => {\n"
	"      const key = (s) => s.toLowerCase().replace(/_/g, '');\n"
	"      const prov = Object.keys(faker).find((k) => key(k) === key(p) && k !== 'expression');\n"
	"      const o = prov ? faker[prov]() : null;\n"
	"      const fn = o ? Object.keys(o).find((k) => key(k) === key(f)) : null;\n"
	"      if (!fn) throw new Error('faker: ' + m + ' is not in the part of DataFaker amc has (docs/flows.md)');\n"
	"      return String(o[fn](...(a.match(/'[^']*'/g) || []).map((x) => x.slice(1, -1))));\n"
	"    }),\n"
	"  };\n"
	"  g.faker = faker;\n"
	"  if (req.maestroNames)\n"
	"    Object.defineProperty(g, '__maestroNames', { value: new Proxy(g, {\n"
	"      has: (t, k) => typeof k === 'string',\n"
	"      get: (t, k) => (k === Symbol.unscopables ? undefined : t[k]),\n"
	"      set: (t, k, v) => { t[k] = v; return true; } }) });\n"
	"})";

static JSContextGroupRef group;
static JSGlobalContextRef prelude_ctx;

/* A fresh global per evaluation (so two runScript files may both declare
 * `const x`), in the one VM of this process: a few hundred microseconds. */
static JSGlobalContextRef new_context(const char *reqline, JSValueRef *ex)
{
	JSGlobalContextRef ctx = JSGlobalContextCreateInGroup(group, NULL);
	JSStringRef src = JSStringCreateWithUTF8CString(PRELUDE);
	JSValueRef f = JSEvaluateScript(ctx, src, NULL, NULL, 1, ex);
	JSStringRelease(src);
	if (!f || !JSValueIsObject(ctx, f))
		return ctx;
	JSValueRef args[3];
	args[0] = JSObjectMakeFunctionWithCallback(ctx, NULL, nat_http);
	args[1] = JSObjectMakeFunctionWithCallback(ctx, NULL, nat_log);
	args[2] = make_str(ctx, reqline);
	JSObjectCallAsFunction(ctx, (JSObjectRef)f, NULL, 3, args, ex);
	return ctx;
}

/* "Name: message (file:line)" of a thrown value. */
static char *error_text(JSContextRef ctx, JSValueRef exv, const char *file)
{
	char *msg = to_utf8(ctx, exv, RESULT_MAX / 2);
	long ln = 0;
	if (JSValueIsObject(ctx, exv)) {
		JSStringRef k = JSStringCreateWithUTF8CString("line");
		JSValueRef lv = JSObjectGetProperty(ctx, (JSObjectRef)exv, k, NULL);
		JSStringRelease(k);
		if (lv && JSValueIsNumber(ctx, lv))
			ln = (long)JSValueToNumber(ctx, lv, NULL);
	}
	size_t n = (msg ? strlen(msg) : 0) + strlen(file) + 64;
	char *out = malloc(n);
	if (!out)
		return msg;
	if (ln > 0)
		snprintf(out, n, "%s (%s:%ld)", msg ? msg : "error", file, ln);
	else
		snprintf(out, n, "%s (%s)", msg ? msg : "error", file);
	free(msg);
	return out;
}

static void respond(cJSON *resp)
{
	if (loglen) {
		logbuf[loglen] = '\0';
		cJSON_AddStringToObject(resp, "log", logbuf);
	}
	char *t = cJSON_PrintUnformatted(resp);
	cJSON_Delete(resp);
	if (!t)
		fail_plain("out of memory");
	if (strlen(t) > RESP_MAX) {
		free(t);
		t = strdup("{\"ok\":false,\"error\":\"the script's result or output object is too large\"}");
		if (!t)
			fail_plain("out of memory");
	}
	write_all(t, strlen(t));
	write_all("\n", 1);
	free(t);
}

/* One request line: check (parse only) or eval; the answer is written. */
static void handle(char *reqline, size_t n)
{
	cJSON *req = cJSON_ParseWithLength(reqline, n);
	const cJSON *op = cJSON_GetObjectItemCaseSensitive(req, "op");
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(req, "source");
	const cJSON *file = cJSON_GetObjectItemCaseSensitive(req, "filename");
	cJSON *resp = cJSON_CreateObject();
	if (!cJSON_IsObject(req) || !cJSON_IsString(op) || !cJSON_IsString(src)) {
		cJSON_Delete(req);
		cJSON_AddFalseToObject(resp, "ok");
		cJSON_AddStringToObject(resp, "error", "the request needs op and source strings");
		respond(resp);
		return;
	}
	char fname[256];
	snprintf(fname, sizeof fname, "%s", cJSON_IsString(file) ? file->valuestring : "script");
	const cJSON *mn = cJSON_GetObjectItemCaseSensitive(req, "maestroNames");
	int wrap = cJSON_IsTrue(mn) && strcmp(op->valuestring, "eval") == 0;
	loglen = 0;
	http_count = 0;
	JSStringRef js;
	if (wrap) {
		/* on the same first line, so the script's line numbers stay right */
		static const char pre[] = "with (__maestroNames) {", post[] = "\n}";
		size_t n = strlen(src->valuestring);
		char *w = malloc(sizeof pre + n + sizeof post);
		if (!w)
			fail_plain("out of memory");
		memcpy(w, pre, sizeof pre - 1);
		memcpy(w + sizeof pre - 1, src->valuestring, n);
		memcpy(w + sizeof pre - 1 + n, post, sizeof post);
		js = JSStringCreateWithUTF8CString(w);
		free(w);
	} else {
		js = JSStringCreateWithUTF8CString(src->valuestring);
	}
	JSStringRef url = JSStringCreateWithUTF8CString(fname);
	JSValueRef ex = NULL;
	if (strcmp(op->valuestring, "check") == 0) {
		int good = JSCheckScriptSyntax(prelude_ctx, js, url, 1, &ex);
		cJSON_AddBoolToObject(resp, "ok", good);
		if (good) {
			cJSON_AddStringToObject(resp, "type", "undefined");
			cJSON_AddStringToObject(resp, "result", "");
		} else {
			char *m = error_text(prelude_ctx, ex, fname);
			cJSON_AddStringToObject(resp, "error", m ? m : "SyntaxError");
			free(m);
		}
		cJSON_AddRawToObject(resp, "output", "{}");
		cJSON_AddTrueToObject(resp, "checkOnly");
		JSStringRelease(js);
		JSStringRelease(url);
		cJSON_Delete(req);
		respond(resp);
		return;
	}
	JSGlobalContextRef ctx = new_context(reqline, &ex);
	JSValueRef v = NULL;
	if (!ex)
		v = JSEvaluateScript(ctx, js, NULL, url, 1, &ex);
	JSStringRelease(js);
	JSStringRelease(url);
	cJSON_Delete(req); /* reqline is no longer needed either: http answers reuse it */
	if (ex) {
		char *m = error_text(ctx, ex, fname);
		cJSON_AddFalseToObject(resp, "ok");
		cJSON_AddStringToObject(resp, "error", m ? m : "error");
		free(m);
	} else {
		char *r = to_utf8(ctx, v, RESULT_MAX);
		cJSON_AddTrueToObject(resp, "ok");
		cJSON_AddStringToObject(resp, "type", JSValueIsUndefined(ctx, v) ? "undefined" : "value");
		cJSON_AddStringToObject(resp, "result", r ? r : "");
		free(r);
	}
	/* output: the object shared by every script of a flow, kept as JSON */
	JSStringRef on = JSStringCreateWithUTF8CString("output");
	JSValueRef ov = JSObjectGetProperty(ctx, JSContextGetGlobalObject(ctx), on, NULL);
	JSStringRelease(on);
	JSValueRef oex = NULL;
	JSStringRef oj = ov && JSValueIsObject(ctx, ov) ? JSValueCreateJSONString(ctx, ov, 0, &oex) : NULL;
	if (oj) {
		size_t cap = JSStringGetMaximumUTF8CStringSize(oj);
		char *o = malloc(cap);
		if (o) {
			JSStringGetUTF8CString(oj, o, cap);
			if (strlen(o) <= RESP_MAX / 2)
				cJSON_AddRawToObject(resp, "output", o);
			free(o);
		}
		JSStringRelease(oj);
	}
	if (!cJSON_GetObjectItemCaseSensitive(resp, "output")) {
		cJSON_ReplaceItemInObjectCaseSensitive(resp, "ok", cJSON_CreateFalse());
		cJSON_DeleteItemFromObjectCaseSensitive(resp, "result");
		cJSON_DeleteItemFromObjectCaseSensitive(resp, "error");
		cJSON_AddStringToObject(resp, "error", "the output object cannot be kept between scripts "
					"(not JSON-serialisable, or larger than 512 KiB)");
	}
	JSGlobalContextRelease(ctx);
	respond(resp);
}

/* ---- the sandbox ---- */

static int allow(scmp_filter_ctx f, int nr)
{
	return seccomp_rule_add(f, SCMP_ACT_ALLOW, nr, 0);
}

static int sandbox(void)
{
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ERRNO(EPERM));
	if (!f)
		return -1;
	static const int ALLOWED[] = {
		SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(writev), SCMP_SYS(close),
		SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(madvise), SCMP_SYS(brk),
		SCMP_SYS(futex), SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres),
		SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep), SCMP_SYS(gettimeofday),
		SCMP_SYS(exit), SCMP_SYS(exit_group), SCMP_SYS(rt_sigreturn),
		SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigaction), SCMP_SYS(sigaltstack),
		SCMP_SYS(sched_yield), SCMP_SYS(sched_getaffinity), SCMP_SYS(getpid),
		SCMP_SYS(gettid), SCMP_SYS(set_robust_list), SCMP_SYS(rseq),
		SCMP_SYS(getrandom), SCMP_SYS(membarrier), SCMP_SYS(getrusage),
		SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(lseek), SCMP_SYS(getcpu),
		SCMP_SYS(prlimit64), SCMP_SYS(getrlimit), SCMP_SYS(sched_getparam),
		SCMP_SYS(sched_getscheduler), SCMP_SYS(sched_setscheduler), SCMP_SYS(setpriority),
	};
	int rc = 0;
	for (size_t i = 0; i < sizeof ALLOWED / sizeof ALLOWED[0]; i++)
		rc |= allow(f, ALLOWED[i]);
	/* memory, never executable (the JIT is off) */
	rc |= seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
			       SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
	rc |= seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
			       SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
	/* threads of this process only (the collector's helpers), no new process */
	rc |= seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
			       SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
	rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0); /* glibc falls back to clone */
	/* signals to its own threads (the collector stops them) */
	rc |= seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
			       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid(), 0));
	rc |= seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1,
			       SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME, 0));
	if (rc == 0)
		rc = seccomp_load(f);
	seccomp_release(f);
	return rc == 0 ? 0 : -1;
}

/* `amc-js --sandbox-probe`: enter the sandbox, then try to open a file, make a
 * socket and start a program; prints what happened (the tests read it). */
static int probe(void)
{
	if (sandbox() != 0)
		fail_plain("cannot enter the seccomp sandbox");
	int fd = open("/etc/hostname", O_RDONLY);
	int e1 = errno;
	int sk = (int)syscall(SYS_socket, 2 /* AF_INET */, 1 /* SOCK_STREAM */, 0);
	int e2 = errno;
	char *const argv[] = { "/bin/true", NULL };
	execve("/bin/true", argv, NULL);
	int e3 = errno;
	char out[256];
	snprintf(out, sizeof out, "open=%s socket=%s execve=%s\n", fd >= 0 ? "allowed" : strerror(e1),
		 sk >= 0 ? "allowed" : strerror(e2), strerror(e3));
	write_all(out, strlen(out));
	return 0;
}

int main(int argc, char **argv)
{
	/* the engine's options are read from the environment when it starts:
	 * an interpreter only (no JIT) */
	setenv("JSC_useJIT", "false", 1);
	setenv("JSC_useConcurrentGC", "false", 1);
	struct rlimit fs = { 0, 0 };
	setrlimit(RLIMIT_FSIZE, &fs);
	struct rlimit cpu = { CPU_SECONDS, CPU_SECONDS + 1 };
	setrlimit(RLIMIT_CPU, &cpu);
	struct rlimit data;
	if (getrlimit(RLIMIT_DATA, &data) == 0) {
		if (data.rlim_max == RLIM_INFINITY || data.rlim_max > DATA_BYTES)
			data.rlim_max = DATA_BYTES;
		data.rlim_cur = data.rlim_max;
		setrlimit(RLIMIT_DATA, &data);
	}
	if (argc > 1 && strcmp(argv[1], "--sandbox-probe") == 0)
		return probe();

	group = JSContextGroupCreate();
	prelude_ctx = JSGlobalContextCreateInGroup(group, NULL);
	if (!group || !prelude_ctx)
		fail_plain("cannot create the script engine");
	/* warm the VM (its first context builds the built-ins) before the sandbox */
	JSValueRef ex = NULL;
	JSGlobalContextRelease(new_context("{}", &ex));
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || sandbox() != 0)
		fail_plain("cannot enter the seccomp sandbox; scripts are not run without it");
	size_t n;
	char *l;
	while ((l = read_line(&n)) != NULL)
		handle(l, n);
	return 0;
}
