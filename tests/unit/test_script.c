/* test_script.c - the sandboxed JavaScript engine (amc-js, JavaScriptCore)
 * and its client: values, globals, the shared output object, copiedText,
 * platform, ES2020 syntax, Maestro's undefined names, console.log, one
 * engine process per flow, and the sandbox (no files, network or programs, a
 * runaway loop stopped by the wall clock, a memory hog stopped). http.* is
 * tested in test_script_http.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "flow/script.h"
#include "tap.h"

static const char *helper(void)
{
	const char *h = getenv("AMC_JS");
	return h && *h ? h : AMC_ABS_BUILDDIR "/amc-js";
}

static char *ev(amc_script *s, const char *src, amc_err *e)
{
	char *r = NULL;
	amc_err_clear(e);
	if (amc_script_eval(s, src, "t.js", NULL, 0, &r, e) != 0)
		return NULL;
	return r;
}

/* How many children of this process run amc-js (from /proc). */
static int engine_children(void)
{
	char path[64];
	int n = 0;
	DIR *d = opendir("/proc");
	struct dirent *de;
	while (d && (de = readdir(d)) != NULL) {
		int pid = atoi(de->d_name);
		if (pid <= 0)
			continue;
		snprintf(path, sizeof path, "/proc/%d/stat", pid);
		FILE *f = fopen(path, "r");
		char comm[64] = "";
		int ppid = 0;
		if (f && fscanf(f, "%*d (%63[^)]) %*c %d", comm, &ppid) == 2 && ppid == (int)getpid() &&
		    strcmp(comm, "amc-js") == 0)
			n++;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

int main(void)
{
	amc_script *s;
	amc_err e;
	amc_err_clear(&e);
	ok(amc_script_open("/nonexistent/amc-js", NULL, &s, &e) == -1 && e.code == AMC_EENV,
	   "a missing helper is an environment error");
	like(e.msg, "AMC_JS", "the message says how to point at it");
	if (amc_script_open(helper(), "ios", &s, &e) != 0) {
		ok(0, "open: %s", e.msg);
		return done_testing();
	}

	char *r = ev(s, "1 + 2", &e);
	is_str(r, "3", "an expression's value");
	free(r);
	r = ev(s, "var a = 'x'; a + 'y'", &e);
	is_str(r, "xy", "the last statement's value");
	free(r);
	r = ev(s, "undefined", &e);
	is_str(r, "undefined", "undefined is the text undefined (Maestro's Value.toString())");
	free(r);

	amc_script_var vars[] = { { "USER", "alice" }, { "N", "4" } };
	r = NULL;
	ok(amc_script_eval(s, "USER + ':' + (N * 2)", "t.js", vars, 2, &r, &e) == 0,
	   "variables as globals");
	is_str(r, "alice:8", "their values are strings, as in Maestro");
	free(r);

	r = ev(s, "output.count = 1; output.name = 'n'; 0", &e);
	free(r);
	r = ev(s, "output.count + 1 + output.name", &e);
	is_str(r, "2n", "output is shared between evaluations");
	free(r);
	like(amc_script_output(s), "\"count\":1", "the client keeps the output object");

	r = ev(s, "maestro.platform", &e);
	is_str(r, "ios", "maestro.platform");
	free(r);
	r = ev(s, "String(maestro.copiedText)", &e);
	is_str(r, "null", "no copied text yet");
	free(r);
	amc_script_set_copied_text(s, "copied!", &e);
	r = ev(s, "maestro.copiedText", &e);
	is_str(r, "copied!", "maestro.copiedText");
	free(r);

	r = ev(s, "throw new Error('boom')", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "a thrown error fails the evaluation");
	like(e.msg, "boom", "with the script's message");
	r = ev(s, "1;\n\nnope", &e);
	like(e.msg, "ReferenceError: Can't find variable: nope (t.js:3)", "an undefined name throws by default, with file and line");

	/* current ECMAScript, as Maestro's GraalJS speaks it */
	r = ev(s, "const f = (x) => x * 2; let o = { a: { b: 1 } };\n"
		  "`${f(2)}|${o?.a?.b}|${o.z?.y ?? 'dflt'}|${[...[1, 2]].length}|${Object.entries({k: 1})[0][0]}`", &e);
	is_str(r, "4|1|dflt|2|k", "arrow functions, template literals, ?., ??, spread, let/const");
	free(r);
	r = ev(s, "class A { #p = 3; get p() { return this.#p; } }; 2n ** 64n + '' + new A().p", &e);
	is_str(r, "184467440737095516163", "classes with private fields, BigInt (ES2022)");
	free(r);
	r = ev(s, "const same = 1; same", &e);
	free(r);
	r = ev(s, "const same = 2; same", &e);
	is_str(r, "2", "each evaluation has fresh globals: two scripts may declare the same const");
	free(r);
	ok(amc_script_check(s, "let x = `a`; const f = () => x ?? 1;", "t.js", &e) == 0, "check: ES2020 parses");

	/* Maestro's names: undefined instead of a ReferenceError, when asked */
	amc_script_set_maestro_names(s, 1);
	r = ev(s, "MAESTRO_STORE || 'test_store'", &e);
	is_str(r, "test_store", "an undefined name is undefined (MAESTRO_STORE || 'test_store')");
	free(r);
	r = ev(s, "var v = 2; w = 3; const c = 4;\n`${v}${w}${c}${typeof nope}${nope ?? '-'}`", &e);
	is_str(r, "234undefined-", "declarations and assignments still work under Maestro's names");
	free(r);
	r = ev(s, "output.count", &e);
	is_str(r, "1", "and the globals are still reached");
	free(r);
	amc_script_set_maestro_names(s, 0);

	/* console.log: kept for the caller, bounded and terminal-safe */
	r = ev(s, "console.log('hello', {a: 1}, 2); console.log('\\u001b[2Jx'); 0", &e);
	free(r);
	ok(strncmp(amc_script_log(s), "hello {\"a\":1} 2\n", 16) == 0, "console.log's line");
	ok(!strchr(amc_script_log(s), 0x1b), "console.log made terminal-safe");

	/* one engine process for all of it */
	is_int(amc_script_spawns(s), 1, "one engine process for every evaluation so far");
	is_int(engine_children(), 1, "and one amc-js process is running");

	ok(amc_script_check(s, "var x = 1;\nwhile (true) {}", "t.js", &e) == 0,
	   "check only parses (an endless loop is not run)");
	ok(amc_script_check(s, "var x = ;", "bad.js", &e) == -1, "check: syntax error");
	like(e.msg, "SyntaxError", "check: the parser's message");
	like(e.msg, "(bad.js:1)", "check: with file and line");

	/* the sandbox */
	r = ev(s, "[typeof require, typeof process, typeof fetch, typeof XMLHttpRequest, typeof WebAssembly,"
		  " typeof load, typeof readFile].join()", &e);
	is_str(r, "undefined,undefined,undefined,undefined,object,undefined,undefined",
	     "no module loader, process, fetch, XHR or file functions");
	free(r);
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "%s --sandbox-probe | cat", helper());
	FILE *p = popen(cmd, "r");
	char probe[256] = "";
	if (p) {
		if (!fgets(probe, sizeof probe, p))
			probe[0] = '\0';
		pclose(p);
	}
	is_str(probe, "open=Operation not permitted socket=Operation not permitted execve=Operation not permitted\n",
	       "inside the sandbox: no file, no socket, no program");
	amc_script_set_timeout(s, 1000);
	r = ev(s, "while (true) {}", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "an endless loop is stopped");
	like(e.msg, "longer than 1000 ms", "by the wall-clock limit");
	r = ev(s, "var a = []; for (;;) a.push('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' + a.length);", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "a memory bomb fails (%s)", e.msg);
	amc_script_set_timeout(s, 30000);
	r = ev(s, "const big = []; for (;;) big.push(new Array(1 << 20).fill(1.5));", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "a memory hog fails before the wall clock");
	like(e.msg, "more than 512 MiB of memory", "stopped by the memory limit");
	amc_script_set_timeout(s, 5000);
	r = ev(s, "output.after = 'still works'; output.after", &e);
	is_str(r, "still works", "the engine works after a failed script");
	free(r);
	r = ev(s, "output.self = output; 1", &e);
	ok(r == NULL, "an output object with a cycle is refused");
	like(e.msg, "JSON-serialisable", "saying why");

	/* the response parser with hostile answers */
	int okv;
	char *t, *o;
	ok(amc_script_parse_response("[]", 2, &okv, &t, &o, &e) == -1, "response: not an object");
	const char *esc = "{\"ok\":false,\"error\":\"\\u001b[2Jx\",\"output\":{}}";
	ok(amc_script_parse_response(esc, strlen(esc), &okv, &t, &o, &e) == 0 && !okv,
	   "response: an error");
	ok(t && !strchr(t, 0x1b), "an error message is made terminal-safe");
	free(t);
	free(o);
	const char *noout = "{\"ok\":true,\"result\":\"1\"}";
	ok(amc_script_parse_response(noout, strlen(noout), &okv, &t, &o, &e) == -1,
	   "response: a result needs the output object");
	r = ev(s, "output.count", &e);
	is_str(r, "1", "output kept after a failure that had no output to return");
	free(r);
	ok(amc_script_spawns(s) >= 2 && amc_script_spawns(s) <= 5,
	   "a new engine only after each one that was killed (%d)", amc_script_spawns(s));
	is_int(engine_children(), 1, "still one amc-js process");
	amc_script_close(s);
	is_int(engine_children(), 0, "closing ends it");

	/* a helper that exits without reading: no SIGPIPE kills amc, a clear error */
	if (amc_script_open("/bin/true", NULL, &s, &e) == 0) {
		char *big = malloc(200 * 1024);
		memset(big, ' ', 200 * 1024 - 1);
		big[200 * 1024 - 1] = '\0';
		r = ev(s, big, &e);
		ok(r == NULL && e.code == AMC_EENV, "a helper that does not answer: %s", e.msg);
		free(big);
		amc_script_close(s);
	}
	return done_testing();
}
