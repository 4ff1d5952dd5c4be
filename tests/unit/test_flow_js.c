/* test_flow_js.c - the interpreter (flow_interp.h) with the real engine
 * through the bridge: ${expression}, evalScript, runScript with env:,
 * assertTrue's truthiness, the shared `output`, maestro.copiedText and
 * maestro.platform, and the error when amc-js is missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planner/flow_js.h"
#include "planner/flow_planner.h"
#include "tap.h"

static char *run(amc_flow_interp *in, const char *s, amc_err *e)
{
	static char *last;
	free(last);
	last = NULL;
	amc_err_clear(e);
	if (amc_flow_interp_str(in, s, "f.yaml:3", &last, e) != 0)
		return NULL;
	return last;
}

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
	/* as amc_flow_js_attach sets it for a flow run: Maestro's undefined names */
	amc_script_set_maestro_names(s, 1);
	amc_flow_interp in;
	amc_flow_interp_init(&in);
	in.eval = amc_flow_js_eval;
	in.eval_ud = s;
	in.set_copied = amc_flow_js_set_copied;
	amc_flow_interp_push(&in, "NAME", "Ada");
	amc_flow_interp_push(&in, "COUNT", "3");

	char *out = NULL;
	ok(amc_flow_interp_script(&in, "output.greeting = 'hi ' + NAME", "f.yaml:2", &out, &e) == 0, "evalScript");
	is_str(out, "hi Ada", "its value");
	free(out);

	/* runScript: its env: pushed for the script, popped after */
	size_t mark = amc_flow_interp_mark(&in);
	amc_flow_interp_push(&in, "SUFFIX", "!");
	ok(amc_flow_interp_script(&in, "output.shout = output.greeting + SUFFIX;", "f.yaml:4", &out, &e) == 0,
	   "runScript with env:");
	free(out);
	ok(amc_flow_interp_script(&in, "var x = ;", "f.yaml:5", &out, &e) == -1, "a broken script fails");
	like(e.msg, "f.yaml:5", "naming the command's file and line");
	like(e.msg, "SyntaxError", "with the parser's message");
	amc_flow_interp_pop(&in, mark);
	ok(!amc_flow_interp_get(&in, "SUFFIX"), "runScript's env: gone after it");

	/* faker, Maestro 2.0's DataFaker object (pass-culture-app-native types
	 * ${faker.name().firstName()}): the same names, a subset of providers */
	const char *v = run(&in, "${faker.name().firstName()}", &e);
	ok(v && strstr("Ada Alan Grace Linus Margaret Dennis Barbara Ken Hedy Tim", v) && *v, "faker.name().firstName()");
	v = run(&in, "${faker.internet().emailAddress()}", &e);
	like(v, "@example.com", "faker.internet().emailAddress()");
	v = run(&in, "${faker.number().digits(6)}", &e);
	ok(v && strlen(v) == 6 && strspn(v, "0123456789") == 6, "faker.number().digits(6)");
	v = run(&in, "${faker.expression(\"#{number.numberBetween '3' '4'}\")}", &e);
	is_str(v, "3", "faker.expression with DataFaker's #{provider.method 'arg'}");
	v = run(&in, "${faker.expression('#{Name.first_name}').length > 0}", &e);
	is_str(v, "true", "  provider and method found without case or '_'");
	ok(run(&in, "${faker.lordOfTheRings().character()}", &e) == NULL, "a provider amc lacks fails");
	like(e.msg, "faker.lordOfTheRings is not a function", "  as a TypeError");
	ok(run(&in, "${faker.expression('#{superhero.name}')}", &e) == NULL, "an expression amc lacks fails");
	like(e.msg, "is not in the part of DataFaker amc has", "  saying so");

	is_str(run(&in, "Say ${output.shout} x${COUNT * 2}${(function () { return 1; })()}", &e),
	       "Say hi Ada! x61", "output shared across scripts; each ${} replaced, braces inside kept");
	is_str(run(&in, "${NAME} is ${ NAME }", &e), "Ada is Ada", "plain names without the engine's help");
	is_str(run(&in, "plain text", &e), "plain text", "no ${}: copied as is");
	ok(!run(&in, "a ${NAME", &e), "unterminated ${");
	ok(!run(&in, "a ${nope.x}", &e), "a failing expression");
	like(e.msg, "f.yaml:3", "is named with its line");
	/* GraalJsEngine (Maestro): undeclared names evaluate to undefined */
	is_str(run(&in, "a ${NOPE}", &e), "a undefined", "an undefined plain name is undefined");
	is_str(run(&in, "${NOPE || 'test_store'}", &e), "test_store", "NAME || 'default' works");
	is_str(run(&in, "${typeof A + typeof B}", &e), "undefinedundefined", "typeof an undeclared name");
	is_str(run(&in, "${A ?? 1}", &e) ? "es2020" : e.msg, e.msg[0] ? e.msg : "es2020",
	       "(?? is ES2020: the engine's answer either way)");
	is_str(run(&in, "${output.k = (output.k || 0) + 1, QQ}", &e), "undefined", "an undeclared name after a change");
	is_str(run(&in, "${output.k}", &e), "1", "the change to output is made once, not per retry");
	ok(!run(&in, "${nope.x}", &e), "a property of an undeclared name still fails, as in Maestro");

	/* assertTrue: the condition's text after ${} is judged truthy */
	ok(amc_flow_interp_truthy(run(&in, "${output.shout == 'hi Ada!'}", &e)), "assertTrue: true");
	ok(!amc_flow_interp_truthy(run(&in, "${COUNT > 5}", &e)), "assertTrue: false");
	ok(!amc_flow_interp_truthy(run(&in, "${''}", &e)), "assertTrue: a falsy string");

	amc_flow_interp_set_copied(&in, "clip");
	is_str(run(&in, "${maestro.copiedText.toUpperCase()}", &e), "CLIP", "maestro.copiedText reaches the engine");
	is_str(run(&in, "${maestro.platform}", &e), "android", "maestro.platform as Maestro spells it");
	is_str(run(&in, "${maestro.platform == 'android' ? 'A' : 'B'}", &e), "A", "the same inside the engine");
	amc_flow_interp_free(&in);
	run(&in, "", &e); /* frees the last text */
	amc_script_close(s);

	out = NULL;
	ok(amc_flow_js_eval(NULL, "1", NULL, 0, &out, &e) == -1 && e.code == AMC_EENV,
	   "no engine: an environment error");

	/* attach: the hooks and ownership, or a clear error without amc-js */
	amc_flow_run_opts o;
	amc_flow_run_opts_init(&o);
	setenv("AMC_JS", h && *h ? h : AMC_ABS_BUILDDIR "/amc-js", 1);
	ok(amc_flow_js_attach(&o, NULL, &e) == 0 && o.eval == amc_flow_js_eval && o.eval_ud && o.eval_free,
	   "attach fills the hooks");
	out = NULL;
	ok(o.eval && o.eval(o.eval_ud, "MAESTRO_STORE || 'test_store'", NULL, 0, &out, &e) == 0,
	   "an attached engine reads undefined names as Maestro does");
	is_str(out, "test_store", "NAME || 'default' in a flow run");
	free(out);
	o.eval_free(o.eval_ud);
	amc_flow_run_opts_init(&o);
	setenv("AMC_JS", "/nonexistent/amc-js", 1);
	ok(amc_flow_js_attach(&o, NULL, &e) == -1 && e.code == AMC_EENV && !o.eval, "no helper: refused");
	like(e.msg, "needs the helper amc-js", "saying what is missing");
	return done_testing();
}
