/* test_flow_interp.c - ${...} in flow strings (flow_interp.c): the variable
 * stack, MAESTRO_* variables, undefined names, the JavaScript hook (a stand-in
 * here: the engine is its own module), truthiness. */
#include <stdlib.h>
#include <string.h>

#include "flow/flow_interp.h"
#include "tap.h"

/* A stand-in engine: "1+1" is 2, "fail" fails, "vars" lists what it was given. */
static int calls;
static int fake_eval(void *ud, const char *expr, const struct amc_flow_var *vars, size_t n, char **out, amc_err *e)
{
	(void)ud;
	calls++;
	if (!strcmp(expr, "fail") || !strcmp(expr, "fail()"))
		return amc_err_set(e, AMC_EFAIL, "ReferenceError: fail is not defined");
	if (!strcmp(expr, "vars")) {
		char buf[256] = "";
		for (size_t i = 0; i < n; i++) {
			strncat(buf, vars[i].name, sizeof buf - strlen(buf) - 1);
			strncat(buf, "=", sizeof buf - strlen(buf) - 1);
			strncat(buf, vars[i].value, sizeof buf - strlen(buf) - 1);
			strncat(buf, ";", sizeof buf - strlen(buf) - 1);
		}
		*out = strdup(buf);
		return 0;
	}
	*out = strdup(!strcmp(expr, "1+1") ? "2" : "?");
	return 0;
}

static char *got;
static const char *interp(amc_flow_interp *in, const char *s, amc_err *e)
{
	free(got);
	got = NULL;
	amc_err_clear(e);
	if (amc_flow_interp_str(in, s, "f.yaml:3", &got, e) != 0)
		return NULL;
	return got;
}

static int names_seen;
static int count_name(void *ud, const char *name)
{
	(void)ud;
	names_seen += !strcmp(name, "A") || !strcmp(name, "B");
	return 0;
}

int main(void)
{
	amc_flow_interp in;
	amc_err e;
	amc_flow_interp_init(&in);
	char *envp[] = { "HOME=/root", "MAESTRO_USER=ada", "MAESTRO_BAD", NULL };
	amc_flow_interp_environ(&in, envp);
	is_str(amc_flow_interp_get(&in, "MAESTRO_USER"), "ada", "MAESTRO_* read from the environment");
	ok(amc_flow_interp_get(&in, "HOME") == NULL, "other variables are not");
	amc_flow_interp_push(&in, "NAME", "Ada");
	is_str(interp(&in, "Hello ${NAME}!", &e), "Hello Ada!", "${NAME}");
	is_str(interp(&in, "${ NAME }${NAME}", &e), "AdaAda", "spaces inside, twice");
	is_str(interp(&in, "no vars $NAME {x}", &e), "no vars $NAME {x}", "text without ${ is kept");
	size_t mark = amc_flow_interp_mark(&in);
	amc_flow_interp_push(&in, "NAME", "Grace");
	is_str(interp(&in, "${NAME}", &e), "Grace", "the topmost wins (runFlow env:)");
	amc_flow_interp_pop(&in, mark);
	is_str(interp(&in, "${NAME}", &e), "Ada", "popped with its block");
	/* Maestro's GraalJsEngine reads an undeclared name as undefined */
	is_str(interp(&in, "${NOPE}", &e), "undefined", "an undefined name is undefined, as in Maestro");
	is_str(interp(&in, "a${NOPE}b", &e), "aundefinedb", "inside a text too");
	is_str(interp(&in, "${maestro.platform}", &e), "android", "maestro.platform without JavaScript");
	amc_flow_interp_set_copied(&in, "copied!");
	is_str(interp(&in, "${maestro.copiedText}", &e), "copied!", "maestro.copiedText without JavaScript");
	ok(interp(&in, "${1+1}", &e) == NULL, "an expression without an engine is refused");
	like(e.msg, "f.yaml:3: JavaScript is not available in this build", "saying so, with the file and line");
	ok(interp(&in, "${unclosed", &e) == NULL, "an unclosed ${ is refused");

	in.eval = fake_eval;
	is_str(interp(&in, "x=${1+1}", &e), "x=2", "an expression goes to the engine");
	is_str(interp(&in, "${vars}", &e), "NAME=Ada;MAESTRO_USER=ada;", "with the visible variables, topmost first");
	ok(interp(&in, "${fail()}", &e) == NULL && e.code == AMC_EFAIL, "an engine error fails");
	like(e.msg, "f.yaml:3: ReferenceError", "with the file and line");
	ok(interp(&in, "${fail}", &e) == NULL && e.code == AMC_EFAIL, "a plain name goes to the engine");
	like(e.msg, "f.yaml:3: ReferenceError", "whose error is the step's");
	int before = calls;
	is_str(interp(&in, "${ {a: '}'}.a }", &e), "?", "braces and quotes inside an expression");
	ok(calls == before + 1, "one expression, one call");
	char *out = NULL;
	ok(amc_flow_interp_script(&in, "1+1", "s.js", &out, &e) == 0 && !strcmp(out, "2"), "a whole script");
	free(out);

	ok(!amc_flow_interp_needs_js("${A} and ${ B }") && !amc_flow_interp_needs_js("plain"),
	   "plain names need no JavaScript");
	ok(!amc_flow_interp_needs_js("${maestro.copiedText}"), "nor the built-ins");
	ok(amc_flow_interp_needs_js("${output.x}") && amc_flow_interp_needs_js("${A || 'b'}") &&
	   amc_flow_interp_needs_js("${A"), "expressions do");
	amc_flow_interp_names("${A}${output.x}${ B }", count_name, NULL);
	is_int(names_seen, 2, "the plain names of a text");

	const char *falsy[] = { "", "false", " FALSE ", "0", "null", "undefined", "NaN" };
	int nf = 0;
	for (size_t i = 0; i < sizeof falsy / sizeof falsy[0]; i++)
		nf += !amc_flow_interp_truthy(falsy[i]);
	is_int(nf, 7, "falsy texts");
	ok(amc_flow_interp_truthy("true") && amc_flow_interp_truthy("1") && amc_flow_interp_truthy("yes") &&
	   amc_flow_interp_truthy("Groceries"), "truthy texts");
	free(got);
	amc_flow_interp_free(&in);
	return done_testing();
}
