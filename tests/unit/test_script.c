/* test_script.c - the sandboxed JavaScript engine (amc-js) and its client:
 * values, globals, the shared output object, copiedText, platform, http.*
 * refused, ES2015+ named as an engine limit, and the sandbox (no files, a
 * runaway loop stopped by the wall clock, memory bounded). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

	r = ev(s, "http.get('https://example.com')", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "http.get fails");
	like(e.msg, "http.* is not supported", "http.* is refused clearly");

	r = ev(s, "throw new Error('boom')", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "a thrown error fails the evaluation");
	like(e.msg, "boom", "with the script's message");

	r = ev(s, "var f = (x) => x * 2; f(2)", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "ES2015 syntax does not run");
	like(e.msg, "ES2015+ syntax (arrow functions)", "named as the engine's limit");
	ok(amc_script_check(s, "let x = `a`;", "t.js", &e) == -1, "check: ES2015 refused");
	like(e.msg, "ES5 engine", "check names the engine");
	ok(amc_script_check(s, "var x = 1;\nwhile (true) {}", "t.js", &e) == 0,
	   "check only parses (an endless loop is not run)");
	ok(amc_script_check(s, "var x = ;", "bad.js", &e) == -1, "check: syntax error");
	like(e.msg, "SyntaxError", "check: the parser's message");

	/* the sandbox */
	r = ev(s, "typeof require + typeof process + typeof Duktape.modSearch", &e);
	is_str(r, "undefinedundefinedundefined", "no module loader, no process object");
	free(r);
	amc_script_set_timeout(s, 1000);
	r = ev(s, "while (true) {}", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "an endless loop is stopped");
	like(e.msg, "longer than 1000 ms", "by the wall-clock limit");
	r = ev(s, "var a = []; for (;;) a.push('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' + a.length);", &e);
	ok(r == NULL && e.code == AMC_EFAIL, "a memory bomb fails (%s)", e.msg);
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
	amc_script_close(s);

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
