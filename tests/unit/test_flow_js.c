/* test_flow_js.c - the interpreter's bridge: evalScript, runScript with env:,
 * assertTrue and ${expression} interpolation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow_js.h"
#include "tap.h"

int main(void)
{
	amc_script *s;
	amc_err e;
	amc_err_clear(&e);
	const char *h = getenv("AMC_JS");
	if (amc_script_open(h && *h ? h : AMC_ABS_BUILDDIR "/amc-js", NULL, &s, &e) != 0) {
		ok(0, "open: %s", e.msg);
		return done_testing();
	}
	struct amc_flow_var vars[] = { { "NAME", "Ada" }, { "COUNT", "3" } };
	char *out = NULL;
	ok(amc_flow_js_eval(s, "output.greeting = 'hi ' + NAME", vars, 2, &out, &e) == 0, "evalScript");
	is_str(out, "hi Ada", "its value");
	free(out);

	struct amc_flow_var env[] = { { "NAME", "Ada" }, { "SUFFIX", "!" } };
	ok(amc_flow_js_run_script(s, "output.shout = output.greeting + SUFFIX;", "s.js", env, 2, &e) == 0,
	   "runScript with env:");
	ok(amc_flow_js_run_script(s, "var x = ;", "broken.js", env, 2, &e) == -1, "a broken script fails");
	like(e.msg, "SyntaxError", "with the parser's message");

	ok(amc_flow_js_interpolate(s, "Say ${output.shout} x${COUNT * 2}${(function () { return 1; })()}", vars, 2, &out, &e) == 0,
	   "interpolation");
	is_str(out, "Say hi Ada! x61", "each ${} replaced, braces inside expressions kept");
	free(out);
	ok(amc_flow_js_interpolate(s, "plain text", vars, 2, &out, &e) == 0, "no ${}");
	is_str(out, "plain text", "copied as is");
	free(out);
	ok(amc_flow_js_interpolate(s, "a ${NAME", vars, 2, &out, &e) == -1, "unterminated ${");
	ok(amc_flow_js_interpolate(s, "a ${nope.x}", vars, 2, &out, &e) == -1, "a failing expression");
	like(e.msg, "${nope.x}", "is named");

	int t = -1;
	ok(amc_flow_js_truth(s, "output.shout == 'hi Ada!'", vars, 2, &t, &e) == 0 && t == 1,
	   "assertTrue: true");
	ok(amc_flow_js_truth(s, "COUNT > 5", vars, 2, &t, &e) == 0 && t == 0, "assertTrue: false");
	ok(amc_flow_js_truth(s, "''", vars, 2, &t, &e) == 0 && t == 0, "assertTrue: falsy string");

	amc_flow_js_set_copied(s, "clip");
	ok(amc_flow_js_eval(s, "maestro.copiedText", NULL, 0, &out, &e) == 0, "copied text");
	is_str(out, "clip", "set through the bridge");
	free(out);
	ok(amc_flow_js_eval(NULL, "1", NULL, 0, &out, &e) == -1 && e.code == AMC_EENV,
	   "no engine: an environment error");
	amc_script_close(s);
	return done_testing();
}
